"""The app and the save store when things go wrong, driven like a player would: damaged and
newer saves in the list, a game resumed before a move that no longer replays, a game open in
another cardtable, the trash, a data folder that cannot be written, saving failing mid-game."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import pytest

import rules
from cardtable import saves
from cardtable.app import CardtableApp
from cardtable.saves import SaveError, SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.menu import MenuScreen
from cardtable.screens.resume import ResumeScreen, SavesList
from cardtable.screens.setup import SetupScreen
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from rules.core import FORMAT_VERSION, Match, Seat

from pilot_helpers import settle

SIZE = (80, 24)


@pytest.fixture
def store(tmp_path):
    return SaveStore(tmp_path / "data")


def make_app(store, **kwargs):
    return CardtableApp(store=store, settings=Settings(bot_delay=0), **kwargs)


def in_play(seed: int = 1, seats=None) -> Match:
    return Match(rules.find_game("property"), seats or [Seat("Ann"), Seat("Bob", "random")], seed=seed)


def played(match: Match, count: int) -> Match:
    """``count`` moves, whoever is to play (the human's first legal move, the bots' own)."""
    for _ in range(count):
        seat = min(match.awaiting)
        command = match.bot_move(seat) if match.seats[seat].bot else match.legal(seat)[0]
        match.submit(seat, command)
    return match


def toasts(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def prompts(app) -> dict[str, str]:
    return {option.id: str(option.prompt) for option in app.screen.query_one(SavesList).options}


async def open_saves(pilot) -> None:
    await pilot.press("r")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ResumeScreen)


async def choose(pilot, game_id: str) -> None:
    saves_list = pilot.app.screen.query_one(SavesList)
    saves_list.highlighted = saves_list.get_option_index(game_id)
    await pilot.press("enter")
    await pilot.pause()


# -- the list ------------------------------------------------------------------------------------
async def test_the_list_says_whose_turn_it_is_and_names_the_best_bot_plainly(store):
    match = in_play(seats=[Seat("Ann"), Seat("Cleo", "bot"), Seat("Dan", "random")])
    game_id = store.create(match)
    to_play = " and ".join(match.names[seat] for seat in sorted(match.awaiting))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        prompt = prompts(app)[game_id]
        assert f"{to_play} to play" in prompt
        assert "Ann, Cleo (bot), Dan (bot: random)" in prompt


async def test_a_newer_save_is_listed_reported_and_left_where_it_is(store):
    good = store.create(in_play())
    data = json.loads((store.folder / f"{good}.json").read_text()) | {"format": FORMAT_VERSION + 1}
    path = store.folder / "future.json"
    path.write_text(json.dumps(data))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        assert "cannot open here" in prompts(app)["future"] and "newer cardtable" in prompts(app)["future"]
        await choose(pilot, "future")
        assert isinstance(app.screen, ResumeScreen)
        assert "saved by a newer cardtable" in toasts(app)
        assert set(prompts(app)) == {good, "future"}
    assert path.exists() and not store.damaged_folder.exists()


async def test_a_save_whose_move_no_longer_replays_resumes_before_it_with_a_notice(store):
    match = played(in_play(), 6)
    game_id = store.create(match)
    path = store.folder / f"{game_id}.json"
    data = json.loads(path.read_text())
    data["commands"][4][1] = "no such move"
    path.write_text(json.dumps(data))
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_saves(pilot)
        assert "damaged" not in prompts(app)[game_id]
        await choose(pilot, game_id)
        table = app.screen
        assert isinstance(table, TableScreen) and table.game_id == game_id
        assert [p.text for p in table.match.history[:4]] == [p.text for p in match.history[:4]]
        assert "Move 5 of this game ('no such move') no longer replays, so it resumes after move 4" in toasts(app)
        assert f"saves/replaced/{game_id}.json" in toasts(app)
    assert json.loads((store.replaced_folder / f"{game_id}.json").read_text()) == data


async def test_a_notice_given_at_launch_is_shown_on_the_table(store):
    match = in_play()
    app = make_app(store, match=match, game_id=store.create(match), notice="Move 9 no longer replays.")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert "Move 9 no longer replays." in toasts(app)


# -- two cardtables, one game ------------------------------------------------------------------
HOLD = """
import sys
from cardtable.saves import SaveStore
SaveStore(sys.argv[1]).lock(sys.argv[2])
print("locked", flush=True)
sys.stdin.readline()
"""


async def test_a_game_open_in_another_cardtable_is_refused_naming_it(store):
    game_id = store.create(in_play())
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(store.root), game_id],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "locked"
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            await open_saves(pilot)
            await choose(pilot, game_id)
            assert isinstance(app.screen, ResumeScreen)
            assert f"open in another cardtable (process {other.pid} on " in toasts(app)
    finally:
        other.stdin.close()
        other.wait(timeout=60)


async def test_the_table_holds_the_game_while_open_and_gives_it_back(store):
    game_id = store.create(in_play())
    lock = store.folder / f"{game_id}.lock"
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        await choose(pilot, game_id)
        assert isinstance(app.screen, TableScreen)
        assert json.loads(lock.read_text())["pid"] == os.getpid()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not lock.exists() and not store.holds(game_id)
        await open_saves(pilot)
        await choose(pilot, game_id)
        assert lock.exists()
    assert not lock.exists(), "the lock outlived the app"


async def test_a_finished_game_opened_for_its_results_is_not_held(store):
    match = Match(rules.find_game("property"), [Seat("Ann", "random"), Seat("Bob", "random")], seed=3)
    while not match.over:
        match.submit(min(match.awaiting), match.bot_move(min(match.awaiting)))
    game_id = store.create(match)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        await choose(pilot, game_id)
        assert not store.holds(game_id) and not (store.folder / f"{game_id}.lock").exists()


# -- the trash ----------------------------------------------------------------------------------
async def test_deleted_games_go_to_the_trash_and_come_back(store):
    keep = store.create(in_play(1))
    gone = store.create(in_play(2))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        app.screen.query_one(SavesList).highlighted = app.screen.query_one(SavesList).get_option_index(gone)
        await pilot.press("d", "y")
        await pilot.pause()
        assert set(prompts(app)) == {keep}
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.showing_trash and set(prompts(app)) == {gone}
        await pilot.press("u")
        await pilot.pause()
        assert prompts(app) == {}
        assert "The trash is empty." in str(app.screen.query_one("#saves-empty").render())
        await pilot.press("escape")  # out of the trash, back to the saves
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen) and set(prompts(app)) == {keep, gone}
        # Enter restores too
        await pilot.press("d", "y", "t")
        await pilot.pause()
        await choose(pilot, gone)
        assert set(store_ids(store)) == {keep, gone} and store.trash() == []


def store_ids(store: SaveStore) -> list[str]:
    return [info.id for info in store.list()]


# -- an unwritable data folder -----------------------------------------------------------------
async def test_a_file_where_the_data_folder_should_be_lets_the_game_be_played_unsaved(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file")
    store = SaveStore(blocker)
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()  # the menu reads the saves just after its first paint
        assert f"Cannot read the saves in {store.folder}: {blocker} is a file, not a folder." in toasts(app)
        await pilot.press("n")
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        names = list(rules.GAMES)
        for _ in range(names.index("property") - names.index(setup.game_name)):
            await pilot.press("down")
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        assert table.game_id is None and table.match.spec.name == "property"
        said = f"Games cannot be saved in {store.folder}: {blocker} is a file, not a folder."
        await settle(pilot, lambda: said in toasts(app))
        assert "You can play on" in toasts(app)
        # the game goes on; leaving asks first, since nothing of it is saved
        await settle(pilot, lambda: table.my_turn)
        assert table.submit(table.legal[0])
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.focused.id == "confirm-no"
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_a_game_launched_unsaved_is_told_at_once_and_saved_when_the_disk_allows(store, monkeypatch):
    real = saves.write_atomically

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves, "write_atomically", full)
    match = in_play()
    app = make_app(store, match=match)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.game_id is None
        assert toasts(app).count("the disk is full") == 1 and "You can play on" in toasts(app)
        monkeypatch.setattr(saves, "write_atomically", real)
        await settle(pilot, lambda: table.my_turn)
        assert table.submit(table.legal[0])
        await settle(pilot, lambda: "saved again" in toasts(app))
        assert table.game_id is not None and table.save_error is None
        assert store_ids(store) == [table.game_id]
        assert store.holds(table.game_id)


# -- saving fails mid-game ---------------------------------------------------------------------
async def test_a_failed_save_warns_at_once_and_leaving_asks_with_no_as_the_default(store, monkeypatch):
    match = in_play()
    game_id = store.create(match)
    app = make_app(store, match=match, game_id=game_id)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        await settle(pilot, lambda: table.my_turn)

        def full(*args, **kwargs):
            raise SaveError(f"Games cannot be saved in {store.folder}: the disk is full.")

        real_save = store.save
        monkeypatch.setattr(store, "save", full)
        assert table.submit(table.legal[0])
        await pilot.pause()
        assert "The game could not be saved" in toasts(app) and "the disk is full" in toasts(app)
        assert table.save_error is not None

        for leave in ("q", "escape"):
            await pilot.press(leave)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen), leave
            assert "not saved" in str(app.screen.query_one("#confirm-message").render())
            assert app.focused.id == "confirm-no"
            await pilot.press("enter")  # No: stay
            await pilot.pause()
            assert app.screen is table

        monkeypatch.setattr(store, "save", real_save)  # room again: leaving saves, asks nothing
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert len(store.load(game_id).history) == len(match.history)


# -- leftovers of killed writers -----------------------------------------------------------------
async def test_the_app_tidies_what_killed_writers_left(store):
    game_id = store.create(in_play())
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    leftover = store.folder / f".{game_id}.json.{saves._HOST}-{int(done.stdout)}.0123abcd.tmp"
    leftover.write_text("{")
    app = make_app(store)
    async with app.run_test(size=SIZE):
        assert not leftover.exists()
        assert store_ids(store) == [game_id]
