"""Evaluate the expert against each game's own bot (a script, not a test).

    nice .venv/bin/python tests/expert_eval.py [--games N] [--start S0] [--seconds S] [--workers 2]
                                               [--progress] [--out FILE] [--set NAME=VALUE]
                                               [GAME ...]
    .venv/bin/python tests/expert_eval.py --summary FILE [FILE ...]

Two-player games, seeds S0..S0+N-1, the expert's seat alternating with the seed. Prints per game
(and with --progress a line as each game ends, so a long run can be read while it goes):
the expert's win rate (ties count half) with its 95% Wilson interval, its move times (median,
p95) and playouts per second, and the machine's load average.

With --out every finished game is added to FILE as a line of JSON (game, seed, the expert's
score, its move times, iterations and seconds), and games already there are not played again:
a run stopped half-way goes on where it stopped. --summary prints the figures of such files.
tests/evals/ keeps the files of the counts the README gives, without the times a move (a
count at an iteration cap, ``--set seconds=None --set iterations=N``, is timed by the load)."""

from __future__ import annotations

import argparse
import ast
import json
import math
import multiprocessing
import os
import statistics
import time

import rules
from rules.core import bots
from rules.core.search import EXPERT, ExpertBot
from rules.core.simulate import play_game


MAX_COMMANDS = 20_000  # a hundred times a long game: past this a game is taken never to end


def _one(job):
    name, seed, overrides = job
    os.nice(5) if hasattr(os, "nice") else None
    spec = rules.GAMES[name]
    expert = ExpertBot(spec, **overrides)
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
    try:
        outcome = play_game(spec, levels, seed, max_commands=MAX_COMMANDS).outcome
    except RuntimeError:  # a game that does not end: counted as lost, and shown as unfinished
        return name, seed, None, times, playouts
    winners = outcome.winners
    score = (1.0 / len(winners)) if seat in winners else 0.0
    return name, seed, score, times, playouts


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(results: dict[str, list]) -> None:
    for name, rows in results.items():
        n = len(rows)
        if not n:
            continue
        unfinished = [r["seed"] for r in rows if r["score"] is None]
        wins = sum(r["score"] or 0.0 for r in rows)
        lo, hi = wilson(wins, n)
        times = sorted(t for r in rows for t in r["times"])
        its = sum(r["iterations"] for r in rows)
        secs = sum(r["seconds"] for r in rows) or 1.0
        median = statistics.median(times) if times else 0.0
        p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
        seeds = sorted(r["seed"] for r in rows)
        # (a record kept in tests/evals/ leaves the times a move out: at an iteration cap they
        # measure the machine's load, not the expert)
        timing = (f"move median {median:.3f} s  p95 {p95:.3f} s  max {times[-1]:.3f} s" if times
                  else "times a move not kept")
        print(f"{name:16} {n:4} games (seeds {seeds[0]}-{seeds[-1]})  expert wins {wins:g} = "
              f"{wins / n:6.1%}  [{lo:.1%}, {hi:.1%}]  {timing}  iterations/s {its / secs:7.0f}"
              + (f"  unfinished (counted lost): seeds {unfinished}" if unfinished else ""))


def read(paths: list[str]) -> dict[str, list]:
    results: dict[str, dict[int, dict]] = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                results.setdefault(row["game"], {})[row["seed"]] = row
    return {name: list(rows.values()) for name, rows in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=list(rules.GAMES))
    parser.add_argument("--games", dest="count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--progress", action="store_true", help="a line as each game ends")
    parser.add_argument("--seconds", type=float, help="the budget a move (default: the game's)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="add each game to this file (JSON lines); skip those in it")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an expert setting (rules/core/search.py Settings), to try one")
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="only summarise these files")
    args = parser.parse_args()
    if args.summary:
        summarise(read(args.summary))
        return
    overrides = {}
    for setting in args.set:
        key, _, value = setting.partition("=")
        try:
            overrides[key] = ast.literal_eval(value)  # 6, 0.01, None
        except (ValueError, SyntaxError):
            overrides[key] = value  # a word: opponents=search
    if args.seconds is not None:
        overrides["seconds"] = args.seconds
    done = read([args.out]) if args.out else {}
    played = {name: {r["seed"] for r in rows} for name, rows in done.items()}
    jobs = [(name, seed, overrides) for name in args.games
            for seed in range(args.start, args.start + args.count)
            if seed not in played.get(name, ())]
    results: dict[str, list] = {name: list(done.get(name, [])) for name in args.games}
    started = time.time()
    with multiprocessing.Pool(args.workers) as pool:
        for name, seed, score, times, playouts in pool.imap_unordered(_one, jobs):
            row = {"game": name, "seed": seed, "score": score, "times": times,
                   "iterations": playouts[0], "seconds": playouts[1]}
            results[name].append(row)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
            if args.progress:
                rows = results[name]
                print(f"{name}: game {len(rows)} (seed {seed}), expert {score if score is not None else 'unfinished'}, so far "
                      f"{sum(r['score'] or 0.0 for r in rows):g}/{len(rows)}", flush=True)
    print(f"load average at the end: {os.getloadavg()}; wall {time.time() - started:.0f} s; "
          f"settings {overrides or 'as the game has them'}")
    summarise(results)


if __name__ == "__main__":
    main()
