"""Card Stock Market's commands: what a player can ask for on their turn. The notation of each is
in notation.py (``buy 7H``, ``sell 7H``, ``lay 9D``, ``lay QS 0``, ``discard 3C 4C``, ``end``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Card, Command

__all__ = ["Buy", "Command", "Discard", "End", "Lay", "Sell"]


@dataclass(frozen=True)
class Buy(Command):
    """Trading: lay a hand card in front of you as a certificate of its suit's company, paying
    the bank the company's price for each of its shares (A–10 that many, J/Q/K five)."""

    card: Card


@dataclass(frozen=True)
class Sell(Command):
    """Trading: sell one of your certificates to the bank at the current price; the card goes
    to the discard pile."""

    card: Card


@dataclass(frozen=True)
class Lay(Command):
    """Changing prices: lay a hand card on its suit's price pile. ``price`` is the company's new
    price: a number card's own number; a court card's face value ($11, $12, $13) or $0, which
    bankrupts the company."""

    card: Card
    price: int


@dataclass(frozen=True)
class Discard(Command):
    """A player who neither traded nor changed a price this turn puts 1–4 hand cards on the
    discard pile, and the turn ends. The cards are kept in sort order, so the same cards in any
    order make the same command."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if all(isinstance(card, Card) for card in cards):
            cards = tuple(sorted(cards, key=Card.sort_key))
        object.__setattr__(self, "cards", cards)

    @classmethod
    def of_sorted(cls, cards: tuple[Card, ...]) -> Discard:
        """The discard of ``cards``, already in sort order (as ``legal`` lists them): made
        without sorting them again, as a random player makes one at most turns."""
        discard = object.__new__(cls)
        object.__setattr__(discard, "cards", cards)
        return discard


@dataclass(frozen=True)
class End(Command):
    """End the turn: the hand is refilled to eight cards from the stock."""
