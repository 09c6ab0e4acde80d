"""Abundance (pagat.com invented games): two players bid for trinkets at open, sealed and
one-bid auctions, trade them, and sell them to a market that pays most for the rarest suit.
``SPEC`` is the game's GameSpec; the rules page is seeds/abundance.md."""

from .bot import AbundanceBot, GreedyBot
from .market import pays, rarity, round_values, sale_by_suit, sale_value, suit_counts
from .rules import AbundanceGame

SPEC = AbundanceGame(bots={"bot": AbundanceBot(), "greedy": GreedyBot()})

__all__ = [
    "SPEC", "AbundanceBot", "AbundanceGame", "GreedyBot", "pays", "rarity", "round_values",
    "sale_by_suit", "sale_value", "suit_counts",
]
