"""The sentences games write in their events, messages, statuses and results, and the small
helpers that build them.

A sentence is for people, but its parts are data: a ``Sentence`` is a str (its plain text, what
a log file or a test reads) that also carries ``parts`` — plain text, and the players, cards and
sums of money it names (``Player``, ``Card``, ``Money``). A screen styles the parts (a card in
its suit's colour, a name in bold) without reading the text again, so a name a person typed is
never mistaken for anything but a name, and a card is never found by searching the words.
``say("{} paid {} {} rent.", player(names, 0), player(names, 1), Money(12))`` builds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Formatter
from typing import Any, Iterable, Sequence

from .cards import Card


@dataclass(frozen=True)
class Player:
    """A player named in a sentence: their seat, and their name as they typed it."""

    seat: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Money:
    """A sum of money in a sentence: ``$12``."""

    amount: int

    def __str__(self) -> str:
        return f"${self.amount}"


_PARTS = (Player, Card, Money)


def _plain(part: Any) -> str:
    # a card reads as the table writes it (Q♦), never in the letters of the notation
    return part.symbol if isinstance(part, Card) else str(part)


class Sentence(str):
    """Plain text with its parts kept as data (see the module's notes). Equal to, and usable as,
    the plain str; joining Sentences with ``+`` keeps the parts, an f-string keeps only text."""

    parts: tuple[Any, ...]

    def __new__(cls, *parts: Any) -> Sentence:
        flat: list[Any] = []
        for part in parts:
            if isinstance(part, Sentence):
                pieces: Iterable[Any] = part.parts
            elif isinstance(part, _PARTS):
                pieces = (part,)
            else:
                pieces = (str.__str__(part) if isinstance(part, str) else str(part),)
            for piece in pieces:
                if isinstance(piece, str):
                    if not piece:
                        continue
                    if flat and isinstance(flat[-1], str):
                        flat[-1] += piece
                        continue
                flat.append(piece)
        self = super().__new__(cls, "".join(_plain(part) for part in flat))
        self.parts = tuple(flat)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Sentence, self.parts)

    def __repr__(self) -> str:
        return f"Sentence({str.__repr__(self)})"

    def __add__(self, other: Any) -> Sentence:
        if not isinstance(other, str):
            return NotImplemented
        return Sentence(self, other)

    def __radd__(self, other: Any) -> Sentence:
        if not isinstance(other, str):
            return NotImplemented
        return Sentence(other, self)

    def join(self, items: Iterable[Any]) -> Sentence:  # type: ignore[override]
        out: list[Any] = []
        for i, item in enumerate(items):
            if i:
                out.append(self)
            out.append(item)
        return Sentence(*out)


_FORMATTER = Formatter()


def say(template: str, *args: Any) -> Sentence:
    """A Sentence from a template written in code (``"{} paid {} {}."``) and its parts: a
    ``Player``, a ``Card``, ``Money`` or a Sentence stays a part; anything else becomes text
    (formatted by the field's spec, ``{:,}``). Fields are ``{}`` in order or ``{0}`` by place."""
    parts: list[Any] = []
    auto = 0
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        parts.append(literal)
        if field is None:
            continue
        if field == "":
            value = args[auto]
            auto += 1
        else:
            value = args[int(field)]
        if conversion == "r":
            value = repr(value)
        if spec:
            value = format(value, spec)
        parts.append(value)
    return Sentence(*parts)


def player(names: Sequence[str], seat: int) -> Sentence:
    """Seat ``seat``'s name as a part of a sentence."""
    return Sentence(Player(seat, names[seat]))


def players(names: Sequence[str], seats: Iterable[int]) -> list[Sentence]:
    """Several seats' names, as parts (for ``join_names``)."""
    return [player(names, seat) for seat in seats]


def plural(count: int, word: str) -> str:
    """``plural(1, "cell")`` → "1 cell", ``plural(6, "cell")`` → "6 cells"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def player_count(players: tuple[int, int]) -> str:
    """A game's player count: "2 players", "2–5 players"."""
    low, high = players
    return f"{low} players" if low == high else f"{low}–{high} players"


def dollars(amount: int) -> Sentence:
    """``dollars(8)`` → "$8" (a Money part)."""
    return Sentence(Money(amount))


def join_names(items: Sequence[Any], last: str = "and") -> Sentence:
    """``["Ann"]`` → "Ann"; ``["Ann", "Bob", "Cleo"]`` → "Ann, Bob and Cleo". The items keep
    their parts (a ``player``'s name stays a name)."""
    items = list(items)
    if not items:
        return Sentence("nobody")
    if len(items) == 1:
        return Sentence(items[0])
    return Sentence(Sentence(", ").join(items[:-1]), f" {last} ", items[-1])


def winners_sentence(names: Sequence[str], winners: Sequence[int], amount: Any = "") -> Sentence:
    """The headline of a result: "Ann wins with $40" or "Ann and Bob share the win with $40
    each" (without the amount when it is empty). No full stop: callers add what follows."""
    who = players(names, winners)
    if not who:
        return Sentence("Nobody wins")
    if len(who) == 1:
        return say("{} wins", who[0]) + (say(" with {}", amount) if amount else "")
    return say("{} share the win", join_names(who)) + (say(" with {} each", amount) if amount else "")


def result_text(names: Sequence[str], winners: Sequence[int]) -> Sentence:
    """The result in the past tense for lists: "Ann won", "Ann and Bob shared the win"."""
    who = players(names, winners)
    if not who:
        return Sentence("nobody won")
    if len(who) == 1:
        return say("{} won", who[0])
    return say("{} shared the win", join_names(who))
