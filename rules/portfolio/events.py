"""What happens in Portfolio, as the log tells it and the table animates it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Card, Event, quick_init
from rules.core.events import GameEnded
from rules.core.words import Sentence, dollars, player, plural, say


def _cards(cards: Sequence[Card]) -> Sentence:
    return Sentence(" ").join(cards)


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class TurnStarted(Event):
    """A turn begins: the player collects the income of their portfolios."""

    seat: int
    income: int
    last_round: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        tail = " (last round: no drawing)" if self.last_round else ""
        return say("{} collects {} income{}.", player(names, self.seat), dollars(self.income), tail)


@quick_init  # the expert's playouts make them by the thousand
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

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        from_stock = self.count - (self.taken is not None)
        who = player(names, self.seat)
        if seat == self.seat and self.cards:
            drawn = _cards(self.cards)
        else:
            drawn = Sentence(plural(from_stock, "card"))
        if self.taken is None:
            text = say("{} draws {}", who, drawn)
        elif from_stock:
            more = drawn if seat == self.seat and self.cards else f"{from_stock} more"
            text = say("{} takes {} from the discard pile and draws {}", who, self.taken, more)
        else:
            text = say("{} takes {} from the discard pile", who, self.taken)
        if self.pauper:
            return text + " by pauper's rule."
        return text + (say(" for {}.", dollars(self.cost)) if self.cost else ".")


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The last stock card was drawn for the first time in a 3- or 5-player game: the discard
    pile became the new stock."""

    reveals: ClassVar[bool] = True
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return Sentence(f"The stock ran out: the discard pile is shuffled into a new stock of "
                        f"{self.size} cards.")


@dataclass(frozen=True)
class StockFinished(Event):
    """The last stock card is gone for good: the players up to the dealer play without drawing."""

    seat: int
    dealer: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        if self.seat == self.dealer:
            return say("{} drew the last card and, as the dealer, plays the last turn.",
                       player(names, self.seat))
        return say("{} drew the last card: the players up to {} (the dealer) take one more turn "
                   "without drawing.", player(names, self.seat), player(names, self.dealer))


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Made(Event):
    seat: int
    pid: str
    cards: tuple[Card, ...]
    value: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} makes {}: {}, worth {}.", player(names, self.seat), self.pid, _cards(self.cards),
                   dollars(self.value))


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Extended(Event):
    seat: int
    pid: str
    card: Card
    end: str
    value: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} extends {} at the {} end with {}; it is now worth {}.", player(names, self.seat),
                   self.pid, self.end, self.card, dollars(self.value))


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Capped(Event):
    seat: int
    pid: str
    end: str
    card: Card

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} caps the {} end of {} with {}.", player(names, self.seat), self.end, self.pid,
                   self.card)


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Neutralised(Event):
    """A portfolio and the neutralising card went to the discard pile."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} neutralises {}'s {} with {} for {}.", player(names, self.seat),
                   player(names, self.owner), self.pid, self.card, dollars(self.cost))


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Acquired(Event):
    """A portfolio changed owner; ``card_discarded`` for the Ace played on a King."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int
    card_discarded: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        text = say("{} acquires {} from {} with {} for {}", player(names, self.seat), self.pid,
                   player(names, self.owner), self.card, dollars(self.cost))
        return text + (say(" ({} is discarded).", self.card) if self.card_discarded else ".")


@quick_init  # the expert's playouts make them by the thousand
@dataclass(frozen=True)
class Discarded(Event):
    seat: int
    card: Card

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} discards {}.", player(names, self.seat), self.card)


@dataclass(frozen=True)
class HandEmptied(Event):
    """The player ended the turn with no cards left, so without discarding."""

    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} has no cards left and ends the turn.", player(names, self.seat))


@dataclass(frozen=True)
class FinalIncome(Event):
    seat: int
    income: int
    money: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} collects a final {} income and ends with {}.", player(names, self.seat),
                   dollars(self.income), dollars(self.money))


GameOver = GameEnded
