"""The record of every finished game, and the stats read from it.

One SQLite file beside the saves folder, ``<data dir>/record.sqlite3`` (standard library
``sqlite3``): a row per finished game (which game, when it ended, its save's id, seed, moves
and turns) and a row per seat (name, human or bot level, rank, score). Each game is written in
one transaction, so a process killed half-way leaves the record as it was before that game
(the rollback journal undoes the half-written one the next time the file is opened).

The schema has a version (the ``schema_version`` table); ``MIGRATIONS[v]`` takes a record
from version v-1 to v (SQL statements, or a function for work SQL alone cannot do), each in its
own transaction, so a record made by any earlier cardtable is brought up to date when it is
opened. Version 2 added the indexes and ``standings``: each player's games, wins, best score and
runs of wins per game, worked out again for the players of every game written, in the same
transaction, so the stats read one row per player however many years of games there are. A file that is not a readable record (damaged, or not
SQLite at all) is set aside — renamed ``record.damaged-<when>.sqlite3`` beside it, never
deleted — and a new record is begun; the saves are never touched. A record from a newer
cardtable is left alone and not written to.

A player is a name (case does not matter) and a kind: a human, or a bot of one level ("Cleo
(bot)" is not the human Cleo), in the standings and head to head alike. A win is a rank of 1,
shared wins included.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .sqlite import Damaged, Newer, Schema, connect, describe, set_aside, transaction

if TYPE_CHECKING:
    from rules.core import Match

RECORD_FILE = "record.sqlite3"

MIGRATIONS: dict[int, tuple[str | Callable[[sqlite3.Connection], None], ...]] = {
    1: (
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,          -- the registry name: "property"
            finished TEXT NOT NULL,      -- when it ended, ISO 8601 in UTC (sorts as text)
            save_id TEXT,                -- its save, if it had one
            seed INTEGER,
            moves INTEGER NOT NULL,
            turns INTEGER NOT NULL
        )""",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,          -- as written at the table
            player TEXT NOT NULL,        -- the name case-folded: who the stats are about
            bot TEXT,                    -- the bot level; NULL for a human
            rank INTEGER NOT NULL,       -- 1 for the winner(s)
            score INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
    ),
    2: (
        # players are looked up by name, games by date; a save is recorded once
        "CREATE INDEX seats_by_player ON seats (player, game_id)",
        "CREATE INDEX games_by_date ON games (finished, id)",
        "CREATE UNIQUE INDEX games_by_save ON games (save_id) WHERE save_id IS NOT NULL",
        # each player's standing per game and overall (game ''), kept with every game written,
        # so the stats read a row per player however many years of games there are
        """CREATE TABLE standings (
            player TEXT NOT NULL,
            bot TEXT NOT NULL,           -- '' for a human
            game TEXT NOT NULL,          -- '' for all games together
            name TEXT NOT NULL,          -- as written at the player's latest game
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            best INTEGER NOT NULL,
            last TEXT NOT NULL,
            streak INTEGER NOT NULL,     -- wins in a row up to the latest game
            longest INTEGER NOT NULL,    -- the longest run of wins
            PRIMARY KEY (player, bot, game)
        )""",
        lambda connection: _rebuild_standings(connection, None),
    ),
    # a game played with the expert's hints on (cardtable/hints.py) is marked so; the games
    # recorded before there were hints had none
    3: ("ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",),
}
SCHEMA = Schema("a cardtable record", MIGRATIONS)
SCHEMA_VERSION = SCHEMA.version


class RecordError(Exception):
    """The record cannot be read or written; the message says why, in words."""


@dataclass(frozen=True)
class PlayerResult:
    """One seat of a finished game."""

    name: str
    bot: str | None
    rank: int
    score: int


@dataclass(frozen=True)
class GameRecord:
    """A finished game as the record keeps it."""

    game: str
    finished: datetime
    players: tuple[PlayerResult, ...]
    save_id: str | None = None
    seed: int | None = None
    moves: int = 0
    turns: int = 0
    hints: bool = False
    """Played with the expert's hints on."""

    @classmethod
    def of(cls, match: Match, save_id: str | None = None, when: datetime | None = None, *,
           hints: bool = False) -> GameRecord:
        """The record of a finished match (ranks and scores from its outcome)."""
        outcome = match.outcome
        if outcome is None:
            raise ValueError("only a finished game goes into the record")
        players = tuple(PlayerResult(seat.name, seat.bot, outcome.ranks[i], outcome.scores[i])
                        for i, seat in enumerate(match.seats))
        return cls(match.spec.name, when or datetime.now(timezone.utc), players, save_id,
                   match.seed, len(match.history), match.turn, hints)


@dataclass(frozen=True)
class PlayerStats:
    """How one player did at one game (``game`` None: at every game together)."""

    name: str
    bot: str | None
    game: str | None
    games: int
    wins: int
    best: int | None
    last: datetime
    streak: int  # wins in a row up to the latest game
    longest: int  # the longest run of wins

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def label(self) -> str:
        """"Ann", "Cleo (bot)", "Dan (bot: random)"."""
        return player_label(self.name, self.bot)


@dataclass(frozen=True)
class HeadToHead:
    """Two players at the games both sat at: how often each finished ahead of the other."""

    first: str
    second: str
    game: str | None
    games: int
    first_ahead: int
    second_ahead: int
    tied: int


def player_label(name: str, bot: str | None) -> str:
    from rules.core.bots import seat_name

    return seat_name(name, bot)


def record_path(root: Path) -> Path:
    return Path(root) / RECORD_FILE


class Record:
    """The record kept in ``root/record.sqlite3`` (``root``: the data folder of the saves).

    Opened on first use. ``notices`` collects what the player must be told (a damaged record
    set aside); every failure to read or write is a RecordError in words."""

    def __init__(self, root: Path | str) -> None:
        self.path = record_path(Path(root))
        self.notices: list[str] = []
        self._connection: sqlite3.Connection | None = None

    def __repr__(self) -> str:
        return f"Record({str(self.path)!r})"

    # -- opening ---------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self._connection is not None:
            return self._connection
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RecordError(f"The record of finished games cannot be kept in {self.path.parent}: "
                              f"{_os_why(error)}.") from None
        try:
            connection = self._connect()
        except Damaged as damage:
            self._set_aside(damage.reason)
            connection = self._connect()
        self._connection = connection
        return connection

    def _connect(self) -> sqlite3.Connection:
        """Open the file, check it is a record, bring its schema up to date."""
        try:
            return connect(self.path, SCHEMA, timeout=10)
        except Newer as newer:
            raise RecordError(f"The record of finished games ({self.path}) was made by a newer cardtable "
                              f"({newer}): it is left as it is.") from None
        except sqlite3.Error as error:
            raise RecordError(f"The record of finished games ({self.path}) cannot be opened: "
                              f"{describe(error, self.path)}") from None

    def _set_aside(self, reason: str) -> None:
        try:
            target = set_aside(self.path, "record")
        except OSError as error:
            raise RecordError(f"The record of finished games ({self.path}) is damaged ({reason}) and could "
                              f"not be set aside: {_os_why(error)}.") from None
        self.notices.append(
            f"The record of finished games was damaged ({reason}): it was set aside as {target.name} "
            f"in {target.parent} and a new record begun. Your saved games are untouched.")

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    # -- writing ---------------------------------------------------------------------------------
    def add(self, game: GameRecord) -> bool:
        """Record a finished game in one transaction; False if its save was recorded already."""
        return self.add_many([game]) == 1

    def add_many(self, games: Iterable[GameRecord]) -> int:
        """Record several games in one transaction; return how many were new."""
        connection = self._open()
        added = 0
        players: set[str] = set()
        try:
            with transaction(connection):
                for game in games:
                    cursor = connection.execute(
                        "INSERT OR IGNORE INTO games (game, finished, save_id, seed, moves, turns, hints) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game.game, _stamp(game.finished), game.save_id, game.seed, game.moves, game.turns,
                         int(game.hints)))
                    if cursor.rowcount == 0:
                        continue  # this save is in the record already
                    self._insert_seats(connection, cursor.lastrowid, game.players)
                    players.update(_key(p.name) for p in game.players)
                    added += 1
                if players:
                    _rebuild_standings(connection, sorted(players))
        except sqlite3.Error as error:
            raise RecordError(f"The game could not be added to the record: {describe(error, self.path)}") from None
        return added

    @staticmethod
    def _insert_seats(connection: sqlite3.Connection, game_id: int | None,
                      players: Sequence[PlayerResult]) -> None:
        connection.executemany(
            "INSERT INTO seats (game_id, seat, name, player, bot, rank, score) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, seat, p.name, _key(p.name), p.bot, p.rank, p.score) for seat, p in enumerate(players)])

    # -- reading ---------------------------------------------------------------------------------
    def _rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple]:
        connection = self._open()
        try:
            return connection.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise RecordError(f"The record could not be read: {describe(error, self.path)}") from None

    def count(self, *, hints: bool = False) -> int:
        """How many finished games are recorded (``hints``: of them, how many with hints on)."""
        return self._rows("SELECT COUNT(*) FROM games" + (" WHERE hints = 1" if hints else ""))[0][0]

    def games(self) -> list[str]:
        """The games that have been recorded, by name."""
        return [row[0] for row in self._rows("SELECT DISTINCT game FROM games ORDER BY game")]

    def players(self, name: str | None = None) -> list[PlayerStats]:
        """Every player's stats per game and, with ``game`` None, at all games together; most
        games first. With ``name``, only the players of that name (any kind). A player is shown
        by the name as written at their latest game."""
        where, parameters = ("WHERE player = ?", (_key(name),)) if name is not None else ("", ())
        rows = self._rows("SELECT name, bot, game, games, wins, best, last, streak, longest "
                          f"FROM standings {where}", parameters)
        stats = [PlayerStats(shown, bot or None, game or None, games, wins, best if game else None,
                             _time(last), streak, longest)
                 for shown, bot, game, games, wins, best, last, streak, longest in rows]
        stats.sort(key=lambda s: (-s.games, -s.wins, s.name.casefold(), s.bot or "", s.game or ""))
        return stats

    def head_to_head(self, first: str, second: str, first_bot: str | None = None,
                     second_bot: str | None = None) -> list[HeadToHead]:
        """``first`` against ``second`` at every game both sat at, per game, then all games
        together (``game`` None); empty when they never met. A player is a name and a kind:
        ``first_bot``/``second_bot`` name a bot's level, None a human (the human Bob never
        merges with a bot called Bob)."""
        rows = self._rows(
            "SELECT g.game, COUNT(*), SUM(a.rank < b.rank), SUM(a.rank > b.rank), SUM(a.rank = b.rank) "
            "FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.seat != a.seat "
            "JOIN games g ON g.id = a.game_id WHERE a.player = ? AND COALESCE(a.bot, '') = ? "
            "AND b.player = ? AND COALESCE(b.bot, '') = ? GROUP BY g.game ORDER BY COUNT(*) DESC, g.game",
            (_key(first), first_bot or "", _key(second), second_bot or ""))
        if not rows:
            return []
        names = self._latest_names([(_key(first), first_bot or ""), (_key(second), second_bot or "")])
        a = player_label(names[(_key(first), first_bot or "")], first_bot)
        b = player_label(names[(_key(second), second_bot or "")], second_bot)
        result = [HeadToHead(a, b, game, n, ahead, behind, tied) for game, n, ahead, behind, tied in rows]
        if len(result) > 1:
            result.append(HeadToHead(a, b, None, *(
                sum(getattr(h, field) for h in result) for field in ("games", "first_ahead", "second_ahead", "tied"))))
        return result

    def opponents(self, name: str, game: str | None = None, bot: str | None = None) -> list[HeadToHead]:
        """The player ``name`` (a human; with ``bot``, the bot of that level so named) against
        everyone they have sat with, each opponent a name and a kind, at ``game`` or at all
        games together; most games first."""
        only, parameters = ("AND a.game_id IN (SELECT id FROM games WHERE game = ?)",
                            (_key(name), bot or "", game)) if game is not None else ("", (_key(name), bot or ""))
        rows = self._rows(
            "SELECT b.player, COALESCE(b.bot, ''), COUNT(*), SUM(a.rank < b.rank), SUM(a.rank > b.rank), "
            "SUM(a.rank = b.rank) FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.seat != a.seat "
            f"WHERE a.player = ? AND COALESCE(a.bot, '') = ? {only} GROUP BY b.player, COALESCE(b.bot, '') "
            "ORDER BY COUNT(*) DESC, b.player, COALESCE(b.bot, '')", parameters)
        if not rows:
            return []
        names = self._latest_names([(_key(name), bot or ""), *((row[0], row[1]) for row in rows)])
        me = player_label(names[(_key(name), bot or "")], bot)
        return [HeadToHead(me, player_label(names[(other, other_bot)], other_bot or None), game, n, ahead, behind, tied)
                for other, other_bot, n, ahead, behind, tied in rows]

    def kinds(self, name: str) -> list[str | None]:
        """The kinds of player recorded under ``name``: None for a human, else each bot level."""
        rows = self._rows("SELECT DISTINCT COALESCE(bot, '') FROM seats WHERE player = ? ORDER BY 1", (_key(name),))
        return [bot or None for (bot,) in rows]

    def _latest_names(self, players: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Each player (a case-folded name and a kind, '' for a human) → their name as written at
        their latest game."""
        wanted = set(players)
        keys = sorted({player for player, _bot in wanted})
        marks = ", ".join("?" * len(keys))
        # SQLite takes a bare column of a MAX() query from the row holding the maximum
        rows = self._rows(f"SELECT s.player, COALESCE(s.bot, ''), s.name, MAX(g.finished) FROM seats s "
                          f"JOIN games g ON g.id = s.game_id WHERE s.player IN ({marks}) "
                          "GROUP BY s.player, COALESCE(s.bot, '')", keys)
        return {(player, bot): shown for player, bot, shown, _last in rows if (player, bot) in wanted}


def _rebuild_standings(connection: sqlite3.Connection, players: Sequence[str] | None) -> None:
    """Work out the standings of ``players`` (case-folded names; every player when None) again
    from their games, in the order played: counts, best score, latest game and runs of wins.
    Called inside the transaction that wrote their games, so the two always agree."""
    if players is None:
        where, parameters = "", []
        connection.execute("DELETE FROM standings")
    else:
        marks = ", ".join("?" * len(players))
        where, parameters = f"WHERE s.player IN ({marks})", list(players)
        connection.execute(f"DELETE FROM standings WHERE player IN ({marks})", parameters)
    rows = connection.execute(
        "SELECT s.player, COALESCE(s.bot, ''), g.game, s.rank = 1, s.score, s.name, g.finished "
        f"FROM seats s JOIN games g ON g.id = s.game_id {where} ORDER BY g.finished, g.id", parameters)
    tally: dict[tuple, list] = {}  # (player, bot, game or '') → [games, wins, best, last, streak, longest]
    names: dict[tuple, str] = {}
    for player, bot, game, won, score, shown, finished in rows:
        names[(player, bot)] = shown
        for key in ((player, bot, game), (player, bot, "")):
            entry = tally.get(key)
            if entry is None:
                entry = tally[key] = [0, 0, score, finished, 0, 0]
            entry[0] += 1
            entry[2] = max(entry[2], score)
            entry[3] = finished
            if won:
                entry[1] += 1
                entry[4] += 1
                entry[5] = max(entry[5], entry[4])
            else:
                entry[4] = 0
    connection.executemany(
        "INSERT INTO standings (player, bot, game, name, games, wins, best, last, streak, longest) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(player, bot, game, names[(player, bot)], *entry) for (player, bot, game), entry in tally.items()])


def _key(name: str) -> str:
    return name.strip().casefold()


def _stamp(moment: datetime) -> str:
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _time(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return datetime.fromtimestamp(0, timezone.utc)


def _os_why(error: OSError) -> str:
    return (error.strerror or str(error) or type(error).__name__).rstrip(".").lower()
