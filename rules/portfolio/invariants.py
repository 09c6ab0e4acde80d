"""What every reachable Portfolio position keeps (the conformance test checks it on real
positions and on the states ``sample`` deals)."""

from __future__ import annotations

from typing import Any

from ..core.invariants import as_dealt, not_negative
from ..core.known import known_in_hands
from .state import PortfolioState


def invariants(spec: Any, state: PortfolioState) -> list[str]:
    """The broken ones, in words (empty: the position could be reached)."""
    problems = as_dealt(spec, state) + not_negative(state.money, "money") + known_in_hands(state.known, state.hands)
    taken = state.taken_discard
    if taken is not None and taken in state.stock:
        # the card taken from the discard pile this turn is held or played: on a portfolio, or
        # back on the discard pile when it neutralised one or was an Ace acquiring a King
        problems.append(f"{taken.key}, taken from the discard pile this turn, is in the stock")
    kept = state.__dict__.get("_infos")  # the portfolios kept for the views (rules.infos_of)
    if kept is not None and [(i.pid, i.owner, i.cards, i.low_cap, i.high_cap) for i in kept] != [
            (p.pid, p.owner, tuple(p.cards), p.low_cap, p.high_cap) for p in state.portfolios]:
        problems.append("the portfolios kept for the views are not the table's")
    for p in state.portfolios:
        if len(p.cards) < 3 or len({card.suit for card in p.cards}) != 1:
            problems.append(f"portfolio {p.pid} is not a run of at least three cards of one suit")
    return problems
