"""What happens in Abundance, as the log tells it and the table animates it.

Only one event carries a secret: ``SealedBidIn`` tells its bidder the amount and everyone else
only that a bid is in. ``SealedRevealed`` shows both bids once both are in, and settles the card
in the same event (the winner, or an open auction after a tie), so nothing that follows a
reveal depends on a hidden bid. Turning a card up is chance: ``CardTurned`` reveals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import SUITS, Card, Event, Suit, quick_init
from rules.core.offers import DealDeclined, DealDone, Offered
from rules.core.words import Sentence, dollars, join_names, player, say

from .market import CORNER

__all__ = [
    "BidMade", "CardTurned", "DealDeclined", "DealDone", "LastPile", "MatchOver", "NewRubber",
    "Offered", "Passed", "PileChosen", "ReadyToGo", "RubberOver", "SealedBidIn", "SealedRevealed",
    "Sold", "Won",
]


def _cards(cards: Sequence[Card]) -> Sentence:
    return Sentence(" ").join(cards)


def _suits(suits: Sequence[Suit]) -> str:
    return " ".join(suit.symbol for suit in suits)


@dataclass(frozen=True)
class PileChosen(Event):
    """A player chose the face-down pile for a round."""

    seat: int
    pile: int
    round: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} chooses pile {} for round {}.", player(names, self.seat), self.pile, self.round)


@dataclass(frozen=True)
class LastPile(Event):
    """Round 4 takes the one pile left: nobody chooses."""

    pile: int
    round: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return Sentence(f"Round {self.round} is played with the last pile, pile {self.pile}.")


@quick_init  # the expert's playouts make one at almost every command
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

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        text = say("{} is turned up: auction {} of 12 in round {}", self.card, self.number, self.round)
        if self.opener is None:
            return text + "; both players bid in secret."
        return text + say(" ({}); {} bids first.", self.kind, player(names, self.opener))


@quick_init  # the expert's playouts make one at almost every command
@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    amount: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} bids {}.", player(names, self.seat), dollars(self.amount))


@quick_init  # the expert's playouts make one at almost every command
@dataclass(frozen=True)
class Passed(Event):
    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} passes.", player(names, self.seat))


@quick_init  # the expert's playouts make one at almost every command
@dataclass(frozen=True)
class SealedBidIn(Event):
    """A sealed bid is in. Its bidder reads the amount; everyone else only that it is in."""

    seat: int
    amount: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        if seat == self.seat:
            return say("{} bids {} in secret.", player(names, self.seat), dollars(self.amount))
        return say("{} has bid.", player(names, self.seat))


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

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        shown = join_names([say("{} {}", player(names, s), dollars(bid)) for s, bid in enumerate(self.bids)])
        text = say("The sealed bids for {}: {}. ", self.card, shown)
        if self.winner is None:
            return text + say("A tie: {} goes to an open auction, and {} (the dealer) bids first.",
                              self.card, player(names, self.opener))
        return text + say("{} wins {} for {}.", player(names, self.winner), self.card, dollars(self.price))


@quick_init  # the expert's playouts make one at almost every command
@dataclass(frozen=True)
class Won(Event):
    """An open or one-bid auction is over: ``seat`` takes ``card`` for ``price`` (``free``:
    both players passed and the opener takes it for nothing)."""

    seat: int
    card: Card
    price: int
    free: bool = False

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        if self.free:
            return say("Both players pass: {}, who bid first, takes {} for nothing.",
                       player(names, self.seat), self.card)
        return say("{} wins {} for {}.", player(names, self.seat), self.card, dollars(self.price))


@quick_init  # the expert's playouts make one at almost every command
@dataclass(frozen=True)
class ReadyToGo(Event):
    """A player is done trading in this window."""

    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("{} is ready.", player(names, self.seat))


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

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        paid = [say("{} pays {}", suit.symbol, dollars(self.pays[suit.order])) for suit in self.rarity[:3]]
        text = say("Round {} sale: {}, {} nothing.", self.round, Sentence(", ").join(paid), self.rarity[3].symbol)
        sales = []
        for s, cards in enumerate(self.trinkets):
            if not cards:
                sales.append(say("{} has nothing to sell", player(names, s)))
                continue
            corners = [suit for suit in SUITS if sum(card.suit is suit for card in cards) >= CORNER]
            corner = f" (corner in {_suits(corners)})" if corners else ""
            sales.append(say("{} sells {}{} for {}", player(names, s), _cards(cards), corner,
                             dollars(self.amounts[s])))
        return say("{} {}.", text, Sentence("; ").join(sales))


@dataclass(frozen=True)
class RubberOver(Event):
    rubber: int
    money: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        shown = join_names([say("{} {}", player(names, s), dollars(m)) for s, m in enumerate(self.money)])
        return say("Rubber {} is over: {}.", self.rubber, shown)


@dataclass(frozen=True)
class NewRubber(Event):
    """The second rubber: the deal passes, four new piles, everyone back to the start money."""

    rubber: int
    dealer: int
    money: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return say("Rubber {}: {} deals four new piles, and both players start again with {}.",
                   self.rubber, player(names, self.dealer), dollars(self.money))


@dataclass(frozen=True)
class MatchOver(Event):
    summary: str

    def describe(self, names: Sequence[str], seat: int | None = None) -> Sentence:
        return Sentence(self.summary)

