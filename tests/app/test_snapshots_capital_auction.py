"""Snapshots of the Capital Auction table: three players at 80×24 (Ann bidding, two of her
Capital cards ticked), five at 120×40 (Ann asked whether to answer an Audit), and the Tool
dialog. Deterministic: a fixed seed, every move before the picture chosen by the game's bot,
bot delay 0, a fixed theme. Regenerate after a deliberate change with ``pytest
tests/app/test_snapshots_capital_auction.py --snapshot-update`` and look at the SVGs first."""

from __future__ import annotations

from rules.core import Match, Seat

from cardtable.games.capital_auction.table import CapitalAuctionTable
from pilot_helpers import board_fits, bot_played, snapshot_app

SEED = 3
PLAYERS = [Seat("Ann"), *(Seat(name, "bot") for name in ("Bob", "Cleo", "Dan", "Eve"))]


def played(players: int, moves: int, phase: str) -> Match:
    """After ``moves`` commands (every one the bot's), when Ann is awaited in ``phase``."""
    return bot_played("capital-auction", PLAYERS[:players], SEED,
                      lambda m: len(m.history) >= moves and m.awaiting == {0} and m.view(0).phase == phase)


def fits(pilot) -> None:
    board_fits(pilot.app, CapitalAuctionTable)


def test_three_players_bidding_at_80x24(snap_compare, tmp_path):
    async def tick_two(pilot):
        await pilot.pause()
        await pilot.press("space", "right", "space")
        await pilot.pause()
        fits(pilot)

    assert snap_compare(snapshot_app(tmp_path, played(3, 60, "bid")), terminal_size=(80, 24), run_before=tick_two)


def test_five_players_asked_to_react_at_120x40(snap_compare, tmp_path):
    async def look(pilot):
        await pilot.pause()
        fits(pilot)

    assert snap_compare(snapshot_app(tmp_path, played(5, 60, "react")), terminal_size=(120, 40), run_before=look)


def test_the_tool_dialog_at_80x24(snap_compare, tmp_path):
    match = bot_played("capital-auction", PLAYERS[:3], SEED,
                       lambda m: m.awaiting == {0} and m.view(0).phase == "tool"
                       and sum(type(c).__name__ == "Play" for c in m.legal(0)) >= 2)

    async def open_it(pilot):
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()

    assert snap_compare(snapshot_app(tmp_path, match), terminal_size=(80, 24), run_before=open_it)
