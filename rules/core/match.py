"""Match: one game being played — the command/event bus, history, undo and saving.

``submit(seat, command)`` applies a command for a seat (the game checks it once and refuses it
in words), records it with its seat and publishes what happened to every subscriber (the table,
the log, the autosave, the bot driver). Views and legal commands are computed once per change
and shared by everyone who asks. A saved match is its seed and its commands, each with its
seat, in notation; loading replays them and checks that the stored snapshot agrees.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .bots import get_bot
from .engine import Command, Event, Outcome, View, chance, resolve_options
from .errors import IllegalCommand, ReplayError, RulesError, SaveFormatError
from .jsonio import read_int, read_list, read_str

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
        self.state = spec.setup(self.names, self.options, self.seed)
        self.history: list[Played] = []
        # (seat, state before) for the latest history entries that undo may take back
        self._undo: list[tuple[int, Any]] = []
        self._subscribers: list[Subscriber] = []
        self._cache: dict[Any, Any] = {}

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
        before = copy.deepcopy(self.state)
        try:
            events = self.spec.apply(self.state, seat, command)
        except BaseException:
            # a refusal changes nothing by contract; a bug half-way must not either
            self.state = before
            raise
        played = Played(seat, command, self.format(command), tuple(events))  # type: ignore[arg-type]
        self.history.append(played)
        self._cache.clear()
        if any(event.reveals for event in played.events):
            self._undo.clear()
        else:
            self._undo.append((played.seat, before))
        return played

    def can_undo(self, seat: int | None) -> bool:
        """True while ``seat`` made the latest command, nothing was revealed or drawn since its
        commands began, and no other seat has acted since."""
        return bool(self._undo) and self._undo[-1][0] == seat

    def undo(self, seat: int | None) -> Played:
        """Take back ``seat``'s latest command (see ``can_undo``)."""
        if not self.can_undo(seat):
            raise IllegalCommand(
                "Nothing to undo: only your own latest moves, before anything was revealed or "
                "drawn and before anyone else played, can be taken back.")
        _seat, self.state = self._undo.pop()
        played = self.history.pop()
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
        what is wrong. (``rules.load_match`` finds the spec from the data.)"""
        version = _format_version(data)
        missing = [key for key in ("seats", "seed", "commands") if key not in data]
        if missing:
            raise SaveFormatError(f"the save is incomplete: it has no {', '.join(map(repr, missing))}")
        try:
            seats = [Seat.from_json(s) for s in read_list(data["seats"], "the seats")]
            seed = read_int(data["seed"], "the seed")
            options = data.get("options") or {}
            match = cls(spec, seats, options, seed)
            commands = read_list(data["commands"], "the commands")
        except RulesError as error:
            raise SaveFormatError(f"the save is damaged: {error}") from None
        for number, entry in enumerate(commands, 1):
            seat, text = match._entry(version, number, entry)
            try:
                match._play(seat, match.parse(seat, text))
            except RulesError as error:
                raise ReplayError(f"move {number} ({text!r}) does not replay: {error}", number, text) from None
            except Exception as error:  # odd text may fail deep inside a game: still this move's fault
                raise ReplayError(f"move {number} ({text!r}) does not replay: "
                                  f"{type(error).__name__}: {error}", number, text) from error
        snapshot = data.get("snapshot")
        if snapshot is not None and snapshot != spec.to_json(match.state):
            raise SaveFormatError("the replayed game does not match the saved position")
        match._undo.clear()  # a resumed game starts with nothing to take back
        return match

    def _entry(self, version: int, number: int, entry: Any) -> tuple[int, str]:
        """The seat and notation of a saved command, in either format."""
        if version == 1:
            if not isinstance(entry, str):
                raise SaveFormatError(f"move {number} is not a command in notation: {entry!r}")
            awaiting = sorted(self.awaiting)
            if len(awaiting) != 1:
                raise ReplayError(f"move {number} ({entry!r}) does not replay: the game is not "
                                  "waiting for exactly one player there", number, entry)
            return awaiting[0], entry
        if (not isinstance(entry, (list, tuple)) or len(entry) != 2 or not isinstance(entry[1], str)
                or isinstance(entry[0], bool) or not isinstance(entry[0], int)
                or not 0 <= entry[0] < len(self.seats)):
            raise SaveFormatError(f"move {number} is not [seat, \"command\"]: {entry!r}")
        return entry[0], entry[1]


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
