"""What happens in Abundance, as the log tells it and the table animates it.

Only one event carries a secret: ``SealedBidIn`` tells its bidder the amount and everyone else
only that a bid is in. ``SealedRevealed`` shows both bids once both are in, and settles the card
in the same event (the winner, or an open auction after a tie), so nothing that follows a
reveal depends on a hidden bid. Turning a card up is chance: ``CardTurned`` reveals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import SUITS, Card, Event, Suit
from rules.core.offers import DealDeclined, DealDone, Offered
from rules.core.words import dollars, join_names

from .market import CORNER

__all__ = [
    "BidMade", "CardTurned", "DealDeclined", "DealDone", "LastPile", "MatchOver", "NewRubber",
    "Offered", "Passed", "PileChosen", "ReadyToGo", "RubberOver", "SealedBidIn", "SealedRevealed",
    "Sold", "Won",
]


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.symbol for card in cards)


@dataclass(frozen=True)
class PileChosen(Event):
    """A player chose the face-down pile for a round."""

    seat: int
    pile: int
    round: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} chooses pile {self.pile} for round {self.round}."


@dataclass(frozen=True)
class LastPile(Event):
    """Round 4 takes the one pile left: nobody chooses."""

    pile: int
    round: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"Round {self.round} is played with the last pile, pile {self.pile}."


@dataclass(frozen=True)
class CardTurned(Event):
    """The next trinket is turned up for auction: ``number`` of 12 in ``round``. ``kind`` is
    the auction's kind; ``opener`` speaks first in an open or one-bid auction."""

    reveals: ClassVar[bool] = True
    card: Card
    number: int
    round: int
    kind: str
    opener: int | None

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        text = f"{self.card.symbol} is turned up: auction {self.number} of 12 in round {self.round}"
        if self.opener is None:
            return text + "; both players bid in secret."
        return text + f" ({self.kind}); {names[self.opener]} bids first."


@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    amount: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} bids {self.amount}."


@dataclass(frozen=True)
class Passed(Event):
    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} passes."


@dataclass(frozen=True)
class SealedBidIn(Event):
    """A sealed bid is in. Its bidder reads the amount; everyone else only that it is in."""

    seat: int
    amount: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if seat == self.seat:
            return f"{names[self.seat]} bids {self.amount} in secret."
        return f"{names[self.seat]} has bid."


@dataclass(frozen=True)
class SealedRevealed(Event):
    """Both sealed bids are in and shown. ``winner`` takes ``card`` for ``price``; with no
    winner the bids tied and the card goes to an open auction that ``opener`` (the dealer)
    opens."""

    reveals: ClassVar[bool] = True
    card: Card
    bids: tuple[int, ...]
    winner: int | None
    price: int
    opener: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        shown = join_names([f"{names[s]} {bid}" for s, bid in enumerate(self.bids)])
        text = f"The sealed bids for {self.card.symbol}: {shown}. "
        if self.winner is None:
            return text + (f"A tie: {self.card.symbol} goes to an open auction, and "
                           f"{names[self.opener]} (the dealer) bids first.")
        return text + f"{names[self.winner]} wins {self.card.symbol} for {dollars(self.price)}."


@dataclass(frozen=True)
class Won(Event):
    """An open or one-bid auction is over: ``seat`` takes ``card`` for ``price`` (``free``:
    both players passed and the opener takes it for nothing)."""

    seat: int
    card: Card
    price: int
    free: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if self.free:
            return (f"Both players pass: {names[self.seat]}, who bid first, takes "
                    f"{self.card.symbol} for nothing.")
        return f"{names[self.seat]} wins {self.card.symbol} for {dollars(self.price)}."


@dataclass(frozen=True)
class ReadyToGo(Event):
    """A player is done trading in this window."""

    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} is ready."


@dataclass(frozen=True)
class Sold(Event):
    """The round's sale to the market. ``pays`` is what one trinket of each suit (♠ ♥ ♦ ♣)
    paid, ``rarity`` the suits rarest first, ``trinkets`` and ``amounts`` each player's
    trinkets sold and what they fetched."""

    rubber: int
    round: int
    counts: tuple[int, ...]
    rarity: tuple[Suit, ...]
    pays: tuple[int, ...]
    trinkets: tuple[tuple[Card, ...], ...]
    amounts: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        paid = [f"{suit.symbol} pays {dollars(self.pays[suit.order])}" for suit in self.rarity[:3]]
        text = f"Round {self.round} sale: {', '.join(paid)}, {self.rarity[3].symbol} nothing."
        sales = []
        for s, cards in enumerate(self.trinkets):
            if not cards:
                sales.append(f"{names[s]} has nothing to sell")
                continue
            corners = [suit.symbol for suit in SUITS if sum(card.suit is suit for card in cards) >= CORNER]
            corner = f" (corner in {' '.join(corners)})" if corners else ""
            sales.append(f"{names[s]} sells {_cards(cards)}{corner} for {dollars(self.amounts[s])}")
        return text + " " + "; ".join(sales) + "."


@dataclass(frozen=True)
class RubberOver(Event):
    rubber: int
    money: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        shown = join_names([f"{names[s]} {dollars(m)}" for s, m in enumerate(self.money)])
        return f"Rubber {self.rubber} is over: {shown}."


@dataclass(frozen=True)
class NewRubber(Event):
    """The second rubber: the deal passes, four new piles, everyone back to the start money."""

    rubber: int
    dealer: int
    money: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (f"Rubber {self.rubber}: {names[self.dealer]} deals four new piles, and both "
                f"players start again with {dollars(self.money)}.")


@dataclass(frozen=True)
class MatchOver(Event):
    summary: str

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return self.summary

