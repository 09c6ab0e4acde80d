"""The save store: every game as one JSON file, written atomically, listed without replay.

A save file is the Match JSON (``Match.to_json()``: format version, game, seats, seed, the
commands in notation, a snapshot) plus the store's own metadata: ``saved`` and ``created``
(ISO timestamps, UTC) and a ``summary`` block (title, seat names, turn, over, result) so the
saves list can be shown without replaying any game.

A file that cannot be read back — broken JSON, not a save, or written by a newer cardtable —
is reported in words and moved to ``saves/damaged/``; it is never deleted and never hides the
other saves.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

import platformdirs

import rules
from rules.core import FORMAT_VERSION, Match, Outcome, SaveFormatError, Seat
from rules.core.words import result_text as winners_text

APP_NAME = "cardtable"
DATA_DIR_ENV = "CARDTABLE_DATA_DIR"
SAVES = "saves"
DAMAGED = "damaged"

# The keys rules.load_match cannot do without; the store's metadata is optional so that a bare
# Match JSON (a bug report, a hand-made position) dropped into the folder still lists and loads.
_MATCH_KEYS = ("game", "seats", "seed", "commands")


def default_data_dir() -> Path:
    """``$CARDTABLE_DATA_DIR`` if set, else the platform's user data folder for cardtable."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    return platformdirs.user_data_path(APP_NAME)


def result_text(outcome: Outcome | None, names: Sequence[str]) -> str:
    """The one-line result of a finished game: "Ann won", "Ann and Bob shared the win"."""
    return "" if outcome is None else winners_text(names, outcome.winners)


def seat_label(seat: Seat) -> str:
    """A seat as the saves list shows it: "Ann", or "Cleo (bot: greedy)"."""
    return seat.name if seat.bot is None else f"{seat.name} (bot: {seat.bot})"


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as the saves list shows it, read from the file's metadata only."""

    id: str
    game: str
    title: str
    seats: tuple[Seat, ...]
    turn: int
    updated: datetime
    finished: bool
    result: str

    @property
    def players(self) -> str:
        """The seats in order, bots marked: "Ann, Bob, Cleo (bot: greedy)"."""
        return ", ".join(seat_label(seat) for seat in self.seats)


class _Unreadable(Exception):
    """A save file that is not a readable save; ``reason`` says why, in words."""

    def __init__(self, reason: str, *, set_aside: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.set_aside = set_aside


class SaveStore:
    """Saved games in ``root/saves/<id>.json``; ``root`` defaults to ``default_data_dir()``.

    ``problems`` holds one message per file the last ``list()`` could not use."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root).expanduser() if root is not None else default_data_dir()
        self.problems: list[str] = []
        # game id → "created" timestamp, so an autosave need not re-read its own file
        self._created: dict[str, str] = {}

    @property
    def folder(self) -> Path:
        return self.root / SAVES

    @property
    def damaged_folder(self) -> Path:
        return self.folder / DAMAGED

    def __repr__(self) -> str:
        return f"SaveStore({str(self.root)!r})"

    # -- writing ---------------------------------------------------------------------------
    def create(self, match: Match) -> str:
        """Save a new game under a fresh id and return the id."""
        game_id = self._new_id(match.spec.name)
        self._created[game_id] = _now()
        self.save(game_id, match)
        return game_id

    def save(self, game_id: str, match: Match) -> None:
        """Write the game atomically: the previous save survives any failure half-way."""
        path = self._path(game_id)
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
                "over": match.over,
                "result": result_text(match.outcome, match.names),
            },
            **data,
        }
        # serialise first, so a value JSON cannot hold fails before any file is touched
        text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
        write_atomically(path, text)

    def delete(self, game_id: str) -> None:
        path = self._path(game_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise LookupError(f"no saved game {game_id!r}") from None
        self._created.pop(game_id, None)

    # -- reading ---------------------------------------------------------------------------
    def load(self, game_id: str) -> Match:
        """The saved game, replayed. Raises LookupError for an unknown id and SaveFormatError
        (after moving the file to saves/damaged/) for a file that cannot be read back."""
        path = self._path(game_id)
        if not path.is_file():
            raise LookupError(f"no saved game {game_id!r}")
        try:
            data = _read(path)
        except _Unreadable as problem:
            raise SaveFormatError(self._set_aside(path, problem)) from None
        try:
            match = rules.load_match(data)
        except SaveFormatError as error:
            raise SaveFormatError(self._set_aside(path, _Unreadable(str(error)))) from None
        if isinstance(data.get("created"), str):
            self._created[game_id] = data["created"]
        return match

    def list(self) -> list[SaveInfo]:
        """Every readable save, most recently played first. Unreadable files are moved aside
        and described in ``problems``; nothing is replayed."""
        self.problems = []
        if not self.folder.is_dir():
            return []
        try:
            paths = sorted(p for p in self.folder.glob("*.json") if _is_id(p.stem))
        except OSError as error:
            self.problems.append(f"Cannot read the saves folder {self.folder}: {error}")
            return []
        infos = []
        for path in paths:
            try:
                infos.append(_info(path, _read(path)))
            except _Unreadable as problem:
                self.problems.append(self._set_aside(path, problem))
        infos.sort(key=lambda info: (info.updated, info.id), reverse=True)
        return infos

    def latest(self, unfinished: bool = True) -> SaveInfo | None:
        """The most recently played save (by default the most recent one still in play)."""
        for info in self.list():
            if not (unfinished and info.finished):
                return info
        return None

    # -- helpers ---------------------------------------------------------------------------
    def _path(self, game_id: str) -> Path:
        if not _is_id(game_id):
            raise LookupError(f"no saved game {game_id!r}")
        return self.folder / f"{game_id}.json"

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
        except (OSError, ValueError, AttributeError):
            return None
        return created if isinstance(created, str) else None

    def _set_aside(self, path: Path, problem: _Unreadable) -> str:
        """Move an unreadable file to saves/damaged/ (never delete it); return the message."""
        if not problem.set_aside:
            return f"Cannot open {path.name}: {problem.reason}"
        target = self.damaged_folder / path.name
        number = 1
        while target.exists():
            target = self.damaged_folder / f"{path.stem}.{number}{path.suffix}"
            number += 1
        try:
            self.damaged_folder.mkdir(parents=True, exist_ok=True)
            shutil.move(str(path), str(target))
        except OSError as error:
            return f"Cannot open {path.name}: {problem.reason} (and could not move it aside: {error})"
        where = f"{SAVES}/{DAMAGED}/" + ("" if target.name == path.name else target.name)
        return f"Set aside {path.name}: {problem.reason} — moved to {where}"


def _is_id(game_id: object) -> bool:
    """A name that stays inside the saves folder: no separators, not hidden, not empty."""
    return (
        isinstance(game_id, str) and bool(game_id) and not game_id.startswith(".")
        and not any(c in game_id for c in "/\\\0") and game_id.strip() == game_id
    )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, make it durable, then swap it in."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
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


def _read(path: Path) -> dict[str, Any]:
    """The save's JSON object, checked to be a save this version can read."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise _Unreadable(f"could not be read ({error.strerror or error})", set_aside=False) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Unreadable("not a cardtable save (not text)") from None
    except json.JSONDecodeError as error:
        raise _Unreadable(f"not a cardtable save (broken JSON at line {error.lineno})") from None
    if not isinstance(data, dict):
        raise _Unreadable("not a cardtable save (not a JSON object)")
    version = data.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Unreadable("not a cardtable save (no format version)")
    if version > FORMAT_VERSION:
        raise _Unreadable(
            f"saved by a newer cardtable (format {version}; this version reads up to {FORMAT_VERSION})"
        )
    missing = [key for key in _MATCH_KEYS if key not in data]
    if missing:
        raise _Unreadable(f"not a cardtable save (missing {', '.join(map(repr, missing))})")
    game = data["game"]
    if not isinstance(game, str):
        raise _Unreadable("not a cardtable save (the game is not named)")
    if game not in rules.GAMES:
        # a game this version lacks is not damage: leave the file where a newer version finds it
        raise _Unreadable(f"it is a game of {game!r}, which this cardtable does not have", set_aside=False)
    return data


def _info(path: Path, data: Mapping[str, Any]) -> SaveInfo:
    """The list entry for a checked save, from its metadata (falling back to the Match JSON)."""
    summary = data.get("summary")
    summary = summary if isinstance(summary, Mapping) else {}
    try:
        seats = tuple(Seat.from_json(seat) for seat in data["seats"])
        turn = int(summary.get("turn", data.get("turn", 0)))
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _Unreadable("not a cardtable save (the seats or turn are damaged)") from None
    title = summary.get("title") or rules.GAMES[data["game"]].title
    return SaveInfo(
        id=path.stem,
        game=data["game"],
        title=str(title),
        seats=seats,
        turn=turn,
        updated=_timestamp(data.get("saved")) or _modified(path),
        finished=bool(summary.get("over", data.get("over", False))),
        result=str(summary.get("result") or ""),
    )


def _timestamp(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _modified(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
    except OSError:
        return datetime.fromtimestamp(0, timezone.utc)
