"""The results screen's Analysis tab, driven as a player would: opened from the saves screen
(a) for a finished game, made in a worker with a progress bar and stopped by s (nothing kept),
made whole and shown (each player's chance over the game, accuracy, luck and skill, the turning
points), and shown at once from the store the next time."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.screens.resume import ResumeScreen, SavesList
from cardtable.settings import Settings
from cardtable.store import SaveStore
from cardtable.store import analyses
from rules.core import Match, Seat
from rules.core.analysis import VERSION

from pilot_helpers import screen_text, until

SIZE = (100, 40)


@pytest.fixture
def store(tmp_path, monkeypatch):
    # a short thinking time, so that a whole game is judged in a second or two
    monkeypatch.setattr(analyses, "thinking_time", lambda spec, seconds: 0.01 if seconds is None else seconds)
    store = SaveStore(tmp_path / "data")
    yield store
    store.close()


def finished_game(store: SaveStore) -> tuple[str, Match]:
    match = Match(rules.find_game("property"), [Seat("Ann [red]"), Seat("Bob", "random")], seed=3)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat) if match.seats[seat].bot else match.legal(seat)[0])
    return store.create(match), match


async def wait_for(pilot, done) -> None:
    await until(pilot, done, limit=1500, step=0.01)  # the analysis works in a thread


async def open_analysis(pilot, game_id: str):
    await pilot.press("r")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ResumeScreen)
    saves_list = pilot.app.screen.query_one(SavesList)
    saves_list.highlighted = saves_list.get_option_index(game_id)
    await pilot.pause()
    await pilot.press("a")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__.endswith("Results"))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.is_mounted and screen.showing == "analysis")
    return screen


async def test_the_analysis_runs_in_a_worker_can_be_stopped_keeping_nothing_then_is_made_and_shown(store, monkeypatch):
    monkeypatch.setattr(analyses, "thinking_time", lambda spec, seconds: 0.05)
    game_id, match = finished_game(store)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_analysis(pilot, game_id)
        bar = screen.query_one("#analysis-progress")
        await wait_for(pilot, lambda: (bar.progress or 0) >= 2)
        assert screen.analysing and bar.total > 2
        assert "Chance of winning" not in screen_text(app)  # no chart before its chances
        await pilot.press("x")
        await wait_for(pilot, lambda: not screen.analysing)
        assert screen.analysis is None
        assert "stopped: nothing was kept" in screen_text(app)
        assert store.kept_analysis(game_id, VERSION, 0.05, len(match.history)) is None
        monkeypatch.setattr(analyses, "thinking_time", lambda spec, seconds: 0.01)
        await pilot.press("a")  # again, to the end this time
        await wait_for(pilot, lambda: screen.analysis is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "Ann [red]: accuracy" in text and "Bob: accuracy" in text
        assert "Chance of winning" in text
        assert screen.query_one("#analysis-chart").series.values[-1] == tuple(
            100 if seat in match.outcome.winners else 0 for seat in range(2))
    assert store.kept_analysis(game_id, VERSION, 0.01, len(match.history)) is not None


async def test_a_kept_analysis_is_shown_at_once_without_a_worker(store):
    game_id, match = finished_game(store)
    replay = store.replay(game_id).replay
    analysis, kept, problem = analyses.analysis_of(store, game_id, replay)
    assert (kept, problem) == (False, None)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_analysis(pilot, game_id)
        await wait_for(pilot, lambda: screen.analysis is not None)
        assert screen.analysis == analysis
        assert "Ann [red]: accuracy" in screen_text(app)
        assert not screen.analysing
