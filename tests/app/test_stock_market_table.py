"""The Card Stock Market table through Pilot: a whole seeded game of two humans and two bots
played with the table's keys (buy, sell from the board's certificates, lay, lay as $0 after the
question, discard, end), the curtain at every hand-off; then the numbers the table shows — the
sheet's ranges, the notes under each card, the question before a crash — and refusals that
change nothing, undo, a resumed game, the results, and the board fitting 80×24 with six
players."""

from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

import rules
from rules.core import Card, Match, Seat, chance, get_bot, parse_card
from rules.stock_market import Buy, Discard, End, Lay, Sell, held_shares, holding_value, range_of, shares, worth
from rules.stock_market.state import ALL_CARDS, COMPANIES

from cardtable.app import CardtableApp
from cardtable.games.stock_market.notes import HandNotes
from cardtable.games.stock_market.sheet import (
    chart_prices, chart_rows, money, range_text,
)
from cardtable.games.stock_market.table import StockMarketTable
from cardtable.store import SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from cardtable.widgets import CardWidget, card_text
from textual.widgets import Tooltip
from game_helpers import bot_choice
from pilot_helpers import record_notes, screen_text, settle, TableApp

SPEC = rules.find_game("stock-market")
BOT = get_bot(SPEC, "bot")
SMALL, LARGE = (80, 24), (120, 40)
# a short four-player game (93 commands, 41 of them the humans') in which the humans, playing
# the bot's choices, use every key: buy, sell, lay, lay as $0, discard and end
GAME_SEED = 230
KINDS = {"buy", "sell", "lay", "crash", "discard", "end"}


def kind(command) -> str:
    match command:
        case Lay(_, 0):
            return "crash"
    return type(command).__name__.lower()


async def on_screen(pilot) -> str:
    await pilot.pause()
    return screen_text(pilot.app)


def faces_in(text: str, cards) -> list[str]:
    return [card_text(card).plain for card in cards if card_text(card).plain in text]


def the_table(app) -> StockMarketTable:
    return next(screen for screen in app.screen_stack if isinstance(screen, StockMarketTable))


# -- driving the table as a player would ----------------------------------------------------

async def select_by_click(pilot, table: StockMarketTable, cards) -> None:
    hand = table.hand
    hand.clear_selection()
    widgets = {widget.card: widget for widget in hand.query(CardWidget)}
    for card in cards:
        await pilot.click(widgets[card])
    assert set(hand.selected) == set(cards) and hand.has_focus


async def select_by_keys(pilot, table: StockMarketTable, card) -> None:
    hand = table.hand
    hand.clear_selection()
    await pilot.press("home", *["right"] * hand.cards.index(card), "space")
    assert hand.selected == (card,)


async def pick_certificate(pilot, table: StockMarketTable, card) -> None:
    """Move the board's certificate cursor to ``card`` with ↑/↓."""
    certificates = table.certificates
    step = "down" if certificates.cards.index(card) > certificates.cards.index(certificates.picked) else "up"
    while certificates.picked != card:
        await pilot.press(step)
    assert certificates.picked == card


async def play_with_keys(pilot, table: StockMarketTable, command, match: Match, clicks: bool) -> None:
    """Play ``command`` with the table's keys (selecting cards by click or by keys)."""
    select = select_by_click if clicks else None
    match command:
        case Buy(card) | Lay(card, _):
            if select:
                await select(pilot, table, [card])
            else:
                await select_by_keys(pilot, table, card)
            if isinstance(command, Buy):
                await pilot.press("b")
            elif command.price:
                await pilot.press("p")
            else:
                await answer_the_crash(pilot, table, command, match)
        case Sell(card):
            await pick_certificate(pilot, table, card)
            await pilot.press("s")
        case Discard(cards):
            await select_by_click(pilot, table, cards)
            await pilot.press("d")
        case End():
            await pilot.press("e")
        case _:
            pytest.fail(f"no key plays {command!r}")


async def answer_the_crash(pilot, table: StockMarketTable, command: Lay, match: Match) -> None:
    """Press 0; the question names the company and what each holder loses; No is the default
    (Enter changes nothing), then y lays the card."""
    suit = command.card.suit
    before = len(match.history)
    await pilot.press("0")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    question = pilot.app.screen.message
    assert f"Lay {command.card.symbol} as $0? {suit.symbol} goes bankrupt" in question
    state = match.state
    for seat, held in enumerate(state.holdings):
        count = sum(shares(c) for c in held if c.suit is suit)
        if count:
            assert f"{match.names[seat]} loses {count} share" in question
    await pilot.press("enter")  # No
    await settle(pilot, lambda: pilot.app.screen is table)
    assert len(match.history) == before
    await pilot.press("0")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    await pilot.press("y")


async def check_curtain(pilot, table: StockMarketTable, match: Match) -> None:
    """Nothing private is on screen while the curtain is up."""
    assert table.viewer is None
    assert table.hand.cards == () and not table.hand.query(CardWidget)
    assert table.hand.marks == {} and table.query_one(HandNotes).notes == []
    assert table.card_line_text().plain == ""
    text = await on_screen(pilot)
    assert "Pass to" in text
    for seat in table.humans:
        assert faces_in(text, match.state.hands[seat]) == []


async def test_a_whole_game_of_two_humans_and_two_bots_through_the_keys(tmp_path):
    store = SaveStore(tmp_path / "data")
    seats = [Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot"), Seat("Dan", "bot")]
    match = Match(SPEC, seats, seed=GAME_SEED)
    game_id = store.create(match)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    curtains = 0
    played: set[str] = set()
    async with app.run_test(size=SMALL) as pilot:
        table = the_table(app)

        def ready() -> bool:
            if match.over or isinstance(app.screen, HandoffScreen):
                return True
            seat = min(match.awaiting)
            return table.viewer == seat and not match.seats[seat].bot and app.screen is table

        for step in range(200):
            await settle(pilot, ready)
            if match.over:
                break
            if isinstance(app.screen, HandoffScreen):
                await check_curtain(pilot, table, match)
                curtains += 1
                await pilot.press("enter")
                continue
            seat, before = min(match.awaiting), len(match.history)
            # the humans play what the bot would, from their own view and legal commands
            command = bot_choice(match, BOT, chance(GAME_SEED, before))[1]
            assert table.check_action(kind(command) if kind(command) != "end" else "end_turn", ()) is True
            await play_with_keys(pilot, table, command, match, clicks=step % 2 == 0)
            await settle(pilot, lambda: len(match.history) > before)
            assert match.history[before].command == command and match.history[before].seat == seat
            played.add(kind(command))

        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        # the results give each player's worth
        text = await on_screen(pilot)
        assert "Worth" in text
        for worth in match.outcome.scores:
            assert str(worth) in text
    assert match.over and played == KINDS
    # a curtain every time the awaited human changed (and one to start)
    humans = [p.seat for p in match.history if p.seat in (0, 1)]
    assert curtains == 1 + sum(a != b for a, b in zip(humans, humans[1:]))
    info = next(info for info in store.list() if info.id == game_id)
    assert info.finished and info.turn == match.turn


# -- positions written by hand --------------------------------------------------------------

PILES = {"D": ["8D"], "S": ["3S"], "H": ["6H"], "C": ["5C"]}


def position(hands, *, names=("Ann", "Bob"), piles=None, holdings=None, money=None, discard="",
             **extra) -> dict:
    """A position as JSON: hands, holdings and the discard pile as text; the stock is every
    other card but the jokers."""
    piles = {k: list(v) for k, v in (piles or PILES).items()}
    hands = [h.split() for h in hands]
    holdings = [h.split() for h in (holdings or [""] * len(names))]
    discard = discard.split()
    used = {k for group in (*hands, *holdings, discard, *piles.values()) for k in group}
    stock = [c.key for c in ALL_CARDS if not c.is_joker and c.key not in used]
    return {"names": list(names), "piles": piles, "hands": hands, "holdings": holdings,
            "money": list(money or [200] * len(names)), "stock": stock, "discard": discard, **extra}


def table_at(data: dict, bots: bool = True):
    names = data["names"]
    seats = [Seat(names[0])] + [Seat(name, "bot" if bots else None) for name in names[1:]]
    match = Match(SPEC, seats, seed=3)
    match.state = SPEC.from_json(json.loads(json.dumps(data)))
    table = StockMarketTable(match, None, None, Settings(bot_delay=0))
    notes = record_notes(table)
    return TableApp(table), table, match, notes


def C(text: str) -> Card:
    return parse_card(text)


def notes_under(table: StockMarketTable) -> dict[str, tuple[str, str]]:
    """The notes under each card, by the card's face."""
    widget = table.query_one(HandNotes)
    return {card.symbol: (buy.plain, lay.plain) for card, (buy, lay) in zip(widget.cards, widget.notes)}


# -- names are data ---------------------------------------------------------------------------

HOSTILE = ("[/]", "Bob [kid]", "[@click=app.quit]")


async def test_names_that_look_like_markup_are_shown_as_typed_through_a_game(tmp_path):
    store = SaveStore(tmp_path / "data")
    seats = [Seat(HOSTILE[0]), Seat(HOSTILE[1]), Seat(HOSTILE[2], "bot")]
    match = Match(SPEC, seats, seed=GAME_SEED)
    game_id = store.create(match)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        table = the_table(app)

        def ready() -> bool:
            if isinstance(app.screen, HandoffScreen):
                return True
            seat = min(match.awaiting)
            return table.viewer == seat and not match.seats[seat].bot and app.screen is table

        seen = ""
        while len(match.history) < 24:
            await settle(pilot, ready)
            if isinstance(app.screen, HandoffScreen):
                seen += await on_screen(pilot)
                await pilot.press("enter")
                continue
            before = len(match.history)
            command = bot_choice(match, BOT, chance(GAME_SEED, before))[1]
            await play_with_keys(pilot, table, command, match, clicks=before % 2 == 0)
            await settle(pilot, lambda: len(match.history) > before)
            seen += await on_screen(pilot)
        assert {kind(played.command) for played in match.history} >= {"buy", "lay", "end"}
        # every name on screen as typed (the curtain, the status, the holdings, the log), and
        # "[@click=app.quit]" quit nothing
        for name in HOSTILE:
            assert name in seen
        # the log gives each move with its cards as the table writes them (buy 7♥, never 7H)
        for played in match.history:
            if played.seat != 2 and isinstance(played.command, (Buy, Sell, Lay)):
                card = played.command.card
                assert f"{HOSTILE[played.seat]}: {played.text.replace(card.key, card.symbol)}" in seen
                assert f": {played.text}" not in seen
        assert app.is_running and app.return_code is None
    assert store.load(game_id).names == match.names


async def test_a_crash_named_by_markup_names_asks_shows_its_tooltip_and_logs_as_typed():
    # ♠ at $3 can be crashed; "[/]" holds 4 shares of ♠, "Bob [kid]" 7 and 5 (a queen's five)
    data = position(["QS 9S 2D", "4D", "5D"], names=HOSTILE, holdings=["4S", "7S QS.1", ""],
                    piles={**PILES, "S": ["3S"]}, money=[10, 200, 200])
    app, table, match, notes = table_at(data)
    app.TOOLTIP_DELAY = 0.01  # (0 is not a timer Textual can run)
    losses = "[/] loses 4 shares ($12) and Bob [kid] loses 12 shares ($36)"
    async with app.run_test(size=SMALL, notifications=True, tooltips=True) as pilot:
        await pilot.pause()
        # the card's tooltip (a Text: a str tooltip is markup, and "[/]" would end the app)
        queen = next(widget for widget in table.hand.query(CardWidget) if widget.card == C("QS"))
        await pilot.hover(queen)
        tooltip = app.screen.query_one(Tooltip)
        await settle(pilot, lambda: tooltip.display)
        await pilot.pause()
        assert str(tooltip.render()) == f"lay as $0: bankrupts ♠: {losses}"
        assert "bankrupts ♠: [/] loses 4" in await on_screen(pilot)  # on screen, as typed
        await select_by_keys(pilot, table, C("QS"))
        assert table.card_line_text().plain.startswith(f"Q♠: 0 ⚠ $0 bankrupts ♠: {losses}")
        await pilot.press("0")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert f"♠ goes bankrupt: {losses}." in app.screen.message.plain
        await pilot.press("y")
        await settle(pilot, lambda: bool(match.history))
        assert match.history[-1].text == "lay QS 0"
        # a refusal under a card: the rules' words, the card in its colour
        await select_by_keys(pilot, table, C("2D"))
        line = table.card_line_text()
        assert line.plain == ("2♦: no buy: 2♦ buys 2 shares of ♦ at $8: $16; you have $10. · no lay: ♦ stands "
                              "at $8 and may move only from $6 to $11: 2♦ ($2) is out of range.")
        at = line.plain.index("2♦", 2)
        assert any(span.start == at and span.end == at + 2 and span.style == card_text(C("2D")).style
                   for span in line.spans)
        await pilot.press("e")
        await settle(pilot, lambda: match.awaiting == {0} or match.over)
        text = await on_screen(pilot)
        for name in HOSTILE:
            assert name in text
        assert app.is_running and app.return_code is None


async def test_the_notes_under_the_hand_follow_the_rules_examples():
    # Hearts at $6 accepts 2 up to J ($11) and refuses A, Q, K and any court card as $0;
    # a K bought at price 6 costs $30
    app, table, match, notes = table_at(position(["AH 2H 9H JH QH KH 7D", "4C"]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert range_text(range_of(table.view, COMPANIES[2])).plain == "$2–$11"
        under = notes_under(table)
        assert under["K♥"] == ("$30", "·") and under["Q♥"] == ("$30", "·")
        assert under["A♥"] == ("$6", "·")
        assert under["2♥"] == ("$12", "↓$2") and under["9♥"] == ("$54", "↑$9")
        assert under["J♥"] == ("$30", "↑$11")
        assert under["7♦"] == ("$56", "↓$7")
        text = await on_screen(pilot)
        assert "$2–$11" in text and "Under each card: cost to buy, price if laid." in text
        # a card with no lay says why, in the rules' words with symbols
        await select_by_keys(pilot, table, C("KH"))
        line = table.card_line_text().plain
        assert line.startswith("K♥: b buys 5 shares for $30")
        assert "lay" not in line
        await select_by_keys(pilot, table, C("JH"))
        assert table.card_line_text().plain == "J♥: b buys 5 shares for $30 · p lays ♥ $6 → $11"
        # the marks (and tooltips) say it in the rules' own words, as Text (a str tooltip is markup)
        assert table.hand.marks[C("JH").key].plain == "buy 5 shares of ♥ for $30 · lay: ♥ $6 → $11"


async def test_buy_lay_and_a_refusal_in_words_that_changes_nothing():
    app, table, match, notes = table_at(position(["3H 9H 4C KS", "4D"], holdings=["", "7H"]))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        await select_by_click(pilot, table, [C("3H")])
        await pilot.press("b")
        await pilot.pause()
        assert match.history[-1].text == "buy 3H" and match.state.money[0] == 182
        await select_by_keys(pilot, table, C("9H"))
        await pilot.press("p")
        await pilot.pause()
        assert match.history[-1].text == "lay 9H" and match.state.prices[COMPANIES[2]] == 9
        # the sheet, the holdings and the phase track follow
        text = await on_screen(pilot)
        assert "✓ traded, bought 1/2 · ● pricing, laid 1/2" in text
        assert "$5–$13" in text  # ♥ at $9: down 4, up to a king
        # trading again is over: the rules say why, with the card in symbols; nothing changes
        before = SPEC.to_json(match.state)
        await select_by_keys(pilot, table, C("4C"))
        assert table.check_action("buy", ()) is None  # greyed: no buy is legal now
        await pilot.press("b")  # a greyed key changes nothing, and says so
        await pilot.pause()
        assert notes == ["You traded and then changed prices: your trading phase is over (each phase comes "
                         "once a turn, in either order)."] and SPEC.to_json(match.state) == before
        # typed in the command bar, the rules say why
        await pilot.press("colon", *"buy 4C", "enter")
        await pilot.pause()
        assert notes[-1].startswith("You traded and then changed prices: your trading phase is over")
        assert SPEC.to_json(match.state) == before
        # the command bar takes the same commands
        table.command_bar.input.value = ""
        await pilot.press(*"lay 4C", "enter")
        await pilot.pause()
        assert match.history[-1].text == "lay 4C"
        assert table.check_action("lay", ()) is None  # two cards laid
        # undo takes back the lay; the end of the turn draws, and undo is over
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert match.history[-1].text == "lay 9H" and C("4C") in match.state.hands[0]
        await pilot.press("e")
        await pilot.pause()
        assert match.history[2].text == "end"
        assert table.check_action("undo", ()) is None


async def test_the_keys_page_names_up_and_down_as_the_certificate_keys_they_are():
    # ↑ ↓ are the table's priority keys: they move the certificate cursor whatever has the
    # focus, so the keys page names them so, never as the focused hand's or log's keys
    from cardtable.screens.rules import keys_of

    app, table, match, _ = table_at(position(["2D 4C", "4D"], holdings=["7H 5S KD", ""]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("down")
        assert table.certificates.picked == C("5S")
        meanings = [description for keys, description, _ in keys_of(table) if set(keys.split()) & {"↑", "↓"}]
        assert meanings == ["Previous certificate", "Next certificate"]


async def test_s_then_down_in_one_read_sells_the_certificate_picked_when_s_was_typed(tmp_path):
    # keys typed fast (or over a slow connection) come in one read: ↓ is a priority key and
    # moved the cursor at once, before the s typed ahead of it reached the table, which then
    # sold the next certificate (cardtable.app: a priority key waits for the keys before it)
    from monkey_helpers import at_the_table, in_one_read, quiet

    _app, _table, match, _ = table_at(position(["2D 4C", "4D"], holdings=["7H 5S KD", ""]))
    async with at_the_table(tmp_path, match, SMALL) as (app, pilot, table):
        assert table.certificates.picked == C("KD")
        in_one_read(app, ["s", "down"])
        await settle(pilot, lambda: quiet(app) and match.history)
        assert match.history[-1].text == "sell KD"
        assert table.certificates.picked == C("7H")  # and then ↓ moved on from where the sale left it


async def test_a_sale_is_picked_on_the_board_and_one_bought_this_turn_is_refused():
    app, table, match, notes = table_at(position(["2D 4C", "4D"], holdings=["7H 5S KD", ""]))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        certificates = table.certificates
        # by company (♦ ♠ ♥ ♣), each with its value now
        assert certificates.cards == [C("KD"), C("5S"), C("7H")]
        assert str(certificates.render()).startswith("Your certificates: ▶K♦ $40  5♠ $15  7♥ $42")
        await pilot.press("down", "down")
        assert certificates.picked == C("7H")
        await pilot.press("s")
        await pilot.pause()
        assert match.history[-1].text == "sell 7H" and match.state.money[0] == 242
        assert certificates.picked == C("5S")  # the cursor stays near
        # a click picks one
        line = str(certificates.render())
        await pilot.click(certificates, offset=(line.index("K♦"), 0))
        assert certificates.picked == C("KD")
        # a certificate bought this turn cannot be sold this turn
        await select_by_keys(pilot, table, C("2D"))
        await pilot.press("b")
        await pilot.pause()
        await pick_certificate(pilot, table, C("2D"))
        before = SPEC.to_json(match.state)
        await pilot.press("s")
        await pilot.pause()
        assert notes[-1] == "You bought 2♦ this turn; a certificate cannot be sold in the turn it was bought."
        assert SPEC.to_json(match.state) == before


async def test_laying_as_zero_asks_first_naming_every_loss_with_no_as_the_default():
    # ♠ at $3 can be crashed; Ann holds 4 shares of ♠, Bob 7 and 5 (a queen's five)
    data = position(["QS 9S", "4D", "5D"], names=("Ann", "Bob", "Cleo"),
                    holdings=["4S", "7S QS.1", ""])
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert notes_under(table)["Q♠"] == ("$15", "$0!")  # as $12 it is out of range
        await select_by_keys(pilot, table, C("QS"))
        line = table.card_line_text().plain
        assert line.startswith("Q♠: 0 ⚠ $0 bankrupts ♠: Ann loses 4 shares ($12) and Bob loses 12 shares ($36)")
        await pilot.press("0")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert dialog.message.plain == (
            "Lay Q♠ as $0? ♠ goes bankrupt: Ann loses 4 shares ($12) and Bob loses 12 shares "
            "($36). Every ♠ certificate goes to the discard pile, and nobody can buy ♠ until a "
            "number card is laid on it.")
        assert dialog.default is False and dialog.query_one("#confirm-no").has_focus
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is table)
        assert match.history == []
        await pilot.press("0")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot, lambda: bool(match.history))
        assert match.history[-1].text == "lay QS 0"
        assert match.state.holdings == [[], [], []]
        # the sheet marks the bankruptcy: $0, a crash in the chart, and what revives it
        sheet = str(table.sheet.render())
        assert "A–10 revives" in sheet and "×" in sheet
        # and the same turn, a number card revives it
        await select_by_keys(pilot, table, C("9S"))
        await pilot.press("p")
        await pilot.pause()
        assert match.history[-1].text == "lay 9S" and match.state.prices[COMPANIES[1]] == 9


async def test_a_court_card_laid_with_p_goes_at_its_face_value_and_zero_is_refused_for_a_number():
    app, table, match, notes = table_at(position(["QS 2S", "4D"], piles={**PILES, "S": ["9S"]}))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert table.check_action("crash", ()) is None  # ♠ at $9 cannot be crashed: 0 is greyed
        await select_by_keys(pilot, table, C("QS"))
        await pilot.press("0")
        await pilot.pause()
        # greyed, and the rules say why
        assert app.screen is table and match.history == []
        assert notes == ["♠ stands at $9 and may move only from $6 to $13: Q♠ as $0 is out of range."]
        await pilot.press("p")
        await pilot.pause()
        assert match.history[-1].text == "lay QS 12"


async def test_zero_on_a_number_card_gets_the_rules_words_and_no_question():
    # K♣ could crash ♣ at $5, so 0 is live; pressed on the 2♠, the rules say why not
    app, table, match, notes = table_at(position(["KC 2S", "4D"]))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert table.check_action("crash", ()) is True
        await select_by_keys(pilot, table, C("2S"))
        await pilot.press("0")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and match.history == []
        assert notes[-1] == "2♠ sets the price to $2, not $0; only a court card can be laid as $0."
async def test_discard_takes_the_selected_cards_and_ends_the_turn():
    app, table, match, notes = table_at(position(["3C 4C 9H KS 2D", "4D"]), bots=False)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))  # two humans: Ann first
        await pilot.press("enter")
        await settle(pilot, lambda: table.viewer == 0)
        assert table.check_action("discard", ()) is True
        await pilot.press("d")
        assert notes[-1].startswith("Select the cards to discard")
        await select_by_click(pilot, table, [C("4C"), C("3C")])
        assert table.card_line_text().plain == "3♣ 4♣: d discards them and ends your turn"
        await pilot.press("d")
        await pilot.pause()
        assert match.history[0].text == "discard 3C 4C"
        assert len(match.state.hands[0]) == 8  # refilled
        # Bob is another human: behind the curtain every key is greyed
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        assert all(table.check_action(key, ()) is None
                   for key in ("buy", "sell", "lay", "crash", "discard", "end_turn"))


async def test_keys_are_live_only_for_what_the_rules_allow():
    app, table, match, notes = table_at(position(["2D 3D 7D KH", "4C"], money=[10, 200]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        live = {key: table.check_action(key, ()) for key in ("buy", "sell", "lay", "crash", "discard", "end_turn")}
        # $10 buys nothing (2♦ at $8 costs $16); 7♦ lays, K♥ neither lays nor crashes ♥ at $6
        assert live == {"buy": None, "sell": None, "lay": True, "crash": None, "discard": True, "end_turn": True}
        assert "Lay $0" in await on_screen(pilot)  # greyed, never hidden: the footer shows every key


async def test_the_board_shows_debt_the_bank_the_stock_and_the_jokers():
    data = position(["2D", "4C"], holdings=["7H", ""], money=[0, 5], debt=[40, 0], bank=20,
                    discard="9C")
    data["stock"].insert(3, "JK")
    data["aside"] = ["JK.1"]
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = await on_screen(pilot)
        assert "Debt" in text and "−$40" in text
        assert f"Bank $20 · Stock {len(data['stock'])} with 1 joker! · Discard 9♣" in text
        holdings = str(table.holdings.render())
        assert "$2" in holdings  # Ann's worth: $0 + 7 × $6 − $40


async def test_six_players_fit_at_80x24_and_the_board_needs_no_scrollbar():
    names = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Fay")
    match = Match(SPEC, [Seat("Ann")] + [Seat(n, "bot") for n in names[1:]], seed=4)
    while match.awaiting != {0} or len(match.history) < 30:
        match.submit(*bot_choice(match, BOT, chance(4, len(match.history))))
    assert not match.over
    for size in (SMALL, LARGE):
        table = StockMarketTable(match, None, None, Settings(bot_delay=0))
        app = TableApp(table)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = table.query_one("#board")
            assert board.max_scroll_y == 0, f"the board scrolls at {size}"
            for name in names:
                assert name in str(table.holdings.render())
            for widget in ("#card-line", "#hand-notes", "#phase-line", "#table-line"):
                region = table.query_one(widget).region
                assert region.height >= 1 and region.bottom <= size[1], widget
            # the chart has a line per company per chart_height
            assert table.sheet.chart_height == (1 if size == SMALL else 2)


def in_cells(line: str) -> str:
    """``line`` with each character as many times as the cells it takes (a Chinese character
    two): an index into the result is a column on the screen."""
    return "".join(char * cell_len(char) for char in line)


# a long name (40 characters, the most there may be), markup, wide characters, a short one
ALIGN_NAMES = ("Ann", "Bob [kid]", "Maximilian Alexander von Habsburg-Lothri", "李雷", "Zoë", "[/]")


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_the_holdings_columns_line_up_whatever_the_names(size, players):
    names = ALIGN_NAMES[:players] if players == 6 else ALIGN_NAMES[1:4]
    match = Match(SPEC, [Seat(names[0])] + [Seat(n, "bot") for n in names[1:]], seed=4)
    while match.awaiting != {0} or len(match.history) < 30:
        match.submit(*bot_choice(match, BOT, chance(4, len(match.history))))
    table = StockMarketTable(match, None, None, Settings(bot_delay=0))
    async with TableApp(table).run_test(size=size) as pilot:
        await pilot.pause()
        holdings, view = table.holdings, table.view
        rows = [in_cells(line) for line in str(holdings.render()).split("\n")]
        assert len(rows) == 1 + players and all(len(row) <= holdings.size.width for row in rows)
        header = rows[0]
        assert header.startswith("Player") and "Debt" not in header
        # each column's words end on one screen column, on every row: under its header
        ends = {word.group(): word.end() for word in re.finditer(r"\S+", header)}
        order = ["Money", *(suit.symbol for suit in COMPANIES), "Shares", "Worth"]
        value_ends: dict[str, set[int]] = {suit.symbol: set() for suit in COMPANIES}
        for seat, row in enumerate(rows[1:]):
            expected = {"Money": money(view.money[seat]), "Shares": money(holding_value(view, seat)),
                        "Worth": money(worth(view, seat))}
            for suit in COMPANIES:
                expected[suit.symbol] = str(held_shares(view.holdings[seat], suit) or "·")
            starts = {}
            for column in order:
                text, end = expected[column], ends[column]
                assert row[end - len(text) - 1:end] == " " + text, (seat, column, row)
                assert row[end:end + 1] in ("", " "), (seat, column, row)
                starts[column] = end - len(text)
            # a company's shares have their value beside them where the width allows
            for suit, after in zip(COMPANIES, order[2:]):
                value = re.compile(r" +\$[\d,]+").match(row, ends[suit.symbol])
                if value and value.end() < starts[after]:
                    value_ends[suit.symbol].add(value.end())
        # and those values line up too: one end for each company
        assert all(len(found) <= 1 for found in value_ends.values()), (value_ends, rows)
        assert any(value_ends.values()) == (size == LARGE)  # at 120 columns there is room for them
        # the names as typed, as far as the column lets them go; a bot keeps its "(bot)"
        for seat, (name, row) in enumerate(zip(names, rows[1:])):
            label = row[2:ends["Money"] - len(money(view.money[seat]))].rstrip()
            shown = label.removesuffix(" (bot)")
            assert (seat == 0) != label.endswith(" (bot)")
            assert shown == in_cells(name) or (shown.endswith("…") and in_cells(name).startswith(shown[:-1]))
        if size == LARGE:
            assert all(in_cells(name) in "\n".join(rows) for name in names if len(name) < 30)


async def test_a_resumed_game_shows_the_saved_position(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Cleo", "bot")], seed=GAME_SEED)
    while match.awaiting != {0} or len(match.history) < 12:
        match.submit(*bot_choice(match, BOT, chance(GAME_SEED, len(match.history))))
    game_id = store.create(match)
    resumed = store.load(game_id)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=resumed, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = the_table(app)
        assert table.viewer == 0 and table.my_turn
        assert table.holdings.view.money == tuple(match.state.money)
        assert set(table.hand.cards) == set(match.state.hands[0])
        assert [c.history for c in table.sheet.view.companies] == [
            tuple(match.state.history[suit]) for suit in COMPANIES]
        before = len(resumed.history)
        await pilot.press("e")
        await pilot.pause()
        assert store.load(game_id).history[before].text == "end"


# -- the charts ------------------------------------------------------------------------------

def test_a_chart_gives_each_turn_columns_while_they_fit_and_shares_them_out_after():
    history = [(0, 6), (2, 9), (3, 0), (3, 4), (5, 13)]
    # one column a turn (turns 0–5), three columns each while there is room
    assert chart_prices(history, 5, 6) == [6, 6, 9, 0, 4, 13]
    assert chart_prices(history, 5, 18) == [6] * 6 + [9] * 3 + [0] * 3 + [4] * 3 + [13] * 3
    # 12 turns in 4 columns: the crash in turns 3–5 is not hidden by the revival
    assert chart_prices(history, 11, 4) == [9, 0, 13, 13]
    # a company that stays bankrupt shows the crash until revived
    assert chart_prices([(0, 5), (1, 0)], 3, 4) == [5, 0, 0, 0]
    assert chart_rows([0, 1, 6, 13]) == ["×▁▄█"]
    assert chart_rows([0, 1, 6, 13], rows=2) == ["   █", "×▁▇█"]
