"""Snapshots of the Abundance table at the smallest supported size and a larger one, and of the
sealed round, an offer waiting for an answer and the trade dialog at 80×24. Deterministic: a
fixed seed, every move before the picture chosen by the bot (for both seats), bot delay 0, a
fixed theme. Regenerate after a deliberate change with ``pytest
tests/app/test_snapshots_abundance.py --snapshot-update`` and look at the SVGs before keeping
them."""

from __future__ import annotations

import pytest

from rules.core import Match, Seat

from cardtable.games.abundance.table import AbundanceTable
from cardtable.screens.handoff import HandoffScreen
from pilot_helpers import board_fits, bot_played, settle, snapshot_app as app_for, table_of

SIZES = [(80, 24), (120, 40)]
SEED = 1


def played_until(seats, done) -> Match:
    return bot_played("abundance", seats, SEED, done)


def table(pilot) -> AbundanceTable:
    return table_of(pilot.app, AbundanceTable)


def fits(pilot) -> None:
    board_fits(pilot.app, AbundanceTable)


ANN_AND_BOT = [Seat("Ann"), Seat("Cleo", "bot")]
TWO_HUMANS = [Seat("Ann"), Seat("Bob")]


def ann_bidding(match: Match) -> bool:
    """Round 4 of the first rubber, a contested open auction, Ann to bid, trinkets on both sides."""
    state = match.state
    return (len(match.history) >= 440 and match.awaiting == {0} and state.phase == "auction"
            and state.auction.high > 0 and all(state.trinkets))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_abundance_table(snap_compare, tmp_path, size):
    match = played_until(ANN_AND_BOT, ann_bidding)

    async def raise_by_five(pilot):
        await pilot.pause()
        await pilot.press("right")
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=size, run_before=raise_by_five)


def test_abundance_sealed_bid_behind_the_curtain(snap_compare, tmp_path):
    # two humans: Ann has sealed her bid; the curtain called Bob, who is typing his
    match = played_until(TWO_HUMANS, lambda m: m.state.phase == "sealed" and len(m.history) > 100)
    match.submit(0, "bid 9")

    async def bob_types(pilot):
        await settle(pilot, lambda: isinstance(pilot.app.screen, HandoffScreen))
        await pilot.press("enter")  # the curtain: Bob is looking
        await pilot.pause()
        await pilot.press("7")
        await pilot.pause()
        assert table(pilot).viewer == 1
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=bob_types)


def test_abundance_offer_to_answer(snap_compare, tmp_path):
    match = played_until(ANN_AND_BOT, lambda m: m.state.offer is not None and m.state.offer.responder == 0
                         and len(m.history) > 250)

    async def look(pilot):
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=look)


def test_abundance_trade_dialog(snap_compare, tmp_path):
    match = played_until(ANN_AND_BOT, lambda m: m.state.phase == "trade" and 0 in m.awaiting
                         and m.state.offer is None and not m.state.offered[0]
                         and len(m.state.trinkets[0]) >= 2 and len(m.state.trinkets[1]) >= 2)

    async def offer(pilot):
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("space", "down", "space")  # Ann's first two trinkets
        await pilot.click("#offer-take-money")
        await pilot.press("4")
        await pilot.pause()

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=offer)


def test_abundance_final_table_at_80x24(snap_compare, tmp_path):
    # the end of a match at 80×24: the final table as the live table draws it at that size
    # (the game's own stylesheet: on a short terminal the sales sheet gives way, and `s`
    # shows it whole)
    from cardtable.screens.results import ResultsScreen

    match = played_until(TWO_HUMANS, lambda m: m.over)

    async def final_table(pilot):
        await settle(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
        await pilot.press("t")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=final_table)
