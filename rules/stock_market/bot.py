"""Card Stock Market's bots (placeholders while the rules settle)."""

from __future__ import annotations

import random
from typing import Sequence

from rules.core import Command


class StockMarketBot:
    def choose(self, view, legal: Sequence[Command], rng: random.Random) -> Command:
        return legal[-1]


class GreedyBot:
    def choose(self, view, legal: Sequence[Command], rng: random.Random) -> Command:
        return legal[-1]
