"""Fit each game's ``analysis_scale`` on the analysis's own chances (see rules/core/analysis.py).

The analysis gives a command the mean over its deals of each playout's result: the mover's
share of the win where the playout reaches the end, else ``1 / (1 + e^(−lead / s))`` of the
mover's lead over its best rival by the game's estimate where it stops. That mean is what must
be calibrated, not the logistic at the position itself: averaging the logistic over deals and
playouts (and counting a finished playout 0 or 1) pulls the chances toward 50%, so a scale
fitted on the position's own lead leaves the analysis too cautious.

So: over games of the game's bot against itself (2 players, seeds from --seed, 5000 by
default: not the benchmark's, 1000 on, which checks the fit), every --stride-th decision (or
about --decisions a game, spread over it) is analysed exactly as ``analyse`` does it (the same
random numbers, the same race, --iterations per position, at the game's current scale), and
each deal's playout of the command played is recorded: its end (the share, whatever the scale) or the lead where it
stopped. A scale s then gives each decision the chance the analysis would give it, and the
fitted s is the one of least log loss against the mover's share of the win at the end of the
real game (golden-section search on log s). The race's own course (which commands it drops, so
how many deals the played one gets) also depends on the scale; that is second order and left
out: tests/benchmark.py --parts analysis checks the fitted scale on other seeds through the
analysis itself.

    .venv/bin/python tests/fit_scale.py [GAME ...] [--games N] [--stride K | --decisions D] [--iterations I]
        [--seed S] [--workers W] [--save FILE] [--load FILE]

Prints per game the fitted scale, the log loss at the game's scale and at the fitted one, and
the reliability table by tenths at both (in sample); the constant goes into the game's
``expert`` mapping (``"analysis_scale"``). ``--save`` keeps the recorded playouts (JSON) and
``--load`` fits them again without playing. A game whose playouts all reach the end (Capital
Auction: ``turns`` 0) has chances no scale changes; its scale only weighs the margin.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
from typing import Any
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


def chance(playouts: Playouts, scale: float) -> float:
    """The analysis's chance (0..1) of a decision's playouts at ``scale``."""
    total = 0.0
    for ended, value in playouts:
        total += value if ended else 1 / (1 + math.exp(max(-60.0, min(60.0, -value / scale))))
    return total / len(playouts)


def log_loss(points: list[tuple[float, Playouts]], scale: float) -> float:
    total = 0.0
    for won, playouts in points:
        p = min(1 - 1e-6, max(1e-6, chance(playouts, scale)))
        total -= won * math.log(p) + (1 - won) * math.log(1 - p)
    return total / len(points)


def fit(points: list[tuple[float, Playouts]], around: float) -> float:
    """The scale of least log loss, by golden-section search on its logarithm within a factor
    of 1000 of ``around``."""
    lo, hi = math.log(around / 1000), math.log(around * 1000)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if log_loss(points, math.exp(a)) < log_loss(points, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def tenths(points: list[tuple[float, Playouts]], scale: float) -> list[tuple[int, float]]:
    """The reliability table: per tenth of the chance, (decisions, % won)."""
    rows = [[0, 0.0] for _ in range(10)]
    for won, playouts in points:
        row = rows[min(9, int(10 * chance(playouts, scale)))]
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
    parser.add_argument("--load", help="fit the playouts of this JSON file (--save) instead of playing")
    args = parser.parse_args()
    names = args.names or sorted(rules.GAMES)
    if args.load:
        with open(args.load) as f:
            data = json.load(f)
    else:
        jobs = [(name, args.seed + k, args.iterations, args.stride, args.decisions) for name in names for k in range(args.games)]
        with multiprocessing.Pool(args.workers, initializer=os.nice, initargs=(5,)) as pool:
            done = pool.map(record, jobs, chunksize=1)
        data = {name: [] for name in names}
        for (name, *_), found in zip(jobs, done):
            data[name] += found
        if args.save:
            with open(args.save, "w") as f:
                json.dump(data, f)
    for name in names:
        found = data[name]
        points = [(won, [tuple(p) for p in playouts]) for won, playouts, _chance in found]
        now = search.settings_for(rules.GAMES[name]).analysis_scale or 1.0
        # the record is the analysis's own: at the game's scale it gives the chance it reported
        assert all(abs(100 * chance(p, now) - c) < 1e-6 for (_w, p), (*_, c) in zip(points, found))
        scale = fit(points, now)
        print(f"{name}: analysis_scale {scale:.4g} (now {now:g}; log loss {log_loss(points, scale):.4f} against "
              f"{log_loss(points, now):.4f}; {len(points)} decisions)", flush=True)
        print("  rated      decisions  won (now)   decisions  won (fitted)")
        for k, ((n0, w0), (n1, w1)) in enumerate(zip(tenths(points, now), tenths(points, scale))):
            print(f"  {10 * k:3d}–{10 * k + 10:<3d}%   {n0:9d}  {w0:5.1f}%   {n1:9d}  {w1:5.1f}%")


if __name__ == "__main__":
    main()
