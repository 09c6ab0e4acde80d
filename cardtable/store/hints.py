"""Whether a game is played with the expert's hints (cardtable/hints.py): a setting of the table,
not of the rules, chosen at the new-game screen and kept with the game's setup so that a resumed
game keeps it. Games saved before there were hints have them off. The saves list marks a game
played with hints, and so does the record of finished games."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import AbstractContextManager
from typing import Callable

MIGRATION = (
    "ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",  # 1: played with hints
)


def hints_by_default(people: int) -> bool:
    """Hints are on by default at a table of one person, off where several play (each would
    see the hints given to the others at a shared screen, and a game between people is theirs)."""
    return people <= 1


class Hints:
    """The hints setting of ``SaveStore``'s games (mixed into it: it provides ``_lock``,
    ``_writing`` and ``_reading``)."""

    _lock: threading.RLock
    _writing: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _reading: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def hints(self, game_id: str) -> bool:
        """Whether the game is played with hints (False for a game the store lacks); SaveError
        when the store cannot be read."""
        with self._lock, self._reading() as connection:
            row = connection.execute("SELECT hints FROM games WHERE id = ?", (game_id,)).fetchone()
        return bool(row and row[0])

    def set_hints(self, game_id: str, on: bool) -> None:
        """Turn the game's hints on or off; SaveError."""
        with self._lock, self._writing() as connection:
            connection.execute("UPDATE games SET hints = ? WHERE id = ?", (int(bool(on)), game_id))
