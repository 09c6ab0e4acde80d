"""Snapshots of the Card Stock Market table: four players at the smallest supported size and a
larger one, six players at 80×24, and the question before a crash. Deterministic: a fixed seed,
every move before the picture chosen by the bot, bot delay 0, a fixed theme. Regenerate after a
deliberate change with ``pytest tests/app/test_snapshots_stock_market.py --snapshot-update`` and
look at the SVGs before keeping them."""

from __future__ import annotations

import pytest

import rules
from rules.core import Match, Seat, chance, get_bot

from cardtable.app import CardtableApp
from cardtable.games.stock_market.table import StockMarketTable
from cardtable.saves import SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.settings import Settings
from game_helpers import bot_choice

SPEC = rules.find_game("stock-market")
BOT = get_bot(SPEC, "bot")
SIZES = [(80, 24), (120, 40)]
SEED = 7


def played(seats, moves: int) -> Match:
    """A match of ``seats`` after ``moves`` commands, each (the humans' too) the bot's."""
    match = Match(SPEC, seats, seed=SEED)
    while len(match.history) < moves and match.awaiting:
        match.submit(*bot_choice(match, BOT, chance(SEED, len(match.history))))
    return match


def human_to_play(match: Match) -> Match:
    """Play on (bot's choices) until the first seat, a human, is awaited at a turn's start."""
    while match.awaiting != {0}:
        match.submit(*bot_choice(match, BOT, chance(SEED, len(match.history))))
    return match


def app_for(tmp_path, match: Match) -> CardtableApp:
    store = SaveStore(tmp_path / "data")
    return CardtableApp(store=store, settings=Settings(theme="textual-dark", bot_delay=0), match=match,
                        game_id=store.create(match))


def table(pilot) -> StockMarketTable:
    return next(s for s in pilot.app.screen_stack if isinstance(s, StockMarketTable))


def fits(pilot) -> None:
    """The board shows whole, without a scrollbar."""
    assert table(pilot).query_one("#board").max_scroll_y == 0


ANN_AND_BOTS = [Seat("Ann"), Seat("Cleo", "bot"), Seat("Dan", "bot"), Seat("Eve", "bot")]
SIX = [Seat("Ann"), *(Seat(name, "bot") for name in ("Bo", "Cy", "Di", "Ed", "Flo"))]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stock_market_table(snap_compare, tmp_path, size):
    match = human_to_play(played(ANN_AND_BOTS, 40))

    async def select_first_card(pilot):
        await pilot.pause()
        await pilot.press("space")  # the line under the hand says what the card can do
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=size, run_before=select_first_card)


def test_stock_market_six_players_fit_80x24(snap_compare, tmp_path):
    match = human_to_play(played(SIX, 60))

    async def look(pilot):
        await pilot.pause()
        fits(pilot)

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=look)
