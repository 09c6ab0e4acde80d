"""No key press is ever silently ignored: a key that does nothing now says why, in the rules'
words where there is a command to ask about (each game's table answers ``why_not``)."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from rules.core import Match, Seat

from pilot_helpers import record_notes, settle
from tests.app.test_hints import at_table, portfolio_at_a_draw


async def human_to_play(pilot, match) -> TableScreen:
    await settle(pilot, lambda: 0 in match.awaiting)
    for _ in range(3):  # a game's own dialog (Portfolio's draw) may open first
        await pilot.pause()
        if isinstance(pilot.app.screen, TableScreen):
            break
        await pilot.press("escape")
    return pilot.app.screen


def ann_against_a_bot(tmp_path, game: str) -> tuple[CardtableApp, Match]:
    match = Match(rules.find_game(game), [Seat("Ann"), Seat("Bob", "bot")], seed=4)
    store = SaveStore(tmp_path / "data")
    return CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match)), match


@pytest.mark.parametrize("game, key, words", [
    ("property", "enter", "Select one red card (the column) and one black card (the row) first."),
    ("property", "b", "There is no purchase to decide now: one is offered after you pay rent."),
    ("capital-auction", "b", "Tick the Capital cards to bid with first (space, or a click)."),
    ("capital-auction", "t", "Tools are played in the Tool phase, after the auction."),
])
async def test_a_key_that_does_nothing_says_why(tmp_path, game, key, words):
    app, match = ann_against_a_bot(tmp_path, game)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await human_to_play(pilot, match)
        notes = record_notes(table)
        moves = len(match.history)
        await pilot.press(key)
        await pilot.pause()
        assert notes == [words] and len(match.history) == moves


async def test_behind_the_curtain_every_key_says_what_the_curtain_waits_for(tmp_path):
    from cardtable.screens.handoff import HandoffScreen

    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob")], seed=4)
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        curtain = app.screen
        notes = record_notes(curtain)
        first = match.names[min(match.awaiting)]
        for key in ("x", "ctrl+z", "f1"):
            await pilot.press(key)
        await pilot.pause()
        assert notes == [f"Press Enter when only {first} is looking: the table's keys work after that."] * 3
        assert app.screen is curtain and match.history == []


@pytest.mark.parametrize("game", sorted(rules.GAMES))
async def test_a_named_key_bound_to_nothing_says_so(tmp_path, game):
    # Home, End, PgUp and the arrows were silent where nothing on the table takes them
    app, match = ann_against_a_bot(tmp_path, game)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await human_to_play(pilot, match)
        notes = record_notes(table)
        moves = len(match.history)
        for key in ("insert", "f7"):
            await pilot.press(key)
            await pilot.pause()
        assert [note.split(" does nothing here")[0] for note in notes] == ["insert", "f7"]
        assert all(note.endswith("F1 lists the keys of this table.") for note in notes)
        assert len(match.history) == moves


async def test_a_letter_a_dialog_has_no_use_for_says_so_and_its_own_keys_work(tmp_path):
    match = portfolio_at_a_draw()
    async with at_table(tmp_path, match, False) as (app, pilot, table):
        await settle(pilot, lambda: type(app.screen).__name__ == "DrawDialog")
        dialog = app.screen
        await pilot.press("z")
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "z is not a key of this dialog: its buttons name its keys, and Esc closes it."]
        app.clear_notifications()
        await pilot.press("s")  # the table's sheet key, in the footer under the dialog
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "s is a key of the table under this dialog: Esc closes the dialog first."]
        app.clear_notifications()
        await pilot.press("down", "t")  # its own keys: a list's arrow, a bound letter
        await pilot.pause()
        assert not list(app._notifications) and app.screen is dialog
