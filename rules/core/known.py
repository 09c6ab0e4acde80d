"""Cards in a hand that every seat knows are there: each seat saw them go in (taken from a
face-up pile, shown in an offer, handed over in a deal, a bid taken back) and has not seen them
leave since. A game keeps them per seat in its state (``known[seat]``, always part of that
seat's hand), shows them in every view and keeps them in their hand when it samples the cards a
seat cannot see; everything else is dealt as before.

They are physical cards: a view names the copy of every card it shows (the copy played, bid or
discarded), so a seat that saw a known card's twin leave knows the known one stayed.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from .errors import RulesError


def forget(known: list[Any], leaving: Iterable[Any]) -> None:
    """``leaving`` left the hand whose known cards are ``known``, in sight of every seat."""
    if known:
        for card in leaving:
            if card in known:
                known.remove(card)


def show(known: list[Any], cards: Iterable[Any]) -> None:
    """``cards`` were shown in the hand (offered, say): known from now on."""
    known += [card for card in cards if card not in known]


def known_in_hands(known: Sequence[Sequence[Any]], hands: Sequence[Sequence[Any]], what: str = "hand") -> list[str]:
    """The invariant: one list per seat, each known card once, in that seat's ``what``."""
    if len(known) != len(hands):
        return [f"known cards are listed for {len(known)} seats, not {len(hands)}"]
    problems = []
    for seat, (cards, hand) in enumerate(zip(known, hands)):
        left = list(hand)
        for card in cards:
            if card in left:
                left.remove(card)
            else:
                problems.append(f"{getattr(card, 'key', card)}, known to be in seat {seat}'s {what}, is not there")
    return problems


def read_known(value: Any, hands: Sequence[Sequence[Any]], read: Callable[[Any], Any], what: str = "hand") -> list[list[Any]]:
    """``known`` from a position's JSON (one list of cards per seat), each card in its seat's
    hand; RulesError in words otherwise."""
    if not isinstance(value, list) or len(value) != len(hands) or not all(isinstance(v, list) for v in value):
        raise RulesError(f"'known' needs a list of cards for each of the {len(hands)} players")
    known = [[read(card) for card in cards] for cards in value]
    problems = known_in_hands(known, hands, what)
    if problems:
        raise RulesError(problems[0])
    return known
