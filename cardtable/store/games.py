"""The games, every one in one SQLite database: ``<data dir>/games.sqlite3``.

A game is its setup (game, options, seats, seed) and its moves, one row each, numbered from 1,
with (game, number) unique, plus the summary the saves list shows (turn, who is to play, over,
the result), kept with every move so that listing thousands of games replays none. Opening a
game replays its moves once.

Many writers, one game. Every cardtable (a terminal, a browser tab, a test) may play the same
game at once. A move is written by ``SaveStore.play`` in one write transaction (BEGIN
IMMEDIATE): the moves written by others since this process last looked are read and played on
its match first (it catches up), and the move is then checked against that position. A move
that lost the race is refused saying who moved first — unless the game let both seats act at
once there (sealed bids) and it is still legal, when it is written after the other's. The
primary key (game, number) makes a doubled move impossible even if that logic were wrong. A
table learns of moves written elsewhere by ``sync``, which costs one ``PRAGMA data_version``
when nothing changed. Undo deletes the seat's own latest rows in a transaction that first
checks nothing was written after them.

The database does what the JSON store did by hand: transactions instead of temporary files,
renames and lock files (WAL mode, so readers never wait for a writer, and ``synchronous=FULL``:
a move acknowledged survives a power cut as the JSON store's fsync did, for some 0.25 ms a
move); ``PRAGMA quick_check`` on open. A damaged database is set aside (renamed
``games.damaged-<date>-<time>.sqlite3``, never deleted) with a notice and a fresh one begun; one
from a newer cardtable is left alone and not written to. Writing failures come out as
``SaveError`` (an OSError) in words; the caller plays on and the next write catches up.

The saves of earlier versions (``saves/*.json``, any format, and ``saves/trash/*.json`` into
the trash) are brought in the first time the database is opened, each with its id, replayed once
for its summary and its moves written in today's notation; a file that cannot be read is listed
with the reason, as before. The files are left where they are, unchanged. A game whose later
moves no longer replay comes in at its last good move and says so when it is first opened; so
does one of the database's own games, whose original moves are kept in ``originals``.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import rules
from rules.core.errors import ReplayError, RulesError, SaveFormatError
from rules.core.words import join_names, player, say

from .. import sqlite
from ..paths import default_data_dir, file_in_the_way, free_name, shorten, user_path, why, write_atomically
from . import FILE, SAVES, analyses, files, hints, seats
from .errors import Diverged, GameChanged, MovedFirst, SaveError
from .info import Opened, Replayed, SaveInfo, is_valid_id, quoted, result_text

if TYPE_CHECKING:
    from rules.core import Event, Match, Played

TRASH = "trash"
EXPORTS = "exports"
PROG = "cardtable"
BUSY_SECONDS = 5.0
"""How long a write waits for another writer's transaction (each holds it for milliseconds)."""

MIGRATIONS: dict[int, tuple[sqlite.Migration, ...]] = {
    1: (
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,          -- 20261125-143000-property-ab12 (an earlier save's file name)
            game TEXT NOT NULL,           -- the registry name: "property"
            options TEXT NOT NULL,        -- JSON object, as Match.to_json writes it
            seats TEXT NOT NULL,          -- JSON list of {"name", "bot"}
            seed TEXT NOT NULL,           -- the seed in decimal (a Python int of any size)
            format INTEGER NOT NULL,      -- the notation its moves are written in (rules FORMAT_VERSION)
            created TEXT NOT NULL,        -- ISO 8601 in UTC (sorts as text)
            updated TEXT NOT NULL,        -- when a move was last written or taken back
            moves INTEGER NOT NULL,       -- how many rows of moves it has
            revision INTEGER NOT NULL,    -- counts the times moves were taken away (undo, repair)
            turn INTEGER NOT NULL,        -- the summary the saves list shows, kept with every move
            to_play TEXT NOT NULL,        -- JSON list of the names awaited
            over INTEGER NOT NULL,
            result TEXT NOT NULL,         -- "Ann won"; '' while in play
            repaired TEXT,                -- JSON: how a save brought in was repaired, said when first opened
            deleted TEXT                  -- when it went to the trash; NULL while listed
        )""",
        "CREATE INDEX games_listed ON games (deleted, updated)",
        """CREATE TABLE moves (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            number INTEGER NOT NULL CHECK (number >= 1),
            seat INTEGER NOT NULL,
            text TEXT NOT NULL,           -- the command in the game's notation
            written TEXT NOT NULL,
            PRIMARY KEY (game_id, number)
        ) WITHOUT ROWID""",
        """CREATE TABLE originals (        -- a game as it was before it was repaired at its last good move
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kept TEXT NOT NULL,
            reason TEXT NOT NULL,
            save TEXT NOT NULL            -- the game file (JSON), as `cardtable export ID --original` writes it
        )""",
        "CREATE INDEX originals_of_game ON originals (game_id, id)",
        """CREATE TABLE unreadable (       -- saves of earlier versions that could not be brought in
            id TEXT PRIMARY KEY,
            file TEXT NOT NULL,           -- where it is, under the data folder: saves/x.json (left there)
            game TEXT NOT NULL,           -- the game it names, '' if none this version has
            reason TEXT NOT NULL,
            damaged INTEGER NOT NULL,     -- 0: a newer cardtable's, or a game this one lacks
            modified TEXT NOT NULL,
            deleted TEXT
        )""",
        """CREATE TABLE brought_in (       -- each folder of earlier saves, brought in once
            folder TEXT PRIMARY KEY,
            done TEXT NOT NULL,
            games INTEGER NOT NULL,
            unreadable INTEGER NOT NULL
        )""",
    ),
    2: seats.MIGRATION,
    3: analyses.MIGRATION,
    4: hints.MIGRATION,
}
SCHEMA = sqlite.Schema("a cardtable games database", MIGRATIONS)
SCHEMA_VERSION = SCHEMA.version
PRAGMAS = ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL")

_GAME_COLUMNS = "id, game, seats, turn, updated, over, result, to_play, moves, hints"


@dataclass
class _Known:
    """What this process knows the store holds of a game it plays through ``match``, as last
    read or written: how many moves (``count``) and the revision, and the first ``played`` of
    those moves as the match's own history entries. Entries are never changed, only popped and
    new ones made, so one of them at its place means the whole history before it is still what
    the store holds: a move is written or caught up with by looking at the last few entries,
    where comparing every move in notation cost a move some 2 ms more at a match's end."""

    match: weakref.ref
    played: list[Played]
    count: int
    revision: int
    data_version: int | None = None
    original: tuple[str, str] | None = None  # (reason, game file) to keep before moves are first cut


@dataclass
class _Turn:
    """One write transaction on a game: what this process knows of it, and what it wrote
    (known once the transaction is committed)."""

    connection: sqlite3.Connection
    known: _Known
    wrote: tuple[int, list[Played], int] | None = None  # known.played kept up to, what follows, revision


@dataclass
class _Caught:
    """Moves of others this match caught up with: taken back, then played (their seats)."""

    undone: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.undone or self.played)


class SaveStore(seats.RemoteSeats, analyses.Analyses, hints.Hints):
    """The games in ``root/games.sqlite3``; ``root`` defaults to ``default_data_dir()`` (either
    raises UnusablePath for a ``~user`` that cannot be found). The database is opened on first
    use.

    ``problems`` holds one message per thing the last ``list()`` could not read at all (the
    database itself); a save that could not be brought in is an entry of the list, not a
    problem. ``notices`` collects what the player must be told once (a damaged database set
    aside, earlier saves brought in); whoever shows them clears the list."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = user_path(root, "the data folder") if root is not None else default_data_dir()
        self.problems: list[str] = []
        self.notices: list[str] = []
        self._connection: sqlite3.Connection | None = None
        self._unusable: SaveError | None = None
        self._lock = threading.RLock()
        self._known: dict[str, _Known] = {}
        self.throttle = seats.Throttle()
        """Wrong join codes per source (``join``), for servers to slow guessing down."""

    @property
    def path(self) -> Path:
        """The database file."""
        return self.root / FILE

    @property
    def folder(self) -> Path:
        """The saves of earlier versions, one JSON file a game (brought in once, left there)."""
        return self.root / SAVES

    @property
    def exports_folder(self) -> Path:
        return self.root / EXPORTS

    def __repr__(self) -> str:
        return f"SaveStore({str(self.root)!r})"

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
            self._known.clear()

    # -- the database ------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        """The connection, opened (and the earlier saves brought in) on first use; SaveError."""
        if self._connection is not None:
            return self._connection
        if self._unusable is not None:
            raise self._unusable
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise self._cannot(error) from None
        try:
            connection = self._connect()
        except sqlite.Damaged as damage:
            try:
                target = sqlite.set_aside(self.path, "games")
            except OSError as error:
                raise SaveError(f"The games database ({self.path}) is damaged ({shorten(damage.reason, 200)}) "
                                f"and could not be set aside: {why(error)}.") from None
            self.notices.append(
                f"The games database was damaged ({shorten(damage.reason, 200)}): it was set aside as "
                f"{target.name} in {target.parent} and a new one begun; the saves of earlier versions "
                f"in {self.folder} are brought in again.")
            try:
                connection = self._connect()
            except sqlite.Damaged as again:  # pragma: no cover - a new file cannot be damaged
                raise SaveError(f"The games database ({self.path}) cannot be used: {again.reason}.") from None
        self._connection = connection
        self._bring_in_earlier_saves(connection)
        return connection

    def _connect(self) -> sqlite3.Connection:
        try:
            return sqlite.connect(self.path, SCHEMA, timeout=BUSY_SECONDS, pragmas=PRAGMAS)
        except sqlite.Newer as newer:
            error = SaveError(f"The games database ({self.path}) was made by a newer cardtable ({newer}): "
                              "it is left as it is, and games are not saved.")
            error.reading = str(error)
            self._unusable = error
            raise error from None
        except sqlite3.Error as error:
            raise self._cannot(error) from None

    def _cannot(self, error: Exception) -> SaveError:
        """A failure to write, as a SaveError in words."""
        if isinstance(error, SaveError):
            return error
        if isinstance(error, OSError):
            reason = why(error, self.root)
            failure = SaveError(f"Games cannot be saved in {self.root}: {reason}.")
            failure.errno = error.errno
        elif isinstance(error, UnicodeDecodeError):
            reason = f"{self.path} is damaged (its text is not UTF-8)"
            failure = SaveError(f"Games cannot be saved in {self.root}: {reason}.")
        else:
            reason = sqlite.describe(error, self.path).rstrip(".")  # type: ignore[arg-type]
            failure = SaveError(f"Games cannot be saved in {self.root}: {reason}.")
        failure.reading = f"Cannot read the saved games in {self.root}: {reason}."
        return failure

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One consistent read of the database (SaveError in words if it cannot be read)."""
        connection = self._db()
        try:
            with sqlite.transaction(connection, "DEFERRED"):
                yield connection
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._cannot(error) from None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (SaveError in words when it cannot be made)."""
        connection = self._db()
        try:
            with sqlite.transaction(connection):
                yield connection
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._cannot(error) from None

    def waiting_to_come_in(self) -> int:
        """How many saves of an earlier version the first use of the store will bring in (it
        replays each once: some 0.3 ms a move), so a caller can say so first; 0 once there is
        a database."""
        if self.path.exists():
            return 0
        return len(files.scan(self.folder)) + len(files.scan(self.folder / TRASH))

    def _exists(self) -> bool:
        """Whether there is anything to read: the database, or saves of an earlier version."""
        try:
            return self.path.exists() or self.folder.is_dir() or file_in_the_way(self.root) is not None
        except OSError:
            return True  # let opening say what is wrong

    # -- writing -----------------------------------------------------------------------------
    def create(self, match: Match, remote: Sequence[int] = (), *, hints: bool = False) -> str:
        """Save a new game (with the moves it has) under a fresh id and return the id; the
        ``remote`` seats (played from other screens) get their join codes with it (``codes``);
        ``hints``: played with the expert's hints (store/hints.py).
        Raises SaveError (saying where and why) when it cannot be written."""
        if any(not 0 <= seat < len(match.seats) or not match.seats[seat].is_human for seat in remote):
            raise ValueError("only human seats can be played from other screens")
        with self._lock, self._writing() as connection:
            game_id = self._new_id(connection, match.spec.name)
            now = _now()
            _insert_game(connection, game_id, match, now, now)
            if hints:
                connection.execute("UPDATE games SET hints = 1 WHERE id = ?", (game_id,))
            for seat in (*sorted(set(remote)), None):
                seats.add_code(connection, game_id, seat)
        self._known[game_id] = _Known(weakref.ref(match), list(match.history), len(match.history), 0)
        return game_id

    def play(self, game_id: str, match: Match, seat: int, command: Any) -> list[Event]:
        """Play ``command`` (a Command or its notation) for ``seat`` on ``match`` and write it as
        the game's next move, in one write transaction; return its events.

        Moves written by other cardtables since are played on ``match`` first. Raises a RulesError
        when the move is refused: by the rules, or (MovedFirst) because another move came first
        — nothing of this move is played or written, though ``match`` shows the others' moves.
        Raises SaveError when it could not be written: the move is played on ``match`` all the
        same, and the next write tries again. Raises GameChanged when ``match`` cannot follow
        what others did: open the game again."""
        with self._lock:
            played = False
            events: list[Event] = []
            try:
                with self._turn(game_id, match) as turn:
                    awaiting = match.awaiting
                    caught = self._catch_up(turn.connection, game_id, match, turn.known)
                    if caught:
                        _refuse_unless_at_once(match, seat, command, awaiting, caught)
                    events = match.submit(seat, command)
                    played = True
                    self._write(turn, game_id, match)
            except SaveError:
                if not played:
                    events = match.submit(seat, command)  # the rules may still refuse it
                raise
            return events

    def undo(self, game_id: str, match: Match, seat: int) -> Played:
        """Take back ``seat``'s latest move on ``match`` and in the store, in one transaction that
        first checks nothing was written after it. Raises a RulesError when it cannot be taken
        back (MovedFirst: another cardtable moved since; ``match`` shows it), SaveError when the
        store could not be changed (it is taken back on ``match`` all the same), GameChanged as
        ``play`` does."""
        with self._lock:
            if not match.can_undo(seat):
                return match.undo(seat)  # raises, saying why
            undone: Played | None = None
            try:
                with self._turn(game_id, match) as turn:
                    caught = self._catch_up(turn.connection, game_id, match, turn.known)
                    if caught:
                        raise MovedFirst(_moved_first(match, caught, "nothing was taken back"))
                    undone = match.undo(seat)
                    self._write(turn, game_id, match)
            except SaveError:
                if undone is None:
                    undone = match.undo(seat)
                raise
            return undone

    def save(self, game_id: str, match: Match) -> None:
        """Write whatever of ``match`` the store lacks (moves played while it could not be
        written, moves taken back meanwhile), catching up first with moves written elsewhere.
        Raises SaveError when it cannot (a disk that refuses; moves written elsewhere while
        these were not saved), GameChanged as ``play`` does."""
        with self._lock:
            with self._turn(game_id, match) as turn:
                self._catch_up(turn.connection, game_id, match, turn.known)
                self._write(turn, game_id, match)

    def sync(self, game_id: str, match: Match) -> int:
        """Catch ``match`` up with what other cardtables wrote of the game since this process
        last looked; the number of moves played or taken back on it. One ``PRAGMA data_version``
        when nothing was written anywhere in the database meanwhile. Raises SaveError when the
        store cannot be read or holds moves this match cannot take (its own are not saved),
        GameChanged as ``play`` does."""
        with self._lock:
            connection = self._db()
            try:
                version = connection.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error as error:
                raise self._cannot(error) from None
            known = self._known.get(game_id)
            if known is not None and known.match() is match and known.data_version == version:
                return 0
            with self._reading() as connection:
                known = self._known_of(connection, game_id, match)
                caught = self._catch_up(connection, game_id, match, known)
            known.data_version = version
            return len(caught.undone) + len(caught.played)

    @contextmanager
    def _turn(self, game_id: str, match: Match) -> Iterator[_Turn]:
        """A write transaction on ``game_id`` as ``match`` knows it; what it wrote is known once
        it is committed."""
        if not is_valid_id(game_id):
            raise LookupError(f"no saved game {quoted(game_id)}")
        with self._writing() as connection:
            turn = _Turn(connection, self._known_of(connection, game_id, match))
            yield turn
        if turn.wrote is not None:
            kept, more, turn.known.revision = turn.wrote
            _follow(turn.known, kept, more)
            turn.known.original = None

    def _known_of(self, connection: sqlite3.Connection, game_id: str, match: Match) -> _Known:
        """What this process knows of the game through ``match``; for a match it has not seen,
        what the store holds as far as it agrees with the match (SaveError when they differ
        both ways: neither is a continuation of the other)."""
        known = self._known.get(game_id)
        if known is not None and known.match() is match:
            return known
        row = connection.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        stored = _rows(connection, game_id) if row is not None else []
        local = _moves_of(match)
        common = _common(local, stored)
        if common < len(local) and common < len(stored):
            raise Diverged(f"The store holds other moves of this game than this table does (from move "
                            f"{common + 1}): open it again to play it as the store has it.")
        known = _Known(weakref.ref(match), match.history[:common], common, row[0] if row is not None else 0)
        self._known[game_id] = known
        return known

    def _catch_up(self, connection: sqlite3.Connection, game_id: str, match: Match, known: _Known) -> _Caught:
        """Play on ``match`` what others wrote since ``known`` (taking back what they took back)."""
        row = connection.execute("SELECT revision, moves FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return _Caught()  # not in the store (any more): writing puts it back
        revision, count = row
        if revision == known.revision and count == known.count:
            return _Caught()
        same, agreed = _agreed(match.history, known.played)
        if not agreed == len(match.history) == known.count:
            raise Diverged("Another cardtable has played this game while its latest moves here could "
                            "not be saved: they stay on this table only, and the store keeps the other's.")
        if revision == known.revision and count > known.count:
            common, more = known.count, _rows(connection, game_id, after=known.count)
        else:  # moves were taken away elsewhere: where the two part is found over the whole game
            stored = _rows(connection, game_id)
            common = _common(_moves_of(match), stored)
            more = stored[common:]
        caught = _Caught()
        for entry in reversed(match.history[common:]):
            if not match.can_undo(entry.seat):
                raise GameChanged("Moves of this game were taken back in another cardtable.")
            match.undo(entry.seat)
            caught.undone.append(entry.seat)
        for seat, text in more:
            try:
                match.submit(seat, text)
            except Exception as error:  # noqa: BLE001 — another version's move: open it again
                raise GameChanged(f"A move written in another cardtable does not play here ({error}).") from None
            caught.played.append(seat)
        kept = min(same, common)
        _follow(known, kept, match.history[kept:])
        known.revision = revision
        return caught

    def _write(self, turn: _Turn, game_id: str, match: Match) -> None:
        """Make the store's moves those of ``match`` (it holds ``turn.known``'s now: the caller
        has caught up); the summary with them. Only the moves after the last one both share are
        compared and written."""
        connection, known = turn.connection, turn.known
        history = match.history
        exists = connection.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if exists is None:  # gone from the store meanwhile (a damaged database begun anew)
            now = _now()
            connection.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            _insert_game(connection, game_id, match, now, now)
            turn.wrote = (0, list(history), 0)
            return
        same, common = _agreed(history, known.played)
        revision = known.revision
        now = _now()
        if common < known.count:
            if known.original is not None:
                reason, original = known.original
                connection.execute("INSERT INTO originals (game_id, kept, reason, save) VALUES (?, ?, ?, ?)",
                                   (game_id, now, reason, original))
            connection.execute("DELETE FROM moves WHERE game_id = ? AND number > ?", (game_id, common))
            revision += 1
        if common < len(history):
            connection.executemany(
                "INSERT INTO moves (game_id, number, seat, text, written) VALUES (?, ?, ?, ?, ?)",
                [(game_id, number, entry.seat, entry.text, now)
                 for number, entry in enumerate(history[common:], common + 1)])
        if common < known.count or common < len(history):
            summary = _summary(match)
            connection.execute(
                "UPDATE games SET updated = ?, moves = ?, revision = ?, turn = ?, to_play = ?, over = ?, "
                "result = ? WHERE id = ?", (now, len(history), revision, *summary, game_id))
        turn.wrote = (same, history[same:], revision)

    # -- reading -----------------------------------------------------------------------------
    def open(self, game_id: str) -> Opened:
        """The game, replayed, for play (its moves written elsewhere later come in by ``sync``).

        Raises LookupError for an unknown id, SaveFormatError (in words) for a game that cannot
        be played (a save of an earlier version that could not be brought in, or a game whose
        setup no longer plays), SaveError when the store cannot be read. A game whose move N no
        longer replays resumes after move N-1: its original moves are kept (``export
        --original``) and the later ones removed, and ``Opened.notice`` says so, as it does for
        a save of an earlier version repaired when it was brought in."""
        with self._lock:
            data, row = self._game_data(game_id)
            notice = None
            original = None
            try:
                match = files.load(data)
            except ReplayError as error:
                shortened = dict(data, commands=data["commands"][: error.move - 1])
                match = self._load(game_id, shortened)
                kept = (f"its original moves are kept in the store ('{PROG} export {game_id} --original' "
                        "writes them to a file)")
                notice = _repair_notice({"move": error.move, "text": error.text, "kept": kept})
                original = (notice, files.game_text(dict(data, saved=row["updated"], created=row["created"])))
            except SaveFormatError as error:
                raise SaveFormatError(f"Cannot open {game_id}: {shorten(error, 300)}") from None
            stored = [(seat, text) for seat, text in data["commands"]]
            common = _common(_moves_of(match), stored)
            self._known[game_id] = _Known(weakref.ref(match), match.history[:common], len(stored), row["revision"],
                                          original=original)
            if original is not None:
                try:
                    self.save(game_id, match)
                except (SaveError, GameChanged) as failure:
                    notice = notice.rstrip(".") + f" (the game is not shortened in the store yet: {failure})."
            if row["repaired"] is not None:
                notice = _repair_notice(_json(row["repaired"]) or {})
                try:
                    with self._writing() as connection:
                        connection.execute("UPDATE games SET repaired = NULL WHERE id = ?", (game_id,))
                except SaveError:
                    pass  # said again next time
            return Opened(match, notice)

    def load(self, game_id: str) -> Match:
        """``open(game_id).match``."""
        return self.open(game_id).match

    def replay(self, game_id: str) -> Replayed:
        """The saved game as a Replay (``rules.core.replay``), for stepping through it. Reads
        only: nothing is written, and a game being played in another cardtable can be replayed
        all the same. A move that no longer replays ends the replay before it, and
        ``Replayed.notice`` says so.

        Raises LookupError for an unknown id and SaveFormatError, in words, for a game that
        cannot be replayed."""
        with self._lock:
            data, row = self._game_data(game_id, replaying=True)
        try:
            replay = rules.load_replay(data)
        except SaveFormatError as error:
            raise SaveFormatError(f"{game_id} cannot be replayed: {shorten(error, 300)}") from None
        except Exception as error:  # the border: a game may fail deep inside on odd input
            raise SaveFormatError(f"{game_id} cannot be replayed ({files.in_words(error, 200)})") from None
        notice = None
        repaired = _json(row["repaired"]) if row["repaired"] is not None else None
        if replay.stopped is not None:
            notice = _replay_notice({"move": replay.stopped.move, "text": replay.stopped.text}, replay.moves)
        elif isinstance(repaired, dict):
            notice = _replay_notice(repaired, replay.moves)
        return Replayed(replay, notice)

    def _game_data(self, game_id: str, replaying: bool = False) -> tuple[dict[str, Any], sqlite3.Row]:
        """The game's setup and moves as Match JSON, and its row; LookupError, SaveFormatError
        (for a save of an earlier version that could not be brought in)."""
        if not is_valid_id(game_id):
            raise LookupError(f"no saved game {quoted(game_id)}")
        with self._reading() as connection:
            rows = connection.cursor()
            rows.row_factory = sqlite3.Row
            row = rows.execute("SELECT * FROM games WHERE id = ? AND deleted IS NULL", (game_id,)).fetchone()
            if row is None:
                unreadable = rows.execute("SELECT file, reason FROM unreadable WHERE id = ? AND deleted IS NULL",
                                          (game_id,)).fetchone()
                if unreadable is not None and replaying:
                    raise SaveFormatError(f"{unreadable['file']} cannot be replayed: {unreadable['reason']}")
                if unreadable is not None:
                    raise SaveFormatError(f"Cannot open {unreadable['file']}: {unreadable['reason']} "
                                          "(the file is left as it was)")
                raise LookupError(f"no saved game {quoted(game_id)}")
            commands = [[seat, text] for seat, text in connection.execute(
                "SELECT seat, text FROM moves WHERE game_id = ? ORDER BY number", (game_id,))]
        data = {"format": row["format"], "game": row["game"], "options": _json(row["options"]),
                "seats": _json(row["seats"]), "seed": _seed(row["seed"]), "commands": commands}
        return data, row

    def _load(self, game_id: str, data: dict[str, Any]) -> Match:
        try:
            return files.load(data)
        except SaveFormatError as error:
            raise SaveFormatError(f"Cannot open {game_id}: {shorten(error, 300)}") from None

    def list(self) -> list[SaveInfo]:
        """Every game, most recently played first, with the saves of earlier versions that could
        not be brought in (``damaged``, with the reason). Nothing is replayed or written (the
        first call in a data folder with earlier saves brings them in)."""
        with self._lock:
            self.problems = []
            return self._infos(deleted=False)

    def trash(self) -> list[SaveInfo]:
        """The deleted games, most recently deleted first; ids are those ``restore`` takes."""
        with self._lock:
            return self._infos(deleted=True)

    def latest(self, unfinished: bool = True) -> SaveInfo | None:
        """The most recently played game that can be opened (by default the most recent one
        still in play)."""
        with self._lock:
            if not self._exists():
                return None
            try:
                with self._reading() as connection:
                    rows = connection.execute(
                        f"SELECT {_GAME_COLUMNS} FROM games WHERE deleted IS NULL"
                        + (" AND over = 0" if unfinished else "") + " ORDER BY updated DESC, id DESC")
                    for row in rows:  # the first that reads well: built one at a time
                        info = _info(row)
                        if not info.damaged:
                            return info
            except SaveError as error:
                self.problems.append(error.reading or str(error))
            return None

    def exists(self, game_id: str) -> bool:
        """Whether ``game_id`` is a game (or an unreadable save) in the list."""
        if not is_valid_id(game_id) or not self._exists():
            return False
        with self._lock, self._reading() as connection:
            return any(connection.execute(f"SELECT 1 FROM {table} WHERE id = ? AND deleted IS NULL",
                                          (game_id,)).fetchone() for table in ("games", "unreadable"))

    def _infos(self, *, deleted: bool) -> list[SaveInfo]:
        if not self._exists():
            return []  # nothing to read: create nothing
        try:
            with self._reading() as connection:
                where = "deleted IS NOT NULL" if deleted else "deleted IS NULL"
                games = connection.execute(f"SELECT {_GAME_COLUMNS}, deleted FROM games WHERE {where}").fetchall()
                unreadable = connection.execute("SELECT id, file, game, reason, damaged, modified, deleted "
                                                f"FROM unreadable WHERE {where}").fetchall()
                remote: dict[str, set[int]] = {}
                for game_id, seat in connection.execute(
                        "SELECT game_id, seat FROM codes WHERE renewed IS NULL AND seat IS NOT NULL"):
                    remote.setdefault(game_id, set()).add(seat)
        except SaveError as error:
            self.problems.append(error.reading or str(error))
            return []
        infos = [_info(row, frozenset(remote.get(row[0], ()))) for row in games]
        infos += [_unreadable_info(row) for row in unreadable]
        if deleted:
            moments = {row[0]: files.timestamp(row[-1]) or _EPOCH for row in [*games, *unreadable]}
            infos.sort(key=lambda info: (moments[info.id], info.id), reverse=True)
        else:
            infos.sort(key=lambda info: (info.updated, info.id), reverse=True)
        return infos

    # -- the trash ---------------------------------------------------------------------------
    def delete(self, game_id: str) -> str:
        """Move the game to the trash and return its id there (for ``restore``)."""
        return self._move(game_id, "deleted IS NULL", _now(), f"no saved game {quoted(game_id)}")

    def restore(self, trash_id: str) -> str:
        """Put a game from the trash back among the saves; return its id."""
        return self._move(trash_id, "deleted IS NOT NULL", None, f"no game {quoted(trash_id)} in the trash")

    def _move(self, game_id: str, where: str, deleted: str | None, unknown: str) -> str:
        if not is_valid_id(game_id) or not self._exists():
            raise LookupError(unknown)
        with self._lock, self._writing() as connection:
            for table in ("games", "unreadable"):
                cursor = connection.execute(f"UPDATE {table} SET deleted = ? WHERE id = ? AND {where}",
                                            (deleted, game_id))
                if cursor.rowcount:
                    return game_id
        raise LookupError(unknown)

    # -- games as files ----------------------------------------------------------------------
    def export(self, game_id: str, *, original: bool = False) -> dict[str, Any]:
        """The game as a file holds it (the Match JSON, its snapshot and metadata, in the format
        earlier versions read); with ``original``, the game as it was before it was last
        repaired. A game whose moves no longer replay is exported as the store has it, without
        a snapshot (importing it repairs it). LookupError for an unknown id or no original."""
        with self._lock:
            if original:
                if not is_valid_id(game_id):
                    raise LookupError(f"no saved game {quoted(game_id)}")
                with self._reading() as connection:
                    row = connection.execute("SELECT save FROM originals WHERE game_id = ? ORDER BY id DESC "
                                             "LIMIT 1", (game_id,)).fetchone()
                if row is None:
                    raise LookupError(f"no original of {quoted(game_id)} is kept: it was never repaired")
                return _json(row[0])
            data, row = self._game_data(game_id)
        try:
            match = files.load(data)
        except SaveFormatError:
            return {"format": data.pop("format"), "saved": row["updated"], "created": row["created"], **data}
        return files.game_file(match, row["created"], row["updated"])

    def export_to(self, game_id: str, path: Path | None = None, *, original: bool = False) -> Path:
        """Write ``export(game_id)`` to ``path`` (by default ``exports/<id>.json`` in the data
        folder, never over another export); the path written. SaveError in words."""
        text = files.game_text(self.export(game_id, original=original))
        if path is None:
            try:
                self.exports_folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise SaveError(f"The game cannot be exported to {self.exports_folder}: "
                                f"{why(error, self.exports_folder)}.") from None
            path = free_name(self.exports_folder, f"{game_id}{'.original' if original else ''}.json")
        try:
            write_atomically(path, text)
        except OSError as error:
            raise SaveError(f"The game cannot be exported to {path}: {why(error, path.parent)}.") from None
        return path

    def import_file(self, path: Path) -> tuple[str, str | None]:
        """Add the game in the JSON file ``path`` under a new id, checked as a save is (an
        exported game, a save of an earlier version, a bare Match JSON); return the id and a
        notice when it came in at its last good move. SaveFormatError saying why a file cannot
        be imported; SaveError when the store cannot be written."""
        try:
            data = files.read_file(path)
            brought = files.bring_in(data)
        except files.Unreadable as problem:
            raise SaveFormatError(f"{path.name} cannot be imported: {problem.reason}") from None
        kept = f"the file {path} is left as it was"
        repaired = dict(brought.repair, kept=kept) if brought.repair else None
        original = (_repair_notice(repaired), files.game_text(data)) if repaired else None
        with self._lock, self._writing() as connection:
            game_id = self._new_id(connection, brought.match.spec.name)
            now = _now()
            _insert_game(connection, game_id, brought.match, brought.created or now, brought.saved or now,
                         repaired=repaired, original=original)
        return game_id, _repair_notice(repaired, imported=True) if repaired else None

    # -- the saves of earlier versions -------------------------------------------------------
    def _bring_in_earlier_saves(self, connection: sqlite3.Connection) -> None:
        """Bring ``saves/*.json`` into the store (``saves/trash/*.json`` into the trash), once:
        each keeps its id; a file that cannot be read is listed with the reason. The files are
        left as they are. Replaying happens outside the transaction that writes them; a second
        process doing the same at once writes nothing (the folder is marked done)."""
        brought = unreadable = 0
        for folder, name, trashed in ((self.folder, SAVES, False), (self.folder / TRASH, f"{SAVES}/{TRASH}", True)):
            try:
                if connection.execute("SELECT 1 FROM brought_in WHERE folder = ?", (name,)).fetchone():
                    continue
                ready = [files.prepare(path, f"{name}/{path.name}", trashed) for path in files.scan(folder)]
                with sqlite.transaction(connection):
                    if connection.execute("SELECT 1 FROM brought_in WHERE folder = ?", (name,)).fetchone():
                        continue
                    games = 0
                    for entry in ready:
                        game_id = _free_id(connection, entry.id)
                        if isinstance(entry.what, files.Brought):
                            what = entry.what
                            repaired = dict(what.repair, kept=f"the original save is left as it was in {entry.file}") \
                                if what.repair else None
                            _insert_game(connection, game_id, what.match, what.created or what.saved or entry.modified,
                                         what.saved or entry.modified, deleted=entry.deleted, repaired=repaired,
                                         original=(_repair_notice(repaired), entry.text) if repaired else None)
                            games += 1
                        else:
                            problem = entry.what
                            connection.execute(
                                "INSERT INTO unreadable (id, file, game, reason, damaged, modified, deleted) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (game_id, entry.file, files.named_game(problem.data)[0], problem.reason,
                                 int(problem.set_aside), entry.modified, entry.deleted))
                    connection.execute("INSERT INTO brought_in (folder, done, games, unreadable) VALUES (?, ?, ?, ?)",
                                       (name, _now(), games, len(ready) - games))
                brought += games
                unreadable += len(ready) - games
            except sqlite3.Error as error:
                self.notices.append(f"The saves in {folder} could not be brought into {self.path} yet: "
                                    f"{sqlite.describe(error, self.path)}")
                return
        if brought or unreadable:
            count = f"{brought} saved game{'s' * (brought != 1)}"
            also = f" ({unreadable} could not be read: the saves list says why)" if unreadable else ""
            self.notices.append(f"The {count} of an earlier cardtable in {self.folder} were brought into "
                                f"{self.path}{also}; the files are left as they were.")

    # -- helpers -----------------------------------------------------------------------------
    def _new_id(self, connection: sqlite3.Connection, game: str) -> str:
        # local time reads naturally in `cardtable saves`; the random tail keeps ids unique
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in game.lower()).strip("-") or "game"
        while True:
            game_id = f"{stamp}-{slug}-{secrets.token_hex(2)}"
            if not _taken(connection, game_id):
                return game_id


def _taken(connection: sqlite3.Connection, game_id: str) -> bool:
    return any(connection.execute(f"SELECT 1 FROM {table} WHERE id = ?", (game_id,)).fetchone()
               for table in ("games", "unreadable"))


def _free_id(connection: sqlite3.Connection, game_id: str) -> str:
    """``game_id``, or ``<id>.1``, ``.2``… if that is taken (a save and a deleted one of one id)."""
    candidate, number = game_id, 1
    while _taken(connection, candidate):
        candidate = f"{game_id}.{number}"
        number += 1
    return candidate


def _insert_game(connection: sqlite3.Connection, game_id: str, match: Match, created: str, updated: str, *,
                 deleted: str | None = None, repaired: dict[str, Any] | None = None,
                 original: tuple[str, str] | None = None) -> None:
    from rules.core.match import FORMAT_VERSION

    moves = _moves_of(match)
    # serialised first: a value JSON cannot hold fails before anything is written
    options = json.dumps(dict(match.options), ensure_ascii=False)
    seats = json.dumps([seat.to_json() for seat in match.seats], ensure_ascii=False)
    connection.execute(
        "INSERT INTO games (id, game, options, seats, seed, format, created, updated, moves, revision, turn, "
        "to_play, over, result, repaired, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
        (game_id, match.spec.name, options, seats, str(match.seed), FORMAT_VERSION, created, updated, len(moves),
         *_summary(match), json.dumps(repaired, ensure_ascii=False) if repaired else None, deleted))
    connection.executemany("INSERT INTO moves (game_id, number, seat, text, written) VALUES (?, ?, ?, ?, ?)",
                           [(game_id, number, seat, text, updated) for number, (seat, text) in enumerate(moves, 1)])
    if original is not None:
        connection.execute("INSERT INTO originals (game_id, kept, reason, save) VALUES (?, ?, ?, ?)",
                           (game_id, _now(), *original))


def _summary(match: Match) -> tuple[int, str, int, str]:
    """turn, to_play, over, result: what the saves list shows of a game."""
    to_play = [match.names[seat] for seat in sorted(match.awaiting)]
    return (match.turn, json.dumps(to_play, ensure_ascii=False), int(match.over),
            result_text(match.outcome, match.names))


def _moves_of(match: Match) -> list[tuple[int, str]]:
    return [(entry.seat, entry.text) for entry in match.history]


def _rows(connection: sqlite3.Connection, game_id: str, after: int = 0) -> list[tuple[int, str]]:
    return [(seat, text) for seat, text in connection.execute(
        "SELECT seat, text FROM moves WHERE game_id = ? AND number > ? ORDER BY number", (game_id, after))]


def _agreed(history: Sequence[Played], known: Sequence[Played]) -> tuple[int, int]:
    """How many leading entries of a match's ``history`` are ``known``'s own (the same objects:
    found from the end, as one shared means all before it are), and how many agree in seat and
    notation (those, and any taken back and played again as they were)."""
    same = min(len(history), len(known))
    while same and history[same - 1] is not known[same - 1]:
        same -= 1
    agreed = same
    while (agreed < len(history) and agreed < len(known) and history[agreed].seat == known[agreed].seat
           and history[agreed].text == known[agreed].text):
        agreed += 1
    return same, agreed


def _follow(known: _Known, kept: int, more: Sequence[Played]) -> None:
    """``known`` holds the store's moves as the match has them now: its first ``kept`` entries,
    then ``more``."""
    del known.played[kept:]
    known.played.extend(more)
    known.count = len(known.played)


def _common(first: Sequence[Any], second: Sequence[Any]) -> int:
    """How many leading items two sequences share."""
    count = 0
    for a, b in zip(first, second):
        if a != b:
            break
        count += 1
    return count


def _refuse_unless_at_once(match: Match, seat: int, command: Any, awaiting: frozenset[int], caught: _Caught) -> None:
    """After catching up with ``caught``: raise MovedFirst, unless the game awaited this seat and
    those others at once (a sealed bid: each may write in any order), only those others moved,
    and the move is still legal for the seat now."""
    at_once = (not caught.undone and len(awaiting) > 1 and seat in awaiting and seat in match.awaiting
               and all(other in awaiting and other != seat for other in caught.played))
    if at_once:
        try:
            match.check(seat, command)
            return
        except RulesError:
            pass
    raise MovedFirst(_moved_first(match, caught))


def _moved_first(match: Match, caught: _Caught, then: str | None = None) -> str:
    """The refusal of a move (or an undo, ``then``) that another cardtable's move came before."""
    who = join_names([player(match.names, seat) for seat in dict.fromkeys([*caught.undone, *caught.played])])
    if caught.played:
        shown = "their move" if len(caught.played) == 1 else "their moves"
        sentence = say("{} moved first", who)
    else:
        shown = "the game as it is now"
        sentence = say("{} took a move back in another cardtable", who)
    if then:
        return say("{}: {}; the table shows {}.", sentence, then, shown)
    return say("{}: the table shows {}.", sentence, shown)


def _repair_notice(repair: dict[str, Any] | None, imported: bool = False) -> str:
    """What the player is told of a game that could not be resumed exactly as it was saved."""
    repair = repair if isinstance(repair, dict) else {}
    kept = repair.get("kept") or "the original is kept"
    verb = "was imported" if imported else "resumes"
    if "move" in repair:
        move = _number(repair.get("move"))
        before = f"after move {move - 1}" if move > 1 else "from its first move"
        if imported:
            before = f"up to move {move - 1}" if move > 1 else "at its first move"
        return (f"Move {move} of this game ({shorten(repair.get('text'), 40)!r}) no longer replays, so it "
                f"{verb} {before}; {kept}.")
    moves = _number(repair.get("moves"))
    where = repair.get("where")
    differs = f"it differs at {shorten(where, 60)}" if where else "it is not a position of this game"
    after = f"after move {moves}" if moves else "from its first move"
    return (f"The moves of this game replay but do not reach the position it saved ({differs}), so it "
            f"{verb} where the moves lead, {after}; {kept}.")


def _replay_notice(repair: dict[str, Any], moves: int) -> str:
    if "move" in repair:
        return (f"Move {_number(repair.get('move'))} of this game ({shorten(repair.get('text'), 40)!r}) no "
                f"longer replays: the replay ends after move {moves}.")
    where = repair.get("where")
    differs = f"it differs at {shorten(where, 60)}" if where else "it is not a position of this game"
    return (f"The moves of this game replay but do not reach the position it saved ({differs}): the "
            "replay shows where the moves lead.")


def _seed(text: Any) -> Any:
    """The seed as the database keeps it (decimal text), as a number; else as it is (loading
    the game then says what is wrong)."""
    try:
        return int(text) if isinstance(text, str) and len(text) < 5000 else text
    except ValueError:
        return text


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9 else 0


def _json(text: Any) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None


_EPOCH = datetime.fromtimestamp(0, timezone.utc)


def _info(row: Sequence[Any], remote: frozenset[int] = frozenset()) -> SaveInfo:
    """A game's entry in the list, from its summary columns; a row the list cannot read (a
    database damaged inside) is listed as damaged rather than hiding the others."""
    game_id, game, seats, turn, updated, over, result, to_play, moves, hinted = row[:10]
    info = rules.INFO.get(game) if isinstance(game, str) else None
    try:
        from rules.core.match import Seat

        seated = tuple(Seat.from_json(seat) for seat in _json(seats))
        names = _json(to_play)
        return SaveInfo(
            id=game_id, game=game, title=info.title if info else "Unknown game", seats=seated,
            turn=_number(turn), updated=files.timestamp(updated) or _EPOCH, finished=bool(over),
            result=shorten(result, 120) if isinstance(result, str) else "",
            to_play=tuple(name for name in names if isinstance(name, str)) if isinstance(names, list) else (),
            best_bot=getattr(rules.GAMES[game], "best_bot", None) if info else None,
            damaged=info is None, reason="" if info else f"it is a game of {quoted(game, 40)}, which this "
            "cardtable does not have", set_aside=info is not None, moves=_number(moves), remote=remote,
            hints=hinted == 1)
    except Exception:  # noqa: BLE001 — the border: one bad row never hides the others
        return SaveInfo(id=str(game_id), game=game if info else "", title=info.title if info else "Unknown game",
                        seats=(), turn=0, updated=files.timestamp(updated) or _EPOCH, finished=False, result="",
                        damaged=True, reason="damaged (its entry in the store cannot be read)")


def _unreadable_info(row: Sequence[Any]) -> SaveInfo:
    game_id, file, game, reason, damaged, modified, _deleted = row
    info = rules.INFO.get(game) if isinstance(game, str) else None
    return SaveInfo(id=game_id, game=info.name if info else "", title=info.title if info else "Unknown game",
                    seats=(), turn=0, updated=files.timestamp(modified) or _EPOCH, finished=False, result="",
                    damaged=True, reason=str(reason), set_aside=bool(damaged), file=str(file))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()
