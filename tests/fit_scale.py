"""Fit each game's ``analysis_scale`` (and ``analysis_lead``) on the analysis's own chances.

The analysis (rules/core/analysis.py) gives a command the mean over its deals of each playout's
result: the mover's share of the win where the playout reaches the end, else
``1 / (1 + e^(−(lead + c) / s))`` of the mover's lead over its best rival by the game's estimate
where it stops, ``s`` the game's ``analysis_scale`` and ``c`` its ``analysis_lead`` (0 unless
fitted). That mean is what must be calibrated, not the logistic at the position itself:
averaging over deals and playouts (and counting a finished playout 0 or 1) changes it.

So: over games of the game's bot against itself (2 players, seeds from --seed, 5000 by
default: not the benchmark's, 1000 on), every --stride-th decision (or about --decisions a
game, spread over it) is analysed exactly as ``analyse`` does it (the same random numbers, the
same race, --iterations per position, at the game's current settings), and each deal's playout
of the command played is recorded: its end (the share, whatever the scale) or the lead where
it stopped. A scale then gives each decision the chance the analysis would give it, and the
fitted scale is the one of least log loss against the mover's share of the win at the end of
the real game (golden-section search on its logarithm); with --lead the lead is fitted with it
(where the estimate misjudges the seat with a decision to make, which no scale mends:
Portfolio, Card Stock Market). The race's own course (which commands it drops, so how many
deals the played one gets) also depends on them; that is second order and left out.

    .venv/bin/python tests/fit_scale.py [GAME ...] [--games N] [--stride K | --decisions D]
        [--iterations I] [--seed S] [--workers W] [--lead] [--save FILE] [--load FILE ...]
        [--check FILE ...]

Prints per game the fitted numbers, the log loss at the game's and at the fitted ones, and the
reliability table by tenths at both (in sample); they go into the game's ``expert`` mapping.
``--save`` keeps the recorded playouts (JSON, with the settings they were recorded at),
``--load`` fits those of one or more such files again without playing, and ``--check`` shows
the tables of other recordings, not fitted on, at the game's and the fitted numbers (the
benchmark's games: ``--seed 1000 --decisions 4 --iterations 48`` records the very decisions
tests/benchmark.py --parts analysis --calibration-decisions 4 --analysis-iterations 48 rates).
How each game's numbers were fitted and checked: the comment by its ``expert`` mapping. A game
whose playouts all reach the end (``turns`` 0) has chances that no scale changes; its scale
only weighs the margin.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
from typing import Any, Callable
from unittest import mock

import rules
from rules.core import Match, Seat
from rules.core import search
from rules.core.analysis import analyse, decisions_of
from rules.core.replay import Replay

Playouts = list[tuple[bool, float]]
"""One decision's deals: (ended, the mover's share of the win) or (not ended, the mover's lead)."""


class _Recording(search._Search):
    """The analysis's search, keeping each playout's end or lead for every command it tries."""

    made: list[_Recording] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.playouts: dict[Any, Playouts] = {}
        self._ended = False
        _Recording.made.append(self)

    def _play_out(self, state: Any, rng: Any) -> list[float]:
        rewards = super()._play_out(state, rng)
        # without an estimate an unfinished playout is an even share, whatever the scale
        self._ended = self.spec.outcome(state) is not None or self.estimate is None
        return rewards

    def iterate(self, deal: int, candidate: Any) -> float:
        reward = super().iterate(deal, candidate)
        record = (True, reward) if self._ended else (False, self._lead * self.scale)
        self.playouts.setdefault(candidate.command, []).append(record)
        return reward


def spread(decisions: list[int], seed: int, stride: int, count: int | None = None) -> list[int]:
    """The decisions of a game to analyse: every ``stride``-th, or with ``count`` about that
    many spread evenly over the game (a long game is then sampled as thinly as a short one);
    where the first falls depends on the seed."""
    if count:
        stride = max(1, len(decisions) // count)
    return decisions[seed % stride::stride][:count or None]


def record(job: tuple[str, int, int, int, int | None]) -> list[tuple[float, Playouts, float]]:
    """One game of the bot against itself, analysed at the decisions ``spread`` picks: for each,
    (the mover's share of the win at the end, the played command's playouts, its chance as the
    analysis gave it in percent)."""
    game, seed, iterations, stride, count = job
    spec = rules.GAMES[game]
    match = Match(spec, [Seat(f"bot {i + 1}", "bot") for i in range(2)], None, seed)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat))
    replay = Replay.of(match)
    positions = spread(decisions_of(replay), seed, stride, count)
    _Recording.made = []
    with mock.patch.object(search, "_Search", _Recording):
        result = analyse(replay, iterations=iterations, seed=seed, positions=positions)
    winners = match.outcome.winners
    shares = [1 / len(winners) if s in winners else 0.0 for s in range(2)]
    found = []
    for decision, searched in zip(result.decisions, _Recording.made, strict=True):
        played = match.history[decision.number - 1].command
        found.append((shares[decision.seat], searched.playouts[played], decision.chance_after))
    return found


def chance(playouts: Playouts, scale: float, lead: float = 0.0) -> float:
    """The analysis's chance (0..1) of a decision's playouts at ``scale`` (and ``analysis_lead``)."""
    total = 0.0
    for ended, value in playouts:
        total += value if ended else 1 / (1 + math.exp(max(-60.0, min(60.0, -(value + lead) / scale))))
    return total / len(playouts)


def log_loss(points: list[tuple[float, Playouts]], scale: float, lead: float = 0.0) -> float:
    total = 0.0
    for won, playouts in points:
        p = min(1 - 1e-6, max(1e-6, chance(playouts, scale, lead)))
        total -= won * math.log(p) + (1 - won) * math.log(1 - p)
    return total / len(points)


def _least(f: Callable[[float], float], lo: float, hi: float, steps: int) -> float:
    """Golden-section search: the x in lo..hi where f is least (f unimodal)."""
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(steps):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(points: list[tuple[float, Playouts]], around: float, lead: float = 0.0, steps: int = 60) -> float:
    """The scale of least log loss (at ``lead``), searched on its logarithm within a factor of
    1000 of ``around``."""
    return math.exp(_least(lambda x: log_loss(points, math.exp(x), lead), math.log(around / 1000),
                           math.log(around * 1000), steps))


def fit_with_lead(points: list[tuple[float, Playouts]], around: float) -> tuple[float, float]:
    """The scale and the lead (``analysis_lead``) of least log loss together, the lead within
    three times ``around`` either way."""
    # the inner fits to a millionth of their range, which is plenty, in half the steps
    lead = _least(lambda c: log_loss(points, fit(points, around, c, 30), c), -3 * around, 3 * around, 30)
    return fit(points, around, lead), lead


def tenths(points: list[tuple[float, Playouts]], scale: float, lead: float = 0.0) -> list[tuple[int, float]]:
    """The reliability table: per tenth of the chance, (decisions, % won)."""
    rows = [[0, 0.0] for _ in range(10)]
    for won, playouts in points:
        row = rows[min(9, int(10 * chance(playouts, scale, lead)))]
        row[0] += 1
        row[1] += won
    return [(n, 100 * w / n if n else math.nan) for n, w in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="games to fit (default: every game)")
    parser.add_argument("--games", type=int, default=40, help="bot games per game")
    parser.add_argument("--stride", type=int, default=4, help="every how many decisions one is analysed")
    parser.add_argument("--decisions", type=int, help="instead of --stride: about this many decisions a game")
    parser.add_argument("--iterations", type=int, default=96, help="the analysis's iterations per position")
    parser.add_argument("--seed", type=int, default=5000, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--save", help="keep the recorded playouts in this JSON file")
    parser.add_argument("--load", nargs="+", default=[], metavar="FILE",
                        help="fit the playouts of these JSON files (--save) instead of playing")
    parser.add_argument("--check", nargs="+", default=[], metavar="FILE",
                        help="and show the tables of these (not fitted on) at the game's numbers and the fitted ones")
    parser.add_argument("--lead", action="store_true",
                        help="fit the game's analysis_lead with the scale (a calibration map of two numbers)")
    args = parser.parse_args()
    names = args.names or sorted(rules.GAMES)
    if not args.load:
        jobs = [(name, args.seed + k, args.iterations, args.stride, args.decisions)
                for name in names for k in range(args.games)]
        with multiprocessing.Pool(args.workers, initializer=os.nice, initargs=(5,)) as pool:
            done = pool.map(record, jobs, chunksize=1)
        saved: dict[str, list[Any]] = {name: [] for name in names}
        for (name, *_), found in zip(jobs, done):
            settings = search.settings_for(rules.GAMES[name])
            saved[name] += [(won, playouts, reported, settings.analysis_scale, settings.analysis_lead)
                            for won, playouts, reported in found]
        if args.save:
            with open(args.save, "w") as f:
                json.dump(saved, f)
    data = merged([saved] if not args.load else [read(file) for file in args.load], names)
    checked = merged([read(file) for file in args.check], names)
    for name in names:
        points = data[name]
        settings = search.settings_for(rules.GAMES[name])
        now = (settings.analysis_scale or 1.0, settings.analysis_lead)
        fitted = fit_with_lead(points, now[0]) if args.lead else (fit(points, now[0]), 0.0)
        print(f"{name}: analysis_scale {fitted[0]:.4g}, analysis_lead {fitted[1]:.4g} (now {now[0]:g}, {now[1]:g}; "
              f"log loss {log_loss(points, *fitted):.4f} against {log_loss(points, *now):.4f}; "
              f"{len(points)} decisions)", flush=True)
        table(points, now, fitted)
        if checked[name]:
            print(f"  on {len(checked[name])} other decisions: log loss {log_loss(checked[name], *fitted):.4f} "
                  f"against {log_loss(checked[name], *now):.4f}")
            table(checked[name], now, fitted)


def read(file: str) -> dict[str, list[Any]]:
    with open(file) as f:
        return json.load(f)


def merged(records: list[dict[str, list[Any]]], names: list[str]) -> dict[str, list[tuple[float, Playouts]]]:
    """The decisions of recordings (as ``--save`` keeps them), each checked to give back the
    chance the analysis reported at the scale and lead it ran at: the record is the analysis's own."""
    data: dict[str, list[tuple[float, Playouts]]] = {name: [] for name in names}
    for saved in records:
        for name in names:
            for won, playouts, reported, scale, *lead in saved.get(name, ()):
                playouts = [(bool(ended), value) for ended, value in playouts]
                assert abs(100 * chance(playouts, scale, *lead) - reported) < 1e-6, name
                data[name].append((won, playouts))
    return data


def table(points: list[tuple[float, Playouts]], now: tuple[float, float], fitted: tuple[float, float]) -> None:
    print("  rated      decisions  won (now)   decisions  won (fitted)")
    for k, ((n0, w0), (n1, w1)) in enumerate(zip(tenths(points, *now), tenths(points, *fitted))):
        print(f"  {10 * k:3d}–{10 * k + 10:<3d}%   {n0:9d}  {w0:5.1f}%   {n1:9d}  {w1:5.1f}%")


if __name__ == "__main__":
    main()
