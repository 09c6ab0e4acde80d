"""Playing cards: suits, ranks, colours, jokers, multi-deck builds and the card notation.

Notation: rank then suit letter, ``AS 2H 10D JC QS KH``; ``JK`` is a joker. A physical card in a
multi-deck build carries a copy number after a dot (``7S.1`` is the second 7 of spades); copy 0
is written without it. Suit symbols (``10♥``) and ``T`` for ten are accepted on input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import Iterable

from .errors import NotationError


class Colour(Enum):
    RED = "red"
    BLACK = "black"

    __hash__ = object.__hash__  # as Suit's, below: a hand's colours are gathered in sets


class Suit(Enum):
    """The four suits, in the project's suit order ♠ ♥ ♦ ♣."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def colour(self) -> Colour:
        return self._colour  # type: ignore[attr-defined]  # set below, once

    @property
    def order(self) -> int:
        return self._order  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    # members are singletons: identity hashing (in C) instead of Enum's hash of the name (in
    # Python), which card faces used as dict keys call millions of times in a simulation
    __hash__ = object.__hash__


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# stored on each suit, not computed or looked up by hash: rules and bots ask a card's colour
# and suit order millions of times in a simulation (an Enum's hash is a Python call)
for _i, _suit in enumerate(SUITS):
    _suit._order = _i  # type: ignore[attr-defined]
    _suit._colour = Colour.RED if _suit.value in "HD" else Colour.BLACK  # type: ignore[attr-defined]
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INPUT = {**{s.value: s for s in SUITS}, **{v: k for k, v in _SYMBOLS.items()}, "♤": Suit.SPADES,
               "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))
_RANK_CODES = {1: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}
_RANK_INPUT = {**{v: k for k, v in _RANK_CODES.items()}, "T": 10, "1": 1}
_RANK_NAMES = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King", **{n: str(n) for n in range(2, 11)}}


def rank_code(rank: int) -> str:
    """``1`` → ``A``, ``10`` → ``10``, ``13`` → ``K``."""
    return _RANK_CODES[rank]


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. ``rank`` 1–13 (Ace low), 0 for a joker; ``copy`` tells identical
    cards of a multi-deck build apart. Rules compare faces (``same_face``); states hold cards."""

    rank: int
    suit: Suit | None
    copy: int = 0
    # derived once at creation (rules and bots read them millions of times a simulation)
    face: tuple[int, Suit | None] = field(init=False, repr=False, compare=False)
    _sort: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.suit is None and self.rank != 0:
            raise ValueError("only a joker (rank 0) has no suit")
        if self.suit is not None and self.rank not in RANKS:
            raise ValueError(f"rank {self.rank} is not 1-13")
        object.__setattr__(self, "face", (self.rank, self.suit))
        order = 4 if self.suit is None else self.suit._order  # type: ignore[attr-defined]
        object.__setattr__(self, "_sort", (order, self.rank, self.copy))
        object.__setattr__(self, "_hash", hash((self.rank, self.suit, self.copy)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # the dataclass's own builds two tuples a comparison; rules compare cards (``in hand``,
        # ``remove``) millions of times a simulation. ``_sort`` holds the same three fields.
        if other.__class__ is not Card:
            return NotImplemented
        return self._sort == other._sort  # type: ignore[attr-defined]

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        # immutable: undo snapshots and bots copy whole states at every command
        return self

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def colour(self) -> Colour | None:
        return None if self.suit is None else self.suit._colour  # type: ignore[attr-defined]

    @property
    def is_red(self) -> bool:
        return self.suit is not None and self.suit._colour is Colour.RED  # type: ignore[attr-defined]

    @property
    def is_black(self) -> bool:
        return self.suit is not None and self.suit._colour is Colour.BLACK  # type: ignore[attr-defined]

    @property
    def code(self) -> str:
        """The face in notation, without the copy number: ``10H``, ``JK``."""
        if self.suit is None:
            return "JK"
        return _RANK_CODES[self.rank] + self.suit.letter

    @property
    def key(self) -> str:
        """The physical card in notation: ``10H``, or ``10H.2`` for copy 2. Unique in a build."""
        return self.code if self.copy == 0 else f"{self.code}.{self.copy}"

    @property
    def symbol(self) -> str:
        """For display: ``10♥``, ``🃏`` is avoided (wide); a joker shows as ``JK``."""
        if self.suit is None:
            return "JK"
        return _RANK_CODES[self.rank] + self.suit.symbol

    @property
    def name(self) -> str:
        if self.suit is None:
            return "Joker"
        return f"{_RANK_NAMES[self.rank]} of {self.suit.name.title()}"

    def same_face(self, other: Card) -> bool:
        return self.rank == other.rank and self.suit is other.suit

    def sort_key(self) -> tuple[int, int, int]:
        """Suit order ♠ ♥ ♦ ♣ then rank, jokers last."""
        return self._sort

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.key!r})"


def parse_card(text: str) -> Card:
    """Read ``10H``, ``th``, ``A♠``, ``JK`` or ``7S.1`` (a copy number) into a Card; anything
    else raises NotationError with a sentence."""
    if not isinstance(text, str):
        raise NotationError(f"expected a card such as 10H or QS, got {text!r}")
    raw = text
    text = text.strip().upper()
    if not text:
        raise NotationError("expected a card such as 10H or QS, got nothing")
    copy = 0
    if "." in text:
        text, _, copy_text = text.partition(".")
        if not (copy_text.isascii() and copy_text.isdigit() and len(copy_text) <= 3):
            raise NotationError(f"{raw!r} is not a card: the copy number after '.' must be a number")
        copy = int(copy_text)
    if text in ("JK", "JOKER"):
        return Card(0, None, copy)
    rank_text, suit_text = text[:-1], text[-1:]
    suit = _SUIT_INPUT.get(suit_text)
    if suit is None:
        raise NotationError(f"{raw!r} is not a card: {suit_text!r} is not a suit (use S, H, D or C)")
    rank = _RANK_INPUT.get(rank_text)
    if rank is None:
        raise NotationError(f"{raw!r} is not a card: {rank_text!r} is not a rank (use A, 2-10, J, Q or K)")
    return Card(rank, suit, copy)


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces or commas."""
    return [parse_card(part) for part in text.replace(",", " ").split()]


def build_deck(decks: int = 1, jokers: int = 0, ranks: Iterable[int] = RANKS) -> list[Card]:
    """``decks`` standard decks (of the given ranks) plus ``jokers`` jokers per deck, every
    physical card unique, in a fixed order (shuffle with the state's random source)."""
    return list(_deck(decks, jokers, tuple(ranks)))


@lru_cache(maxsize=64)
def _deck(decks: int, jokers: int, ranks: tuple[int, ...]) -> tuple[Card, ...]:
    # cards are immutable, so every game may share them: a simulation deals thousands of games
    cards = [Card(rank, suit, copy) for copy in range(decks) for suit in SUITS for rank in ranks]
    cards += [Card(0, None, n) for n in range(decks * jokers)]
    return tuple(cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_SORT_KEY)


_SORT_KEY = attrgetter("_sort")  # Card.sort_key read in C: games sort hands at every command


def find_card(cards: Iterable[Card], wanted: Card) -> Card | None:
    """The physical card in ``cards`` that notation ``wanted`` names: the exact copy when the
    text named one (``7S.1``), else the lowest copy of that face."""
    cards = list(cards)
    if wanted in cards:
        return wanted
    if wanted.copy != 0:
        return None
    same = sorted((c for c in cards if c.same_face(wanted)), key=lambda c: c.copy)
    return same[0] if same else None
