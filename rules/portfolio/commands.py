"""Portfolio's commands: what a player can ask for. The notation of each is in notation.py.
Offers and their answers are the shared ones of ``rules.core.offers`` (holdings: portfolios)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Card, Command, quick_init
from rules.core.offers import Accept, Decline, Offer, Side

__all__ = [
    "Accept", "Acquire", "Cap", "Command", "Decline", "Discard", "Draw", "End", "Extend", "Make",
    "Neutralise", "Offer", "Pauper", "Side",
]


@dataclass(frozen=True)
class Draw(Command):
    """Draw ``count`` cards at the start of the turn, paying 2+3+…+count from this turn's
    income; with ``discard`` the first of them is the top card of the discard pile."""

    count: int
    discard: bool = False


@dataclass(frozen=True)
class Pauper(Command):
    """Pauper's rule: two cards for the price of one (no portfolios, fewer than 13 cards)."""

    discard: bool = False


@dataclass(frozen=True)
class Make(Command):
    """Lay three or more cards of one suit in sequence from the hand as a new portfolio. The
    cards are kept low to high whatever order they came in: a portfolio is a set of cards, so
    one made of the same cards is one command (as ``legal`` lists it)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if isinstance(self.cards, tuple) and all(isinstance(card, Card) for card in self.cards):
            object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda card: (card.rank, str(card)))))


@quick_init  # the legal lists and the bot make them at every turn
@dataclass(frozen=True)
class Extend(Command):
    """Add one card to an uncapped end of one of the player's own portfolios."""

    pid: str
    card: Card


@quick_init  # the legal lists and the bot make them at every turn
@dataclass(frozen=True)
class Cap(Command):
    """Close the ``end`` ("low" or "high") of an own portfolio with a card of the end card's
    rank and colour."""

    pid: str
    end: str
    card: Card


@quick_init  # the legal lists and the bot make them at every turn
@dataclass(frozen=True)
class Neutralise(Command):
    """Play the next-lower card on an opponent's uncapped low end and pay the portfolio's value:
    the portfolio goes to the discard pile."""

    pid: str
    card: Card


@quick_init  # the legal lists and the bot make them at every turn
@dataclass(frozen=True)
class Acquire(Command):
    """Play the next-higher card (an Ace of its colour on a King) on an opponent's uncapped high
    end and pay twice the portfolio's value: the portfolio becomes the player's."""

    pid: str
    card: Card


@dataclass(frozen=True)
class Discard(Command):
    """End the turn by putting one hand card on the discard pile."""

    card: Card


@dataclass(frozen=True)
class End(Command):
    """End the turn with an empty hand (there is nothing to discard)."""
