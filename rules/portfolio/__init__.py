"""Portfolio (Larry Levy, Al Dunn, Bill Moore): runs of cards that pay income, taken over or
thrown away by rivals. ``SPEC`` is the game's GameSpec."""

from .bot import PortfolioBot
from .rules import PortfolioGame

SPEC = PortfolioGame(bots={"bot": PortfolioBot()})

__all__ = ["SPEC", "PortfolioBot", "PortfolioGame"]
