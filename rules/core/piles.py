"""Piles of cards: the stock, a discard pile, a deck to deal from.

A pile is a plain list whose TOP is its END: a card is drawn with ``pop()`` and discarded with
``append()``. (A game whose hand-written JSON lists a pile top first converts at its JSON
border.) All shuffling goes through ``shuffled`` with the game's seed and chance counter.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable, Sequence, TypeVar

from .engine import chance

T = TypeVar("T")


def shuffled(cards: Iterable[T], seed: int, counter: int | str) -> list[T]:
    """A new list of ``cards`` in the order the ``counter``-th chance draw of ``seed`` gives."""
    pile = list(cards)
    shuffle(pile, chance(seed, counter))
    return pile


def shuffle(pile: list[T], rng: random.Random) -> None:
    """``rng.shuffle(pile)``, the same order from the same draws (saves replay from them;
    tests/core/test_piles.py holds it to the standard library's), at a third of its cost: its
    ``_randbelow`` is a Python call per card, and games deal thousands of decks a simulation."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(pile)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pile[i], pile[j] = pile[j], pile[i]


@lru_cache(maxsize=256)  # a game shuffles piles of a few sizes, thousands of times
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's steps for a pile of ``size``: the place ``i`` it fills, from the top down,
    the ``n`` places it draws among and the ``k`` random bits that takes (``_randbelow``'s)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def draw(pile: list[T], count: int = 1) -> list[T]:
    """Take up to ``count`` cards from the top of ``pile``, in the order they were drawn."""
    taken = []
    while pile and len(taken) < count:
        taken.append(pile.pop())
    return taken


def top(pile: Sequence[T]) -> T | None:
    """The card on top, or None for an empty pile."""
    return pile[-1] if pile else None


def deal(pile: list[T], players: int, count: int, first: int = 0) -> list[list[T]]:
    """Deal ``count`` cards to each of ``players`` seats from the top of ``pile``, one at a
    time round the table starting with seat ``first``."""
    hands: list[list[T]] = [[] for _ in range(players)]
    for _ in range(count):
        for step in range(players):
            if pile:
                hands[(first + step) % players].append(pile.pop())
    return hands


def stack(top_first: Iterable[T]) -> list[T]:
    """A pile from cards listed top first (as hand-written JSON lists them)."""
    return list(reversed(list(top_first)))


def top_first(pile: Sequence[T]) -> list[T]:
    """The pile's cards listed top first."""
    return list(reversed(pile))


__all__ = ["deal", "draw", "shuffle", "shuffled", "stack", "top", "top_first"]
