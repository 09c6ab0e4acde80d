"""The monkey's long soak (a script, not a test): many seeds of keys, pastes and resizes thrown
at the app, from the main menu and from a table of each game (tests/monkey_helpers.py).

    python tests/monkey.py [--seeds 20] [--bursts 30] [--first 1] [GAME|menu ...]

Prints each run that fails, with its seed and the throws of its last burst, and a count of
runs, bursts and quits per start; exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from monkey_helpers import GAMES, SIZES, run_monkey  # noqa: E402
from pilot_helpers import guarded_state  # noqa: E402
from rules.core.match import Match  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--bursts", type=int, default=30)
    parser.add_argument("starts", nargs="*", default=["menu", *GAMES])
    args = parser.parse_args()
    # as in the app tests: never the real settings or data, and the app never reads a state
    private = tempfile.mkdtemp(prefix="cardtable-monkey-")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(private, "config")
    os.environ["XDG_DATA_HOME"] = os.path.join(private, "data")
    for variable in ("CARDTABLE_CONFIG_DIR", "CARDTABLE_DATA_DIR"):
        os.environ.pop(variable, None)
    Match.state = guarded_state()
    failures = 0
    for start in args.starts:
        began, quits, screens, moves = time.process_time(), 0, set(), []
        for seed in range(args.first, args.first + args.seeds):
            size = SIZES[seed % len(SIZES)]
            with tempfile.TemporaryDirectory() as folder:
                try:
                    monkey = asyncio.run(run_monkey(Path(folder), None if start == "menu" else start, seed,
                                                    args.bursts, size=size))
                    quits += monkey.quits
                    screens |= monkey.screens
                    moves.append(monkey.moves)
                except BaseException as error:  # a report of every failure, then the next seed
                    if isinstance(error, KeyboardInterrupt):
                        raise
                    failures += 1
                    print(f"FAIL {start} seed {seed} at {size}: {error!r}")
                    traceback.print_exc(limit=-8)
        print(f"{start}: {args.seeds} seeds × {args.bursts} bursts, {quits} quits kept open, "
              f"moves per table up to {max(moves, default=0)}, screens {sorted(screens)}, "
              f"{time.process_time() - began:.1f} s CPU", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
