"""The contract every game implements, and the value types it trades in.

A game is a ``GameSpec``: a stateless object whose functions take a state. States are the
game's own mutable dataclasses; commands and events are frozen dataclasses. All chance is drawn
from ``chance(seed, counter)``, so a game replays exactly from its seed and its commands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

from .cards import Card
from .errors import RulesError


def chance(seed: int, counter: int | str) -> random.Random:
    """The random source for the ``counter``-th chance draw of a game started from ``seed``.
    States keep (seed, counter) as plain ints, so the JSON stays small and hand-editable."""
    return random.Random(f"{seed}/{counter}")


class Command:
    """Base of every game's commands (frozen dataclasses with docstrings)."""


@dataclass(frozen=True)
class Event:
    """Something that happened. ``private_to`` is the one seat allowed to see it (None: all).

    ``reveals`` marks events that show hidden information or draw on chance: undo never steps
    back over them."""

    reveals: ClassVar[bool] = False

    def describe(self, names: Sequence[str]) -> str:
        """A plain sentence for the log, e.g. "Ann paid Bob $12 rent"."""
        raise NotImplementedError

    @property
    def private_to(self) -> int | None:
        return None


@dataclass(frozen=True)
class Option:
    """A setup option: a ruling's alternative. ``kind`` is bool, int or choice."""

    key: str
    label: str
    default: Any
    kind: str = "bool"
    choices: tuple[Any, ...] = ()
    help: str = ""

    def coerce(self, value: Any) -> Any:
        """Turn text or JSON into this option's type; raise RulesError saying what is allowed."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on", "y"):
                return True
            if text in ("0", "false", "no", "off", "n"):
                return False
            raise RulesError(f"option {self.key} takes yes or no, not {value!r}")
        if self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise RulesError(f"option {self.key} takes a whole number, not {value!r}") from None
            if self.choices and number not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise RulesError(f"option {self.key} takes one of {allowed}, not {number}")
            return number
        if self.kind == "choice":
            for choice in self.choices:
                if str(choice).lower() == str(value).strip().lower():
                    return choice
            allowed = ", ".join(map(str, self.choices))
            raise RulesError(f"option {self.key} takes one of {allowed}, not {value!r}")
        raise RulesError(f"option {self.key} has an unknown kind {self.kind!r}")


def resolve_options(spec_options: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full option set: defaults, overridden by ``given`` (coerced). Unknown keys raise."""
    known = {o.key: o for o in spec_options}
    result = {o.key: o.default for o in spec_options}
    for key, value in (given or {}).items():
        option = known.get(key.replace("_", "-")) or known.get(key)
        if option is None:
            names = ", ".join(known) or "none"
            raise RulesError(f"unknown option {key!r}; this game's options are: {names}")
        result[option.key] = option.coerce(value)
    return result


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game. ``ranks[seat]`` is 1 for the winner(s); tied seats share a
    rank. ``breakdown[seat]`` explains the score (label → amount)."""

    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    summary: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @staticmethod
    def rank_by(keys: Sequence[Sequence[int] | int]) -> tuple[int, ...]:
        """Competition ranks (1, 1, 3, …) from per-seat keys, higher is better; equal keys share."""
        norm = [tuple(k) if isinstance(k, (tuple, list)) else (k,) for k in keys]
        return tuple(1 + sum(1 for other in norm if other > mine) for mine in norm)


@dataclass(frozen=True)
class View:
    """What one seat may see. Games subclass it with their public table; the base part is what
    every table screen shows: the seat's hand, the scoreboard and the status line.

    ``columns``/``rows``: the scoreboard, one row per seat, cells already formatted."""

    seat: int | None
    to_move: int | None
    hand: tuple[Card, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()

    def status(self, names: Sequence[str]) -> str:
        """One sentence: whose input the game awaits and for what."""
        if self.to_move is None:
            return "The game is over."
        return f"{names[self.to_move]} to play."


@runtime_checkable
class Notation(Protocol):
    def format(self, command: Command) -> str: ...

    def parse(self, text: str, state: Any) -> Command: ...


@runtime_checkable
class GameSpec(Protocol):
    """What every registered game provides (see DESIGN.md, "The contract")."""

    name: str  # registry name: "property"
    title: str  # "Property"
    blurb: str  # one line for the new-game screen
    players: tuple[int, int]  # (min, max)
    options: tuple[Option, ...]
    notation: Notation
    bots: Mapping[str, Any]  # level name → Bot; "random" is added by the registry
    best_bot: str  # the level used by `cardtable simulate` without --seats

    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> Any:
        """A new game for the named players in seat order (seat 0 acts first unless the rules
        choose otherwise); deterministic for a seed."""

    def to_move(self, state: Any) -> int | None:
        """The seat whose input the game awaits (an answer to an offer counts), None when over."""

    def legal(self, state: Any) -> list[Command]: ...

    def check(self, state: Any, command: Command) -> None: ...

    def apply(self, state: Any, command: Command) -> list[Event]: ...

    def view(self, state: Any, seat: int | None) -> View: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...

    def conserved(self, state: Any) -> dict[str, Any]:
        """Quantities that no command may change (sorted card keys, money plus bank, …)."""

    def turn(self, state: Any) -> int:
        """A number that grows by one each turn; the saves list shows it."""


def check_setup(spec: Any, names: Sequence[str], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The shared argument checks of ``setup``: the player count and names, then the options."""
    low, high = spec.players
    if not low <= len(names) <= high:
        raise RulesError(f"{spec.title} is for {low}-{high} players, not {len(names)}")
    if len({name.strip().lower() for name in names}) != len(names) or not all(n.strip() for n in names):
        raise RulesError("every player needs a name of their own")
    return resolve_options(spec.options, options)
