"""What happens in Property, one event per thing the log shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from ..core import Card, Event, Suit
from ..core.events import CardsDrawn, GameEnded
from ..core.words import Money, Sentence, player, plural, say
from .state import cell_name, unit_value


def _pair(red: Card, black: Card) -> Sentence:
    return Sentence(red, " ", black)


def rent_reason(group_size: int, red: Card, black: Card) -> str:
    """Why a rent is what it is: ``6 cells ×4 for ♥ and ♠`` (each ♥ or ♠ doubles it)."""
    suits = [suit.symbol for suit, used in ((Suit.HEARTS, red.suit is Suit.HEARTS),
                                            (Suit.SPADES, black.suit is Suit.SPADES)) if used]
    times = f" ×{2 ** len(suits)} for {' and '.join(suits)}" if suits else ""
    return plural(group_size, "cell") + times


@dataclass(frozen=True)
class Claimed(Event):
    """A play on an empty cell: the player now owns it."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} played {} and claimed {}.", player(names, self.seat), _pair(self.red, self.black),
                   cell_name(self.col, self.row))


@dataclass(frozen=True)
class RentPaid(Event):
    """A play on an opponent's cell: rent = group size × multiplier (×2 for ♥ or ♠, ×4 for both).
    ``amount`` is what changed hands, less than ``rent`` when the payer went bankrupt."""

    seat: int
    owner: int
    red: Card
    black: Card
    col: int
    row: int
    group_size: int
    multiplier: int
    rent: int
    amount: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        why = rent_reason(self.group_size, self.red, self.black)
        owner = player(names, self.owner)
        played = say("{} played {} on {}'s {}", player(names, self.seat), _pair(self.red, self.black),
                     owner, cell_name(self.col, self.row))
        if self.amount == self.rent:
            return say("{} and paid {} rent ({}).", played, Money(self.amount), why)
        return say("{} and paid {} {}, all they had (rent {}: {}).", played, owner, Money(self.amount),
                   Money(self.rent), why)


@dataclass(frozen=True)
class Mortgaged(Event):
    """A play on one's own unmortgaged cell: it is now mortgaged."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} played {} on their own {} and mortgaged it.", player(names, self.seat),
                   _pair(self.red, self.black), cell_name(self.col, self.row))


@dataclass(frozen=True)
class Lost(Event):
    """A play on one's own mortgaged cell: the cell is lost and empty again."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} played {} on their own mortgaged {} and lost it.", player(names, self.seat),
                   _pair(self.red, self.black), cell_name(self.col, self.row))


@dataclass(frozen=True)
class Bought(Event):
    """After paying rent the player bought the cell; the units went to the previous owner."""

    seat: int
    owner: int
    col: int
    row: int
    units: tuple[Card, ...]
    mortgaged: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        total = sum(unit_value(card) for card in self.units)
        note = " (it stays mortgaged)" if self.mortgaged else ""
        return say("{} bought {} from {} for {} ({}){}.", player(names, self.seat),
                   cell_name(self.col, self.row), player(names, self.owner),
                   Sentence(" ").join(self.units), plural(total, "unit"), note)


@dataclass(frozen=True)
class Declined(Event):
    """The player chose not to buy the cell they paid rent on."""

    seat: int
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} did not buy {}.", player(names, self.seat), cell_name(self.col, self.row))


@dataclass(frozen=True)
class WentBankrupt(Event):
    """The rent was more than the player had: they paid everything and are bankrupt."""

    seat: int
    owner: int
    owed: int
    paid: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        who = player(names, self.seat)
        return say("{} owed {} {} but had {}: {} is bankrupt.", who, player(names, self.owner),
                   Money(self.owed), Money(self.paid), who)


@dataclass(frozen=True)
class Vacated(Event):
    """In the longer game a bankrupt player's cells are emptied and their hand is played out."""

    seat: int
    cells: int
    cards: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{}'s {} are vacated and their {} go to the played pile.", player(names, self.seat),
                   plural(self.cells, "cell"), plural(self.cards, "card"))


@dataclass(frozen=True)
class StockRemade(Event):
    """The stock ran out: the played cards were shuffled into a new stock."""

    reveals: ClassVar[bool] = True
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return Sentence(f"The stock ran out: {plural(self.size, 'played card')} were shuffled into a new stock.")


Drew = CardsDrawn  # "Ann drew 7♠ 2♥" for Ann, "Ann drew 2 cards" for the others


@dataclass(frozen=True)
class GameOver(GameEnded):
    lead: ClassVar[str] = "Game over: "

