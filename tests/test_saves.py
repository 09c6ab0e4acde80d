"""The save store: real seeded games saved and read back, atomic writes, damaged files set
aside without hiding the good ones, finished games, delete and latest."""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import rules
from cardtable import saves
from cardtable.saves import SaveInfo, SaveStore, default_data_dir, result_text
from rules.core import FORMAT_VERSION, Match, Outcome, SaveFormatError, Seat

from game_helpers import play_random

GAMES = sorted(rules.GAMES)
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
    return GAMES[0]


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
        "over": False, "result": "",
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
@needs_game
def test_damaged_files_are_set_aside_and_the_good_saves_still_list(store):
    good = [store.create(play(new_match(first_game(), seed), 3)) for seed in (1, 2)]
    good_text = (store.folder / f"{good[0]}.json").read_text(encoding="utf-8")
    newer = json.loads(good_text) | {"format": FORMAT_VERSION + 1}
    bad = {
        "broken.json": ('{\n  "format": 1,\n  "game": oops\n}', "broken JSON at line 3"),
        "array.json": ("[1, 2, 3]", "not a JSON object"),
        "bare.json": ('{"format": 1}', "missing 'game', 'seats', 'seed', 'commands'"),
        "binary.json": (b"\xff\xfe\x00garbage", "not text"),
        "newer.json": (json.dumps(newer), f"saved by a newer cardtable (format {FORMAT_VERSION + 1}"),
    }
    for name, (content, _) in bad.items():
        path = store.folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())

    assert sorted(info.id for info in store.list()) == sorted(good)
    assert len(store.problems) == len(bad)
    for name, (content, reason) in bad.items():
        [message] = [p for p in store.problems if p.startswith(f"Set aside {name}:")]
        assert reason in message
        assert message.endswith("moved to saves/damaged/")
        assert not (store.folder / name).exists()
        moved = store.damaged_folder / name
        assert moved.read_bytes() == (content if isinstance(content, bytes) else content.encode())

    assert sorted(info.id for info in store.list()) == sorted(good)
    assert store.problems == []


def test_a_second_damaged_file_of_the_same_name_does_not_overwrite_the_first(store):
    for attempt in ("first", "second"):
        store.folder.mkdir(parents=True, exist_ok=True)
        (store.folder / "x.json").write_text(attempt, encoding="utf-8")
        store.list()
    assert (store.damaged_folder / "x.json").read_text(encoding="utf-8") == "first"
    assert (store.damaged_folder / "x.1.json").read_text(encoding="utf-8") == "second"
    assert store.problems == ["Set aside x.json: not a cardtable save (broken JSON at line 1)"
                              " — moved to saves/damaged/x.1.json"]


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
def test_load_of_a_save_that_does_not_replay_sets_it_aside(store):
    match = play(new_match(first_game()), 6)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["commands"][0] = [0, "no such command"]
    path.write_text(json.dumps(data), encoding="utf-8")

    with pytest.raises(SaveFormatError, match=rf"^Set aside {game_id}\.json: move 1 .*does not replay"):
        store.load(game_id)
    assert not path.exists()
    assert (store.damaged_folder / path.name).exists()
    assert store.list() == []


@needs_game
def test_a_game_this_version_lacks_is_reported_but_left_in_place(store):
    data = new_match(first_game()).to_json() | {"game": "no-such-game"}
    store.folder.mkdir(parents=True)
    path = store.folder / "future.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    assert store.list() == []
    assert store.problems == ["Cannot open future.json: it is a game of 'no-such-game', "
                              "which this cardtable does not have"]
    with pytest.raises(SaveFormatError, match="no-such-game"):
        store.load("future")
    assert path.exists()


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
def test_delete(store):
    keep = store.create(new_match(first_game(), 1))
    gone = store.create(new_match(first_game(), 2))
    store.delete(gone)
    assert [info.id for info in store.list()] == [keep]
    with pytest.raises(LookupError, match=f"no saved game '{gone}'"):
        store.load(gone)
    with pytest.raises(LookupError, match=f"no saved game '{gone}'"):
        store.delete(gone)


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


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", "", "a\\b"])
def test_ids_cannot_leave_the_folder(store, bad):
    with pytest.raises(LookupError, match="no saved game"):
        store.load(bad)


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


def test_path_type_is_accepted(tmp_path):
    assert SaveStore(str(tmp_path)).root == Path(tmp_path)
