"""Match: one game being played — the command/event bus, history, undo and saving.

``submit`` checks a command, applies it, records it and publishes what happened to every
subscriber (the table, the log, the autosave, the bot driver). A saved match is its seed and
its commands in notation; loading replays them and checks the stored snapshot agrees.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .bots import get_bot
from .engine import Command, Event, Outcome, View, chance, resolve_options
from .errors import IllegalCommand, RulesError, SaveFormatError

FORMAT_VERSION = 1


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
        return cls(str(data["name"]), data.get("bot"))


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
    """A game in play. ``seats`` name the players in seat order (seat 0 first)."""

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
        self._undo: list[Any] = []
        self._subscribers: list[Subscriber] = []

    # -- reading -----------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def awaiting(self) -> int | None:
        """The seat whose input the game awaits, None when it is over."""
        return self.spec.to_move(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.spec.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def turn(self) -> int:
        return self.spec.turn(self.state)

    def legal(self) -> list[Command]:
        return [] if self.over else self.spec.legal(self.state)

    def view(self, seat: int | None) -> View:
        return self.spec.view(self.state, seat)

    def format(self, command: Command) -> str:
        return self.spec.notation.format(command)

    def parse(self, text: str) -> Command:
        return self.spec.notation.parse(text, self.state)

    def check(self, command: Command | str, seat: int | None = None) -> Command:
        """Raise IllegalCommand (or NotationError) saying why, else return the command."""
        if self.over:
            raise IllegalCommand("The game is over.")
        awaiting = self.awaiting
        if seat is not None and seat != awaiting:
            raise IllegalCommand(
                f"It is {self.names[awaiting]}'s move, not {self.names[seat]}'s."
            )
        if isinstance(command, str):
            command = self.parse(command)
        self.spec.check(self.state, command)
        return command

    # -- changing ----------------------------------------------------------------------------
    def submit(self, command: Command | str, seat: int | None = None) -> list[Event]:
        """Check and apply a command (or its notation) for the awaited seat; publish the events.
        With ``seat``, refuse input from anyone but the awaited seat. Illegal input raises and
        changes nothing."""
        command = self.check(command, seat)
        actor = self.awaiting
        before = copy.deepcopy(self.state)
        played = self._play(actor, command)
        if any(event.reveals for event in played.events) or self.awaiting != actor:
            self._undo.clear()
        else:
            self._undo.append(before)
        self._publish(Update("command", played))
        return list(played.events)

    def _play(self, actor: int, command: Command) -> Played:
        events = self.spec.apply(self.state, command)
        played = Played(actor, command, self.format(command), tuple(events))
        self.history.append(played)
        return played

    @property
    def can_undo(self) -> bool:
        """True while the awaited seat has commands this turn that revealed nothing."""
        return bool(self._undo)

    def undo(self) -> Played:
        if not self._undo:
            raise IllegalCommand("Nothing to undo: the turn has not changed anything that can be taken back.")
        self.state = self._undo.pop()
        played = self.history.pop()
        self._publish(Update("undo", played))
        return played

    def bot_move(self) -> Command:
        """The command the awaited bot seat chooses (not yet submitted)."""
        seat = self.awaiting
        if seat is None or self.seats[seat].bot is None:
            raise RulesError("no bot is to move")
        bot = get_bot(self.spec, self.seats[seat].bot)
        rng = chance(self.seed, f"bot/{len(self.history)}")
        return bot.choose(self.spec, self.state, seat, rng)

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
            "commands": [played.text for played in self.history],
            "turn": self.turn,
            "over": self.over,
            "snapshot": self.spec.to_json(self.state),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        """Rebuild by replaying the commands; raise SaveFormatError saying what is wrong."""
        from rules import find_game

        if not isinstance(data, Mapping):
            raise SaveFormatError("a saved game must be a JSON object")
        version = data.get("format")
        if not isinstance(version, int):
            raise SaveFormatError("no format version: this is not a cardtable save")
        if version > FORMAT_VERSION:
            raise SaveFormatError(
                f"saved by a newer cardtable (format {version}; this version reads up to {FORMAT_VERSION})"
            )
        try:
            spec = find_game(str(data.get("game")))
        except RulesError as error:
            raise SaveFormatError(f"a game this version does not have ({error})") from None
        try:
            seats = [Seat.from_json(s) for s in data["seats"]]
            match = cls(spec, seats, data.get("options") or {}, int(data["seed"]))
            commands = list(data["commands"])
        except SaveFormatError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise SaveFormatError(f"the save is incomplete or damaged ({error})") from None
        for number, text in enumerate(commands, 1):
            try:
                command = match.check(str(text))
            except RulesError as error:
                raise SaveFormatError(f"move {number} ({text!r}) does not replay: {error}") from None
            match._play(match.awaiting, command)
        snapshot = data.get("snapshot")
        if snapshot is not None and snapshot != spec.to_json(match.state):
            raise SaveFormatError("the replayed game does not match the saved position")
        return match
