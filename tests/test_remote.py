"""Seats at other screens, without the app: join codes in the store (made, read in every form a
person may type them, renewed, refused in a sentence), the slow-down for wrong codes, presence,
`cardtable new` with remote seats and `cardtable join`, and the bots played by whichever screen
sees them awaited."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys

import pytest

import rules
from cardtable import commands
from cardtable import launch as launching
from cardtable.cli import main
from cardtable.commands import parse_seating
from cardtable.remote import play_awaited_bots
from cardtable.store import CodeError, Joined, SaveStore, Throttle
from cardtable.store import games as store_games
from cardtable.store import seats as store_seats
from rules.core import Match, Seat

CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")


@pytest.fixture
def store(tmp_path):
    store = SaveStore(tmp_path / "data")
    yield store
    store.close()


def property_match(seats=("Ann", "Bob", "Cleo"), seed=5) -> Match:
    return Match(rules.find_game("property"), [Seat(name) for name in seats], seed=seed)


# -- codes -------------------------------------------------------------------------------------

def test_a_new_game_with_remote_seats_has_one_code_each_and_one_for_spectators(store):
    game_id = store.create(property_match(), remote=[1, 2])
    codes = store.codes(game_id)
    assert set(codes) == {1, 2, None}
    assert all(CODE.match(code) for code in codes.values())
    assert len(set(codes.values())) == 3
    assert store.remote_seats(game_id) == {1, 2}
    assert codes == store.codes(game_id)  # asking again shows the same codes
    for seat, code in codes.items():
        assert store.join(code) == Joined(game_id, seat)


def test_a_game_without_remote_seats_gets_its_spectator_code_when_asked(store, tmp_path):
    game_id = store.create(property_match())
    # a game of the store before codes: no spectator code yet
    with sqlite3.connect(store.path) as raw:
        raw.execute("DELETE FROM codes")
    assert store.remote_seats(game_id) == frozenset()
    codes = store.codes(game_id)
    assert list(codes) == [None] and store.join(codes[None]) == Joined(game_id, None)


@pytest.mark.parametrize("typed", [
    lambda code: code.lower(),
    lambda code: code.replace("-", ""),
    lambda code: f"  {code[:2]} {code[2:4]} - {code[5:]} ",
    lambda code: code.replace("1", "l").replace("0", "o"),
    lambda code: code.replace("1", "I").replace("0", "O"),
])
def test_a_code_reads_in_any_case_with_or_without_its_dash_and_with_look_alike_letters(store, typed):
    game_id = store.create(property_match(), remote=[0])
    code = store.codes(game_id)[0]
    assert store.join(typed(code)) == Joined(game_id, 0)


def test_look_alikes_read_as_digits():
    assert store_seats.normalise("k7qx-m2pd") == "K7QXM2PD"
    assert store_seats.normalise("IL0O-abcd") == "1100ABCD"


@pytest.mark.parametrize("typed, words", [
    ("", "Type the join code you were given"),
    ("   ", "Type the join code you were given"),
    (None, "Type the join code you were given"),
    ("K7QX-M2P", "has 8 letters and digits, like K7QX-M2PD, and this has 7"),
    ("K7QX-M2PDA", "this has 9"),
    ("U7QX-M2PD", "'U' cannot be in one"),
    ("K7QX_M2PD", "'_' cannot be in one"),
    ("[b]K7QX[/b]", "cannot be in one"),
    ("x" * 10_000, "is not a join code"),
    ("K7QX\nM2PD\x00", "cannot be in one"),
])
def test_what_cannot_be_a_code_gets_a_sentence(store, typed, words):
    with pytest.raises(CodeError) as refused:
        store.join(typed)
    message = str(refused.value)
    assert words in message and message.endswith(".") and len(message) < 300


def test_an_unknown_code_a_renewed_one_and_a_deleted_games_get_their_own_sentences(store):
    game_id = store.create(property_match(), remote=[1])
    old = store.codes(game_id)[1]
    unknown = "0000-0000" if old != "0000-0000" else "1111-1111"
    with pytest.raises(CodeError, match=f"No game has the join code {unknown}: check it"):
        store.join(unknown)
    new = store.renew(game_id, 1)
    assert new != old and CODE.match(new) and store.codes(game_id)[1] == new
    with pytest.raises(CodeError, match=f"The join code {old} was replaced by a new one"):
        store.join(old)
    assert store.join(new) == Joined(game_id, 1)
    spectators = store.codes(game_id)[None]
    assert store.renew(game_id, None) != spectators
    with pytest.raises(CodeError, match="replaced"):
        store.join(spectators)
    with pytest.raises(LookupError, match="not played from another screen"):
        store.renew(game_id, 0)
    store.delete(game_id)
    with pytest.raises(CodeError, match="was deleted"):
        store.join(new)


def test_codes_are_kept_with_their_hash_as_the_key_and_only_for_this_store(store, tmp_path):
    game_id = store.create(property_match(), remote=[2])
    code = store.codes(game_id)[2]
    with sqlite3.connect(store.path) as raw:
        rows = raw.execute("SELECT digest, code FROM codes WHERE seat = 2").fetchall()
    assert rows == [(store_seats.digest(code.replace("-", "")), code.replace("-", ""))]
    other = SaveStore(tmp_path / "other")
    with pytest.raises(CodeError, match="No game has"):
        other.join(code)
    # an export carries no code
    assert code.replace("-", "") not in repr(store.export(game_id))


def test_remote_seats_must_be_human_seats(store):
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Cleo", "bot")], seed=1)
    with pytest.raises(ValueError):
        store.create(match, remote=[1])
    with pytest.raises(ValueError):
        store.create(match, remote=[5])


def test_a_store_of_schema_1_is_brought_to_schema_2_keeping_its_games(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    first = store_games.SCHEMA.migrations[1]
    with sqlite3.connect(root / store_games.FILE) as raw:
        for statement in first:
            raw.execute(statement)
        raw.execute("UPDATE schema_version SET version = 1")
    store = SaveStore(root)
    game_id = store.create(property_match(), remote=[1])
    with sqlite3.connect(root / store_games.FILE) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone() == (store_games.SCHEMA_VERSION,)
    assert store_games.SCHEMA_VERSION >= 2
    assert store.remote_seats(game_id) == {1}


# -- guessing slowed down ----------------------------------------------------------------------

def test_wrong_codes_from_one_source_double_its_wait_and_a_right_one_forgets_it(store):
    now = [100.0]
    store.throttle = Throttle(first=0.5, longest=4.0, clock=lambda: now[0])
    game_id = store.create(property_match(), remote=[1])
    assert store.throttle.delay("10.0.0.1") == 0
    waits = []
    for _ in range(6):
        with pytest.raises(CodeError):
            store.join("0000-000", source="10.0.0.1")
        waits.append(store.throttle.delay("10.0.0.1"))
    assert waits == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert store.throttle.delay("10.0.0.2") == 0 and store.throttle.delay(None) == 0
    now[0] += 3
    assert store.throttle.delay("10.0.0.1") == 1.0
    assert store.join(store.codes(game_id)[1], source="10.0.0.1") == Joined(game_id, 1)
    assert store.throttle.delay("10.0.0.1") == 0


def test_the_throttle_remembers_a_bounded_number_of_sources():
    throttle = Throttle(remember=3)
    for source in "abcd":
        throttle.failed(source)
    assert throttle.delay("a") == 0 and throttle.delay("d") > 0


# -- presence ----------------------------------------------------------------------------------

def test_a_seat_is_present_while_a_screen_says_so_and_away_when_it_is_gone_or_silent(store, monkeypatch):
    game_id = store.create(property_match(), remote=[1, 2])
    other = SaveStore(store.root)
    store.here(game_id, [0], "screen-a")
    other.here(game_id, [1], "screen-b")
    assert store.present(game_id) == {0, 1}
    other.gone(game_id, "screen-b")
    assert store.present(game_id) == {0}
    clock = [1_000.0]
    monkeypatch.setattr(store_seats.time, "time", lambda: clock[0])
    store.here(game_id, [2], "screen-c")
    clock[0] += store_seats.AWAY_SECONDS - 1
    assert 2 in store.present(game_id)
    clock[0] += 2  # a screen that crashed says nothing more: its seat reads as away
    assert 2 not in store.present(game_id)
    other.close()


# -- the command line --------------------------------------------------------------------------

def test_remote_seats_are_human_seats_to_the_rules():
    spec = rules.find_game("property")
    seats, remote = parse_seating(spec, "Ann, Remote:Bob ,bot:Cleo,remote:Dan")
    assert seats == [Seat("Ann"), Seat("Bob"), Seat("Cleo", spec.best_bot), Seat("Dan")]
    assert remote == [1, 3]


@pytest.fixture
def opened(monkeypatch):
    calls = []

    def launch(store, match=None, game_id=None, notice=None, replay=None, joined=None, confined=False):
        calls.append({"match": match, "game_id": game_id, "joined": joined, "confined": confined})
        return 0

    monkeypatch.setattr(launching, "launch_app", launch)
    return calls


def join_lines(out: str) -> dict[str, str]:
    found = {}
    for line in out.splitlines():
        name, _, command = line.rpartition(": ")
        match = re.fullmatch(r"cardtable --data-dir \S+ join (\S+)", command)
        assert match, line
        found[name] = match.group(1)
    return found


def test_new_prints_a_line_per_remote_seat_and_opens_the_table_for_the_seats_here(tmp_path, capsys, opened):
    data = tmp_path / "data"
    assert main(["new", "property", "--players", "Ann,remote:Bob,bot:Cleo", "--data-dir", str(data)]) == 0
    lines = join_lines(capsys.readouterr().out)
    assert list(lines) == ["Bob", "Spectators"]
    [call] = opened
    store = SaveStore(data)
    assert store.join(lines["Bob"]) == Joined(call["game_id"], 1)
    assert store.join(lines["Spectators"]) == Joined(call["game_id"], None)
    assert store.remote_seats(call["game_id"]) == {1}


def test_new_with_nobody_here_prints_the_lines_and_ends(tmp_path, capsys, opened):
    data = tmp_path / "data"
    hostile = "[b]Bob[/b]"
    assert main(["new", "property", "--players", f"remote:Ann,remote:{hostile},bot:Cleo",
                 "--data-dir", str(data)]) == 0
    lines = join_lines(capsys.readouterr().out)
    assert list(lines) == ["Ann", hostile, "Spectators"]  # the name exactly as typed
    assert opened == []


def test_join_opens_the_seat_its_code_names(tmp_path, capsys, opened):
    data = tmp_path / "data"
    main(["new", "property", "--players", "remote:Ann,remote:Bob", "--data-dir", str(data)])
    lines = join_lines(capsys.readouterr().out)
    assert main(["join", lines["Bob"].lower(), "--data-dir", str(data)]) == 0
    [call] = opened
    assert call["joined"].seat == 1 and list(call["match"].names) == ["Ann", "Bob"]
    assert call["game_id"] == call["joined"].game_id


@pytest.mark.parametrize("code, words", [
    ("K7QX", "is not a join code"),
    ("0000-0000", "No game has the join code 0000-0000"),
])
def test_join_with_a_wrong_code_says_why_and_exits_1(tmp_path, capsys, opened, code, words):
    assert main(["join", code, "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardtable: ") and words in err and err.count("\n") == 1
    assert opened == []


def test_new_and_join_as_processes(tmp_path):
    data = tmp_path / "data"
    done = subprocess.run([sys.executable, "-m", "cardtable", "--data-dir", str(data), "new", "abundance",
                           "--players", "remote:Ann,bot:Cleo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    lines = join_lines(done.stdout)
    assert list(lines) == ["Ann", "Spectators"]
    renewed = SaveStore(data)
    game_id = renewed.join(lines["Ann"]).game_id
    renewed.renew(game_id, 0)
    done = subprocess.run([sys.executable, "-m", "cardtable", "--data-dir", str(data), "join", lines["Ann"]],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == (f"cardtable: The join code {lines['Ann']} was replaced by a new one: ask whoever "
                           "holds the game for the new code.\n")


def test_the_help_of_new_and_join_tells_of_remote_seats_and_codes(capsys):
    main(["new", "--help"])
    assert "remote:Fay" in capsys.readouterr().out
    main(["join", "--help"])
    out = capsys.readouterr().out
    assert "K7QX-M2PD" in out and "I and L are read as 1, O as 0" in out


# -- bots, from any screen ---------------------------------------------------------------------

def test_bots_are_played_by_either_screen_and_written_once(tmp_path):
    spec = rules.find_game("property")
    seats = [Seat("Ann", "random"), Seat("Bob", "random"), Seat("Cleo", "random")]
    first = SaveStore(tmp_path / "data")
    game_id = first.create(Match(spec, seats, seed=11))
    second = SaveStore(first.root)
    one, two = first.open(game_id).match, second.open(game_id).match
    written = 0
    while not one.over:
        # the two screens take turns: each plays a few, then the other finds them written
        written += play_awaited_bots(first, game_id, one, limit=3)
        written += play_awaited_bots(second, game_id, two, limit=2)
        assert written < 5_000
    second.sync(game_id, two)
    assert two.over and [p.text for p in one.history] == [p.text for p in two.history]
    assert len(one.history) == written == first.export(game_id)["commands"].__len__()


def test_a_screen_behind_catches_up_quietly_when_its_bot_move_was_written_first(tmp_path):
    spec = rules.find_game("abundance")
    first = SaveStore(tmp_path / "data")
    game_id = first.create(Match(spec, [Seat("Ann", "random"), Seat("Bob", "random")], seed=3))
    second = SaveStore(first.root)
    one, two = first.open(game_id).match, second.open(game_id).match
    assert play_awaited_bots(first, game_id, one, limit=5) == 5
    # the second screen has not looked: it would choose the same moves, finds them written, goes on
    assert play_awaited_bots(second, game_id, two, limit=1) == 1
    assert [p.text for p in two.history[:5]] == [p.text for p in one.history[:5]]
    assert len(second.export(game_id)["commands"]) == 6


def test_bots_stop_at_a_human(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob", "random")], seed=3)
    game_id = store.create(match)
    for _ in range(50):
        play_awaited_bots(store, game_id, match)
        if match.over:
            break
        assert 0 in match.awaiting
        store.play(game_id, match, 0, match.legal(0)[0])
    assert len(store.export(game_id)["commands"]) == len(match.history)


# -- a seat joined through `cardtable serve`: no way to the menu -----------------------------

def test_join_reads_the_code_from_the_environment_and_passes_no_menu_on(tmp_path, capsys, opened, monkeypatch):
    data = tmp_path / "data"
    main(["new", "property", "--players", "remote:Ann,remote:Bob", "--data-dir", str(data)])
    lines = join_lines(capsys.readouterr().out)
    monkeypatch.setenv(commands.CODE_VARIABLE, lines["Ann"])
    assert main(["join", "--no-menu", "--data-dir", str(data)]) == 0
    assert main(["join", lines["Bob"], "--data-dir", str(data)]) == 0  # a code given wins
    [confined, free] = opened
    assert confined["joined"].seat == 0 and confined["confined"]
    assert free["joined"].seat == 1 and not free["confined"]
    monkeypatch.delenv(commands.CODE_VARIABLE)
    assert main(["join", "--data-dir", str(data)]) == 1
    assert "Type the join code you were given" in capsys.readouterr().err


def test_a_code_typed_in_two_halves_without_quotes_is_one_code(tmp_path, capsys, opened):
    """`cardtable join k7qx m2pd`: spaces do not matter in a code, the shell's among them."""
    data = tmp_path / "data"
    main(["new", "property", "--players", "remote:Ann,remote:Bob", "--data-dir", str(data)])
    lines = join_lines(capsys.readouterr().out)
    first, second = lines["Bob"].lower().split("-")
    assert main(["join", first, second, "--data-dir", str(data)]) == 0
    [joined] = opened
    assert joined["joined"].seat == 1
    assert main(["join", first, second, "x", "--data-dir", str(data)]) == 1
    assert f"'{first} {second} x' is not a join code: a code has 8 letters and digits" in capsys.readouterr().err


@pytest.mark.parametrize("keys", [["q"], ["ctrl+p"]])
async def test_a_confined_table_ends_the_app_when_left_and_keeps_no_settings(tmp_path, monkeypatch, keys):
    from cardtable.app import CardtableApp
    from cardtable.settings import Settings

    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", str(tmp_path / "config"))
    store = SaveStore(tmp_path / "data")
    match = property_match(("Ann", "Bob"))
    game_id = store.create(match, [0])
    joined = Joined(game_id, 0)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id, joined=joined,
                       confined=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.screen.match is match and app.screen.elsewhere == (1,)
        shown = {binding.description for (_, binding, enabled, _) in app.screen.active_bindings.values()
                 if binding.show and enabled}
        assert "Leave" in shown and "Menu" not in shown  # the footer says where q goes
        app.set_four_colour(True)  # for this player only: the machine's settings file is not theirs
        assert not (tmp_path / "config").exists()
        if keys == ["q"]:
            await pilot.press("q")
        else:  # the results offer no menu and no new game on this machine either: q leaves
            from cardtable.screens.results import results_screen

            app.push_screen(results_screen(match, app.settings))
            await pilot.pause()
            shown = {binding.description for (_, binding, enabled, _) in app.screen.active_bindings.values()
                     if binding.show and enabled}
            assert "Leave" in shown and not {"Main menu", "New game"} & shown
            buttons = [str(button.label) for button in app.screen.query("#results-buttons Button")]
            assert buttons == ["Replay", "Leave"]
            await pilot.press("n")
            await pilot.pause()
            assert app.is_running  # n is no key here: it says so
            await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    assert len(store.list()) == 1


def test_new_names_a_running_servers_ways_in_beside_each_code(tmp_path, capsys, opened):
    from cardtable.serving import FILE, announced

    data = tmp_path / "data"
    with announced(data, "http://10.0.0.5:8000/join", ["ssh -p 2222 CODE@10.0.0.5"]):
        assert main(["new", "property", "--players", "Ann,remote:Bob", "--data-dir", str(data)]) == 0
        assert (data / FILE).exists()
    assert not (data / FILE).exists()  # the server is gone: so is what it said
    out = capsys.readouterr().out.splitlines()
    code = out[0].rsplit(" ", 1)[1]
    assert out[:3] == [f"Bob: cardtable --data-dir {data} join {code}", f"  or: ssh -p 2222 {code}@10.0.0.5",
                       f"  or: open http://10.0.0.5:8000/join and type {code}"]
    # a file left by a server killed with kill -9 names a process that is gone: no forms
    (data / FILE).write_text('{"pid": 999999999, "join_page": "http://x/join", "ssh": []}')
    main(["new", "property", "--players", "Ann,remote:Bob", "--data-dir", str(data)])
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("  or:")]
