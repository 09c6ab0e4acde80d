"""Many writers, one game: four processes play the seats of the same games of Abundance at once
through ``SaveStore.play`` — ordinary turns, trade windows and sealed bids, where both seats act
at once — over 2,000 moves in all. Each process reports every move it wrote; together they must
be exactly the moves the store holds, numbered 1, 2, 3… without a gap (none lost) or a repeat
(none doubled), and every process must end with the same games as a fresh load."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rules
from cardtable.store import SaveStore
from rules.core import Match, Seat

from store_helpers import stored_moves

WRITERS = 4
MOVES = 2000
GAMES = 4  # played one after the other until MOVES are written

WORKER = r"""
import json, random, sys, time
from cardtable.store import MovedFirst, SaveStore
from rules.core.errors import RulesError

root, number, ids = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
enough = int(sys.argv[4])
seat_of_mine = number % 2  # two writers for each seat: they race each other, and the other seat's two
rng = random.Random(number)
store = SaveStore(root)
wrote, refused, after_another, matches = [], 0, 0, {}
for game_id in ids:
    match = matches[game_id] = store.load(game_id)
    while True:
        store.sync(game_id, match)
        if match.over or len(match.history) >= enough:
            break
        if seat_of_mine not in match.awaiting:
            time.sleep(0.001)  # the other seat's turn: look again in a moment
            continue
        legal = match.legal(seat_of_mine)
        # sealed bids and trade windows await both seats: either may be written first
        command = rng.choice(legal[:12]) if rng.random() < 0.7 else legal[0]
        before = len(match.history)
        try:
            store.play(game_id, match, seat_of_mine, command)
        except MovedFirst:
            refused += 1
            continue
        except RulesError:
            refused += 1
            continue
        entry = match.history[-1]
        wrote.append([game_id, len(match.history), entry.seat, entry.text])
        after_another += len(match.history) > before + 1  # both seats acted at once: written after the other's
print(json.dumps({"wrote": wrote, "refused": refused, "after_another": after_another}), flush=True)
sys.stdin.readline()  # every writer is done: catch up with the last moves of the others
for game_id, match in matches.items():
    store.sync(game_id, match)
print(json.dumps({game_id: [[e.seat, e.text] for e in match.history] for game_id, match in matches.items()}))
"""


def test_four_processes_write_one_game_at_once_and_lose_or_double_no_move(tmp_path):
    root = tmp_path / "data"
    store = SaveStore(root)
    spec = rules.find_game("abundance")
    ids = [store.create(Match(spec, [Seat("Ann"), Seat("Bob")], seed=seed)) for seed in range(GAMES)]
    enough = MOVES // GAMES + 1  # a game stops there if it has not ended by then
    writers = [subprocess.Popen([sys.executable, "-c", WORKER, str(root), str(number), json.dumps(ids), str(enough)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for number in range(WRITERS)]
    reports = []
    try:
        for writer in writers:
            line = writer.stdout.readline()
            assert line, writer.stderr.read()
            reports.append(json.loads(line))
        for writer, report in zip(writers, reports):
            out, err = writer.communicate("\n", timeout=300)
            assert writer.returncode == 0, err
            report["games"] = json.loads(out)
    finally:
        for writer in writers:  # a writer left waiting for a seat nobody plays any more
            if writer.poll() is None:
                writer.kill()
                writer.wait(timeout=60)

    fresh = SaveStore(root)
    stored = {game_id: stored_moves(root, game_id) for game_id in ids}
    assert sum(len(moves) for moves in stored.values()) >= MOVES
    for game_id in ids:
        assert [[e.seat, e.text] for e in fresh.load(game_id).history] == stored[game_id]
        for report in reports:
            assert report["games"][game_id] == stored[game_id], "a writer ended with another game"
    # every move in the store was written by exactly one writer, at the number it was told
    written = sorted((game_id, number, seat, text) for report in reports for game_id, number, seat, text in report["wrote"])
    expected = sorted((game_id, number, seat, text) for game_id, moves in stored.items()
                      for number, (seat, text) in enumerate(moves, 1))
    assert written == expected
    assert sum(report["refused"] for report in reports) > 0, "no race was lost: the test raced nothing"
    assert sum(report["after_another"] for report in reports) > 0, "no move was taken after another's"
    with sqlite_numbers(root) as numbers:
        for game_id in ids:
            assert numbers(game_id) == list(range(1, len(stored[game_id]) + 1))


class sqlite_numbers:
    """The move numbers the database holds for a game, with a connection of its own."""

    def __init__(self, root: Path) -> None:
        import sqlite3

        self.connection = sqlite3.connect(root / "games.sqlite3")

    def __enter__(self):
        return lambda game_id: [row[0] for row in self.connection.execute(
            "SELECT number FROM moves WHERE game_id = ? ORDER BY number", (game_id,))]

    def __exit__(self, *exc) -> None:
        self.connection.close()
