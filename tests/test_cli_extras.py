"""`cardtable replay`, `cardtable stats` and `cardtable serve`, run as a player would: the
replay opens read-only (the app launch replaced by a recorder), the stats print from a record
in tmp_path, and serve answers on a free loopback port and refuses one in use — every mistake
a sentence, never a traceback."""

from __future__ import annotations

import signal
import socket
import urllib.request
from datetime import datetime, timedelta, timezone

import pytest

import rules
from cardtable import launch as launching
from cardtable.cli import main
from cardtable.record import GameRecord, PlayerResult, Record
from cardtable.store import SaveStore
from rules.core import Match, Replay, Seat

from game_helpers import play_bot
from store_helpers import contents, spoil_move
from serve_helpers import serving


@pytest.fixture
def data(tmp_path):
    return tmp_path / "data-dir"


@pytest.fixture
def launched(monkeypatch):
    """Replace the Textual app by a recorder of what it was asked to open."""
    calls = []

    def launch(store, match=None, game_id=None, notice=None, replay=None):
        calls.append({"store": store, "match": match, "game_id": game_id, "notice": notice, "replay": replay})
        return 0

    monkeypatch.setattr(launching, "launch_app", launch)
    return calls


def one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("cardtable: ")
    return lines[0]


def finished(seed: int = 2) -> Match:
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Cleo", "bot")], seed=seed)
    while not match.over:
        play_bot(match)
    return match


# -- replay --------------------------------------------------------------------------------------
def test_replay_opens_a_game_read_only_by_the_start_of_its_id(data, launched):
    store = SaveStore(data)
    match = finished()
    game_id = store.create(match)
    before = contents(data)
    assert main(["--data-dir", str(data), "replay", game_id[:-2]]) == 0
    [call] = launched
    replay = call["replay"]
    assert isinstance(replay, Replay) and call["match"] is None and call["notice"] is None
    assert replay.moves == len(match.history) and replay.view(None) == match.view(None)
    assert contents(data) == before  # nothing written


def test_replay_without_an_id_takes_the_most_recent_game_finished_or_not(data, launched):
    store = SaveStore(data)
    store.create(finished())
    playing = Match(rules.find_game("portfolio"), [Seat("Ann"), Seat("Bob")], seed=1)
    play_bot(playing)
    store.create(playing)
    assert main(["--data-dir", str(data), "replay"]) == 0
    assert launched[0]["replay"].spec.name == "portfolio" and launched[0]["replay"].moves == 1


def test_replay_of_a_game_whose_later_moves_no_longer_replay_says_where_it_ends(data, launched):
    store = SaveStore(data)
    game_id = store.create(finished())
    spoil_move(data, game_id, 7, text="play 99H 99S")
    before = contents(data)
    assert main(["--data-dir", str(data), "replay", game_id]) == 0
    [call] = launched
    assert call["replay"].moves == 6
    assert call["notice"].startswith("Move 7 of this game ('play 99H 99S') no longer replays: the replay ends after move 6")
    assert contents(data) == before  # not repaired: a replay only reads


@pytest.mark.parametrize("text, words", [
    ("{ not json", "saves/broken.json cannot be replayed: not a cardtable save (broken JSON at line 1)"),
    ('{"format": 2, "game": "property", "seats": "Ann", "seed": 1, "commands": []}',
     "saves/broken.json cannot be replayed: damaged"),
])
def test_replay_of_a_damaged_save_is_one_sentence_and_the_file_stays(data, launched, capsys, text, words):
    store = SaveStore(data)
    store.folder.mkdir(parents=True)
    path = store.folder / "broken.json"
    path.write_text(text, encoding="utf-8")
    assert main(["--data-dir", str(data), "replay", "broken"]) == 1
    assert words in one_error_line(capsys)
    assert path.read_text(encoding="utf-8") == text and launched == []


def test_replay_of_nothing_is_said_in_words(data, launched, capsys):
    assert main(["--data-dir", str(data), "replay"]) == 1
    assert "there is no saved game to replay" in one_error_line(capsys)
    assert main(["--data-dir", str(data), "replay", "nope"]) == 1
    assert "no saved game 'nope'" in one_error_line(capsys)


# -- stats ---------------------------------------------------------------------------------------
START = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def fill_record(data) -> None:
    record = Record(data)
    games = [
        ("property", (("Ann", None, 1, 120), ("Bob", None, 2, 30))),
        ("property", (("Ann", None, 2, 10), ("Bob", None, 1, 200))),
        ("property", (("Ann", None, 1, 90), ("Bob", None, 2, 0), ("Cleo", "bot", 3, 0))),
        ("portfolio", (("Ann", None, 1, 400), ("Cleo", "bot", 2, 100))),
    ]
    record.add_many(GameRecord(game, START + timedelta(hours=n), tuple(PlayerResult(*p) for p in players))
                    for n, (game, players) in enumerate(games))
    record.close()


def test_stats_of_an_empty_record(data, capsys):
    assert main(["--data-dir", str(data), "stats"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No finished games in the record yet (") and "it fills as games end" in out


def test_stats_of_everyone_per_player_and_game(data, capsys):
    fill_record(data)
    assert main(["--data-dir", str(data), "stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["PLAYER", "GAME", "GAMES", "WINS", "WIN", "RATE", "BEST", "STREAK", "LONGEST",
                                "LAST", "PLAYED"]
    rows = [line.split() for line in lines[1:]]
    assert rows[0][:9] == ["Ann", "all", "games", "4", "3", "75%", "-", "2", "2"]
    assert ["Ann", "Property", "3", "2", "67%", "120", "1", "1", "2026-05-01"] == rows[1][:8] + [rows[1][8]]
    assert ["Cleo", "(bot)", "Portfolio", "1", "0", "0%", "100"] in [row[:7] for row in rows]
    assert sum(1 for row in rows if row[0] == "Bob") == 1  # a player of one game only: no "all games" line


def test_stats_of_one_player_and_head_to_head(data, capsys):
    fill_record(data)
    assert main(["--data-dir", str(data), "stats", "ann", "--game", "property"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[:2] == ["Ann", "Property"] and "Portfolio" not in out
    assert "HEAD TO HEAD" in out and [line.split() for line in out.splitlines() if line.startswith("Bob")] == [
        ["Bob", "3", "2", "1", "0"]]
    assert main(["--data-dir", str(data), "stats", "Ann", "Cleo"]) == 0
    out = capsys.readouterr().out
    # Cleo is a bot: the kind is part of who she is (the human Cleo would be another player)
    assert out.startswith("Ann against Cleo (bot): 2 games together; Ann finished ahead 2, Cleo (bot) 0, tied 0.")


@pytest.mark.parametrize("argv, status, words", [
    (["stats", "Zed"], 1, "no finished game of 'Zed' is in the record"),
    (["stats", "Bob", "--game", "portfolio"], 1, "'Bob' has no finished game of Portfolio in the record"),
    (["stats", "Bob", "Cleo", "--game", "portfolio"], 1, "'Bob' has no finished game of Portfolio"),
    (["stats", "Bob", "Zed"], 1, "Bob and Zed have not finished a game together"),
    (["stats", "--game", "chess"], 2, "unknown game 'chess'"),
])
def test_stats_mistakes_are_one_sentence(data, capsys, argv, status, words):
    fill_record(data)
    assert main(["--data-dir", str(data), *argv]) == status
    assert words in one_error_line(capsys)


def test_stats_with_a_damaged_record_say_so_and_the_saves_stay(data, capsys):
    store = SaveStore(data)
    store.create(finished())
    saves = contents(data)
    (data / "record.sqlite3").write_bytes(b"garbage" * 1000)
    assert main(["--data-dir", str(data), "stats"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("No finished games in the record yet")
    assert err.startswith("cardtable: The record of finished games was damaged (file is not a database)")
    assert "Your saved games are untouched." in err and "Traceback" not in err
    assert contents(data) == saves
    assert len(list(data.glob("record.damaged-*.sqlite3"))) == 1


# -- serve ---------------------------------------------------------------------------------------
def test_serve_refuses_a_port_in_use_in_a_sentence(data, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--data-dir", str(data), "serve", "--port", str(port)]) == 1
    line = one_error_line(capsys)
    assert f"port {port} on 127.0.0.1 is already in use" in line and "--port" in line


def test_serve_refuses_what_is_not_a_port(data, capsys):
    assert main(["--data-dir", str(data), "serve", "--port", "70000"]) == 1
    assert "70000 is not a port number" in one_error_line(capsys)


def test_serve_answers_on_loopback_says_who_can_play_and_stops(tmp_path):
    with serving(tmp_path) as served:
        assert f"cardtable is being served at http://127.0.0.1:{served.port}/?token=".encode() in served.said.encode()
        assert "Only this machine can reach it" in served.said
        with urllib.request.urlopen(f"{served.base}/?token={served.token}", timeout=30) as response:
            page = response.read().decode("utf-8")
        assert response.status == 200
        assert "<title>cardtable</title>" in page and 'class="textual-terminal"' in page
        served.process.send_signal(signal.SIGINT)
        assert served.process.wait(timeout=30) == 0
