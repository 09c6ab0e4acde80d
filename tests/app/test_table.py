"""The generic game table, driven through Pilot with a real registered game: the command bar,
refusals, undo, autosave, bots, and the hand-off curtain that must hide everything private."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Footer

import rules
from rules.core import Card, Match, Seat, chance, get_bot

from cardtable.app import CardtableApp
from cardtable.store import SaveError, SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.table import TableScreen
from cardtable.games import table_screen_for
from cardtable.settings import Settings
from cardtable.widgets import CardWidget, CommandBar, GameLog, HandWidget, card_text
from cardtable.widgets.command_bar import LONGEST, completion
from cardtable.widgets.game_log import EVENT_INDENT
from game_helpers import in_symbols, play_random
from tiny_game import pile  # noqa: F401  (a fixture)
from pilot_helpers import record_notes, screen_text as screenshot, settle, TableApp

# the generic table is tried on a game with hands, several player counts and undoable moves
GAME = "portfolio"
SPEC = rules.find_game(GAME)
SMALL, LARGE = (80, 24), (120, 40)


class WatchingTable(TableScreen):
    """Records the selections the hand reports, as a game's table would react to them."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.picked: list[tuple[Card, ...]] = []

    def on_hand_widget_selection_changed(self, message: HandWidget.SelectionChanged) -> None:
        self.picked.append(message.selected)


def make_table(tmp_path, seats, seed=1, commands=(), table_class=TableScreen):
    match = Match(SPEC, seats, seed=seed)
    for seat, text in commands:
        match.submit(seat, text)
    store = SaveStore(tmp_path / "data")
    game_id = store.create(match)
    table = table_class(match, game_id, store, Settings(bot_delay=0))
    notes = record_notes(table, severity=True)
    return TableApp(table), table, match, store, game_id, notes


def saved_commands(store, game_id):
    """The moves the store holds, read through a connection of its own."""
    return SaveStore(store.root).export(game_id)["commands"]


def hand_texts(cards):
    return [card_text(card).plain for card in cards]


def private_lines(match, seat):
    """The log lines only ``seat`` may read: events the public does not see, or sees in other
    words (a draw's cards)."""
    names = match.names
    return [EVENT_INDENT + event.describe(names, seat) for played in match.history
            for event in played.events
            if event.visible_to(seat) and (not event.visible_to(None)
                                           or event.describe(names, seat) != event.describe(names, None))]


def undoable(match):
    """A legal command for seat 0 that Match will let it take back: it reveals nothing and
    leaves seat 0 to act."""
    for command in match.legal(0)[:60]:
        state = copy.deepcopy(match.state)
        events = SPEC.apply(state, 0, command)
        if not any(event.reveals for event in events) and SPEC.awaiting(state) == {0}:
            return match.format(command)
    return None


def undoable_position(seats):
    """(seed, commands before, an undoable command) with seat 0 to act, found by bot play."""
    for seed in range(8):
        match = Match(SPEC, seats, seed=seed)
        for ply in range(80):
            if match.over:
                break
            if match.awaiting == {0} and (text := undoable(match)) is not None:
                return seed, [[played.seat, played.text] for played in match.history], text
            play_random(match)
    pytest.fail(f"{GAME}: no undoable command in 8 bot games")


async def open_bar_and_type(pilot, text):
    await pilot.press("colon")
    bar = pilot.app.screen.query_one(CommandBar)
    assert bar.is_open and bar.input.has_focus
    bar.input.value = text
    await pilot.press("enter")
    await pilot.pause()
    return bar


# -- the command bar ------------------------------------------------------------------------

async def test_command_bar_plays_a_legal_command_logs_and_saves_it(tmp_path):
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL) as pilot:
        assert match.awaiting == {0} and table.viewer == 0
        text = match.format(match.legal(0)[0])
        before = SPEC.to_json(match.state)
        bar = await open_bar_and_type(pilot, text)
        assert match.history[0].text == text and match.history[0].seat == 0
        assert SPEC.to_json(match.state) != before
        assert not bar.is_open and bar.input.value == ""
        log = table.query_one(GameLog)
        assert f"Ann: {in_symbols(text)}" in log.plain
        assert saved_commands(store, game_id)[0] == [0, text]
        assert not [note for note in notes if note[1] == "error"]


async def test_letters_typed_before_the_opened_bar_takes_the_focus_go_into_it(tmp_path):
    # a fast typist's first letters after ':' reached the table ("p is not a key of this table")
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table.command_bar.open(table.legal_texts())
        table.hand.focus()  # as if the bar had not taken the focus yet
        await pilot.press("p", "l")
        assert table.command_bar.input.value == "pl" and table.command_bar.input.has_focus
        assert not [note for note in notes if "not a key" in str(note)]


async def test_an_illegal_command_is_refused_and_changes_nothing(tmp_path):
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        before = SPEC.to_json(match.state)
        bar = await open_bar_and_type(pilot, "juggle the deck")
        assert SPEC.to_json(match.state) == before and match.history == []
        assert saved_commands(store, game_id) == []
        assert [severity for _, severity in notes] == ["error"]
        # the refusal is on screen, and the text stays on the bar to be fixed
        await pilot.pause()
        assert "Not allowed" in screenshot(app)
        assert bar.is_open and bar.input.value == "juggle the deck"
        assert table.query_one(GameLog).plain == []
        await pilot.press("escape")
        assert not bar.is_open



async def test_a_line_too_long_for_the_bar_is_not_typed_and_says_so(tmp_path):
    # a paste gone wrong: a refusal quotes what was typed, so a line of thousands of characters
    # would come back as a notification filling the screen
    app, table, match, *_ = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("colon", "d", "r")
        bar = table.query_one(CommandBar)
        bar.input.post_message(events.Paste("x" * 5_000))
        await pilot.pause()
        assert bar.input.value == "dr"  # the bar keeps what it had
        assert "Too long" in screenshot(app)
        await pilot.press(*"aw 1")
        assert bar.input.value == "draw 1"
        bar.input.value = "w" * (LONGEST - 1)
        bar.input.cursor_position = LONGEST - 1
        await pilot.press("a", "b")
        assert bar.input.value == "w" * (LONGEST - 1) + "a"
        assert match.history == []

async def test_the_command_bar_completes_from_the_legal_commands(tmp_path):
    from monkey_helpers import in_one_read

    app, table, match, *_ = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL) as pilot:
        legal = [match.format(command) for command in match.legal(0)]
        await pilot.press("colon")
        bar = table.query_one(CommandBar)
        await pilot.press(*legal[0][:2])
        await pilot.pause()
        await pilot.press("right")  # accepts the suggestion
        assert bar.input.value in legal and bar.input.value.startswith(legal[0][:2])
        assert f"{len(legal)} legal command" in str(bar.query_one("#command-hint").render())
        # letters and Tab in one read (typed fast, or over a slow link) complete what was typed:
        # a priority Tab completed at once, ahead of the letters on their way ("draw 1dr")
        bar.input.value = ""
        in_one_read(app, [*legal[0][:2], "tab"])
        await settle(pilot, lambda: bar.input.value != "")
        await pilot.pause()
        assert bar.input.value == completion(legal[0][:2], legal)[0] and bar.input.has_focus


@pytest.mark.parametrize("pasted", [False, True], ids=["typed", "pasted"])
async def test_colon_and_a_command_in_one_read_go_into_the_bar(tmp_path, pasted):
    # ':' and the command typed after it in one read: the letters passed the table before the
    # ':' had come back up to the binding that opens the bar, so d drew and r was "no key";
    # pasted after it (a command copied from the rules page), the paste went to what had the
    # focus as it came, the table the ':' was still leaving, and was lost
    from monkey_helpers import at_the_table, in_one_read, quiet

    match = Match(SPEC, [Seat("Ann"), Seat("Bob", "random")], seed=1)
    async with at_the_table(tmp_path, match, SMALL) as (app, pilot, table):
        if app.screen is not table:  # Portfolio's draw asks in a dialog: the bar is under it
            await pilot.press("escape")
            await settle(pilot, lambda: quiet(app) and app.screen is table)
        notes = record_notes(table)
        in_one_read(app, ["colon"] if pasted else ["colon", *"draw 1"])
        if pasted:
            app.post_message(events.Paste("draw 1"))
        await settle(pilot, lambda: quiet(app) and table.command_bar.input.value == "draw 1")
        assert app.screen is table and table.command_bar.input.has_focus and notes == []
        await pilot.press("enter")
        await settle(pilot, lambda: match.history)
        assert match.history[0].text == "draw 1"


# -- undo -----------------------------------------------------------------------------------

def footer_undo_disabled(app) -> bool:
    keys = [key for key in app.screen.query_one(Footer).query("FooterKey") if key.action == "undo"]
    assert len(keys) == 1
    return keys[0].has_class("-disabled")


async def test_undo_is_greyed_out_until_allowed_and_then_takes_the_command_back(tmp_path):
    seats = [Seat("Ann"), Seat("Bob", "random")]
    seed, before, text = undoable_position(seats)
    app, table, match, store, game_id, _ = make_table(tmp_path, seats, seed, before)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        position = SPEC.to_json(match.state)
        log = table.query_one(GameLog)
        lines = list(log.plain)
        assert table.check_action("undo", ()) is None and footer_undo_disabled(app)
        await pilot.press("ctrl+z")  # greyed out: nothing happens
        assert SPEC.to_json(match.state) == position

        await open_bar_and_type(pilot, text)
        assert match.can_undo(0) and match.history[-1].text == text
        assert table.check_action("undo", ()) is True and not footer_undo_disabled(app)
        assert f"Ann: {in_symbols(text)}" in log.plain

        await pilot.press("ctrl+z")
        await pilot.pause()
        assert SPEC.to_json(match.state) == position
        assert log.plain == lines
        assert saved_commands(store, game_id) == before
        assert table.check_action("undo", ()) is None and footer_undo_disabled(app)


# -- bots -----------------------------------------------------------------------------------

async def test_bots_play_by_themselves_until_a_human_is_awaited(tmp_path):
    app, table, match, store, game_id, notes = make_table(
        tmp_path, [Seat("Robo", "random"), Seat("Ann"), Seat("Cyborg", "random")][: SPEC.players[1]])
    assert match.awaiting == {0}
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: match.awaiting == {1} or match.over)
        await pilot.pause()
        assert match.history and all(match.seats[p.seat].bot for p in match.history)
        assert table.viewer == 1 and not isinstance(app.screen, HandoffScreen)
        log = table.query_one(GameLog).plain
        for played in match.history:
            assert f"{match.names[played.seat]}: {in_symbols(played.text)}" in log
        assert saved_commands(store, game_id) == [[p.seat, p.text] for p in match.history]
        # the bots' secrets stay theirs
        for seat in (0, 2):
            for line in private_lines(match, seat):
                assert line not in log
        assert not notes


# -- the hand-off curtain -------------------------------------------------------------------

async def test_the_curtain_hides_every_private_thing_between_two_humans(tmp_path):
    app, table, match, *_ = make_table(tmp_path, [Seat("Ann"), Seat("Bob")])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        # a game that awaits a human of several starts behind the curtain
        assert isinstance(app.screen, HandoffScreen) and table.viewer is None
        assert table.query_one(HandWidget).cards == ()
        shot = screenshot(app)
        assert "Pass to Ann" in shot
        for seat in (0, 1):
            assert not [t for t in hand_texts(match.view(seat).hand) if t in shot]

        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is table and table.viewer == 0
        ann = tuple(sorted(match.view(0).hand, key=Card.sort_key))
        assert table.query_one(HandWidget).cards == ann
        shot = screenshot(app)
        assert hand_texts(ann)[0] in shot

        # Ann plays (her first legal command, then as a bot would) until Bob is awaited
        bot = get_bot(SPEC, "random")
        assert table.submit(match.legal(0)[0])
        for step in range(40):
            if match.awaiting != {0}:
                break
            assert table.submit(bot.choose(match.view(0), match.legal(0), chance(7, step)))
        await pilot.pause()
        assert match.awaiting == {1}
        secrets = private_lines(match, 0)
        assert secrets, f"{GAME}: Ann's moves should have shown her something private"

        assert isinstance(app.screen, HandoffScreen) and table.viewer is None
        hand, log = table.query_one(HandWidget), table.query_one(GameLog)
        assert hand.cards == () and not hand.query(CardWidget)
        assert not [line for line in secrets if line in log.plain]
        rendered = "\n".join(strip.text for strip in log.strips())
        assert not [line for line in secrets if line.strip() in rendered]
        assert f"Ann: {in_symbols(match.history[0].text)}" in log.plain  # public lines stay
        shot = screenshot(app)
        assert "Pass to Bob — press Enter when only Bob is looking" in shot
        assert "q and Esc do nothing here" in shot  # and the curtain says why
        await pilot.press("q", "escape")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen) and table.viewer is None
        for seat in (0, 1):
            assert not [t for t in hand_texts(match.view(seat).hand) if t in shot]

        await pilot.press("enter")
        await pilot.pause()
        assert table.viewer == 1
        bob = tuple(sorted(match.view(1).hand, key=Card.sort_key))
        assert hand.cards == bob
        assert not [line for line in secrets if line in log.plain]
        assert hand_texts(bob)[0] in screenshot(app)


# -- the hand -------------------------------------------------------------------------------

async def test_the_hand_fits_at_80_columns_and_selects_by_click_and_keys(tmp_path):
    app, table, match, *_ = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")],
                                       table_class=WatchingTable)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        hand = table.query_one(HandWidget)
        widgets = list(hand.query(CardWidget))
        assert len(widgets) == len(match.view(0).hand) >= 13
        assert [w.card for w in widgets] == sorted(match.view(0).hand, key=Card.sort_key)
        region = hand.content_region
        for widget in widgets:
            assert region.contains_region(widget.region), f"{widget.card} is cut off"
        assert len({w.region.y for w in widgets}) <= 2

        await pilot.click(widgets[2])
        assert hand.selected == (widgets[2].card,) and widgets[2].has_class("-selected")
        assert hand.has_focus
        await pilot.press("home", "right", "space")
        assert hand.selected == (widgets[1].card, widgets[2].card)
        await pilot.click(widgets[2])
        assert hand.selected == (widgets[1].card,)
        hand.clear_selection()
        await pilot.pause()
        assert hand.selected == () and not widgets[1].has_class("-selected")
        one, two = widgets[1].card, widgets[2].card
        assert table.picked == [(two,), (one, two), (one,), ()]

        hand.marks = {widgets[0].card.key: "can extend P1"}
        await pilot.pause()
        assert widgets[0].has_class("-marked") and str(widgets[0].tooltip) == "can extend P1"


def test_card_text_shows_rank_symbol_and_letter():
    assert card_text(Card.parse("10H")).plain == "10♥"
    assert card_text(Card.parse("QS")).plain == "Q♠"
    assert card_text(Card.parse("JK")).plain == "JK"
    red, black = card_text(Card.parse("5D")), card_text(Card.parse("5C"))
    assert red.style != black.style
    assert card_text(Card.parse("5D"), four_colour=True).style != red.style


# -- layout, leaving, tables ----------------------------------------------------------------

@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_everything_essential_is_on_screen(tmp_path, size):
    app, table, match, *_ = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random"), Seat("Cy", "random")])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        width, height = size
        for selector in ("#status", "#board", "#hand", "#scoreboard", "#log", "Footer"):
            region = table.query_one(selector).region
            assert region.width > 0 and region.height > 0, selector
            assert region.right <= width and region.bottom <= height, selector
        shot = screenshot(app)
        for name in ("Ann", "Bob", "Cy"):
            assert name in shot
        assert "▶ Ann" in shot
        assert table.has_class("-wide") == (width >= 110)


async def test_q_leaves_and_escape_asks_first(tmp_path):
    app, table, match, store, game_id, _ = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is table
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is not table and not table.is_attached
    assert store.load(game_id).to_json()["commands"] == []


async def test_a_failed_autosave_keeps_the_game_going(tmp_path):
    class BrokenStore:
        def play(self, game_id, match, seat, command):
            match.submit(seat, command)  # played here, as the store does when it cannot write
            raise SaveError("disk full")

        def sync(self, game_id, match):
            return 0

    match = Match(SPEC, [Seat("Ann"), Seat("Bob", "random")], seed=1)
    table = TableScreen(match, "g1", BrokenStore(), Settings(bot_delay=0))
    app = TableApp(table)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert table.submit(match.legal(0)[0])
        await pilot.pause()
        assert len(match.history) >= 1
        assert "Not saved" in screenshot(app)


def test_each_game_gets_its_own_table_or_the_generic_one():
    assert table_screen_for("no-such-game") is TableScreen
    for name in rules.GAMES:
        assert issubclass(table_screen_for(name), TableScreen)


# -- several humans awaited at once ---------------------------------------------------------

async def test_humans_awaited_at_once_are_called_one_by_one_and_keep_their_secrets(tmp_path, pile):
    match = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    match.submit(0, "take 2")  # the pile is at 3: both guess at once, in secret
    assert match.awaiting == {0, 1}
    store = SaveStore(tmp_path / "data")
    table = TableScreen(match, store.create(match), store, Settings(bot_delay=0))
    app = TableApp(table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen) and "Pass to Ann" in screenshot(app)
        await pilot.press("enter")
        await pilot.pause()
        assert table.viewer == 0 and "7♠" in screenshot(app)
        await open_bar_and_type(pilot, "guess 2")
        await pilot.pause()
        # Ann's guess is in; Bob is still awaited: the curtain calls him, and hides Ann's hand
        assert match.awaiting == {1} and isinstance(app.screen, HandoffScreen)
        shot = screenshot(app)
        assert "Pass to Bob" in shot and "7♠" not in shot and "guess 2" not in shot
        await pilot.press("enter")
        await pilot.pause()
        assert table.viewer == 1
        log = table.query_one(GameLog).plain
        assert "Ann: (in secret)" in log and "  Ann has guessed" in log  # that she did, not what
        assert not [line for line in log if "guess 2" in line or "guessed 2" in line]
        shot = screenshot(app)
        assert "8♠" in shot and "7♠" not in shot and "guess 2" not in shot
        await open_bar_and_type(pilot, "guess 1")
        await pilot.pause()
        assert "  Bob guessed 1" in table.query_one(GameLog).plain
        assert match.awaiting == {1} and table.viewer == 1  # Bob takes next: no hand-off


def test_the_guard_catches_the_app_reading_a_state(tmp_path):
    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=1)
    with pytest.raises(AssertionError, match="read a game's state"):
        exec("match.state", {"__name__": "cardtable.screens.table", "match": match})
    assert match.state is not None  # the tests themselves may


async def test_any_error_from_a_command_is_shown_and_the_table_goes_on(tmp_path, monkeypatch):
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Ann"), Seat("Bob", "random")])

    def broken(text, view):
        raise ZeroDivisionError("a bug deep in a game")

    async with app.run_test(size=SMALL, notifications=True) as pilot:
        before = SPEC.to_json(match.state)
        with monkeypatch.context() as patch:
            patch.setattr(SPEC.notation, "parse", broken)
            bar = await open_bar_and_type(pilot, "anything at all")
        assert SPEC.to_json(match.state) == before and match.history == []
        assert notes and notes[-1][1] == "error" and "Nothing changed" in notes[-1][0]
        assert bar.is_open and app.is_running
        await pilot.press("escape")
        await open_bar_and_type(pilot, match.format(match.legal(0)[0]))
        assert len(match.history) >= 1  # the game goes on


async def test_every_key_the_readme_names_at_the_table_does_what_it_says(tmp_path):
    from textual.command import CommandPalette

    from cardtable.screens.rules import RulesScreen

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for key in ("`←` `→` (or `h` `l`), `space`", "`:`", "`tab`", "`ctrl+z`", "`?`", "`F1`",
                "`ctrl+p`", "`q`", "`escape`"):
        assert key in readme, f"the README no longer names {key}"
    seats = [Seat("Ann"), Seat("Bob", "random")]
    seed, before, text = undoable_position(seats)
    _app, _table, match, store, game_id, _ = make_table(tmp_path, seats, seed, before)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if not isinstance(app.screen, TableScreen):  # a game's own dialog (a draw) opened first
            await pilot.press("escape")
            await pilot.pause()
        table = app.screen
        hand = table.hand
        assert hand.has_focus and hand.cursor == 0
        await pilot.press("right", "l")
        assert hand.cursor == 2
        await pilot.press("left", "h", "space")
        assert hand.cursor == 0 and hand.selected == (hand.cards[0],)
        await pilot.press("space")
        assert hand.selected == ()
        # : opens the bar; tab completes as far as the legal commands agree, never leaving it
        await pilot.press("colon")
        bar = table.command_bar
        assert bar.is_open and bar.input.has_focus
        await pilot.press(*text[:1], "tab")
        assert bar.input.has_focus and len(bar.input.value) >= 1
        bar.input.value = text
        await pilot.press("enter")
        await pilot.pause()
        assert match.history[-1].text == text and not bar.is_open
        # ctrl+z takes it back
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [[p.seat, p.text] for p in match.history] == before
        # ? the rules (with the keys beside them), F1 the keys page
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.keys
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.start == "keys"
        assert any(description == "Undo" for _key, description, _note in app.screen.keys)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await pilot.pause()
        # escape asks before leaving; q leaves
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is table
        await pilot.press("q")
        await pilot.pause()
        assert not table.is_attached


def open_table(pile, monkeypatch):
    """Ann and Bob at a Pile whose views hide nothing (a game without hands: everything is on
    the table), so only a secret to enter can call for the curtain."""
    from rules.core import View

    def open_view(state, seat):
        return View(seat, tuple(state.names), pile.awaiting(state), f"pile {state.pile}")

    monkeypatch.setattr(pile, "view", open_view)
    match = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    table = TableScreen(match, None, None, Settings(bot_delay=0))
    return TableApp(table), table, match


async def curtain(pilot) -> None:
    """Wait for the hand-off curtain and for it to be drawn."""
    await settle(pilot, lambda: isinstance(pilot.app.screen, HandoffScreen))
    await pilot.pause()


async def past_the_curtain(pilot, table, seat: int) -> None:
    """Wait for the curtain, lift it, and wait for ``seat``'s screen."""
    await curtain(pilot)
    await pilot.press("enter")
    await settle(pilot, lambda: table.viewer == seat)


async def test_between_two_humans_the_curtain_comes_first_even_with_nothing_private(tmp_path, pile, monkeypatch):
    app, table, match = open_table(pile, monkeypatch)
    async with app.run_test(size=SMALL) as pilot:
        await curtain(pilot)
        assert "Pass to Ann" in screenshot(app) and table.viewer is None
        await pilot.press("enter")
        await settle(pilot, lambda: table.viewer == 0)
        await open_bar_and_type(pilot, "take 1")
        # nothing on the table is Bob's alone, but the one who answers must know it is their
        # turn and Ann must not act for him: the curtain calls Bob
        await curtain(pilot)
        assert "Pass to Bob" in screenshot(app) and table.viewer is None


async def test_several_humans_awaited_at_once_are_called_one_by_one(tmp_path, pile, monkeypatch):
    app, table, match = open_table(pile, monkeypatch)
    async with app.run_test(size=SMALL) as pilot:
        await past_the_curtain(pilot, table, 0)
        # Ann takes 2: the pile is at 3 and both guess in secret, Ann first; she has had the
        # screen to herself since the curtain, so she guesses at once, then the curtain calls Bob
        await open_bar_and_type(pilot, "take 2")
        await pilot.pause()
        assert match.awaiting == {0, 1} and table.viewer == 0 and not isinstance(app.screen, HandoffScreen)
        await open_bar_and_type(pilot, "guess 2")
        await curtain(pilot)
        assert "Pass to Bob" in screenshot(app)


async def test_a_key_that_does_nothing_says_why(tmp_path, pile, monkeypatch):
    app, table, match = open_table(pile, monkeypatch)
    async with app.run_test(size=SMALL) as pilot:
        await past_the_curtain(pilot, table, 0)
        notes = record_notes(table)
        await pilot.press("ctrl+z")  # nothing played yet
        await pilot.press("z")  # no key of this table
        await pilot.pause()
        assert notes[0].startswith("Nothing to take back")
        assert notes[1] == "z is not a key of this table: F1 lists them all."
        assert match.history == []


async def test_undo_takes_back_only_the_pressers_own_moves(tmp_path, pile, monkeypatch):
    app, table, match = open_table(pile, monkeypatch)
    async with app.run_test(size=SMALL) as pilot:
        await past_the_curtain(pilot, table, 0)
        await open_bar_and_type(pilot, "take 1")
        await curtain(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: table.viewer == 1)
        # Ann's move could still be taken back by Ann, but ctrl+z is Bob's now: it says why not
        assert match.can_undo(0) and table.check_action("undo", ()) is None
        notes = record_notes(table)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert len(match.history) == 1 and table.viewer == 1
        assert notes and notes[-1].startswith("Nothing to take back")


# -- the expert thinks in a worker thread -----------------------------------------------------

class HeldExpert:
    """An expert that thinks until the test lets it answer (the first legal command)."""

    def __init__(self) -> None:
        import threading

        self.go = threading.Event()
        self.asked = threading.Event()

    def choose(self, view, legal, rng):
        self.asked.set()
        assert self.go.wait(10)
        return legal[0]


class FakeClock:
    """The expert's clock in a test: it moves only when told (a search's time, a wait)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:  # stands for TableScreen._wait_in_worker
        self.waits.append(seconds)
        self.now += seconds


class ThinkingExpert:
    """An expert whose search takes ``seconds`` on the fake clock (it plays the first legal
    command)."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def choose(self, view, legal, rng):
        self.clock.now += self.seconds
        return legal[0]


def scores_text(table) -> str:
    """The scoreboard's rows as text (the status line also names a thinking expert)."""
    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(table.query_one("#scoreboard").content)
    return console.export_text()


async def test_the_table_answers_keys_while_the_expert_thinks_and_drops_a_stale_answer(tmp_path, monkeypatch):
    import rules.core.bots as bots

    held = HeldExpert()
    monkeypatch.setitem(bots._EXPERTS, SPEC, held)
    clock = FakeClock()  # its answers need not wait out the budget here
    monkeypatch.setattr(TableScreen, "clock", clock)
    monkeypatch.setattr(TableScreen, "_wait_in_worker", clock.wait)
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Eve", "expert"), Seat("Ann")])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: held.asked.is_set())
        assert table._thinking == 0 and "thinking…" in table.status_text()
        table._thinking = None  # as in the table's pause before a search starts:
        assert table.status_text().endswith("Eve (bot: expert) playing…")  # named as every list names it
        table._thinking = 0
        assert "Eve (bot: expert) thinking…" in scores_text(table)
        # the app's thread is free: a key is answered (the palette opens and closes)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not match.history
        # a stale answer (the game changed meanwhile) is discarded
        table._thought(0, (5, frozenset({0})), match.legal(0)[0])
        assert not match.history
        held.go.set()
        await settle(pilot, lambda: match.history)
        assert match.history[0].seat == 0 and table._thinking is None
        await pilot.pause()
        assert "thinking…" not in scores_text(table) and "Eve (bot: expert)" in scores_text(table)


# -- the expert answers after its whole budget, whatever it holds ------------------------------

def test_an_answer_comes_no_sooner_than_its_deadline():
    from cardtable.screens.table import answer_after

    for thinking, waited in [(0.0, 0.4), (0.25, 0.15), (0.4, None), (0.7, None)]:
        clock = FakeClock()
        deadline = clock() + 0.4

        def choose():
            clock.now += thinking
            return "answer"

        assert answer_after(choose, deadline, clock, clock.wait) == "answer"
        assert clock.waits == ([] if waited is None else [pytest.approx(waited)])
        assert clock.now == pytest.approx(1000 + max(0.4, thinking))
    clock = FakeClock()
    assert answer_after(lambda: 7, None, clock, clock.wait) == 7 and clock.waits == []


def one_legal_for_the_expert(match) -> bool:
    return 0 in match.awaiting and len(match.legal(0)) == 1


@pytest.mark.parametrize("legal", ["one", "several"])
async def test_the_expert_submits_after_its_whole_budget_with_one_legal_command_or_several(
        tmp_path, monkeypatch, legal):
    import rules.core.bots as bots
    from cardtable.screens.table import SETTLE
    from pilot_helpers import bot_played
    from rules.core.search import settings_for

    clock = FakeClock()
    monkeypatch.setattr(TableScreen, "clock", clock)
    monkeypatch.setattr(TableScreen, "_wait_in_worker", clock.wait)
    if legal == "one":  # a reaction window without a Connection to react with: "decline" alone
        game, seats = "capital-auction", [Seat("Eve", "expert"), Seat("Bob", "bot"), Seat("Ann")]
        match = bot_played(game, seats, 3, one_legal_for_the_expert)
        searched = 0.0  # the real expert answers a lone command at once
    else:
        game, seats = GAME, [Seat("Eve", "expert"), Seat("Ann")]
        match = Match(rules.find_game(game), seats, seed=1)
        assert len(match.legal(0)) > 1
        searched = 0.25
        monkeypatch.setitem(bots._EXPERTS, match.spec, ThinkingExpert(clock, searched))
    budget = settings_for(match.spec).seconds
    assert budget and budget > searched
    submitted = []
    match.subscribe(lambda m, update: submitted.append((update.played.seat, clock())))
    table = TableScreen(match, None, None, Settings(bot_delay=0))
    async with TableApp(table).run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: submitted)
    # asked at 1000 on the fake clock: the answer is submitted after the budget, whatever the
    # search took, and not before
    assert submitted[0] == (0, pytest.approx(1000 + budget + SETTLE))
    assert clock.waits[0] == pytest.approx(budget + SETTLE - searched)


async def test_leaving_the_table_ends_the_experts_wait_at_once(tmp_path, monkeypatch):
    import threading

    import cardtable.screens.table as table_module
    from rules.core.search import Settings as SearchSettings

    woke = threading.Event()
    waited = []
    real_wait = TableScreen._wait_in_worker

    def watched_wait(table, seconds):
        waited.append(seconds)
        real_wait(table, seconds)
        woke.set()

    monkeypatch.setattr(TableScreen, "_wait_in_worker", watched_wait)
    monkeypatch.setattr(table_module, "settings_for", lambda spec: SearchSettings(seconds=3600))
    clock = FakeClock()
    monkeypatch.setattr(TableScreen, "clock", clock)
    app, table, match, store, game_id, notes = make_table(tmp_path, [Seat("Eve", "expert"), Seat("Ann")])
    import rules.core.bots as bots

    monkeypatch.setitem(bots._EXPERTS, SPEC, ThinkingExpert(clock, 0.0))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: waited)
        assert waited == [pytest.approx(3600 + table_module.SETTLE)] and not woke.is_set()
        app.pop_screen()
        await pilot.pause()
        assert woke.wait(30), "the expert still waits after the table was left"
    assert match.history == []  # nothing was played for a table that is gone


async def test_undo_still_takes_back_a_move_after_the_game_is_resumed(tmp_path):
    seats = [Seat("Ann"), Seat("Bob", "random")]
    seed, before, text = undoable_position(seats)
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, seats, seed=seed)
    for seat, command in [*before, [0, text]]:
        match.submit(seat, command)
    assert match.can_undo(0)
    game_id = store.create(match)  # quit here: the move could still be taken back
    resumed = store.open(game_id).match
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=resumed, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if not isinstance(app.screen, TableScreen):  # a game's own dialog opened first
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("ctrl+z")
        await settle(pilot, lambda: len(resumed.history) == len(before))
        assert [[p.seat, p.text] for p in resumed.history] == before


class BoardOnlyLater(TableScreen):
    """A table whose board lacks a part at its first drawings (as a results screen's was)."""

    def __init__(self, *args, missing: int) -> None:
        super().__init__(*args)
        self.missing = missing
        self.boards_drawn = 0

    def refresh_board(self, view) -> None:
        if self.missing:
            self.missing -= 1
            self.query_one("#nowhere")  # raises NoMatches, as a board part not mounted did
        self.boards_drawn += 1


async def test_a_board_with_a_part_missing_is_drawn_after_the_next_frame_not_a_crash(tmp_path):
    seats = [Seat("Ann"), Seat("Bob"), Seat("Cleo")]
    table_class = lambda *args: BoardOnlyLater(*args, missing=1)  # noqa: E731
    app, table, match, *_ = make_table(tmp_path, seats, table_class=table_class)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: table.boards_drawn >= 1)
        assert table.missing == 0 and app.screen is table
        # missing at every try: no exception, and no redraw loop (one retry, then the next refresh)
        table.missing = 100
        table.refresh_table()
        await pilot.resize_terminal(*LARGE)  # a resize draws the board too
        for _ in range(5):
            await pilot.pause()
        left = table.missing
        for _ in range(5):
            await pilot.pause()
        assert table.missing == left < 100  # and no exception: run_test would raise it
