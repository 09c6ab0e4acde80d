"""The record from the app, as a player meets it: a game that ends at the table is recorded once
(not again when its results are opened later), the Stats screen from the menu (players, a game
at a time, the head-to-head of the player under the cursor), an empty record, and a damaged
record reported in words and set aside with the saves untouched."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from textual.widgets import DataTable

import rules
from cardtable.app import CardtableApp
from cardtable.record import GameRecord, PlayerResult, Record
from cardtable.store import SaveStore
from cardtable.screens.menu import MenuScreen
from cardtable.screens.results import ResultsScreen
from cardtable.screens.stats import StatsScreen
from cardtable.settings import Settings
from rules.core import Match, Seat

from pilot_helpers import screen_text, settle
from store_helpers import contents

SIZE = (80, 24)
START = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    return SaveStore(tmp_path / "data")


def make_app(store, **kwargs):
    return CardtableApp(store=store, settings=Settings(bot_delay=0), **kwargs)


def fill(root) -> None:
    record = Record(root)
    games = [
        ("property", (("Ann", None, 1, 120), ("Bob", None, 2, 30))),
        ("property", (("Ann", None, 2, 10), ("Bob", None, 1, 200))),
        ("property", (("Ann", None, 1, 90), ("Bob", None, 2, 0), ("Cleo", "bot", 3, 0))),
        ("portfolio", (("Ann", None, 1, 400), ("Cleo", "bot", 2, 100))),
    ]
    record.add_many(GameRecord(game, START + timedelta(hours=n), tuple(PlayerResult(*p) for p in players))
                    for n, (game, players) in enumerate(games))
    record.close()


def rows(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def test_a_game_that_ends_at_the_table_is_recorded_once(store):
    match = Match(rules.find_game("property"), [Seat("Ann", "random"), Seat("Bob", "random")], seed=5)
    app = make_app(store, match=match)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen), limit=4000)
        game_id = store.latest(unfinished=False).id
    record = Record(store.root)
    winner = match.outcome.winners[0]
    stats = {s.name: s for s in record.players() if s.game == "property"}
    assert set(stats) == {"Ann", "Bob"} and all(s.games == 1 and s.bot == "random" for s in stats.values())
    assert stats[match.names[winner]].wins == 1 and stats[match.names[winner]].best == match.outcome.scores[winner]
    record.close()
    # its results opened again from the saves: the record does not count it twice
    again = make_app(store, match=store.load(game_id), game_id=game_id)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResultsScreen)
    record = Record(store.root)
    assert record.count() == 1
    record.close()


async def test_the_stats_screen_from_the_menu(store):
    fill(store.root)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        players = screen.query_one("#stats-players", DataTable)
        assert [row[:5] for row in rows(players)] == [
            ["Ann", "4", "3", "75%", "–"], ["Bob", "3", "1", "33%", "–"], ["Cleo (bot)", "2", "0", "0%", "–"]]
        assert "4 finished games in the record" in screen_text(app)
        detail = str(screen.query_one("#stats-player").render())
        assert "Ann at all games: 4 games, 3 wins (75%); winning streak 2 now, longest 2" in detail
        opponents = screen.query_one("#stats-opponents", DataTable)
        assert rows(opponents) == [["Bob", "3", "2", "1", "0"], ["Cleo (bot)", "2", "2", "0", "0"]]
        # the next player down: their head-to-head
        await pilot.press("down")
        assert rows(opponents)[0] == ["Ann", "3", "1", "2", "0"]
        # one game at a time: g goes through the games recorded, then back to all of them
        await pilot.press("g")
        assert "Portfolio" in screen_text(app)
        assert [row[0] for row in rows(players)] == ["Ann", "Cleo (bot)"]
        await pilot.press("g")
        assert [row[:6] for row in rows(players)][0] == ["Ann", "3", "2", "67%", "120", "1"]
        assert rows(opponents) == [["Bob", "3", "2", "1", "0"], ["Cleo (bot)", "1", "1", "0", "0"]]
        await pilot.press("g")
        assert len(rows(players)) == 3
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_an_empty_record_says_how_it_fills(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        assert "No finished games yet: the record fills as games end." in screen_text(app)
        assert app.screen.check_action("next_game", ()) is None


async def test_a_damaged_record_is_reported_and_set_aside_and_the_saves_stay(store):
    store.create(Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob")], seed=1))
    saves = contents(store.root)
    store.root.joinpath("record.sqlite3").write_bytes(b"not a database " * 500)
    app = make_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("t")
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
        assert any(m.startswith("The record of finished games was damaged (file is not a database)")
                   and "Your saved games are untouched." in m for m in messages)
        assert "No finished games yet" in screen_text(app)
    assert contents(store.root) == saves
    assert len(list(store.root.glob("record.damaged-*.sqlite3"))) == 1
