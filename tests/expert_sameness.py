"""Record what the expert and the bots choose, to prove a speed-up changed none of it (a
script, not a test).

    .venv/bin/python tests/expert_sameness.py [ITERATIONS] [POSITIONS] [GAME ...]

Per game, games between the game's best bots (seeds 0…, two to four players as the game
allows): at every position each of the game's own bot levels is asked for its choice, and at
every seventh position with a choice to make the expert (``seconds=None``, ``iterations`` cap:
a pure function of the view, the legal list and the rng) for its choice and its stats; one
hash per game of all of it. Run it with the rules of two checkouts (PYTHONPATH=checkout, from
that checkout) and compare the lines."""

from __future__ import annotations

import hashlib
import sys

import rules
from rules.core.engine import chance
from rules.core.search import ExpertBot


def record(name: str, iterations: int, positions: int) -> tuple[int, int, str]:
    spec = rules.GAMES[name]
    digest = hashlib.sha256()
    expert = ExpertBot(spec, seconds=None, iterations=iterations)
    low, high = spec.players
    asked = bot_choices = seed = 0
    while asked < positions:
        state = spec.setup([f"P{i}" for i in range(low + seed % (min(high, 4) - low + 1))], None, seed)
        step = 0
        while spec.outcome(state) is None and step < 3000:
            seat = min(spec.awaiting(state))
            view, legal = spec.view(state, seat), spec.legal(state, seat)
            for level, bot in spec.bots.items():
                digest.update(repr((level, bot.choose(view, legal, chance(seed, f"b/{level}/{step}")))).encode())
                bot_choices += 1
            if step % 7 == 3 and len(legal) > 1 and asked < positions:
                command = expert.choose(view, legal, chance(seed, f"expert/{step}"))
                stats = expert.last
                digest.update(repr((command, stats.iterations, stats.playout_commands, stats.choices,
                                    stats.bot_choice)).encode())
                asked += 1
            spec.apply(state, seat, spec.bots[spec.best_bot].choose(view, legal, chance(seed, f"bot/{step}")))
            step += 1
        seed += 1
    return asked, bot_choices, digest.hexdigest()[:16]


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    positions = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    total = 0
    for name in sys.argv[3:] or sorted(rules.GAMES):
        asked, bot_choices, digest = record(name, iterations, positions)
        total += asked
        print(f"{name} {asked} expert positions, {bot_choices} bot choices, {digest}", flush=True)
    print("total expert positions", total)


if __name__ == "__main__":
    main()
