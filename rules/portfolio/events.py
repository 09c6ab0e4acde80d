"""What happens in Portfolio, as the log tells it and the table animates it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Card, Event
from rules.core.events import GameEnded
from rules.core.offers import DealDeclined, DealDone, Offered
from rules.core.words import dollars


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.symbol for card in cards)


@dataclass(frozen=True)
class TurnStarted(Event):
    """A turn begins: the player collects the income of their portfolios."""

    seat: int
    income: int
    last_round: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        tail = " (last round: no drawing)" if self.last_round else ""
        return f"{names[self.seat]} collects {dollars(self.income)} income{tail}."


@dataclass(frozen=True)
class Drew(Event):
    """A draw: how many cards, the discard taken (public), the cost, and the cards that came
    from the stock, which only the drawer reads."""

    seat: int
    count: int
    taken: Card | None
    cost: int
    pauper: bool = False
    cards: tuple[Card, ...] = ()

    @property
    def reveals(self) -> bool:  # type: ignore[override]
        return bool(self.cards)  # cards from the stock came by chance; a discard was public

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        from_stock = self.count - (self.taken is not None)
        if seat == self.seat and self.cards:
            drawn = _cards(self.cards)
        else:
            drawn = f"{from_stock} card" + ("" if from_stock == 1 else "s")
        if self.taken is None:
            text = f"{names[self.seat]} draws {drawn}"
        elif from_stock:
            more = drawn if seat == self.seat and self.cards else f"{from_stock} more"
            text = f"{names[self.seat]} takes {self.taken.symbol} from the discard pile and draws {more}"
        else:
            text = f"{names[self.seat]} takes {self.taken.symbol} from the discard pile"
        if self.pauper:
            return text + " by pauper's rule."
        return text + (f" for {dollars(self.cost)}." if self.cost else ".")


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The last stock card was drawn for the first time in a 3- or 5-player game: the discard
    pile became the new stock."""

    reveals: ClassVar[bool] = True
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"The stock ran out: the discard pile is shuffled into a new stock of {self.size} cards."


@dataclass(frozen=True)
class StockFinished(Event):
    """The last stock card is gone for good: the players up to the dealer play without drawing."""

    seat: int
    dealer: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if self.seat == self.dealer:
            return f"{names[self.seat]} drew the last card and, as the dealer, plays the last turn."
        return (f"{names[self.seat]} drew the last card: the players up to {names[self.dealer]} "
                "(the dealer) take one more turn without drawing.")


@dataclass(frozen=True)
class Made(Event):
    seat: int
    pid: str
    cards: tuple[Card, ...]
    value: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} makes {self.pid}: {_cards(self.cards)}, worth {dollars(self.value)}."


@dataclass(frozen=True)
class Extended(Event):
    seat: int
    pid: str
    card: Card
    end: str
    value: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (f"{names[self.seat]} extends {self.pid} at the {self.end} end with {self.card.symbol}; "
                f"it is now worth {dollars(self.value)}.")


@dataclass(frozen=True)
class Capped(Event):
    seat: int
    pid: str
    end: str
    card: Card

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} caps the {self.end} end of {self.pid} with {self.card.symbol}."


@dataclass(frozen=True)
class Neutralised(Event):
    """A portfolio and the neutralising card went to the discard pile."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (f"{names[self.seat]} neutralises {names[self.owner]}'s {self.pid} with "
                f"{self.card.symbol} for {dollars(self.cost)}.")


@dataclass(frozen=True)
class Acquired(Event):
    """A portfolio changed owner; ``card_discarded`` for the Ace played on a King."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int
    card_discarded: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        text = (f"{names[self.seat]} acquires {self.pid} from {names[self.owner]} with "
                f"{self.card.symbol} for {dollars(self.cost)}")
        return text + (f" ({self.card.symbol} is discarded)." if self.card_discarded else ".")


@dataclass(frozen=True)
class Discarded(Event):
    seat: int
    card: Card

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} discards {self.card.symbol}."


@dataclass(frozen=True)
class HandEmptied(Event):
    """The player ended the turn with no cards left, so without discarding."""

    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} has no cards left and ends the turn."


@dataclass(frozen=True)
class FinalIncome(Event):
    seat: int
    income: int
    money: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (f"{names[self.seat]} collects a final {dollars(self.income)} income and ends with "
                f"{dollars(self.money)}.")


GameOver = GameEnded
