"""The record of finished games (cardtable/record.py): what it keeps, the stats it gives, its
schema migrations, a crash in the middle of a write, a damaged or foreign file set aside (the
saves untouched), and a record from a newer cardtable left alone."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import rules
from cardtable.record import (
    MIGRATIONS, RECORD_FILE, SCHEMA_VERSION, GameRecord, PlayerResult, Record, RecordError,
)
from cardtable.store import SaveStore
from rules.core import Match, Seat

from game_helpers import play_bot

START = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def game(n: int, *players: tuple[str, str | None, int, int], kind: str = "property",
         save_id: str | None = None) -> GameRecord:
    """Game number ``n`` (finished n hours after START); players as (name, bot, rank, score)."""
    return GameRecord(kind, START + timedelta(hours=n), tuple(PlayerResult(*p) for p in players),
                      save_id=save_id, seed=n, moves=10, turns=5)


@pytest.fixture
def record(tmp_path):
    record = Record(tmp_path / "data")
    yield record
    record.close()


def stats_of(record: Record, name: str, game: str | None = None, bot: str | None = None):
    [found] = [s for s in record.players(name) if s.game == game and s.bot == bot]
    return found


# -- what it keeps and the stats -------------------------------------------------------------------
def test_a_finished_match_is_recorded_with_its_players_kinds_ranks_and_scores(record):
    spec = rules.find_game("property")
    match = Match(spec, [Seat("Ann"), Seat("Cleo", "bot"), Seat("Dan", "random")], seed=2)
    while not match.over:
        play_bot(match)
    entry = GameRecord.of(match, "some-save")
    assert record.add(entry)
    assert not record.add(entry)  # a save is recorded once
    assert record.count() == 1 and record.games() == ["property"]
    outcome = match.outcome
    for seat, (name, bot) in enumerate([("Ann", None), ("Cleo", "bot"), ("Dan", "random")]):
        stats = stats_of(record, name, "property", bot)
        assert (stats.games, stats.wins, stats.best) == (1, int(outcome.ranks[seat] == 1), outcome.scores[seat])
    with pytest.raises(ValueError):
        GameRecord.of(Match(spec, [Seat("Ann"), Seat("Bob")], seed=2))


def test_games_wins_win_rate_best_score_and_streaks_per_player_and_game(record):
    record.add_many([
        game(1, ("Ann", None, 1, 50), ("Bob", None, 2, 10)),
        game(2, ("ann", None, 1, 70), ("Bob", None, 2, 0)),  # names are matched without case
        game(3, ("Ann", None, 2, 5), ("Bob", None, 1, 90)),
        game(4, ("Ann", None, 1, 30), ("Bob", None, 1, 30)),  # a shared win is a win for both
        game(5, ("Ann", None, 1, 12), ("Cleo", "bot", 2, 8), kind="portfolio"),
        game(6, ("Ann", None, 1, 40), ("Bob", None, 2, 10)),
    ])
    ann = stats_of(record, "ANN", "property")
    assert (ann.games, ann.wins, ann.best, ann.streak, ann.longest) == (5, 4, 70, 2, 2)
    assert ann.win_rate == pytest.approx(0.8) and ann.last == START + timedelta(hours=6)
    overall = stats_of(record, "Ann")
    assert (overall.games, overall.wins, overall.best, overall.streak, overall.longest) == (6, 5, None, 3, 3)
    bob = stats_of(record, "bob", "property")
    assert (bob.games, bob.wins, bob.streak, bob.longest) == (5, 2, 0, 2)
    cleo = stats_of(record, "Cleo", "portfolio", "bot")
    assert cleo.label == "Cleo (bot)" and (cleo.games, cleo.wins) == (1, 0)
    # everyone: most games first, every player per game and overall
    assert [(s.name, s.game) for s in record.players()][:2] == [("Ann", None), ("Ann", "property")]


def test_streaks_follow_the_order_games_ended_whatever_the_order_they_were_recorded(record):
    record.add(game(3, ("Ann", None, 1, 1), ("Bob", None, 2, 0)))
    record.add(game(1, ("Ann", None, 1, 1), ("Bob", None, 2, 0)))
    assert stats_of(record, "Ann", "property").longest == 2
    record.add(game(2, ("Ann", None, 2, 0), ("Bob", None, 1, 5)))  # ended between the two
    ann = stats_of(record, "Ann", "property")
    assert (ann.games, ann.wins, ann.streak, ann.longest) == (3, 2, 1, 1)
    bob = stats_of(record, "Bob", "property")
    assert (bob.streak, bob.longest, bob.best) == (0, 1, 5)


def test_a_bot_is_not_the_human_of_the_same_name(record):
    record.add_many([game(1, ("Cleo", None, 1, 5), ("Ann", None, 2, 1)),
                     game(2, ("Cleo", "random", 2, 0), ("Ann", None, 1, 9))])
    assert {(s.label, s.wins) for s in record.players("cleo") if s.game is None} == {
        ("Cleo", 1), ("Cleo (bot: random)", 0)}


def test_head_to_head_counts_who_finished_ahead_per_game_and_in_all(record):
    record.add_many([
        game(1, ("Ann", None, 1, 50), ("Bob", None, 2, 10), ("Cleo", "bot", 3, 0)),
        game(2, ("Ann", None, 3, 0), ("Bob", None, 1, 10), ("Cleo", "bot", 2, 5)),
        game(3, ("Ann", None, 1, 9), ("Bob", None, 1, 9), kind="portfolio"),
        game(4, ("Ann", None, 2, 1), ("Dan", None, 1, 2)),
    ])
    property_, portfolio, everything = record.head_to_head("ann", "BOB")
    assert (property_.game, property_.games, property_.first_ahead, property_.second_ahead, property_.tied) == (
        "property", 2, 1, 1, 0)
    assert (portfolio.game, portfolio.tied) == ("portfolio", 1)
    assert (everything.game, everything.games, everything.first_ahead, everything.second_ahead,
            everything.tied) == (None, 3, 1, 1, 1)
    assert (everything.first, everything.second) == ("Ann", "Bob")
    assert record.head_to_head("Bob", "Dan") == []
    opponents = {h.second: (h.games, h.first_ahead, h.second_ahead) for h in record.opponents("Ann")}
    assert opponents == {"Bob": (3, 1, 1), "Cleo (bot)": (2, 1, 1), "Dan": (1, 0, 1)}


def test_head_to_head_never_merges_a_human_with_a_bot_of_the_same_name(record):
    record.add_many([
        game(1, ("Ann", None, 1, 50), ("Bob", None, 2, 10)),
        game(2, ("Ann", None, 2, 0), ("Bob", "bot", 1, 10)),
        game(3, ("Ann", None, 2, 0), ("Bob", "random", 1, 10)),
    ])
    [human] = record.head_to_head("Ann", "Bob")
    assert (human.second, human.games, human.first_ahead) == ("Bob", 1, 1)
    [bot] = record.head_to_head("Ann", "Bob", second_bot="bot")
    assert (bot.second, bot.games, bot.second_ahead) == ("Bob (bot)", 1, 1)
    opponents = {h.second: h.games for h in record.opponents("Ann")}
    assert opponents == {"Bob": 1, "Bob (bot)": 1, "Bob (bot: random)": 1}
    assert {h.second for h in record.opponents("Bob", bot="bot")} == {"Ann"}
    assert record.kinds("bob") == [None, "bot", "random"]


def test_an_empty_record_has_no_stats(record):
    assert record.count() == 0 and record.players() == [] and record.opponents("Ann") == []
    assert (record.path.parent / RECORD_FILE).is_file()


# -- the schema ----------------------------------------------------------------------------------
def test_a_version_1_record_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / RECORD_FILE
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[1]:
        old.execute(statement)
    old.execute("UPDATE schema_version SET version = 1")
    old.execute("INSERT INTO games (game, finished, save_id, seed, moves, turns) "
                "VALUES ('property', '2025-01-02T03:04:05+00:00', 'old-save', 7, 40, 20)")
    old.execute("INSERT INTO seats VALUES (1, 0, 'Ann', 'ann', NULL, 1, 99)")
    old.execute("INSERT INTO seats VALUES (1, 1, 'Bob', 'bob', NULL, 2, 3)")
    old.commit()
    old.close()
    record = Record(tmp_path)
    assert stats_of(record, "Ann", "property").best == 99
    record.close()
    check = sqlite3.connect(path)
    assert check.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    indexes = {row[0] for row in check.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"seats_by_player", "games_by_save"} <= indexes
    check.close()
    again = Record(tmp_path)
    assert not again.add(game(9, ("Ann", None, 1, 1), save_id="old-save"))  # the index holds
    again.close()


def test_a_record_from_a_newer_cardtable_is_left_alone(tmp_path):
    path = tmp_path / RECORD_FILE
    newer = sqlite3.connect(path)
    newer.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    newer.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    newer.commit()
    newer.close()
    before = path.read_bytes()
    with pytest.raises(RecordError, match="made by a newer cardtable"):
        Record(tmp_path).add(game(1, ("Ann", None, 1, 1)))
    assert path.read_bytes() == before and list(tmp_path.iterdir()) == [path]


# -- damage ----------------------------------------------------------------------------------------
def saves_with_one_game(root: Path) -> tuple[SaveStore, str, bytes]:
    """A store holding one game (closed, so its database is one file), its id and its bytes."""
    store = SaveStore(root)
    game_id = store.create(Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob")], seed=1))
    store.close()
    return store, game_id, store.path.read_bytes()


@pytest.mark.parametrize("damage", ["not sqlite", "damaged pages", "someone else's database"])
def test_a_damaged_record_is_set_aside_in_words_and_the_saves_are_untouched(tmp_path, damage):
    root = tmp_path / "data"
    store, game_id, games = saves_with_one_game(root)
    path = root / RECORD_FILE
    if damage == "not sqlite":
        path.write_bytes(b"this is not a database at all\n" * 200)
    elif damage == "damaged pages":
        record = Record(root)
        record.add_many(game(n, ("Ann", None, 1, n), ("Bob", None, 2, 0)) for n in range(400))
        record.close()
        data = bytearray(path.read_bytes())
        data[4096 * 2:4096 * 4] = b"\xff" * 8192  # two pages of the tables overwritten
        path.write_bytes(bytes(data))
    else:
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE recipes (name TEXT)")
        other.commit()
        other.close()
    damaged = path.read_bytes()
    record = Record(root)
    assert record.count() == 0  # a new record, begun at once
    [notice] = record.notices
    assert notice.startswith("The record of finished games was damaged (") and "set aside as record.damaged-" in notice
    assert "Your saved games are untouched." in notice
    [aside] = root.glob("record.damaged-*.sqlite3")
    assert aside.read_bytes() == damaged and aside.name in notice
    assert record.add(game(1, ("Ann", None, 1, 1)))
    record.close()
    assert store.path.read_bytes() == games
    assert [info.id for info in store.list()] == [game_id]


def test_a_data_folder_that_is_a_file_is_said_in_words(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file")
    with pytest.raises(RecordError, match="cannot be kept in"):
        Record(blocker).count()


# -- a crash in the middle of a write --------------------------------------------------------------
CHILD = textwrap.dedent("""
    import sys, time
    from datetime import datetime, timezone
    from cardtable.record import GameRecord, PlayerResult, Record

    record = Record(sys.argv[1])
    mode = sys.argv[2]
    original = Record._insert_seats

    def stall(connection, game_id, players):
        if game_id % 7 == 0 or mode == "first":
            print("mid-write", game_id, flush=True)
            time.sleep(600)  # killed here, between the game's row and its seats
        original(connection, game_id, players)

    Record._insert_seats = staticmethod(stall)
    for n in range(1, 10_000):
        players = tuple(PlayerResult(name, None, rank, n) for name, rank in (("Ann", 1), ("Bob", 2), ("Cleo", 3)))
        record.add(GameRecord("property", datetime.now(timezone.utc), players, save_id=f"save-{n}"))
        print("added", n, flush=True)
""")


@pytest.mark.parametrize("mode", ["first", "later"])
def test_a_process_killed_during_a_write_leaves_a_consistent_record(tmp_path, mode):
    root = tmp_path / "data"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), mode], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        for line in child.stdout:  # bounded: the child stalls at its 1st or 7th game at the latest
            if line.startswith("mid-write"):
                break
        else:
            pytest.fail(f"the writer ended early: {child.stderr.read()}")
        child.kill()
    finally:
        child.kill()
        child.wait(timeout=60)
    record = Record(root)
    assert record.notices == []  # nothing to set aside: the half-written game was rolled back
    expected = 0 if mode == "first" else 6
    assert record.count() == expected
    if expected:
        assert stats_of(record, "Ann", "property").games == expected
        assert all(s.games == expected for s in record.players() if s.game)
    connection = sqlite3.connect(root / RECORD_FILE)
    assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert connection.execute("SELECT COUNT(*) FROM games WHERE id NOT IN (SELECT game_id FROM seats)").fetchone() == (0,)
    connection.close()
    assert record.add(game(1, ("Ann", None, 1, 1)))  # and it takes new games
    record.close()
