"""cardtable's speed figures, measured side by side in one run (a script, not a test).

    python tests/benchmark.py [--runs 7] [--games 200] [--presses 60] [--records 5000]
        [--parts startup,keys,record,simulation] [--reference DIR]
    python tests/benchmark.py --parts ending [--seeds 300] [--workers 2] [GAME ...]

Reports, with the goal of each:
- start-up to the first screen written to a terminal: the installed `cardtable` command (what
  a user types) against a bare Textual app with a Header, a line of text and a Footer, each
  started fresh in a 120×40 pseudo-terminal (median of --runs): ratio, goal <= 1.25;
- peak memory (max RSS) of those same processes up to that moment: ratio, goal <= 1.3;
- the median time from a key press to the table repainted, on the Property and Portfolio
  tables (a hand-cursor key, and a card selection that re-highlights the board), measured from
  the key reaching the app to the next frame rendered for the terminal: goal <= 50 ms;
- the record of finished games: 5,000 games inserted, then the stats queries timed (every
  player per game, one player, head-to-head, opponents; and opening the file, which checks it):
  goal < 100 ms for the Stats screen's queries together;
- commands/s and games/s of headless bot games of every registered game; with ``--reference``
  (another checkout of cardtable, e.g. the last release) the same games are played by that
  checkout's code too, interleaved with this one's in fresh processes, and the ratios printed;
  a game that does not end is reported as such (and the others measured all the same);
- every game ends (``--parts ending``, not run by default: eight minutes on two idle cores):
  each game's levels but the expert play one another, every pairing at every player count, over
  --seeds seeds (tests/test_ending.py plays a slice of the same table); prints the longest game
  per game and player count with its seed and seats, and whether it is within twice the game's
  ``longest`` (the figure each game states, measured so).

Timings on a busy machine wander: this is why they live here and not in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GOALS = {"startup": 1.25, "memory": 1.3, "key_ms": 50.0, "stats_ms": 100.0}


# -- start-up: the installed `cardtable` command and a bare Textual app, each in a terminal --------
BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("READY")
        yield Footer()

Bare().run()
"""


def cardtable_command() -> str:
    """The `cardtable` console script installed beside this Python (what a user runs)."""
    found = Path(sys.executable).with_name("cardtable")
    if not found.exists():
        raise SystemExit(f"no installed cardtable command beside {sys.executable}: pip install -e . first")
    return str(found)


def start_once(kind: str, folder: Path) -> tuple[float, int]:
    """Start one program in a pseudo-terminal of 120×40, as a user's terminal would, and time it
    until its first screen has been written (the menu's "New game", the bare app's "READY");
    then stop it. Returns (seconds, peak memory in KiB)."""
    import fcntl
    import pty
    import select
    import signal
    import struct
    import termios

    if kind == "bare":
        script = folder / "bare.py"
        script.write_text(BARE_APP, encoding="utf-8")
        argv, marker = [sys.executable, str(script)], b"READY"
    else:
        argv, marker = [cardtable_command()], b"New game"
    env = dict(os.environ, TERM="xterm-256color", CARDTABLE_DATA_DIR=str(folder / "data"),
               CARDTABLE_CONFIG_DIR=str(folder / "config"))
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: a 120×40 terminal, then the program
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.execve(argv[0], argv, env)
    seen = b""
    try:
        while marker not in seen:
            if time.perf_counter() - start > 30:
                raise SystemExit(f"{kind}: no first screen within 30 s")
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                seen += os.read(fd, 65536)
        seconds = time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        _pid, _status, usage = os.wait4(pid, 0)
        os.close(fd)
    return seconds, usage.ru_maxrss


def startup(runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {"bare": [], "cardtable": []}
    memory: dict[str, list[int]] = {"bare": [], "cardtable": []}
    with tempfile.TemporaryDirectory() as folder:
        start_once("bare", Path(folder)), start_once("cardtable", Path(folder))  # warm caches
        for _ in range(runs):
            for kind in ("bare", "cardtable"):  # interleaved, so load drifts hit both alike
                seconds, rss = start_once(kind, Path(folder))
                times[kind].append(seconds)
                memory[kind].append(rss)
    t = {k: statistics.median(v) for k, v in times.items()}
    m = {k: statistics.median(v) for k, v in memory.items()}
    return {
        "bare_s": t["bare"], "cardtable_s": t["cardtable"], "startup_ratio": t["cardtable"] / t["bare"],
        "bare_mib": m["bare"] / 1024, "cardtable_mib": m["cardtable"] / 1024,
        "memory_ratio": m["cardtable"] / m["bare"],
    }


# -- key press to repaint ---------------------------------------------------------------------
async def key_latency(game: str, players: list[str], presses: int) -> dict[str, float]:
    """Median ms from a key arriving (as the terminal driver delivers it) until the screen's
    next frame has been composed and rendered to the terminal's byte stream."""
    from textual import events

    import rules
    from cardtable.app import CardtableApp
    from cardtable.saves import SaveStore
    from cardtable.settings import Settings
    from rules.core import Match, Seat

    spec = rules.find_game(game)
    seats = [Seat(name) if i == 0 else Seat(name, spec.best_bot) for i, name in enumerate(players)]
    match = Match(spec, seats, seed=11)
    app = CardtableApp(store=SaveStore(Path(tempfile.mkdtemp())), settings=Settings(bot_delay=0), match=match)
    painted = asyncio.Event()
    display = app._display

    def display_and_note(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None:
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)  # headless skips what a terminal is sent
            painted.set()

    app._display = display_and_note  # type: ignore[method-assign]

    async def press(key: str, character: str | None) -> float:
        """Until the LAST frame the key caused: a selection repaints the hand, then the board."""
        await asyncio.sleep(0.1)  # let the previous key's frames settle
        painted.clear()
        start = time.perf_counter()
        app._driver.send_message(events.Key(key, character))
        try:
            await asyncio.wait_for(painted.wait(), timeout=2)
        except TimeoutError:
            raise SystemExit(f"no repaint after {key!r} on {app.screen}") from None
        last = time.perf_counter()
        while True:  # later frames within 100 ms belong to the same key
            painted.clear()
            try:
                await asyncio.wait_for(painted.wait(), timeout=0.1)
            except TimeoutError:
                return (last - start) * 1000
            last = time.perf_counter()

    cursor_ms: list[float] = []
    select_ms: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if not app.screen.query("#hand"):  # a dialog (Portfolio's draw) opened first: close it
            await pilot.press("escape")
            await pilot.pause()
        app.screen.query_one("#hand").focus()
        await pilot.pause()
        for n in range(presses):
            # right then left, so the cursor moves even in a two-card hand
            cursor_ms.append(await press("right" if n % 2 == 0 else "left", None))
            select_ms.append(await press("space", " "))
    return {"cursor_ms": statistics.median(cursor_ms), "select_ms": statistics.median(select_ms)}


# -- the record of finished games --------------------------------------------------------------
def record_figures(count: int, runs: int) -> dict[str, float]:
    """Fill a record with ``count`` games of 2–6 players from a dozen names (humans and bots,
    two games), then time what the Stats screen and `cardtable stats` ask of it, each the
    median of ``runs`` fresh opens of the file."""
    import random
    from datetime import datetime, timedelta, timezone

    from cardtable.record import GameRecord, PlayerResult, Record

    rng = random.Random(5)
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    games = []
    for n in range(count):
        seated = rng.sample(names, rng.randint(2, 6))
        scores = [rng.randrange(400) for _ in seated]
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        players = tuple(PlayerResult(name, "bot" if name in ("Cleo", "Hal") else None, rank, score)
                        for name, rank, score in zip(seated, ranks, scores))
        games.append(GameRecord(rng.choice(["property", "portfolio"]), start + timedelta(hours=n),
                                players, save_id=f"game-{n}", seed=n, moves=100, turns=40))
    times: dict[str, list[float]] = {"insert": [], "open": [], "everyone": [], "one player": [],
                                     "head-to-head": [], "opponents": [], "one more game": []}
    with tempfile.TemporaryDirectory() as folder:
        record = Record(Path(folder))
        began = time.perf_counter()
        record.add_many(games)
        times["insert"].append(time.perf_counter() - began)
        record.close()
        for _ in range(runs):
            record = Record(Path(folder))
            for label, ask in (("open", record.count), ("everyone", record.players),
                               ("one player", lambda: record.players("Ann")),
                               ("head-to-head", lambda: record.head_to_head("Ann", "Bob")),
                               ("opponents", lambda: record.opponents("Ann"))):
                began = time.perf_counter()
                ask()
                times[label].append(time.perf_counter() - began)
            # a game's end at the table: its players' standings are worked out again
            last = games[-1]
            began = time.perf_counter()
            record.add(GameRecord(last.game, last.finished + timedelta(hours=1), last.players,
                                  save_id=f"extra-{len(times['one more game'])}"))
            times["one more game"].append(time.perf_counter() - began)
            record.close()
    return {label: statistics.median(values) * 1000 for label, values in times.items()}


def print_record(count: int, runs: int) -> None:
    f = record_figures(count, runs)
    screen = f["open"] + f["everyone"] + f["opponents"]
    print(f"record of {count:,} games: inserted in {f['insert']:.0f} ms (one transaction); open and check "
          f"{f['open']:.1f} ms, every player {f['everyone']:.1f} ms, one player {f['one player']:.1f} ms, "
          f"head-to-head {f['head-to-head']:.1f} ms, opponents {f['opponents']:.1f} ms; one more game "
          f"recorded {f['one more game']:.1f} ms (medians of {runs})")
    print(f"stats screen (open, every player, opponents): {screen:.1f} ms "
          f"(goal < {GOALS['stats_ms']:.0f} ms: {'ok' if screen < GOALS['stats_ms'] else 'OVER GOAL'})")


# -- simulation -------------------------------------------------------------------------------
def simulation(games: int) -> dict[str, dict[str, Any]]:
    import rules
    from rules.core.simulate import NeverEnds, simulate

    figures: dict[str, dict[str, Any]] = {}
    for name, spec in sorted(rules.GAMES.items()):
        n = spec.players[0] if name != "portfolio" else 3
        for levels in ([spec.best_bot] * n, ["random"] * n):
            try:
                summary = simulate(spec, levels, games, seed=0)
            except NeverEnds as error:
                figures[f"{name} ({','.join(levels)})"] = {"never_ends": str(error)}
                continue
            figures[f"{name} ({','.join(levels)})"] = {
                "games_per_s": summary.games_per_second,
                "commands_per_s": summary.commands_per_second,
                "mean_turns": summary.mean_turns,
            }
    return figures


def simulation_in(folder: Path | None, games: int) -> dict[str, dict[str, float]]:
    """``simulation`` in a fresh process, with the rules of the checkout in ``folder`` (this
    one when None)."""
    env = dict(os.environ)
    if folder is not None:
        env["PYTHONPATH"] = str(folder)  # ahead of the installed (editable) cardtable
    out = subprocess.run([sys.executable, __file__, "--child-simulation", str(games)], capture_output=True,
                         text=True, check=True, env=env, cwd=folder or Path(__file__).resolve().parents[1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare_simulations(reference: Path, games: int, rounds: int = 3) -> None:
    """This checkout against ``reference``, interleaved, medians of ``rounds`` runs each."""
    mine: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {}
    never: dict[str, str] = {}
    for _ in range(rounds):
        for figures, folder in ((mine, None), (theirs, reference)):
            for label, f in simulation_in(folder, games).items():
                if "never_ends" in f:
                    never[f"{label}{'' if folder is None else ' (reference)'}"] = f["never_ends"]
                else:
                    figures.setdefault(label, []).append(f["commands_per_s"])
    for label, sentence in sorted(never.items()):
        print(f"simulation {label}: does not end: {sentence}")
    for label in sorted(mine):
        now = statistics.median(mine[label])
        if label in theirs:
            before = statistics.median(theirs[label])
            print(f"simulation {label}: {now:,.0f} commands/s, reference {before:,.0f} → ratio "
                  f"{now / before:.2f} (median of {rounds} interleaved runs of {games} games)")
        else:
            print(f"simulation {label}: {now:,.0f} commands/s (the reference has no such game)")


# -- every game ends --------------------------------------------------------------------------
SWEEP_CAP = 20_000
"""Commands after which a game of the sweep is taken never to end: far past any game's longest."""


def _sweep_one(job: tuple[str, int, list[str], int]) -> tuple[str, int, list[str], int, int | None]:
    import rules
    from rules.core.simulate import NeverEnds, play_game

    name, players, levels, seed = job
    try:
        return name, players, levels, seed, play_game(rules.GAMES[name], levels, seed, max_commands=SWEEP_CAP).commands
    except NeverEnds:
        return name, players, levels, seed, None


def print_ending(names: list[str], seeds: int, workers: int) -> None:
    """Every game of ``names``: each pairing of its levels at each player count over ``seeds``
    seeds (tests/test_ending.py's table), the longest game per player count, and whether every
    game kept within twice the game's ``longest``."""
    import rules
    from test_ending import cells, seating

    started = time.perf_counter()
    for name in names:
        spec = rules.GAMES[name]
        jobs = [(name, n, seating(pair, n, seed), seed) for seed in range(seeds) for n, pair in cells(spec)]
        began = time.perf_counter()
        lengths: dict[int, list[tuple[int, int, list[str]]]] = {}
        never: list[tuple[int, list[str]]] = []
        with multiprocessing.Pool(workers) as pool:
            for _name, n, levels, seed, commands in pool.imap_unordered(_sweep_one, jobs, chunksize=4):
                if commands is None:
                    never.append((seed, levels))
                else:
                    lengths.setdefault(n, []).append((commands, seed, levels))
        seconds = time.perf_counter() - began
        for n, games in sorted(lengths.items()):
            ordered = sorted(games)
            commands, seed, levels = ordered[-1]
            p99 = ordered[int(0.99 * (len(ordered) - 1))][0]
            mean = sum(g[0] for g in games) / len(games)
            print(f"ending {name}, {n} players: {len(games)} games, the longest {commands} commands (seed {seed}, "
                  f"seats {','.join(levels)}), 99th percentile {p99}, mean {mean:.0f}")
        longest = max((g[0] for games in lengths.values() for g in games), default=0)
        within = "within" if longest <= 2 * spec.longest else "PAST"
        print(f"ending {name}: the longest of {len(jobs)} games {longest} commands, {within} twice its stated "
              f"longest ({spec.longest}); {seconds:.0f} s")
        for seed, levels in never:
            print(f"ending {name}: seed {seed}, seats {','.join(levels)}: does not end ({SWEEP_CAP:,} commands)")
    print(f"ending: {time.perf_counter() - started:.0f} s in all, {workers} workers")


def verdict(value: float, goal: float) -> str:
    return "ok" if value <= goal else "OVER GOAL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--records", type=int, default=5000, help="games in the record benchmark")
    parser.add_argument("--parts", default="startup,keys,record,simulation",
                        help="which figures: startup, keys, record, simulation, ending (comma-separated)")
    parser.add_argument("--reference", type=Path, metavar="DIR",
                        help="another cardtable checkout to compare simulation speed against")
    parser.add_argument("--seeds", type=int, default=300, help="seeds of each game in the ending sweep")
    parser.add_argument("--workers", type=int, default=2, help="processes playing the ending sweep")
    parser.add_argument("game", nargs="*", help="the games of the ending sweep (default: every game)")
    parser.add_argument("--child-simulation", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_simulation:
        print(json.dumps(simulation(args.child_simulation)))
        return
    parts = set(args.parts.split(","))

    if "startup" in parts:
        print_startup(args.runs)
    if "keys" in parts:
        print_keys(args.presses)
    if "record" in parts:
        print_record(args.records, args.runs)
    if "simulation" in parts:
        if args.reference:
            compare_simulations(args.reference, args.games)
        else:
            for label, f in simulation(args.games).items():
                if "never_ends" in f:
                    print(f"simulation {label}: does not end: {f['never_ends']}")
                    continue
                print(f"simulation {label}: {f['commands_per_s']:,.0f} commands/s, {f['games_per_s']:.1f} games/s, "
                      f"{f['mean_turns']:.1f} turns a game ({args.games} games)")
    if "ending" in parts:
        import rules

        print_ending(args.game or sorted(rules.GAMES), args.seeds, args.workers)


def print_startup(runs: int) -> None:
    s = startup(runs)
    print(f"start-up to the first screen: the cardtable command {s['cardtable_s'] * 1000:.0f} ms, bare Textual "
          f"{s['bare_s'] * 1000:.0f} ms → ratio {s['startup_ratio']:.2f} "
          f"(goal ≤ {GOALS['startup']}: {verdict(s['startup_ratio'], GOALS['startup'])})")
    print(f"peak memory: cardtable {s['cardtable_mib']:.1f} MiB, bare Textual {s['bare_mib']:.1f} MiB → "
          f"ratio {s['memory_ratio']:.2f} (goal ≤ {GOALS['memory']}: {verdict(s['memory_ratio'], GOALS['memory'])})")


def print_keys(presses: int) -> None:
    for game, players in (("property", ["Ann", "Cleo"]), ("portfolio", ["Ann", "Cleo", "Dan"]),
                          ("stock-market", ["Ann", "Cleo", "Dan", "Eve"])):
        k = asyncio.run(key_latency(game, players, presses))
        worst = max(k.values())
        print(f"key press to repaint, {game} table: hand cursor {k['cursor_ms']:.1f} ms, card selection "
              f"{k['select_ms']:.1f} ms (median of {presses}; goal ≤ {GOALS['key_ms']:.0f} ms: "
              f"{verdict(worst, GOALS['key_ms'])})")


if __name__ == "__main__":
    main()
