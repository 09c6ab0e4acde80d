"""Portfolio (Larry Levy, Al Dunn, Bill Moore): runs of cards that pay income, taken over or
thrown away by rivals. ``SPEC`` is the game's GameSpec."""

from .bot import GreedyBot, PortfolioBot
from .rules import PortfolioGame

SPEC = PortfolioGame(bots={"bot": PortfolioBot(), "greedy": GreedyBot()})

__all__ = ["SPEC", "PortfolioBot", "PortfolioGame"]
