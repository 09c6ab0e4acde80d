"""Events more than one game logs in the same shape: a draw from a hidden stock, the end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from .cards import Card
from .engine import Event
from .words import Sentence, player, plural, say


@dataclass(frozen=True)
class CardsDrawn(Event):
    """Cards a player drew from a face-down stock: the drawer reads which, everyone else only
    how many. A game words it in its log's tense (``verb``)."""

    reveals: ClassVar[bool] = True
    verb: ClassVar[str] = "drew"
    seat: int
    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if seat == self.seat:
            drawn = Sentence(" ").join(self.cards)
        else:
            drawn = plural(len(self.cards), "card")
        return say("{} {} {}.", player(names, self.seat), self.verb, drawn)


@dataclass(frozen=True)
class GameEnded(Event):
    """The game has ended; ``summary`` is the outcome in one line (after ``lead``, if any)."""

    lead: ClassVar[str] = ""
    summary: str

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return Sentence(self.lead, self.summary)
