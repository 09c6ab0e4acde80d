"""What a portfolio is worth: the income its run pays. Shared by the rules and the estimate of
a table (estimate.py), which the rules import (so it cannot import the rules)."""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Iterable

from rules.core import Card


def portfolio_value(cards: Iterable[Card]) -> int:
    """The income a run pays: every card but the two lowest counts (caps are not in ``cards``)."""
    return _value_of_ranks(tuple(map(_RANK, cards)))


_RANK = attrgetter("rank")  # read in C: the rules value every portfolio at every turn


@lru_cache(maxsize=4096)
def _value_of_ranks(ranks: tuple[int, ...]) -> int:
    # a card's worth (rules.card_value) grows with its rank, so the two lowest ranks are the
    # two that do not count
    return sum(2 if r <= 6 else 3 if r <= 10 else 4 for r in sorted(ranks)[2:])
