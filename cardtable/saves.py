"""The save store: every game as one JSON file, written atomically, listed without replay.

A save file is the Match JSON (``Match.to_json()``: format version, game, seats, seed, the
commands in notation, a snapshot) plus the store's own metadata: ``saved`` and ``created``
(ISO timestamps, UTC) and a ``summary`` block (title, seat names, turn, who is to play, over,
result) so the saves list can be shown without replaying any game.

The folder ``root/saves/`` holds:

- ``<id>.json``   one game each;
- ``<id>.lock``   while a cardtable has that game open: its process id, host and since when (the
                  process also holds an advisory lock on the file, so a lock whose process has
                  died is free and taken over);
- ``damaged/``    files that turned out not to be readable saves, moved there when the player
                  opened them (never deleted);
- ``replaced/``   the original of a save that was repaired when it was opened: one whose later
                  moves no longer replay (or are not moves at all), resumed before the first of
                  them, or whose moves do not reach the position it stored, resumed where they
                  lead;
- ``trash/``      deleted games, until the player restores them.

Reading is a border: whatever is in a file (broken JSON, absurd numbers, deep nesting, a wrong
type anywhere) comes out as a ``SaveFormatError`` with a sentence, or as a damaged entry in the
list; one bad file never hides the others. Listing changes nothing on disk. A file written by a
newer cardtable, or of a game this version lacks, is reported and always left where it is.
Writing failures come out as ``SaveError`` (an OSError) saying where and why.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import signal
import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import platformdirs

if TYPE_CHECKING:  # the match machinery loads when a save is first read, not at start-up
    from rules.core import Match, Outcome, Replay, Seat

import rules
from rules.core.errors import ReplayError, RulesError, SaveFormatError, SnapshotMismatch
from rules.core.words import join_names
from rules.core.words import result_text as winners_text

try:  # POSIX: advisory locks die with their process, so a crashed cardtable frees its games
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

APP_NAME = "cardtable"
DATA_DIR_ENV = "CARDTABLE_DATA_DIR"
SAVES = "saves"
DAMAGED = "damaged"
TRASH = "trash"
REPLACED = "replaced"
LOCK_SUFFIX = ".lock"

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""A bigger file is not read at all: no game of cards comes near it."""
MAX_ID_LENGTH = 200
STALE_TEMP_SECONDS = 3600
"""A temporary file this old is a leftover, whoever wrote it (no save takes an hour)."""

# The keys rules.load_match cannot do without; the store's metadata is optional so that a bare
# Match JSON (a bug report, a hand-made position) dropped into the folder still lists and loads.
_MATCH_KEYS = ("game", "seats", "seed", "commands")


class SaveError(OSError):
    """A game that could not be written (or moved): the message says where and why, in words."""


class GameInUse(SaveError):
    """The game is open in another cardtable; the message names that process."""


class UnusablePath(ValueError):
    """A folder the player named (a flag, an environment variable) that cannot be used as
    written; the message names where it came from and says why."""


def user_path(text: str | Path, source: str) -> Path:
    """``text`` as a path, a leading ``~`` or ``~user`` expanded. Raises UnusablePath, naming
    ``source`` ("--data-dir", "CARDTABLE_DATA_DIR"), when that home folder cannot be found (an
    unknown user: pathlib raises a bare RuntimeError)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        head = str(text).replace("\\", "/").split("/", 1)[0]
        why = (f"there is no user {head[1:]!r} on this computer, so {head!r} names no home folder"
               if len(head) > 1 else "your home folder ('~') cannot be found")
        raise UnusablePath(f"{source} {str(text)!r} cannot be used: {why}") from None


def default_data_dir() -> Path:
    """``$CARDTABLE_DATA_DIR`` if set, else the platform's user data folder for cardtable.
    Raises UnusablePath for a value naming a home folder that cannot be found."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    if override:
        return user_path(override, DATA_DIR_ENV)
    return platformdirs.user_data_path(APP_NAME)


def result_text(outcome: Outcome | None, names: Sequence[str]) -> str:
    """The one-line result of a finished game: "Ann won", "Ann and Bob shared the win"."""
    return "" if outcome is None else winners_text(names, outcome.winners)


def seat_label(seat: Seat, best_bot: str | None = None) -> str:
    """A seat as the saves list shows it: "Ann"; "Cleo (bot)" for the game's best bot;
    "Dan (bot: random)" for any other level."""
    from rules.core.bots import seat_name

    return seat_name(seat.name, seat.bot, best_bot or "bot")


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as the saves list shows it, read from the file's metadata only.

    A file that cannot be played is listed too, ``damaged`` with the ``reason`` in words;
    ``set_aside`` says whether opening it moves it to ``saves/damaged/`` (a file from a newer
    cardtable, or of a game this version lacks, is never moved)."""

    id: str
    game: str
    title: str
    seats: tuple[Seat, ...]
    turn: int
    updated: datetime
    finished: bool
    result: str
    to_play: tuple[str, ...] = ()
    best_bot: str | None = None
    damaged: bool = False
    reason: str = ""
    set_aside: bool = True

    @property
    def players(self) -> str:
        """The seats in order, bots marked: "Ann, Bob (bot), Dan (bot: random)"."""
        return ", ".join(seat_label(seat, self.best_bot) for seat in self.seats)

    @property
    def to_play_text(self) -> str:
        """"Bob to play", "Ann and Bob to play"; empty when unknown or over."""
        if self.finished or not self.to_play:
            return ""
        return f"{join_names(list(self.to_play))} to play"

    @property
    def status(self) -> str:
        """Where the game stands, in words: "Bob to play", "finished — Ann won", "damaged — …"."""
        if self.damaged:
            return f"{'damaged' if self.set_aside else 'cannot open'} — {self.reason}"
        if self.finished:
            return f"finished — {self.result}" if self.result else "finished"
        return self.to_play_text or "in play"


@dataclass(frozen=True)
class Opened:
    """A game read back for play: the match, and a notice in words when it could not be
    resumed exactly as it was saved (its later moves no longer replay, or they do not reach
    the position it stored)."""

    match: Match
    notice: str | None = None


@dataclass(frozen=True)
class Replayed:
    """A saved game read back for a replay, and a notice in words when its later moves no
    longer replay (the replay ends before the first of them) or do not reach the position it
    stored."""

    replay: Replay
    notice: str | None = None


class _Unreadable(Exception):
    """A save file that is not a readable save; ``reason`` says why, in words."""

    def __init__(self, reason: str, *, set_aside: bool = True, data: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.set_aside = set_aside
        self.data = data  # what was read, when it was JSON: the list can still name the game


# the locks this process holds: lock path → open file descriptor (one per game, whichever
# SaveStore object took it)
_HELD: dict[str, int] = {}
# the temporary files this process is writing right now (tidy() never removes those)
_IN_FLIGHT: set[str] = set()


class SaveStore:
    """Saved games in ``root/saves/<id>.json``; ``root`` defaults to ``default_data_dir()``
    (either raises UnusablePath for a ``~user`` that cannot be found).

    ``problems`` holds one message per thing the last ``list()`` could not read at all (the
    folder itself); a damaged file is an entry of the list, not a problem."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = user_path(root, "the data folder") if root is not None else default_data_dir()
        self.problems: list[str] = []
        # game id → "created" timestamp, so an autosave need not re-read its own file
        self._created: dict[str, str] = {}
        # game id → the file whose original must be kept before it is first overwritten
        self._originals: dict[str, tuple[Path, bytes]] = {}
        self._locks: set[str] = set()

    @property
    def folder(self) -> Path:
        return self.root / SAVES

    @property
    def damaged_folder(self) -> Path:
        return self.folder / DAMAGED

    @property
    def trash_folder(self) -> Path:
        return self.folder / TRASH

    @property
    def replaced_folder(self) -> Path:
        return self.folder / REPLACED

    def __repr__(self) -> str:
        return f"SaveStore({str(self.root)!r})"

    # -- writing ---------------------------------------------------------------------------
    def create(self, match: Match) -> str:
        """Save a new game under a fresh id and return the id. Raises SaveError (saying where
        and why) when it cannot be written."""
        game_id = self._new_id(match.spec.name)
        self._created[game_id] = _now()
        try:
            self.save(game_id, match)
        except BaseException:
            self._created.pop(game_id, None)
            raise
        return game_id

    def save(self, game_id: str, match: Match) -> None:
        """Write the game atomically: the previous save survives any failure half-way.
        Raises GameInUse when another cardtable has the game open, SaveError when the disk
        refuses (both OSErrors), TypeError/ValueError for a value JSON cannot hold."""
        path = self._path(game_id)
        self._refuse_if_open_elsewhere(game_id)
        saved = _now()
        created = self._created.get(game_id) or self._read_created(path) or saved
        self._created[game_id] = created
        data = match.to_json()
        payload = {
            "format": data.pop("format"),
            "saved": saved,
            "created": created,
            "summary": {
                "title": match.spec.title,
                "seats": list(match.names),
                "turn": match.turn,
                "to_play": [match.names[seat] for seat in sorted(match.awaiting)],
                "over": match.over,
                "result": result_text(match.outcome, match.names),
            },
            **data,
        }
        # serialise first, so a value JSON cannot hold fails before any file is touched
        text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
        self._keep_original(game_id)
        try:
            write_atomically(path, text)
        except OSError as error:
            raise self._cannot_save(error) from error

    def delete(self, game_id: str) -> str:
        """Move the game to ``saves/trash/`` and return its id there (for ``restore``)."""
        path = self._path(game_id)
        if not path.is_file():
            raise LookupError(f"no saved game {_quoted(game_id)}")
        self._refuse_if_open_elsewhere(game_id)
        target = _free_name(self.trash_folder, path.name)
        try:
            self.trash_folder.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
            os.utime(target)  # the trash is ordered by when a game went there
        except OSError as error:
            raise SaveError(f"Could not move {path.name} to the trash ({self.trash_folder}): "
                            f"{_why(error)}.") from error
        self._created.pop(game_id, None)
        self.release(game_id)
        return target.stem

    def restore(self, trash_id: str) -> str:
        """Put a game from the trash back among the saves; return its id there (the id it had,
        unless another save took that id meanwhile)."""
        if not _is_id(trash_id):
            raise LookupError(f"no game {_quoted(trash_id)} in the trash")
        source = self.trash_folder / f"{trash_id}.json"
        if not source.is_file():
            raise LookupError(f"no game {_quoted(trash_id)} in the trash")
        # a second deletion of the same id was numbered "<id>.1": it goes back as "<id>"
        base = re.sub(r"\.\d+$", "", trash_id) or trash_id
        game_id, number = base, 1
        while (self.folder / f"{game_id}.json").exists():
            game_id = f"{base}-restored" + (f"-{number}" if number > 1 else "")
            number += 1
        try:
            os.replace(source, self.folder / f"{game_id}.json")
        except OSError as error:
            raise SaveError(f"Could not restore {source.name} from the trash: {_why(error)}.") from error
        return game_id

    def set_aside(self, game_id: str, reason: str = "set aside by the player") -> str:
        """Move a save to ``saves/damaged/`` (never delete it); return the message."""
        path = self._path(game_id)
        if not path.is_file():
            raise LookupError(f"no saved game {_quoted(game_id)}")
        return self._set_aside(path, _Unreadable(reason))

    # -- reading ---------------------------------------------------------------------------
    def open(self, game_id: str, *, lock: bool = True) -> Opened:
        """The saved game, replayed, for play; with ``lock`` (the default) this process holds
        the game's lock until ``release``.

        Raises LookupError for an unknown id, GameInUse when another cardtable has it open,
        and SaveFormatError (in words) for a file that cannot be played: a damaged one is moved
        to saves/damaged/ first; one from a newer cardtable, or of a game this version lacks,
        stays where it is. A save whose move N no longer replays (or is not a move at all)
        resumes after move N-1; one whose moves all replay but do not reach the position it
        stored resumes where they lead (the moves are the truth; the stored position is only a
        check). Either way the original file is kept in saves/replaced/ and ``Opened.notice``
        says so."""
        path = self._path(game_id)
        if not path.is_file():
            raise LookupError(f"no saved game {_quoted(game_id)}")
        took = lock and not self.holds(game_id)
        if lock:
            self.lock(game_id)
        try:
            return self._open(game_id, path)
        except BaseException:
            if took:  # a lock held before (a table's) is not this failure's to give back
                self.release(game_id)
            raise

    def load(self, game_id: str) -> Match:
        """``open(game_id, lock=False).match``: the game replayed, without taking its lock."""
        return self.open(game_id, lock=False).match

    def replay(self, game_id: str) -> Replayed:
        """The saved game as a Replay (``rules.core.replay``), for stepping through it. Reads
        only: nothing is locked, moved or written, and a game open in another cardtable can be
        replayed all the same. A move that no longer replays (or is not a move) ends the replay
        before it, and ``Replayed.notice`` says so; so it does when the moves do not reach the
        position the save stored (the replay shows the moves).

        Raises LookupError for an unknown id and SaveFormatError, in words, for a file that is
        not a readable save (it is left where it is: opening it to play sets it aside)."""
        path = self._path(game_id)
        if not path.is_file():
            raise LookupError(f"no saved game {_quoted(game_id)}")
        try:
            data = _read(path)
            _inspect(path, data)
        except _Unreadable as problem:
            raise SaveFormatError(f"{path.name} cannot be replayed: {problem.reason}") from None
        try:
            replay = rules.load_replay(data)
        except RecursionError:
            raise SaveFormatError(f"{path.name} cannot be replayed: it is nested too deeply") from None
        except SaveFormatError as error:
            raise SaveFormatError(f"{path.name} cannot be replayed: {_shorten(error, 300)}") from None
        except Exception as error:  # the border: a game may fail deep inside on odd input
            raise SaveFormatError(f"{path.name} cannot be replayed ({type(error).__name__}: "
                                  f"{_shorten(error, 200)})") from None
        notice = None
        if replay.stopped is not None:
            notice = (f"Move {replay.stopped.move} of this game ({_shorten(replay.stopped.text, 40)!r}) no "
                      f"longer replays: the replay ends after move {replay.moves}.")
        elif replay.differs is not None:
            notice = (f"The moves of this game replay but do not reach the position it saved "
                      f"({_differs(replay.differs)}): the replay shows where the moves lead.")
        return Replayed(replay, notice)

    def list(self) -> list[SaveInfo]:
        """Every save, most recently played first, damaged ones included (``damaged``, with the
        reason). Nothing is replayed, moved or written."""
        self.problems = []
        infos = [_info_of(path) for path in self._scan(self.folder)]
        infos.sort(key=lambda info: (info.updated, info.id), reverse=True)
        return infos

    def trash(self) -> list[SaveInfo]:
        """The deleted games, most recently deleted first; ids are those ``restore`` takes."""
        paths = self._scan(self.trash_folder, report=False)
        return [_info_of(path) for path in sorted(paths, key=_mtime_ns, reverse=True)]

    def latest(self, unfinished: bool = True) -> SaveInfo | None:
        """The most recently played save that can be opened (by default the most recent one
        still in play)."""
        for info in self.list():
            if not info.damaged and not (unfinished and info.finished):
                return info
        return None

    # -- locks -----------------------------------------------------------------------------
    def lock(self, game_id: str) -> None:
        """Hold the game for this process: another cardtable trying to open or save it is
        refused with GameInUse naming this one. A lock left by a process that has ended is
        taken over. Where no lock file can be written (a read-only folder), nothing is held."""
        path = self._lock_path(game_id)
        key = str(path.absolute())
        if key not in _HELD:
            fd = _take_lock(path)
            if fd is None:
                return
            _HELD[key] = fd
        self._locks.add(key)

    def release(self, game_id: str) -> None:
        """Give the game's lock back (nothing happens when this process does not hold it)."""
        if _is_id(game_id):
            self._release(str(self._lock_path(game_id).absolute()))

    def release_all(self) -> None:
        """Give back every lock this store took (when the app exits)."""
        for key in list(self._locks):
            self._release(key)

    def holds(self, game_id: str) -> bool:
        return _is_id(game_id) and str(self._lock_path(game_id).absolute()) in _HELD

    def _release(self, key: str) -> None:
        self._locks.discard(key)
        fd = _HELD.pop(key, None)
        if fd is None:
            return
        try:
            os.unlink(key)  # while still holding it, so nobody locks a file about to vanish
        except OSError:
            pass
        os.close(fd)

    # -- housekeeping ----------------------------------------------------------------------
    def tidy(self) -> list[str]:
        """Remove what dead writers left in the saves folder: temporary files of processes that
        have ended (or older than an hour, whoever wrote them) and lock files nobody holds.
        Returns the names removed. Never touches a save."""
        removed: list[str] = []
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return removed
        for entry in entries:
            name = entry.name
            try:
                if name.startswith(".") and name.endswith(".tmp"):
                    if _temp_is_left_over(name, entry.stat().st_mtime):
                        os.unlink(entry.path)
                        removed.append(name)
                elif name.endswith(LOCK_SUFFIX) and str(Path(entry.path).absolute()) not in _HELD:
                    if _remove_if_free(Path(entry.path)):
                        removed.append(name)
            except OSError:
                continue
        return removed

    # -- helpers ---------------------------------------------------------------------------
    def _path(self, game_id: str) -> Path:
        if not _is_id(game_id):
            raise LookupError(f"no saved game {_quoted(game_id)}")
        return self.folder / f"{game_id}.json"

    def _lock_path(self, game_id: str) -> Path:
        return self._path(game_id).with_suffix(LOCK_SUFFIX)

    def _new_id(self, game: str) -> str:
        # local time reads naturally in `cardtable saves`; the random tail keeps ids unique
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        slug = re.sub(r"[^a-z0-9]+", "-", game.lower()).strip("-") or "game"
        while True:
            game_id = f"{stamp}-{slug}-{secrets.token_hex(2)}"
            if not self._path(game_id).exists() and game_id not in self._created:
                return game_id

    def _read_created(self, path: Path) -> str | None:
        try:
            created = json.loads(path.read_text(encoding="utf-8")).get("created")
        except (OSError, ValueError, AttributeError, RecursionError):
            return None
        return created if isinstance(created, str) and len(created) < 100 else None

    def _open(self, game_id: str, path: Path) -> Opened:
        try:
            data = _read(path)
            _inspect(path, data)
        except _Unreadable as problem:
            raise SaveFormatError(self._set_aside(path, problem)) from None
        notice = None
        try:
            match = _replay(data)
        except ReplayError as error:
            match, notice = self._resume_at(game_id, path, data, error.move - 1, (
                f"Move {error.move} of this game ({_shorten(error.text, 40)!r}) no longer "
                f"replays, so it resumes {_after_move(error.move - 1)}"))
        except SnapshotMismatch as error:
            match, notice = self._resume_at(game_id, path, data, error.moves, (
                f"The moves of this game replay but do not reach the position it saved ("
                f"{_differs(error.where)}), so it resumes where the moves lead, "
                f"{_after_move(error.moves)}"))
        except SaveFormatError as error:
            raise SaveFormatError(self._set_aside(path, _Unreadable(str(error)))) from None
        created = data.get("created")
        if isinstance(created, str) and len(created) < 100:
            self._created.setdefault(game_id, created)
        return Opened(match, notice)

    def _resume_at(self, game_id: str, path: Path, data: Mapping[str, Any], moves: int,
                   notice: str) -> tuple[Match, str]:
        """The game after its first ``moves`` moves (the moves are the truth: the snapshot is
        left out); the original is kept in replaced/ before the repaired game is written over
        it, and ``notice`` says where the original is."""
        kept = {key: value for key, value in data.items() if key != "snapshot"}
        kept["commands"] = list(data["commands"])[:moves]
        try:
            match = _replay(kept)
        except SaveFormatError as again:  # cannot happen for a deterministic game; stay safe
            raise SaveFormatError(self._set_aside(path, _Unreadable(str(again)))) from None
        try:
            original = path.read_bytes()
        except OSError as failure:
            raise SaveFormatError(f"Cannot open {path.name}: it could not be read again "
                                  f"({_why(failure)})") from None
        self._originals[game_id] = (path, original)
        kept = None
        try:
            kept = self._keep_original(game_id)
            self.save(game_id, match)
        except (OSError, ValueError, TypeError) as failure:
            if kept is None:
                notice += f"; the original save is left as it was ({failure})"
            else:
                notice += (f"; the original save is kept in {SAVES}/{REPLACED}/{kept} "
                           f"(the game could not be rewritten yet: {failure})")
        else:
            notice += f"; the original save is kept in {SAVES}/{REPLACED}/{kept}"
        return match, notice + "."

    def _keep_original(self, game_id: str) -> str | None:
        """Before a shortened game is first written over its original, copy the original to
        saves/replaced/ and return the copy's name; a save that cannot keep it fails rather
        than lose it. None when there is nothing to keep."""
        pending = self._originals.get(game_id)
        if pending is None:
            return None
        path, original = pending
        target = _free_name(self.replaced_folder, path.name)
        try:
            self.replaced_folder.mkdir(parents=True, exist_ok=True)
            write_atomically(target, original)
        except OSError as error:
            raise SaveError(f"The original of {path.name} could not be kept in "
                            f"{self.replaced_folder} ({_why(error)}), so it is not written over.") from error
        del self._originals[game_id]
        return target.name

    def _cannot_save(self, error: OSError) -> SaveError:
        if isinstance(error, SaveError):
            return error
        failure = SaveError(f"Games cannot be saved in {self.folder}: {_why(error, self.folder)}.")
        failure.errno = error.errno
        return failure

    def _refuse_if_open_elsewhere(self, game_id: str) -> None:
        if self.holds(game_id):
            return
        holder = _lock_holder(self._lock_path(game_id))
        if holder is not None:
            raise GameInUse(holder)

    def _scan(self, folder: Path, report: bool = True) -> list[Path]:
        """The ``*.json`` files of ``folder`` whose names are ids; a folder that cannot be read
        is described in ``problems``."""
        try:
            with os.scandir(folder) as entries:
                names = [entry.name for entry in entries]
        except FileNotFoundError:
            blocker = _file_in_the_way(folder)
            if blocker is not None and report:
                self.problems.append(f"Cannot read the saves in {folder}: {blocker} is a file, not a folder.")
            return []
        except OSError as error:
            if report:
                self.problems.append(f"Cannot read the saves in {folder}: {_why(error, folder)}.")
            return []
        paths = []
        for name in sorted(names):
            if name.endswith(".json") and _is_id(name[:-5]):
                path = folder / name
                try:
                    if path.is_file():
                        paths.append(path)
                except OSError:
                    continue
        return paths

    def _set_aside(self, path: Path, problem: _Unreadable) -> str:
        """Move an unreadable file to saves/damaged/ (never delete it); return the message."""
        if not problem.set_aside:
            return f"Cannot open {path.name}: {problem.reason}"
        target = _free_name(self.damaged_folder, path.name)
        try:
            self.damaged_folder.mkdir(parents=True, exist_ok=True)
            shutil.move(str(path), str(target))
        except OSError as error:
            return f"Cannot open {path.name}: {problem.reason} (and could not move it aside: {_why(error)})"
        where = f"{SAVES}/{DAMAGED}/" + ("" if target.name == path.name else target.name)
        return f"Set aside {path.name}: {problem.reason} — moved to {where}"


# -- ids -------------------------------------------------------------------------------------
def is_valid_id(game_id: object) -> bool:
    """A name that can be a save's: stays inside the saves folder (no separators, not hidden),
    printable, not empty, not padded, and short enough for any file system."""
    return _is_id(game_id)


def _is_id(game_id: object) -> bool:
    if not isinstance(game_id, str) or not game_id or len(game_id) > MAX_ID_LENGTH:
        return False
    if game_id.startswith(".") or game_id.strip() != game_id or any(c in game_id for c in "/\\"):
        return False
    if not game_id.isprintable():  # NUL, newlines and other control characters
        return False
    try:
        return len(game_id.encode("utf-8")) <= 240  # with ".json", within a 255-byte name
    except UnicodeEncodeError:  # a lone surrogate from an undecodable command line
        return False


def _quoted(text: str, limit: int = 60) -> str:
    """``repr`` of a possibly huge or odd id, cut to a length one line can hold."""
    return repr(_shorten(text, limit)) if isinstance(text, str) else repr(text)


def _shorten(text: str, limit: int = 300) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _free_name(folder: Path, name: str) -> Path:
    """``folder/name``, or ``folder/<stem>.1<suffix>``, ``.2``… if that is taken."""
    target = folder / name
    stem, suffix = os.path.splitext(name)
    number = 1
    while target.exists():
        target = folder / f"{stem}.{number}{suffix}"
        number += 1
    return target


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


# -- writing files ---------------------------------------------------------------------------
def _host() -> str:
    host = re.sub(r"[^A-Za-z0-9-]+", "-", socket.gethostname()).strip("-")[:40]
    return host or "host"


_HOST = _host()
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<host>[A-Za-z0-9-]+)-(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` to a temporary file beside ``path``, make it durable, then swap it in.

    The temporary file is named after this process and host (``.<name>.<host>-<pid>.<random>.tmp``)
    and removed on any failure Python sees; a SIGTERM or SIGHUP that arrives meanwhile waits for
    the write to finish (see ``finish_writes_before_dying``). Only a process killed outright
    (SIGKILL, a power cut) can leave one, and ``SaveStore.tidy`` removes it later."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    temp = path.parent / f".{path.name}.{_HOST}-{os.getpid()}.{os.urandom(4).hex()}.tmp"
    _IN_FLIGHT.add(temp.name)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, path)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        _sync_folder(path.parent)
    finally:
        _IN_FLIGHT.discard(temp.name)
        if _PENDING_SIGNALS and not _IN_FLIGHT:
            _die(_PENDING_SIGNALS[0])


_PENDING_SIGNALS: list[int] = []


def finish_writes_before_dying() -> None:
    """Make SIGTERM and SIGHUP (a ``kill``, a closed terminal) wait for a save being written,
    so that none is left half-way with its temporary file; the process then ends as it would
    have. Only where those signals still have their default action, and from the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, _deferred)


def _deferred(number: int, _frame: Any) -> None:
    if _IN_FLIGHT:
        _PENDING_SIGNALS.append(number)
    else:
        _die(number)


def _die(number: int) -> None:
    """End the process by signal ``number``, as its default action would have."""
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)


def _sync_folder(folder: Path) -> None:
    # the rename is durable only once the folder itself is synced (POSIX; not possible on Windows)
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temp_is_left_over(name: str, modified: float) -> bool:
    """True for a temporary file no live writer will finish: its process (on this host) has
    ended, or it is older than an hour whoever wrote it."""
    if name in _IN_FLIGHT:
        return False
    if time.time() - modified > STALE_TEMP_SECONDS:
        return True
    found = _TEMP.match(name)
    if found is None or found["host"] != _HOST:
        return False
    pid = int(found["pid"])
    return pid == os.getpid() or not _pid_alive(pid)  # this process writes nothing right now


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":  # pragma: no cover - os.kill would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


# -- locks -----------------------------------------------------------------------------------
def _lock_record() -> str:
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": _now(),
                       "program": APP_NAME}) + "\n"


def _describe_holder(record: Any, path: Path) -> str:
    """The refusal: which process has the game open."""
    if isinstance(record, Mapping) and isinstance(record.get("pid"), int):
        where = f"process {record['pid']}"
        host = record.get("host")
        if isinstance(host, str) and host:
            where += f" on {_shorten(host, 60)}"
        since = _timestamp(record.get("since"))
        if since is not None:
            where += f", since {since.astimezone().strftime('%Y-%m-%d %H:%M')}"
        return f"This game is open in another cardtable ({where}); close it there first."
    return f"This game is open in another cardtable (see {path}); close it there first."


def _read_record(fd: int) -> Any:
    try:
        raw = os.pread(fd, 4096, 0) if hasattr(os, "pread") else b""
        return json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def _take_lock(path: Path) -> int | None:
    """Lock ``path`` for this process and write who holds it; the file descriptor, or None
    when no lock file can be written here. Raises GameInUse naming the live holder."""
    if fcntl is None:  # pragma: no cover - Windows: the record alone, checked by process id
        return _take_lock_by_record(path)
    for _attempt in range(20):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            holder = _lock_holder(path)  # a read-only folder: refuse if it is held all the same
            if holder is not None:
                raise GameInUse(holder) from None
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            record = _read_record(fd)
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise GameInUse(_describe_holder(record, path)) from None
            return None  # a file system without locks: play on unlocked
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except OSError:
            same = False
        if not same:  # its holder removed it as we opened it: lock the new one
            os.close(fd)
            continue
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, _lock_record().encode("utf-8"), 0)
        except OSError:
            pass  # the lock holds; only the name of its holder is missing
        return fd
    return None  # pragma: no cover - twenty races in a row


def _lock_holder(path: Path) -> str | None:
    """The refusal message if another live process holds ``path``, else None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        if fcntl is None:  # pragma: no cover - Windows
            record = _read_record(fd)
            alive = isinstance(record, Mapping) and record.get("pid") != os.getpid() and \
                _pid_alive(record.get("pid") if isinstance(record.get("pid"), int) else -1)
            return _describe_holder(record, path) if alive else None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return _describe_holder(_read_record(fd), path)
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _remove_if_free(path: Path) -> bool:
    """Remove the lock file ``path`` if no process holds it (one left by a process that has
    ended); True if it was removed."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        try:
            if os.fstat(fd).st_ino != os.stat(path).st_ino:
                return False
            os.unlink(path)
        except OSError:
            return False
        return True
    finally:
        os.close(fd)


def _take_lock_by_record(path: Path) -> int | None:  # pragma: no cover - Windows
    holder = _lock_holder(path)
    if holder is not None:
        raise GameInUse(holder)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, _lock_record().encode("utf-8"))
    except OSError:
        return None
    return fd


# -- words for OS errors ---------------------------------------------------------------------
def _why(error: OSError, folder: Path | None = None) -> str:
    """Why an OSError happened, in words a player understands."""
    code = error.errno
    if code in (errno.ENOTDIR, errno.EEXIST) and folder is not None:
        blocker = _file_in_the_way(folder)
        if blocker is not None:
            return f"{blocker} is a file, not a folder"
    if code in (errno.EACCES, errno.EPERM):
        return "there is no permission to write there" if folder is not None else "permission denied"
    if code == errno.ENOSPC:
        return "the disk is full"
    if code == getattr(errno, "EDQUOT", -1):
        return "the disk quota is used up"
    if code == errno.EROFS:
        return "the disk is read-only"
    if code == errno.ENAMETOOLONG:
        return "the path is too long"
    if code == errno.ENOTDIR:
        return "part of the path is a file, not a folder"
    return _shorten(error.strerror or str(error) or type(error).__name__, 200).rstrip(".")


def _file_in_the_way(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that exists but is not a folder."""
    for candidate in (folder, *folder.parents):
        try:
            if candidate.exists():
                return None if candidate.is_dir() else candidate
        except OSError:
            return None
    return None


# -- reading ---------------------------------------------------------------------------------
def _read(path: Path) -> dict[str, Any]:
    """The save's JSON object, checked to be a save this version can read."""
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise _Unreadable(f"not a cardtable save (larger than {_size(MAX_SAVE_BYTES)})")
        raw = path.read_bytes()
    except OSError as error:
        raise _Unreadable(f"could not be read ({_why(error)})", set_aside=False) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Unreadable("not a cardtable save (not text)") from None
    except json.JSONDecodeError as error:
        raise _Unreadable(f"not a cardtable save (broken JSON at line {error.lineno})") from None
    except RecursionError:
        raise _Unreadable("not a cardtable save (nested too deeply)") from None
    except ValueError as error:  # a number with thousands of digits
        raise _Unreadable(f"not a cardtable save ({_shorten(error, 120)})") from None
    if not isinstance(data, dict):
        raise _Unreadable("not a cardtable save (not a JSON object)")
    from rules.core.match import FORMAT_VERSION

    version = data.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Unreadable("not a cardtable save (no format version)")
    if version > FORMAT_VERSION:
        raise _Unreadable(
            f"saved by a newer cardtable (format {_shorten(version, 20)}; this version reads up to "
            f"{FORMAT_VERSION})", set_aside=False, data=data,
        )
    if version < 1:
        raise _Unreadable(f"not a cardtable save (format {_shorten(version, 20)})")
    missing = [key for key in _MATCH_KEYS if key not in data]
    if missing:
        raise _Unreadable(f"not a cardtable save (missing {', '.join(map(repr, missing))})")
    game = data["game"]
    if not isinstance(game, str):
        raise _Unreadable("not a cardtable save (the game is not named)")
    if rules.game_key(game) not in rules.INFO:
        # a game this version lacks is not damage: leave the file where a newer version finds it
        raise _Unreadable(f"it is a game of {_quoted(game, 40)}, which this cardtable does not have",
                          set_aside=False)
    return data


def _spec(data: Mapping[str, Any]) -> Any:
    return rules.GAMES[rules.game_key(data["game"])]


def _inspect(path: Path, data: Mapping[str, Any]) -> SaveInfo:
    """Check a save's structure without replaying it (seats, seed, options, the shape of
    every command) and make its list entry; raise _Unreadable saying what is wrong."""
    try:
        return _inspected(path, data)
    except _Unreadable:
        raise
    except RulesError as error:
        raise _Unreadable(f"damaged ({_shorten(error, 160)})") from None
    except RecursionError:
        raise _Unreadable("damaged (nested too deeply)") from None
    except Exception as error:  # the border: nothing in a file may escape as anything else
        raise _Unreadable(f"damaged ({type(error).__name__}: {_shorten(error, 120)})") from None


def _inspected(path: Path, data: Mapping[str, Any]) -> SaveInfo:
    from rules.core.engine import check_setup
    from rules.core.match import Seat

    spec = _spec(data)
    raw_seats = data["seats"]
    if not isinstance(raw_seats, list):
        raise _Unreadable("damaged (the seats are not a list)")
    seats = tuple(Seat.from_json(seat) for seat in raw_seats)
    options = data.get("options")
    check_setup(spec, [seat.name for seat in seats], options or {})
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _Unreadable(f"damaged (the seed is not a whole number: {_shorten(repr(seed), 40)})")
    if not isinstance(data["commands"], list):
        raise _Unreadable("damaged (the moves are not a list)")
    # A move that is not a move, or a snapshot the moves do not reach, is not damage to the
    # whole: opening the game resumes it at its last good move (see SaveStore.open).

    summary = data.get("summary")
    summary = summary if isinstance(summary, Mapping) else {}
    title = summary.get("title")
    finished = summary.get("over", data.get("over", False))
    result = summary.get("result")
    to_play = summary.get("to_play")
    return SaveInfo(
        id=path.stem,
        game=spec.name,
        title=title if isinstance(title, str) and 0 < len(title) <= 60 else spec.title,
        seats=seats,
        turn=_turn(summary.get("turn", data.get("turn"))),
        updated=_timestamp(data.get("saved")) or _modified(path),
        finished=finished if isinstance(finished, bool) else False,
        result=_shorten(result, 120) if isinstance(result, str) else "",
        to_play=tuple(name for name in to_play if name in {seat.name for seat in seats})
        if isinstance(to_play, list) and all(isinstance(n, str) for n in to_play) else (),
        best_bot=getattr(spec, "best_bot", None),
    )


def _info_of(path: Path) -> SaveInfo:
    """The list entry of any file: a save's, or a damaged entry saying why it is not one."""
    data: Any = None
    try:
        data = _read(path)
        return _inspect(path, data)
    except _Unreadable as problem:
        reason, set_aside = problem.reason, problem.set_aside
        data = data if data is not None else problem.data
    except Exception as error:  # pragma: no cover - _inspect already turns everything into words
        reason, set_aside = f"damaged ({type(error).__name__})", True
    game = data.get("game") if isinstance(data, dict) else None
    info = rules.INFO.get(rules.game_key(game)) if isinstance(game, str) and len(game) < 100 else None
    return SaveInfo(
        id=path.stem, game=info.name if info else "", title=info.title if info else "Unknown game",
        seats=(), turn=0, updated=_modified(path), finished=False, result="", damaged=True,
        reason=reason, set_aside=set_aside,
    )


def _replay(data: Mapping[str, Any]) -> Match:
    """``rules.load_match`` behind the store's border: any failure is a SaveFormatError."""
    try:
        return rules.load_match(data)
    except ReplayError as error:
        if len(str(error)) <= 300:
            raise
        raise ReplayError(_shorten(error), error.move, error.text) from None
    except SnapshotMismatch as error:
        if len(str(error)) <= 300:
            raise
        raise SnapshotMismatch(_shorten(error), error.moves, error.where) from None
    except SaveFormatError as error:
        if len(str(error)) <= 300:
            raise
        raise SaveFormatError(_shorten(error)) from None
    except RulesError as error:
        raise SaveFormatError(f"the save is damaged: {_shorten(error)}") from None
    except RecursionError:
        raise SaveFormatError("the save is damaged: it is nested too deeply") from None
    except Exception as error:  # the border: a game may fail deep inside on odd input
        raise SaveFormatError(f"the save is damaged ({type(error).__name__}: {_shorten(error, 200)})") from None


def _differs(where: str) -> str:
    """Where a saved position differs from the replayed one, in words."""
    return f"it differs at {_shorten(where, 60)}" if where else "it is not a position of this game"


def _after_move(moves: int) -> str:
    return f"after move {moves}" if moves else "from its first move"


def _turn(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9:
        return 0
    return value


def _timestamp(text: Any) -> datetime | None:
    """An ISO timestamp from a file, as an aware datetime every clock can show; else None."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    try:
        moment = datetime.fromisoformat(text)
        moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        moment = moment.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None
    if not 1970 <= moment.year <= 9000:  # astimezone() near year 1 or 9999 overflows
        return None
    return moment


def _modified(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
    except (OSError, OverflowError, ValueError):
        return datetime.fromtimestamp(0, timezone.utc)


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _size(count: int) -> str:
    return f"{count // 2**20} MB" if count >= 2**20 else f"{count:,} bytes"
