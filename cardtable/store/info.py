"""What the store tells its callers: a game as the saves list shows it, a game opened for play
or for a replay, and the ids games are known by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Sequence

from rules.core.words import join_names
from rules.core.words import result_text as winners_text

if TYPE_CHECKING:
    from rules.core import Match, Outcome, Replay, Seat

MAX_ID_LENGTH = 200


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
    """One saved game as the saves list shows it, read from the store's summary of it (nothing
    is replayed to list games).

    A save of an earlier version that could not be brought into the store is listed too,
    ``damaged`` with the ``reason`` in words and its ``file`` (relative to the data folder, left
    where it is); ``set_aside`` is False for a file this version cannot play but a newer one may
    (a newer format, a game this version lacks): "cannot open" rather than "damaged"."""

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
    file: str = ""
    moves: int = 0
    remote: frozenset[int] = frozenset()
    """The seats played from other screens (those with a join code)."""
    hints: bool = False
    """Played with the expert's hints (store/hints.py)."""

    @property
    def players(self) -> str:
        """The seats in order, bots and seats at other screens marked: "Ann, Bob (bot), Dan
        (bot: random), Fay (at another screen)"."""
        return ", ".join(seat_label(seat, self.best_bot) + (" (at another screen)" if place in self.remote else "")
                         for place, seat in enumerate(self.seats))

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
            status = f"finished — {self.result}" if self.result else "finished"
        else:
            status = self.to_play_text or "in play"
        return f"{status} · with hints" if self.hints else status


@dataclass(frozen=True)
class Opened:
    """A game read back for play: the match, and a notice in words when it could not be
    resumed exactly as it was saved (its later moves no longer replay, or they do not reach
    the position an imported save stored)."""

    match: Match
    notice: str | None = None


@dataclass(frozen=True)
class Replayed:
    """A saved game read back for a replay, and a notice in words when its later moves no
    longer replay (the replay ends before the first of them) or do not reach the position an
    imported save stored."""

    replay: Replay
    notice: str | None = None


def is_valid_id(game_id: object) -> bool:
    """A name that can be a game's id: printable, not empty, not padded, not hidden, without
    separators (an id names a file when a game is exported or was a save of an earlier
    version), and short enough for any file system."""
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


def quoted(text: object, limit: int = 60) -> str:
    """``repr`` of a possibly huge or odd id, cut to a length one line can hold."""
    from ..paths import shorten

    return repr(shorten(text, limit)) if isinstance(text, str) else repr(text)
