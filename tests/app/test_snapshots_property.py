"""Snapshots of the Property table in play at the smallest supported size and a larger one.

Deterministic: seed 7, both seats played by the bot for 63 commands (the bot's choices come
from the match's seed), then Ann selects the 5♥ and the wild 9♣ with the keyboard and moves the
cursor up the named column to a rent on Cleo's 5·4: owned and mortgaged cells, the last play,
the named column, the cursor and the rent preview are all on screen. Regenerate
after a deliberate change with ``pytest tests/app/test_snapshots_property.py
--snapshot-update`` and look at the SVGs before keeping them."""

from __future__ import annotations

import pytest

import rules
from rules.core import Card, Match, Seat, chance, get_bot

from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.settings import Settings
from game_helpers import bot_choice
from pilot_helpers import drawn, settle

SIZES = [(80, 24), (120, 40)]
SEED, PLIES = 7, 63
PAIR = (Card.parse("5H"), Card.parse("9C"))


def game_in_progress() -> Match:
    spec = rules.find_game("property")
    match = Match(spec, [Seat("Ann"), Seat("Cleo", "bot")], seed=SEED)
    bot = get_bot(spec, "bot")
    for ply in range(PLIES):
        match.submit(*bot_choice(match, bot, chance(SEED, ply)))
    assert match.awaiting == {0} and match.state.pending is None
    assert any(match.state.mortgaged) and set(PAIR) <= set(match.state.hands[0])
    return match


async def select_pair(pilot) -> None:
    table = pilot.app.screen
    hand = table.hand
    for card in PAIR:
        await pilot.press("home", *["right"] * hand.cards.index(card), "space")
    await pilot.press("up", "up", "up")  # the 9♣ is wild: up the column to Cleo's 5·4
    await settle(pilot, lambda: drawn(table))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_property_table_in_play(snap_compare, tmp_path, size):
    app = CardtableApp(store=SaveStore(tmp_path / "data"),
                       settings=Settings(theme="textual-dark", bot_delay=0), match=game_in_progress())
    assert snap_compare(app, terminal_size=size, run_before=select_pair)
