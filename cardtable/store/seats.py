"""Seats at other screens: join codes, and which screens have a game open (presence).

A seat is *remote* when it has a join code: a person plays it from another screen (a terminal of
this machine, SSH, a browser, a program), opening it with ``cardtable join CODE``. The rules know
nothing of this: to them a remote seat is a human seat (``Seat.bot is None``). The store keeps it
because the store is where the screens meet; a game's export carries no codes (they are secrets).

A join code is 8 characters of Crockford's base32 (digits and the letters without I, L, O, U), 40
random bits, shown as ``K7QX-M2PD``. It is read case-insensitively, with or without the dash or
spaces, I and L as 1 and O as 0 — the letters people mistake for them. One code opens one seat;
one more per game (``seat`` None) opens the public view, for spectators. Renewing a code makes a
new one and keeps the old one as *renewed* only to say so when it is tried.

The codes are kept in clear, with the SHA-256 of each as the key they are looked up by. In clear,
because the machine that holds the store must show them (on the saves screen, whenever a player
asks again): a hash alone could not be shown, and whoever can read this database can also write
any move into it, so hashing would protect nothing the file does not already give away. Looked up
by their hash, so the time an index lookup takes says nothing about how near a guess came.

Presence: each open screen writes, every few seconds, a row (game, seat, screen id, last seen)
for each seat it plays, and removes it when it closes. A seat not seen for ``AWAY_SECONDS`` by any
screen is *away*. Screens that crashed leave rows that simply grow old.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Iterable

from ..paths import shorten

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O (read as 1, 1, 0) and no U."""
LENGTH = 8
"""Characters in a code: 8 × 5 = 40 bits."""
LOOK_ALIKES = str.maketrans({"I": "1", "L": "1", "O": "0"})
EXAMPLE = "K7QX-M2PD"

AWAY_SECONDS = 10.0
"""A seat whose screens have not been seen for this long is shown as away."""
PRESENCE_SECONDS = 3.0
"""How often an open screen says it is still there."""

MIGRATION = (
    """CREATE TABLE codes (              -- join codes: one per remote seat, one for spectators
        digest TEXT PRIMARY KEY,      -- sha256 (hex) of the code as made (8 characters, no dash)
        code TEXT NOT NULL,           -- the code, shown to the machine that holds the store
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER,                 -- NULL: the spectator code
        made TEXT NOT NULL,
        renewed TEXT                  -- when a new code replaced it; NULL while it opens the seat
    ) WITHOUT ROWID""",
    "CREATE UNIQUE INDEX codes_in_use ON codes (game_id, ifnull(seat, -1)) WHERE renewed IS NULL",
    """CREATE TABLE presence (           -- which screens have a game open, for which seat
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        screen TEXT NOT NULL,         -- a random id per open table
        seen REAL NOT NULL,           -- unix time it last said it was there
        PRIMARY KEY (game_id, seat, screen)
    ) WITHOUT ROWID""",
)


class CodeError(LookupError):
    """A join code that opens nothing: the message says why, in a sentence for the person who
    typed it (mistyped, unknown, renewed, its game deleted)."""


@dataclass(frozen=True)
class Joined:
    """What a join code opens: a game, and the seat (None: the public view, for spectators)."""

    game_id: str
    seat: int | None


def make_code() -> str:
    """A fresh code, 8 characters without the dash (``shown`` adds it)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """``K7QXM2PD`` → ``K7QX-M2PD``."""
    return f"{code[:4]}-{code[4:]}"


def normalise(text: object) -> str:
    """The code someone typed, as it was made: upper case, dashes and spaces gone, I and L read
    as 1 and O as 0. Raises CodeError, in a sentence, for what cannot be a code at all."""
    if not isinstance(text, str) or not text.strip():
        raise CodeError(f"Type the join code you were given: 8 letters and digits, like {EXAMPLE}.")
    typed = shorten(text.strip(), 40)
    code = "".join(text.split()).replace("-", "").upper().translate(LOOK_ALIKES)
    strange = [c for c in dict.fromkeys(code) if c not in ALPHABET]
    if strange:
        what = ", ".join(repr(c) for c in strange[:3])
        raise CodeError(f"{typed!r} is not a join code: {what} cannot be in one (a code has digits and "
                        f"the letters A to Z but U, like {EXAMPLE}).")
    if len(code) != LENGTH:
        raise CodeError(f"{typed!r} is not a join code: a code has {LENGTH} letters and digits, like "
                        f"{EXAMPLE}, and this has {len(code)}.")
    return code


def digest(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


class Throttle:
    """Slows down guessing: after each wrong code from a source (an address), the next try from
    it waits twice as long (from ``first`` seconds up to ``longest``); a right code forgets the
    source. Kept in memory by the process that checks the codes (an SSH or web server): a
    restart forgets it, which costs a guesser a restart of a server they do not control. With
    40-bit codes and the delays doubling, a million guesses from one address take years."""

    def __init__(self, first: float = 0.5, longest: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 remember: int = 10_000) -> None:
        self.first, self.longest, self.clock, self.remember = first, longest, clock, remember
        self._failures: dict[str, tuple[int, float]] = {}  # source: (failures, when the last was)
        self._lock = threading.Lock()

    def delay(self, source: str | None) -> float:
        """Seconds ``source`` must still wait before its next code is checked (0: none)."""
        if source is None:
            return 0.0
        with self._lock:
            failures, last = self._failures.get(source, (0, 0.0))
        if not failures:
            return 0.0
        wait = min(self.longest, self.first * 2 ** (failures - 1))
        return max(0.0, last + wait - self.clock())

    def failed(self, source: str | None) -> None:
        if source is None:
            return
        with self._lock:
            failures, _last = self._failures.pop(source, (0, 0.0))
            if len(self._failures) >= self.remember:  # the oldest go first: memory stays bounded
                self._failures.pop(next(iter(self._failures)))
            self._failures[source] = (failures + 1, self.clock())

    def succeeded(self, source: str | None) -> None:
        with self._lock:
            self._failures.pop(source, None)


class RemoteSeats:
    """The join codes and presence of ``SaveStore`` (mixed into it: it provides ``_lock``,
    ``_writing`` and ``_reading``)."""

    _lock: threading.RLock
    throttle: Throttle
    _writing: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _reading: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def codes(self, game_id: str) -> dict[int | None, str]:
        """The game's join codes in use, shown as ``K7QX-M2PD``: one per remote seat, and the
        spectator code (key None), made now if the game has none yet (an earlier game). For the
        machine that holds the store only. LookupError for an unknown game; SaveError."""
        with self._lock, self._writing() as connection:
            _game_exists(connection, game_id)
            rows = _codes_in_use(connection, game_id)
            if None not in rows:
                rows[None] = add_code(connection, game_id, None)
        return {seat: shown(code) for seat, code in sorted(rows.items(), key=lambda item: (item[0] is None, item[0] or 0))}

    def remote_seats(self, game_id: str) -> frozenset[int]:
        """The seats played from other screens (those with a join code)."""
        with self._lock, self._reading() as connection:
            return frozenset(seat for (seat,) in connection.execute(
                "SELECT seat FROM codes WHERE game_id = ? AND seat IS NOT NULL AND renewed IS NULL", (game_id,)))

    def make_remote(self, game_id: str, seats: Iterable[int]) -> dict[int | None, str]:
        """Give each of ``seats`` a join code (a seat that has one keeps it); ``codes``."""
        with self._lock, self._writing() as connection:
            _game_exists(connection, game_id)
            rows = _codes_in_use(connection, game_id)
            for seat in seats:
                if seat not in rows:
                    add_code(connection, game_id, seat)
        return self.codes(game_id)

    def renew(self, game_id: str, seat: int | None) -> str:
        """A new code for ``seat`` (None: the spectators'), shown; the old one stops working
        (trying it says it was renewed). LookupError when the seat has no code."""
        with self._lock, self._writing() as connection:
            _game_exists(connection, game_id)
            rows = _codes_in_use(connection, game_id)
            if seat is not None and seat not in rows:
                raise LookupError(f"seat {seat + 1} of {game_id} is not played from another screen")
            connection.execute("UPDATE codes SET renewed = ? WHERE game_id = ? AND seat IS ? AND renewed IS NULL",
                               (_now(), game_id, seat))
            return shown(add_code(connection, game_id, seat))

    def join(self, code: object, source: str | None = None) -> Joined:
        """What ``code`` opens, or CodeError in a sentence (mistyped, unknown, renewed, its game
        deleted). ``source`` (an address) counts failures in ``throttle``: a server waits
        ``throttle.delay(source)`` before calling this (nothing waits here, so an asynchronous
        server's loop never blocks)."""
        try:
            typed = normalise(code)
        except CodeError:
            self.throttle.failed(source)
            raise
        with self._lock, self._reading() as connection:
            row = connection.execute(
                "SELECT codes.game_id, seat, renewed, games.deleted FROM codes JOIN games ON games.id = codes.game_id "
                "WHERE digest = ?", (digest(typed),)).fetchone()
        if row is None or row[2] is not None or row[3] is not None:
            self.throttle.failed(source)
            if row is None:
                raise CodeError(f"No game has the join code {shown(typed)}: check it with whoever gave it to you.")
            if row[2] is not None:
                raise CodeError(f"The join code {shown(typed)} was replaced by a new one: ask whoever holds the "
                                "game for the new code.")
            raise CodeError(f"The game of join code {shown(typed)} was deleted (it is in the trash of the machine "
                            "that holds it).")
        self.throttle.succeeded(source)
        return Joined(row[0], row[1])

    # -- presence ------------------------------------------------------------------------------
    def here(self, game_id: str, seats: Iterable[int], screen: str) -> None:
        """Say that ``screen`` has the game open for ``seats`` (now). SaveError."""
        now = time.time()
        with self._lock, self._writing() as connection:
            connection.executemany(
                "INSERT INTO presence (game_id, seat, screen, seen) SELECT ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM games WHERE id = ?) ON CONFLICT DO UPDATE SET seen = excluded.seen",
                [(game_id, seat, screen, now, game_id) for seat in seats])

    def gone(self, game_id: str, screen: str) -> None:
        """``screen`` closed the game. SaveError."""
        with self._lock, self._writing() as connection:
            connection.execute("DELETE FROM presence WHERE game_id = ? AND screen = ?", (game_id, screen))

    def present(self, game_id: str, within: float = AWAY_SECONDS) -> frozenset[int]:
        """The seats some screen has had open within the last ``within`` seconds."""
        since = time.time() - within
        with self._lock, self._reading() as connection:
            return frozenset(seat for (seat,) in connection.execute(
                "SELECT DISTINCT seat FROM presence WHERE game_id = ? AND seen >= ?", (game_id, since)))


def _game_exists(connection: sqlite3.Connection, game_id: str) -> None:
    if connection.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise LookupError(f"no saved game {shorten(game_id, 60)!r}")


def _codes_in_use(connection: sqlite3.Connection, game_id: str) -> dict[int | None, str]:
    return {seat: code for seat, code in connection.execute(
        "SELECT seat, code FROM codes WHERE game_id = ? AND renewed IS NULL", (game_id,))}


def add_code(connection: sqlite3.Connection, game_id: str, seat: int | None) -> str:
    """A new code in use for the seat (one never made before in this store)."""
    code = make_code()
    while connection.execute("SELECT 1 FROM codes WHERE digest = ?", (digest(code),)).fetchone():
        code = make_code()  # one in 2**40: that code was made before
    connection.execute("INSERT INTO codes (digest, code, game_id, seat, made) VALUES (?, ?, ?, ?, ?)",
                       (digest(code), code, game_id, seat, _now()))
    return code


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()

