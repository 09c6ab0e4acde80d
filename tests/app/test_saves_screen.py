"""The app and the store, driven as a player would: the saves list (damaged and newer saves of
earlier versions in it), a game resumed before a move that no longer replays, two tables on one
game (each sees the other's moves; a late move is refused naming who moved first), the trash,
export and import, a data folder that cannot be written, saving failing mid-game, a damaged
database."""

from __future__ import annotations

import json
import sqlite3

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.menu import MenuScreen
from cardtable.screens.resume import ImportScreen, ResumeScreen, SavesList
from cardtable.screens.setup import SetupScreen
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from cardtable.store import SaveStore
from cardtable.store import games as store_games
from rules.core import FORMAT_VERSION, Match, Seat

from pilot_helpers import settle
from store_helpers import closing, full_disk, legacy_save, spoil_move, stored_moves

SIZE = (80, 24)


@pytest.fixture
def store(tmp_path):
    store = SaveStore(tmp_path / "data")
    yield store
    store.close()


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


async def highlight(pilot, game_id: str) -> None:
    saves_list = pilot.app.screen.query_one(SavesList)
    saves_list.highlighted = saves_list.get_option_index(game_id)
    await pilot.pause()


async def choose(pilot, game_id: str) -> None:
    await highlight(pilot, game_id)
    await pilot.press("enter")
    await pilot.pause()


def store_ids(store: SaveStore) -> list[str]:
    return [info.id for info in store.list()]


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


async def test_a_newer_save_of_an_earlier_version_is_listed_reported_and_left_where_it_is(store):
    path = legacy_save(store.root, in_play(), "future", change=lambda d: d.update(format=FORMAT_VERSION + 1))
    legacy_save(store.root, in_play(2), "good")
    text = path.read_text()
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert "saves/future.json: saved by a newer cardtable" in toasts(app)  # the menu says so once
        assert "brought into" in toasts(app)
        await open_saves(pilot)
        assert "cannot open here" in prompts(app)["future"] and "newer cardtable" in prompts(app)["future"]
        await choose(pilot, "future")
        assert isinstance(app.screen, ResumeScreen)
        assert "Cannot open saves/future.json: saved by a newer cardtable" in toasts(app)
        assert set(prompts(app)) == {"good", "future"}
        assert app.screen.check_action("export", ()) is None  # greyed on it
    assert path.read_text() == text


async def test_a_game_whose_move_no_longer_replays_resumes_before_it_with_a_notice(store):
    match = played(in_play(), 6)
    game_id = store.create(match)
    spoil_move(store.root, game_id, 5, text="no such move")
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_saves(pilot)
        assert "damaged" not in prompts(app)[game_id]
        await choose(pilot, game_id)
        table = app.screen
        assert isinstance(table, TableScreen) and table.game_id == game_id
        assert [p.text for p in table.match.history[:4]] == [p.text for p in match.history[:4]]
        assert "Move 5 of this game ('no such move') no longer replays, so it resumes after move 4" in toasts(app)
        assert f"cardtable export {game_id} --original" in toasts(app)
        assert stored_moves(store.root, game_id) == [[p.seat, p.text] for p in table.match.history]
        assert store.export(game_id, original=True)["commands"][4][1] == "no such move"


async def test_a_notice_given_at_launch_is_shown_on_the_table(store):
    match = in_play()
    app = make_app(store, match=match, game_id=store.create(match), notice="Move 9 no longer replays.")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert "Move 9 no longer replays." in toasts(app)


async def test_a_finished_game_opens_its_results(store):
    match = Match(rules.find_game("property"), [Seat("Ann", "random"), Seat("Bob", "random")], seed=3)
    while not match.over:
        match.submit(min(match.awaiting), match.bot_move(min(match.awaiting)))
    game_id = store.create(match)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        await choose(pilot, game_id)
        assert type(app.screen).__name__.endswith("Results")


# -- two tables, one game ------------------------------------------------------------------------
def two_humans() -> Match:
    return Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob")], seed=5)


def another_writer(store: SaveStore):
    """A game of two humans on the app's table, and another store writing it: (the table's
    match, the id, the other store, its match, the app)."""
    match = two_humans()
    game_id = store.create(match)
    other = SaveStore(store.root)
    return match, game_id, other, other.load(game_id), make_app(store, match=match, game_id=game_id)


def table_of(app) -> TableScreen:
    """The table, under the hand-off curtain or not."""
    return next(screen for screen in reversed(app.screen_stack) if isinstance(screen, TableScreen))


async def test_a_move_written_by_another_cardtable_appears_on_the_table_within_the_poll(store):
    match, game_id, other, theirs, app = another_writer(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = table_of(app)
        seat = min(theirs.awaiting)
        other.play(game_id, theirs, seat, theirs.legal(seat)[0])
        await settle(pilot, lambda: len(match.history) == 1)
        assert match.history[0].text == theirs.history[0].text
        if app.screen is not table:  # under the curtain the move is drawn once it is lifted
            app.pop_screen()
            await pilot.pause()
        assert table.game_log.entries == 1 and table.sub_title == f"Turn {theirs.turn}"
    other.close()


async def test_a_table_at_rest_looks_for_moves_without_drawing_anything(store, monkeypatch):
    match = two_humans()
    game_id = store.create(match)
    app = make_app(store, match=match, game_id=game_id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = table_of(app)
        looks, drawn = [], []
        real = store.sync
        monkeypatch.setattr(store, "sync", lambda *args: looks.append(args) or real(*args))
        monkeypatch.setattr(table, "refresh_table", lambda: drawn.append(1))
        for _ in range(200):  # until the table has looked three times
            if len(looks) >= 3:
                break
            await pilot.pause(0.05)
        assert len(looks) >= 3 and drawn == [] and match.history == []


async def test_two_apps_on_one_game_each_see_the_others_moves(store):
    match = two_humans()
    game_id = store.create(match)
    second_store = SaveStore(store.root)
    first = make_app(store, match=store.load(game_id), game_id=game_id)
    second = make_app(second_store, match=second_store.load(game_id), game_id=game_id)
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        await one.pause()
        await two.pause()
        tables = [table_of(first), table_of(second)]
        for turn in range(4):
            mover, watcher = (tables[0], tables[1]) if turn % 2 == 0 else (tables[1], tables[0])
            pilot = one if mover is tables[0] else two
            seat = min(mover.match.awaiting)
            mover.viewer = seat  # (past the curtain: the seat at that screen)
            assert mover.submit(mover.match.legal(seat)[0])
            count = len(mover.match.history)
            await settle(one if watcher is tables[0] else two, lambda: len(watcher.match.history) == count)
            await pilot.pause()
        assert [p.text for p in tables[0].match.history] == [p.text for p in tables[1].match.history]
        assert stored_moves(store.root, game_id) == [[p.seat, p.text] for p in tables[0].match.history]
    second_store.close()


async def test_a_late_move_is_refused_naming_who_moved_first_and_the_table_shows_theirs(store):
    match, game_id, other, theirs, app = another_writer(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = table_of(app)
        table._poll.pause()  # the other's move lands between two looks
        seat = min(match.awaiting)
        table.viewer = seat
        other.play(game_id, theirs, seat, theirs.legal(seat)[-1])
        assert not table.submit(match.legal(seat)[0])
        await pilot.pause()
        assert f"{match.names[seat]} moved first: the table shows their move." in toasts(app)
        assert [p.text for p in match.history] == [p.text for p in theirs.history]
    other.close()


async def test_moves_taken_back_elsewhere_beyond_what_the_table_can_follow_open_the_game_again(store):
    match = played(in_play(), 4)
    first = match.history[0].text
    game_id = store.create(match)
    app = make_app(store, match=match, game_id=game_id)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        old = table_of(app)
        with closing(store.root) as connection:  # as a repair in another cardtable would
            connection.execute("DELETE FROM moves WHERE game_id = ? AND number > 1", (game_id,))
            connection.execute("UPDATE games SET moves = 1, revision = revision + 1 WHERE id = ?", (game_id,))
        await settle(pilot, lambda: table_of(app) is not old)
        table = table_of(app)
        assert table.game_id == game_id and table.match.history[0].text == first
        assert len(table.match.history) < len(match.history)
        assert "Moves of this game were taken back in another cardtable. The table shows the game as it is " \
               "now." in toasts(app)


async def test_moves_here_that_could_not_be_saved_while_another_wrote_are_said_to_stay_here(store):
    match, game_id, other, theirs, app = another_writer(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = table_of(app)
        seat = min(match.awaiting)
        table.viewer = seat
        with full_disk(store):
            assert table.submit(match.legal(seat)[0])
        other.play(game_id, theirs, seat, theirs.legal(seat)[-1])
        await settle(pilot, lambda: "they stay on this table only" in toasts(app))
        assert table.save_error is not None
    other.close()


def footer_words(app) -> list[str]:
    """The descriptions of the keys the footer shows, in order."""
    return [binding.description for (_, binding, enabled, _) in app.screen.active_bindings.values()
            if binding.show and enabled]


def enter_means(app) -> str:
    """What the keys page (F1) says Enter does on the saves screen as it is now."""
    from cardtable.screens.rules import keys_of

    return next(description for keys, description, note in keys_of(app.screen)
                if {"enter", "⏎"} & set(keys.lower().split()) and not note)


# -- the trash ----------------------------------------------------------------------------------
async def test_deleted_games_go_to_the_trash_and_come_back(store):
    keep = store.create(in_play(1))
    gone = store.create(in_play(2))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_saves(pilot)
        await highlight(pilot, gone)
        await pilot.press("d", "y")
        await pilot.pause()
        assert set(prompts(app)) == {keep}
        assert "Trash" in footer_words(app) and "Saved games" not in footer_words(app)
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.showing_trash and set(prompts(app)) == {gone}
        # in the trash the footer offers restoring, and t goes back to the saved games
        words = footer_words(app)
        assert "Restore" in words and "Saved games" in words
        assert not {"Resume", "Trash", "Delete", "Import"} & set(words)
        # and the keys page (F1) names Enter as it acts here, as the footer does
        assert enter_means(app) == "Restore"
        await pilot.press("t")
        await pilot.pause()
        assert not app.screen.showing_trash and set(prompts(app)) == {keep}
        assert enter_means(app) == "Resume"
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert prompts(app) == {}
        assert "The trash is empty." in str(app.screen.query_one("#saves-empty").render())
        await pilot.press("escape")  # out of the trash, back to the saves
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen) and set(prompts(app)) == {keep, gone}
        # Enter restores too
        await highlight(pilot, gone)
        await pilot.press("d", "y", "t")
        await pilot.pause()
        await choose(pilot, gone)
        assert set(store_ids(store)) == {keep, gone} and store.trash() == []


# -- export and import ----------------------------------------------------------------------------
async def test_x_exports_the_game_to_the_data_folder_and_i_imports_a_file(store, tmp_path):
    match = played(in_play(), 3)
    game_id = store.create(match)
    mailed = legacy_save(tmp_path, played(in_play(4), 5), "mailed", folder="inbox")
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_saves(pilot)
        await pilot.press("x")
        await pilot.pause()
        exported = store.root / "exports" / f"{game_id}.json"
        assert f"to {exported}" in toasts(app)
        assert json.loads(exported.read_text())["commands"] == [[p.seat, p.text] for p in match.history]

        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, ImportScreen)
        await pilot.press("enter")  # nothing typed: said, the dialog stays
        await pilot.pause()
        assert "Type the path" in str(app.screen.query_one("#import-error").render())
        app.screen.query_one("#import-path").value = str(mailed)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        [new_id] = set(prompts(app)) - {game_id}
        assert f"Imported mailed.json as {new_id}." in toasts(app)
        assert app.screen.selected().id == new_id  # the cursor is on it

        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#import-path").value = str(tmp_path / "nowhere.json")
        await pilot.press("enter")
        await pilot.pause()
        assert "nowhere.json cannot be imported: could not be read" in toasts(app)
        assert set(prompts(app)) == {game_id, new_id}
        await pilot.press("i", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)


# -- an unwritable data folder -----------------------------------------------------------------
async def test_a_file_where_the_data_folder_should_be_lets_the_game_be_played_unsaved(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file")
    store = SaveStore(blocker)
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()  # the saves are read just after the menu's first paint
        assert f"Cannot read the saved games in {blocker}: {blocker} is a file, not a folder." in toasts(app)
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
        said = f"Games cannot be saved in {blocker}: {blocker} is a file, not a folder."
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
    real = store_games._insert_game

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_games, "_insert_game", full)
    match = in_play()
    app = make_app(store, match=match)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.game_id is None
        assert toasts(app).count("the disk is full") == 1 and "You can play on" in toasts(app)
        monkeypatch.setattr(store_games, "_insert_game", real)
        await settle(pilot, lambda: table.my_turn)
        assert table.submit(table.legal[0])
        await settle(pilot, lambda: "saved again" in toasts(app))
        assert table.game_id is not None and table.save_error is None
        assert store_ids(store) == [table.game_id]
        assert stored_moves(store.root, table.game_id) == [[p.seat, p.text] for p in match.history]


# -- saving fails mid-game ---------------------------------------------------------------------
async def test_a_failed_save_warns_at_once_and_leaving_asks_with_no_as_the_default(store):
    match = in_play()
    game_id = store.create(match)
    app = make_app(store, match=match, game_id=game_id)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        await settle(pilot, lambda: table.my_turn)
        with full_disk(store):
            assert table.submit(table.legal[0])
            await pilot.pause()
            assert "The game could not be saved" in toasts(app) and "the disk is full" in toasts(app)
            assert table.save_error is not None
            await settle(pilot, lambda: table.my_turn or match.over)
            for leave in ("q", "escape"):
                await pilot.press(leave)
                await pilot.pause()
                assert isinstance(app.screen, ConfirmScreen), leave
                assert "not saved" in str(app.screen.query_one("#confirm-message").render())
                assert app.focused.id == "confirm-no"
                await pilot.press("enter")  # No: stay
                await pilot.pause()
                assert app.screen is table
        # room again: leaving saves what the store lacks, and asks nothing
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert stored_moves(store.root, game_id) == [[p.seat, p.text] for p in match.history]


# -- a damaged database --------------------------------------------------------------------------
async def test_a_damaged_database_is_said_on_the_menu_and_the_earlier_saves_come_back(store):
    legacy_save(store.root, in_play(), "old")
    store.create(in_play(2))
    store.close()
    store.path.write_bytes(b"not a database " * 400)
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert "The games database was damaged" in toasts(app) and "set aside as games.damaged-" in toasts(app)
        assert "1 saved game" in str(app.screen.query_one("#menu-options").get_option("resume").prompt)
        await open_saves(pilot)
        assert set(prompts(app)) == {"old"}
    assert len(list(store.root.glob("games.damaged-*.sqlite3"))) == 1
