"""Headless bot games: what `cardtable simulate` and the benchmark run.

Every game ends: a game's spec states ``longest``, the most commands a game between its bot
levels took in a long sweep (tests/benchmark.py --parts ending), and a bot game that runs past
twice that is taken never to end: it stops at once with ``NeverEnds``, naming the game and the
seed, rather than running on for minutes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .bots import get_bot
from .engine import Outcome, chance
from .errors import RulesError


def limit_of(spec: Any) -> int:
    """The commands after which a bot game of ``spec`` is taken never to end."""
    return 2 * spec.longest


class NeverEnds(RuntimeError):
    """A bot game that ran past its limit (by default twice its game's ``longest``); ``levels``
    are the seats' bot levels in seat order."""

    def __init__(self, spec: Any, seed: int, limit: int, levels: Sequence[str]) -> None:
        self.game, self.seed, self.limit, self.levels = spec.name, seed, limit, tuple(levels)
        past = "2×longest " if limit == limit_of(spec) else ""
        super().__init__(f"{spec.name} seed {seed} ran past {past}({limit} commands)")


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    commands: int
    turns: int
    moves: tuple[int, ...] = ()  # commands chosen by each seat
    thinking: tuple[float, ...] = ()  # seconds each seat's bot spent choosing


def play_game(
    spec: Any,
    levels: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_commands: int | None = None,
) -> GameResult:
    """Play one game with a bot of ``levels[seat]`` in every seat; raise NeverEnds once it has
    run past ``max_commands`` (by default twice the game's longest)."""
    limit = limit_of(spec) if max_commands is None else max_commands
    bots = [get_bot(spec, level) for level in levels]
    reads_view = [getattr(bot, "reads_view", True) for bot in bots]
    names = [f"{level} {seat + 1}" for seat, level in enumerate(levels)]
    state = spec.setup(names, options, seed)
    # one generator per bot for the whole game, seeded once from the game's seed: seeding one per
    # command (random.Random(str) hashes the string with SHA-512) was a fifth to a quarter of
    # random play's time. One per seat, so that how many draws a bot makes (which may follow its
    # hidden hand) never shifts another bot's. The game's own draws, chance(seed, counter) in its
    # rules, are untouched.
    rngs = [chance(seed, f"bot/seat {seat}") for seat in range(len(levels))]
    commands = 0
    moves = [0] * len(levels)
    thinking = [0.0] * len(levels)
    # the game awaits nobody once it is over (the contract): its outcome is asked once, at the end
    while awaiting := spec.awaiting(state):
        if commands >= limit:
            raise NeverEnds(spec, seed, limit, levels)
        # several seats may be awaited at once (sealed bids): each answers in turn, lowest first,
        # seeing only its own view, so the order cannot matter
        seat = min(awaiting)
        legal = spec.legal(state, seat)
        start = time.perf_counter()
        view = spec.view(state, seat) if reads_view[seat] else None
        command = bots[seat].choose(view, legal, rngs[seat])
        thinking[seat] += time.perf_counter() - start
        moves[seat] += 1
        spec.apply(state, seat, command)
        commands += 1
    outcome = spec.outcome(state)
    if outcome is None:
        raise RulesError(f"{spec.name} seed {seed} awaits nobody but is not over")
    return GameResult(outcome, commands, spec.turn(state), tuple(moves), tuple(thinking))


@dataclass
class Summary:
    levels: tuple[str, ...]
    games: int = 0
    commands: int = 0
    turns: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)  # by level position, over all games
    thinking: list[float] = field(default_factory=list)

    @property
    def ms_per_move(self) -> list[float]:
        """Each level's mean time to choose a move (its view included), in milliseconds."""
        return [1000 * t / m if m else 0.0 for t, m in zip(self.thinking, self.moves)]

    @property
    def shares(self) -> list[float]:
        """Each seat's share of wins; a shared win splits one game between its winners."""
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    @property
    def mean_commands(self) -> float:
        return self.commands / self.games if self.games else 0.0


def simulate(
    spec: Any,
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games from seeds seed, seed+1, …; seats rotate so no level keeps seat 0.
    ``progress(done)`` is called after each game. A game that does not end raises NeverEnds."""
    n = len(levels)
    summary = Summary(tuple(levels), wins=[0.0] * n, moves=[0] * n, thinking=[0.0] * n)
    start = time.perf_counter()
    for game in range(games):
        shift = game % n
        seated = [levels[(i + shift) % n] for i in range(n)]
        result = play_game(spec, seated, seed + game, options)
        winners = result.outcome.winners
        for seat in winners:
            summary.wins[(seat + shift) % n] += 1 / len(winners)
        for seat in range(n):
            summary.moves[(seat + shift) % n] += result.moves[seat]
            summary.thinking[(seat + shift) % n] += result.thinking[seat]
        summary.games += 1
        summary.commands += result.commands
        summary.turns += result.turns
        if progress is not None:
            progress(summary.games)
    summary.seconds = time.perf_counter() - start
    return summary
