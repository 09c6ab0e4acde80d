"""The analyses of finished games (``rules.core.analysis``), kept so that a second look is
instant: one row per game, analysis version and thinking time, written in one transaction once
the analysis is whole (a stopped one leaves nothing)."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from typing import Any, Callable

from .errors import SaveError

MIGRATION = (
    """CREATE TABLE analyses (          -- rules.core.analysis of a finished game
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,     -- rules.core.analysis.VERSION it was made by
        seconds REAL NOT NULL,        -- thinking time per position
        moves INTEGER NOT NULL,       -- the game's moves when it was made
        data TEXT NOT NULL,           -- JSON: Analysis.to_data()
        made TEXT NOT NULL,
        PRIMARY KEY (game_id, version, seconds)
    ) WITHOUT ROWID""",
)


class Analyses:
    """The kept analyses of ``SaveStore`` (mixed into it: it provides ``_lock``, ``_writing``
    and ``_reading``)."""

    _lock: threading.RLock
    _writing: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _reading: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def kept_analysis(self, game_id: str, version: int, seconds: float, moves: int) -> dict[str, Any] | None:
        """The analysis kept for the game at that version, thinking time and number of moves
        (Analysis.to_data()), or None; SaveError when the store cannot be read."""
        with self._lock, self._reading() as connection:
            row = connection.execute(
                "SELECT data FROM analyses WHERE game_id = ? AND version = ? AND seconds = ? AND moves = ?",
                (game_id, version, float(seconds), moves)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            return None  # a damaged row is made again
        return data if isinstance(data, dict) else None

    def keep_analysis(self, game_id: str, version: int, seconds: float, moves: int, data: dict[str, Any]) -> None:
        """Keep a whole analysis (replacing one of the same key); SaveError."""
        text = json.dumps(data, ensure_ascii=False)
        made = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._lock, self._writing() as connection:
            connection.execute("INSERT OR REPLACE INTO analyses (game_id, version, seconds, moves, data, made) "
                               "VALUES (?, ?, ?, ?, ?, ?)", (game_id, version, float(seconds), moves, text, made))


def thinking_time(spec: Any, seconds: float | None) -> float:
    """The thinking time per position: ``seconds``, or the expert's for the game."""
    from rules.core.search import settings_for

    return float(seconds if seconds is not None else settings_for(spec).seconds)


def analysis_of(store: Any, game_id: str | None, replay: Any, seconds: float | None = None,
                progress: Callable[[int, int], None] | None = None,
                stop: Callable[[], bool] | None = None) -> tuple[Any, bool, str | None]:
    """The analysis of the finished game ``game_id`` (its ``replay``), whether it was kept from
    before, and why it could not be kept (None when it could): kept, it comes at once; else it
    is made (``rules.core.analysis.analyse``, which raises NotFinished and Stopped) and kept
    whole. A store that cannot be read or written costs only the keeping; without a store or
    an id (a game not saved) nothing is kept."""
    from rules.core import analysis as judging
    from rules.core.analysis import VERSION, Analysis, NotFinished


    replay.goto(replay.moves)
    if not replay.over:
        raise NotFinished(f"{game_id} is not over: only a finished game can be analysed.")
    seconds = thinking_time(replay.spec, seconds)
    keeping = store is not None and game_id is not None
    try:
        data = store.kept_analysis(game_id, VERSION, seconds, replay.moves) if keeping else None
    except SaveError:
        data = None
    if data is not None:
        try:
            return Analysis.from_data(data), True, None
        except (KeyError, TypeError, ValueError):
            pass  # kept by a damaged write or a hand: made again
    analysis = judging.analyse(replay, seconds, progress=progress, stop=stop)
    if not keeping:
        return analysis, False, None
    try:
        store.keep_analysis(game_id, VERSION, seconds, replay.moves, analysis.to_data())
    except SaveError as error:  # shown all the same; the next look makes it again
        return analysis, False, f"The analysis could not be kept: {error}"
    return analysis, False, None
