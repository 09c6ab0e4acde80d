"""What every reachable Card Stock Market position keeps (the conformance test checks it on
real positions and on the states ``sample`` deals)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.invariants import as_dealt, not_negative
from .state import HAND_SIZE, MAX_SHARES, StockMarketState


def invariants(spec: Any, state: StockMarketState) -> list[str]:
    """The broken ones, in words (empty: the position could be reached)."""
    problems = as_dealt(spec, state) + not_negative(state.money, "money") + not_negative(state.debt, "debt")
    for seat, hand in enumerate(state.hands):
        if any(card.is_joker for card in hand):
            problems.append(f"seat {seat} holds a joker (drawing one ends the game at once)")
        if len(hand) > HAND_SIZE:
            problems.append(f"seat {seat} holds {len(hand)} cards, more than {HAND_SIZE}")
        for suit, count in Counter(card.suit for card in state.holdings[seat]).items():
            if count > MAX_SHARES:
                problems.append(f"seat {seat} holds {count} shares of {suit}, more than {MAX_SHARES}")
    return problems
