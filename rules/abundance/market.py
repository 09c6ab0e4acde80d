"""Abundance's market: how rare each suit is, what it pays, and what trinkets sell for.

Pure functions of plain numbers, shared by the rules (the sale at the end of a round), the
table (the market tally, what each player's trinkets would sell for now) and the bots.

- ``counts`` are per suit, in suit order ♠ ♥ ♦ ♣: how many cards of that suit have come up so
  far in this rubber (the aces keep the tally; the ace itself is not counted).
- The suits rank by count, fewest first; a tie goes to the earlier suit (♠, ♥, ♦, ♣), which
  counts as rarer. The three rarest pay the round's three values per trinket; the most
  abundant pays nothing.
- Three or more trinkets of one suit in one player's hands are a corner: that suit pays triple.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from math import comb
from typing import Iterable, Sequence

from rules.core import SUITS, Card, Suit

ROUNDS = 4
PILE_SIZE = 12
CORNER = 3  # this many of a suit in one hand is a corner …
CORNER_TIMES = 3  # … and pays this many times the value
PER_SUIT = 12  # trinkets of each suit: 2 to King (the aces keep the tally)

OPEN, SEALED, ONE_BID = "open", "sealed", "one bid"
ROUND_KINDS = {1: OPEN, 2: SEALED, 3: ONE_BID, 4: OPEN}
"""The kind of auction of each round (a tied sealed auction is re-run open)."""

ROUND_VALUES = {1: (20, 4, 2), 2: (40, 8, 4), 3: (80, 16, 8), 4: (160, 32, 16)}
"""What the rarest, second and third rarest suits pay per trinket, by round."""


def round_values(round_number: int) -> tuple[int, int, int]:
    """The three market values of a round: 20/4/2, doubling every round."""
    return ROUND_VALUES[round_number]


def suit_counts(cards: Iterable[Card]) -> tuple[int, int, int, int]:
    """How many of ``cards`` are of each suit, in suit order ♠ ♥ ♦ ♣."""
    suits = list(map(_SUIT, cards))  # counted in C: every view counts the rubber's cards
    spades, hearts, diamonds, clubs = SUITS
    return (suits.count(spades), suits.count(hearts), suits.count(diamonds), suits.count(clubs))


_SUIT = attrgetter("suit")


def rarity(counts: Sequence[int]) -> tuple[Suit, Suit, Suit, Suit]:
    """The suits rarest first: fewest cards up so far, ties in suit order ♠ ♥ ♦ ♣."""
    return _rarity(tuple(counts))


@lru_cache(maxsize=4096)  # as _pays: every view of a tally asks again
def _rarity(counts: tuple[int, ...]) -> tuple[Suit, Suit, Suit, Suit]:
    order = sorted(range(4), key=lambda i: (counts[i], i))
    return (SUITS[order[0]], SUITS[order[1]], SUITS[order[2]], SUITS[order[3]])


def pays(counts: Sequence[int], round_number: int) -> tuple[int, int, int, int]:
    """What one trinket of each suit (suit order) sells for in this round at these counts."""
    return _pays(tuple(counts), round_number)


@lru_cache(maxsize=8192)  # a rubber has a few hundred tallies; bots and views ask again and again
def _pays(counts: tuple[int, ...], round_number: int) -> tuple[int, int, int, int]:
    values = round_values(round_number)
    paid = [0, 0, 0, 0]
    for place, suit in enumerate(rarity(counts)[:3]):
        paid[suit.order] = values[place]
    return (paid[0], paid[1], paid[2], paid[3])


def is_corner(held: int) -> bool:
    """Three or more of one suit in one hand corner the market."""
    return held >= CORNER


def suit_sale(held: int, pay: int) -> int:
    """What ``held`` trinkets of a suit paying ``pay`` each sell for (triple for a corner)."""
    return held * pay * (CORNER_TIMES if held >= CORNER else 1)


def sale_by_suit(trinkets: Iterable[Card], counts: Sequence[int], round_number: int) -> tuple[int, int, int, int]:
    """What a player's trinkets of each suit (suit order) would sell for at these counts."""
    held = suit_counts(trinkets)
    paid = pays(counts, round_number)
    return tuple(suit_sale(held[i], paid[i]) for i in range(4))  # type: ignore[return-value]


def held_sale(held: Sequence[int], paid: Sequence[int]) -> int:
    """What ``held`` trinkets of each suit (suit order) sell for at ``paid`` (``pays``): the sum
    of ``sale_by_suit``, worked out without a call per suit (every view asks it twice)."""
    a, b, c, d = held
    return (a * paid[0] * (CORNER_TIMES if a >= CORNER else 1) + b * paid[1] * (CORNER_TIMES if b >= CORNER else 1)
            + c * paid[2] * (CORNER_TIMES if c >= CORNER else 1) + d * paid[3] * (CORNER_TIMES if d >= CORNER else 1))


def sale_value(trinkets: Iterable[Card], counts: Sequence[int], round_number: int) -> int:
    """What a player's trinkets would sell for if the round ended with these counts: the helper
    the table shows beside each player's trinkets ("sells for $36 now")."""
    return sum(sale_by_suit(trinkets, counts, round_number))


@lru_cache(maxsize=65536)
def expected_pays(counts: tuple[int, ...], round_number: int, to_come: int) -> tuple[float, ...]:
    """What one trinket of each suit (♠ ♥ ♦ ♣) should fetch at this round's sale, on average,
    when ``counts`` have come up so far this rubber and ``to_come`` more cards of this round's
    pile are still face down: the pile's rest is an even chance among the unseen cards
    (``PER_SUIT - count`` of each suit). With nothing to come it is the market's pay exactly."""
    unseen = [PER_SUIT - c for c in counts]
    total = sum(unseen)
    to_come = max(0, min(to_come, total))
    result = [0.0, 0.0, 0.0, 0.0]
    for a in range(min(unseen[0], to_come) + 1):
        for b in range(min(unseen[1], to_come - a) + 1):
            for c in range(min(unseen[2], to_come - a - b) + 1):
                d = to_come - a - b - c
                if d > unseen[3]:
                    continue
                weight = comb(unseen[0], a) * comb(unseen[1], b) * comb(unseen[2], c) * comb(unseen[3], d)
                final = (counts[0] + a, counts[1] + b, counts[2] + c, counts[3] + d)
                for i, pay in enumerate(pays(final, round_number)):
                    result[i] += weight * pay
    ways = comb(total, to_come)
    return tuple(value / ways for value in result)


def expected_sale(held: Sequence[int], expected: Sequence[float]) -> float:
    """What ``held`` trinkets of each suit (suit order) should sell for at ``expected`` pays
    (``expected_pays``), corners included."""
    a, b, c, d = held
    e0, e1, e2, e3 = expected
    # the four suits' sales added as sum() adds them (from 0, in suit order): the same float
    return (0 + a * e0 * (CORNER_TIMES if a >= CORNER else 1) + b * e1 * (CORNER_TIMES if b >= CORNER else 1)
            + c * e2 * (CORNER_TIMES if c >= CORNER else 1) + d * e3 * (CORNER_TIMES if d >= CORNER else 1))


__all__ = [
    "CORNER", "CORNER_TIMES", "ONE_BID", "OPEN", "PER_SUIT", "PILE_SIZE", "ROUNDS", "ROUND_KINDS",
    "ROUND_VALUES", "SEALED", "expected_pays", "expected_sale", "held_sale", "is_corner", "pays", "rarity",
    "round_values", "sale_by_suit", "sale_value", "suit_counts", "suit_sale",
]
