"""Helpers the store's tests share: saves as earlier versions wrote them, a move spoiled inside
the database, a disk that fills up or turns read-only (SQLite's own limits: the errors are the
real ones)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from cardtable.store import SaveStore
from cardtable.store.files import game_file, game_text
from rules.core import Match


def legacy_save(root: Path, match: Match, game_id: str, *, folder: str = "saves",
                saved: str = "2026-01-02T10:00:00+00:00", created: str = "2026-01-01T10:00:00+00:00",
                change: Any = None) -> Path:
    """Write ``match`` as an earlier cardtable saved it, ``root/<folder>/<game_id>.json``;
    ``change(data)`` may alter the JSON first. The path."""
    data = game_file(match, created, saved)
    if change is not None:
        change(data)
    path = root / folder / f"{game_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(game_text(data), encoding="utf-8")
    return path


def stored_moves(root: Path, game_id: str) -> list[list[Any]]:
    """The moves the database holds for ``game_id``, read with a connection of its own."""
    with closing(root) as connection:
        return [[seat, text] for seat, text in connection.execute(
            "SELECT seat, text FROM moves WHERE game_id = ? ORDER BY number", (game_id,))]


def contents(root: Path) -> list[str]:
    """Everything the database holds, as SQL (proof that nothing was written)."""
    with closing(root) as connection:
        return list(connection.iterdump())


def spoil_move(root: Path, game_id: str, number: int, text: str | None = None, seat: int | None = None) -> None:
    """Change move ``number`` of ``game_id`` inside the database (as a damaged file or another
    version might have it)."""
    with closing(root) as connection:
        if text is not None:
            connection.execute("UPDATE moves SET text = ? WHERE game_id = ? AND number = ?", (text, game_id, number))
        if seat is not None:
            connection.execute("UPDATE moves SET seat = ? WHERE game_id = ? AND number = ?", (seat, game_id, number))


@contextmanager
def closing(root: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(root / "games.sqlite3", timeout=10, isolation_level=None)
    try:
        yield connection
    finally:
        connection.close()


class _Full:
    """A connection whose writes fail as SQLite's do on a full disk (SQLITE_FULL); reads pass."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def _check(self, sql: str) -> None:
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = 13
            raise error

    def execute(self, sql: str, *args: Any) -> Any:
        self._check(sql)
        return self._connection.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self._check(sql)
        return self._connection.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


@contextmanager
def full_disk(store: SaveStore) -> Iterator[None]:
    """Every write of ``store`` fails as on a full disk while the block runs."""
    connection = store._db()
    store._connection = _Full(connection)  # type: ignore[assignment]
    try:
        yield
    finally:
        store._connection = connection


@contextmanager
def read_only(store: SaveStore) -> Iterator[None]:
    """The store's connection may not write while the block runs: SQLite's own "attempt to
    write a readonly database" comes out of every write."""
    connection = store._db()
    connection.execute("PRAGMA query_only = ON")
    try:
        yield
    finally:
        connection.execute("PRAGMA query_only = OFF")


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))
