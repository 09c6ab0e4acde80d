"""Capital Auction's commands: what a player can ask for. Their notation is in notation.py.

Capital cards are named by value (copies of a value are interchangeable: the rules pick the
physical cards), Tool cards by their key in the card set (``audit``), players by seat (never
by name: a command means one thing whatever the players are called), an Investment in a
portfolio by its position there (from 1) and one on the table by its lot (``3a``: auction 3,
left card; ``3b``: the right card).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.core import Command

__all__ = [
    "Bid", "Command", "Decline", "DiscardCapital", "DiscardTool", "Flip", "Pass", "Play", "React",
    "Take",
]


@dataclass(frozen=True)
class Bid(Command):
    """Lay these Capital cards (by value, highest first) as the whole of one's bid in the
    current auction; their total must beat the standing bid. Cards already laid may be part of
    it; those that are not go back to the hand."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Pass(Command):
    """In an auction: drop out of it for good. In the Tool phase: play no Tool this time."""


@dataclass(frozen=True)
class Flip(Command):
    """The winner of auction 2 turns one of auction 3's face-down cards face up (``3a``/``3b``)."""

    lot: str


@dataclass(frozen=True)
class Play(Command):
    """Play a Tool card (by key) on one's Tool turn, paying ``pay`` (Capital values, exactly as
    many cards as its cost). Its targets, as the Tool needs them:

    - ``player``: a player's seat (None: no player); ``card``: a position in that player's
      portfolio;
    - ``own``: a position in one's own portfolio;
    - ``lot``: a card on the table (``3a``)."""

    tool: str
    player: int | None = None
    card: int = 0
    own: int = 0
    lot: str = ""
    pay: tuple[int, ...] = ()


@dataclass(frozen=True)
class React(Command):
    """Answer the Tool (or Connection) just played with a Connection in the Government, paying
    its cost (``pay``, Capital values): it is cancelled unless another Connection cancels this."""

    pay: tuple[int, ...] = ()


@dataclass(frozen=True)
class Decline(Command):
    """Let the Tool (or Connection) just played stand."""


@dataclass(frozen=True)
class Take(Command):
    """Industrial Espionage: take a Capital card of this value from the hand just looked at.
    Secret: only the two players concerned learn which card changed hands."""

    secret: ClassVar[bool] = True
    value: int


@dataclass(frozen=True)
class DiscardCapital(Command):
    """Tax Inspection's victim: discard these Capital cards (by value), as many as it asks."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class DiscardTool(Command):
    """Venture Fund: discard one Tool card (by key) from one's hand."""

    tool: str
