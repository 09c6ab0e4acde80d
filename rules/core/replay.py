"""Replays: a finished or saved game stepped through move by move.

A ``Replay`` is a Match rebuilt from a game's seed and commands — the rules replay exactly from
those — that keeps a copy of the position every ``KEPT_EVERY`` moves and rebuilds any other
from the nearest one before it (``goto``). It is a Match to read (views per seat, history,
turn, outcome, awaiting), never to play: ``legal`` is empty and ``submit``, ``check`` and
``undo`` refuse. A table shows it as it shows a game in play, through ``view(seat)`` and the
history's events as that seat may read them; a player's view only once the game is over at its
last move (until then it can still be played, and a replay must not show anyone a hand or a
sealed bid they would play against).

``scores()`` charts the game: each seat's public standing (money, points) after every move,
from the game's optional ``scores(state)`` function, else from the first scoreboard column of
the public view that holds whole numbers.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from .engine import Command, View
from .errors import IllegalCommand, ReplayError, RulesError
from .match import FORMAT_VERSION, KEPT_EVERY, Match, Played, Seat, _read_save, played_again

READ_ONLY = "This is a replay: nothing can be played here."
PUBLIC_ONLY = "The game is not over: only the public view can be replayed until it ends."


@dataclass(frozen=True)
class ScoreSeries:
    """What a results chart draws: ``values[k][seat]`` after ``k`` moves (k = 0 is the deal),
    ``turns[k]`` the turn at that position, ``label`` what the numbers are ("Money")."""

    label: str
    values: tuple[tuple[int, ...], ...]
    turns: tuple[int, ...]


class Replay(Match):
    """The positions of a game after each of its moves; ``position`` is the one shown.

    ``stopped`` is the move that did not replay (a save edited by hand or damaged, or from rules
    that have changed since), as a ReplayError: the replay holds the moves before it.
    ``differs`` says where the position the save stored differs from where its moves lead (None
    when it agrees): the replay shows the moves, which are the truth.

    While the game can still be played (not over at its last move) only the public view can be
    replayed: ``view(seat)`` of a player refuses (``private_views`` says which it is), so that
    nobody reads a hand or a sealed bid of a game they may yet play against."""

    def __init__(self, spec: Any, seats: Sequence[Seat], options: Mapping[str, Any] | None,
                 seed: int, moves: Sequence[Any] = (), *, strict: bool = True,
                 version: int = FORMAT_VERSION) -> None:
        super().__init__(spec, seats, options, seed)
        # every seat's view is read while the moves are replayed (each is parsed as its seat
        # typed it); whether they may be shown is decided once the last move is known
        self.private_views = True
        self.stopped: ReplayError | None = None
        self.differs: str | None = None
        # the position after 0, KEPT_EVERY, 2 × KEPT_EVERY … moves: a copy of every position (a
        # whole state a move) held a long game's replay at tens of MiB, three times over at its
        # results (the results, the replay and the analysis each replay the game)
        self._kept_states: list[Any] = [copy.deepcopy(self.state)]
        turns = [spec.turn(self.state)]
        for number, entry in enumerate(moves, 1):
            try:
                self._replay(version, number, entry)
            except ReplayError as error:
                self.stopped = error
                if strict:
                    raise
                break
            self._undo.clear()
            if number % KEPT_EVERY == 0:
                self._kept_states.append(copy.deepcopy(self.state))
            turns.append(spec.turn(self.state))
        self._played: tuple[Played, ...] = tuple(self.history)
        self._turns = tuple(turns)
        self.position = len(self._played)
        self._shown: tuple[int, Any] = (self.position, self.state)  # the position shown, as rebuilt
        self.private_views: bool = self.over
        """Whether each player's view may be shown: only when the game is over at its last
        move (a game that can still be resumed keeps its secrets)."""
        self._series: ScoreSeries | None = None

    # -- making one ------------------------------------------------------------------------------
    @classmethod
    def of(cls, match: Match) -> Replay:
        """The replay of ``match``'s history (a game in play or finished), at its last move."""
        moves = [(played.seat, played.text) for played in match.history]
        return cls(match.spec, match.seats, match.options, match.seed, moves)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], spec: Any) -> Replay:  # type: ignore[override]
        """The replay of a saved game of ``spec``, at its last move. A move that cannot be
        played again (refused, or not a move at all) ends the replay before it (``stopped`` says
        which and why); moves that replay but do not reach the saved position are shown all the
        same (``differs`` says where). A save that is not a game at all raises SaveFormatError
        in words."""
        saved = _read_save(data)
        replay = saved.start(cls, spec, moves=saved.commands, strict=False, version=saved.version)
        if replay.stopped is None:
            replay.differs = replay._differs_from(data.get("snapshot"))
        return replay

    def check_view(self, seat: int | None) -> None:
        """Raise IllegalCommand saying why ``seat``'s view may not be shown: a player's view of
        a game not over at its last move (the public's, None, always may)."""
        if seat is not None and not self.private_views:
            raise IllegalCommand(PUBLIC_ONLY)

    def view(self, seat: int | None) -> View:
        """What ``seat`` saw at the position shown (None: the public); see ``check_view``."""
        self.check_view(seat)
        return super().view(seat)

    # -- moving between positions ----------------------------------------------------------------
    @property
    def moves(self) -> int:
        """How many moves the replay holds (its last position)."""
        return len(self._played)

    def goto(self, position: int) -> int:
        """Show the position after ``position`` moves (clamped to 0 … ``moves``); return it."""
        position = max(0, min(self.moves, int(position)))
        if position != self._shown[0] or self.state is not self._shown[1]:  # (or set from outside)
            self.state = self._state_at(position)
            self._shown = (position, self.state)
        self.position = position
        self.history = list(self._played[:position])
        self._cache.clear()
        return position

    def _state_at(self, position: int) -> Any:
        """A new state of the position after ``position`` moves: a copy of the nearest position
        kept before it, or of the one shown when that is nearer, with the moves since played
        again (the rules are deterministic, as saves replay). A state once shown is never changed
        (a view may share its parts)."""
        start = position - position % KEPT_EVERY
        state = self._kept_states[position // KEPT_EVERY]
        shown, shown_state = self._shown
        if start < shown <= position:
            start, state = shown, shown_state
        return played_again(self.spec, state, self._played[start:position])

    def _walk(self) -> Iterator[Any]:
        """The state of every position in turn, one state changed move by move: read each before
        the next (for the chart, which reads every position once)."""
        state = copy.deepcopy(self._kept_states[0])
        yield state
        for played in self._played:
            self.spec.apply(state, played.seat, played.command)
            yield state

    def turn_at(self, position: int) -> int:
        return self._turns[max(0, min(self.moves, position))]

    @property
    def turns(self) -> tuple[int, int]:
        """The first and last turn of the game."""
        return self._turns[0], self._turns[-1]

    def start_of_turn(self, turn: int) -> int:
        """The first position of ``turn`` (the nearest turn there is, for one out of range)."""
        first, last = self.turns
        turn = max(first, min(last, turn))
        return next(k for k, t in enumerate(self._turns) if t >= turn)

    def next_turn(self, position: int, step: int) -> int:
        """The start of the turn after (``step`` 1) or before (-1) the one at ``position``; the
        start of the turn at ``position`` itself when stepping back from inside it."""
        turn = self.turn_at(position)
        if step > 0:
            later = [k for k in range(position + 1, self.moves + 1) if self._turns[k] > turn]
            return later[0] if later else self.moves
        start = self.start_of_turn(turn)
        if start < position:
            return start
        return self.start_of_turn(turn - 1) if start > 0 else 0

    # -- the chart -------------------------------------------------------------------------------
    def scores(self) -> ScoreSeries:
        """Each seat's score or money after every move (computed once)."""
        if self._series is None:
            self._series = self._score_series()
        return self._series

    def _score_series(self) -> ScoreSeries:
        spec = self.spec
        if callable(getattr(spec, "scores", None)):
            values = tuple(tuple(int(v) for v in spec.scores(state)) for state in self._walk())
            return ScoreSeries(getattr(spec, "score_label", "Score"), values, self._turns)
        last = spec.view(self._state_at(self.moves), None)
        column = _numeric_column(last, len(self.seats))
        if column is None:
            return ScoreSeries("", (), self._turns)
        values = []
        for state in self._walk():
            rows = spec.view(state, None).rows
            row = tuple(_number(cells[column]) if column < len(cells) else None for cells in rows)
            values.append(tuple(v if v is not None else 0 for v in row))
        return ScoreSeries(last.columns[column], tuple(values), self._turns)

    # -- never played ----------------------------------------------------------------------------
    def legal(self, seat: int | None) -> list[Command]:
        return []

    def check(self, seat: int | None, command: Command | str) -> Command:
        raise IllegalCommand(READ_ONLY)

    def submit(self, seat: int | None, command: Command | str) -> list:
        raise IllegalCommand(READ_ONLY)

    def can_undo(self, seat: int | None) -> bool:
        return False

    def undo(self, seat: int | None) -> Played:
        raise IllegalCommand(READ_ONLY)

    def bot_move(self, seat: int) -> Command:
        raise RulesError(READ_ONLY)


_NUMBER = re.compile(r"^\s*([-−]?)\s*\$?\s*([-−]?)([\d,]+)\s*$")


def _number(text: Any) -> int | None:
    """A scoreboard cell as a whole number: "$12" → 12, "−3" → -3; None for anything else."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    found = _NUMBER.match(str(text))
    if found is None:
        return None
    value = int(found.group(3).replace(",", ""))
    return -value if (found.group(1) or found.group(2)) else value


def _numeric_column(view: Any, seats: int) -> int | None:
    """The first scoreboard column in which every seat's cell is a whole number."""
    rows = view.rows
    if len(rows) < seats:
        return None
    for column in range(len(view.columns)):
        if all(column < len(row) and _number(row[column]) is not None for row in rows[:seats]):
            return column
    return None
