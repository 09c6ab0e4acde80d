"""Match: one game being played — the command/event bus, history, undo and saving.

``submit(seat, command)`` applies a command for a seat (the game checks it once and refuses it
in words), records it with its seat and publishes what happened to every subscriber (the table,
the log, the autosave, the bot driver). Views and legal commands are computed once per change
and shared by everyone who asks. A saved match is its seed and its commands, each with its
seat, in notation; loading replays them and checks that the stored snapshot agrees (the moves
are the truth: a move that does not replay, or a snapshot they do not reach, is said in an
exception that tells how far the moves go, so the game can be resumed there).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .bots import get_bot
from .engine import Command, Event, Outcome, View, chance, resolve_options
from .errors import IllegalCommand, ReplayError, RulesError, SaveFormatError, SnapshotMismatch
from .jsonio import read_int, read_list, read_str

KEPT_EVERY = 16
"""Moves between the copies of the state a match keeps to rebuild a position from (undo, a
command that fails half-way): a copy before every command cost a move more as the state grew
(some 0.75 ms at an Abundance match's end); one every 16 costs a sixteenth of that, and
rebuilding replays at most 15 commands on a copy."""

FORMAT_VERSION = 3
"""1: commands as notation only (every game awaited one seat at a time).
2: every command with its seat, ``[seat, "notation"]``.
3: as 2, and a player named inside a command is written by seat number from 1 (``offer 2: …``),
never by name, so a saved move means one thing whatever the players are called. (Versions 1
and 2 named players; their moves are read as a person's typing is, by name.)"""


@dataclass(frozen=True)
class Seat:
    """A place at the table: a name, and a bot level or None for a human."""

    name: str
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        return self.bot is None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        if not isinstance(data, Mapping):
            raise RulesError("a seat must be an object with a name")
        bot = data.get("bot")
        if bot is not None and not isinstance(bot, str):
            raise RulesError(f"a seat's bot level must be text, not {bot!r}")
        return cls(read_str(data.get("name"), "a seat's name"), bot)


@dataclass(frozen=True)
class Played:
    """One entry of the history: who acted, the command, its notation, what happened."""

    seat: int
    command: Command
    text: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Update:
    """What subscribers receive: ``kind`` is "command" or "undo", ``played`` the entry concerned."""

    kind: str
    played: Played


Subscriber = Callable[["Match", Update], None]


class Match:
    """A game in play. ``seats`` name the players in seat order."""

    def __init__(
        self,
        spec: Any,
        seats: Sequence[Seat],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        self.spec = spec
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.options = resolve_options(spec.options, options)
        self.seed = random.SystemRandom().randrange(10**9) if seed is None else int(seed)
        for seat in self.seats:
            if seat.bot is not None:
                get_bot(spec, seat.bot)
        self.history: list[Played] = []
        # the seats of the latest history entries that undo may take back
        self._undo: list[int | None] = []
        # (moves played, a copy of the state then), oldest first, from the latest at or before
        # the first entry undo may take back: any position since is one of these played on
        self._kept: list[tuple[int, Any]] = []
        self.state = spec.setup(self.names, self.options, self.seed)
        self._live = self.state  # the state these are of (``state`` set from outside is another)
        self._subscribers: list[Subscriber] = []
        self._cache: dict[Any, Any] = {}

    def _set_from_outside(self) -> None:
        """After ``state`` was set from outside (a test's position, a replay's): the moves
        before it can no longer be played again to rebuild it, nor taken back."""
        if self.state is not self._live:
            self._kept.clear()
            self._undo.clear()
            self._live = self.state

    # -- reading (computed once per change, shared by every reader) ----------------------------
    def _cached(self, key: Any, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def awaiting(self) -> frozenset[int]:
        """The seats whose input the game awaits; empty when it is over."""
        return self._cached("awaiting", lambda: frozenset(self.spec.awaiting(self.state)))

    @property
    def outcome(self) -> Outcome | None:
        return self._cached("outcome", lambda: self.spec.outcome(self.state))

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def turn(self) -> int:
        return self._cached("turn", lambda: self.spec.turn(self.state))

    def view(self, seat: int | None) -> View:
        return self._cached(("view", seat), lambda: self.spec.view(self.state, seat))

    def legal(self, seat: int | None) -> list[Command]:
        """``seat``'s legal commands now (empty when it is not awaited)."""
        if seat not in self.awaiting:
            return []
        return list(self._cached(("legal", seat), lambda: tuple(self.spec.legal(self.state, seat))))

    def format(self, command: Command) -> str:
        return self.spec.notation.format(command)

    def parse(self, seat: int | None, text: str) -> Command:
        """Read ``text`` as ``seat`` typed it, against what that seat sees."""
        return self.spec.notation.parse(text, self.view(seat))

    def check(self, seat: int | None, command: Command | str) -> Command:
        """Raise IllegalCommand (or NotationError) saying why, else return the command. For
        asking ahead (may this key be pressed?); ``submit`` checks by itself."""
        if isinstance(command, str):
            command = self.parse(seat, command)
        self.spec.check(self.state, seat, command)
        return command

    # -- changing ----------------------------------------------------------------------------
    def submit(self, seat: int | None, command: Command | str) -> list[Event]:
        """Play ``command`` (or its notation) for ``seat``; publish the events. Illegal input
        raises and changes nothing."""
        if isinstance(command, str):
            command = self.parse(seat, command)
        played = self._play(seat, command)
        self._publish(Update("command", played))
        return list(played.events)

    def _play(self, seat: int | None, command: Command) -> Played:
        self._set_from_outside()
        moves = len(self.history)
        if not self._kept or moves - self._kept[-1][0] >= KEPT_EVERY:
            self._kept.append((moves, copy.deepcopy(self.state)))
        try:
            events = self.spec.apply(self.state, seat, command)
        except BaseException:
            # a refusal changes nothing by contract; a bug half-way must not either
            self.state = self._live = self._position(moves)
            raise
        played = Played(seat, command, self.format(command), tuple(events))  # type: ignore[arg-type]
        self.history.append(played)
        self._cache.clear()
        if any(event.reveals for event in played.events):
            self._undo.clear()
        else:
            if self._undo and self._undo[-1] != played.seat:
                # another seat has acted: the moves before can never be taken back
                self._undo.clear()
            self._undo.append(played.seat)
        first = len(self.history) - len(self._undo)  # the earliest position undo may go back to
        while len(self._kept) > 1 and self._kept[1][0] <= first:
            del self._kept[0]
        return played

    def _position(self, moves: int) -> Any:
        """The state after the first ``moves`` entries of the history (from the latest copy kept
        at or before it, the commands since played again on a copy: the rules are
        deterministic, as saves replay)."""
        kept, state = next((at, state) for at, state in reversed(self._kept) if at <= moves)
        return played_again(self.spec, state, self.history[kept:moves])

    def can_undo(self, seat: int | None) -> bool:
        """True while ``seat`` made the latest command, nothing was revealed or drawn since its
        commands began, no other seat has acted since, and the game is not over."""
        # a finished game stays finished: its result is recorded and shown
        self._set_from_outside()
        return bool(self._undo) and self._undo[-1] == seat and not self.over

    def undo(self, seat: int | None) -> Played:
        """Take back ``seat``'s latest command (see ``can_undo``)."""
        if not self.can_undo(seat):
            raise IllegalCommand(
                "Nothing to undo: only your own latest moves, before anything was revealed or "
                "drawn and before anyone else played, can be taken back.")
        self.state = self._live = self._position(len(self.history) - 1)
        self._undo.pop()
        played = self.history.pop()
        while self._kept[-1][0] > len(self.history):
            self._kept.pop()
        self._cache.clear()
        self._publish(Update("undo", played))
        return played

    def bot_move(self, seat: int) -> Command:
        """The command the bot in ``seat`` chooses now (not yet submitted), from that seat's
        view and legal commands only."""
        level = self.seats[seat].bot if 0 <= seat < len(self.seats) else None
        if level is None or seat not in self.awaiting:
            raise RulesError("no bot is awaited in that seat")
        bot = get_bot(self.spec, level)
        rng = chance(self.seed, f"bot/{len(self.history)}/{seat}")
        return bot.choose(self.view(seat), self.legal(seat), rng)

    # -- the bus -----------------------------------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(match, update)`` after every command and undo; returns an
        unsubscribe function."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber) if subscriber in self._subscribers else None

    def _publish(self, update: Update) -> None:
        for subscriber in list(self._subscribers):
            subscriber(self, update)

    # -- saving ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": self.spec.name,
            "options": dict(self.options),
            "seats": [seat.to_json() for seat in self.seats],
            "seed": self.seed,
            "commands": [[played.seat, played.text] for played in self.history],
            "turn": self.turn,
            "over": self.over,
            "snapshot": self.spec.to_json(self.state),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], spec: Any) -> Match:
        """Rebuild a match of ``spec`` by replaying its commands; raise SaveFormatError saying
        what is wrong. (``rules.load_match`` finds the spec from the data.)

        A move that cannot be played again — one the game refuses, or an entry that is not a
        move at all — raises ReplayError naming it: the moves before it can still be resumed.
        Moves that all replay but do not reach the stored snapshot raise SnapshotMismatch: the
        moves are the truth, so the game can be resumed where they lead."""
        saved = _read_save(data)
        match = saved.start(cls, spec)
        for number, entry in enumerate(saved.commands, 1):
            match._replay(saved.version, number, entry)
        where = match._differs_from(data.get("snapshot"))
        if where is not None:
            moves = len(saved.commands)
            raise SnapshotMismatch(
                "the moves replay but do not reach the saved position ("
                + (f"it differs at {where})" if where else "it is not a position of this game)"),
                moves, where)
        # what could be taken back before the game was saved can be after: replaying kept the
        # same undo record as playing did (cleared at every reveal)
        return match

    def _replay(self, version: int, number: int, entry: Any) -> None:
        """Play saved move ``number`` (``entry``, as the save holds it) again, or raise
        ReplayError saying why it cannot be (not a move, no such seat, refused by the game)."""
        seat, text = self._entry(version, number, entry)
        try:
            self._play(seat, self.parse(seat, text))
        except RulesError as error:
            raise ReplayError(f"move {number} ({text!r}) does not replay: {error}", number, text) from None
        except Exception as error:  # odd text may fail deep inside a game: still this move's fault
            raise ReplayError(f"move {number} ({text!r}) does not replay: "
                              f"{type(error).__name__}: {error}", number, text) from error

    def _entry(self, version: int, number: int, entry: Any) -> tuple[int, str]:
        """The seat and notation of a saved command, in either format; ReplayError for an entry
        that is not one (the moves before it still replay)."""
        if version == 1:
            if not isinstance(entry, str):
                raise ReplayError(f"move {number} is not a command in notation: {_shown(entry)}",
                                  number, _shown(entry))
            awaiting = sorted(self.awaiting)
            if len(awaiting) != 1:
                raise ReplayError(f"move {number} ({entry!r}) does not replay: the game is not "
                                  "waiting for exactly one player there", number, entry)
            return awaiting[0], entry
        if (not isinstance(entry, (list, tuple)) or len(entry) != 2 or not isinstance(entry[1], str)
                or isinstance(entry[0], bool) or not isinstance(entry[0], int)
                or not 0 <= entry[0] < len(self.seats)):
            text = entry if isinstance(entry, str) else (
                entry[1] if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[1], str)
                else _shown(entry))
            raise ReplayError(f"move {number} is not [seat, \"command\"] with a seat from 0 to "
                              f"{len(self.seats) - 1}: {_shown(entry)}", number, text)
        return entry[0], entry[1]

    def _differs_from(self, snapshot: Any) -> str | None:
        """Where the saved ``snapshot`` differs from the position now (see ``_difference``);
        None when it agrees or there is none."""
        replayed = self.spec.to_json(self.state)
        if isinstance(snapshot, Mapping):
            # a field the rules added to their JSON after the save was written: the moves rebuild it
            for key in getattr(self.spec, "added_fields", ()):
                if key not in snapshot:
                    replayed.pop(key, None)
        if snapshot is None or snapshot == replayed:
            return None
        return _difference(snapshot, replayed)


@dataclass(frozen=True)
class _Saved:
    """A save's header, checked: everything but its moves, which are replayed one by one."""

    version: int
    seats: tuple[Seat, ...]
    seed: int
    options: Mapping[str, Any]
    commands: tuple[Any, ...]

    def start(self, cls: type[Match], spec: Any, **more: Any) -> Any:
        """A ``cls`` of ``spec`` from these seats, options and seed (``more``: what else ``cls``
        takes; a Match starts at the deal)."""
        try:
            return cls(spec, self.seats, self.options, self.seed, **more)
        except RulesError as error:
            raise SaveFormatError(f"the save is damaged: {error}") from None


def played_again(spec: Any, state: Any, moves: Sequence[Played]) -> Any:
    """A copy of ``state`` with ``moves`` played on it again (the rules are deterministic, as
    saves replay); ``state`` itself is left as it was."""
    state = copy.deepcopy(state)
    for played in moves:
        spec.apply(state, played.seat, played.command)
    return state


def _read_save(data: Any) -> _Saved:
    """The header of a saved match, or SaveFormatError saying what is wrong with it."""
    version = _format_version(data)
    missing = [key for key in ("seats", "seed", "commands") if key not in data]
    if missing:
        raise SaveFormatError(f"the save is incomplete: it has no {', '.join(map(repr, missing))}")
    try:
        seats = tuple(Seat.from_json(s) for s in read_list(data["seats"], "the seats"))
        seed = read_int(data["seed"], "the seed")
        commands = tuple(read_list(data["commands"], "the commands"))
    except RulesError as error:
        raise SaveFormatError(f"the save is damaged: {error}") from None
    options = data.get("options") or {}
    return _Saved(version, seats, seed, options, commands)


def _shown(value: Any, limit: int = 60) -> str:
    """A value from a file, shown short in a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _difference(saved: Any, replayed: Any) -> str:
    """The first place two JSON values differ, as a path ("players[1].money"); "" when they
    differ at the top. (Walked in a loop, not by recursion: a file may nest deeply.)"""
    path = ""
    while True:
        if isinstance(saved, Mapping) and isinstance(replayed, Mapping):
            keys = [*replayed, *(k for k in saved if k not in replayed)]
            key = next(k for k in keys if k not in saved or k not in replayed or saved[k] != replayed[k])
            path += f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]"
            if key not in saved or key not in replayed:
                return path.lstrip(".")
            saved, replayed = saved[key], replayed[key]
        elif isinstance(saved, list) and isinstance(replayed, list):
            index = next((i for i, (a, b) in enumerate(zip(saved, replayed)) if a != b),
                         min(len(saved), len(replayed)))
            path += f"[{index}]"
            if index >= min(len(saved), len(replayed)):
                return path.lstrip(".")
            saved, replayed = saved[index], replayed[index]
        else:
            return path.lstrip(".")


def _format_version(data: Any) -> int:
    if not isinstance(data, Mapping):
        raise SaveFormatError("a saved game must be a JSON object")
    version = data.get("format")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SaveFormatError("no format version: this is not a cardtable save")
    if version > FORMAT_VERSION:
        raise SaveFormatError(
            f"saved by a newer cardtable (format {version}; this version reads up to {FORMAT_VERSION})"
        )
    if version < 1:
        raise SaveFormatError(f"format {version} is not a cardtable save format")
    return version
