"""The Property table, driven through Pilot with keys and clicks: a whole game against the bot,
a resumed game, the hand-off curtain, the mortgaged-cell confirmation, the rent preview and the
footer keys. The player's choices come from ``match.legal(min(match.awaiting))``; the keys carry them out."""

from __future__ import annotations

from collections import Counter

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

import rules
from rules.core import Card, Match, Seat, parse_card
from rules.property import Buy, Decline, Play, group, index, multiplier, preview
from rules.property.events import Drew, Lost, RentPaid
from rules.property.state import unit_value

from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.handoff import HandoffScreen
from cardtable.games.property.table import CONFIRM_MORTGAGED, BuyScreen, PropertyTable
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from cardtable.widgets import CardWidget, HandWidget, card_text
from cardtable.games.property.grid import seat_initials
from pilot_helpers import Terminal, property_position as position, record_notes, screen_text as screenshot, settle, TableApp

SPEC = rules.find_game("property")
SMALL = (80, 24)
# A seed whose game against the bot ends in about twenty of the human's turns when the human
# pays the largest rent it can (the test's strategy, chosen to end the game soon).
GAME_SEED = 16


def plain(widget) -> str:
    return str(widget.render())


def rent(state, play: Play) -> int:
    owner = state.owners[index(play.col, play.row)]
    if owner is None or owner == state.current:
        return -1
    return len(group(state, play.col, play.row)) * multiplier(play.red, play.black)


def costly_play(match: Match) -> Play:
    """The legal play paying the most rent (ends a game against the bot soonest)."""
    return max((c for c in match.legal(min(match.awaiting)) if isinstance(c, Play)), key=lambda p: rent(match.state, p))


# -- driving the table with keys -----------------------------------------------------------------

async def select_cards(pilot, table: PropertyTable, cards) -> None:
    """Select ``cards`` in the hand with the keyboard: arrows to each, then Space."""
    hand = table.hand
    assert hand.has_focus, "the hand should have the focus at the start of a turn"
    for card in cards:
        steps = hand.cards.index(card) - hand.cursor
        await pilot.press(*(["right"] * steps if steps > 0 else ["left"] * -steps), "space")
    assert set(cards) <= set(hand.selected)


async def play_with_keys(pilot, table: PropertyTable, play: Play) -> bool:
    """Select the pair, move the grid's cursor to the cell if it is not there yet, Enter.
    True if the cursor had to be moved (a 9 or 10 was played)."""
    await select_cards(pilot, table, [play.red, play.black])
    grid = table.grid
    assert grid.named, "the grid should highlight the cells the pair names"
    assert grid.cursor in grid.named
    col, row = grid.cursor
    moved = (col, row) != (play.col, play.row)
    if moved:
        assert table.grid_has_keys, "a wild pair should hand the cursor to the grid"
        dx, dy = play.col - col, play.row - row
        await pilot.press(*(["right"] * dx if dx > 0 else ["left"] * -dx))
        await pilot.press(*(["up"] * dy if dy > 0 else ["down"] * -dy))
    assert grid.cursor == (play.col, play.row)
    await pilot.press("enter")
    return moved


async def click_cell(pilot, grid, cell) -> None:
    """Click the middle of ``cell`` (col, row) on the grid."""
    layout = grid.layout_now
    x = grid.content_region.x + layout.left + 4 + (cell[0] - 1) * layout.cell_width + 1
    y = grid.content_region.y + (8 - cell[1]) * layout.cell_height
    await pilot.click(offset=(x, y))


async def answer_offer(pilot, table: PropertyTable, buy: bool) -> bool:
    """``n`` declines; ``b`` buys, through the list of hand-overs when there are several
    (Enter takes the cheapest, listed first). True if the list was shown."""
    if not buy:
        await pilot.press("n")
        return False
    await pilot.press("b")
    await pilot.pause()
    listed = isinstance(pilot.app.screen, BuyScreen)
    if listed:
        await pilot.press("enter")
    return listed


async def human_turns(pilot, table: PropertyTable, match: Match, until) -> Counter:
    """Play the human seat (0) with keys until ``until()``: the costliest play each turn, the
    first purchase offered bought, the others declined. Counts what was done."""
    done: Counter = Counter()
    while not until():
        await settle(pilot, lambda: match.over or (match.awaiting == {0} and table.my_turn))
        if match.over:
            break
        before = len(match.history)
        if match.state.pending is not None:
            buys = [c for c in match.legal(min(match.awaiting)) if isinstance(c, Buy)]
            buy = not done["bought"]
            done["chose from the list"] += await answer_offer(pilot, table, buy)
            command = match.history[before].command
            if buy:
                assert isinstance(command, Buy)
                assert units(command) == min(units(b) for b in buys), "not the cheapest"
            else:
                assert isinstance(command, Decline)
            done["bought" if buy else "declined"] += 1
        else:
            play = costly_play(match)
            done["moved the cursor"] += await play_with_keys(pilot, table, play)
            assert match.history[before].command == play
            done["played"] += 1
        assert match.history[before].seat == 0
    return done


def units(buy: Buy) -> int:
    return sum(unit_value(card) for card in buy.units)


# -- a whole game ----------------------------------------------------------------------------------

async def test_a_whole_game_against_the_bot_by_keys_reaches_the_results_and_is_saved(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Cleo", "bot")], seed=GAME_SEED)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, PropertyTable)
        game_id = table.game_id
        done = await human_turns(pilot, table, match, lambda: match.over)
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        # the seed makes the game exercise every way of answering the table
        assert done["bought"] == done["chose from the list"] == 1
        assert done["declined"] >= 1 and done["moved the cursor"] >= 1
    info = next(info for info in store.list() if info.id == game_id)
    assert info.finished and info.game == "property"
    assert info.result and match.names[match.outcome.winners[0]] in info.result
    saved = store.load(game_id)
    assert saved.over and [p.text for p in saved.history] == [p.text for p in match.history]


async def test_a_game_resumed_from_its_save_plays_on_by_keys_and_saves(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Cleo", "bot")], seed=GAME_SEED)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        game_id = table.game_id
        await human_turns(pilot, table, match, lambda: sum(p.seat == 0 for p in match.history) >= 4)
        await settle(pilot, lambda: match.awaiting == {0})
        halfway = [p.text for p in match.history]

    resumed = store.load(game_id)
    assert [p.text for p in resumed.history] == halfway and not resumed.over
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=resumed, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, PropertyTable) and table.viewer == 0
        # the grid shows the saved position
        for i, owner in enumerate(resumed.state.owners):
            assert table.grid.owners[i] == owner
        await human_turns(pilot, table, resumed, lambda: len(resumed.history) >= len(halfway) + 8)
    again = store.load(game_id)
    assert [p.text for p in again.history][: len(halfway)] == halfway
    assert len(again.history) >= len(halfway) + 8


# -- positions set up by hand ----------------------------------------------------------------------

def table_app(match: Match):
    table = PropertyTable(match, None, None, Settings(bot_delay=0))
    notes = record_notes(table, severity=True)
    return TableApp(table), table, notes


EMPTY = ["........"] * 8
# Ann's 3·5 is mortgaged; Cleo owns 4·4, 4·5, 5·5 (a group of three) and 7·2
BOARD = [
    "........",
    "........",
    "........",
    "..aBB...",  # row 5
    "...B....",  # row 4
    "........",
    "......B.",  # row 2
    "........",
]


async def test_playing_on_your_mortgaged_cell_asks_once_more_and_a_refusal_changes_nothing(tmp_path):
    match = position(BOARD, ["3D", "5C", "8H", "8C"])
    app, table, notes = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        before = SPEC.to_json(match.state)
        await select_cards(pilot, table, [Card.parse("3D"), Card.parse("5C")])
        assert table.grid.cursor == (3, 5)
        await pilot.press("enter")
        await pilot.pause()
        # asked, not refused: the warning is on the preview line, nothing was played
        assert CONFIRM_MORTGAGED in plain(table.query_one("#preview"))
        assert table.query_one("#preview").has_class("-confirm")
        assert SPEC.to_json(match.state) == before and match.history == []
        await pilot.press("x")  # any other key cancels
        await pilot.pause()
        assert CONFIRM_MORTGAGED not in plain(table.query_one("#preview"))
        assert SPEC.to_json(match.state) == before and match.history == []
        assert not [note for note in notes if note[1] == "error"]
        # the selection is still there: Enter asks again, and a second Enter plays
        assert set(table.hand.selected) == {Card.parse("3D"), Card.parse("5C")}
        await pilot.press("enter")
        await pilot.pause()
        assert match.history == []
        await pilot.press("enter")
        await pilot.pause()
        assert len(match.history) >= 1 and isinstance(match.history[0].events[0], Lost)
        assert match.state.owners[index(3, 5)] is None


async def test_the_preview_shows_the_rules_rent_and_the_play_pays_it(tmp_path):
    match = position(BOARD, ["4H", "5S", "2D", "2C"])
    app, table, notes = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        red, black = Card.parse("4H"), Card.parse("5S")
        await select_cards(pilot, table, [black, red])
        assert table.grid.cursor == (4, 5) and table.grid.named == {(4, 5)}
        shown = plain(table.query_one("#preview"))
        expected = preview(match.state, red, black, 4, 5)
        assert expected in shown
        money = list(match.state.money)
        await pilot.press("p")
        await pilot.pause()
        paid = match.history[0].events[0]
        assert isinstance(paid, RentPaid) and paid.group_size == 3 and paid.multiplier == 4
        assert f"${paid.rent} rent" in shown
        assert match.state.money == [money[0] - paid.rent, money[1] + paid.rent]
        # the offer after the rent is on the preview line, with the viewer's units
        units = sum(unit_value(c) for c in match.state.units[0])
        offer = plain(table.query_one("#preview"))
        assert f"Buy 4·5 from Cleo: 3 units needed, you have {units}" in offer
        assert not notes


async def test_a_third_card_of_a_colour_replaces_the_older_one_and_clicks_pick_cells(tmp_path):
    match = position(EMPTY, ["3D", "9H", "5C", "2S"])
    app, table, _ = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        three, nine, five = Card.parse("3D"), Card.parse("9H"), Card.parse("5C")
        await select_cards(pilot, table, [three, five])
        assert table.grid.named == {(3, 5)}
        # a click on a cell the pair does not name: the line under the grid gives the rules'
        # refusal, its cards in their colours
        await click_cell(pilot, table.grid, (3, 6))
        await pilot.pause()
        refusal = "3♦ and 5♣ name cell 3·5, not 3·6."
        line = table._preview_text()
        assert refusal in line.plain and refusal in plain(table.query_one("#preview"))
        start = line.plain.index(refusal)
        for card, offset in ((three, 0), (five, len("3♦ and "))):
            colour = card_text(card).style
            assert any(span.start == start + offset and span.style == colour for span in line.spans), card
        assert match.history == []
        await pilot.press("escape")  # the click gave the grid the keys: back to the hand
        await pilot.press("home", *["right"] * table.hand.cards.index(nine), "space")
        await pilot.pause()
        assert set(table.hand.selected) == {nine, five}
        grid = table.grid
        assert grid.named == {(col, 5) for col in range(1, 9)} and table.grid_has_keys
        # the cursor stays in row 5: up does nothing, left moves along the row
        start = grid.cursor
        await pilot.press("up")
        assert grid.cursor == start
        # a click on another cell of the row moves the cursor; a second click plays there
        target = (7, 5)
        await click_cell(pilot, grid, target)
        assert grid.cursor == target and match.history == []
        assert "Claim 7·5" in plain(table.query_one("#preview"))
        await click_cell(pilot, grid, target)
        await pilot.pause()
        assert match.history[0].command == Play(nine, five, 7, 5)


async def test_the_footer_greys_play_until_a_pair_is_selected(tmp_path):
    match = position(EMPTY, ["3D", "5C"])
    app, table, _ = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()

        def footer_state(action):
            keys = [k for k in app.screen.query_one(Footer).query("FooterKey") if k.action == action]
            return "hidden" if not keys else "grey" if keys[0].has_class("-disabled") else "on"

        assert table.check_action("play", ()) is None and footer_state("play") == "grey"
        assert footer_state("buy") == footer_state("decline") == "hidden"
        play_key = next(k for k in app.screen.query("FooterKey") if k.action == "play")
        await pilot.press("enter")  # greyed out: nothing happens
        assert match.history == []
        await select_cards(pilot, table, [Card.parse("3D")])
        assert table.check_action("play", ()) is None
        await select_cards(pilot, table, [Card.parse("5C")])
        await pilot.pause()
        assert table.check_action("play", ()) is True and footer_state("play") == "on"
        # only the key's state changed: the Footer greyed it in place instead of rebuilding
        assert play_key.is_attached and not play_key.has_class("-disabled")


async def test_the_curtain_between_two_humans_shows_no_hand_card(tmp_path):
    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=GAME_SEED)
    app, table, _ = table_app(match)
    cards = {seat: [card_text(c).plain for c in match.view(seat).hand] for seat in (0, 1)}
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        first = min(match.awaiting)
        assert table.viewer == first
        await play_with_keys(pilot, table, match.legal(min(match.awaiting))[0])
        await pilot.pause()
        second = min(match.awaiting)
        assert second != first and isinstance(app.screen, HandoffScreen)
        assert table.viewer is None
        hand = table.query_one(HandWidget)
        assert hand.cards == () and table.grid.named == frozenset()
        shot = screenshot(app)
        assert f"Pass to {match.names[second]}" in shot
        now = [card_text(c).plain for seat in (0, 1) for c in match.view(seat).hand]
        assert not [text for text in set(now) | set(cards[0]) | set(cards[1]) if text in shot]
        await pilot.press("enter")
        await pilot.pause()
        assert table.viewer == second
        assert hand.cards == tuple(sorted(match.view(second).hand, key=Card.sort_key))


def test_initials_are_unique_per_seat():
    assert seat_initials(["Ann", "Cleo"]) == ("AN", "CL")
    assert seat_initials(["Ann Lee", "Anna", "Annie"]) == ("AL", "AN", "AI")
    initials = seat_initials(["Ann", "Anna", "Annie", "An", "A", "Ann Lee"])
    assert len(set(initials)) == 6 and all(len(i) == 2 for i in initials)


EMPTY = ["........"] * 8


async def test_cards_just_drawn_are_marked_until_the_next_move(tmp_path):
    match = position(EMPTY, ["3D", "5C", "7H"])
    app, table, _ = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert not table.hand.query(".-new")
        await play_with_keys(pilot, table, Play(parse_card("3D"), parse_card("5C"), 3, 5))
        # Ann drew a black card to go with her 7♥: it is marked while Cleo plays and after
        await settle(pilot, lambda: match.awaiting == {0})
        drawn = next(e.cards for p in match.history if p.seat == 0 for e in p.events if isinstance(e, Drew))
        marked = {w.card for w in table.hand.query(CardWidget) if w.has_class("-new")}
        assert marked == set(drawn) and all("•" in str(w.render()) for w in table.hand.query(".-new"))
        assert "new •" in table.hand.border_subtitle
        # her next move clears the marks (and marks what she draws then)
        play = match.legal(0)[0]
        await play_with_keys(pilot, table, play)
        await settle(pilot, lambda: match.awaiting == {0} or match.over)
        marked = {w.card for w in table.hand.query(CardWidget) if w.has_class("-new")}
        assert not marked & set(drawn)


def footer_keys(app) -> list[tuple[str, str]]:
    return [(key.key_display, key.description) for key in app.screen.query(FooterKey)]


async def test_a_wild_pair_gives_the_keys_to_the_grid_and_escape_gives_them_back(tmp_path):
    match = position(EMPTY, ["9D", "5C", "7H"])
    app, table, notes = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("k")  # a key of the grid's, before it has the keys: how it gets them
        await pilot.pause()
        assert any("9 or 10" in note for note, _severity in notes), notes
        await select_cards(pilot, table, [parse_card("9D"), parse_card("5C")])
        assert table.grid_has_keys and len(table.grid.named) == 8
        # the footer's first key says how the keys go back, where the hand's Select card was
        await settle(pilot, lambda: footer_keys(app)[0] == ("space", "Change pair"))
        (col, row), card = table.grid.cursor, table.hand.cursor
        await pilot.press("right")
        assert table.grid_has_keys
        assert table.grid.cursor == (col + 1, row) and table.hand.cursor == card
        # home and end go along the grid's row, not the hidden hand's cursor
        await pilot.press("end")
        assert table.grid.cursor == (8, row) and table.hand.cursor == card
        await pilot.press("home")
        assert table.grid.cursor == (1, row) and table.hand.cursor == card
        await pilot.press("escape")
        await pilot.pause()
        assert not table.grid_has_keys and app.screen is table  # no "leave?" question: just the hand
        await settle(pilot, lambda: footer_keys(app)[0] == ("space", "Select card"))
        await pilot.press("space")  # the cursor is on 9♦: unselected, the grid has nothing to pick
        await pilot.pause()
        assert table.hand.has_focus and not table.grid.named


async def shown_as_if_drawn_whole(pilot, terminal: Terminal, grid, what: str) -> None:
    """The grid as the terminal shows it is what drawing the whole grid anew shows."""
    await terminal.still(pilot)
    shown = terminal.region(grid.region)
    grid.refresh()
    await terminal.still(pilot)
    assert terminal.region(grid.region) == shown, f"after {what}, a part of the grid was not redrawn"


async def test_the_grid_redrawn_in_part_shows_what_a_whole_redraw_shows(tmp_path):
    # a pair, the cursor and the keys change a few of the grid's cells, and only their lines
    # are drawn again: after every key the terminal must show what drawing the whole grid shows
    # (a highlight left behind, or a cursor drawn twice, would differ)
    match = position(EMPTY, ["9D", "5C", "7H", "3S", "10S"])
    app, table, _notes = table_app(match)
    terminal = Terminal(app)
    cards = {key: parse_card(key) for key in ("9D", "5C", "7H", "3S", "10S")}
    async with app.run_test(size=SMALL) as pilot:
        await terminal.still(pilot)
        grid, hand = table.grid, table.hand

        async def to(card: str) -> None:
            steps = hand.cards.index(cards[card]) - hand.cursor
            await pilot.press(*(["right"] * steps if steps > 0 else ["left"] * -steps))

        # (hand keys: to a card, space; the grid's, while a wild pair gives it the keys)
        steps = [("9D", "a red wild card"), ("5C", "a wild pair: row 5 named, the grid has the keys"),
                 ("right", "the cursor along the row"), ("end", "the cursor to the row's end"),
                 ("escape", "the keys back to the hand"), ("10S", "two wild cards: every cell"),
                 ("escape", "the keys back"), ("3S", "row 3 named instead"), ("escape", "the keys back"),
                 ("7H", "a plain pair: one cell"), ("7H", "the red card taken back: nothing named")]
        for key, what in steps:
            if key in cards:
                await to(key)
                await pilot.press("space")
            else:
                await pilot.press(key)
            await shown_as_if_drawn_whole(pilot, terminal, grid, what)
            if key == "10S":
                assert len(grid.named) == 64 and grid.active
            if key == "3S":
                assert {row for _col, row in grid.named} == {3} and grid.active
        assert not grid.named and not match.history


async def test_the_grid_on_its_own_redraws_every_cell_whose_look_changed():
    # as above, with the grid told directly what the table never does in one step: all cells
    # named (none highlighted) then one row, the cursor left outside the named cells
    from textual.app import App

    from cardtable.games.property.grid import PropertyGrid

    class GridApp(App[None]):
        def compose(self):
            yield PropertyGrid(("AN", "CL"), id="grid")

    every = frozenset((col, row) for col in range(1, 9) for row in range(1, 9))
    row_5 = frozenset((col, 5) for col in range(1, 9))
    steps = [("named", every), ("named", row_5), ("active", True), ("cursor", (3, 3)), ("named", every),
             ("cursor", (6, 5)), ("named", frozenset({(6, 5)})), ("active", False), ("named", frozenset())]
    app = GridApp()
    terminal = Terminal(app)
    async with app.run_test(size=SMALL) as pilot:
        grid = app.query_one(PropertyGrid)
        grid.show([None] * 64, [False] * 64)
        await terminal.still(pilot)
        for name, value in steps:
            setattr(grid, name, value)
            await shown_as_if_drawn_whole(pilot, terminal, grid, f"{name} = {value}")


async def test_the_grid_redrawn_in_part_after_the_terminal_changed_size():
    # a new size may change the cells' size: the lines kept must be of the new size too
    match = position(EMPTY, ["9D", "5C", "7H"])
    app, table, _notes = table_app(match)
    terminal = Terminal(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await select_cards(pilot, table, [parse_card("9D"), parse_card("5C")])
        grid = table.grid
        assert grid.active and len(grid.named) == 8
        for size, keys in [((100, 40), ["right"]), ((100, 24), ["left", "left"]), ((120, 50), ["escape"]),
                           ((90, 30), ["space"])]:
            await pilot.resize_terminal(*size)
            await terminal.still(pilot)
            await pilot.press(*keys)
            await shown_as_if_drawn_whole(pilot, terminal, grid, f"{keys} at {size}")
        assert not grid.named  # the last space took the 5♣ back


async def test_enter_then_an_arrow_in_one_read_plays_the_cell_enter_was_typed_at(tmp_path):
    # keys typed fast (or over a slow connection) come in one read: the grid's arrows are
    # priority keys and moved the cursor at once, before the Enter typed ahead of them reached
    # the table, which then played the cell the arrow moved to (cardtable.app: a priority key
    # waits for the keys before it)
    from monkey_helpers import at_the_table, in_one_read, quiet

    match = position(EMPTY, ["9D", "5C", "7H"])
    async with at_the_table(tmp_path, match, SMALL) as (app, pilot, table):
        await select_cards(pilot, table, [parse_card("9D"), parse_card("5C")])
        assert table.grid_has_keys
        cell = table.grid.cursor
        in_one_read(app, ["enter", "right"])
        await settle(pilot, lambda: quiet(app) and match.history)
        played = match.history[0].command
        assert isinstance(played, Play) and (played.col, played.row) == cell


async def test_focus_comes_back_after_the_terminal_was_too_small(tmp_path):
    match = position(EMPTY, ["9D", "5C", "7H"])
    app = CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(bot_delay=0), match=match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        await select_cards(pilot, table, [parse_card("9D"), parse_card("5C")])
        assert table.grid_has_keys
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert "too small" in screenshot(app) and not table.grid_has_keys
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert table.grid_has_keys  # where it was, not lost


# -- names as typed ----------------------------------------------------------------------------

HOSTILE = ("[/]", "Bob [kid]", "[@click=app.quit]")
# A seed whose game against two bots brings [/] a purchase from a list within six turns
HOSTILE_SEED = 1


async def test_names_that_look_like_markup_show_as_typed_and_break_nothing(tmp_path):
    match = Match(SPEC, [Seat(HOSTILE[0]), Seat(HOSTILE[1], "bot"), Seat(HOSTILE[2], "bot")],
                  seed=HOSTILE_SEED)
    app = CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(bot_delay=0), match=match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        notes = record_notes(table, severity=True)
        done = await human_turns(pilot, table, match, lambda: sum(p.seat == 0 for p in match.history) >= 6)
        await settle(pilot, lambda: match.awaiting == {0})
        assert done["played"] >= 5 and done["chose from the list"] == 1
        shot = screenshot(app)
        for seat, name in enumerate(HOSTILE):  # in the scoreboard, beside the grid's initials
            assert f"{table.initials[seat]} {name}" in shot
        assert f"{HOSTILE[0]}'s hand" in shot and f"Your move, {HOSTILE[0]}." in shot
        # a click on the name that would be a link, were it read as markup, runs nothing
        board = table.query_one("#scoreboard").content_region
        await pilot.click(offset=(board.x + 6, board.y + 3))
        await pilot.pause()
        assert app.is_running and app.screen is table
        assert not [note for note in notes if note[1] == "error"]
        assert len(match.history) > 6 and not match.over


async def test_the_buy_offer_names_the_owner_as_typed(tmp_path):
    match = position(BOARD, ["4H", "5S", "2D", "2C"], names=HOSTILE[:2])
    app, table, notes = table_app(match)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await play_with_keys(pilot, table, Play(parse_card("4H"), parse_card("5S"), 4, 5))
        await pilot.pause()
        offer = f"Buy 4·5 from {HOSTILE[1]}: 3 units needed"
        line = table._preview_text()
        assert offer in line.plain
        start = line.plain.index(HOSTILE[1])
        assert any(span.start == start and "bold" in str(span.style) for span in line.spans)
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BuyScreen) and offer in screenshot(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and not notes



def test_a_focus_before_the_grid_is_mounted_is_no_crash(tmp_path):
    # a results screen's buttons take the focus before its grid is mounted (seen in CI): the
    # table tells the grid by its class, not by looking it up
    from textual import events
    from textual.widgets import Button

    match = position(EMPTY, ["3D", "5C"])
    table = PropertyTable(match, None, None, Settings(bot_delay=0))
    table.on_descendant_focus(events.DescendantFocus(Button("Replay")))  # raised NoMatches
