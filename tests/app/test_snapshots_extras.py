"""Snapshots of a replay, the results and the Stats screen at the smallest supported size and a
larger one. Deterministic: seeded games played by the bots, a record of fixed games ending at
noon UTC (the same date in any time zone a developer is likely to be in), a fixed theme.
Regenerate after a deliberate change with ``pytest tests/app/test_snapshots_extras.py
--snapshot-update`` and look at the SVGs before keeping them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.screens.replay import ReplayScreen
from cardtable.record import GameRecord, PlayerResult, Record
from cardtable.store import SaveStore
from cardtable.settings import Settings
from rules.core import Match, Replay, Seat

from game_helpers import play_bot
from pilot_helpers import drawn, settle

SIZES = [(80, 24), (120, 40)]
SEED = 7


def finished() -> Match:
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Cleo", "bot"), Seat("Dan")], seed=SEED)
    while not match.over:
        play_bot(match)
    return match


def app_with(tmp_path, **kwargs) -> CardtableApp:
    return CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(theme="textual-dark", bot_delay=0),
                        **kwargs)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_replay_as_a_player_saw_it(snap_compare, tmp_path, size):
    async def to_move_12_as_ann(pilot):
        # keys sent before the replay's screen is up would go elsewhere (seen on a loaded machine)
        await settle(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen) and pilot.app.screen.is_mounted)
        await pilot.press(*["right"] * 12, "1")
        screen = pilot.app.screen
        await settle(pilot, lambda: screen.replay.position == 12 and screen.viewer == 0 and drawn(screen))
        pilot.app.clear_notifications()
        await settle(pilot, lambda: drawn(pilot.app.screen))

    app = app_with(tmp_path, replay=Replay.of(finished()))
    assert snap_compare(app, terminal_size=size, run_before=to_move_12_as_ann)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_results_with_the_chart(snap_compare, tmp_path, size):
    async def settled(pilot):
        await pilot.pause()

    match = finished()
    assert snap_compare(app_with(tmp_path, match=match, game_id="snapshot"), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stats(snap_compare, tmp_path, size):
    record = Record(tmp_path / "data")
    start = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)
    tables = [(("Ann", None, 1, 120), ("Bob", None, 2, 30)), (("Ann", None, 2, 10), ("Bob", None, 1, 200)),
              (("Ann", None, 1, 90), ("Bob", None, 2, 0), ("Cleo", "bot", 3, 0)),
              (("Dan", None, 1, 400), ("Cleo", "bot", 2, 100), ("Ann", None, 3, 12))]
    record.add_many(GameRecord("property" if n < 3 else "portfolio", start + timedelta(days=n),
                               tuple(PlayerResult(*p) for p in players)) for n, players in enumerate(tables))
    record.close()

    async def open_stats(pilot):
        await pilot.press("t", "down")
        await pilot.pause()

    assert snap_compare(app_with(tmp_path), terminal_size=size, run_before=open_stats)
