"""What the store raises: its own module so that every part of the store (games, analyses,
seats) can name them without importing one another."""

from __future__ import annotations

from rules.core.errors import RulesError


class SaveError(OSError):
    """A game that could not be written: the message says where and why, in words. When it comes
    from ``play`` or ``undo`` the change was made on the match all the same (the game goes on
    unsaved) and the next write tries again."""

    reading: str | None = None
    """The same failure as a listing says it ("Cannot read the saved games in …")."""


class MovedFirst(RulesError):
    """A move refused because another cardtable wrote one first (or took one back): the match
    has caught up, and the message names who."""


class GameChanged(Exception):
    """The game's moves changed elsewhere in a way this match cannot follow (moves taken back
    beyond what it can undo, a move it cannot play): open the game again."""


class Diverged(SaveError):
    """This match has moves the store lacks (they could not be written), and the store has moves
    this match lacks (another cardtable wrote them meanwhile): the store keeps its own."""
