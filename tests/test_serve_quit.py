"""ctrl+q in a browser (under `cardtable serve`) asks before quitting, as quitting ends the
tab's cardtable ("Session ended"); in a terminal it quits at once. The keys page says which."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp, QuitQuestion
from cardtable.store import SaveStore
from cardtable.screens.menu import MenuScreen
from cardtable.screens.rules import keys_of
from cardtable.settings import Settings
from rules.core import Match, Seat


@pytest.fixture
def in_browser(monkeypatch):
    monkeypatch.setattr(CardtableApp, "is_web", property(lambda app: True))


def table_app(tmp_path) -> CardtableApp:
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob", "random")], seed=1)
    return CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(bot_delay=0), match=match)


async def test_ctrl_q_at_the_table_in_a_browser_asks_first_no_being_the_default(tmp_path, in_browser):
    app = table_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitQuestion) and app.is_running
        assert "It ends in this browser tab; every game is already saved." in app.screen.message
        await pilot.press("ctrl+q")  # one question at a time
        await pilot.pause()
        assert sum(isinstance(screen, QuitQuestion) for screen in app.screen_stack) == 1
        await pilot.press("enter")  # No
        await pilot.pause()
        assert app.screen is table and app.is_running
        table.save_error = "the disk is full"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert "the latest moves on the table are NOT saved" in app.screen.message
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


async def test_ctrl_q_in_a_terminal_quits_at_once(tmp_path):
    app = table_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_the_keys_page_says_what_ctrl_q_does(tmp_path, monkeypatch):
    app = table_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for screen in (app.screen, next(s for s in app.screen_stack if isinstance(s, MenuScreen))):
            rows = [(keys, description) for keys, description, _note in keys_of(screen) if "^q" in keys.split()]
            assert rows == [("^q", "Quit cardtable (games are saved; asks if not)")]
        monkeypatch.setattr(CardtableApp, "is_web", property(lambda app: True))
        rows = [description for keys, description, _note in keys_of(app.screen) if "^q" in keys.split()]
        assert rows == ["Quit: ends this browser tab (asks first)"]


async def test_ctrl_q_in_a_terminal_asks_when_the_latest_moves_are_not_saved(tmp_path):
    app = table_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen
        table.save_error = "the disk is full"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitQuestion) and app.is_running
        assert "NOT saved" in app.screen.message
        await pilot.press("enter")  # No, the default
        await pilot.pause()
        assert app.screen is table and app.is_running
