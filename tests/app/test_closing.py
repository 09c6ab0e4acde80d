"""A screen opened as the app closes (the game ends, a replay or a screen opens, as the player
quits) closes with it: Textual takes its parts down before its Mount and ScreenResume, and
setting it up then looked for them, and the error reached the terminal as the app ended.
run_test raises what the app raised: each test fails on it."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.screens.join import JoinScreen
from cardtable.screens.resume import ResumeScreen
from cardtable.screens.rules import RulesScreen
from cardtable.screens.settings import SettingsScreen
from cardtable.screens.setup import SetupScreen
from cardtable.screens.stats import StatsScreen
from cardtable.settings import Settings
from cardtable.store import SaveStore
from rules.core import Match, Replay, Seat

from game_helpers import play_bot

SCREENS = {"setup": SetupScreen, "resume": ResumeScreen, "join": JoinScreen, "stats": StatsScreen,
           "settings": SettingsScreen, "rules": lambda: RulesScreen("property")}


@pytest.fixture
def app(tmp_path):
    return CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(bot_delay=0))


def played(game: str, moves: int | None = None) -> Match:
    """A game of ``game`` between bots' choices for humans, to its end or ``moves`` in."""
    match = Match(rules.find_game(game), [Seat("Ann"), Seat("Bob")], seed=3)
    while not match.over and (moves is None or len(match.history) < moves):
        play_bot(match)
    return match


@pytest.mark.parametrize("game", sorted(rules.GAMES))
@pytest.mark.parametrize("opened", ["results", "replay", "table"])
async def test_a_table_opened_as_the_app_closes_closes_with_it(app, game, opened):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if opened == "results":
            app.push_screen(app.results_of(played(game), app.settings, None))
        elif opened == "replay":
            app.open_replay(Replay.of(played(game)))
        else:
            app.open_table(played(game, 3), None)
        assert app.screen_stack[-1].__class__.__name__.endswith(("Results", "Replay", "Table"))


@pytest.mark.parametrize("name", sorted(SCREENS))
async def test_a_screen_opened_as_the_app_closes_closes_with_it(app, name):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = SCREENS[name]()
        app.push_screen(screen)
        assert app.screen_stack[-1] is screen
