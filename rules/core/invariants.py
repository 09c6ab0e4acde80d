"""What every game's ``invariants(state)`` shares: the facts a reachable position keeps, each
broken one told in words. A game's own list (hand make-up, money, piles) lives in its package
(``rules/<game>/invariants.py``); the conformance test checks it on every real position and on
the states ``sample`` deals, where a hand the rules could never deal would mislead a search."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable


def card_set(found: Iterable[Any], expected: Iterable[Any], what: str = "the cards") -> list[str]:
    """Every card of ``expected`` exactly once in ``found`` (cards, Capital, Tools: anything
    with a ``key`` or a plain value); what is missing or extra, in words."""
    def keys(cards: Iterable[Any]) -> Counter:
        return Counter(getattr(card, "key", card) for card in cards)

    have, want = keys(found), keys(expected)
    problems = []
    missing, extra = want - have, have - want
    if missing:
        problems.append(f"{what}: missing {', '.join(map(str, sorted(missing.elements())))}")
    if extra:
        problems.append(f"{what}: extra {', '.join(map(str, sorted(extra.elements())))}")
    return problems


def not_negative(values: Iterable[int], what: str) -> list[str]:
    """Each seat's ``what`` (money, debt) at least 0."""
    return [f"seat {seat}'s {what} is {value}, below 0" for seat, value in enumerate(values) if value < 0]


def as_dealt(spec: Any, state: Any) -> list[str]:
    """What no command changes (``spec.conserved``: the cards, the money with the bank) as a
    new game for the same players and options has it, so a sampled state holds every card once."""
    fresh = spec.conserved(spec.setup(list(state.names), getattr(state, "options", None), 0))
    found = spec.conserved(state)
    problems = []
    for key, want in fresh.items():
        have = found.get(key)
        if isinstance(want, list) and isinstance(have, list):
            problems += card_set(have, want, f"the {key}")
        elif have != want:
            problems.append(f"the {key} add up to {have}, not {want}")
    return problems
