"""Evaluate the expert against each game's own bot (a script, not a test).

    nice .venv/bin/python tests/expert_eval.py [--games N] [--start S0] [--seconds S] [--workers 2]
                                               [--progress] [GAME ...]

Two-player games, seeds S0..S0+N-1, the expert's seat alternating with the seed. Prints per game
(and with --progress a line as each game ends, so a long run can be read while it goes):
the expert's win rate (ties count half) with its 95% Wilson interval, its move times (median,
p95) and playouts per second, and the machine's load average."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import time

import rules
from rules.core import bots
from rules.core.search import EXPERT, ExpertBot
from rules.core.simulate import play_game


def _one(job):
    name, seed, seconds = job
    os.nice(5) if hasattr(os, "nice") else None
    spec = rules.GAMES[name]
    expert = ExpertBot(spec, seconds=seconds)
    times, playouts = [], [0, 0.0]
    choose = expert.choose

    def timed(view, legal, rng):
        t = time.perf_counter()
        command = choose(view, legal, rng)
        times.append(time.perf_counter() - t)
        if expert.last is not None:
            playouts[0] += expert.last.iterations
            playouts[1] += expert.last.seconds if hasattr(expert.last, "seconds") else times[-1]
        return command

    expert.choose = timed
    bots._EXPERTS[spec] = expert
    seat = seed % 2
    levels = [EXPERT, "bot"] if seat == 0 else ["bot", EXPERT]
    outcome = play_game(spec, levels, seed).outcome
    winners = outcome.winners
    score = (1.0 / len(winners)) if seat in winners else 0.0
    return name, score, times, playouts


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=list(rules.GAMES))
    parser.add_argument("--games", dest="count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--progress", action="store_true", help="a line as each game ends")
    parser.add_argument("--seconds", type=float, default=0.4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(name, seed, args.seconds) for name in args.games
            for seed in range(args.start, args.start + args.count)]
    results: dict[str, list] = {name: [] for name in args.games}
    started = time.time()
    with multiprocessing.Pool(args.workers) as pool:
        for name, score, times, playouts in pool.imap_unordered(_one, jobs):
            results[name].append((score, times, playouts))
            if args.progress:
                done = results[name]
                print(f"{name}: game {len(done)}, expert {score:.1f}, so far "
                      f"{sum(r[0] for r in done):.1f}/{len(done)}", flush=True)
    print(f"load average at the end: {os.getloadavg()}; wall {time.time() - started:.0f} s; "
          f"budget {args.seconds} s a move")
    for name, rows in results.items():
        n = len(rows)
        wins = sum(r[0] for r in rows)
        lo, hi = wilson(wins, n)
        times = sorted(t for r in rows for t in r[1])
        its = sum(r[2][0] for r in rows)
        secs = sum(r[2][1] for r in rows) or 1.0
        median = statistics.median(times) if times else 0.0
        p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
        print(f"{name:16} {n:4} games  expert wins {wins / n:6.1%}  [{lo:.1%}, {hi:.1%}]  "
              f"move median {median:.3f} s  p95 {p95:.3f} s  iterations/s {its / secs:7.0f}")


if __name__ == "__main__":
    main()
