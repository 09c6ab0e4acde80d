"""The store: real seeded games written move by move and read back, listed without replay, the
trash, repair at the last good move, the saves of earlier versions brought in (damaged ones
listed, every file left as it was), export and import, a damaged or newer database, a disk that
refuses, and several writers on one game."""

from __future__ import annotations

import copy
import json
import os
import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import rules
from cardtable.store import (GameChanged, MovedFirst, SaveError, SaveInfo, SaveStore, default_data_dir,
                             is_valid_id, result_text)
from cardtable.store import games as store_games
from cardtable.store.files import game_file
from rules.core import FORMAT_VERSION, Match, Outcome, RulesError, SaveFormatError, Seat

from game_helpers import play_random
from store_helpers import closing, full_disk, legacy_save, read_only, spoil_move, stored_moves

GAMES = sorted(rules.GAMES)
FIRST = "property"  # a quick game whose first seat (the human) is the first to act
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def new_match(game: str = FIRST, seed: int = 3) -> Match:
    """Ann (human) against the game's best bot in the other seats, at the fewest seats."""
    spec = rules.find_game(game)
    count = spec.players[0]
    seats = [Seat(NAMES[0])] + [Seat(name, spec.best_bot) for name in NAMES[1:count]]
    return Match(spec, seats, seed=seed)


def play(match: Match, commands: int) -> Match:
    """Up to ``commands`` random legal commands, as the app would submit them."""
    for _ in range(commands):
        if match.over:
            break
        play_random(match)
    return match


def play_stored(store: SaveStore, game_id: str, match: Match, commands: int) -> Match:
    """Up to ``commands`` random legal commands, each written through the store."""
    import random

    rng = random.Random(len(match.history))
    for _ in range(commands):
        if match.over:
            break
        seat = min(match.awaiting)
        store.play(game_id, match, seat, rng.choice(match.legal(seat)))
    return match


def history(match: Match) -> list[list]:
    return [[entry.seat, entry.text] for entry in match.history]


def log_lines(match: Match) -> list[str]:
    return [event.describe(match.names, 0) for entry in match.history for event in entry.events]


@pytest.fixture
def store(tmp_path) -> SaveStore:
    store = SaveStore(tmp_path / "store")
    yield store
    store.close()


@pytest.fixture
def clock(monkeypatch):
    """Timestamps one minute apart, so "most recent" never depends on the clock's resolution."""
    start = datetime(2026, 11, 22, 14, 0, tzinfo=timezone.utc)
    ticks = iter(range(10_000))
    monkeypatch.setattr(store_games, "_now", lambda: (start + timedelta(minutes=next(ticks))).isoformat())


def files_under(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` but the database's own, with its bytes and modification time:
    proof that nothing else was changed."""
    return {str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(root.rglob("*")) if path.is_file() and not path.name.startswith("games.")}


# -- round trip ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_round_trip_of_a_game_played_through_the_store(store, game):
    match = new_match(game)
    game_id = store.create(match)
    play_stored(store, game_id, match, 25)
    assert match.history

    loaded = SaveStore(store.root).load(game_id)
    assert loaded.spec.to_json(loaded.state) == match.spec.to_json(match.state)
    assert history(loaded) == history(match) == stored_moves(store.root, game_id)
    assert log_lines(loaded) == log_lines(match)
    assert (loaded.seats, loaded.options, loaded.seed) == (match.seats, match.options, match.seed)

    [info] = store.list()
    assert info.id == game_id and info.game == game and info.title == match.spec.title
    assert info.seats == match.seats and info.turn == match.turn and info.moves == len(match.history)
    assert info.finished is match.over and info.result == result_text(match.outcome, match.names)
    assert info.to_play == tuple(match.names[seat] for seat in sorted(match.awaiting))
    assert store.problems == []


def test_a_game_created_with_moves_keeps_them_and_every_move_is_one_numbered_row(store):
    match = play(new_match(), 6)
    game_id = store.create(match)
    play_stored(store, game_id, match, 4)
    with closing(store.root) as connection:
        numbers = [row[0] for row in connection.execute(
            "SELECT number FROM moves WHERE game_id = ? ORDER BY number", (game_id,))]
        summary = connection.execute("SELECT moves, turn, format FROM games WHERE id = ?", (game_id,)).fetchone()
    assert numbers == list(range(1, 11))
    assert summary == (10, match.turn, FORMAT_VERSION)


def test_the_listing_follows_every_move_and_keeps_created(store, clock):
    match = new_match()
    game_id = store.create(match)
    first = store.list()[0]
    created = store.export(game_id)["created"]
    play_stored(store, game_id, match, 15)
    info = store.list()[0]
    assert info.turn == match.turn and info.updated > first.updated
    exported = store.export(game_id)
    assert exported["created"] == created and exported["commands"] == history(match)


def test_the_export_is_the_match_json_with_metadata_as_earlier_versions_wrote(store):
    match = play(new_match(), 5)
    game_id = store.create(match)
    data = store.export(game_id)
    assert data["format"] == FORMAT_VERSION
    assert {key: data[key] for key in match.to_json()} == match.to_json()
    assert datetime.fromisoformat(data["saved"]).utcoffset() == timedelta(0)
    assert data["summary"] == {
        "title": match.spec.title, "seats": list(match.names), "turn": match.turn,
        "to_play": [match.names[seat] for seat in sorted(match.awaiting)], "over": False, "result": "",
    }
    assert list(data)[:4] == ["format", "saved", "created", "summary"]


def test_listing_replays_nothing_and_opening_replays_once(store, monkeypatch):
    ids = [store.create(play(new_match(seed=seed), 8)) for seed in range(5)]
    loads = []
    real = store_games.files.load

    def counting(data):
        loads.append(len(data["commands"]))
        return real(data)

    monkeypatch.setattr(store_games.files, "load", counting)
    monkeypatch.setattr(Match, "_replay", lambda *a: pytest.fail("listing replayed a move"))
    assert {info.id for info in SaveStore(store.root).list()} == set(ids)
    assert SaveStore(store.root).latest().id in ids
    monkeypatch.undo()
    monkeypatch.setattr(store_games.files, "load", counting)
    SaveStore(store.root).open(ids[0])
    assert loads == [8]


# -- finished games, the trash, latest -------------------------------------------------------
def test_a_finished_game_stays_listed_as_finished_with_its_result(store, clock):
    match = new_match()
    finished_id = store.create(match)
    playing_id = store.create(play(new_match(seed=9), 2))
    play_stored(store, finished_id, match, 20_000)  # played last
    assert match.over

    info = next(i for i in store.list() if i.id == finished_id)
    assert info.finished is True and info.result == result_text(match.outcome, match.names)
    assert any(info.result.startswith(match.names[seat]) for seat in match.outcome.winners)
    assert store.latest(unfinished=True).id == playing_id
    assert store.latest(unfinished=False).id == finished_id
    assert store.load(finished_id).outcome == match.outcome


def test_delete_moves_the_game_to_the_trash_and_restore_brings_it_back(store, clock):
    keep = store.create(new_match(seed=1))
    gone = store.create(play(new_match(seed=2), 3))
    assert store.delete(gone) == gone
    assert [info.id for info in store.list()] == [keep]
    assert [info.id for info in store.trash()] == [gone]
    assert store.latest().id == keep
    for action in (store.load, store.delete, store.replay):
        with pytest.raises(LookupError, match=f"no saved game '{gone}'"):
            action(gone)
    with pytest.raises(LookupError, match="in the trash"):
        store.restore(keep)

    assert store.restore(gone) == gone
    assert store.trash() == []
    assert sorted(info.id for info in store.list()) == sorted([keep, gone])
    assert history(store.load(gone)) == history(play(new_match(seed=2), 3))
    with pytest.raises(LookupError, match="in the trash"):
        store.restore(gone)


def test_the_trash_lists_the_latest_deletion_first(store, clock):
    ids = [store.create(new_match(seed=seed)) for seed in range(3)]
    for game_id in (ids[1], ids[0], ids[2]):
        store.delete(game_id)
    assert [info.id for info in store.trash()] == [ids[2], ids[0], ids[1]]


def test_latest_is_the_most_recently_played(store, clock):
    older = store.create(new_match(seed=1))
    newer = store.create(new_match(seed=2))
    assert store.latest().id == newer
    match = store.load(older)
    play_stored(store, older, match, 1)
    assert store.latest().id == older
    assert [info.id for info in store.list()] == [older, newer]


def test_a_game_this_version_lacks_is_listed_but_never_the_latest(store, clock):
    older = store.create(new_match(seed=1))
    newer = store.create(new_match(seed=2))
    with closing(store.root) as connection:  # written by a version with one more game
        connection.execute("UPDATE games SET game = 'chess' WHERE id = ?", (newer,))
    infos = {info.id: info for info in store.list()}
    assert infos[newer].damaged and infos[newer].status == ("cannot open — it is a game of 'chess', which this "
                                                            "cardtable does not have")
    assert store.latest().id == older and store.latest(unfinished=False).id == older
    with pytest.raises(SaveFormatError, match="'chess'"):
        store.open(newer)


def test_an_empty_store_creates_nothing_by_listing(store):
    assert store.latest() is None and store.list() == [] and store.trash() == []
    assert store.problems == [] and not store.exists("x")
    assert not store.root.exists(), "listing must not create folders"


def test_ids_are_unique_sortable_and_safe(store, monkeypatch):
    # the same random tail every time: uniqueness must come from checking what exists
    tails = iter(["3f2a", "3f2a", "3f2a", "b001"])
    monkeypatch.setattr(store_games.secrets, "token_hex", lambda n: next(tails))
    monkeypatch.setattr(store_games, "datetime", FrozenDatetime)
    ids = [store.create(new_match(seed=seed)) for seed in (1, 2)]
    assert ids == [f"20261122-141503-{FIRST}-3f2a", f"20261122-141503-{FIRST}-b001"]
    assert all(is_valid_id(game_id) for game_id in ids)


class FrozenDatetime(datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 11, 22, 14, 15, 3, tzinfo=tz)


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", "", "a\\b", "..", "x" * 10_000,
                                 "a\0b", "a\nb", " a", "\udcff", "é" * 150])
def test_odd_ids_are_no_saved_game_in_a_short_sentence(store, bad):
    store.create(new_match())
    for action in (store.load, store.open, store.delete, store.restore, store.replay, store.export):
        with pytest.raises(LookupError, match="no (saved game|game) ") as raised:
            action(bad)
        assert len(str(raised.value)) < 120 and "\n" not in str(raised.value)
    assert not is_valid_id(bad) and not store.exists(bad)


@pytest.mark.parametrize("good", ["20261122-141503-property-3f2a", "partie-é", "x.1", "Ann's game"])
def test_ids_a_person_might_give_a_file_are_fine(good):
    assert is_valid_id(good)


# -- where the store lives -------------------------------------------------------------------
def test_default_data_dir_follows_the_platform(private_dirs):
    assert default_data_dir() == private_dirs / "data" / "cardtable"
    assert SaveStore().path == private_dirs / "data" / "cardtable" / "games.sqlite3"


def test_cardtable_data_dir_overrides_the_platform(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"
    assert SaveStore().root == tmp_path / "mine"
    assert SaveStore(str(tmp_path / "given")).root == tmp_path / "given"


def test_the_database_is_in_wal_mode_with_full_sync_and_a_schema_version(store):
    store.create(new_match())
    connection = store._db()
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with closing(store.root) as other:
        assert other.execute("SELECT version FROM schema_version").fetchone()[0] == store_games.SCHEMA_VERSION


# -- the result line and the list's words ----------------------------------------------------
@pytest.mark.parametrize("ranks, expected", [
    ((1, 2), "Ann won"), ((2, 1, 3), "Bob won"), ((1, 1, 3), "Ann and Bob shared the win"),
    ((1, 1, 1), "Ann, Bob and Cleo shared the win"),
])
def test_result_text(ranks, expected):
    assert result_text(Outcome(ranks, (0,) * len(ranks)), NAMES[: len(ranks)]) == expected
    assert result_text(None, NAMES) == ""


def test_save_info_names_the_best_bot_plainly_and_says_whose_turn_it_is():
    seats = (Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot"), Seat("Dan", "random"))
    info = SaveInfo("x", "property", "Property", seats, 3, datetime.now(timezone.utc), False, "",
                    to_play=("Bob",), best_bot="bot")
    assert info.players == "Ann, Bob, Cleo (bot), Dan (bot: random)"
    assert info.to_play_text == "Bob to play" and info.status == "Bob to play"
    assert SaveInfo("x", "g", "G", seats, 3, info.updated, False, "", to_play=("Ann", "Bob")).status \
        == "Ann and Bob to play"
    assert SaveInfo("x", "g", "G", seats, 3, info.updated, True, "Ann won", to_play=("Bob",)).status \
        == "finished — Ann won"
    assert SaveInfo("x", "g", "G", seats, 3, info.updated, False, "").status == "in play"


@pytest.mark.parametrize("game", GAMES)
def test_the_list_says_whose_turn_it_is_from_what_the_store_wrote(store, game):
    spec = rules.find_game(game)
    seats = [Seat("Ann"), Seat("Cleo", spec.best_bot), Seat("Dan", "random")][: max(spec.players[0], 3 if spec.players[1] >= 3 else 2)]
    match = play(Match(spec, seats, seed=4), 5)
    game_id = store.create(match)
    [info] = store.list()
    assert info.id == game_id
    assert info.to_play == tuple(match.names[seat] for seat in sorted(match.awaiting))
    assert info.status == f"{' and '.join(info.to_play)} to play"
    assert info.players == ", ".join(["Ann", "Cleo (bot)", "Dan (bot: random)"][: len(seats)])


# -- a game whose later moves no longer replay -----------------------------------------------
@pytest.mark.parametrize("how", ["a command the game refuses", "a seat out of range"])
@pytest.mark.parametrize("broken_move", [1, 5, 8])
def test_a_game_whose_move_k_no_longer_replays_resumes_after_move_k_minus_1(store, how, broken_move):
    match = play(new_match(), 8)
    game_id = store.create(match)
    text = match.history[broken_move - 1].text
    if how == "a command the game refuses":
        spoil_move(store.root, game_id, broken_move, text="no such command")
        named = "no such command"
    else:
        spoil_move(store.root, game_id, broken_move, seat=9)
        named = text
    assert not store.list()[0].damaged  # listing replays nothing: opening repairs the game
    spoiled = stored_moves(store.root, game_id)

    replayed = store.replay(game_id)  # the replay stops there too, and only reads
    assert replayed.replay.moves == broken_move - 1
    assert replayed.notice == (f"Move {broken_move} of this game ({named!r}) no longer replays: "
                               f"the replay ends after move {broken_move - 1}.")
    assert stored_moves(store.root, game_id) == spoiled

    opened = SaveStore(store.root).open(game_id)
    assert history(opened.match) == history(match)[: broken_move - 1]
    before = "from its first move" if broken_move == 1 else f"after move {broken_move - 1}"
    assert opened.notice == (
        f"Move {broken_move} of this game ({named!r}) no longer replays, so it resumes {before}; its "
        f"original moves are kept in the store ('cardtable export {game_id} --original' writes them "
        "to a file).")
    assert stored_moves(store.root, game_id) == history(match)[: broken_move - 1]
    assert store.export(game_id, original=True)["commands"] == spoiled
    assert store.list()[0].moves == broken_move - 1
    again = SaveStore(store.root).open(game_id)  # repaired: it opens without a notice
    assert again.notice is None and history(again.match) == history(opened.match)


def test_a_repair_the_disk_refuses_keeps_the_original_and_is_made_later(store):
    match = play(new_match(), 6)
    game_id = store.create(match)
    spoil_move(store.root, game_id, 4, text="no such command")
    spoiled = stored_moves(store.root, game_id)
    with full_disk(store):
        opened = store.open(game_id)
        assert len(opened.match.history) == 3
        assert "not shortened in the store yet" in opened.notice and "the disk is full" in opened.notice
        assert stored_moves(store.root, game_id) == spoiled
        with pytest.raises(SaveError, match="the disk is full"):
            store.play(game_id, opened.match, min(opened.match.awaiting), opened.match.legal(min(opened.match.awaiting))[0])
    assert len(opened.match.history) == 4  # played all the same
    store.save(game_id, opened.match)  # room again: the original is kept, then the moves are cut
    assert stored_moves(store.root, game_id) == history(opened.match)
    assert store.export(game_id, original=True)["commands"] == spoiled


def test_export_of_a_game_that_no_longer_replays_writes_it_as_stored(store):
    game_id = store.create(play(new_match(), 4))
    spoil_move(store.root, game_id, 2, text="no such command")
    data = store.export(game_id)
    assert data["commands"][1] == [data["commands"][1][0], "no such command"] and "snapshot" not in data
    with pytest.raises(LookupError, match="no original"):
        store.export(game_id, original=True)


# -- the saves of earlier versions -------------------------------------------------------------
def test_earlier_saves_are_brought_in_once_with_their_ids_and_left_as_they_were(tmp_path):
    root = tmp_path / "data"
    matches = {f"2026010{n}-100000-property-aaa{n}": play(new_match(seed=n), 3 * n) for n in range(1, 4)}
    for game_id, match in matches.items():
        legacy_save(root, match, game_id, saved=f"2026-01-0{game_id[7]}T10:00:00+00:00")
    deleted = legacy_save(root, play(new_match(seed=7), 2), "old-one", folder="saves/trash")
    before = files_under(root)

    store = SaveStore(root)
    infos = store.list()
    assert [info.id for info in infos] == sorted(matches, reverse=True)  # by when last saved
    for info in infos:
        match = matches[info.id]
        assert (info.turn, info.to_play, info.moves) == (match.turn, tuple(match.names[s] for s in sorted(match.awaiting)),
                                                         len(match.history))
        assert history(store.load(info.id)) == history(match)
    assert [info.id for info in store.trash()] == ["old-one"]
    assert len(store.notices) == 1 and "The 4 saved games of an earlier cardtable" in store.notices[0]
    assert files_under(root) == before, "a file was changed or moved"
    store.close()

    (root / "saves" / "later.json").write_text(deleted.read_text())  # dropped in afterwards
    again = SaveStore(root)
    assert len(again.list()) == 3 and again.notices == []  # once only: `cardtable import` brings it in
    assert len(again.trash()) == 1


def test_earlier_saves_of_format_1_and_2_come_in_written_in_todays_notation(tmp_path):
    root = tmp_path / "data"
    match = play(new_match(), 10)
    legacy_save(root, match, "format-1", change=lambda d: d.update(
        format=1, commands=[text for _seat, text in d["commands"]]))
    legacy_save(root, match, "format-2", change=lambda d: d.update(format=2))
    store = SaveStore(root)
    assert len(store.list()) == 2
    for game_id in ("format-1", "format-2"):
        assert stored_moves(root, game_id) == history(match)
        assert history(store.load(game_id)) == history(match)


def test_earlier_saves_that_cannot_be_read_are_listed_with_the_reason_and_left_where_they_are(tmp_path):
    root = tmp_path / "data"
    good = legacy_save(root, play(new_match(), 3), "good")
    data = json.loads(good.read_text())
    bad = {
        "broken": ('{\n  "format": 1,\n  "game": oops\n}', "broken JSON at line 3", True),
        "array": ("[1, 2, 3]", "not a JSON object", True),
        "bare": ('{"format": 1}', "missing 'game', 'seats', 'seed', 'commands'", True),
        "binary": (b"\xff\xfe\x00garbage", "not text", True),
        "garbled": (json.dumps(data | {"commands": "every move"}), "the moves are not a list", True),
        "seedless": (json.dumps(data | {"seed": "42"}), "the seed is not a whole number", True),
        "newer": (json.dumps(data | {"format": FORMAT_VERSION + 1}),
                  f"saved by a newer cardtable (format {FORMAT_VERSION + 1}", False),
        "chess": (json.dumps(data | {"game": "chess"}), "'chess', which this cardtable does not have", False),
    }
    for name, (content, _, _) in bad.items():
        (root / "saves" / f"{name}.json").write_bytes(content if isinstance(content, bytes) else content.encode())
    before = files_under(root)

    store = SaveStore(root)
    for _ in range(2):
        infos = store.list()
        assert store.problems == []
        assert [info.id for info in infos if not info.damaged] == ["good"]
        damaged = {info.id: info for info in infos if info.damaged}
        assert sorted(damaged) == sorted(bad)
        for name, (_, reason, set_aside) in bad.items():
            info = damaged[name]
            assert reason in info.reason and info.file == f"saves/{name}.json"
            assert info.set_aside is set_aside
            assert info.status.startswith("damaged — " if set_aside else "cannot open — ")
        assert damaged["newer"].title == "Property"  # still named
    for name, (_, reason, _) in bad.items():
        with pytest.raises(SaveFormatError, match=rf"^Cannot open saves/{name}\.json: .*{re.escape(reason)}"):
            store.open(name)
    assert store.latest().id == "good"
    assert files_under(root) == before


def test_an_earlier_save_whose_move_no_longer_replays_comes_in_at_its_last_good_move(tmp_path):
    root = tmp_path / "data"
    match = play(new_match(), 8)
    path = legacy_save(root, match, "cut", change=lambda d: d["commands"][4].__setitem__(1, "no such move"))
    original = path.read_text()
    store = SaveStore(root)
    [info] = store.list()
    assert info.moves == 4 and not info.damaged
    assert store.replay("cut").notice == "Move 5 of this game ('no such move') no longer replays: the replay ends after move 4."
    opened = store.open("cut")
    assert history(opened.match) == history(match)[:4]
    assert opened.notice == ("Move 5 of this game ('no such move') no longer replays, so it resumes after move 4; "
                             "the original save is left as it was in saves/cut.json.")
    assert store.open("cut").notice is None  # said once
    assert store.export("cut", original=True) == json.loads(original)
    assert path.read_text() == original


@pytest.mark.parametrize("damage, where", [
    (lambda snapshot: snapshot.update(money=[1, 2]), "it differs at money[0]"),
    (lambda snapshot: snapshot.pop("board"), "it differs at board"),
    (lambda snapshot: snapshot.clear() or snapshot.update(x=1), "it differs at players"),
])
def test_an_earlier_save_whose_moves_miss_its_position_comes_in_where_they_lead(tmp_path, damage, where):
    root = tmp_path / "data"
    match = play(new_match(), 8)
    legacy_save(root, match, "off", change=lambda d: damage(d["snapshot"]))
    store = SaveStore(root)
    assert store.replay("off").notice == (f"The moves of this game replay but do not reach the position it saved "
                                          f"({where}): the replay shows where the moves lead.")
    opened = store.open("off")
    assert history(opened.match) == history(match)
    assert opened.notice == (f"The moves of this game replay but do not reach the position it saved ({where}), so "
                             f"it resumes where the moves lead, after move 8; the original save is left as it was "
                             f"in saves/off.json.")


def test_a_save_and_a_deleted_save_of_one_id_both_come_in(tmp_path):
    root = tmp_path / "data"
    legacy_save(root, new_match(seed=1), "same")
    legacy_save(root, new_match(seed=2), "same", folder="saves/trash")
    store = SaveStore(root)
    assert [info.id for info in store.list()] == ["same"] and [info.id for info in store.trash()] == ["same.1"]
    assert store.load("same").seed == 1
    store.restore("same.1")
    assert store.load("same.1").seed == 2


def test_a_save_an_earlier_version_cannot_play_is_in_the_trash_and_back(tmp_path):
    root = tmp_path / "data"
    (root / "saves").mkdir(parents=True)
    (root / "saves" / "torn.json").write_text("{")
    store = SaveStore(root)
    assert store.delete("torn") == "torn"
    assert store.list() == [] and [info.id for info in store.trash()] == ["torn"]
    assert store.restore("torn") == "torn" and store.list()[0].damaged


# -- import and export -------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_export_then_import_is_the_same_game_under_a_new_id(store, tmp_path, game):
    match = play(new_match(game), 12)
    game_id = store.create(match)
    path = store.export_to(game_id, tmp_path / "mailed.json")
    other = SaveStore(tmp_path / "friend")
    new_id, notice = other.import_file(path)
    assert notice is None and new_id != game_id and is_valid_id(new_id)
    assert history(other.load(new_id)) == history(match)
    assert other.list()[0].updated == store.list()[0].updated  # last played when it was


def test_exports_go_to_the_data_folder_and_never_over_another(store):
    game_id = store.create(new_match())
    first, second = store.export_to(game_id), store.export_to(game_id)
    assert first == store.root / "exports" / f"{game_id}.json"
    assert second == store.root / "exports" / f"{game_id}.1.json"
    assert json.loads(first.read_text()) == json.loads(second.read_text()) == store.export(game_id)


def test_importing_what_is_not_a_game_says_why_and_adds_nothing(store, tmp_path):
    store.create(new_match())
    for name, content, says in [
        ("torn.json", "{", "broken JSON at line 1"),
        ("future.json", json.dumps(game_file(new_match(), "x", "y") | {"format": 99}), "saved by a newer cardtable"),
        ("missing.json", None, "could not be read"),
    ]:
        path = tmp_path / name
        if content is not None:
            path.write_text(content)
        with pytest.raises(SaveFormatError, match=f"^{re.escape(name)} cannot be imported: .*{says}"):
            store.import_file(path)
    assert len(store.list()) == 1


def test_an_import_whose_move_no_longer_replays_comes_in_at_its_last_good_move(store, tmp_path):
    match = play(new_match(), 6)
    path = legacy_save(tmp_path, match, "mailed", folder="inbox",
                       change=lambda d: d["commands"][2].__setitem__(1, "no such move"))
    game_id, notice = store.import_file(path)
    assert notice == (f"Move 3 of this game ('no such move') no longer replays, so it was imported up to move 2; "
                      f"the file {path} is left as it was.")
    assert stored_moves(store.root, game_id) == history(match)[:2]
    assert store.open(game_id).notice.startswith("Move 3 of this game ('no such move') no longer replays, so it resumes")


# -- a damaged or newer database, a disk that refuses ------------------------------------------
@pytest.mark.parametrize("damage", ["garbage", "torn", "scribbled"])
def test_a_damaged_database_is_set_aside_and_the_earlier_saves_come_in_again(tmp_path, damage):
    root = tmp_path / "data"
    legacy_save(root, play(new_match(), 4), "old")
    store = SaveStore(root)
    game_id = store.create(play(new_match(seed=8), 30))
    store.close()
    path = root / "games.sqlite3"
    raw = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database at all" * 100)
    elif damage == "torn":
        path.write_bytes(raw[: len(raw) // 3])
    else:
        page = 4096
        path.write_bytes(raw[:page] + b"\x0d\xff" * (page // 2) + raw[2 * page:])
    damaged = path.read_bytes()

    store = SaveStore(root)
    infos = store.list()
    assert [info.id for info in infos] == ["old"] and store.problems == []
    [notice, brought] = store.notices
    assert notice.startswith("The games database was damaged (") and "set aside as games.damaged-" in notice
    assert "brought into" in brought
    [aside] = root.glob("games.damaged-*.sqlite3")
    assert aside.read_bytes() == damaged  # never deleted
    with pytest.raises(LookupError):
        store.load(game_id)


def test_a_database_from_a_newer_cardtable_is_left_alone(tmp_path):
    root = tmp_path / "data"
    store = SaveStore(root)
    game_id = store.create(new_match())
    store.close()
    with closing(root) as connection:
        connection.execute("UPDATE schema_version SET version = 99")
    before = (root / "games.sqlite3").read_bytes()

    store = SaveStore(root)
    assert store.list() == []
    [problem] = store.problems
    assert problem == (f"The games database ({root / 'games.sqlite3'}) was made by a newer cardtable (schema 99; "
                       f"this version knows up to {store_games.SCHEMA_VERSION}): it is left as it is, and games are "
                       "not saved.")
    with pytest.raises(SaveError, match="made by a newer cardtable"):
        store.create(new_match())
    with pytest.raises(SaveError, match="made by a newer cardtable"):
        store.open(game_id)
    store.close()
    assert (root / "games.sqlite3").read_bytes() == before


def test_a_disk_that_fills_up_plays_on_and_loses_nothing_when_it_has_room_again(store):
    match = new_match()
    game_id = store.create(match)
    play_stored(store, game_id, match, 3)
    with full_disk(store):
        seat = min(match.awaiting)
        with pytest.raises(SaveError, match=rf"^Games cannot be saved in {re.escape(str(store.root))}: the disk is full\.$"):
            store.play(game_id, match, seat, match.legal(seat)[0])
        assert len(match.history) == 4  # played here all the same
        with pytest.raises(SaveError, match="the disk is full"):
            store.create(new_match())
        assert stored_moves(store.root, game_id) == history(match)[:3]
    play_stored(store, game_id, match, 1)  # the next move writes the one before too
    assert stored_moves(store.root, game_id) == history(match) and len(match.history) == 5
    assert len(store.list()) == 1


def test_a_read_only_database_refuses_in_words_and_the_game_plays_on(store):
    match = new_match()
    game_id = store.create(match)
    with read_only(store):
        seat = min(match.awaiting)
        with pytest.raises(SaveError, match=r"games\.sqlite3 cannot be written \(read-only\)"):
            store.play(game_id, match, seat, match.legal(seat)[0])
        assert len(match.history) == 1
        assert [info.id for info in store.list()] == [game_id]  # reading still works
    store.save(game_id, match)
    assert stored_moves(store.root, game_id) == history(match)


@pytest.mark.parametrize("blocked", ["root", "parent"])
def test_a_file_where_the_folder_should_be_is_said_in_words(tmp_path, blocked):
    blocker = tmp_path / "data" if blocked == "root" else tmp_path / "up"
    store = SaveStore(blocker if blocked == "root" else blocker / "data")
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("not a folder")
    with pytest.raises(SaveError) as raised:
        store.create(new_match())
    assert str(raised.value) == f"Games cannot be saved in {store.root}: {blocker} is a file, not a folder."
    assert store.list() == []
    assert store.problems == [f"Cannot read the saved games in {store.root}: {blocker} is a file, not a folder."]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_really_refuses(store):
    game_id = store.create(new_match())
    store.close()
    for path in (store.root, *store.root.iterdir()):
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        match = SaveStore(store.root).load(game_id)
        with pytest.raises(SaveError):
            SaveStore(store.root).play(game_id, match, 0, match.legal(0)[0])
    finally:
        for path in (store.root, *store.root.iterdir()):
            path.chmod(0o755 if path.is_dir() else 0o644)


# -- several writers, one game ------------------------------------------------------------------
def two_tables(store: SaveStore, match: Match) -> tuple[str, SaveStore, Match]:
    game_id = store.create(match)
    other = SaveStore(store.root)
    return game_id, other, other.load(game_id)


def test_a_move_written_elsewhere_is_caught_up_and_a_late_move_refused_naming_who(store):
    here = new_match()
    game_id, other, there = two_tables(store, here)
    seat = min(there.awaiting)
    other.play(game_id, there, seat, there.legal(seat)[0])
    assert len(here.history) == 0
    with pytest.raises(MovedFirst, match=f"^{here.names[seat]} moved first: the table shows their move.$"):
        store.play(game_id, here, seat, here.legal(seat)[0])
    assert history(here) == history(there) == stored_moves(store.root, game_id)
    assert store.sync(game_id, here) == 0  # nothing more to catch up
    seat = min(here.awaiting)
    store.play(game_id, here, seat, here.legal(seat)[0])
    assert other.sync(game_id, there) == 1 and history(there) == history(here)


def sealed_bids() -> Match:
    """Abundance at its first sealed auction: both players bid at once, in secret."""
    match = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1)
    while not (match.awaiting == {0, 1} and match.format(match.legal(0)[0]).startswith("bid")):
        seat = min(match.awaiting)
        match.submit(seat, next((c for c in match.legal(seat) if match.format(c) in ("ready", "pass")),
                                match.legal(seat)[0]))
    return match


def test_sealed_bids_are_taken_in_either_order_from_two_writers(store):
    here = sealed_bids()
    game_id, other, there = two_tables(store, here)
    other.play(game_id, there, 1, "bid 2")
    before = len(here.history)
    store.play(game_id, here, 0, "bid 3")  # Bob's bid came first; Ann's counts all the same
    assert [entry.text for entry in here.history[before:]] == ["bid 2", "bid 3"]
    other.sync(game_id, there)
    assert history(here) == history(there) == stored_moves(store.root, game_id)


def test_a_move_that_answered_another_is_refused_even_where_both_could_act(store):
    here = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1)
    while len(here.awaiting) < 2:  # a trade window: both may offer or say ready
        seat = min(here.awaiting)
        here.submit(seat, here.legal(seat)[0])
    game_id, other, there = two_tables(store, here)
    offer = next(c for c in there.legal(1) if there.format(c).startswith("offer"))
    other.play(game_id, there, 1, offer)
    mine = next(c for c in here.legal(0) if here.format(c).startswith("offer"))
    with pytest.raises(MovedFirst, match="^Bob moved first: the table shows their move.$"):
        store.play(game_id, here, 0, mine)  # Ann must answer Bob's offer now
    assert history(here) == history(there)


def undoable_move(match: Match):
    """The awaited seat and a legal command of it that reveals nothing (so it may be taken
    back), or None."""
    seat = min(match.awaiting)
    for command in match.legal(seat)[:60]:
        state = copy.deepcopy(match.state)
        if not any(event.reveals for event in match.spec.apply(state, seat, command)):
            return seat, command
    return None


def repeatable_move(match: Match):
    """The awaited seat and a command it could play twice running (the second still legal after
    the first, the seat still to act), or None."""
    if len(match.awaiting) != 1:
        return None
    seat = min(match.awaiting)
    for command in match.legal(seat)[:10]:
        state = copy.deepcopy(match.state)
        match.spec.apply(state, seat, command)
        if match.spec.awaiting(state) == {seat}:
            try:
                match.spec.check(state, seat, command)
            except RulesError:
                continue
            return seat, command
    return None


def test_a_move_still_legal_after_the_same_seat_moved_elsewhere_is_refused(store):
    import random

    here = Match(rules.find_game("capital-auction"), [Seat("Ann"), Seat("Bob")], seed=1)
    rng = random.Random(1)
    while (found := repeatable_move(here)) is None:
        seat = min(here.awaiting)
        here.submit(seat, rng.choice(here.legal(seat)))
    seat, command = found
    game_id, other, there = two_tables(store, here)
    other.play(game_id, there, seat, command)  # the same player, at another screen
    with pytest.raises(MovedFirst, match=f"^{here.names[seat]} moved first"):
        store.play(game_id, here, seat, command)  # legal still, but decided before the other's
    assert history(here) == history(there) == stored_moves(store.root, game_id)


def test_undo_is_seen_by_the_other_writer_and_refused_when_another_moved_since(store):
    here = Match(rules.find_game("portfolio"), [Seat("Ann"), Seat("Bob")], seed=2)
    while (found := undoable_move(here)) is None:
        play_random(here)
    game_id, other, there = two_tables(store, here)
    seat, command = found
    store.play(game_id, here, seat, command)
    assert other.sync(game_id, there) == 1 and there.can_undo(seat)
    count = len(here.history)
    store.undo(game_id, here, seat)
    assert len(here.history) == count - 1 and len(stored_moves(store.root, game_id)) == count - 1
    assert other.sync(game_id, there) == 1 and history(there) == history(here)

    store.play(game_id, here, seat, command)  # again; the other table answers before it is taken back
    other.sync(game_id, there)
    nxt = min(there.awaiting)
    other.play(game_id, there, nxt, there.legal(nxt)[0])
    with pytest.raises(MovedFirst, match=rf"^{there.names[nxt]} moved first: nothing was taken back; the table "
                                         "shows their move.$"):
        store.undo(game_id, here, seat)
    assert history(here) == history(there) == stored_moves(store.root, game_id)


def test_moves_taken_back_beyond_what_a_match_can_follow_ask_for_opening_again(store):
    here = play(new_match(), 4)
    game_id, other, there = two_tables(store, here)
    with closing(store.root) as connection:  # as a repair elsewhere would
        connection.execute("DELETE FROM moves WHERE game_id = ? AND number > 1", (game_id,))
        connection.execute("UPDATE games SET moves = 1, revision = revision + 1 WHERE id = ?", (game_id,))
    with pytest.raises(GameChanged):
        store.sync(game_id, here)
    assert history(SaveStore(store.root).load(game_id)) == history(there)[:1]


def test_unsaved_moves_here_and_new_moves_elsewhere_keep_the_stores_and_say_so(store):
    here = new_match()
    game_id, other, there = two_tables(store, here)
    seat = min(here.awaiting)
    with full_disk(store):
        with pytest.raises(SaveError):
            store.play(game_id, here, seat, here.legal(seat)[0])
    other.play(game_id, there, seat, there.legal(seat)[-1])
    with pytest.raises(SaveError, match="Another cardtable has played this game"):
        store.sync(game_id, here)
    assert stored_moves(store.root, game_id) == history(there)


def test_a_game_gone_from_the_store_is_written_again_whole(store):
    match = play(new_match(), 3)
    game_id = store.create(match)
    with closing(store.root) as connection:
        connection.execute("DELETE FROM games WHERE id = ?", (game_id,))
    play_stored(store, game_id, match, 1)
    assert stored_moves(store.root, game_id) == history(match)


def test_a_doubled_move_is_impossible_even_for_a_writer_that_did_not_look(store):
    match = play(new_match(), 2)
    game_id = store.create(match)
    with closing(store.root) as connection, pytest.raises(sqlite3.IntegrityError):
        connection.execute("INSERT INTO moves (game_id, number, seat, text, written) VALUES (?, 2, 0, 'x', 'now')",
                           (game_id,))


class CountedHistory(list):
    """A match's history that counts the entries read from it (one by one, sliced or iterated)."""

    read = 0

    def __getitem__(self, index):
        got = super().__getitem__(index)
        self.read += len(got) if isinstance(index, slice) else 1
        return got

    def __iter__(self):
        for entry in super().__iter__():
            self.read += 1
            yield entry


def test_a_move_costs_the_store_the_same_at_a_games_end_as_at_its_start(store, monkeypatch):
    # it compared and rebuilt the whole move list, in notation, several times a move (some 2 ms
    # a move more at the end of an Abundance match): two cardtables on one game, each move read
    # and written by looking at the last few entries and the rows written since
    import random

    here = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1)
    game_id, other, there = two_tables(store, here)
    here.history, there.history = CountedHistory(here.history), CountedHistory(there.history)
    rows: list[int] = []
    read_rows = store_games._rows
    monkeypatch.setattr(store_games, "_rows", lambda *args, **kwargs: rows.append(len(got := read_rows(*args, **kwargs)))
                        or got)
    rng = random.Random(1)
    costs = []
    for _move in range(400):
        here.history.read = there.history.read = 0
        rows.clear()
        store.sync(game_id, here)
        seat = min(here.awaiting)
        table, match = (store, here) if seat == 0 else (other, there)
        table.sync(game_id, match)
        table.play(game_id, match, seat, rng.choice(match.legal(seat)))
        costs.append((here.history.read + there.history.read, sum(rows)))
    assert len(costs) == 400
    assert max(entries for entries, _rows in costs) <= 8  # the whole history, 400 entries, at the end
    assert max(read for _entries, read in costs) <= 2  # the other table's move, once by each
    store.sync(game_id, here)
    other.sync(game_id, there)
    assert history(here) == history(there) == stored_moves(store.root, game_id)


def test_a_move_taken_back_and_played_again_as_it_was_while_unsaved_is_not_written_again(store):
    match = new_match()
    game_id = store.create(match)
    while (found := undoable_move(match)) is None:
        play_stored(store, game_id, match, 1)
    seat, command = found
    store.play(game_id, match, seat, command)
    with closing(store.root) as connection:
        before = connection.execute("SELECT revision, moves FROM games WHERE id = ?", (game_id,)).fetchone()
    with full_disk(store):
        with pytest.raises(SaveError):
            store.undo(game_id, match, seat)  # taken back here only
        store.play(game_id, match, seat, command)  # the same move again, a new entry: the store has it
    store.save(game_id, match)
    with closing(store.root) as connection:
        assert connection.execute("SELECT revision, moves FROM games WHERE id = ?", (game_id,)).fetchone() == before
    play_stored(store, game_id, match, 2)
    assert stored_moves(store.root, game_id) == history(match)
    assert SaveStore(store.root).load(game_id).to_json() == match.to_json()
