"""Snapshots of the Card Stock Market table: four players at the smallest supported size and a
larger one, six players at 80×24, and the question before a crash. Deterministic: a fixed seed,
every move before the picture chosen by the bot, bot delay 0, a fixed theme. Regenerate after a
deliberate change with ``pytest tests/app/test_snapshots_stock_market.py --snapshot-update`` and
look at the SVGs before keeping them."""

from __future__ import annotations

import pytest

from rules.core import Match, Seat

from cardtable.games.stock_market.table import StockMarketTable
from pilot_helpers import board_fits, bot_played, snapshot_app as app_for

SIZES = [(80, 24), (120, 40)]
SEED = 7


def played(seats, moves: int) -> Match:
    """After ``moves`` commands (every one the bot's), when the first seat, Ann, is to move."""
    return bot_played("stock-market", seats, SEED,
                      lambda match: len(match.history) >= moves and match.awaiting == {0})


def fits(pilot) -> None:
    board_fits(pilot.app, StockMarketTable)


ANN_AND_BOTS = [Seat("Ann"), Seat("Cleo", "bot"), Seat("Dan", "bot"), Seat("Eve", "bot")]
SIX = [Seat("Ann"), *(Seat(name, "bot") for name in ("Bo", "Cy", "Di", "Ed", "Flo"))]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stock_market_table(snap_compare, tmp_path, size):
    match = played(ANN_AND_BOTS, 40)

    async def select_first_card(pilot):
        await pilot.pause()
        await pilot.press("space")  # the line under the hand says what the card can do
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=size, run_before=select_first_card)


def test_stock_market_six_players_fit_80x24(snap_compare, tmp_path):
    match = played(SIX, 60)

    async def look(pilot):
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=look)
