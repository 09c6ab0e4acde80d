"""Hints at the table (issue 25): the key, the panel's three lines with chances, playing one,
the setting at the new-game screen and in the store and the record, and the secrets a hint must
not use."""

from __future__ import annotations

import copy
import random
from contextlib import asynccontextmanager

import pytest

import rules
from rules.core import Match, Seat

from cardtable.app import CardtableApp
from cardtable.hints import Round, think
from cardtable.record import GameRecord, PlayerResult, Record
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.hint import HINTS_OFF
from cardtable.screens.setup import SetupScreen
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from cardtable.store import SaveStore
from cardtable.widgets.footer import TableFooter
from cardtable.widgets.hint_panel import HintPanel
from pilot_helpers import bot_played, record_notes, screen_text, settle, table_of, until

ROUNDS = (Round(iterations=24), Round(iterations=48))


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    """Hints on an iteration budget: the same answers on any machine, and quick."""
    monkeypatch.setattr(TableScreen, "HINT_ROUNDS", ROUNDS)


def stock_market(seats=None, seed: int = 1) -> Match:
    """Card Stock Market at its first move: Ann has many commands to choose from."""
    return Match(rules.find_game("stock-market"), seats or [Seat("Ann"), Seat("Bob", "bot")], seed=seed)


def app_on(tmp_path, match: Match, hints: bool) -> tuple[CardtableApp, SaveStore, str]:
    store = SaveStore(tmp_path / "data")
    game_id = store.create(match, hints=hints)
    return CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id), store, game_id


@asynccontextmanager
async def at_table(tmp_path, match: Match, hints: bool, seat: int = 0):
    """The app on ``match`` (hints on or off), once its table waits for ``seat``: (app, pilot, table)."""
    app, _store, _id = app_on(tmp_path, match, hints)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, TableScreen) and seat in match.awaiting)
        yield app, pilot, app.screen


def hint_entry(table) -> tuple:
    return next((binding, enabled) for binding, enabled, _tip in TableFooter._entries(table)
                if binding.action == "hint")


async def open_hint(pilot) -> HintPanel:
    await pilot.press("i")
    await settle(pilot, lambda: isinstance(pilot.app.screen, HintPanel))
    panel = pilot.app.screen
    await until(pilot, lambda: panel.answer is not None and panel.answer.done, step=0.01)
    await pilot.pause()
    return panel


async def test_the_hint_shows_three_moves_with_chances_and_plays_the_one_chosen(tmp_path):
    match = stock_market()
    app, store, game_id = app_on(tmp_path, match, hints=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, TableScreen) and 0 in match.awaiting)
        table = app.screen
        binding, enabled = hint_entry(table)
        assert binding.key == "i" and enabled
        panel = await open_hint(pilot)
        choices = panel.answer.choices
        assert len(choices) == 3
        shown = screen_text(app)
        for number, choice in enumerate(choices, 1):
            words = str(match.spec.notation.display(choice.command, match.names))
            assert f"{number}  {words}   {choice.chance:.0f}% chance of winning   ({choice.text})" in shown
            assert 0 <= choice.chance <= 100 and choice.deals > 0
        assert [c.chance for c in choices] == sorted((c.chance for c in choices), reverse=True)
        assert "Done: " in shown
        moves = len(match.history)
        await pilot.press("2")
        await settle(pilot, lambda: len(match.history) > moves)
        assert app.screen is table
        played = match.history[moves]
        assert played.seat == 0 and played.command == choices[1].command
        assert store.open(game_id).match.history[moves].command == choices[1].command  # saved as any move
        await settle(pilot, lambda: match.can_undo(0))
        await pilot.press("ctrl+z")
        await settle(pilot, lambda: len(match.history) == moves)


async def test_enter_plays_the_highlighted_line_and_escape_plays_nothing(tmp_path):
    match = stock_market()
    async with at_table(tmp_path, match, hints=True) as (app, pilot, table):
        await open_hint(pilot)
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is table)
        assert len(match.history) == 0
        panel = await open_hint(pilot)
        best = panel.answer.choices[0].command
        await pilot.press("enter")
        await settle(pilot, lambda: len(match.history) == 1)
        assert match.history[0].command == best


async def test_down_then_enter_in_one_read_plays_the_second_line(tmp_path):
    # keys typed fast (or over a slow connection) come in one read: Enter was a priority
    # binding and played the first line, ahead of the Down still on its way to the list
    from monkey_helpers import in_one_read

    match = stock_market()
    async with at_table(tmp_path, match, hints=True) as (app, pilot, table):
        panel = await open_hint(pilot)
        second = panel.answer.choices[1].command
        in_one_read(app, ["down", "enter"])
        await settle(pilot, lambda: len(match.history) == 1)
        assert match.history[0].command == second


async def test_enter_while_the_hint_thinks_says_so_and_plays_nothing(tmp_path, monkeypatch):
    match = stock_market()
    monkeypatch.setattr("cardtable.widgets.hint_panel.think", lambda *args: iter(()))  # never answers
    async with at_table(tmp_path, match, hints=True) as (app, pilot, table):
        await pilot.press("i")
        await settle(pilot, lambda: isinstance(app.screen, HintPanel))
        notes = record_notes(app.screen)
        await pilot.press("enter")
        await settle(pilot, lambda: notes)
        assert "still thinking" in str(notes[-1]) and len(match.history) == 0
        assert isinstance(app.screen, HintPanel)


async def test_closing_the_hint_while_it_thinks_cancels_it_and_the_table_stays_live(tmp_path, monkeypatch):
    match = stock_market()
    monkeypatch.setattr(TableScreen, "HINT_ROUNDS", (Round(iterations=8),) * 100_000)  # closed long before its end
    async with at_table(tmp_path, match, hints=True) as (app, pilot, table):
        await pilot.press("i")
        await settle(pilot, lambda: isinstance(app.screen, HintPanel))
        panel = app.screen
        await until(pilot, lambda: panel.answer is not None, step=0.01)  # its best so far, at once
        assert not panel.answer.done
        workers = [w for w in panel.workers if w.group == "hint"]
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is table)
        assert workers and all(w.is_cancelled for w in workers)
        await until(pilot, lambda: all(w.is_finished for w in workers), step=0.01)
        assert len(match.history) == 0


async def test_with_hints_off_the_key_is_greyed_and_says_why(tmp_path):
    match = stock_market()
    async with at_table(tmp_path, match, hints=False) as (app, pilot, table):
        _binding, enabled = hint_entry(table)
        assert not enabled
        notes = record_notes(table)
        await pilot.press("i")
        await pilot.pause()
        assert notes == [HINTS_OFF]
        assert app.screen is table


async def test_behind_the_curtain_no_hint_shows(tmp_path):
    match = stock_market([Seat("Ann"), Seat("Bob")])
    app, _store, _id = app_on(tmp_path, match, hints=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)  # the curtain: no hint for anyone behind it
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        assert table.viewer == 0
        await pilot.press("e")  # Ann ends her turn: the curtain for Bob
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        assert table.viewer is None
        _binding, enabled = hint_entry(table)
        assert not enabled  # nobody's hand on the table: nobody to hint
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)


async def test_a_hint_waits_for_the_seats_own_move(tmp_path):
    match = stock_market([Seat("Ann"), Seat("Bob", "bot")])
    app, _store, _id = app_on(tmp_path, match, hints=True)
    app.settings.bot_delay = 5.0  # Bob thinks long: Ann's table waits for him
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        await pilot.press("e")
        await settle(pilot, lambda: match.awaiting == {1})
        _binding, enabled = hint_entry(table)
        assert not enabled
        notes = record_notes(table)
        await pilot.press("i")
        await pilot.pause()
        assert app.screen is table and notes == ["A hint is for the player to act: the game is waiting for Bob."]


def sampled_twin(match: Match, seat: int, seed: int) -> Match:
    """A match of the same game whose hidden cards are dealt afresh (by the game's ``sample``
    from ``seat``'s view): the seat sees exactly what it saw, the others hold other cards."""
    twin = copy.deepcopy(match)
    twin.state = match.spec.sample(match.view(seat), random.Random(seed))
    return twin


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_a_hint_is_the_same_whatever_the_cards_the_seat_cannot_see(game):
    spec = rules.find_game(game)
    match = bot_played(game, [Seat("Ann"), Seat("Bob", "bot")], 5, lambda m: len(m.history) >= 6 and 0 in m.awaiting
                       and len(m.legal(0)) > 1)
    twins = [match] + [sampled_twin(match, 0, n) for n in range(3)]
    assert len({repr(spec.to_json(t.state)) for t in twins}) > 1  # the hidden cards do differ
    rounds = (Round(iterations=10), Round(iterations=10))
    answers = [[(a.round, a.choices) for a in think(spec, t.view(0), t.legal(0), t.format, "s", rounds)]
               for t in twins]
    assert all(answer == answers[0] for answer in answers[1:])
    assert answers[0][-1][1]  # and it did answer


async def test_the_table_hints_from_the_seats_view_alone(tmp_path):
    """The same position with other hidden cards: the panel's lines are the same."""
    match = bot_played("property", [Seat("Ann"), Seat("Bob", "bot")], 5,
                       lambda m: len(m.history) >= 8 and m.awaiting == {0} and len(m.legal(0)) > 3)
    shown = []
    for n, twin in enumerate([match, sampled_twin(match, 0, 1)]):
        assert twin.state.hands[1] != match.state.hands[1] or n == 0
        app, _store, _id = app_on(tmp_path / str(n), twin, hints=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            panel = await open_hint(pilot)
            shown.append(panel.answer.choices)
    assert shown[0] == shown[1]


# -- the setting ------------------------------------------------------------------------------
async def test_the_new_game_screen_sets_hints_by_the_number_of_people(tmp_path):
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=5.0))
    async with app.run_test(size=(100, 40)) as pilot:
        app.push_screen(SetupScreen("property"))
        await settle(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.query("#setup-hints"))
        setup = app.screen
        tick = setup.query_one("#setup-hints")
        await settle(pilot, lambda: len(setup.query(".seat-kind")) == 2)
        assert tick.value  # Ann and a bot: one person, hints on
        setup.query(".seat-kind")[1].value = "human"
        await settle(pilot, lambda: not tick.value)  # Ann and Bob: off
        setup.query(".seat-kind")[1].value = "bot"
        await settle(pilot, lambda: tick.value)
        tick.value = False  # the player's own choice stands
        await pilot.pause()
        setup.query(".seat-kind")[1].value = "random"
        await pilot.pause()
        assert not tick.value
        tick.value = True
        await pilot.pause()
        setup.action_start()
        await settle(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        await pilot.pause()
        table = app.screen
        assert table.hints and store.hints(table.game_id)
        assert "with hints" in store.list()[0].status


def test_the_store_keeps_hints_and_older_games_have_them_off(tmp_path):
    store = SaveStore(tmp_path / "data")
    on = store.create(stock_market(), hints=True)
    off = store.create(stock_market())
    assert store.hints(on) and not store.hints(off)
    listed = {info.id: info for info in store.list()}
    assert listed[on].hints and listed[on].status == "Ann to play · with hints"  # stock_market(): Ann first
    assert not listed[off].hints and listed[off].status == "Ann to play"
    store.close()
    again = SaveStore(tmp_path / "data")
    assert again.hints(on) and not again.hints(off) and not again.hints("no-such-game")


def test_the_record_marks_a_game_played_with_hints(tmp_path):
    from datetime import datetime, timezone

    record = Record(tmp_path)
    players = (PlayerResult("Ann", None, 1, 10), PlayerResult("Bob", "bot", 2, 5))
    record.add(GameRecord("property", datetime.now(timezone.utc), players, save_id="a", hints=True))
    record.add(GameRecord("property", datetime.now(timezone.utc), players, save_id="b"))
    assert record.count() == 2 and record.count(hints=True) == 1


def test_snapshot_of_the_hint_panel(snap_compare, tmp_path):
    """The panel at 80×24, its thinking done (an iteration budget: the same lines on any machine)."""
    match = stock_market()
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(theme="textual-dark", bot_delay=0), match=match,
                       game_id=store.create(match, hints=True))

    async def hint(pilot) -> None:
        # the table's footer built before the panel covers it (a covered table waits to draw)
        await settle(pilot, lambda: isinstance(app.screen, TableScreen) and 0 in match.awaiting
                     and bool(app.screen.query_one(TableFooter).query("FooterKey")))
        await open_hint(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=hint)


async def test_a_hint_open_when_the_game_moves_on_elsewhere_closes(tmp_path):
    """Ann's move made at another screen while her hint is open: the hint was for a position
    that is gone, so it closes (and nothing is played twice)."""
    match = stock_market()
    async with at_table(tmp_path, match, hints=True) as (app, pilot, table):
        await open_hint(pilot)
        other = SaveStore(tmp_path / "data")
        elsewhere = other.open(table.game_id).match
        other.play(table.game_id, elsewhere, 0, elsewhere.legal(0)[0])
        table.catch_up()
        await settle(pilot, lambda: app.screen is table)
        assert not any(isinstance(screen, HintPanel) for screen in app.screen_stack)
        assert len(match.history) == 1
        other.close()


def portfolio_at_a_draw() -> Match:
    return bot_played("portfolio", [Seat("Ann"), Seat("Bob", "bot")], 2,
                      lambda m: len(m.history) >= 4 and m.awaiting == {0} and m.view(0).phase == "draw")


async def test_i_in_a_dialog_over_the_table_opens_the_hint_over_it_and_its_move_closes_it(tmp_path):
    """The draw dialog covers the table, whose footer still shows i: the key does what it says,
    and the dialog is kept until a move of the hint's is played in its place."""
    match = portfolio_at_a_draw()
    moves = len(match.history)
    async with at_table(tmp_path, match, True) as (app, pilot, table):
        await settle(pilot, lambda: type(app.screen).__name__ == "DrawDialog")  # the turn's start opens it
        dialog = app.screen
        await pilot.press("i")
        await settle(pilot, lambda: isinstance(app.screen, HintPanel))
        assert app.screen_stack[-3:-1] == [table, dialog]
        await pilot.press("i")  # the hint open: no second one over it
        await pilot.pause()
        assert isinstance(app.screen, HintPanel) and app.screen_stack[-2] is dialog
        await pilot.press("escape")  # back to the dialog as it was, nothing played
        await settle(pilot, lambda: app.screen is dialog)
        assert len(match.history) == moves
        panel = await open_hint(pilot)
        await pilot.press("1")
        await settle(pilot, lambda: len(match.history) == moves + 1 and app.screen is table)
        assert match.history[-1].command == panel.answer.choices[0].command
        assert dialog not in app.screen_stack


async def test_i_in_a_dialog_with_hints_off_says_why_and_keeps_the_dialog(tmp_path):
    match = portfolio_at_a_draw()
    moves = len(match.history)
    async with at_table(tmp_path, match, False) as (app, pilot, table):
        await settle(pilot, lambda: type(app.screen).__name__ == "DrawDialog")
        dialog = app.screen
        await pilot.press("i")
        await pilot.pause()
        assert app.screen is dialog and len(match.history) == moves
        assert [n.message for n in app._notifications] == [HINTS_OFF]


async def test_i_typed_into_a_dialogs_field_is_a_letter_not_the_hint(tmp_path):
    match = portfolio_at_a_draw()
    async with at_table(tmp_path, match, True) as (app, pilot, table):
        await settle(pilot, lambda: type(app.screen).__name__ == "DrawDialog")
        await pilot.press("enter")  # the draw: then the deal dialog can be opened
        await settle(pilot, lambda: app.screen is table and match.view(0).phase != "draw")
        table.action_offer()
        await settle(pilot, lambda: type(app.screen).__name__ == "DealDialog" and app.screen.query("#deal-take-cards"))
        field = app.screen.query_one("#deal-take-cards")
        field.focus()
        await pilot.press("i")
        await pilot.pause()
        assert type(app.screen).__name__ == "DealDialog" and field.value == "i"

