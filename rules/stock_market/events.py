"""What happens in Card Stock Market, as the log tells it and the table animates it.

Everything a command does before the refill is public and certain. The refill at the end of a
turn draws on chance (and may rebuild the stock, draw a joker and end the game), so every event
from the refill on ``reveals``: undo never steps back over it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Card, Event, Suit
from rules.core.events import CardsDrawn, GameEnded
from rules.core.words import Sentence, dollars, join_names, player, plural, say

from .state import LEVY


def _cards(cards: Sequence[Card]) -> Sentence:
    return Sentence(" ").join(cards)


@dataclass(frozen=True)
class Bought(Event):
    """A hand card became a certificate: ``shares`` of its company at ``price`` each."""

    seat: int
    card: Card
    shares: int
    price: int
    cost: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} buys {} of {} with {} at {}: {}.", player(names, self.seat),
                   plural(self.shares, "share"), self.card.suit.symbol, self.card, dollars(self.price),
                   dollars(self.cost))


@dataclass(frozen=True)
class Sold(Event):
    """A certificate was sold to the bank; ``debt_paid`` of the proceeds went to the seller's debt."""

    seat: int
    card: Card
    shares: int
    price: int
    amount: int
    debt_paid: int = 0

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        text = say("{} sells {} ({} of {} at {}) for {}", player(names, self.seat), self.card,
                   plural(self.shares, "share"), self.card.suit.symbol, dollars(self.price),
                   dollars(self.amount))
        if self.debt_paid:
            return text + say("; {} of it pays off debt.", dollars(self.debt_paid))
        return text + "."


@dataclass(frozen=True)
class Levied(Event):
    """The bank could not pay ``needed``: every player paid it up to $100. ``paid[s]`` is what
    seat s paid, ``owed[s]`` what it could not pay and now owes."""

    needed: int
    bank: int
    paid: tuple[int, ...]
    owed: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        text = say("The bank holds {} and cannot pay {}: every player pays it {}", dollars(self.bank),
                   dollars(self.needed), dollars(LEVY))
        short = [say("{} pays {} and owes {}", player(names, s), dollars(self.paid[s]), dollars(self.owed[s]))
                 for s in range(len(self.paid)) if self.owed[s]]
        return text + (say(" ({}).", join_names(short)) if short else ".")


@dataclass(frozen=True)
class PriceChanged(Event):
    """A card was laid on a price pile: the company's price went from ``old`` to ``new``.
    ``revived`` when a number card ended a bankruptcy."""

    seat: int
    card: Card
    old: int
    new: int
    revived: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        suit = self.card.suit.symbol
        text = say("{} lays {} on {}: {} → {}", player(names, self.seat), self.card, suit, dollars(self.old),
                   dollars(self.new))
        if self.revived:
            return text + f"; {suit} is back in business."
        if self.new == 0:
            return text + f"; {suit} goes bankrupt."
        return text + "."


@dataclass(frozen=True)
class Bankruptcy(Event):
    """A court card laid as $0: every certificate of the company was discarded. ``losses`` lists
    (seat, certificates, shares, value at the price before the crash) for each seat that lost any."""

    suit: Suit
    price_before: int
    losses: tuple[tuple[int, tuple[Card, ...], int, int], ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if not self.losses:
            return f"Nobody held {self.suit.symbol} certificates."
        lost = [say("{} loses {} ({}, {})", player(names, s), _cards(cards), plural(count, "share"),
                    dollars(value)) for s, cards, count, value in self.losses]
        return join_names(lost) + "."


@dataclass(frozen=True)
class Discarded(Event):
    seat: int
    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} discards {}.", player(names, self.seat), _cards(self.cards))


@dataclass(frozen=True)
class TurnEnded(Event):
    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} ends the turn.", player(names, self.seat))


@dataclass(frozen=True)
class StockRebuilt(Event):
    """The stock could not refill a hand: a new one was shuffled from the rest of the stock, the
    discard pile and the price piles under their top cards, with ``jokers_added`` jokers."""

    reveals: ClassVar[bool] = True
    size: int
    jokers_added: int
    jokers_in_stock: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if self.jokers_added:
            jokers = f"the {plural(self.jokers_added, 'joker')} join it"
        else:
            jokers = f"{plural(self.jokers_in_stock, 'joker')} in it"
        return (f"The stock runs short: the rest of it, the discard pile and the price piles under "
                f"their top cards are shuffled into a new stock of {plural(self.size, 'card')}; {jokers}.")


@dataclass(frozen=True)
class Drew(CardsDrawn):
    """The refill at a turn's end: the drawer reads the cards, the others how many."""

    verb: ClassVar[str] = "draws"


@dataclass(frozen=True)
class JokerDrawn(Event):
    """A joker came up during a refill: the game ends at once (rule 26)."""

    reveals: ClassVar[bool] = True
    seat: int
    card: Card

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} draws a joker: the game ends at once.", player(names, self.seat))


@dataclass(frozen=True)
class GameOver(GameEnded):
    reveals: ClassVar[bool] = True  # the end turns up every hand's worth


__all__ = [
    "Bankruptcy", "Bought", "Discarded", "Drew", "Event", "GameOver", "JokerDrawn", "Levied",
    "PriceChanged", "Sold", "StockRebuilt", "TurnEnded",
]
