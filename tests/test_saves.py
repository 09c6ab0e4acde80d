"""The save store: real seeded games saved and read back, atomic writes, damaged files set
aside without hiding the good ones, finished games, delete and latest."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import rules
from cardtable import saves
from cardtable.saves import GameInUse, SaveError, SaveInfo, SaveStore, default_data_dir, result_text
from rules.core import FORMAT_VERSION, Match, Outcome, SaveFormatError, Seat

from game_helpers import play_random

GAMES = sorted(rules.GAMES)
# the game most tests play: a quick one whose first seat (the human) is the first to act
FIRST = "property"
needs_game = pytest.mark.skipif(not GAMES, reason="no game is registered yet")
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def new_match(game: str, seed: int = 3) -> Match:
    """Ann (human) against the game's best bot in the other seats, at the fewest seats."""
    spec = rules.find_game(game)
    count = spec.players[0]
    seats = [Seat(NAMES[0])] + [Seat(name, spec.best_bot) for name in NAMES[1:count]]
    return Match(spec, seats, seed=seed)


def play(match: Match, commands: int) -> Match:
    """Submit up to ``commands`` random legal commands through the Match, as the app would."""
    for _ in range(commands):
        if match.over:
            break
        play_random(match)
    return match


def play_to_end(match: Match) -> Match:
    play(match, 20_000)
    assert match.over, "the game did not end"
    return match


def first_game() -> str:
    return FIRST


@pytest.fixture
def store(tmp_path) -> SaveStore:
    return SaveStore(tmp_path / "store")


@pytest.fixture
def clock(monkeypatch):
    """Save timestamps one minute apart, so "most recent" never depends on clock resolution."""
    start = datetime(2026, 11, 22, 14, 0, tzinfo=timezone.utc)
    ticks = iter(range(10_000))
    monkeypatch.setattr(saves, "_now", lambda: (start + timedelta(minutes=next(ticks))).isoformat())


def history_texts(match: Match) -> list[list]:
    return [[played.seat, played.text] for played in match.history]


def log_lines(match: Match) -> list[str]:
    return [event.describe(match.names, 0) for played in match.history for event in played.events]


# -- round trip ------------------------------------------------------------------------------
@needs_game
@pytest.mark.parametrize("game", GAMES)
def test_round_trip_of_a_played_game(store, game):
    match = play(new_match(game), 25)
    assert match.history, "no command was played"
    game_id = store.create(match)

    loaded = store.load(game_id)
    assert loaded.spec.to_json(loaded.state) == match.spec.to_json(match.state)
    assert history_texts(loaded) == history_texts(match)
    assert log_lines(loaded) == log_lines(match)
    assert (loaded.seats, loaded.options, loaded.seed) == (match.seats, match.options, match.seed)

    [info] = store.list()
    assert info.id == game_id and info.game == game
    assert info.title == match.spec.title
    assert info.seats == match.seats
    assert info.turn == match.turn
    assert info.finished is match.over
    assert info.result == result_text(match.outcome, match.names)
    assert store.problems == []


@needs_game
def test_file_holds_match_json_and_metadata(store):
    match = play(new_match(first_game()), 5)
    game_id = store.create(match)
    data = json.loads((store.folder / f"{game_id}.json").read_text(encoding="utf-8"))
    assert data["format"] == FORMAT_VERSION
    assert {key: data[key] for key in match.to_json()} == match.to_json()
    assert datetime.fromisoformat(data["saved"]).utcoffset() == timedelta(0)
    assert data["summary"] == {
        "title": match.spec.title, "seats": list(match.names), "turn": match.turn,
        "to_play": [match.names[seat] for seat in sorted(match.awaiting)], "over": False, "result": "",
    }


@needs_game
def test_autosave_updates_the_listing_and_keeps_created(store, clock):
    match = new_match(first_game())
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    created = json.loads(path.read_text(encoding="utf-8"))["created"]
    first = store.list()[0]

    play(match, 15)
    SaveStore(store.root).save(game_id, match)  # a fresh store, as after a restart
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["created"] == created
    assert data["commands"] == history_texts(match)
    info = store.list()[0]
    assert info.turn == match.turn
    assert info.updated > first.updated


# -- atomic writes ---------------------------------------------------------------------------
class HalfWriter:
    """A file whose write stops half-way with a full disk."""

    def __init__(self, file):
        self.file = file

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()

    def write(self, text):
        self.file.write(text[: len(text) // 2])
        self.file.flush()
        raise OSError(28, "No space left on device")


@needs_game
@pytest.mark.parametrize("failure", ["write", "fsync", "replace", "serialise"])
def test_failed_write_keeps_the_previous_save(store, monkeypatch, failure):
    match = play(new_match(first_game()), 4)
    game_id = store.create(match)
    before = history_texts(match)
    play(match, 6)
    assert history_texts(match) != before

    def broken(*args, **kwargs):
        raise OSError(5, "I/O error")

    real_fdopen = os.fdopen
    if failure == "write":
        monkeypatch.setattr(saves.os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k)))
    elif failure == "fsync":
        monkeypatch.setattr(saves.os, "fsync", broken)
    elif failure == "replace":
        monkeypatch.setattr(saves.os, "replace", broken)
    else:
        monkeypatch.setattr(match, "to_json", lambda: {"format": 1, "bad": object()})
    with pytest.raises((OSError, TypeError)):
        store.save(game_id, match)
    monkeypatch.undo()

    assert history_texts(store.load(game_id)) == before
    assert sorted(p.name for p in store.folder.iterdir()) == [f"{game_id}.json"], "a temp file was left"


# -- damaged and newer files -----------------------------------------------------------------
def folder_snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` with its bytes and modification time: proof nothing changed."""
    return {str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(root.rglob("*")) if path.is_file()}


def write_files(store: SaveStore, files: dict[str, str | bytes]) -> None:
    store.folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (store.folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())


@needs_game
def test_listing_shows_damaged_files_as_damaged_and_changes_nothing_on_disk(store):
    good = [store.create(play(new_match(first_game(), seed), 3)) for seed in (1, 2)]
    good_text = (store.folder / f"{good[0]}.json").read_text(encoding="utf-8")
    newer = json.loads(good_text) | {"format": FORMAT_VERSION + 1}
    garbled = json.loads(good_text) | {"commands": "every move"}
    bad = {
        "broken.json": ('{\n  "format": 1,\n  "game": oops\n}', "broken JSON at line 3", True),
        "array.json": ("[1, 2, 3]", "not a JSON object", True),
        "bare.json": ('{"format": 1}', "missing 'game', 'seats', 'seed', 'commands'", True),
        "binary.json": (b"\xff\xfe\x00garbage", "not text", True),
        "garbled.json": (json.dumps(garbled), "the moves are not a list", True),
        "newer.json": (json.dumps(newer), f"saved by a newer cardtable (format {FORMAT_VERSION + 1}", False),
    }
    write_files(store, {name: content for name, (content, _, _) in bad.items()})
    before = folder_snapshot(store.root)

    for _ in range(2):
        infos = store.list()
        assert folder_snapshot(store.root) == before, "listing changed the disk"
        assert store.problems == []
        assert sorted(info.id for info in infos if not info.damaged) == sorted(good)
        damaged = {info.id: info for info in infos if info.damaged}
        assert sorted(damaged) == sorted(name.removesuffix(".json") for name in bad)
        for name, (_, reason, set_aside) in bad.items():
            info = damaged[name.removesuffix(".json")]
            assert reason in info.reason
            assert info.set_aside is set_aside
            assert info.status.startswith("damaged — " if set_aside else "cannot open — ")
            assert not info.finished
    assert store.latest().id in good


@needs_game
def test_a_save_damaged_inside_is_listed_as_damaged_not_in_play(store):
    match = play(new_match(first_game()), 3)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    for damage, says in [
        (lambda d: d.update(seed="42"), "the seed is not a whole number"),
        (lambda d: d["seats"].pop(), "players, not"),
        (lambda d: d["seats"][0].update(name=7), "a seat's name must be text"),
        (lambda d: d.update(options={"no-such-option": 1}), "unknown option"),
    ]:
        data = json.loads(path.read_text(encoding="utf-8"))
        damage(data)
        path.write_text(json.dumps(data), encoding="utf-8")
        [info] = store.list()
        assert info.damaged and says in info.reason, (says, info.reason)
        assert info.status.startswith("damaged — ")
        assert store.latest() is None
        store.save(game_id, match)


def test_opening_damaged_files_sets_them_aside_without_overwriting(store):
    for attempt in ("first", "second"):
        write_files(store, {"x.json": attempt})
        with pytest.raises(SaveFormatError):
            store.open("x")
    assert (store.damaged_folder / "x.json").read_text(encoding="utf-8") == "first"
    assert (store.damaged_folder / "x.1.json").read_text(encoding="utf-8") == "second"
    with pytest.raises(SaveFormatError, match=r"moved to saves/damaged/x\.2\.json$"):
        write_files(store, {"x.json": "third"})
        store.open("x")


@needs_game
def test_load_of_a_damaged_file_raises_and_sets_it_aside(store):
    store.folder.mkdir(parents=True)
    (store.folder / "torn.json").write_text('{"format": 1,\n "game": "', encoding="utf-8")
    with pytest.raises(SaveFormatError, match=r"^Set aside torn\.json: not a cardtable save "
                                              r"\(broken JSON at line 2\) — moved to saves/damaged/$"):
        store.load("torn")
    assert (store.damaged_folder / "torn.json").exists()
    with pytest.raises(LookupError, match="no saved game 'torn'"):
        store.load("torn")


@needs_game
@pytest.mark.parametrize("how", ["newer format", "unknown game"])
def test_a_save_this_version_cannot_play_is_reported_and_never_moved(store, how):
    data = play(new_match(first_game()), 2).to_json()
    data |= {"format": FORMAT_VERSION + 1} if how == "newer format" else {"game": "no-such-game"}
    says = "saved by a newer cardtable" if how == "newer format" else "'no-such-game', which this cardtable does not have"
    write_files(store, {"future.json": json.dumps(data)})
    before = folder_snapshot(store.root)

    [info] = store.list()
    assert info.damaged and not info.set_aside and says in info.reason
    if how == "newer format":
        assert info.title == rules.find_game(first_game()).title  # still named
    for opening in (store.open, store.load):
        with pytest.raises(SaveFormatError, match=f"^Cannot open future.json: .*{says}"):
            opening("future")
    assert folder_snapshot(store.root) == before, "the file was moved or changed"
    assert not store.damaged_folder.exists()
    assert not (store.folder / "future.lock").exists()


# -- a save whose later moves no longer replay -----------------------------------------------
def damage_move(how: str):
    """A way to spoil one saved move, and the notation the notice names it by."""
    return {
        "a command the game refuses": (lambda entry: [entry[0], "no such command"], lambda entry: "no such command"),
        "seat out of range": (lambda entry: [9, entry[1]], lambda entry: entry[1]),
        "negative seat": (lambda entry: [-1, entry[1]], lambda entry: entry[1]),
        "text instead of [seat, text]": (lambda entry: entry[1], lambda entry: entry[1]),
        "not a move at all": (lambda entry: {"seat": 0}, lambda entry: "{'seat': 0}"),
    }[how]


@needs_game
@pytest.mark.parametrize("how", ["a command the game refuses", "seat out of range", "negative seat",
                                 "text instead of [seat, text]", "not a move at all"])
@pytest.mark.parametrize("broken_move", [1, 5, 8])
def test_a_save_whose_move_k_does_not_replay_resumes_after_move_k_minus_1(store, how, broken_move):
    match = play(new_match(first_game()), 8)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    spoil, named = damage_move(how)
    entry = data["commands"][broken_move - 1]
    data["commands"][broken_move - 1] = spoil(entry)
    original = json.dumps(data)
    path.write_text(original, encoding="utf-8")
    [info] = store.list()
    assert not info.damaged  # listing does not replay the moves: opening repairs the game

    # the replay stops there too, and reads only
    replayed = store.replay(game_id)
    assert replayed.replay.moves == broken_move - 1
    assert replayed.notice == (f"Move {broken_move} of this game ({named(entry)!r}) no longer replays: "
                               f"the replay ends after move {broken_move - 1}.")
    assert path.read_text(encoding="utf-8") == original

    opened = store.open(game_id)
    assert history_texts(opened.match) == history_texts(match)[: broken_move - 1]
    before = "from its first move" if broken_move == 1 else f"after move {broken_move - 1}"
    assert opened.notice == (
        f"Move {broken_move} of this game ({named(entry)!r}) no longer replays, so it resumes "
        f"{before}; the original save is kept in saves/replaced/{game_id}.json.")
    assert (store.replaced_folder / f"{game_id}.json").read_text(encoding="utf-8") == original
    assert not store.damaged_folder.exists()
    # the shortened game is what the save holds now; it opens again without a notice
    store.release(game_id)
    again = store.open(game_id)
    assert again.notice is None and history_texts(again.match) == history_texts(opened.match)
    store.release(game_id)


@needs_game
@pytest.mark.parametrize("damage, where", [
    (lambda snapshot: snapshot.update(money=[1, 2]), "it differs at money[0]"),
    (lambda snapshot: snapshot["hands"][1].insert(0, "XX"), "it differs at hands[1][0]"),
    (lambda snapshot: snapshot.pop("board"), "it differs at board"),
    (lambda snapshot: snapshot.clear() or snapshot.update(x=1), "it differs at players"),
])
def test_a_save_whose_moves_do_not_reach_its_saved_position_resumes_where_they_lead(store, damage, where):
    match = play(new_match(first_game()), 8)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    damage(data["snapshot"])
    original = json.dumps(data)
    path.write_text(original, encoding="utf-8")
    assert not store.list()[0].damaged

    replayed = store.replay(game_id)
    assert replayed.replay.moves == len(match.history) and replayed.replay.view(None) == match.view(None)
    assert replayed.notice == (f"The moves of this game replay but do not reach the position it saved "
                               f"({where}): the replay shows where the moves lead.")

    opened = store.open(game_id)
    assert history_texts(opened.match) == history_texts(match)
    assert opened.match.spec.to_json(opened.match.state) == match.spec.to_json(match.state)
    assert opened.notice == (
        f"The moves of this game replay but do not reach the position it saved ({where}), so it "
        f"resumes where the moves lead, after move {len(match.history)}; the original save is kept "
        f"in saves/replaced/{game_id}.json.")
    assert (store.replaced_folder / f"{game_id}.json").read_text(encoding="utf-8") == original
    assert not store.damaged_folder.exists()
    store.release(game_id)
    again = store.open(game_id)  # the save holds the position the moves reach now
    assert again.notice is None and history_texts(again.match) == history_texts(match)
    store.release(game_id)


@needs_game
def test_a_saved_position_that_is_not_one_is_said_so(store):
    match = play(new_match(first_game()), 3)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["snapshot"] = "nothing"
    path.write_text(json.dumps(data), encoding="utf-8")
    opened = store.open(game_id)
    assert opened.notice.startswith("The moves of this game replay but do not reach the position it "
                                    "saved (it is not a position of this game), so it resumes where "
                                    "the moves lead, after move 3;")
    store.release(game_id)


@needs_game
def test_the_original_of_a_shortened_save_is_never_written_over_unkept(store, monkeypatch):
    match = play(new_match(first_game()), 6)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["commands"][3][1] = "no such command"
    original = json.dumps(data)
    path.write_text(original, encoding="utf-8")

    real_write = saves.write_atomically

    def full_disk(target, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves, "write_atomically", full_disk)
    opened = store.open(game_id)
    assert len(opened.match.history) == 3
    assert "the original save is left as it was" in opened.notice and "the disk is full" in opened.notice
    assert path.read_text(encoding="utf-8") == original
    play(opened.match, 2)
    with pytest.raises(saves.SaveError, match="could not be kept"):
        store.save(game_id, opened.match)
    assert path.read_text(encoding="utf-8") == original

    monkeypatch.setattr(saves, "write_atomically", real_write)
    store.save(game_id, opened.match)  # the disk has room again: first the original is kept
    assert (store.replaced_folder / f"{game_id}.json").read_text(encoding="utf-8") == original
    assert history_texts(store.load(game_id)) == history_texts(opened.match)
    store.release(game_id)


# -- finished games, delete, latest ----------------------------------------------------------
@needs_game
def test_a_finished_game_stays_listed_as_finished_with_its_result(store, clock):
    match = play_to_end(new_match(first_game()))
    finished_id = store.create(match)
    playing_id = store.create(play(new_match(first_game(), seed=9), 2))
    store.save(finished_id, match)  # the finished game is the one played last

    info = next(i for i in store.list() if i.id == finished_id)
    assert info.finished is True
    assert info.result == result_text(match.outcome, match.names)
    assert any(info.result.startswith(match.names[seat]) for seat in match.outcome.winners)
    assert store.latest(unfinished=True).id == playing_id
    assert store.latest(unfinished=False).id == finished_id
    assert store.load(finished_id).outcome == match.outcome


@needs_game
def test_delete_moves_the_game_to_the_trash_and_restore_brings_it_back(store, clock):
    keep = store.create(new_match(first_game(), 1))
    gone = store.create(play(new_match(first_game(), 2), 3))
    text = (store.folder / f"{gone}.json").read_bytes()
    assert store.delete(gone) == gone
    assert [info.id for info in store.list()] == [keep]
    assert (store.trash_folder / f"{gone}.json").read_bytes() == text
    assert [info.id for info in store.trash()] == [gone]
    with pytest.raises(LookupError, match=f"no saved game '{gone}'"):
        store.load(gone)
    with pytest.raises(LookupError, match=f"no saved game '{gone}'"):
        store.delete(gone)

    assert store.restore(gone) == gone
    assert store.trash() == []
    assert sorted(info.id for info in store.list()) == sorted([keep, gone])
    assert history_texts(store.load(gone)) == history_texts(play(new_match(first_game(), 2), 3))
    with pytest.raises(LookupError, match="in the trash"):
        store.restore(gone)


@needs_game
def test_the_trash_keeps_every_deletion_of_an_id_and_restores_beside_a_newer_save(store):
    game_id = store.create(new_match(first_game(), 1))
    first = (store.folder / f"{game_id}.json").read_bytes()
    assert store.delete(game_id) == game_id
    store.save(game_id, play(new_match(first_game(), 1), 2))
    second = (store.folder / f"{game_id}.json").read_bytes()
    assert store.delete(game_id) == f"{game_id}.1"
    assert (store.trash_folder / f"{game_id}.json").read_bytes() == first
    assert (store.trash_folder / f"{game_id}.1.json").read_bytes() == second

    assert store.restore(f"{game_id}.1") == game_id  # its own id again
    assert store.restore(game_id) == f"{game_id}-restored"  # that id is taken now
    assert (store.folder / f"{game_id}-restored.json").read_bytes() == first
    assert store.trash() == []


@needs_game
def test_latest_is_the_most_recently_played(store, clock):
    older = store.create(new_match(first_game(), 1))
    newer = store.create(new_match(first_game(), 2))
    assert store.latest().id == newer
    store.save(older, play(store.load(older), 1))
    assert store.latest().id == older
    assert [info.id for info in store.list()] == [older, newer]


def test_latest_of_an_empty_store_is_none(store):
    assert store.latest() is None
    assert store.list() == [] and store.problems == []
    assert not store.root.exists(), "listing must not create folders"


@needs_game
def test_ids_are_unique_sortable_and_safe(store, monkeypatch):
    # the same random tail every time: uniqueness must come from checking what exists
    tails = iter(["3f2a", "3f2a", "3f2a", "b001"])
    monkeypatch.setattr(saves.secrets, "token_hex", lambda n: next(tails))
    monkeypatch.setattr(saves, "datetime", FrozenDatetime)
    ids = [store.create(new_match(first_game(), seed)) for seed in (1, 2)]
    slug = re.sub(r"[^a-z0-9]+", "-", first_game())
    assert ids == [f"20261122-141503-{slug}-3f2a", f"20261122-141503-{slug}-b001"]
    assert all((store.folder / f"{game_id}.json").is_file() for game_id in ids)


class FrozenDatetime(datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 11, 22, 14, 15, 3, tzinfo=tz)


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", "", "a\\b", "..", "x" * 10_000,
                                 "a\0b", "a\nb", " a", "\udcff", "é" * 150])
def test_odd_ids_are_no_saved_game_in_a_short_sentence(store, bad):
    store.folder.mkdir(parents=True)
    for action in (store.load, store.open, store.delete, store.set_aside, store.restore):
        with pytest.raises(LookupError, match="no (saved game|game) ") as raised:
            action(bad)
        assert len(str(raised.value)) < 120 and "\n" not in str(raised.value)
    store.release(bad)
    assert not saves.is_valid_id(bad)


@pytest.mark.parametrize("good", ["20261122-141503-property-3f2a", "partie-é", "x.1", "Ann's game"])
def test_ids_a_person_might_give_a_file_are_fine(good):
    assert saves.is_valid_id(good)


# -- where the store lives -------------------------------------------------------------------
def test_default_data_dir_follows_the_platform(private_dirs):
    assert default_data_dir() == private_dirs / "data" / "cardtable"
    assert SaveStore().folder == private_dirs / "data" / "cardtable" / "saves"


def test_cardtable_data_dir_overrides_the_platform(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"
    assert SaveStore().root == tmp_path / "mine"
    assert SaveStore(tmp_path / "given").root == tmp_path / "given"


# -- the result line -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ranks, expected",
    [
        ((1, 2), "Ann won"),
        ((2, 1, 3), "Bob won"),
        ((1, 1, 3), "Ann and Bob shared the win"),
        ((1, 1, 1), "Ann, Bob and Cleo shared the win"),
    ],
)
def test_result_text(ranks, expected):
    outcome = Outcome(ranks, (0,) * len(ranks))
    assert result_text(outcome, NAMES[: len(ranks)]) == expected


def test_result_text_of_a_game_in_play_is_empty():
    assert result_text(None, NAMES) == ""


def test_save_info_marks_bots():
    info = SaveInfo("x", "g", "G", (Seat("Ann"), Seat("Cleo", "greedy")), 3,
                    datetime.now(timezone.utc), False, "")
    assert info.players == "Ann, Cleo (bot: greedy)"


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


@needs_game
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


# -- two processes, one save ---------------------------------------------------------------------
HOLD = """
import sys
from cardtable.saves import SaveStore
SaveStore(sys.argv[1]).lock(sys.argv[2])
print("locked", flush=True)
sys.stdin.readline()
"""


@contextmanager
def held_elsewhere(store: SaveStore, game_id: str):
    """Another cardtable process holding the game's lock until the block ends."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(store.root), game_id],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "locked"
        yield process
    finally:
        if process.poll() is None:
            process.stdin.close()
        process.wait(timeout=60)


def dead_pid() -> int:
    """The id of a process that has ended (and been waited for)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


@needs_game
def test_a_game_open_in_another_process_is_refused_naming_that_process(store):
    match = play(new_match(first_game()), 3)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    text = path.read_bytes()
    with held_elsewhere(store, game_id) as other:
        record = json.loads((store.folder / f"{game_id}.lock").read_text())
        assert record["pid"] == other.pid and record["host"] == socket.gethostname()
        named = rf"open in another cardtable \(process {other.pid} on {re.escape(socket.gethostname())}, since"
        with pytest.raises(GameInUse, match=named):
            store.open(game_id)
        play(match, 2)
        with pytest.raises(GameInUse, match=named):
            store.save(game_id, match)  # no last-writer-wins
        with pytest.raises(GameInUse, match=named):
            SaveStore(store.root).delete(game_id)
        assert path.read_bytes() == text
        assert not store.holds(game_id)
    # that process has ended: the game opens here, and this process holds it now
    opened = store.open(game_id)
    assert history_texts(opened.match) == history_texts(match)[:3]
    record = json.loads((store.folder / f"{game_id}.lock").read_text())
    assert record["pid"] == os.getpid()
    store.save(game_id, match)
    store.release(game_id)
    assert not (store.folder / f"{game_id}.lock").exists()


@needs_game
def test_a_lock_left_by_a_killed_process_is_taken_over(store):
    game_id = store.create(new_match(first_game()))
    with held_elsewhere(store, game_id) as other:
        other.kill()  # no chance to give the lock back
        other.wait(timeout=60)
        assert json.loads((store.folder / f"{game_id}.lock").read_text())["pid"] == other.pid
        opened = store.open(game_id)
    assert json.loads((store.folder / f"{game_id}.lock").read_text())["pid"] == os.getpid()
    assert opened.match.seed == 3
    store.release_all()
    assert not (store.folder / f"{game_id}.lock").exists()


@needs_game
def test_a_stale_lock_file_naming_a_dead_process_is_taken_over_and_tidied(store):
    game_id = store.create(new_match(first_game()))
    lock = store.folder / f"{game_id}.lock"
    stale = {"pid": dead_pid(), "host": socket.gethostname(), "since": "2026-01-01T00:00:00+00:00"}
    lock.write_text(json.dumps(stale))
    store.lock(game_id)
    assert json.loads(lock.read_text())["pid"] == os.getpid()
    store.release(game_id)

    lock.write_text(json.dumps(stale))
    other = store.create(new_match(first_game(), 5))
    store.lock(other)
    assert sorted(store.tidy()) == [f"{game_id}.lock"]  # a held lock stays
    assert (store.folder / f"{other}.lock").exists()
    store.release(other)


@needs_game
def test_one_process_may_open_its_own_game_again(store):
    game_id = store.create(new_match(first_game()))
    store.open(game_id)
    SaveStore(store.root).open(game_id)  # the same process: no refusal
    SaveStore(store.root).save(game_id, new_match(first_game()))
    store.release(game_id)
    assert not store.holds(game_id) and not (store.folder / f"{game_id}.lock").exists()


@needs_game
def test_a_game_that_cannot_be_opened_does_not_stay_locked(store):
    store.folder.mkdir(parents=True)
    (store.folder / "torn.json").write_text("{")
    with pytest.raises(SaveFormatError):
        store.open("torn")
    assert not store.holds("torn") and not (store.folder / "torn.lock").exists()


# -- temporary files ---------------------------------------------------------------------------
SAVE_MANY = """
import os, sys
sys.path.insert(0, sys.argv[3])
import rules
from cardtable import saves
from cardtable.saves import SaveStore
from rules.core import Match, Seat
from game_helpers import play_random

saves.finish_writes_before_dying()
store = SaveStore(sys.argv[1])
match = Match(rules.find_game(sys.argv[2]), [Seat("Ann"), Seat("Bob", "random")], seed=1)
game_id = store.create(match)
print(game_id, flush=True)
stop_at = int(sys.argv[4])
real_replace = os.replace

def replace(source, target):
    # the temporary file is written and synced, not yet swapped in: say so and wait
    if len(match.history) == stop_at:
        print("writing", len(match.history), flush=True)
        sys.stdin.readline()
    real_replace(source, target)

os.replace = replace
while True:
    play_random(match)
    store.save(game_id, match)
"""


def temporary_files(store: SaveStore) -> list[str]:
    return sorted(p.name for p in store.folder.iterdir() if p.name.endswith(".tmp"))


@needs_game
@pytest.mark.parametrize("stop_at", [1, 4, 9])
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_a_process_killed_in_the_middle_of_many_saves_leaves_no_temporary_file(store, sig, stop_at):
    writer = subprocess.Popen(
        [sys.executable, "-c", SAVE_MANY, str(store.root), first_game(), str(Path(__file__).parent),
         str(stop_at)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        game_id = writer.stdout.readline().strip()
        assert writer.stdout.readline().split() == ["writing", str(stop_at)]
        [temp] = temporary_files(store)  # caught in the act
        writer.send_signal(getattr(signal, sig))
        if sig == "SIGTERM":
            writer.stdin.write("\n")  # go on: the save finishes, then the process ends
            writer.stdin.flush()
    finally:
        writer.wait(timeout=60)
    assert writer.returncode == -getattr(signal, sig)
    saved = store.load(game_id)  # the save is whole either way
    if sig == "SIGTERM":
        # SIGTERM waited for the save: it is complete and nothing is left behind
        assert len(saved.history) == stop_at
        assert temporary_files(store) == []
    else:
        # nothing can outlive SIGKILL; the store, opened again, removes what it left
        assert len(saved.history) == stop_at - 1
        assert temporary_files(store) == [temp]
        assert SaveStore(store.root).tidy() == [temp]
        assert temporary_files(store) == []
    assert sorted(p.name for p in store.folder.iterdir()) == [f"{game_id}.json"]


def test_tidy_removes_the_temporary_files_of_dead_writers_only(store, monkeypatch):
    store.folder.mkdir(parents=True)
    host = saves._HOST
    old = time.time() - 2 * saves.STALE_TEMP_SECONDS
    files = {
        f".a.json.{host}-{dead_pid()}.0123abcd.tmp": (None, True),       # its writer has ended
        f".a.json.{host}-{os.getpid()}.0123abcd.tmp": (None, True),     # this process writes none now
        f".a.json.{host}-{os.getppid()}.0123abcd.tmp": (None, False),   # a live writer's
        ".a.json.elsewhere-7.0123abcd.tmp": (None, False),               # another host's, recent
        ".b.json.elsewhere-7.0123abcd.tmp": (old, True),                 # another host's, an hour old
        ".a.k3j4h5x_.tmp": (None, False),                                 # an older cardtable's, recent
        ".b.k3j4h5x_.tmp": (old, True),                                   # an older cardtable's, old
        "a.json": (old, False),
        "notes.tmp": (old, False),                                        # not hidden: not ours
    }
    for name, (mtime, _) in files.items():
        (store.folder / name).write_text("{}")
        if mtime is not None:
            os.utime(store.folder / name, (mtime, mtime))
    removed = store.tidy()
    assert sorted(removed) == sorted(name for name, (_, gone) in files.items() if gone)
    assert sorted(p.name for p in store.folder.iterdir()) == sorted(
        name for name, (_, gone) in files.items() if not gone)


def test_the_write_path_names_its_temporary_file_after_its_process(store, monkeypatch):
    seen = []
    real_replace = os.replace

    def spy(source, target):
        seen.append(Path(source).name)
        return real_replace(source, target)

    monkeypatch.setattr(saves.os, "replace", spy)
    saves.write_atomically(store.folder / "x.json", "{}")
    [name] = seen
    assert re.fullmatch(rf"\.x\.json\.{saves._HOST}-{os.getpid()}\.[0-9a-f]{{8}}\.tmp", name)
    assert saves._IN_FLIGHT == set()


# -- a data folder that cannot be written -------------------------------------------------------
@needs_game
@pytest.mark.parametrize("blocked", ["root", "saves"])
def test_a_file_where_the_folder_should_be_is_said_in_words(tmp_path, blocked):
    store = SaveStore(tmp_path / "data")
    blocker = store.root if blocked == "root" else store.folder
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("not a folder")
    with pytest.raises(SaveError) as raised:
        store.create(new_match(first_game()))
    assert str(raised.value) == f"Games cannot be saved in {store.folder}: {blocker} is a file, not a folder."
    assert store.list() == []
    assert store.problems == [f"Cannot read the saves in {store.folder}: {blocker} is a file, not a folder."]
    assert store.latest() is None and store.trash() == [] and store.tidy() == []


@needs_game
@pytest.mark.parametrize("code, why", [
    (errno.ENOSPC, "the disk is full"),
    (errno.EACCES, "there is no permission to write there"),
    (errno.EROFS, "the disk is read-only"),
])
def test_a_disk_that_refuses_is_said_in_words_and_the_last_save_survives(store, monkeypatch, code, why):
    match = play(new_match(first_game()), 3)
    game_id = store.create(match)
    before = (store.folder / f"{game_id}.json").read_bytes()
    real_open = os.open

    def refusing(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(saves.os, "open", refusing)
    play(match, 2)
    with pytest.raises(SaveError, match=f"^Games cannot be saved in {re.escape(str(store.folder))}: {why}.$"):
        store.save(game_id, match)
    with pytest.raises(SaveError, match=why):
        store.create(match)
    store.lock(game_id)  # no lock file can be written: nothing is held, nothing fails
    assert not store.holds(game_id)
    monkeypatch.undo()
    assert (store.folder / f"{game_id}.json").read_bytes() == before
    assert [p.name for p in store.folder.iterdir()] == [f"{game_id}.json"]


@needs_game
@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_really_refuses(store):
    game_id = store.create(new_match(first_game()))
    store.folder.chmod(0o555)
    try:
        with pytest.raises(SaveError, match="no permission to write there"):
            store.save(game_id, play(new_match(first_game()), 2))
        assert store.open(game_id).match.seed == 3
    finally:
        store.folder.chmod(0o755)


def test_path_type_is_accepted(tmp_path):
    assert SaveStore(str(tmp_path)).root == Path(tmp_path)
