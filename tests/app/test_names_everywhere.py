"""Whatever a player typed as a name is shown exactly as typed on every screen that shows it —
the table, the hand-off curtain, the saves list, a replay, the results and the stats — and is
never read as markup: ``[/]`` once crashed every table (and the save could not be opened again),
``[@click=app.quit]`` ran an action and "Bob [kid]" showed as "Bob "."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.replay import ReplayScreen
from cardtable.screens.resume import ResumeScreen
from cardtable.screens.results import ResultsScreen
from cardtable.screens.stats import StatsScreen
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from rules.core import Match, Seat

from pilot_helpers import screen_text, settle

HOSTILE = ("[/]", "Bob [kid]", "[@click=app.quit]")


@pytest.fixture
def store(tmp_path):
    return SaveStore(tmp_path / "data")


async def shown(pilot) -> str:
    """The screen's text once what was just pushed has been drawn."""
    await pilot.pause()
    await pilot.pause()
    return screen_text(pilot.app)


def make_app(store, **kwargs):
    return CardtableApp(store=store, settings=Settings(bot_delay=0), **kwargs)


def humans() -> Match:
    return Match(rules.find_game("property"), [Seat(name) for name in HOSTILE], seed=3)


def finished() -> Match:
    """A Property game played to its end by random moves, between the three names."""
    match = Match(rules.find_game("property"), [Seat(HOSTILE[0]), Seat(HOSTILE[1], "random"),
                                                Seat(HOSTILE[2], "random")], seed=5)
    rng = __import__("random").Random(5)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, rng.choice(match.legal(seat)))
    return match


async def test_the_table_and_the_curtain_show_every_name_as_typed(store):
    match = humans()
    app = make_app(store, match=match, game_id=store.create(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        first = match.names[min(match.awaiting)]
        curtain = " ".join((await shown(pilot)).replace("║", " ").split())  # its lines wrap in the box
        assert f"Pass to {first} — press Enter when only {first} is looking" in curtain
        for _ in range(4):  # two players' moves, each behind the curtain
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            table = app.screen
            seat = table.viewer
            table.submit(match.legal(seat)[0])
            await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        text = await shown(pilot)
        for name in HOSTILE:
            assert name in text, f"{name!r} is not on the table as typed"
        assert app.is_running  # [@click=app.quit] ran nothing


async def test_the_saves_list_a_replay_and_the_results_show_names_as_typed(store):
    game_id = store.create(finished())
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await settle(pilot, lambda: isinstance(app.screen, ResumeScreen))
        text = await shown(pilot)
        assert all(name in text for name in HOSTILE), text
        await pilot.press("r")  # the replay of the game under the cursor
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await pilot.pause()
        text = await shown(pilot)
        assert all(name in text for name in HOSTILE), text
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("enter")  # a finished game opens on its results
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        text = await shown(pilot)
        assert all(name in text for name in HOSTILE), text
        assert app.is_running
    assert game_id


async def test_the_stats_show_names_as_typed(store):
    match = finished()
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.record_game(match, store.create(match))
        app.push_screen(StatsScreen())
        await settle(pilot, lambda: isinstance(app.screen, StatsScreen))
        text = await shown(pilot)
        for name in HOSTILE:
            assert name in text, f"{name!r} is not in the stats as typed"
        assert app.is_running
