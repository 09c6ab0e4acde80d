"""Fit each game's ``analysis_scale`` (Platt scaling of the game's estimate; see
rules/core/search.py): over finished games of the game's bot against itself, the scale s that
makes ``1 / (1 + e^(−lead / s))`` the likeliest chance of winning for a seat whose estimate
leads its best rival by ``lead`` (maximum likelihood over every position and seat).

    .venv/bin/python tests/fit_scale.py [GAME ...] [--games N] [--players P]

Prints each game's scale; the constant goes into the game's ``expert`` mapping
(``"analysis_scale"``). The analysis's calibration is measured by tests/benchmark.py --parts
analysis.
"""

from __future__ import annotations

import argparse
import math

import rules
from rules.core import Match, Seat


def leads(game: str, games: int, players: int) -> list[tuple[float, float]]:
    """(lead by the estimate, share of the win at the end) for every seat at every position."""
    spec = rules.GAMES[game]
    judge = getattr(spec, "estimate", None) or spec.scores
    points: list[tuple[float, float]] = []
    for seed in range(games):
        match = Match(spec, [Seat(f"bot {i}", "bot") for i in range(players)], None, 10_000 + seed)
        seen = []
        while not match.over:
            values = judge(match.state)
            seen.append([v - max(w for o, w in enumerate(values) if o != s) for s, v in enumerate(values)])
            seat = min(match.awaiting)
            match.submit(seat, match.bot_move(seat))
        winners = match.outcome.winners
        shares = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
        points += [(lead, shares[s]) for row in seen for s, lead in enumerate(row)]
    return points


def likelihood(points: list[tuple[float, float]], scale: float) -> float:
    total = 0.0
    for lead, won in points:
        x = max(-60.0, min(60.0, lead / scale))
        p = min(1 - 1e-12, max(1e-12, 1 / (1 + math.exp(-x))))
        total += won * math.log(p) + (1 - won) * math.log(1 - p)
    return total


def fit(points: list[tuple[float, float]]) -> float:
    """The likeliest scale, by golden-section search on its logarithm."""
    lo, hi = math.log(1e-3), math.log(1e6)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if likelihood(points, math.exp(a)) > likelihood(points, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to fit (default: every game)")
    parser.add_argument("--games", dest="count", type=int, default=100, help="bot games per game")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for game in args.games or sorted(rules.GAMES):
        points = leads(game, args.count, args.players)
        scale = fit(points)
        print(f"{game}: analysis_scale {scale:.4g} ({len(points)} seat-positions over {args.count} bot games)",
              flush=True)


if __name__ == "__main__":
    main()
