"""Sid Sackson's Card Stock Market: buy certificates of the four suit companies, push their prices
up or crash them with the cards in hand, and be the richest when a joker comes up. Rules page:
seeds/card-stock-market.md. ``SPEC`` is the game's GameSpec."""

from .bot import GreedyBot, StockMarketBot
from .commands import Buy, Discard, End, Lay, Sell
from .notation import StockMarketNotation
from .rules import (
    LayRange, StockMarketGame, card_uses, crash_losses, held_shares, holding_value, lay_effect,
    lay_range, range_of, worth,
)
from .state import COMPANIES, LIMITS, Company, StockMarketState, StockMarketView, shares

SPEC = StockMarketGame(StockMarketNotation(), {"bot": StockMarketBot(), "greedy": GreedyBot()})

__all__ = [
    "COMPANIES", "LIMITS", "SPEC", "Buy", "Company", "Discard", "End", "GreedyBot", "Lay",
    "LayRange", "Sell", "StockMarketBot", "StockMarketGame", "StockMarketNotation",
    "StockMarketState", "StockMarketView", "card_uses", "crash_losses", "held_shares", "holding_value",
    "lay_effect", "lay_range", "range_of", "shares", "worth",
]
