"""The contract every game implements, and the value types it trades in.

A game is a ``GameSpec``: a stateless object whose functions take a state. States are the
game's own mutable dataclasses; commands, events and views are frozen dataclasses. Every
function that concerns a player names its seat, because several seats may be awaited at once
(sealed bids, reactions, the answer to a deal) and what a seat may know is decided here, never
in the UI. All chance is drawn from ``chance(seed, counter)``, so a game replays exactly from
its seed and its commands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from .errors import IllegalCommand, RulesError
from .words import join_names, player, player_count, players, say

T = TypeVar("T")


def chance(seed: int, counter: int | str) -> random.Random:
    """The random source for the ``counter``-th chance draw of a game started from ``seed``.
    States keep (seed, counter) as plain ints, so the JSON stays small and hand-editable."""
    return random.Random(f"{seed}/{counter}")


class Command:
    """Base of every game's commands (frozen dataclasses with docstrings). A command carries no
    seat: the seat is given beside it to ``check``/``apply``.

    ``secret`` marks a command whose notation other seats must not read (a sealed bid): the log
    shows it to its own seat only; the event that resolves it tells the others."""

    secret: ClassVar[bool] = False


@dataclass(frozen=True)
class Event:
    """Something that happened. Each seat's log reads only what that seat may know:
    ``visible_to(seat)`` says whether the seat hears of it at all, and ``describe(names, seat)``
    words it for that seat ("Ann bid 12" for Ann, "Ann has bid" for Bob). ``seat=None`` is a
    spectator, who sees only what is public.

    ``reveals`` marks events that show hidden information or draw on chance: undo never steps
    back over them, and the secrecy test does not compare them."""

    reveals: ClassVar[bool] = False

    def visible_to(self, seat: int | None) -> bool:
        return True

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        """A plain sentence for the log, e.g. "Ann paid Bob $12 rent"."""
        raise NotImplementedError


@dataclass(frozen=True)
class PrivateEvent(Event):
    """An event only ``seat`` hears of (what Insider Information showed, say)."""

    seat: int

    def visible_to(self, seat: int | None) -> bool:
        return seat == self.seat


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
            text = str(value).strip()
            if isinstance(value, bool) or not (text.isascii() and text.lstrip("-").isdigit()):
                raise RulesError(f"option {self.key} takes a whole number, not {value!r}")
            number = int(text)
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
    if given is not None and not isinstance(given, Mapping):
        raise RulesError("the options must be a table of names and values")
    known = {o.key: o for o in spec_options}
    result = {o.key: o.default for o in spec_options}
    for key, value in (given or {}).items():
        option = known.get(str(key).replace("_", "-")) or known.get(str(key))
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
    """Everything the table shows one seat, and nothing more. Games subclass it with their
    public table; the base part is what every table screen shows.

    - ``seat``: whose view this is; None for a spectator (no private zones at all).
    - ``names``: the players in seat order; ``awaiting``: the seats whose input the game awaits.
    - ``status``: one sentence on what the table is waiting for.
    - ``zones``: this seat's private zones by name (``hand``, ``capital``, ``tools``, ``bid``).
    - ``zone_sizes``: for every seat, the size of each of its private zones (public).
    - ``columns``/``rows``: the scoreboard, one row per seat, cells already formatted."""

    seat: int | None
    names: tuple[str, ...]
    awaiting: frozenset[int]
    status: str = ""
    zones: Mapping[str, Any] = field(default_factory=dict)
    zone_sizes: tuple[Mapping[str, int], ...] = ()
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()

    @property
    def hand(self) -> tuple[Any, ...]:
        """The seat's private zone called ``hand`` (empty for a spectator)."""
        return tuple(self.zones.get("hand", ()))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(sizes.get("hand", 0) for sizes in self.zone_sizes)

    @property
    def over(self) -> bool:
        return not self.awaiting

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.awaiting


def quick_init(cls: type[T]) -> type[T]:
    """A class decorator for a frozen dataclass (put above ``@dataclass``): an ``__init__`` with
    the same parameters that sets every field at once in the instance's dict, not one by one
    through ``object.__setattr__`` as a frozen dataclass's does — a third of the time of a
    game's ``view`` with its forty fields, which the expert's playouts build thousands a second.
    The instance is the same (no ``__post_init__``, no slots: asserted)."""
    import dataclasses
    import inspect

    assert cls.__dataclass_params__.frozen and not hasattr(cls, "__post_init__")  # type: ignore[attr-defined]
    assert "__slots__" not in cls.__dict__
    factories = {f.name: f.default_factory for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                 if f.default_factory is not dataclasses.MISSING}
    space: dict[str, Any] = {"FACTORY": dataclasses._HAS_DEFAULT_FACTORY}  # type: ignore[attr-defined]
    params, names, made = [], [], []
    keyword = False
    for parameter in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        name = parameter.name
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and not keyword:
            params.append("*")
            keyword = True
        if parameter.default is inspect.Parameter.empty:
            params.append(name)
        else:
            space[f"default_{name}"] = parameter.default
            params.append(f"{name}=default_{name}")
        if name in factories:
            space[f"factory_{name}"] = factories[name]
            made.append(f"    if {name} is FACTORY: {name} = factory_{name}()\n")
        names.append(f"{name}={name}")
    source = (f"def __init__(self, {', '.join(params)}):\n{''.join(made)}"
              f"    self.__dict__.update({', '.join(names)})\n")
    exec(source, space)
    init = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


def made_with(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of ``cls``, a ``quick_init`` class, holding ``fields`` (a fresh dict naming
    every field, defaults too): the same instance as ``cls(**fields)``, made without a call by
    keyword, which with a view's forty fields is half of the time of making it."""
    instance = object.__new__(cls)
    object.__setattr__(instance, "__dict__", fields)
    return instance


@runtime_checkable
class Notation(Protocol):
    def format(self, command: Command) -> str:
        """The canonical text of a command (``play 3D 5C``); ``parse`` reads it back."""

    def parse(self, text: str, view: View) -> Command:
        """Read a command typed by the seat whose ``view`` this is; raise NotationError (and
        nothing else) with a sentence when the text is not a command."""

    # Optional: ``display(command, names) -> Sentence``, the command as the log shows it: the
    # words of ``format`` with its cards as Card parts (read in symbols) and its players as
    # Player parts, by name. Every registered game has it; without it the log shows ``format``.


@runtime_checkable
class GameSpec(Protocol):
    """What every registered game provides (see the architecture notes, "The contract")."""

    name: str  # registry name: "property"
    title: str  # "Property"
    blurb: str  # one line for the new-game screen
    players: tuple[int, int]  # (min, max)
    options: tuple[Option, ...]
    notation: Notation
    bots: Mapping[str, Any]  # level name → Bot; "random" is added by the registry
    best_bot: str  # the level used by `cardtable simulate` without --seats
    longest: int  # the most commands a game between its bot levels took in a long sweep: a bot
    # game past twice it is taken never to end (rules/core/simulate.py, tests/test_ending.py)

    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> Any:
        """A new game for the named players in seat order; deterministic for a seed."""

    def awaiting(self, state: Any) -> frozenset[int]:
        """Every seat whose input the game awaits now; empty when the game is over."""

    def legal(self, state: Any, seat: int) -> list[Command]:
        """That seat's legal commands in a stable order (empty when it is not awaited). Where
        the full list is too large, the useful ones; ``check`` is the authority. A list, or a
        sequence that reads and compares as one and makes its commands when they are read
        (``rules.core.listing``: most of a long list is never read in a simulation)."""

    def check(self, state: Any, seat: int, command: Command) -> None:
        """Raise IllegalCommand with a sentence a player understands, or return."""

    def apply(self, state: Any, seat: int, command: Command) -> list[Event]:
        """Check (once), then change the state and return what happened. A refused command
        changes nothing."""
    # Optional: a keyword ``listed=True`` (default False) by which the caller vouches that the
    # command equals one ``legal(state, seat)`` lists for this very state, so that apply may skip
    # the checks that settles: the expert's search, which plays only such commands below its
    # root, thousands a second. Never for a command from a seat at the table (Match checks all).

    def view(self, state: Any, seat: int | None) -> View: ...
    # Optional: a keyword ``plain=True`` (default False) that leaves out what only a person reads,
    # ``status`` ("") and the scoreboard's ``rows`` (()): the views the expert's search gives the
    # bots it plays out with, thousands a second (no bot reads either).

    def sample(self, view: View, rng: random.Random) -> Any:
        """A whole state consistent with ``view``: what the seat cannot see dealt at random."""

    def outcome(self, state: Any) -> Outcome | None: ...

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...

    def conserved(self, state: Any) -> dict[str, Any]:
        """Quantities that no command may change (sorted card keys, money plus bank, …)."""

    def turn(self, state: Any) -> int:
        """A number that grows by one each turn; the saves list shows it."""

    # Optional: ``scores(state) -> tuple[int, ...]``, each seat's PUBLIC standing (money, points)
    # at any moment, and ``score_label`` ("Money"): the results chart draws it after every move.
    # Without it the chart uses the first scoreboard column of the public view holding numbers.


def check_setup(spec: Any, names: Sequence[str], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The shared argument checks of ``setup``: the player count and names, then the options."""
    low, high = spec.players
    if not low <= len(names) <= high:
        raise RulesError(f"{spec.title} is for {player_count(spec.players)}, not {len(names)}")
    if not all(isinstance(n, str) and n.strip() for n in names) or (
            len({name.strip().lower() for name in names}) != len(names)):
        raise RulesError("every player needs a name of their own")
    for name in names:
        if any(mark in name for mark in ":,") or not name.isprintable() or len(name) > 40:
            # the command bar reads "offer Bob: …" and the command line "Ann,Bob"
            raise RulesError(f"a player's name must be printable, at most 40 characters, without ':' or ',': {name!r}")
    return resolve_options(spec.options, options)


def check_awaited(awaiting: frozenset[int], seat: Any, names: Sequence[str]) -> None:
    """Refuse, in words, a command from a seat the game is not waiting for."""
    if not awaiting:
        raise IllegalCommand("The game is over.")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(names):
        raise IllegalCommand("Only a player at the table can play; a spectator cannot.")
    if seat not in awaiting:
        waiting = join_names(players(names, sorted(awaiting)))
        raise IllegalCommand(say("It is not {}'s move: the game is waiting for {}.", player(names, seat), waiting))
