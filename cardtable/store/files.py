"""Games as JSON files: the saves of earlier versions, exports and imports.

A game file is the Match JSON (``Match.to_json()``: format version, game, options, seats, seed,
the commands in notation with their seats, a snapshot) plus metadata: ``saved`` and ``created``
(ISO timestamps, UTC) and a ``summary`` block (title, seat names, turn, who is to play, over,
result) — the format every earlier cardtable wrote into ``saves/<id>.json``, so an exported
game opens in those versions too where its format allows.

Reading is a border: whatever is in a file (broken JSON, absurd numbers, deep nesting, a wrong
type anywhere) comes out as ``Unreadable`` with a sentence, or as a game. A file written by a
newer cardtable, or of a game this version lacks, is unreadable here but not damaged
(``set_aside`` False: "cannot open" rather than "damaged"). A game whose move N no longer
replays (or is not a move at all) comes in after move N-1; one whose moves all replay but do
not reach the position it stored comes in where they lead (the moves are the truth; the stored
position is only a check); ``Brought.repair`` says which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import rules
from rules.core.errors import ReplayError, RulesError, SaveFormatError, SnapshotMismatch

from ..paths import shorten, why
from .info import is_valid_id, quoted, result_text

if TYPE_CHECKING:
    from rules.core import Match

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""A bigger file is not read at all: no game of cards comes near it."""

# The keys rules.load_match cannot do without; the metadata is optional so that a bare Match
# JSON (a bug report, a hand-made position) can be brought in too.
_MATCH_KEYS = ("game", "seats", "seed", "commands")


class Unreadable(Exception):
    """A file that is not a game this version can read; ``reason`` says why, in words."""

    def __init__(self, reason: str, *, set_aside: bool = True, data: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.set_aside = set_aside
        self.data = data  # what was read, when it was JSON: the list can still name the game


@dataclass(frozen=True)
class Brought:
    """A game read from a file: the match (replayed once), when it was created and last saved,
    and how it had to be repaired (None: it replayed exactly). ``repair`` is ``{"move": N,
    "text": T}`` for a move N that no longer replays, ``{"where": W, "moves": N}`` for moves
    that do not reach the stored position."""

    match: Match
    created: str | None
    saved: str | None
    repair: dict[str, Any] | None


@dataclass(frozen=True)
class Ready:
    """A save of an earlier version, read and replayed (or found unreadable), ready to be
    written into the store: its id (the file's name), the file under the data folder, when it
    was last changed, when it went to the trash (None: it is not in the trash), and its text."""

    id: str
    file: str
    modified: str
    deleted: str | None
    what: Brought | Unreadable
    text: str = ""


def prepare(path: Path, file: str, trashed: bool) -> Ready:
    """The save at ``path`` (``file`` under the data folder) made ready to be brought in."""
    stamp = modified(path).isoformat()
    deleted = stamp if trashed else None
    data: Any = None
    try:
        data = read_file(path)
        return Ready(path.stem, file, stamp, deleted, bring_in(data), game_text(data))
    except Unreadable as problem:
        if problem.data is None and data is not None:
            problem.data = data
        return Ready(path.stem, file, stamp, deleted, problem)


def scan(folder: Path) -> list[Path]:
    """The ``*.json`` files of ``folder`` whose names are ids (none if it cannot be read)."""
    try:
        names = sorted(entry.name for entry in folder.iterdir())
    except OSError:
        return []
    paths = []
    for name in names:
        if name.endswith(".json") and is_valid_id(name[:-5]):
            try:
                if (folder / name).is_file():
                    paths.append(folder / name)
            except OSError:
                continue
    return paths


def read_file(path: Path) -> dict[str, Any]:
    """The file's JSON object, checked to be a save this version can read (``check``)."""
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise Unreadable(f"not a cardtable save (larger than {_size(MAX_SAVE_BYTES)})")
        raw = path.read_bytes()
    except OSError as error:
        raise Unreadable(f"could not be read ({why(error)})", set_aside=False) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Unreadable("not a cardtable save (not text)") from None
    except json.JSONDecodeError as error:
        raise Unreadable(f"not a cardtable save (broken JSON at line {error.lineno})") from None
    except RecursionError:
        raise Unreadable("not a cardtable save (nested too deeply)") from None
    except ValueError as error:  # a number with thousands of digits
        raise Unreadable(f"not a cardtable save ({shorten(error, 120)})") from None
    return check(data)


def check(data: Any) -> dict[str, Any]:
    """``data`` if it is a save of a game this version has, in a format it reads."""
    if not isinstance(data, dict):
        raise Unreadable("not a cardtable save (not a JSON object)")
    from rules.core.match import FORMAT_VERSION

    version = data.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Unreadable("not a cardtable save (no format version)")
    if version > FORMAT_VERSION:
        raise Unreadable(
            f"saved by a newer cardtable (format {shorten(version, 20)}; this version reads up to "
            f"{FORMAT_VERSION})", set_aside=False, data=data,
        )
    if version < 1:
        raise Unreadable(f"not a cardtable save (format {shorten(version, 20)})")
    missing = [key for key in _MATCH_KEYS if key not in data]
    if missing:
        raise Unreadable(f"not a cardtable save (missing {', '.join(map(repr, missing))})")
    game = data["game"]
    if not isinstance(game, str):
        raise Unreadable("not a cardtable save (the game is not named)")
    if rules.game_key(game) not in rules.INFO:
        # a game this version lacks is not damage: a newer version may have it
        raise Unreadable(f"it is a game of {quoted(game, 40)}, which this cardtable does not have",
                         set_aside=False)
    return data


def inspect(data: Mapping[str, Any]) -> None:
    """Check a save's structure without replaying it (seats, seed, options, the shape of the
    moves); raise Unreadable saying what is wrong."""
    try:
        _inspect(data)
    except Unreadable:
        raise
    except Exception as error:  # the border: nothing in a file may escape as anything else
        raise Unreadable(f"damaged ({in_words(error, 160)})") from None


def _inspect(data: Mapping[str, Any]) -> None:
    from rules.core.engine import check_setup
    from rules.core.match import Seat

    spec = rules.GAMES[rules.game_key(data["game"])]
    raw_seats = data["seats"]
    if not isinstance(raw_seats, list):
        raise Unreadable("damaged (the seats are not a list)")
    seats = tuple(Seat.from_json(seat) for seat in raw_seats)
    check_setup(spec, [seat.name for seat in seats], data.get("options") or {})
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Unreadable(f"damaged (the seed is not a whole number: {shorten(repr(seed), 40)})")
    if not isinstance(data["commands"], list):
        raise Unreadable("damaged (the moves are not a list)")
    # A move that is not a move, or a snapshot the moves do not reach, is not damage to the
    # whole: the game comes in at its last good move (see bring_in).


def bring_in(data: Mapping[str, Any]) -> Brought:
    """The game a checked save holds (``check``, then ``inspect``), replayed once, repaired at
    its last good move where need be; Unreadable for one that cannot be played at all."""
    inspect(data)
    repair = None
    try:
        match = load(data)
    except ReplayError as error:
        kept = {key: value for key, value in data.items() if key != "snapshot"}
        kept["commands"] = list(data["commands"])[: error.move - 1]
        match = _load_again(kept)
        repair = {"move": error.move, "text": shorten(error.text, 200)}
    except SnapshotMismatch as error:
        match = _load_again({key: value for key, value in data.items() if key != "snapshot"})
        repair = {"where": shorten(error.where, 200), "moves": error.moves}
    except SaveFormatError as error:
        raise Unreadable(shorten(error, 300)) from None
    return Brought(match, _stamp(data.get("created")), _stamp(data.get("saved")), repair)


def _load_again(data: Mapping[str, Any]) -> Match:
    try:
        return load(data)
    except SaveFormatError as again:  # cannot happen for a deterministic game; stay safe
        raise Unreadable(shorten(again, 300)) from None


def load(data: Mapping[str, Any]) -> Match:
    """``rules.load_match`` behind the border: any failure is a SaveFormatError (ReplayError
    and SnapshotMismatch, its kinds, say how far the moves go)."""
    try:
        return rules.load_match(data)
    except ReplayError as error:
        if len(str(error)) <= 300:
            raise
        raise ReplayError(shorten(error), error.move, error.text) from None
    except SnapshotMismatch as error:
        if len(str(error)) <= 300:
            raise
        raise SnapshotMismatch(shorten(error), error.moves, error.where) from None
    except SaveFormatError as error:
        if len(str(error)) <= 300:
            raise
        raise SaveFormatError(shorten(error)) from None
    except Exception as error:  # the border: a game may fail deep inside on odd input
        raise SaveFormatError(f"the save is damaged ({in_words(error, 200)})") from None


def in_words(error: BaseException, limit: int) -> str:
    """What went wrong reading a file, for a sentence: a rules error's own words, "nested too
    deeply", or the kind of a failure deep inside a game and its message."""
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, RulesError):
        return shorten(error, limit)
    return f"{type(error).__name__}: {shorten(error, limit)}"


def game_file(match: Match, created: str, saved: str) -> dict[str, Any]:
    """A game as a file holds it: the Match JSON with its metadata, in the order earlier
    versions wrote it."""
    data = match.to_json()
    return {
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


def game_text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def named_game(data: Any) -> tuple[str, str]:
    """The registry name and title of the game a file names, as far as it can be told
    (``("", "Unknown game")`` otherwise)."""
    game = data.get("game") if isinstance(data, dict) else None
    info = rules.INFO.get(rules.game_key(game)) if isinstance(game, str) and len(game) < 100 else None
    return (info.name, info.title) if info else ("", "Unknown game")


def timestamp(text: Any) -> datetime | None:
    """An ISO timestamp from a file or the database, as an aware datetime every clock can
    show; else None."""
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


def _stamp(text: Any) -> str | None:
    moment = timestamp(text)
    return None if moment is None else moment.isoformat()


def modified(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
    except (OSError, OverflowError, ValueError):
        return datetime.fromtimestamp(0, timezone.utc)


def _size(count: int) -> str:
    return f"{count // 2**20} MB" if count >= 2**20 else f"{count:,} bytes"
