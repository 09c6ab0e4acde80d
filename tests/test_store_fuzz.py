"""The store's borders, attacked. A game file — random JSON, a real save with any field changed
to anything, absurd numbers, deep nesting, bad dates, a torn file — is imported as a game or
refused with a sentence (``cardtable import``), and brought in on first run beside a good save
without hiding it, listed as a game or as unreadable with the reason, the file left as it was.
A database file damaged anywhere opens (its games as far as they are whole), or is set aside
with a sentence and a new one begun. Nothing else may come out."""

from __future__ import annotations

import copy
import json
import math
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from cardtable.store import SaveError, SaveStore
from cardtable.store.files import game_file
from rules.core import Match, SaveFormatError, Seat

from game_helpers import play_random

GAMES = sorted(rules.GAMES)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
FEW = settings(FUZZ, max_examples=40)


def real_save(game: str) -> dict[str, Any]:
    """A real game file's JSON: a few moves of ``game`` between a human and a random bot."""
    match = Match(rules.find_game(game), [Seat("Ann"), Seat("Bob", "random")], seed=3)
    for _ in range(8):
        play_random(match)
    return json.loads(json.dumps(game_file(match, "2026-01-01T10:00:00+00:00", "2026-01-02T10:00:00+00:00")))


SAVES = {game: real_save(game) for game in GAMES}


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[SaveStore]:
    """One store for a whole test: each example imports its file beside the games before it."""
    store = SaveStore(tmp_path_factory.mktemp("fuzz"))
    yield store
    store.close()


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value, as the keys and indexes that lead there."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def replaced(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return data


def removed(data: Any, path: tuple) -> Any:
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return data


def raw_bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content


def games_in(store: SaveStore) -> int:
    return store._db().execute("SELECT COUNT(*) FROM games").fetchone()[0]


def assert_survives(store: SaveStore, content: str | bytes, game: str = GAMES[0]) -> None:
    """Import ``content`` as a file: a game that lists and opens, or a SaveFormatError in one
    sentence and nothing added; the file is left as it was."""
    path = store.root / "incoming.json"
    path.write_bytes(raw_bytes(content))
    before = games_in(store)
    try:
        game_id, notice = store.import_file(path)
    except SaveFormatError as error:
        message = str(error)
        assert message.startswith("incoming.json cannot be imported: ")
        assert "\n" not in message and len(message) < 600
        assert games_in(store) == before
    else:
        assert games_in(store) == before + 1
        [info] = store.list()  # (each example's game goes to the trash: the list stays short)
        assert info.id == game_id and store.problems == []
        assert not info.damaged and isinstance(info.status, str) and isinstance(info.players, str)
        info.updated.astimezone()  # every date can be shown
        opened = store.open(game_id)
        assert isinstance(opened.match, Match)
        assert notice is None or "\n" not in notice
        store.delete(game_id)
    assert path.read_bytes() == raw_bytes(content), "the file was changed"


def assert_brought_in(content: str | bytes, game: str = GAMES[0]) -> None:
    """Put ``content`` among the saves of an earlier version beside a good save: the first run
    lists both (the good one as playable), opening the file gives a game or a SaveFormatError,
    and both files are left as they were."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "saves").mkdir()
        good = json.dumps(SAVES[game])
        (root / "saves" / "good.json").write_text(good, encoding="utf-8")
        (root / "saves" / "fuzzed.json").write_bytes(raw_bytes(content))
        store = SaveStore(root)
        try:
            infos = {info.id: info for info in store.list()}
            assert set(infos) == {"good", "fuzzed"} and store.problems == []
            assert not infos["good"].damaged
            info = infos["fuzzed"]
            assert isinstance(info.status, str) and isinstance(info.players, str)
            info.updated.astimezone()
            if info.damaged:
                assert info.reason and "\n" not in info.reason and info.file == "saves/fuzzed.json"
            try:
                opened = store.open("fuzzed")
            except SaveFormatError as error:
                assert info.damaged, "a game listed as playable did not open"
                assert "\n" not in str(error) and len(str(error)) < 600
            else:
                assert isinstance(opened.match, Match) and not info.damaged
            assert store.load("good")
        finally:
            store.close()
        assert (root / "saves" / "fuzzed.json").read_bytes() == raw_bytes(content)
        assert (root / "saves" / "good.json").read_text(encoding="utf-8") == good


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from([10**400, -(10**30), 2**63, math.inf, -math.inf, "", "1e400", "2026-13-45"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


# -- random input ----------------------------------------------------------------------------
@FUZZ
@given(value=json_values)
def test_any_json_value_is_a_game_or_a_save_format_error(store, value):
    assert_survives(store, json.dumps(value))


@FEW
@given(value=json_values)
def test_any_json_value_among_earlier_saves_never_hides_the_good_one(value):
    assert_brought_in(json.dumps(value))


@FUZZ
@given(value=st.dictionaries(st.sampled_from(["format", "game", "seats", "seed", "commands", "options",
                                              "snapshot", "summary", "saved", "created", "turn", "over"]),
                             json_values, max_size=8),
       format_=st.sampled_from([1, 2, 3, 0, -1, 2.0, True, "2"]),
       game=st.sampled_from([*GAMES, "PROPERTY", "chess", 7]))
def test_any_save_shaped_object_is_a_game_or_a_save_format_error(store, value, format_, game):
    assert_survives(store, json.dumps({"format": format_, "game": game, **value}))


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_a_real_save_changed_anywhere_is_a_game_or_a_save_format_error(store, data, game):
    save = SAVES[game]
    places = list(paths(save))
    path = data.draw(st.sampled_from(places), label="where")
    action = data.draw(st.sampled_from(["replace", "remove", "wrap"] if path else ["replace"]), label="how")
    if action == "replace":
        changed = replaced(save, path, data.draw(json_values, label="value"))
    elif action == "remove":
        changed = removed(save, path)
    else:
        inner = save
        for step in path:
            inner = inner[step]
        changed = replaced(save, path, [inner])
    assert_survives(store, json.dumps(changed), game)


@FEW
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_a_real_save_changed_anywhere_among_earlier_saves_never_hides_the_good_one(data, game):
    save = SAVES[game]
    path = data.draw(st.sampled_from(list(paths(save))), label="where")
    assert_brought_in(json.dumps(replaced(save, path, data.draw(json_values, label="value"))), game)


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_a_real_save_torn_or_scribbled_on_is_a_game_or_a_save_format_error(store, data, game):
    text = json.dumps(SAVES[game], indent=1).encode("utf-8")
    cut = data.draw(st.integers(0, len(text)), label="cut")
    noise = data.draw(st.binary(max_size=20), label="noise")
    assert_survives(store, text[:cut] + noise + text[cut + len(noise):], game)


@FEW
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_a_real_save_torn_among_earlier_saves_never_hides_the_good_one(data, game):
    text = json.dumps(SAVES[game], indent=1).encode("utf-8")
    cut = data.draw(st.integers(0, len(text)), label="cut")
    noise = data.draw(st.binary(max_size=20), label="noise")
    assert_brought_in(text[:cut] + noise + text[cut + len(noise):], game)


# -- every field, every wrong type -----------------------------------------------------------
WRONG = [None, "x", 1.5, {}, 10**400]


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_type_in_any_field_is_a_game_or_a_save_format_error(store, game):
    save = SAVES[game]
    # inside the snapshot every change meets the same check (it must equal the replay), so two
    # levels of it are enough here; the random tests above reach deeper
    for path in paths(save):
        if path[:1] == ("snapshot",) and len(path) > 2:
            continue
        for value in WRONG:
            assert_survives(store, json.dumps(replaced(save, path, value)), game)


# -- the ones the testers found --------------------------------------------------------------
def raw(game: str, fields: dict[str, str]) -> str:
    """A real save's text with top-level fields written as raw JSON text (numbers Python's
    json module would not write)."""
    data = dict(SAVES[game])
    for key in fields:
        data[key] = f"@@{key}@@"
    text = json.dumps(data)
    for key, value in fields.items():
        text = text.replace(f'"@@{key}@@"', value)
    return text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fields", [
    {"turn": "1e400"},
    {"summary": '{"turn": 1e400, "over": 1e400, "to_play": [1e400], "title": -1e400}'},
    {"summary": '{"turn": -1, "over": "yes", "to_play": "Ann", "result": 7, "seats": 1}'},
    {"seed": "1e400"},
    {"seed": "1" * 5000},
    {"seed": "-" + "9" * 4000},
    {"turn": "1" * 100_000},
    {"format": "1" * 5000},
    {"format": "2.0"},
    {"options": "[" * 100_000 + "]" * 100_000},
    {"snapshot": '{"a":' * 50_000 + "1" + "}" * 50_000},
    {"seats": "[" * 3000 + "]" * 3000},
    {"saved": '"2026-13-45T99:99:99"'},
    {"saved": '"0001-01-01T00:00:00+14:00"'},
    {"saved": '"9999-12-31T23:59:59-14:00"'},
    {"saved": "123456789e300", "created": '"' + "x" * 100_000 + '"'},
    {"commands": '[[0, "' + "x" * 200_000 + '"]]'},
    {"commands": "[[1e400, \"take\"]]"},
    {"game": '"' + "p" * 10_000 + '"'},
])
def test_absurd_numbers_deep_nesting_and_bad_dates(store, game, fields):
    assert_survives(store, raw(game, fields), game)


def test_a_file_too_big_to_be_a_save_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr("cardtable.store.files.MAX_SAVE_BYTES", 1000)
    store = SaveStore(tmp_path)
    (store.folder).mkdir(parents=True)
    (store.folder / "big.json").write_text(json.dumps(SAVES[GAMES[0]] | {"padding": "x" * 1000}))
    [info] = store.list()
    assert info.damaged and "larger than" in info.reason
    with pytest.raises(SaveFormatError, match="larger than"):
        store.open("big")
    with pytest.raises(SaveFormatError, match="larger than"):
        store.import_file(store.folder / "big.json")
    store.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_game_failing_deep_inside_on_odd_input_is_a_save_format_error(game, tmp_path, monkeypatch):
    spec = rules.find_game(game)
    path = tmp_path / "x.json"
    path.write_text(json.dumps(SAVES[game]), encoding="utf-8")

    def explode(*args, **kwargs):
        raise IndexError("3D")

    monkeypatch.setattr(spec, "setup", explode)
    store = SaveStore(tmp_path / "data")
    with pytest.raises(SaveFormatError, match=r"the save is damaged \(IndexError: 3D\)"):
        store.import_file(path)
    monkeypatch.setattr(spec, "setup", lambda *a: (_ for _ in ()).throw(RecursionError()))
    with pytest.raises(SaveFormatError, match="nested too deeply"):
        store.import_file(path)
    store.close()


# -- a damaged database ------------------------------------------------------------------------
class Database(bytes):
    """A database file's bytes, shown short when a failing example is printed."""

    def __repr__(self) -> str:
        return f"<database of {len(self)} bytes>"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Database:
    """A real database with a few games in it (some pages of moves and more)."""
    root = tmp_path_factory.mktemp("db")
    store = SaveStore(root)
    for game in GAMES:
        match = Match(rules.find_game(game), [Seat("Ann", "random"), Seat("Bob", "random")], seed=1)
        game_id = store.create(match)
        for _ in range(30):
            if match.over:
                break
            seat = min(match.awaiting)
            store.play(game_id, match, seat, match.bot_move(seat))
    store.close()  # the WAL is folded into the file
    return Database((root / "games.sqlite3").read_bytes())


@FEW
@given(data=st.data())
def test_a_database_damaged_anywhere_opens_or_is_set_aside_in_words(database, data):
    size = len(database)
    how = data.draw(st.sampled_from(["scribble", "tear", "zero a page"]), label="how")
    if how == "tear":
        damaged = database[: data.draw(st.integers(0, size - 1), label="cut")]
    elif how == "zero a page":
        page = data.draw(st.integers(0, size // 4096 - 1), label="page")
        damaged = database[: page * 4096] + bytes(4096) + database[(page + 1) * 4096:]
    else:
        at = data.draw(st.integers(0, size - 1), label="at")
        noise = data.draw(st.binary(min_size=1, max_size=64), label="noise")
        damaged = database[:at] + noise + database[at + len(noise):]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "games.sqlite3").write_bytes(damaged)
        store = SaveStore(root)
        try:
            infos = store.list()
            for message in [*store.problems, *store.notices]:
                assert "\n" not in message and len(message) < 700
            aside = list(root.glob("games.damaged-*.sqlite3"))
            if aside:
                assert aside[0].read_bytes() == damaged and store.notices[0].startswith("The games database was damaged")
            for info in infos:
                try:
                    store.open(info.id)
                except (SaveFormatError, SaveError, LookupError) as error:
                    assert "\n" not in str(error)
                try:
                    store.replay(info.id)
                except (SaveFormatError, SaveError, LookupError) as error:
                    assert "\n" not in str(error)
            match = Match(rules.find_game(GAMES[0]), [Seat("Ann"), Seat("Bob")], seed=1)
            try:
                store.create(match)
            except SaveError as error:
                assert "\n" not in str(error)
        finally:
            store.close()


def test_helpers_cover_every_field():
    # the wrong-type sweep reaches the seats, every move and the snapshot's insides
    places = set(paths(SAVES[GAMES[0]]))
    assert ("seats", 1, "bot") in places and ("commands", 0, 1) in places
    assert any(len(place) > 2 and place[0] == "snapshot" for place in places)
