"""The save store's reading border, attacked: whatever a save file holds — random JSON, a real
save with any field changed to anything, absurd numbers, deep nesting, bad dates, a torn file —
listing never fails and never hides the other saves, and opening gives a game or a
SaveFormatError with a sentence. Nothing else may come out."""

from __future__ import annotations

import copy
import json
import math
import tempfile
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from cardtable.saves import SaveStore
from rules.core import Match, SaveFormatError, Seat

from game_helpers import play_random

GAMES = sorted(rules.GAMES)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def real_save(game: str) -> dict[str, Any]:
    """A real save file's JSON: a few moves of ``game`` between a human and a random bot."""
    match = Match(rules.find_game(game), [Seat("Ann"), Seat("Bob", "random")], seed=3)
    for _ in range(8):
        play_random(match)
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(folder)
        game_id = store.create(match)
        return json.loads((store.folder / f"{game_id}.json").read_text(encoding="utf-8"))


SAVES = {game: real_save(game) for game in GAMES}


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> SaveStore:
    """One store for a whole test (file systems are slow to make and remove folders): each
    example puts its file beside the same good save."""
    store = SaveStore(tmp_path_factory.mktemp("fuzz"))
    store.folder.mkdir(parents=True)
    return store


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


def assert_survives(store: SaveStore, content: str | bytes, game: str = GAMES[0]) -> None:
    """Put ``content`` in ``store`` beside a good save: the list shows both (the good one as
    playable) and changes nothing; opening the file gives a game or a SaveFormatError."""
    (store.folder / "good.json").write_text(json.dumps(SAVES[game]), encoding="utf-8")
    path = store.folder / "fuzzed.json"
    path.write_bytes(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)

    infos = {info.id: info for info in store.list()}
    assert set(infos) == {"good", "fuzzed"} and store.problems == []
    assert not infos["good"].damaged
    assert path.exists(), "listing moved the file"
    info = infos["fuzzed"]
    assert isinstance(info.status, str) and isinstance(info.players, str)
    info.updated.astimezone()  # every date can be shown
    if info.damaged:
        assert info.reason and "\n" not in info.reason

    try:
        opened = store.open("fuzzed")
    except SaveFormatError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 600
        assert not store.holds("fuzzed")
    else:
        assert isinstance(opened.match, Match)
        assert not info.damaged, "a save listed as damaged opened"
        store.release("fuzzed")
    assert store.load("good")


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


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_a_real_save_torn_or_scribbled_on_is_a_game_or_a_save_format_error(store, data, game):
    text = json.dumps(SAVES[game], indent=1).encode("utf-8")
    cut = data.draw(st.integers(0, len(text)), label="cut")
    noise = data.draw(st.binary(max_size=20), label="noise")
    assert_survives(store, text[:cut] + noise + text[cut + len(noise):], game)


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
    monkeypatch.setattr("cardtable.saves.MAX_SAVE_BYTES", 1000)
    store = SaveStore(tmp_path)
    store.folder.mkdir(parents=True)
    (store.folder / "big.json").write_text(json.dumps(SAVES[GAMES[0]] | {"padding": "x" * 1000}))
    [info] = store.list()
    assert info.damaged and "larger than" in info.reason
    with pytest.raises(SaveFormatError, match="larger than"):
        store.open("big")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_failing_deep_inside_on_odd_input_is_a_save_format_error(game, monkeypatch):
    spec = rules.find_game(game)

    def explode(*args, **kwargs):
        raise IndexError("3D")

    monkeypatch.setattr(spec, "setup", explode)
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(folder)
        store.folder.mkdir(parents=True)
        (store.folder / "x.json").write_text(json.dumps(SAVES[game]), encoding="utf-8")
        with pytest.raises(SaveFormatError, match=r"the save is damaged \(IndexError: 3D\)"):
            store.open("x")
        assert (store.damaged_folder / "x.json").exists()
    monkeypatch.setattr(spec, "setup", lambda *a: (_ for _ in ()).throw(RecursionError()))
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(folder)
        store.folder.mkdir(parents=True)
        (store.folder / "x.json").write_text(json.dumps(SAVES[game]), encoding="utf-8")
        with pytest.raises(SaveFormatError, match="nested too deeply"):
            store.open("x")


def test_helpers_cover_every_field():
    # the wrong-type sweep reaches the seats, every move and the snapshot's insides
    places = set(paths(SAVES[GAMES[0]]))
    assert ("seats", 1, "bot") in places and ("commands", 0, 1) in places
    assert any(len(place) > 2 and place[0] == "snapshot" for place in places)
