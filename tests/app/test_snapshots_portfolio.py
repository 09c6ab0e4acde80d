"""Snapshots of the Portfolio table in play at the smallest supported size and a larger one,
and of its dialogs at 80×24. Deterministic: a fixed seed, moves chosen by the bot policy, bot
delay 0, a fixed theme. Regenerate after a deliberate change with ``pytest
tests/app/test_snapshots_portfolio.py --snapshot-update`` and look at the SVGs before keeping
them."""

from __future__ import annotations

import pytest

from rules.core import Card, Match, Seat
from rules.portfolio.state import ACT, DRAW

from cardtable.games.portfolio.dialogs import DealAnswer, DrawDialog
from cardtable.games.portfolio.table import PortfolioTable
from cardtable.screens.handoff import HandoffScreen
from cardtable.widgets import CardWidget
from pilot_helpers import bot_played, settle, snapshot_app as app_for

SIZES = [(80, 24), (120, 40)]
SEED = 5


def played_until(seats, done) -> Match:
    return bot_played("portfolio", seats, SEED, done)


ONE_HUMAN = [Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "bot")]


def ann_acting(match: Match) -> bool:
    """Ann has drawn, a good way into the game, with portfolios on both sides of the table."""
    state = match.state
    owners = {p.owner for p in state.portfolios}
    return (len(match.history) >= 40 and match.awaiting == {0} and state.phase == ACT
            and 0 in owners and len(owners) >= 2)


def ann_drawing(match: Match) -> bool:
    state = match.state
    return len(match.history) >= 40 and match.awaiting == {0} and state.phase == DRAW and state.turn_income >= 8


def table(pilot) -> PortfolioTable:
    return next(s for s in pilot.app.screen_stack if isinstance(s, PortfolioTable))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_portfolio_table(snap_compare, tmp_path, size):
    match = played_until(ONE_HUMAN, ann_acting)

    async def point_at_a_rival(pilot):
        await pilot.pause()
        screen = table(pilot)
        # select the hand card the rules find most uses for, and a rival's portfolio
        uses = screen._uses
        best = max(screen.hand.cards, key=lambda card: (len(uses.get(card.key, ())), -screen.hand.cards.index(card)))
        await pilot.click(next(w for w in screen.hand.query(CardWidget) if w.card == best))
        rival = next(info.pid for info in screen.view.portfolios if info.owner != 0)
        while screen.board.selected != rival:
            await pilot.press("down")
        await pilot.pause()

    assert snap_compare(app_for(tmp_path, match), terminal_size=size, run_before=point_at_a_rival)


def test_portfolio_draw_dialog(snap_compare, tmp_path):
    match = played_until(ONE_HUMAN, ann_drawing)

    async def three_with_the_discard(pilot):
        # the table opens the dialog after its first refresh: keys pressed before then go to the table
        await settle(pilot, lambda: isinstance(pilot.app.screen, DrawDialog))
        await pilot.press("3", "t")
        await pilot.pause()

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=three_with_the_discard)


def test_portfolio_deal_dialog(snap_compare, tmp_path):
    match = played_until(ONE_HUMAN, ann_acting)

    async def offer(pilot):
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        dialog = pilot.app.screen
        await pilot.click(dialog.query_one("#deal-hand").query(CardWidget).first())
        await pilot.click("#deal-take-money")
        await pilot.press("2")
        await pilot.pause()

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=offer)


def test_portfolio_deal_answer(snap_compare, tmp_path):
    seats = [Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot")]
    match = played_until(seats, ann_acting)
    # Ann offers her lowest card and $1 for Bob's first portfolio (or a card, if he has none)
    bobs = [p.pid for p in match.state.portfolios if p.owner == 1]
    card = min(match.state.hands[0], key=Card.sort_key)
    match.submit(0, f"offer Bob: give {card.key},$1 take {bobs[0] if bobs else '2C'}")

    async def lift_the_curtain(pilot):
        await settle(pilot, lambda: isinstance(pilot.app.screen, HandoffScreen))
        await pilot.press("enter")  # Bob is looking
        await settle(pilot, lambda: isinstance(pilot.app.screen, DealAnswer))

    assert snap_compare(app_for(tmp_path, match), terminal_size=(80, 24), run_before=lift_the_curtain)
