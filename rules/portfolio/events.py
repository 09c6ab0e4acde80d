"""What happens in Portfolio, as the log tells it and the table animates it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Card, Event
from rules.core.words import dollars


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def describe_items(cards: Sequence[Card], portfolios: Sequence[str], money: int) -> str:
    """One side of a deal in words: "5H, P3 and $4", or "nothing"."""
    items = [card.code for card in cards] + list(portfolios) + ([dollars(money)] if money else [])
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class TurnStarted(Event):
    """A turn begins: the player collects the income of their portfolios."""

    seat: int
    income: int
    last_round: bool = False

    def describe(self, names: Sequence[str]) -> str:
        tail = " (last round: no drawing)" if self.last_round else ""
        return f"{names[self.seat]} collects {dollars(self.income)} income{tail}."


@dataclass(frozen=True)
class Drew(Event):
    """The public side of a draw: how many cards, the discard taken (public) and the cost."""

    seat: int
    count: int
    taken: Card | None
    cost: int
    pauper: bool = False

    def describe(self, names: Sequence[str]) -> str:
        from_stock = self.count - (self.taken is not None)
        noun = "card" if from_stock == 1 else "cards"
        if self.taken is None:
            text = f"{names[self.seat]} draws {from_stock} {noun}"
        elif from_stock:
            text = (f"{names[self.seat]} takes {self.taken.code} from the discard pile and draws "
                    f"{from_stock} more")
        else:
            text = f"{names[self.seat]} takes {self.taken.code} from the discard pile"
        if self.pauper:
            return text + " by pauper's rule."
        return text + (f" for {dollars(self.cost)}." if self.cost else ".")


@dataclass(frozen=True)
class CardsDrawn(Event):
    """The cards that came from the stock; only the drawer sees them."""

    reveals: ClassVar[bool] = True
    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat

    def describe(self, names: Sequence[str]) -> str:
        if not self.cards:
            return f"{names[self.seat]} draws nothing from the stock."
        return f"{names[self.seat]} draws {_cards(self.cards)} from the stock."


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The last stock card was drawn for the first time in a 3- or 5-player game: the discard
    pile became the new stock."""

    reveals: ClassVar[bool] = True
    size: int

    def describe(self, names: Sequence[str]) -> str:
        return f"The stock ran out: the discard pile is shuffled into a new stock of {self.size} cards."


@dataclass(frozen=True)
class StockFinished(Event):
    """The last stock card is gone for good: the players up to the dealer play without drawing."""

    seat: int
    dealer: int

    def describe(self, names: Sequence[str]) -> str:
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

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} makes {self.pid}: {_cards(self.cards)}, worth {dollars(self.value)}."


@dataclass(frozen=True)
class Extended(Event):
    seat: int
    pid: str
    card: Card
    end: str
    value: int

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.seat]} extends {self.pid} at the {self.end} end with {self.card.code}; "
                f"it is now worth {dollars(self.value)}.")


@dataclass(frozen=True)
class Capped(Event):
    seat: int
    pid: str
    end: str
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} caps the {self.end} end of {self.pid} with {self.card.code}."


@dataclass(frozen=True)
class Neutralised(Event):
    """A portfolio and the neutralising card went to the discard pile."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.seat]} neutralises {names[self.owner]}'s {self.pid} with "
                f"{self.card.code} for {dollars(self.cost)}.")


@dataclass(frozen=True)
class Acquired(Event):
    """A portfolio changed owner; ``card_discarded`` for the Ace played on a King."""

    seat: int
    pid: str
    owner: int
    card: Card
    cost: int
    card_discarded: bool = False

    def describe(self, names: Sequence[str]) -> str:
        text = (f"{names[self.seat]} acquires {self.pid} from {names[self.owner]} with "
                f"{self.card.code} for {dollars(self.cost)}")
        return text + (f" ({self.card.code} is discarded)." if self.card_discarded else ".")


@dataclass(frozen=True)
class Offered(Event):
    proposer: int
    responder: int
    give: str
    take: str

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.proposer]} offers {names[self.responder]} a deal: "
                f"{self.give} for {self.take}.")


@dataclass(frozen=True)
class DealDone(Event):
    """An accepted deal, as applied: the physical cards that changed hands."""

    proposer: int
    responder: int
    give_cards: tuple[Card, ...]
    give_portfolios: tuple[str, ...]
    give_money: int
    take_cards: tuple[Card, ...]
    take_portfolios: tuple[str, ...]
    take_money: int

    def describe(self, names: Sequence[str]) -> str:
        give = describe_items(self.give_cards, self.give_portfolios, self.give_money)
        take = describe_items(self.take_cards, self.take_portfolios, self.take_money)
        return (f"{names[self.responder]} accepts: {names[self.proposer]} gives {give} "
                f"and receives {take}.")


@dataclass(frozen=True)
class DealDeclined(Event):
    proposer: int
    responder: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.responder]} declines {names[self.proposer]}'s offer."


@dataclass(frozen=True)
class Discarded(Event):
    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} discards {self.card.code}."


@dataclass(frozen=True)
class HandEmptied(Event):
    """The player ended the turn with no cards left, so without discarding."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has no cards left and ends the turn."


@dataclass(frozen=True)
class FinalIncome(Event):
    seat: int
    income: int
    money: int

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.seat]} collects a final {dollars(self.income)} income and ends with "
                f"{dollars(self.money)}.")


@dataclass(frozen=True)
class GameOver(Event):
    summary: str

    def describe(self, names: Sequence[str]) -> str:
        return self.summary
