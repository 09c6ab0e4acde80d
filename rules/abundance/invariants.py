"""What every reachable Abundance position keeps (the conformance test checks it on real
positions and on the states ``sample`` deals)."""

from __future__ import annotations

from typing import Any

from ..core.invariants import as_dealt, not_negative
from .state import AbundanceState


def invariants(spec: Any, state: AbundanceState) -> list[str]:
    """The broken ones, in words (empty: the position could be reached)."""
    problems = as_dealt(spec, state) + not_negative(state.money, "money")
    if state.sealed is not None:
        for seat, bid in state.sealed.bids.items():
            if not 0 <= bid <= state.money[seat]:
                problems.append(f"seat {seat}'s sealed bid of {bid} is not within its money")
    return problems
