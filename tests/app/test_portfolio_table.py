"""The Portfolio table through Pilot: a whole game of two humans and a bot played with the keys
(the draw dialog, make/extend/cap/neutralise/acquire from a selection, discards, one deal), the
curtain at every hand-off, and the numbers the table shows — the draw dialog's costs, a
portfolio's price — and a refusal that changes nothing."""

from __future__ import annotations

from rules.core.offers import Offer, Side

import re

import pytest
from textual.app import App

import rules
from rules.core import Card, Match, Seat, chance, get_bot
from rules.portfolio.commands import (
    Accept, Acquire, Cap, Decline, Discard, Draw, End, Extend, Make, Neutralise, Pauper,
)
from rules.portfolio.state import ACT, DRAW, RESPOND

from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.handoff import HandoffScreen
from cardtable.games.portfolio.dialogs import DealAnswer, DealDialog, DrawDialog
from cardtable.games.portfolio.table import PortfolioTable
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from cardtable.widgets import CardWidget, HandWidget, card_text
from cardtable.games.portfolio.board import PortfolioBoard
from pilot_helpers import record_notes, screen_text, settle
from game_helpers import bot_choice

SPEC = rules.find_game("portfolio")
BOT = get_bot(SPEC, "bot")
SMALL = (80, 24)
# a short game (87 commands, 64 of them the humans') in which the humans play every kind of
# command there is a key for
FULL_GAME_SEED = 31


async def on_screen(pilot) -> str:
    """What is on screen once it is drawn, as the SVG screenshot shows it."""
    await pilot.pause()
    return screen_text(pilot.app)


def faces_in(text: str, cards) -> list[str]:
    return [card_text(card).plain for card in cards if card_text(card).plain in text]


# -- driving the table as a player would ----------------------------------------------------

async def select(pilot, table: PortfolioTable, cards) -> None:
    """Select exactly ``cards`` in the hand by clicking them."""
    hand = table.hand
    hand.clear_selection()
    widgets = {widget.card: widget for widget in hand.query(CardWidget)}
    for card in cards:
        await pilot.click(widgets[card])
    assert set(hand.selected) == set(cards) and hand.has_focus


async def select_with_keys(pilot, table: PortfolioTable, cards) -> None:
    """Select exactly ``cards`` in the hand with the cursor keys and space."""
    hand = table.hand
    hand.clear_selection()
    for card in cards:
        index = hand.cards.index(card)
        await pilot.press("home", *["right"] * index, "space")
    assert set(hand.selected) == set(cards)


async def point_at(pilot, table: PortfolioTable, pid: str) -> None:
    """Move the board's cursor to ``pid`` with the arrow keys."""
    board = table.board
    order = board.order()
    step = "down" if order.index(pid) > order.index(board.selected) else "up"
    while board.selected != pid:
        await pilot.press(step)
    assert pid in str(board.render())


async def draw_with_dialog(pilot, command) -> None:
    dialog = pilot.app.screen
    assert isinstance(dialog, DrawDialog)
    if isinstance(command, Draw) and command.count > 1:
        await pilot.press(str(command.count))
    if command.discard:
        await pilot.press("t")
    assert dialog.command == command
    await pilot.press("enter")


async def act_with_keys(pilot, table: PortfolioTable, command) -> None:
    """Play one command of the act phase with the table's keys."""
    match command:
        case Make(cards):
            await select(pilot, table, cards)
            await pilot.press("m")
        case Extend(pid, card) | Cap(pid, _, card):
            await select(pilot, table, [card])
            await point_at(pilot, table, pid)
            await pilot.press("e" if isinstance(command, Extend) else "c")
        case Neutralise(pid, card) | Acquire(pid, card):
            await select(pilot, table, [card])
            await point_at(pilot, table, pid)
            await pilot.press("x" if isinstance(command, Neutralise) else "a")
            await settle(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
            assert f"{pid} from" in str(pilot.app.screen.message)
            await pilot.press("y")
        case Discard(card):
            await select(pilot, table, [card])
            await pilot.press("backspace")
        case End():
            await pilot.press("enter")
        case _:
            pytest.fail(f"no key plays {command!r}")


async def offer_a_deal(pilot, table: PortfolioTable, match: Match) -> tuple[Card, int]:
    """Ann offers Bob her first card for $1 (or as a gift if Bob has nothing) with the dialog."""
    await pilot.press("o")
    await settle(pilot, lambda: isinstance(pilot.app.screen, DealDialog))
    dialog = pilot.app.screen
    assert dialog.names[dialog.counterparty] == "Bob"
    card_widget = dialog.query_one("#deal-hand", HandWidget).query(CardWidget).first()
    await pilot.click(card_widget)
    price = 1 if match.state.money[1] >= 1 else 0
    if price:
        await pilot.click("#deal-take-money")
        await pilot.press("1")
    expected = Offer(1, Side(cards=(card_widget.card,)), Side(money=price))
    assert dialog.command == expected
    # the preview says it in words
    assert f"Bob gets {card_widget.card.symbol}; you get {'$1' if price else 'nothing'}" in await on_screen(pilot)
    await pilot.press("ctrl+o")
    return card_widget.card, price


def human_choice(match: Match):
    """What a human plays: as the bot would, but drawing as many cards as this turn's income
    pays for (a legal choice that keeps the game short)."""
    if match.state.phase == DRAW:
        draws = [c for c in match.legal(min(match.awaiting)) if isinstance(c, (Draw, Pauper))]
        return max(draws, key=lambda c: (getattr(c, "count", 2), not c.discard))
    return bot_choice(match, BOT, chance(FULL_GAME_SEED, len(match.history)))[1]


async def check_curtain(pilot, table: PortfolioTable, match: Match) -> None:
    """Nothing private is on screen while the curtain is up."""
    assert table.viewer is None
    assert table.hand.cards == () and not table.hand.query(CardWidget)
    text = await on_screen(pilot)
    assert "Pass to" in text
    for seat in table.humans:
        assert faces_in(text, match.state.hands[seat]) == []


async def test_a_whole_game_of_two_humans_and_a_bot_through_the_keys(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot")], seed=FULL_GAME_SEED)
    game_id = store.create(match)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    curtains = deal = 0
    # the deal: the card Ann gives, the price she asks, the money before it
    given, price, money = None, 0, list(match.state.money)
    played: set[type] = set()
    async with app.run_test(size=SMALL) as pilot:
        table = next(s for s in app.screen_stack if isinstance(s, PortfolioTable))

        def ready() -> bool:
            screen = app.screen
            if match.over or isinstance(screen, HandoffScreen):
                return True
            seat = min(match.awaiting)
            if table.viewer != seat or match.seats[seat].bot:
                return False
            phase = match.state.phase
            return (isinstance(screen, DrawDialog) if phase == DRAW else
                    isinstance(screen, DealAnswer) if phase == RESPOND else screen is table)

        for _ in range(400):
            await settle(pilot, ready)
            if match.over:
                break
            if isinstance(app.screen, HandoffScreen):
                await check_curtain(pilot, table, match)
                curtains += 1
                await pilot.press("enter")
                continue
            seat, state, before = min(match.awaiting), match.state, len(match.history)
            if state.phase == RESPOND:
                # the other human answers the deal after the curtain, seeing it in full
                assert "gives you" in await on_screen(pilot) and seat == 1
                await pilot.press("y")
                await settle(pilot, lambda: len(match.history) > before)
                assert isinstance(match.history[-1].command, Accept)
                assert given in match.state.hands[1] and given not in match.state.hands[0]
                assert match.state.money[:2] == [money[0] + price, money[1] - price]
                deal = 2
                continue
            if state.phase == ACT and seat == 0 and not deal and state.turns >= 4:
                money = list(match.state.money)
                given, price = await offer_a_deal(pilot, table, match)
                await settle(pilot, lambda: len(match.history) > before)
                assert match.history[-1].text.startswith("offer 2:")  # saved by seat number
                deal = 1
                continue
            command = human_choice(match)
            if state.phase == DRAW:
                await draw_with_dialog(pilot, command)
            else:
                await act_with_keys(pilot, table, command)
            await settle(pilot, lambda: len(match.history) > before)
            assert match.history[before].command == command and match.history[before].seat == seat
            played.add(type(command))

        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
    assert match.over and deal == 2
    # a curtain every time the awaited human changed (and one to start)
    humans = [played.seat for played in match.history if played.seat in (0, 1)]
    assert curtains == 1 + sum(a != b for a, b in zip(humans, humans[1:]))
    assert {Draw, Make, Extend, Cap, Neutralise, Acquire, Discard} <= played
    info = next(info for info in store.list() if info.id == game_id)
    assert info.finished and info.turn == match.turn


# -- the numbers on the table ---------------------------------------------------------------

class TableApp(App[None]):
    def __init__(self, table: PortfolioTable) -> None:
        super().__init__()
        self.table = table

    def on_mount(self) -> None:
        self.push_screen(self.table)


def position(seed: int = 3, **changes) -> dict:
    """A 3-player position from a seeded deal, with ``portfolios`` given as
    (owner, [faces]) and ``give`` as (seat, [faces]): each face is taken from the stock, or
    else from a bot's hand (Ann's hand and the discard pile stay as dealt)."""
    match = Match(SPEC, [Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "bot")], seed=seed)
    data = SPEC.to_json(match.state)

    def take(face: str) -> str:
        for zone in (data["stock"], data["hands"][2], data["hands"][1]):
            for key in zone:
                if key.split(".")[0] == face:
                    zone.remove(key)
                    return key
        raise AssertionError(f"no {face} left outside Ann's hand in seed {seed}")

    for number, (owner, faces) in enumerate(changes.pop("portfolios", ()), 1):
        data["portfolios"].append({"pid": f"P{number}", "owner": owner, "cards": [take(f) for f in faces]})
        data["next_pid"] = number + 1
    for seat, faces in changes.pop("give", ()):
        data["hands"][seat] += [take(face) for face in faces]
    data.update(changes)
    return data


def table_at(data: dict) -> tuple[TableApp, PortfolioTable, Match, list[str]]:
    match = Match(SPEC, [Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "bot")], seed=3)
    match.state = SPEC.from_json(data)
    table = PortfolioTable(match, None, None, Settings(bot_delay=0))
    notes = record_notes(table)
    return TableApp(table), table, match, notes


async def test_the_draw_dialog_shows_what_each_draw_costs_and_banks(tmp_path):
    # Ann's 7♠–J♠ pays $10 (the 9, 10 and J count); her turn has just started
    data = position(portfolios=[(0, ["7S", "8S", "9S", "10S", "JS"])], turn_income=10, money=[16, 6, 6])
    app, table, match, _ = table_at(data)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, DrawDialog))  # opened by itself
        dialog = app.screen
        text = await on_screen(pilot)
        assert "Income this turn: $10" in text
        rows = [re.sub(r"\s+", " ", str(option.prompt)).strip()
                for option in dialog.query_one("#draw-counts").options]
        assert rows == ["1 card costs $0 banks $10", "2 cards costs $2 banks $8",
                        "3 cards costs $5 banks $5", "4 cards costs $9 banks $1"]
        await pilot.press("5")  # more than the income pays for: the rules say so, nothing moves
        assert "Drawing 5 cards costs $14, but this turn's income is $10 (savings cannot" in await on_screen(pilot)
        assert dialog.command == Draw(1)
        await pilot.press("3", "t")
        top = card_text(match.state.discard[-1]).plain
        summary = await on_screen(pilot)
        assert f"You draw {top} (discard) + 2 from the stock, pay $5 and bank $5." in summary
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is table
        assert match.history[-1].text == "draw 3 +discard" and match.state.money[0] == 11
        # the dialog does not come back by itself once the cards are drawn; d is greyed out
        assert table.check_action("draw", ()) is False


async def test_the_pauper_draws_two_for_nothing(tmp_path):
    data = position()
    data["hands"][0] = data["hands"][0][:12]
    data["pauper"] = True
    app, table, match, _ = table_at(data)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, DrawDialog))
        assert "Pauper's rule" in await on_screen(pilot)
        assert app.screen.command == Pauper(False)
        await pilot.press("3")
        assert "a pauper draws exactly two cards" in await on_screen(pilot)
        assert app.screen.command == Pauper(False)
        await pilot.press("enter")
        await pilot.pause()
        assert match.history[-1].text == "pauper" and len(match.state.hands[0]) == 14


async def test_a_selected_portfolio_shows_its_price_and_a_refusal_changes_nothing(tmp_path):
    # Bob's 3♣–6♣ is worth $4: 2♣ neutralises it for $4, 7♣ acquires it for $8; Ann has $6
    data = position(portfolios=[(1, ["3C", "4C", "5C", "6C"])], give=[(0, ["2C", "7C"])],
                    phase="act", money=[6, 6, 6])
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        board = table.query_one(PortfolioBoard)
        assert board.selected == "P1"
        shown = await on_screen(pilot)
        assert "neutralise: 2♣ $4 · acquire: 7♣ $8" in shown
        hand = table.query_one(HandWidget)
        two, seven = (next(c for c in hand.cards if c.code == code) for code in ("2C", "7C"))
        assert "neutralise P1 for $4" in hand.marks[two.key]
        assert seven.key not in hand.marks  # $8 is more than Ann has

        before = SPEC.to_json(match.state)
        await select(pilot, table, [seven])
        assert "◀" not in str(board.render())  # Ann cannot afford to play it anywhere
        assert table.check_action("acquire", ()) is None  # greyed: no acquisition is legal now
        await pilot.press("a")  # the greyed key says why, in the rules' words
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert notes == ["You need $8 to acquire P1; you have $6."]
        # typed in the command bar instead, the rules say the same
        await pilot.press("colon")
        await pilot.press(*f"acquire P1 {seven.key}", "enter")
        await pilot.pause()
        assert notes[-1] == "You need $8 to acquire P1; you have $6." and len(notes) == 2
        assert "You need $8 to acquire P1" in await on_screen(pilot)
        assert SPEC.to_json(match.state) == before and match.history == []
        await pilot.press("escape")

        await select(pilot, table, [two])
        assert "◀ 2♣ neutralises" in str(board.render())  # the board points at where it fits
        await pilot.press("x")
        await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.message == "Neutralise P1 from Bob with 2♣ for $4?"
        await pilot.press("y")
        await settle(pilot, lambda: bool(match.history))
        assert match.history[-1].text == f"neutralise P1 {two.key}"
        assert match.state.money[0] == 2 and match.state.portfolios == []


async def test_extend_and_cap_follow_the_selected_portfolio(tmp_path):
    # Ann owns two spade runs that 10♠ could both extend: the board's cursor decides
    data = position(portfolios=[(0, ["7S", "8S", "9S"]), (0, ["JS", "QS", "KS"])],
                    give=[(0, ["10S", "10C"])], phase="act")
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        hand = table.query_one(HandWidget)
        ten = next(c for c in hand.cards if c.code == "10S")
        await select_with_keys(pilot, table, [ten])
        await point_at(pilot, table, "P2")
        await pilot.press("e")
        await pilot.pause()
        assert match.history[-1].text == f"extend P2 {ten.key}"
        # 10♣ caps P2's new low end (10♠ … K♠): the end is read from the rank
        cap = next(c for c in hand.cards if c.code == "10C")
        await select(pilot, table, [cap])
        await pilot.press("c")
        await pilot.pause()
        assert match.history[-1].text == f"cap P2 low {cap.key}"
        assert "capped low" in str(table.board.render())
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert match.history[-1].text == f"extend P2 {ten.key}"
        # a click on a portfolio's line selects it
        board = table.board
        row = next(number for number, line in enumerate(str(board.render()).splitlines()) if " P1 " in line)
        await pilot.click(board, offset=(6, row))
        assert board.selected == "P1"


async def test_a_played_out_hand_ends_the_turn_with_enter(tmp_path):
    # Ann's last card is the 10♠ that extends her 7♠–9♠
    data = position(portfolios=[(0, ["7S", "8S", "9S"])], give=[(0, ["10S"])], phase="act")
    data["hands"][0] = data["hands"][0][-1:]
    app, table, match, _ = table_at(data)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert table.check_action("end_turn", ()) is False  # a card in hand: discard instead
        await select(pilot, table, list(table.hand.cards))
        await pilot.press("e")
        await pilot.pause()
        assert match.state.hands[0] == []
        assert table.check_action("end_turn", ()) is True and table.check_action("discard", ()) is False
        assert "End turn" in await on_screen(pilot)
        await pilot.press("enter")
        await pilot.pause()
        ten = data["hands"][0][0]
        assert [played.text for played in match.history[:2]] == [f"extend P1 {ten}", "end"]


async def test_names_with_spaces_work_in_offers_the_dialog_and_the_answer(tmp_path):
    match = Match(SPEC, [Seat("Ann Lee"), Seat("Bob van Dam"), Seat("Cleo", "bot")], seed=3)
    data = SPEC.to_json(match.state)
    data.update(phase="act")
    match.state = SPEC.from_json(data)
    table = PortfolioTable(match, None, None, Settings(bot_delay=0))
    app = TableApp(table)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is table and table.viewer == 0)
        card = table.hand.cards[0]
        await pilot.press("colon")
        await pilot.press(*f"offer bob van dam: give {card.key}", "enter")
        await settle(pilot, lambda: bool(match.history))
        offered = match.history[-1].command
        assert offered == Offer(1, Side(cards=(card,)))
        assert match.history[-1].text == f"offer 2: give {card.key}"
        # the curtain calls Bob van Dam, who sees the offer in full and accepts
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        assert "Pass to Bob van Dam" in await on_screen(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, DealAnswer))
        assert "Ann Lee gives you" in await on_screen(pilot)
        await pilot.press("y")
        await settle(pilot, lambda: isinstance(match.history[-1].command, Accept))
        assert card in match.state.hands[1]


async def test_names_that_look_like_markup_are_shown_as_typed(tmp_path):
    """Two humans and a bot called like markup play a draw, a deal offered with the dialog and
    declined, discards and the bot's turn through the table: every name is on screen exactly as
    typed (nothing read as markup, nothing run), and the app goes on."""
    names = ("[/]", "Bob [kid]", "[@click=app.quit]")
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat(names[0]), Seat(names[1]), Seat(names[2], "bot")], seed=3)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=SMALL) as pilot:
        table = next(s for s in app.screen_stack if isinstance(s, PortfolioTable))

        async def lift_curtain_for(seat: int) -> None:
            await settle(pilot, lambda: isinstance(app.screen, HandoffScreen)
                         and app.screen.player == names[seat])
            assert f"Pass to {names[seat]}" in await on_screen(pilot)
            await pilot.press("enter")

        async def draw_one(seat: int) -> None:
            await settle(pilot, lambda: isinstance(app.screen, DrawDialog))
            assert f"{names[seat]}: draw" in await on_screen(pilot)
            await pilot.press("enter")
            await settle(pilot, lambda: app.screen is table and match.state.phase == ACT)

        async def discard_first(seat: int) -> None:
            before = len(match.history)
            await select(pilot, table, [table.hand.cards[0]])
            await pilot.press("backspace")
            await settle(pilot, lambda: len(match.history) > before)
            assert isinstance(match.history[before].command, Discard) and match.history[before].seat == seat

        await lift_curtain_for(0)
        await draw_one(0)
        shown = await on_screen(pilot)
        assert f"Your move, {names[0]}." in shown
        assert all(name in shown for name in names)  # the board names every player
        assert f"{names[0]}: draw 1" in shown  # the log

        # a deal for Bob [kid], with the dialog: the players to choose from are named as typed
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, DealDialog))
        shown = await on_screen(pilot)
        assert f"{names[0]}: offer a deal" in shown and names[1] in shown and names[2] in shown
        await pilot.click(app.screen.query_one("#deal-hand", HandWidget).query(CardWidget).first())
        assert f"Offer: {names[1]} gets" in await on_screen(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot, lambda: match.state.phase == RESPOND)
        assert match.history[-1].text.startswith("offer 2:")

        await lift_curtain_for(1)
        await settle(pilot, lambda: isinstance(app.screen, DealAnswer))
        shown = await on_screen(pilot)
        assert f"{names[1]}: a deal from {names[0]}" in shown and f"{names[0]} gives you" in shown
        await pilot.press("n")
        await settle(pilot, lambda: match.state.phase == ACT)

        await lift_curtain_for(0)
        await settle(pilot, lambda: app.screen is table and table.viewer == 0)
        shown = await on_screen(pilot)
        assert f"{names[0]}: offer {names[1]}: give" in shown  # the log writes the player by name
        assert f"{names[1]}: decline" in shown and f"{names[1]} declines {names[0]}'s" in shown
        await discard_first(0)
        await lift_curtain_for(1)
        await draw_one(1)
        await discard_first(1)
        # the bot plays its turn; then the curtain calls the first player again, to draw
        await lift_curtain_for(0)
        await settle(pilot, lambda: isinstance(app.screen, DrawDialog))
        await pilot.press("escape")  # not now: a look at the table first
        await settle(pilot, lambda: app.screen is table and table.viewer == 0)
        shown = await on_screen(pilot)
        assert f"{names[2]}: draw 1" in shown and f"{names[2]}: discard" in shown  # the bot's turn
        assert any(played.seat == 2 for played in match.history)
        assert app.is_running and app.screen is table


async def test_a_key_that_does_nothing_says_why_in_the_rules_words(tmp_path):
    """Every key of the game that cannot act now says why on the spot, the rules' refusal where
    there is one: before the draw, after the one offer of the turn, with cards still in hand,
    with no offer to answer, with no card that fits. Nothing changes."""
    data = position(portfolios=[(1, ["3C", "4C", "5C", "6C"])], give=[(0, ["KD"])], turn_income=0,
                    money=[6, 6, 6])
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, DrawDialog))
        await pilot.press("escape")  # not now: the keys of the table first
        await settle(pilot, lambda: app.screen is table)

        async def press(key: str) -> str:
            count = len(notes)
            await pilot.press(key)
            await settle(pilot, lambda: len(notes) > count)
            return notes[-1]

        # before the draw every key of the turn waits for it (Enter is hidden, ⌫ too)
        for key in ("m", "o", "enter", "backspace"):
            assert await press(key) == "Ann must first choose how many cards to draw."
        await pilot.press("d")
        await settle(pilot, lambda: isinstance(app.screen, DrawDialog))
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is table and match.state.phase == ACT)
        assert await press("d") == "Ann has already drawn this turn."
        assert await press("y") == "There is no offer to answer."
        assert await press("enter") == "You still hold cards: end the turn by discarding one."
        assert await press("e") == "No card in your hand can extend a portfolio now."
        king = next(card for card in table.hand.cards if card.code == "KD")
        await select(pilot, table, [king])  # Bob's P1 is the board's
        assert await press("x") == "Only 2♣ neutralises P1 (3♣–6♣), not K♦."
        assert await press("c") == "P1 belongs to Bob; you can only cap your own portfolios."

        # one offer a turn: Bob declines (a bot), and o says why it is greyed now
        assert table.check_action("offer", ()) is True
        match.submit(0, Offer(1, Side(money=1), Side(holdings=("P1",))))
        await settle(pilot, lambda: match.state.phase == ACT and len(match.history) == 3)
        assert table.check_action("offer", ()) is None
        assert await press("o") == "You have already made an offer this turn; one offer per turn."
        assert not isinstance(app.screen, DealDialog)
    assert [type(played.command) for played in match.history] == [Draw, Offer, Decline]


async def test_the_offer_key_is_live_while_the_rules_take_an_offer_that_legal_does_not_list(tmp_path):
    """Nobody has money and no portfolio is on the table: legal lists no offer (it lists a few),
    yet a gift or a card asked for is a deal the rules take, so o opens the dialog."""
    data = position(phase="act", money=[0, 0, 0])
    app, table, match, notes = table_at(data)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot, lambda: app.screen is table and table.viewer == 0)
        assert not any(isinstance(command, Offer) for command in table.legal)
        assert table.check_action("offer", ()) is True
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, DealDialog))
        assert notes == []
