"""cardtable's speed figures, measured side by side in one run (a script, not a test).

    python tests/benchmark.py [--runs 7] [--games 200] [--presses 60] [--records 5000]
        [--saves 5000] [--samples 60] [--kills 1000]
        [--idle-seconds 10]
        [--parts startup,keys,idle,growth,record,store,screens,simulation,soak] [--reference DIR]
    python tests/benchmark.py --parts ending [--seeds 300] [--workers 2] [GAME ...]
    python tests/benchmark.py --parts searched [--searched-games 200] [--workers 2] [GAME ...]
    python tests/benchmark.py --parts expert [--positions 30] [--expert-games 200] [--workers 2]
        [--reference DIR] [GAME ...]

Reports, with the goal of each:
- start-up to the first screen written to a terminal: the installed `cardtable` command (what
  a user types) against a bare Textual app with a Header, a line of text and a Footer, each
  started fresh in a 120×40 pseudo-terminal (median of --runs): ratio, goal <= 1.20;
- peak memory (max RSS) of those same processes up to that moment: ratio, goal <= 1.15; with
  ``--reference`` (another checkout with its own .venv, e.g. main) its `cardtable` command too,
  interleaved with the others;
- the median time from a key press to the table repainted, at each of the five games' tables
  (the cursor keys and a card selection, Abundance's bid keys; and at Property's, a wild pair
  handing the keys to the grid, its cursor, and back), measured from the key reaching
  the app to the LAST frame it caused rendered for the terminal: goal <= 16 ms (a 60 Hz frame);
- idle: a table waiting for its human (the installed `cardtable new GAME` in a terminal, bots
  at bot delay 0 before the human), its CPU over --idle-seconds and the bytes it writes: goal <= 1%;
- growth: an Abundance match between two bots at the table (bot delay 0, in a terminal), the
  last tenth of its moves against the first: resident memory and CPU per move, goal <= 1.2
  each; and how long after its last move was written the results were on the screen (with
  ``--reference``, that checkout's match after this one's); and the same match in a process of
  its own (a headless table) with the rubbers' sales sheet kept off the table, CPU and resident
  memory read at every move (in a terminal the sheet covers the table from the first rubber's
  end on and a move drawn under it costs less, so the terminal's ratio says little of a move's
  own cost);
- the record of finished games: 5,000 games inserted, then the stats queries timed (every
  player per game, one player, head-to-head, opponents; and opening the file, which checks it):
  goal < 100 ms for the Stats screen's queries together;
- the store of games: the saves list with 5,000 games stored (the store's list, against the JSON
  store of the version before it over the same games as files, and the saves screen opening),
  opening the database (its integrity check included), and a move written by one process as
  seen by another polling as a table does (every 0.2 s): median and p95;
- screens of one game (``screens``): a move reaching another seat's program, from the command
  written to one ``join --stdio`` process to the other's state line counting it (median and
  p95; goal <= 250 ms median); the CPU of a waiting ``join --stdio`` process and of a waiting
  table (``cardtable join`` in a pseudo-terminal) over 10 s (goal <= 1% of a core each); and 20
  screens open at once (five Property games of four seats, each seat a ``cardtable join`` in a
  pseudo-terminal): memory per screen (RSS and PSS), and their CPU together at rest;
- (``soak``, not in the default parts) a writer killed with SIGKILL at random moments, 1,000
  times: every acknowledged move kept;
- commands/s and games/s of headless bot games of every registered game (Portfolio and Capital
  Auction at 3 players), per second of CPU time, random play against its goal of 50,000
  commands/s, each game's bot's mean time to choose a move (its view included) against its goal
  of 50 ms (no test times a bot: a busy machine slows any of them); with ``--reference``
  (another checkout of cardtable, e.g. the last release) the same games are played by that
  checkout's code too, interleaved with this one's, each game in a fresh process of its own, the
  best of three runs each, and the ratios printed;
  a game that does not end is reported as such (and the others measured all the same);
- (``expert``, not in the default parts: hours at 200 games) the expert's playouts a second in
  every game, over --positions positions at its own thinking time, and its wins against the
  game's bot over --expert-games games with a 95% interval; with ``--reference`` the same with
  that checkout's rules, measured first;
- what a bot's search adds (``--parts searched``, not run by default: a minute for Capital
  Auction on two cores): each game whose bot searches (Capital Auction's) against the bot its
  search plays out with, over --searched-games two-player games (seats rotated), with a 95%
  interval; goal: more than half;
- every game ends (``--parts ending``, not run by default: eight minutes on two idle cores):
  each game's levels but the expert play one another, every pairing at every player count, over
  --seeds seeds (tests/test_ending.py plays a slice of the same table); prints the longest game
  per game and player count with its seed and seats, and whether it is within twice the game's
  ``longest`` (the figure each game states, measured so).
- the analysis (``--parts analysis``, not run by default): per game, over --analysis-games games
  of the game's bot against random play (seats alternating; from seed --analysis-seed, 0 by
  default: 100 gives a holdout for what was tuned on the first hundred), analysed at
  --analysis-iterations per position (every --analysis-stride-th decision), how often the bot gets the higher accuracy (goal: 95 in
  100); a calibration table by tenths (of the decisions rated 60–70%, how many, their mean
  rating and how often the mover won) over --calibration-games games of the bot against itself
  (seeds 1000 on; tests/fit_scale.py fits the scales on others), every
  --calibration-stride-th decision or about --calibration-decisions a game spread over it (goal:
  60–80% won at 70–80%; against random play the bot's positions are rightly won more often than
  rated, as the playouts have it play on against a bot); and the time to analyse one typical
  game at the default thinking time (not with --no-analysis-timing). Each game's figures can be
  had alone (``--parts analysis portfolio --workers 1``); the calibration alone, over many games
  thinly: ``--parts analysis abundance --analysis-games 0 --calibration-games 200
  --calibration-decisions 4 --no-analysis-timing --workers 1``.

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

GOALS = {"startup": 1.20, "memory": 1.15, "key_ms": 16.0, "stats_ms": 100.0, "move_ms": 250.0, "idle_percent": 1.0,
         "growth": 1.2, "random_commands_per_s": 50_000, "bot_move_ms": 50.0}
SIMULATED_PLAYERS = {"portfolio": 3, "capital-auction": 3}
"""Player counts of the simulations where not the game's fewest (issue 24 measured these)."""


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


def cardtable_command(reference: Path | None = None) -> str:
    """The `cardtable` console script installed beside this Python (what a user runs), or the
    one of the ``reference`` checkout's own .venv."""
    found = Path(sys.executable).with_name("cardtable") if reference is None else reference / ".venv/bin/cardtable"
    if not found.exists():
        raise SystemExit(f"no installed cardtable command at {found}: pip install -e . first")
    return str(found)


def start_once(kind: str, folder: Path, reference: Path | None = None) -> tuple[float, int]:
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
        argv, marker = [cardtable_command(reference if kind == "reference" else None)], b"New game"
    env = dict(os.environ, TERM="xterm-256color", CARDTABLE_DATA_DIR=str(folder / "data"),
               CARDTABLE_CONFIG_DIR=str(folder / "config"),
               # bytecode kept as an installed program has it (pip compiles a package as it
               # installs it; an editable one is compiled at its first start), in a folder of
               # its own so no checkout is written to: with PYTHONDONTWRITEBYTECODE (set in some
               # shells and sandboxes) cardtable's modules were compiled afresh at every start
               # while Textual's came compiled from site-packages
               PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
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


def startup(runs: int, reference: Path | None = None) -> dict[str, dict[str, float]]:
    """Per program (the bare app, this cardtable, the ``reference`` checkout's): its median
    seconds to the first screen and its median peak memory in MiB."""
    kinds = ("bare", "cardtable") + (("reference",) if reference else ())
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    memory: dict[str, list[int]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as folder:
        for kind in kinds:  # warm caches: the disk's, and the bytecode written at a first start
            start_once(kind, Path(folder), reference)
        for _ in range(runs):
            for kind in kinds:  # interleaved, so load drifts hit all alike
                seconds, rss = start_once(kind, Path(folder), reference)
                times[kind].append(seconds)
                memory[kind].append(rss)
    return {kind: {"s": statistics.median(times[kind]), "mib": statistics.median(memory[kind]) / 1024}
            for kind in kinds}


# -- key press to repaint ---------------------------------------------------------------------
KEY_TABLES: dict[str, tuple[list[str], str, list[tuple[str, str | None, str]]]] = {
    # game: (players, the widget with the keys, [(key, character, what it does) pressed in turn])
    "property": (["Ann", "Cleo"], "#hand", [("right", None, "hand cursor"), ("space", " ", "card selection")]),
    "portfolio": (["Ann", "Cleo", "Dan"], "#hand", [("right", None, "hand cursor"), ("space", " ", "card selection")]),
    "stock-market": (["Ann", "Cleo", "Dan", "Eve"], "#hand",
                     [("right", None, "hand cursor"), ("space", " ", "card selection")]),
    "capital-auction": (["Ann", "Cleo", "Dan"], "#capital",
                        [("right", None, "card cursor"), ("space", " ", "card ticked")]),
    "abundance": (["Ann", "Cleo"], "#auction", [("up", None, "bid +1"), ("down", None, "bid -1")]),
}
"""The keys timed at each game's table: the cursor keys (right then left, so the cursor moves
even in a two-card hand) and a selection, or Abundance's bid keys in an open auction."""

WILD_PAIR = (["Ann", "Cleo"], "#hand", [("space", " ", "wild pair"), ("right", None, "grid cursor"),
                                        ("escape", None, "keys back"), ("space", " ", "pair broken")])
"""Property's keys around a wild pair (``property-wild``): Ann holds 3♠ 7♥ 10♥ 9♦ 5♣, the 9♦
selected and her cursor on the 5♣; the pair made hands the keys to the grid, whose cursor moves
(right then left), the keys come back, the pair is broken."""


def key_position(game: str, players: list[str]):
    """A match of ``game`` with Ann (seat 0) human and bots after her, played by the bots (Ann's
    moves too) until Ann is awaited where her keys act: her hand in play, Abundance's open auction."""
    import rules
    from rules.core import Match, Seat, chance, get_bot

    spec = rules.find_game(game)
    seats = [Seat(name) if i == 0 else Seat(name, spec.best_bot) for i, name in enumerate(players)]
    match = Match(spec, seats, seed=11)
    bot = get_bot(spec, spec.best_bot)

    def ready() -> bool:
        if match.awaiting != {0}:
            return False
        if game == "abundance":
            return match.view(0).phase == "auction"
        return len(match.history) >= 2 * len(players)

    while not ready():
        seat = min(match.awaiting)
        match.submit(seat, bot.choose(match.view(seat), match.legal(seat), chance(11, len(match.history))))
    return match


async def key_latency(game: str, presses: int) -> dict[str, float]:
    """Median ms from a key arriving (as the terminal driver delivers it) until the screen's
    last frame it caused has been composed and rendered to the terminal's byte stream, for each
    key of KEY_TABLES[game]."""
    from textual import events

    from cardtable.app import CardtableApp
    from cardtable.store import SaveStore
    from cardtable.settings import Settings

    if game == "property-wild":
        from pilot_helpers import property_position

        players, widget, keys = WILD_PAIR
        match = property_position(["........"] * 8, ["9D", "5C", "7H", "3S", "10H"])
        setup = ["right", "right", "right", "space", "right"]
    else:
        players, widget, keys = KEY_TABLES[game]
        match, setup = key_position(game, players), []
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

    times: dict[str, list[float]] = {what: [] for _key, _character, what in keys}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if not app.screen.query(widget):  # a dialog (Portfolio's draw) opened first: close it
            await pilot.press("escape")
            await pilot.pause()
        app.screen.query_one(widget).focus()
        await pilot.pause()
        await pilot.press(*setup)
        for n in range(presses):
            for key, character, what in keys:
                if key == "right" and n % 2:
                    key = "left"
                times[what].append(await press(key, character))
    return {what: statistics.median(values) for what, values in times.items()}


# -- a table in a terminal: at rest, and over a long match between bots -------------------------
TABLE_PLAYERS = {"abundance": "Ann,bot:Cleo", "capital-auction": "Ann,bot:Cleo,bot:Dan",
                 "portfolio": "Ann,bot:Cleo,bot:Dan", "property": "Ann,bot:Cleo",
                 "stock-market": "Ann,bot:Cleo,bot:Dan,bot:Eve"}
"""The seats of each game's table in the idle part: a human first, bots after."""


class Terminal:
    """The installed `cardtable` command with ``args`` in a 120×40 pseudo-terminal, its output
    drained (and kept) as a terminal would, its CPU time and resident memory read from /proc."""

    def __init__(self, args: list[str], folder: Path, bot_delay: float, reference: Path | None = None) -> None:
        import fcntl
        import pty
        import struct
        import termios

        (folder / "config").mkdir(parents=True, exist_ok=True)
        (folder / "config" / "settings.json").write_text(json.dumps({"bot_delay": bot_delay}), encoding="utf-8")
        env = dict(os.environ, TERM="xterm-256color", CARDTABLE_DATA_DIR=str(folder / "data"),
                   CARDTABLE_CONFIG_DIR=str(folder / "config"))
        argv = [cardtable_command(reference), *args]
        self.data = folder / "data"
        self.seen = b""
        self.written = 0
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.execve(argv[0], argv, env)

    def drain(self, seconds: float) -> None:
        """Read what the program writes for ``seconds``."""
        import select

        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the program ended
                    return
                self.written += len(chunk)
                self.seen = (self.seen + chunk)[-200_000:]

    def wait_for(self, marker: bytes, seconds: float) -> bool:
        end = time.perf_counter() + seconds
        while marker not in self.seen and time.perf_counter() < end:
            self.drain(0.05)
        return marker in self.seen

    def cpu(self) -> float:
        """Seconds of CPU the program has used (user and system)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def moves(self) -> tuple[int, bool]:
        """Moves written to the store so far (of its one game), and whether the game is over."""
        import sqlite3

        path = self.data / "games.sqlite3"
        if not path.exists():
            return 0, False
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
                moves, over = db.execute("SELECT coalesce(max(moves), 0), coalesce(max(over), 0) FROM games").fetchone()
        except sqlite3.Error:
            return 0, False
        return moves, bool(over)

    def stop(self) -> None:
        import signal

        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def idle_figures(game: str, seconds: float) -> dict[str, float]:
    """A table waiting for its human (the bots before them have played): the CPU it uses and
    the bytes it writes to the terminal over ``seconds``."""
    with tempfile.TemporaryDirectory() as folder:
        term = Terminal(["new", game, "--players", TABLE_PLAYERS[game], "--seed", "3"], Path(folder), bot_delay=0)
        try:
            if not term.wait_for(b"Your move", 60):
                raise SystemExit(f"idle: the {game} table never waited for its human")
            term.drain(2.0)  # the last frames of the bots' moves, the footer, the focus
            cpu, written = term.cpu(), term.written
            term.drain(seconds)
            return {"cpu_percent": (term.cpu() - cpu) / seconds * 100, "bytes": term.written - written,
                    "rss_mib": term.rss_mib()}
        finally:
            term.stop()


def print_idle(seconds: float) -> None:
    figures = {game: idle_figures(game, seconds) for game in sorted(TABLE_PLAYERS)}
    worst = max(f["cpu_percent"] for f in figures.values())
    each = ", ".join(f"{game} {f['cpu_percent']:.1f}% ({f['bytes']:,} bytes written, {f['rss_mib']:.0f} MiB)"
                     for game, f in figures.items())
    print(f"idle: {worst:.1f}% CPU at most, a table waiting for a human over {seconds:g} s in a terminal: "
          f"{each} (goal ≤ {GOALS['idle_percent']:g}%: {verdict(worst, GOALS['idle_percent'])})")


def growth_figures(seed: int, limit: float, reference: Path | None = None) -> dict[str, float]:
    """An Abundance match between two bots at the table (bot delay 0), sampled as it goes: the
    moves in the store, the program's CPU time and resident memory. The first tenth of its moves
    against the last: memory (mean resident) and CPU per move; and how long after the last move
    was written the results were on the screen."""
    with tempfile.TemporaryDirectory() as folder:
        term = Terminal(["new", "abundance", "--players", "bot:Ann,bot:Bob", "--seed", str(seed)], Path(folder),
                        bot_delay=0, reference=reference)
        samples: list[tuple[float, int, float, float]] = []  # (time, moves, cpu, rss)
        began = time.perf_counter()
        try:
            over_at = None
            while time.perf_counter() - began < limit:
                term.drain(0.1)
                moves, over = term.moves()
                samples.append((time.perf_counter(), moves, term.cpu(), term.rss_mib()))
                if over and over_at is None:
                    over_at = time.perf_counter()
                if over_at is not None and b"Final table" in term.seen:
                    break
            shown = time.perf_counter()
        finally:
            term.stop()
    total = samples[-1][1]
    if over_at is None:
        return {"unfinished": total, "seconds": limit}

    def tenth(low: float, high: float) -> tuple[float, float]:
        inside = [s for s in samples if low <= s[1] <= high]
        first = max((s for s in samples if s[1] <= low), key=lambda s: s[1], default=samples[0])
        last = min((s for s in samples if s[1] >= high), key=lambda s: s[1])
        per_move = (last[2] - first[2]) / max(1, last[1] - first[1])
        return statistics.mean(s[3] for s in inside or [last]), per_move * 1000

    first_mib, first_ms = tenth(0, total / 10)
    last_mib, last_ms = tenth(total * 0.9, total)
    return {"moves": total, "first_mib": first_mib, "last_mib": last_mib, "first_ms": first_ms,
            "last_ms": last_ms, "seconds": over_at - began, "shown_s": shown - over_at}


SHEET_OFF_GROWTH = """
import asyncio, json, os, sys, tempfile, time
from pathlib import Path
import rules
from rules.core import Match, Seat
from cardtable.app import CardtableApp
from cardtable.games.abundance.table import AbundanceTable
from cardtable.settings import Settings
from cardtable.store import SaveStore

AbundanceTable._show_rubber = lambda self: setattr(self, "_rubber_due", None)  # the sheet kept off
PAGE = os.sysconf("SC_PAGE_SIZE") / 2**20

async def main(seed, limit):
    match = Match(rules.find_game("abundance"), [Seat("Ann", "bot"), Seat("Bob", "bot")], seed=seed)
    store = SaveStore(Path(tempfile.mkdtemp()))
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    stamps = []  # (CPU seconds, resident MiB) at every move
    statm = open("/proc/self/statm")

    def note(match, update):
        statm.seek(0)
        stamps.append((time.process_time(), int(statm.read().split()[1]) * PAGE))

    match.subscribe(note)
    began = time.perf_counter()
    error = None
    try:
        async with app.run_test(size=(120, 40)):
            while not match.over and time.perf_counter() - began < limit:
                await asyncio.sleep(0.1)
    except Exception as exc:  # said beside the figures (checkouts before 2026-11-26 raised as the results opened)
        error = f"{type(exc).__name__}: {exc}"
    print(json.dumps({"moves": len(stamps), "over": match.over, "stamps": stamps, "error": error}))

asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
"""
"""The growth match at a headless table in a process of its own, the rubbers' sales sheet kept
off the table (pushed over it in a terminal, it stays there to the end of a match between bots)."""


def sheet_off_figures(seed: int, limit: float, reference: Path | None = None) -> dict[str, float]:
    """``SHEET_OFF_GROWTH`` run by this checkout's Python, or by the ``reference`` checkout's own:
    CPU per move and mean resident memory over the first tenth of the moves and the last."""
    python = sys.executable if reference is None else str(reference / ".venv/bin/python")
    out = subprocess.run([python, "-c", SHEET_OFF_GROWTH, str(seed), str(limit)], capture_output=True, text=True,
                         check=True, cwd=reference or Path(__file__).resolve().parents[1])
    g = json.loads(out.stdout.strip().splitlines()[-1])
    stamps, total = g["stamps"], g["moves"]
    if not g["over"]:
        return {"unfinished": total, "seconds": limit, "error": g.get("error")}

    def tenth(low: int, high: int) -> tuple[float, float]:
        return (statistics.mean(mib for _cpu, mib in stamps[low:high + 1]),
                (stamps[high][0] - stamps[low][0]) / (high - low) * 1000)

    first_mib, first_ms = tenth(0, total // 10)
    last_mib, last_ms = tenth(total - 1 - total // 10, total - 1)
    return {"moves": total, "first_mib": first_mib, "last_mib": last_mib, "first_ms": first_ms, "last_ms": last_ms,
            "error": g.get("error")}


def print_growth(seed: int = 1, limit: float = 900, reference: Path | None = None) -> None:
    """This checkout's figures, then (with ``reference``) that checkout's, one match after the other,
    each beside the same match with the sales sheet kept off."""
    for label, folder in (("growth", None), ("growth (reference)", reference)):
        if label == "growth" or folder is not None:
            print_growth_of(label, growth_figures(seed, limit, folder), limit)
            print_sheet_off(label, sheet_off_figures(seed, limit, folder), limit)


def print_sheet_off(label: str, g: dict[str, float], limit: float) -> None:
    label = f"{label[:-1]}, sales sheet off)" if label.endswith(")") else f"{label} (sales sheet off)"
    if g.get("error"):
        print(f"{label}: the table raised {g['error']} as the app closed")
    if "unfinished" in g:
        print(f"{label}: the Abundance match between bots did not end at a headless table within {limit:g} s "
              f"({g['unfinished']} moves played)")
        return
    memory, move = g["last_mib"] / g["first_mib"], g["last_ms"] / g["first_ms"]
    print(f"{label}: memory ×{memory:.2f}, bot move time ×{move:.2f} (the same match at a headless 120×40 table "
          f"in a process of its own, the rubbers' sales sheet kept off the table, {g['moves']} moves: "
          f"{g['first_mib']:.0f} → {g['last_mib']:.0f} MiB, {g['first_ms']:.1f} → {g['last_ms']:.1f} ms CPU a move; "
          f"goal ≤ {GOALS['growth']}: {verdict(max(memory, move), GOALS['growth'])})")


def print_growth_of(label: str, g: dict[str, float], limit: float) -> None:
    if "unfinished" in g:
        print(f"{label}: the Abundance match between bots did not end at the table within {limit:g} s "
              f"({g['unfinished']} moves written)")
        return
    memory, move = g["last_mib"] / g["first_mib"], g["last_ms"] / g["first_ms"]
    worst = max(memory, move)
    print(f"{label}: memory ×{memory:.2f}, bot move time ×{move:.2f} (last tenth over first tenth of an Abundance "
          f"match between bots at the table, bot delay 0, {g['moves']} moves: {g['first_mib']:.0f} → "
          f"{g['last_mib']:.0f} MiB, {g['first_ms']:.1f} → {g['last_ms']:.1f} ms CPU a move; the match took "
          f"{g['seconds']:.1f} s, its results on screen {g['shown_s']:.1f} s after the last move was written; "
          f"goal ≤ {GOALS['growth']}: {verdict(worst, GOALS['growth'])})")


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


# -- the store of games -------------------------------------------------------------------------
JSON_STORE = "cd22a4db213401145622b4d7e25cb88128d901de"
"""The last commit with the JSON store (cardtable/saves.py): the list it is measured against."""


def sample_games(count: int) -> list:
    """``count`` matches of every game, played by random bots to random lengths (some to the end)."""
    import random

    import rules
    from rules.core import Match, Seat

    rng = random.Random(7)
    matches = []
    for n in range(count):
        spec = rules.GAMES[sorted(rules.GAMES)[n % len(rules.GAMES)]]
        match = Match(spec, [Seat("Ann", "random"), Seat("Bob", "random")], seed=n)
        for _ in range(rng.choice([5, 40, 120, 10_000])):
            if match.over:
                break
            seat = min(match.awaiting)
            match.submit(seat, match.bot_move(seat))
        matches.append(match)
    return matches


def json_store_module():
    """The JSON store of ``JSON_STORE``, loaded from git; None where git or the commit is missing."""
    import importlib.util

    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run(["git", "-C", str(repo), "show", f"{JSON_STORE}:cardtable/saves.py"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None
    path = Path(tempfile.mkdtemp()) / "json_saves.py"
    path.write_text(done.stdout, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("json_saves", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look themselves up there)
    spec.loader.exec_module(module)
    return module


def store_figures(count: int, runs: int) -> dict[str, float]:
    """The saves list with ``count`` games: the store's list and first open (each the median of
    ``runs`` fresh stores), the JSON store's list of the same games as files, the saves screen."""
    from cardtable.store import SaveStore
    from cardtable.store.files import game_file, game_text

    matches = sample_games(40)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "data"
        store = SaveStore(root)
        connection = store._db()
        began = time.perf_counter()
        for n in range(count):  # many copies of 40 real games, each under an id of its own
            store.create(matches[n % len(matches)])
        figures["fill_s"] = time.perf_counter() - began
        figures["size_mib"] = store.path.stat().st_size / 2**20
        del connection
        store.close()
        opens, lists = [], []
        for _ in range(runs):
            store = SaveStore(root)
            began = time.perf_counter()
            store._db()
            opens.append(time.perf_counter() - began)
            began = time.perf_counter()
            infos = store.list()
            lists.append(time.perf_counter() - began)
            assert len(infos) == count
            store.close()
        figures["open_ms"] = statistics.median(opens) * 1000
        figures["list_ms"] = statistics.median(lists) * 1000
        figures["screen_ms"] = asyncio.run(saves_screen_ms(root))

        old = json_store_module()
        if old is not None:
            saves = Path(folder) / "json" / "saves"
            saves.mkdir(parents=True)
            for n in range(count):
                match = matches[n % len(matches)]
                (saves / f"game-{n:05}.json").write_text(
                    game_text(game_file(match, "2026-01-01T10:00:00+00:00", "2026-01-02T10:00:00+00:00")),
                    encoding="utf-8")
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                assert len(old.SaveStore(saves.parent).list()) == count
                times.append(time.perf_counter() - began)
            figures["json_list_ms"] = statistics.median(times) * 1000
    return figures


async def saves_screen_ms(root: Path) -> float:
    """From pressing r on the menu to the saves screen drawn with every game (one run)."""
    from cardtable.app import CardtableApp
    from cardtable.screens.resume import ResumeScreen, SavesList
    from cardtable.settings import Settings
    from cardtable.store import SaveStore

    app = CardtableApp(store=SaveStore(root), settings=Settings(bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        began = time.perf_counter()
        await pilot.press("r")
        while not (isinstance(app.screen, ResumeScreen) and app.screen.query_one(SavesList).option_count):
            await pilot.pause()
        await pilot.pause()
        return (time.perf_counter() - began) * 1000


WRITER = r"""
import sys, time
from cardtable.store import SaveStore
store = SaveStore(sys.argv[1])
game_id = sys.argv[2]
match = store.load(game_id)
for line in sys.stdin:
    seat = min(match.awaiting)
    store.play(game_id, match, seat, match.bot_move(seat))
    print(time.monotonic(), flush=True)  # committed: CLOCK_MONOTONIC is one clock for every process
"""


def seen_figures(samples: int, poll: float) -> dict[str, float]:
    """A move written by one process, seen by another that polls every ``poll`` seconds as a
    table does: the times from the commit to the reader's match holding the move (the writer
    is told to move at random moments of the reader's polling), and the cost of a look that
    finds nothing new."""
    import random

    import rules
    from cardtable.store import SaveStore
    from rules.core import Match, Seat

    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        store = SaveStore(root)
        match = Match(rules.find_game("abundance"), [Seat("Ann", "random"), Seat("Bob", "random")], seed=1)
        game_id = store.create(match)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(root), game_id], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        idle = []
        for _ in range(200):
            began = time.perf_counter()
            store.sync(game_id, match)
            idle.append(time.perf_counter() - began)
        seen = []
        next_look = time.monotonic()
        try:
            for _ in range(samples):
                time.sleep(rng.uniform(0, poll))
                writer.stdin.write("go\n")
                writer.stdin.flush()
                committed = float(writer.stdout.readline())
                while True:
                    now = time.monotonic()
                    if now < next_look:
                        time.sleep(next_look - now)
                    next_look = max(next_look + poll, time.monotonic())
                    if store.sync(game_id, match):
                        seen.append(time.monotonic() - committed)
                        break
        finally:
            writer.stdin.close()
            writer.wait(timeout=60)
            store.close()
    seen.sort()
    return {"median_ms": statistics.median(seen) * 1000, "p95_ms": seen[int(0.95 * (len(seen) - 1))] * 1000,
            "idle_us": statistics.median(idle) * 1e6}


def print_store(count: int, runs: int, samples: int) -> None:
    from cardtable.screens.table import POLL_SECONDS

    f = store_figures(count, runs)
    before = f" (JSON store was {f['json_list_ms']:.0f} ms)" if "json_list_ms" in f else " (no JSON store to compare)"
    print(f"saves list with {count} games: {f['list_ms']:.0f} ms{before}; opening the database and its check "
          f"{f['open_ms']:.0f} ms; the saves screen drawn {f['screen_ms']:.0f} ms ({f['size_mib']:.1f} MiB, "
          f"filled in {f['fill_s']:.1f} s; medians of {runs})")
    s = seen_figures(samples, POLL_SECONDS)
    print(f"move seen by another process: median {s['median_ms']:.0f} ms, p95 {s['p95_ms']:.0f} ms (polling every "
          f"{POLL_SECONDS:g} s as a table does; a look that finds nothing costs {s['idle_us']:.0f} µs; {samples} moves)")


def print_soak(kills: int) -> None:
    """The kill test of tests/test_store_kills.py, ``kills`` times."""
    import random
    import signal

    from test_store_kills import CHILD, Told, check

    rng = random.Random(1)
    acknowledged: dict[str, list[list]] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "data"
        began = time.perf_counter()
        for _ in range(kills):
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(root)], stdout=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0, 0.6))  # a random moment: starting, replaying, writing
            child.send_signal(signal.SIGKILL)
            out, _ = child.communicate(timeout=60)
            told = Told(root, acknowledged)
            for line in out.splitlines(keepends=True):
                told.take(line)  # a line the kill cut short is not acknowledged
            check(root, acknowledged)
        moves = sum(len(moves) for moves in acknowledged.values())
    print(f"kill -9 soak: {kills} kills at random moments, {moves} acknowledged moves in {len(acknowledged)} games, "
          f"every one kept ({time.perf_counter() - began:.0f} s)")


# -- simulation -------------------------------------------------------------------------------
def simulation(games: int, only: str | None = None) -> dict[str, dict[str, Any]]:
    """Each game's bot games and random games (or ``only`` that game's): per second of this
    process's CPU time, which the other programs of a busy machine do not count (its wall-clock
    time they do)."""
    import rules
    from rules.core.simulate import NeverEnds, simulate

    figures: dict[str, dict[str, Any]] = {}
    for name, spec in sorted(rules.GAMES.items()):
        if only is not None and name != only:
            continue
        n = SIMULATED_PLAYERS.get(name, spec.players[0])
        for levels in ([spec.best_bot] * n, ["random"] * n):
            began = time.process_time()
            try:
                summary = simulate(spec, levels, games, seed=0)
            except NeverEnds as error:
                figures[f"{name} ({','.join(levels)})"] = {"never_ends": str(error)}
                continue
            cpu = time.process_time() - began
            figures[f"{name} ({','.join(levels)})"] = {
                "games_per_s": summary.games / cpu,
                "commands_per_s": summary.commands / cpu,
                "mean_turns": summary.mean_turns,
                "ms_per_move": summary.ms_per_move[0],  # (every seat plays the same level)
            }
    return figures


def simulation_in(folder: Path | None, games: int, names: list[str] | None = None) -> dict[str, dict[str, float]]:
    """``simulation`` with the rules of the checkout in ``folder`` (this one when None), each
    game in a fresh process of its own: what one game leaves alive (a cache, a memo) makes every
    full garbage collection of a later game in the same process slower, which is no measure of
    the later game (Property's bot games read 10% slower played after Portfolio's)."""
    import rules

    env = dict(os.environ)
    if folder is not None:
        env["PYTHONPATH"] = str(folder)  # ahead of the installed (editable) cardtable
    figures: dict[str, dict[str, float]] = {}
    for name in names or sorted(rules.GAMES):
        out = subprocess.run([sys.executable, __file__, "--child-simulation", str(games), name],
                             capture_output=True, text=True, check=True, env=env,
                             cwd=folder or Path(__file__).resolve().parents[1])
        figures.update(json.loads(out.stdout.strip().splitlines()[-1]))
    return figures


def random_goal(label: str, commands_per_s: float) -> str:
    """The goal of random play (every game at least 50,000 commands/s), said after its line."""
    if "(random," not in label:
        return ""
    goal = GOALS["random_commands_per_s"]
    return f"; goal ≥ {goal:,}: {'ok' if commands_per_s >= goal else 'SHORT'}"


def bot_goal(label: str, ms_per_move: float) -> str:
    """A bot's mean time to choose (its view included) against its goal, said after its line."""
    if "(random," in label:
        return ""
    goal = GOALS["bot_move_ms"]
    return f"; the bot's mean move {ms_per_move:.2f} ms, goal ≤ {goal:.0f}: {'ok' if ms_per_move <= goal else 'SLOW'}"


def compare_simulations(reference: Path, games: int, names: list[str] | None = None, rounds: int = 3) -> None:
    """This checkout against ``reference``, interleaved, the best of ``rounds`` runs each (a
    busy machine only ever slows a run down)."""
    mine: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {}
    never: dict[str, str] = {}
    for _ in range(rounds):
        for figures, folder in ((mine, None), (theirs, reference)):
            for label, f in simulation_in(folder, games, names).items():
                if "never_ends" in f:
                    never[f"{label}{'' if folder is None else ' (reference)'}"] = f["never_ends"]
                else:
                    figures.setdefault(label, []).append(f["commands_per_s"])
    for label, sentence in sorted(never.items()):
        print(f"simulation {label}: does not end: {sentence}")
    for label in sorted(mine):
        now = max(mine[label])
        if label in theirs:
            before = max(theirs[label])
            print(f"simulation {label}: {now:,.0f} commands/s, reference {before:,.0f} → ratio "
                  f"{now / before:.2f} (CPU time, best of {rounds} interleaved runs of {games} games)"
                  + random_goal(label, now))
        else:
            print(f"simulation {label}: {now:,.0f} commands/s (the reference has no such game)")


# -- the expert -------------------------------------------------------------------------------
def expert_figures(positions: int, games: int, workers: int, names: list[str]) -> dict[str, dict[str, Any]]:
    """The expert in every game: how fast it searches, and how often it beats the game's bot.

    Speed: it thinks at its own budget on ``positions`` positions of two-player games between
    the game's bots (seeds 0, 1, …; every third decision of seat 0 with a choice to make), and
    its iterations (a command tried on a deal and played out: the README's playouts) and the
    commands of its playouts are counted per second of thinking, and per second of this
    process's CPU time too (the budget is wall-clock: on a busy machine it gets less of the
    CPU, which the CPU figure does not count). Strength: ``games`` games
    against the game's bot (tests/expert_eval.py: seeds 0…, seats alternating, a shared win
    counting its share), on ``workers`` processes, at the game's own thinking time. ``names``:
    the games (every game when empty)."""
    import rules
    from expert_eval import _one, wilson
    from rules.core.bots import get_bot
    from rules.core.engine import chance
    from rules.core.search import ExpertBot

    names = sorted(names or rules.GAMES)
    figures: dict[str, dict[str, Any]] = {}
    for name in names:
        spec = rules.GAMES[name]
        expert, bot = ExpertBot(spec), get_bot(spec, spec.best_bot)
        iterations = commands = asked = seed = 0
        seconds = cpu = 0.0
        while asked < positions:
            state = spec.setup(["A", "B"], None, seed)
            step = 0
            while spec.outcome(state) is None and asked < positions:
                seat = min(spec.awaiting(state))
                view, legal = spec.view(state, seat), spec.legal(state, seat)
                if seat == 0 and step % 3 == 0 and len(legal) > 1:
                    began = time.process_time()
                    expert.choose(view, legal, chance(seed, f"expert/{step}"))
                    cpu += time.process_time() - began
                    iterations += expert.last.iterations
                    commands += expert.last.playout_commands
                    seconds += expert.last.seconds
                    asked += 1
                spec.apply(state, seat, bot.choose(view, legal, chance(seed, f"bot/{step}")))
                step += 1
            seed += 1
        figures[name] = {"playouts_per_s": iterations / seconds, "playout_commands_per_s": commands / seconds,
                         "playouts_per_cpu_s": iterations / cpu, "positions": asked}
    if games:
        jobs = [(name, seed, {}) for name in names for seed in range(games)]
        scores: dict[str, list[float]] = {}
        times: dict[str, list[float]] = {}
        unfinished: dict[str, int] = {}
        with multiprocessing.Pool(workers) as pool:
            for name, _seed, score, moves, _playouts in pool.imap_unordered(_one, jobs):
                scores.setdefault(name, []).append(score or 0.0)
                times.setdefault(name, []).extend(moves)
                unfinished[name] = unfinished.get(name, 0) + (score is None)
        for name, got in scores.items():
            low, high = wilson(sum(got), len(got))
            ordered = sorted(times[name]) or [0.0]
            figures[name].update(wins=sum(got), games=len(got), low=low, high=high, unfinished=unfinished[name],
                                 median_s=statistics.median(ordered), p95_s=ordered[int(0.95 * (len(ordered) - 1))])
    return figures


def expert_in(folder: Path | None, positions: int, games: int, workers: int,
              names: list[str]) -> dict[str, dict[str, Any]]:
    """``expert_figures`` in a fresh process, with the rules of the checkout in ``folder`` (this
    one when None); the tests folder is this checkout's either way (the same evaluation)."""
    env = dict(os.environ)
    here = Path(__file__).resolve().parent
    if folder is not None:
        env["PYTHONPATH"] = f"{folder}{os.pathsep}{here}"
    out = subprocess.run([sys.executable, __file__, "--child-expert", f"{positions},{games},{workers}", *names],
                         capture_output=True, text=True, check=True, env=env, cwd=folder or here.parent)
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_expert(positions: int, games: int, workers: int, reference: Path | None, names: list[str]) -> None:
    """The expert's figures, and with ``reference`` the same measured with that checkout's rules
    just before (one after the other: the expert thinks by the clock, so they may not share the
    cores)."""
    theirs = expert_in(reference, positions, games, workers, names) if reference else {}
    mine = expert_in(None, positions, games, workers, names)
    for name, f in mine.items():
        before = theirs.get(name)
        speed = (f"{f['playouts_per_s']:,.0f} playouts/s ({f['playout_commands_per_s']:,.0f} playout commands/s), "
                 f"{f['playouts_per_cpu_s']:,.0f} per CPU second")
        if before:
            speed += (f"; reference {before['playouts_per_s']:,.0f} ({before['playout_commands_per_s']:,.0f}), "
                      f"{before['playouts_per_cpu_s']:,.0f} per CPU second → ratio "
                      f"{f['playouts_per_s'] / before['playouts_per_s']:.2f}, per CPU second "
                      f"{f['playouts_per_cpu_s'] / before['playouts_per_cpu_s']:.2f}")
        print(f"expert {name}: {speed}, over {f['positions']} positions at its thinking time")
        for label, g in (("", f), (" (reference)", before)):
            if g and "games" in g:
                print(f"expert {name}{label} against its bot: wins {g['wins']:g} of {g['games']} = {g['wins'] / g['games']:.1%} "
                      f"[{g['low']:.1%}–{g['high']:.1%}] (95%), moves median {g['median_s']:.2f} s, p95 {g['p95_s']:.2f} s"
                      + (f", {g['unfinished']} unfinished (counted lost)" if g["unfinished"] else ""))


# -- what a bot's search adds ------------------------------------------------------------------
PLAYED_OUT = "played-out"
"""The level a searching bot's playout bot plays at, in this benchmark's games."""


def _searched_games(job: tuple[str, int, int]) -> float:
    """Wins of the game's bot in ``games`` two-player games from ``seed`` against the bot it
    plays out with (a shared win counts its share)."""
    import rules
    from rules.core.baseline import played_out
    from rules.core.simulate import simulate

    name, seed, games = job
    spec = rules.GAMES[name]
    spec.bots[PLAYED_OUT] = played_out(spec.bots[spec.best_bot])  # (this process's registry only)
    return simulate(spec, [spec.best_bot, PLAYED_OUT], games, seed=seed).wins[0]


def print_searched(names: list[str], games: int, workers: int) -> None:
    """Each game whose bot searches (its playouts played by another bot, ``played_out``): the
    bot against that bot alone over ``games`` two-player games from seed 0, seats rotated (the
    games of ``simulate``), with a 95% interval: what the search adds (goal: more than half)."""
    import rules
    from expert_eval import wilson
    from rules.core.baseline import played_out

    for name in names:
        spec = rules.GAMES[name]
        bot = spec.bots[spec.best_bot]
        if played_out(bot) is bot:
            print(f"searched {name}: its bot does not search")
            continue
        began = time.perf_counter()
        # in tens from even seeds: each game's seats are rotated as in one run of ``simulate``
        jobs = [(name, seed, min(10, games - seed)) for seed in range(0, games, 10)]
        with multiprocessing.Pool(workers) as pool:
            wins = sum(pool.map(_searched_games, jobs))
        low, high = wilson(wins, games)
        share = wins / games if games else 0.0
        print(f"searched {name}: the bot against the bot its search plays out with "
              f"({type(played_out(bot)).__name__}): {wins:g} of {games} two-player games = {share:.1%} "
              f"[{low:.1%}–{high:.1%}] (95%), goal > 50%: {'ok' if low > 0.5 else 'SHORT'} "
              f"({time.perf_counter() - began:.0f} s)")


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


# -- screens of one game: programs at seats, tables at rest, twenty screens at once ----------------
def _cpu_seconds(pid: int) -> float:
    """User and system CPU time a running process has used (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a running process in KiB: PSS shares the pages it shares with the others."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif line.startswith("Pss:"):
            pss = int(line.split()[1])
    return rss, pss


def _remote_game(root: Path, game: str, names: list[str], seed: int = 1) -> dict:
    """A stored game whose every seat is remote; its codes (seat, None for spectators)."""
    import rules
    from cardtable.store import SaveStore
    from rules.core import Match, Seat

    store = SaveStore(root)
    try:
        game_id = store.create(Match(rules.find_game(game), [Seat(n) for n in names], seed=seed), range(len(names)))
        return store.codes(game_id)
    finally:
        store.close()


class _Terminal:
    """``cardtable join CODE`` in a 100×30 pseudo-terminal, its output read and dropped (a table
    that cannot write would stall); ``seen`` keeps the last 64 KiB."""

    def __init__(self, root: Path, code: str) -> None:
        import fcntl
        import pty
        import struct
        import termios

        argv = [cardtable_command(), "--data-dir", str(root), "join", code]
        env = dict(os.environ, TERM="xterm-256color", CARDTABLE_CONFIG_DIR=str(root / "config"))
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            os.execve(argv[0], argv, env)
        self.seen = b""

    def drain(self) -> None:
        try:
            self.seen = (self.seen + os.read(self.fd, 65536))[-65536:]
        except OSError:
            pass

    def close(self) -> None:
        import signal

        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def _wait_drawn(terminals: list[_Terminal], marker: bytes, timeout: float = 120.0) -> None:
    import select

    deadline = time.monotonic() + timeout
    waiting = list(terminals)
    while waiting:
        if time.monotonic() > deadline:
            raise SystemExit(f"{len(waiting)} tables never drew their seat")
        ready, _, _ = select.select([t.fd for t in terminals], [], [], 0.5)
        for terminal in terminals:
            if terminal.fd in ready:
                terminal.drain()
        waiting = [t for t in waiting if marker not in t.seen]


def _idle_cpu(pids: list[int], seconds: float, terminals: list[_Terminal] = ()) -> list[float]:
    """The share of one core each process used over ``seconds`` of rest."""
    import select

    before = [_cpu_seconds(pid) for pid in pids]
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if terminals:
            ready, _, _ = select.select([t.fd for t in terminals], [], [], min(left, 0.5))
            for terminal in terminals:
                if terminal.fd in ready:
                    terminal.drain()
        else:
            time.sleep(left)
    return [(_cpu_seconds(pid) - start) / seconds for pid, start in zip(pids, before)]


def move_reaching_a_program(samples: int) -> dict[str, float]:
    """Two ``join --stdio`` processes on one Property game: from a command written to the
    awaited seat's process to the other process's state line counting it, the command sent at
    a random moment of the other's polling."""
    import random

    from cardtable.stdio import POLL_SECONDS
    from stdio_helpers import SeatProcess

    rng = random.Random(5)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        while len(times) < samples:
            codes = _remote_game(root, "property", ["Ann", "Bob"], seed=len(times))
            seats = [SeatProcess(root, codes[0]), SeatProcess(root, codes[1])]
            try:
                states = [seat.until(lambda m: m["type"] == "state") for seat in seats]
                while len(times) < samples and not any(m["type"] == "over" for m in states):
                    mover = next(i for i, m in enumerate(states) if m["awaiting"])
                    moves = states[mover]["moves"]
                    time.sleep(rng.uniform(0, POLL_SECONDS))
                    began = time.monotonic()
                    seats[mover].send(rng.choice(states[mover]["legal"]) + "\n")
                    other = seats[1 - mover].until(lambda m: m["type"] == "over" or m["moves"] > moves)
                    times.append(time.monotonic() - began)
                    states[1 - mover] = other
                    states[mover] = seats[mover].until(lambda m: m["type"] == "over" or m["moves"] > moves)
                    for i, seat in enumerate(seats):  # the latest line of each
                        states[i] = ([states[i], *seat.pending()])[-1]
            finally:
                for seat in seats:
                    seat.close()
    times.sort()
    return {"median_ms": statistics.median(times) * 1000, "p95_ms": times[int(0.95 * (len(times) - 1))] * 1000}


def waiting_seat_figures(seconds: float) -> dict[str, float]:
    """CPU of a ``join --stdio`` process and of a table (``cardtable join`` in a terminal) waiting
    for another seat's move, over ``seconds``."""
    from stdio_helpers import SeatProcess

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        codes = _remote_game(root, "property", ["Ann", "Bob"])
        from cardtable.store import SaveStore

        store = SaveStore(root)
        game_id = store.join(codes[0]).game_id
        waiting = 1 - min(store.open(game_id).match.awaiting)  # the seat not awaited: it only waits
        store.close()
        program = SeatProcess(root, codes[waiting])
        terminal = _Terminal(root, codes[waiting])
        try:
            program.until(lambda m: m["type"] == "state")
            _wait_drawn([terminal], b"Ann")
            _idle_cpu([terminal.pid], 2.0, [terminal])  # the table settles
            program_cpu, table_cpu = _idle_cpu([program.process.pid, terminal.pid], seconds, [terminal])
        finally:
            program.close()
            terminal.close()
    return {"program": program_cpu * 100, "table": table_cpu * 100}


def twenty_screens(games: int = 5, seats: int = 4, seconds: float = 10.0) -> dict[str, float]:
    """``games`` games of ``seats`` remote seats each, every seat a ``cardtable join`` in its own
    pseudo-terminal, all open at once: memory per screen (RSS, and PSS: shared pages divided
    among the processes sharing them) and their CPU at rest."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"][:seats]
        terminals: list[_Terminal] = []
        try:
            began = time.monotonic()
            for game in range(games):
                codes = _remote_game(root, "property", names, seed=game)
                terminals += [_Terminal(root, codes[seat]) for seat in range(seats)]
            _wait_drawn(terminals, b"Dan", timeout=300)
            opened = time.monotonic() - began
            _idle_cpu([t.pid for t in terminals], 3.0, terminals)  # they settle
            memory = [_memory_kib(t.pid) for t in terminals]
            cpu = _idle_cpu([t.pid for t in terminals], seconds, terminals)
        finally:
            for terminal in terminals:
                terminal.close()
    rss = [r / 1024 for r, _p in memory]
    pss = [p / 1024 for _r, p in memory]
    return {"screens": len(memory), "rss_mib": statistics.median(rss), "pss_mib": statistics.median(pss),
            "total_pss_mib": sum(pss), "cpu_percent": sum(cpu) * 100, "opened_s": opened}


def print_screens(samples: int) -> None:
    goal = GOALS["move_ms"]
    m = move_reaching_a_program(samples)
    print(f"move reaching another seat's program (two join --stdio processes): median {m['median_ms']:.0f} ms, "
          f"p95 {m['p95_ms']:.0f} ms ({samples} moves; goal ≤ {goal:.0f} ms median: {verdict(m['median_ms'], goal)})")
    i = waiting_seat_figures(10.0)
    goal = GOALS["idle_percent"]
    print(f"CPU at rest over 10 s: a join --stdio process {i['program']:.2f}%, a table in a terminal "
          f"{i['table']:.2f}% of a core (goal ≤ {goal:g}%: {verdict(max(i.values()), goal)})")
    t = twenty_screens()
    print(f"{t['screens']} screens open at once (5 Property games of 4 seats, cardtable join in terminals): "
          f"{t['rss_mib']:.0f} MiB RSS each (median), {t['pss_mib']:.0f} MiB PSS each, {t['total_pss_mib']:.0f} MiB "
          f"together; all opened in {t['opened_s']:.0f} s, together {t['cpu_percent']:.1f}% of a core at rest")


def verdict(value: float, goal: float) -> str:
    return "ok" if value <= goal else "OVER GOAL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--records", type=int, default=5000, help="games in the record benchmark")
    parser.add_argument("--saves", type=int, default=5000, help="games in the saves list benchmark")
    parser.add_argument("--samples", type=int, default=60, help="moves timed from one process to another")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="how long each idle table is watched")
    parser.add_argument("--kills", type=int, default=1000, help="kills in the soak")
    parser.add_argument("--parts", default="startup,keys,idle,growth,record,store,screens,simulation",
                        help="which figures: startup, keys, idle, growth, record, store, screens, simulation, soak, "
                             "ending, expert, analysis, searched (comma-separated)")
    parser.add_argument("--reference", type=Path, metavar="DIR",
                        help="another cardtable checkout to compare simulation speed against")
    parser.add_argument("--seeds", type=int, default=300, help="seeds of each game in the ending sweep")
    parser.add_argument("--searched-games", type=int, default=200,
                        help="two-player games of a searching bot against the bot it plays out with")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes playing the ending sweep, the expert's games and the analysis")
    parser.add_argument("game", nargs="*",
                        help="the games of the ending sweep, the simulation, the expert's figures and the analysis "
                             "(default: every game)")
    parser.add_argument("--positions", type=int, default=30, help="positions the expert's speed is measured on, per game")
    parser.add_argument("--expert-games", type=int, default=200,
                        help="games of the expert against each game's bot (0: its speed only)")
    parser.add_argument("--analysis-games", type=int, default=20, help="bot-versus-random games per game analysed")
    parser.add_argument("--calibration-games", type=int, default=20,
                        help="games of the bot against itself per game analysed for the calibration table")
    parser.add_argument("--calibration-stride", type=int, default=3,
                        help="every how many decisions of those a position is analysed")
    parser.add_argument("--calibration-decisions", type=int,
                        help="instead of --calibration-stride: about this many decisions of each of those games")
    parser.add_argument("--analysis-timing", action=argparse.BooleanOptionalAction, default=True,
                        help="time one game at the default thinking time per game (--no-analysis-timing: not)")
    parser.add_argument("--analysis-iterations", type=int, default=96, help="iterations per position in those")
    parser.add_argument("--analysis-seed", type=int, default=0,
                        help="the first seed of the bot-versus-random games (100: seeds 100–199, a holdout for "
                             "what was tuned on the first hundred)")
    parser.add_argument("--analysis-stride", type=int, default=1,
                        help="every how many decisions of the bot-versus-random games are analysed (1: all)")
    parser.add_argument("--child-simulation", type=int, help=argparse.SUPPRESS)  # GAMES, then the game
    parser.add_argument("--child-expert", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_simulation:
        print(json.dumps(simulation(args.child_simulation, args.game[0] if args.game else None)))
        return
    if args.child_expert:
        positions, games, workers = map(int, args.child_expert.split(","))
        print(json.dumps(expert_figures(positions, games, workers, args.game)))
        return
    parts = set(args.parts.split(","))
    import rules

    unknown = [name for name in args.game if name not in rules.GAMES]
    if unknown:
        parser.error(f"no game called {', '.join(unknown)}; the games: {', '.join(sorted(rules.GAMES))}")

    if "startup" in parts:
        print_startup(args.runs, args.reference)
    if "keys" in parts:
        print_keys(args.presses)
    if "record" in parts:
        print_record(args.records, args.runs)
    if "store" in parts:
        print_store(args.saves, args.runs, args.samples)
    if "idle" in parts:
        print_idle(args.idle_seconds)
    if "growth" in parts:
        print_growth(reference=args.reference)
    if "screens" in parts:
        print_screens(args.samples)
    if "soak" in parts:
        print_soak(args.kills)
    if "simulation" in parts:
        if args.reference:
            compare_simulations(args.reference, args.games, args.game)
        else:
            for label, f in simulation_in(None, args.games, args.game).items():
                if "never_ends" in f:
                    print(f"simulation {label}: does not end: {f['never_ends']}")
                    continue
                print(f"simulation {label}: {f['commands_per_s']:,.0f} commands/s, {f['games_per_s']:.1f} games/s, "
                      f"{f['mean_turns']:.1f} turns a game ({args.games} games, CPU time)"
                      + random_goal(label, f["commands_per_s"]) + bot_goal(label, f["ms_per_move"]))
    if "expert" in parts:
        print_expert(args.positions, args.expert_games, args.workers, args.reference, args.game)
    if "analysis" in parts:
        print_analysis(args.game or None, args.analysis_games, args.calibration_games, args.analysis_iterations,
                       args.workers, args.calibration_stride, args.calibration_decisions, args.analysis_timing,
                       args.analysis_stride, args.analysis_seed)
    if "searched" in parts:
        print_searched(args.game or sorted(rules.GAMES), args.searched_games, args.workers)
    if "ending" in parts:
        print_ending(args.game or sorted(rules.GAMES), args.seeds, args.workers)


ACCURACY_TIE = 1e-6
"""Accuracies this close are the same (a sum of weighed accuracies rounds differently)."""


def _analysed_game(job: tuple[str, int, int | None, float | None, str, int, int | None]) -> dict[str, Any]:
    """One game of the bot against ``rival`` ("random" or "bot"; the bot's seat alternating
    with the seed), analysed (every ``stride``-th decision, or about ``count`` spread over the
    game: fit_scale.spread): each seat's accuracy, each decision's (chance of the move played,
    mover's share of the win), the time it took and the decisions."""
    import rules
    from fit_scale import spread
    from rules.core import Match, Seat
    from rules.core.analysis import analyse, decisions_of
    from rules.core.replay import Replay

    game, seed, iterations, seconds, rival, stride, count = job
    spec = rules.GAMES[game]
    bot = seed % 2
    levels = ["bot", rival] if bot == 0 else [rival, "bot"]
    match = Match(spec, [Seat(f"{level} {seat + 1}", level) for seat, level in enumerate(levels)], None, seed)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat))
    started = time.perf_counter()
    replay = Replay.of(match)
    positions = spread(decisions_of(replay), seed, stride, count)
    result = analyse(replay, seconds, iterations=iterations, seed=seed, positions=positions)
    elapsed = time.perf_counter() - started
    winners = match.outcome.winners
    shares = [100 / len(winners) if seat in winners else 0.0 for seat in range(len(levels))]
    return {"game": game, "seed": seed, "rival": rival, "bot": result.players[bot].accuracy,
            "random": result.players[1 - bot].accuracy, "seconds": elapsed, "decisions": len(result.decisions),
            "points": [(d.chance_after, shares[d.seat]) for d in result.decisions]}


def print_analysis(names: list[str] | None, games: int, calibration: int, iterations: int, workers: int,
                   stride: int = 3, count: int | None = None, timed: bool = True,
                   accuracy_stride: int = 1, first_seed: int = 0) -> None:
    """The bot's accuracy against random play's, game by game; the calibration over games of
    the bot against itself (where the playouts' own continuation, the bot's, is the one the
    game followed: against random play a position rated 70% is won far more often, rightly);
    the time of one game at the game's thinking time (unless not ``timed``)."""
    import rules
    from rules.core.search import settings_for

    names = names or sorted(rules.GAMES)
    jobs = [(name, seed, iterations, None, "random", accuracy_stride, None) for name in names
            for seed in range(first_seed, first_seed + games)]
    jobs += [(name, 1000 + seed, iterations, None, "bot", stride, count) for name in names for seed in range(calibration)]
    with multiprocessing.Pool(workers, initializer=os.nice, initargs=(5,)) as pool:  # once a worker, not a job
        done = pool.map(_analysed_game, jobs, chunksize=1)
    for name in names:
        mine = [r for r in done if r["game"] == name and r["rival"] == "random"]
        if mine:
            # Higher by more than a rounding error: a player with no loss at all has the same
            # accuracy however its decisions are weighed, but not to the last bit.
            gaps = [(r["bot"] or 0) - (r["random"] or 0) for r in mine]
            higher = sum(1 for gap in gaps if gap > ACCURACY_TIE)
            tied = sum(1 for gap in gaps if abs(gap) <= ACCURACY_TIE)
            decisions = statistics.median(r["decisions"] for r in mine)
            every = "every decision" if accuracy_stride == 1 else f"one decision in {accuracy_stride}"
            seeds = f" (seeds {first_seed}–{first_seed + games - 1})" if first_seed else ""
            print(f"analysis {name}: the bot's accuracy higher than random's in {higher} of {len(mine)} games{seeds}, "
                  f"the same in {tied} "
                  f"(mean {statistics.mean(r['bot'] or 0 for r in mine):.0f} against "
                  f"{statistics.mean(r['random'] or 0 for r in mine):.0f}; {iterations} iterations a position, "
                  f"{every}, median {decisions:.0f} decisions analysed, "
                  f"{statistics.median(r['seconds'] for r in mine):.1f} s a game)")
        bots = [r for r in done if r["game"] == name and r["rival"] == "bot"]
        if not bots:
            continue
        tenths = [[0, 0.0, 0.0] for _ in range(10)]
        for r in bots:
            for chance, won in r["points"]:
                tenth = tenths[min(9, int(chance // 10))]
                tenth[0] += 1
                tenth[1] += won
                tenth[2] += chance
        every = f"about {count} decisions a game" if count else f"one decision in {stride}"
        print(f"analysis {name}: calibration over {len(bots)} games of the bot against itself, {every}, "
              f"{iterations} iterations a position (goal: of the decisions rated 70–80%, 60–80% won)")
        print("  rated    decisions  mean rated  won")
        for k, (n, won, rated) in enumerate(tenths):
            figures = f"{rated / n:9.1f}%  {won / n:5.1f}%" if n else f"{'-':>10}  {'-':>6}"
            print(f"  {10 * k:3d}–{10 * k + 10:<3d}% {n:9d}  {figures}")
    for name in names if timed else ():  # one typical game at the game's own thinking time
        seconds = settings_for(rules.GAMES[name]).seconds
        one = _analysed_game((name, 0, None, seconds, "random", 1, None))
        print(f"analysis {name}: one game at {seconds:g} s a position: {one['seconds']:.0f} s "
              f"({one['decisions']} decisions)")


def print_startup(runs: int, reference: Path | None = None) -> None:
    s = startup(runs, reference)
    bare = s["bare"]
    for kind, label in (("cardtable", "the cardtable command"), ("reference", "the reference's cardtable")):
        if kind not in s:
            continue
        time_ratio, memory_ratio = s[kind]["s"] / bare["s"], s[kind]["mib"] / bare["mib"]
        print(f"start-up to the first screen: {label} {s[kind]['s'] * 1000:.0f} ms, bare Textual "
              f"{bare['s'] * 1000:.0f} ms → ratio {time_ratio:.2f} "
              f"(goal ≤ {GOALS['startup']}: {verdict(time_ratio, GOALS['startup'])})")
        print(f"peak memory: {label} {s[kind]['mib']:.1f} MiB, bare Textual {bare['mib']:.1f} MiB → "
              f"ratio {memory_ratio:.2f} (goal ≤ {GOALS['memory']}: {verdict(memory_ratio, GOALS['memory'])})")


def print_keys(presses: int) -> None:
    for game in [*KEY_TABLES, "property-wild"]:
        k = asyncio.run(key_latency(game, presses))
        worst = max(k.values())
        each = ", ".join(f"{what} {ms:.1f} ms" for what, ms in k.items())
        print(f"key press to repaint, {game} table: {each} (median of {presses}; goal ≤ {GOALS['key_ms']:.0f} ms: "
              f"{verdict(worst, GOALS['key_ms'])})")

if __name__ == "__main__":
    main()
