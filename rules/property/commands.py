"""Property's commands: a play of two cards, and the answer to a purchase offer."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Card, Command
from .state import sort_units


@dataclass(frozen=True)
class Play(Command):
    """Play one red and one black card on cell col·row. Without a 9 or 10 the cell is the
    cards' own numbers; a 9 or 10 stands for whichever number 1–8 the player chose."""

    red: Card
    black: Card
    col: int
    row: int


@dataclass(frozen=True)
class Buy(Command):
    """Buy the cell just rented by handing these purchase units to its owner (kept in unit
    order, so equal hand-overs compare equal)."""

    units: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(sort_units(self.units)))


@dataclass(frozen=True)
class Decline(Command):
    """Do not buy the cell just rented."""
