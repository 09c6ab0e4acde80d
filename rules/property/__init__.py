"""Sid Sackson's Property: claim cells of an 8×8 grid with a red and a black card, collect rent
on connected groups, buy with court cards, go bankrupt. Rules page: seeds/property.md."""

from .bot import GreedyBot, PropertyBot
from .commands import Buy, Decline, Play
from .notation import PropertyNotation
from .rules import (
    STARTING_MONEY, UNIT_SHARES, PropertySpec, cells_for, group, is_wild, multiplier, preview,
    useful_purchases,
)
from .state import LastPlay, PendingPurchase, PropertyState, PropertyView, cell_name, index

SPEC = PropertySpec(PropertyNotation(), {"bot": PropertyBot(), "greedy": GreedyBot()})

__all__ = [
    "SPEC", "STARTING_MONEY", "UNIT_SHARES", "Buy", "Decline", "LastPlay", "PendingPurchase",
    "Play", "PropertyBot", "PropertySpec", "PropertyState", "PropertyView", "cell_name",
    "cells_for", "group", "index", "is_wild", "multiplier", "preview", "useful_purchases",
]
