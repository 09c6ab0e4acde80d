"""A SQLite file with a schema version: opened, checked, brought up to date — or set aside.

Both of cardtable's databases, the games (``cardtable.store``) and the record of finished games
(``cardtable.record``), open the same way. The schema has a version (the ``schema_version``
table); ``migrations[v]`` takes a file from version v-1 to v (SQL statements, or a function for
work SQL alone cannot do), each in its own transaction, so a file made by any earlier cardtable
is brought up to date when it is opened, and two processes opening it at once migrate it once.
``PRAGMA quick_check`` runs on every open. A file that is not a readable database of its kind
raises ``Damaged`` (its owner sets it aside with ``set_aside`` and begins a new one); a file
from a newer cardtable raises ``Newer`` and is never written to.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator, Mapping

Migration = str | Callable[[sqlite3.Connection], None]

_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_COMPANIONS = ("-journal", "-wal", "-shm")


class Damaged(Exception):
    """The file is not a readable database of its kind; ``reason`` says why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Newer(Exception):
    """The file was made by a newer cardtable (``version``; this one knows up to ``known``)."""

    def __init__(self, version: int, known: int) -> None:
        super().__init__(f"schema {version}; this version knows up to {known}")
        self.version = version
        self.known = known


@dataclass(frozen=True)
class Schema:
    """What a database of one kind holds: ``what`` names it in messages ("a cardtable record")."""

    what: str
    migrations: Mapping[int, tuple[Migration, ...]]

    @property
    def version(self) -> int:
        return max(self.migrations)


def connect(path: Path, schema: Schema, *, timeout: float, pragmas: tuple[str, ...] = ()) -> sqlite3.Connection:
    """Open ``path`` (created if missing), check it, run ``pragmas``, bring its schema up to date.

    Raises Damaged, Newer, or sqlite3.Error for anything else (a folder that cannot be written,
    a file busy in another process): the caller says it in words (``describe``)."""
    connection = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    # a damaged page can hold bytes that are not UTF-8 (quick_check does not look at text): they
    # read as U+FFFD, and the border reading that value says what is wrong with it
    connection.text_factory = _text
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        problems = [row[0] for row in connection.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise Damaged(f"its pages are damaged: {_first_line(problems)}")
        _check_schema(connection)
        for pragma in pragmas:
            connection.execute(pragma)
        migrate(connection, schema)
    except UnicodeDecodeError:
        connection.close()
        raise Damaged("its text is not UTF-8") from None
    except sqlite3.DatabaseError as error:
        connection.close()
        if is_damage(error):
            raise Damaged(" ".join(str(error).split())) from None  # its message may quote SQL over lines
        raise
    except BaseException:
        connection.close()
        raise
    return connection


def _check_schema(connection: sqlite3.Connection) -> None:
    """Read every table's columns once: quick_check does not read the schema's text, and a
    damaged one would otherwise fail the first query that names a column."""
    try:
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            connection.execute(f'SELECT * FROM "{name.replace(chr(34), chr(34) * 2)}" LIMIT 0').fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise Damaged(f"its schema is damaged ({' '.join(str(error).split())})") from None


def version_of(connection: sqlite3.Connection, schema: Schema) -> int:
    """The file's schema version (0 for an empty file); Damaged if it is not of this kind."""
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return 0
    if "schema_version" not in tables:
        raise Damaged(f"it is a database, but not {schema.what} (its tables: {', '.join(sorted(tables))})")
    row = connection.execute("SELECT version FROM schema_version").fetchone()
    if row is None or not isinstance(row[0], int):
        raise Damaged("its schema version is missing")
    return row[0]


def migrate(connection: sqlite3.Connection, schema: Schema) -> None:
    """Bring the file up to ``schema.version``, one version a transaction (each checked again
    inside its transaction: another process may have done it meanwhile)."""
    version = version_of(connection, schema)
    if version > schema.version:
        raise Newer(version, schema.version)
    while version < schema.version:
        with transaction(connection):
            version = version_of(connection, schema)
            if version >= schema.version:
                break
            target = version + 1
            for step in schema.migrations[target]:
                if callable(step):
                    step(connection)
                else:
                    connection.execute(step)
            connection.execute("UPDATE schema_version SET version = ?", (target,))
        version = version_of(connection, schema)
    if version > schema.version:
        raise Newer(version, schema.version)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _first_line(problems: list[object]) -> str:
    """The first thing ``quick_check`` found, on one line (it heads some with "*** in database
    main ***")."""
    lines = [line.strip() for problem in problems for line in str(problem).splitlines()]
    found = [line for line in lines if line and not line.startswith("***")]
    return found[0] if found else "unknown damage"


def set_aside(path: Path, stem: str) -> Path:
    """Rename a damaged database (and its journal, WAL and shared-memory files) to
    ``<stem>.damaged-<date>-<time>.sqlite3`` beside it, never deleting it; the new path.
    Raises OSError when it cannot be moved."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{stem}.damaged-{stamp}.sqlite3")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{stem}.damaged-{stamp}-{number}.sqlite3")
    os.replace(path, target)
    for suffix in _COMPANIONS:  # what belongs to the damaged file goes with it
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            os.replace(companion, target.with_name(target.name + suffix))
    return target


@contextmanager
def transaction(connection: sqlite3.Connection, kind: str = "IMMEDIATE") -> Iterator[None]:
    """BEGIN IMMEDIATE (the write lock at once, so no two writers read the same state and both
    write) … COMMIT, or ROLLBACK on any failure: all of it or none of it. ``kind`` DEFERRED
    reads one consistent state of the file."""
    connection.execute(f"BEGIN {kind}")
    try:
        yield
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    try:
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def is_damage(error: sqlite3.Error) -> bool:
    """True when ``error`` says the file is damaged or not a database at all."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _DAMAGE_CODES:
        return True
    text = str(error).lower()
    return "not a database" in text or "malformed" in text


def describe(error: sqlite3.Error, path: Path) -> str:
    """Why an operation on the database at ``path`` failed, in words (a sentence's end)."""
    text = str(error).rstrip(".")
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered:
        return f"{path} cannot be written (read-only)."
    if "locked" in lowered or "busy" in lowered:
        return f"{path} is busy in another cardtable; try again in a moment."
    if "disk is full" in lowered:
        return "the disk is full."
    if "unable to open" in lowered:
        return f"{path} cannot be opened (no permission, or its folder cannot be written)."
    if "disk i/o error" in lowered:
        return f"{path} could not be written (a disk error)."
    return f"{text} ({path})."
