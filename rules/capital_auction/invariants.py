"""What every reachable Capital Auction position keeps (the conformance test checks it on real
positions and on the states ``sample`` deals)."""

from __future__ import annotations

from typing import Any

from ..core.invariants import as_dealt
from ..core.known import known_in_hands
from .state import CapitalAuctionState


def invariants(spec: Any, state: CapitalAuctionState) -> list[str]:
    """The broken ones, in words (empty: the position could be reached)."""
    problems = as_dealt(spec, state) + known_in_hands(state.known, state.capital, "Capital hand")
    for seat, slots in enumerate(state.portfolios):
        for slot in slots:
            if seat not in slot.seen:  # a player may look at their own face-down cards at any time
                problems.append(f"seat {seat} has not seen {slot.card.key} in its own portfolio")
    return problems
