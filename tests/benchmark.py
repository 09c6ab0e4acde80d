"""cardtable's speed figures, measured side by side in one run (a script, not a test).

    python tests/benchmark.py [--runs 7] [--games 200] [--presses 60]
        [--parts startup,keys,simulation] [--reference DIR]

Reports, with the goal of each:
- start-up to the first painted screen, cardtable's menu against a bare Textual app with a
  Header and a Footer, each a fresh process (median of --runs): ratio, goal <= 1.3;
- peak memory (max RSS) of those same processes: ratio, goal <= 1.5;
- the median time from a key press to the table repainted, on the Property and Portfolio
  tables (a hand-cursor key, and a card selection that re-highlights the board), measured from
  the key reaching the app to the next frame rendered for the terminal: goal <= 50 ms;
- commands/s and games/s of headless bot games of every registered game; with ``--reference``
  (another checkout of cardtable, e.g. the last release) the same games are played by that
  checkout's code too, interleaved with this one's in fresh processes, and the ratios printed.

Timings on a busy machine wander: this is why they live here and not in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOALS = {"startup": 1.3, "memory": 1.5, "key_ms": 50.0}


# -- child processes: start an app headless, exit at its first paint, report max RSS -------------
def child(kind: str) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header

    if kind == "bare":
        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Header()
                yield Footer()

        app: App[None] = Bare()
    else:
        from cardtable.app import CardtableApp
        from cardtable.saves import SaveStore
        from cardtable.settings import Settings

        app = CardtableApp(store=SaveStore(Path(tempfile.mkdtemp())), settings=Settings())

    display = app._display

    def exit_at_first_frame(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None and app.is_running:
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)  # what a terminal would be sent
            app.exit()

    app._display = exit_at_first_frame  # type: ignore[method-assign]
    app.run(headless=True, size=(120, 40))
    print(json.dumps({"maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))


def start_once(kind: str) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", kind], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    return seconds, json.loads(out.stdout.strip().splitlines()[-1])["maxrss_kib"]


def startup(runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {"bare": [], "cardtable": []}
    memory: dict[str, list[int]] = {"bare": [], "cardtable": []}
    start_once("bare"), start_once("cardtable")  # warm the file cache and bytecode
    for _ in range(runs):
        for kind in ("bare", "cardtable"):  # interleaved, so load drifts hit both alike
            seconds, rss = start_once(kind)
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


# -- simulation -------------------------------------------------------------------------------
def simulation(games: int) -> dict[str, dict[str, float]]:
    import rules
    from rules.core.simulate import simulate

    figures = {}
    for name, spec in sorted(rules.GAMES.items()):
        n = spec.players[0] if name != "portfolio" else 3
        for levels in ([spec.best_bot] * n, ["random"] * n):
            summary = simulate(spec, levels, games, seed=0)
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
    for _ in range(rounds):
        for figures, folder in ((mine, None), (theirs, reference)):
            for label, f in simulation_in(folder, games).items():
                figures.setdefault(label, []).append(f["commands_per_s"])
    for label in sorted(mine):
        now = statistics.median(mine[label])
        if label in theirs:
            before = statistics.median(theirs[label])
            print(f"simulation {label}: {now:,.0f} commands/s, reference {before:,.0f} → ratio "
                  f"{now / before:.2f} (median of {rounds} interleaved runs of {games} games)")
        else:
            print(f"simulation {label}: {now:,.0f} commands/s (the reference has no such game)")


def verdict(value: float, goal: float) -> str:
    return "ok" if value <= goal else "OVER GOAL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--parts", default="startup,keys,simulation",
                        help="which figures: startup, keys, simulation (comma-separated)")
    parser.add_argument("--reference", type=Path, metavar="DIR",
                        help="another cardtable checkout to compare simulation speed against")
    parser.add_argument("--child", choices=("bare", "cardtable"), help=argparse.SUPPRESS)
    parser.add_argument("--child-simulation", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.child_simulation:
        print(json.dumps(simulation(args.child_simulation)))
        return
    parts = set(args.parts.split(","))

    if "startup" in parts:
        print_startup(args.runs)
    if "keys" in parts:
        print_keys(args.presses)
    if "simulation" in parts:
        if args.reference:
            compare_simulations(args.reference, args.games)
        else:
            for label, f in simulation(args.games).items():
                print(f"simulation {label}: {f['commands_per_s']:,.0f} commands/s, {f['games_per_s']:.1f} games/s, "
                      f"{f['mean_turns']:.1f} turns a game ({args.games} games)")


def print_startup(runs: int) -> None:
    s = startup(runs)
    print(f"start-up to first paint: cardtable {s['cardtable_s'] * 1000:.0f} ms, bare Textual "
          f"{s['bare_s'] * 1000:.0f} ms → ratio {s['startup_ratio']:.2f} "
          f"(goal ≤ {GOALS['startup']}: {verdict(s['startup_ratio'], GOALS['startup'])})")
    print(f"peak memory: cardtable {s['cardtable_mib']:.1f} MiB, bare Textual {s['bare_mib']:.1f} MiB → "
          f"ratio {s['memory_ratio']:.2f} (goal ≤ {GOALS['memory']}: {verdict(s['memory_ratio'], GOALS['memory'])})")


def print_keys(presses: int) -> None:
    for game, players in (("property", ["Ann", "Cleo"]), ("portfolio", ["Ann", "Cleo", "Dan"])):
        k = asyncio.run(key_latency(game, players, presses))
        worst = max(k.values())
        print(f"key press to repaint, {game} table: hand cursor {k['cursor_ms']:.1f} ms, card selection "
              f"{k['select_ms']:.1f} ms (median of {presses}; goal ≤ {GOALS['key_ms']:.0f} ms: "
              f"{verdict(worst, GOALS['key_ms'])})")


if __name__ == "__main__":
    main()
