"""What every reachable Property position keeps (the conformance test checks it on real
positions and on the states ``sample`` deals)."""

from __future__ import annotations

from typing import Any

from ..core.invariants import as_dealt, not_negative
from .state import PropertyState, hand_shape, index


def invariants(spec: Any, state: PropertyState) -> list[str]:
    """The broken ones, in words (empty: the position could be reached)."""
    problems = as_dealt(spec, state) + not_negative(state.money, "money")
    for seat, hand in enumerate(state.hands):
        reds = sum(card.is_red for card in hand)
        blacks = len(hand) - reds
        shape = hand_shape(seat, state.pending, state.bankrupt, state.over)
        if not {"empty": not hand, "one colour": not (reds and blacks),
                "one single": min(reds, blacks) == 1}[shape]:
            problems.append(f"seat {seat}'s hand has {reds} red and {blacks} black cards, not {shape}")
        if shape == "empty" and state.cells_of(seat):
            problems.append(f"seat {seat} is bankrupt but owns cells")
    if not state.over and state.current in state.bankrupt:
        problems.append(f"seat {state.current} is to play but is bankrupt")
    for i, owner in enumerate(state.owners):
        if owner is None and state.mortgaged[i]:
            problems.append(f"cell {i} is mortgaged but nobody owns it")
    pending = state.pending
    if pending is not None and (pending.payer != state.current
                                or state.owners[index(pending.col, pending.row)] != pending.owner):
        problems.append("the purchase on offer is not the current player's, or not of the owner's cell")
    return problems
