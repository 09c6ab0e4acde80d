"""kill -9 at any moment loses at most the move being written: a child process plays games
through the store, saying each move once it is committed; it is killed with SIGKILL at random
moments (as it starts, opens the database, replays, writes), 100 times, and after every kill
the game opens with every move the child was told was written, the database passes its check
and its summary agrees with its moves. (A longer soak is in tests/benchmark.py.)"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.store import SaveStore

from store_helpers import stored_moves

KILLS = 100

CHILD = r"""
import sys
import rules
from cardtable.store import SaveStore
from rules.core import Match, Seat

store = SaveStore(sys.argv[1])
latest = store.latest()
if latest is None:
    match = Match(rules.find_game("property"), [Seat("Ann", "random"), Seat("Bob", "random")], seed=len(store.list()))
    game_id = store.create(match)
else:
    game_id = latest.id
    match = store.load(game_id)
print("game", game_id, len(match.history), flush=True)
while not match.over:
    seat = min(match.awaiting)
    store.play(game_id, match, seat, match.bot_move(seat))
    print(len(match.history), match.history[-1].seat, match.history[-1].text, flush=True)
print("over", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_writer_killed_at_random_moments_loses_no_acknowledged_move(tmp_path):
    root = tmp_path / "data"
    rng = random.Random(22)
    acknowledged: dict[str, list[list]] = {}
    for kill in range(KILLS):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(root)], stdout=subprocess.PIPE, text=True)
        told = Told(root, acknowledged)
        wait_for = rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 21])  # 0: kill it while it starts up
        try:
            while told.moves < wait_for:
                line = child.stdout.readline()
                if not line or not told.take(line):
                    break
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
            # what the child said before it died it said once the move was committed: those
            # moves are acknowledged too (a line the kill cut short is not)
            rest = child.stdout.read()
            child.stdout.close()
        for line in rest.splitlines(keepends=True):
            told.take(line)
        check(root, acknowledged)


class Told:
    """What a child has said: the game it opened and each move it was told was written."""

    def __init__(self, root: Path, acknowledged: dict[str, list[list]]) -> None:
        self.root, self.acknowledged = root, acknowledged
        self.game_id: str | None = None
        self.moves = 0

    def take(self, line: str) -> bool:
        """Note one whole line; False once the child says the game is over."""
        words = line.rstrip("\n").split(maxsplit=2)
        if not line.endswith("\n") or not words:
            return True
        if words[0] == "over":
            return False
        if words[0] == "game":
            # it opened the game with the moves before it: the last may be one written but
            # never acknowledged when the child before was killed
            self.game_id, opened = words[1], int(words[2])
            known = self.acknowledged.setdefault(self.game_id, [])
            assert opened >= len(known), "the game lost moves it had"
            known[:] = stored_moves(self.root, self.game_id)[:opened]
            return True
        number, seat, text = int(words[0]), int(words[1]), words[2]
        moves = self.acknowledged[self.game_id]
        assert number == len(moves) + 1
        moves.append([seat, text])
        self.moves += 1
        return True


def check(root: Path, acknowledged: dict[str, list[list]]) -> None:
    """Every acknowledged move is in the store (at most one more, the move being written), the
    database is whole, and each game's summary counts its moves."""
    if not (root / "games.sqlite3").exists():
        return  # killed before it made anything
    connection = sqlite3.connect(root / "games.sqlite3")
    try:
        assert connection.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        for game_id, count in connection.execute("SELECT id, moves FROM games"):
            numbers = [row[0] for row in connection.execute(
                "SELECT number FROM moves WHERE game_id = ? ORDER BY number", (game_id,))]
            assert numbers == list(range(1, count + 1)), "the summary and the moves disagree"
    finally:
        connection.close()
    store = SaveStore(root)
    try:
        assert store.notices == [] and store.problems == []
        for game_id, moves in acknowledged.items():
            stored = stored_moves(root, game_id)
            assert stored[: len(moves)] == moves, "an acknowledged move is missing"
            assert len(stored) <= len(moves) + 1
            assert [[e.seat, e.text] for e in store.load(game_id).history] == stored
    finally:
        store.close()
    assert not [name for name in os.listdir(root) if name.startswith("games.damaged")]
