"""Abundance's commands: what a player can ask for. The notation of each is in notation.py.
Offers and their answers are the shared ones of ``rules.core.offers`` (trinkets are cards;
Abundance has no other holdings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.core import Command, quick_init
from rules.core.offers import Accept, Decline, Offer, Side

__all__ = [
    "Accept", "Bid", "ChoosePile", "Command", "Decline", "Offer", "Pass", "Ready", "SealedBid", "Side",
]


@dataclass(frozen=True)
class ChoosePile(Command):
    """Choose which of the face-down piles (numbered 1 to 4) is auctioned this round."""

    pile: int


@quick_init  # bots and the expert's playouts make them at every bid
@dataclass(frozen=True)
class Bid(Command):
    """An open bid (open rounds and the one-bid round): ``amount`` units, more than the
    standing bid and at most the bidder's money."""

    amount: int


@dataclass(frozen=True)
class Pass(Command):
    """Decline to bid now. In an open auction a pass holds only until the other player bids
    again; in the one-bid round it is the player's one say."""


@quick_init  # bots and the expert's playouts make them at every bid
@dataclass(frozen=True)
class SealedBid(Command):
    """A hidden bid in the sealed round: ``amount`` units from 0 (declining) up to the bidder's
    money. Kept secret until both bids are in; written ``bid 12`` like an open bid."""

    secret: ClassVar[bool] = True
    amount: int


@dataclass(frozen=True)
class Ready(Command):
    """Done trading in this window: when both players are ready the next card is turned up
    (or, after the twelfth auction, the round's trinkets are sold)."""
