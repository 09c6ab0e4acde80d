"""What happens in Property, one event per thing the log shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from ..core import Card, Event, Suit
from ..core.events import CardsDrawn, GameEnded
from ..core.words import plural
from .state import cell_name, unit_value


def _pair(red: Card, black: Card) -> str:
    return f"{red.symbol} {black.symbol}"


@dataclass(frozen=True)
class Claimed(Event):
    """A play on an empty cell: the player now owns it."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} played {_pair(self.red, self.black)} and claimed {cell_name(self.col, self.row)}."


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

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        doubled = [suit.symbol for suit, used in ((Suit.HEARTS, self.red.suit is Suit.HEARTS),
                                                   (Suit.SPADES, self.black.suit is Suit.SPADES)) if used]
        times = f" ×{self.multiplier} for {' and '.join(doubled)}" if doubled else ""
        why = f"{plural(self.group_size, 'cell')}{times}"
        where = f"{names[self.owner]}'s {cell_name(self.col, self.row)}"
        played = f"{names[self.seat]} played {_pair(self.red, self.black)} on {where}"
        if self.amount == self.rent:
            return f"{played} and paid ${self.amount} rent ({why})."
        return f"{played} and paid {names[self.owner]} ${self.amount}, all they had (rent ${self.rent}: {why})."


@dataclass(frozen=True)
class Mortgaged(Event):
    """A play on one's own unmortgaged cell: it is now mortgaged."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (
            f"{names[self.seat]} played {_pair(self.red, self.black)} on their own "
            f"{cell_name(self.col, self.row)} and mortgaged it."
        )


@dataclass(frozen=True)
class Lost(Event):
    """A play on one's own mortgaged cell: the cell is lost and empty again."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (
            f"{names[self.seat]} played {_pair(self.red, self.black)} on their own mortgaged "
            f"{cell_name(self.col, self.row)} and lost it."
        )


@dataclass(frozen=True)
class Bought(Event):
    """After paying rent the player bought the cell; the units went to the previous owner."""

    seat: int
    owner: int
    col: int
    row: int
    units: tuple[Card, ...]
    mortgaged: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        total = sum(unit_value(card) for card in self.units)
        cards = " ".join(card.symbol for card in self.units)
        note = " (it stays mortgaged)" if self.mortgaged else ""
        return (
            f"{names[self.seat]} bought {cell_name(self.col, self.row)} from {names[self.owner]} "
            f"for {cards} ({plural(total, 'unit')}){note}."
        )


@dataclass(frozen=True)
class Declined(Event):
    """The player chose not to buy the cell they paid rent on."""

    seat: int
    col: int
    row: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} did not buy {cell_name(self.col, self.row)}."


@dataclass(frozen=True)
class WentBankrupt(Event):
    """The rent was more than the player had: they paid everything and are bankrupt."""

    seat: int
    owner: int
    owed: int
    paid: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} owed {names[self.owner]} ${self.owed} but had ${self.paid}: {names[self.seat]} is bankrupt."


@dataclass(frozen=True)
class Vacated(Event):
    """In the longer game a bankrupt player's cells are emptied and their hand is played out."""

    seat: int
    cells: int
    cards: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (
            f"{names[self.seat]}'s {plural(self.cells, 'cell')} are vacated and their "
            f"{plural(self.cards, 'card')} go to the played pile."
        )


@dataclass(frozen=True)
class StockRemade(Event):
    """The stock ran out: the played cards were shuffled into a new stock."""

    reveals: ClassVar[bool] = True
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"The stock ran out: {plural(self.size, 'played card')} were shuffled into a new stock."


Drew = CardsDrawn  # "Ann drew 7♠ 2♥" for Ann, "Ann drew 2 cards" for the others


@dataclass(frozen=True)
class GameOver(GameEnded):
    lead: ClassVar[str] = "Game over: "

