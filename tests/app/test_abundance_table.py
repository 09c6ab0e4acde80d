"""The Abundance table through Pilot: whole seeded matches played with the table's keys (two
humans sharing the screen, the curtain calling each to a sealed bid and hiding the other's; and
one against the bot), then each key, the trade dialog, the refusals, undo, the sales sheet and
the rubber's results on their own."""

from __future__ import annotations

import pytest

import rules
from rules.abundance.commands import Accept, Bid, ChoosePile, Decline, Offer, Pass, Ready, SealedBid, Side
from rules.core import Card, Match, Seat

from cardtable.app import CardtableApp
from cardtable.games.abundance.dialogs import OfferDialog
from cardtable.games.abundance.sales import SalesScreen
from cardtable.games.abundance.table import AbundanceTable
from cardtable.store import SaveStore
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from cardtable.widgets.words import MONEY_STYLE, NAME_STYLE
from pilot_helpers import keys, record_notes, screen_text, settle, TableApp, until

SPEC = rules.find_game("abundance")
SMALL, LARGE = (80, 24), (120, 40)
TWO_HUMANS_SEED = 4  # pinned: a two-rubber match of about 420 commands under the policy below
BOT_SEED = 2


# -- driving the table as players would -------------------------------------------------------





def card_number(state) -> int:
    """The place (1-12) in its round of the card on the block."""
    return 12 - len(state.piles[state.chosen[-1] - 1])


def amount_keys(amount: int) -> list[str]:
    return [*str(amount), "enter"]


class Policy:
    """The humans' moves, chosen from the position so that auctions end quickly (passes, an
    opening bid now and then, small sealed bids with ties) and trade windows close at once —
    except for one offer accepted and one declined — and carried out with the table's keys."""

    def __init__(self) -> None:
        self.offers = 0  # offers made so far (Ann's accepted, Bob's declined)

    def keys(self, match: Match, seat: int) -> tuple[list[str], object]:
        """(keys to press, the command they should play)."""
        state = match.state
        money = state.money[seat]
        if state.phase == "choose":
            pile = state.available[-1]
            return [str(pile)], ChoosePile(pile)
        if state.phase == "sealed":
            number = card_number(state)
            amount = min(money, number % 3 if seat == 0 else number % 2)
            return (["p"] if amount == 0 else amount_keys(amount)), SealedBid(amount)
        if state.phase == "auction":
            auction, number = state.auction, card_number(state)
            if auction.high == 0 and number % 4 == 1 and money >= 6:
                return ["right", "enter"], Bid(6)  # the least bid (1) raised by 5
            if auction.high == 0 and number % 4 == 2 and money >= 12:
                return amount_keys(12), Bid(12)  # typed
            return ["p"], Pass()
        # a trade window
        if state.offer is not None:
            accept = state.offer.proposer == 0
            return ["y" if accept else "n"], Accept() if accept else Decline()
        other = 1 - seat
        if (self.offers == seat and not state.offered[seat] and state.trinkets[seat]
                and state.money[other] >= 1 and state.round == 1 + 2 * seat):
            return ["o"], "offer"
        return ["r"], Ready()


async def make_offer(pilot, table: AbundanceTable, match: Match, seat: int) -> Offer:
    """The viewer offers the first of their trinkets for $1, with the dialog's keys."""
    await settle(pilot, lambda: isinstance(pilot.app.screen, OfferDialog))
    dialog = pilot.app.screen
    await pilot.press("space")  # ticks the first trinket of the "you give" list (focused)
    await pilot.click("#offer-take-money")
    await pilot.press("1")
    first = sorted(match.state.trinkets[seat], key=Card.sort_key)[0]
    other = match.names[1 - seat]
    expected = Offer(None, Side(cards=(first,)), Side(money=1))
    assert dialog.command == expected
    text = screen_text(pilot.app)
    assert f"{other} gets {first.symbol}; you get $1" in text and "At today's prices" in text
    await pilot.press("ctrl+o")
    return expected


def sealed_bid_now(match: Match, seat: int) -> int | None:
    sealed = match.state.sealed
    return None if sealed is None else sealed.bids.get(seat)


async def check_bob_cannot_learn_anns_bid(pilot, table: AbundanceTable, match: Match) -> None:
    """Bob, behind whom Ann has sealed her bid: the screen (table, log, lit and greyed keys) is
    the same whatever Ann bid, and the log says only that she has bid."""
    assert table.viewer == 1 and sealed_bid_now(match, 0) is not None
    assert table.game_log.plain[-2:] == ["Ann: (in secret)", "  Ann has bid."]
    shown = screen_text(pilot.app)
    real = match.state.sealed.bids[0]
    for other in (real + 7, 0):
        match.state.sealed.bids[0] = other
        match._cache.clear()
        table.refresh_table()
        await pilot.pause()
        assert screen_text(pilot.app) == shown, f"Bob's screen changed with Ann's bid ({real} → {other})"
    match.state.sealed.bids[0] = real
    match._cache.clear()
    table.refresh_table()
    await pilot.pause()


def the_table(app) -> AbundanceTable:
    return next(screen for screen in app.screen_stack if isinstance(screen, AbundanceTable))


# -- whole matches ------------------------------------------------------------------------------

async def test_a_whole_match_of_two_humans_through_the_keys(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=TWO_HUMANS_SEED)
    game_id = store.create(match)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    policy = Policy()
    curtains: list[str] = []  # the phase behind each curtain
    rubber_screens = 0
    played: set[type] = set()
    at_the_keys: int | None = None  # who had the table last: the keys never pass without the curtain
    bob_behind_ann = 0  # Bob's sealed bids made behind the curtain after Ann's, which he cannot learn
    async with app.run_test(size=SMALL) as pilot:
        table = the_table(app)

        def ready() -> bool:
            screen = app.screen
            if match.over or isinstance(screen, (HandoffScreen, SalesScreen)):
                return True
            return screen is table and table.viewer is not None and table.viewer in match.awaiting

        for _ in range(1200):
            await until(pilot, ready)
            if match.over:
                break
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                # the curtain, whenever the keys pass from one player to the other: nothing of
                # the table behind it
                state = match.state
                curtains.append(state.phase if match.history else "start")
                assert table.viewer is None
                await pilot.pause()  # drawn
                text = screen_text(app)
                assert "Pass to" in text and "in secret" not in text and "Sealed:" not in text
                await keys(pilot, "enter")
                await until(pilot, lambda: table.viewer is not None)
                at_the_keys = table.viewer
                if state.phase == "sealed" and table.viewer == 1:
                    await check_bob_cannot_learn_anns_bid(pilot, table, match)
                    bob_behind_ann += 1
                continue
            if isinstance(screen, SalesScreen):
                rubber_screens += 1
                await pilot.pause()
                assert "Rubber 1 is over" in screen_text(app) and match.state.rubber == 2
                await keys(pilot, "enter")
                continue
            seat, before = table.viewer, len(match.history)
            assert seat == at_the_keys, "the keys passed to the other player without the curtain"
            pressed, expected = policy.keys(match, seat)
            await keys(pilot, *pressed)
            if expected == "offer":
                expected = await make_offer(pilot, table, match, seat)
                policy.offers += 1
            await until(pilot, lambda: len(match.history) > before)
            assert (match.history[before].seat, match.history[before].command) == (seat, expected)
            played.add(type(expected))

        await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.query("#abundance-sales"))
        await pilot.pause()
        details = str(app.screen.query_one("#abundance-sales").render())
        assert "Match total" in details and "R2 round 4" in details  # every sale beside the result
    assert match.over and len(match.history) > 300
    assert {ChoosePile, Bid, Pass, SealedBid, Offer, Accept, Decline, Ready} <= played
    # the curtain came up at the start and then each time the other player was to act, in every
    # kind of moment; Ann seals her bid first (seat order), so Bob always bids behind it
    assert curtains[0] == "start" and {"choose", "auction", "sealed", "trade"} <= set(curtains)
    bobs_sealed_bids = sum(isinstance(p.command, SealedBid) and p.seat == 1 for p in match.history)
    assert bob_behind_ann == bobs_sealed_bids == 24
    assert rubber_screens == 1
    info = next(info for info in store.list() if info.id == game_id)
    assert info.finished


async def test_a_whole_match_against_the_bot_through_the_keys(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat("Ann"), Seat("Cleo", "bot")], seed=BOT_SEED)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    answered = 0
    async with app.run_test(size=SMALL) as pilot:
        table = the_table(app)

        def ready() -> bool:
            screen = app.screen
            if match.over or isinstance(screen, SalesScreen):
                return True
            # and the bot has answered what it may answer too (its move comes a frame later)
            return screen is table and 0 in match.awaiting and not table._bot_pending

        for _ in range(800):
            await until(pilot, ready)
            if match.over:
                break
            if isinstance(app.screen, SalesScreen):
                await keys(pilot, "enter")
                continue
            assert not isinstance(app.screen, HandoffScreen)  # one human: never a curtain
            state, before = match.state, len(match.history)
            if state.phase == "sealed" and 1 not in match.awaiting:
                # Cleo's sealed bid is in: Ann sees that it is, never what it is
                assert "Cleo ✔ in" in screen_text(app) and table.game_log.plain[-1] == "  Cleo has bid."
            if state.phase == "choose":
                pressed, expected = [str(state.available[0])], ChoosePile(state.available[0])
            elif state.phase == "sealed":
                pressed, expected = ["p"], SealedBid(0)
            elif state.phase == "auction":
                pressed, expected = ["p"], Pass()
            elif state.offer is not None:
                answered += 1
                accept = answered == 1 and Accept() in match.legal(0)
                pressed, expected = (["y"], Accept()) if accept else (["n"], Decline())
            else:
                pressed, expected = ["r"], Ready()
            await keys(pilot, *pressed)
            await until(pilot, lambda: any(p.seat == 0 for p in match.history[before:]))
            mine = next(p for p in match.history[before:] if p.seat == 0)
            assert mine.command == expected
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await pilot.pause()
        assert "Cleo won" in screen_text(app)
    assert match.over and match.outcome.ranks[1] == 1  # the bot wins against a passive player


# -- positions, and a table to try the keys on ----------------------------------------------------

SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]


def table_at(data: dict, seats=None) -> tuple[TableApp, AbundanceTable, Match, list[str]]:
    """A table at the position ``data`` (Abundance's JSON: Ann non-dealer, so she chooses and
    opens round 1). Bob is a bot that never gets to move, unless ``seats`` says otherwise."""
    seats = seats or [Seat("Ann"), Seat("Bob", "bot")]
    match = Match(SPEC, seats, seed=1)
    match.state = SPEC.from_json({"names": [seat.name for seat in seats], **data})
    table = AbundanceTable(match, None, None, Settings(bot_delay=600))
    notes = record_notes(table)
    return TableApp(table), table, match, notes


def block_text(table: AbundanceTable) -> str:
    return table.block._shown_text.plain


def styles_at(text, words: str, part: str) -> set[str]:
    """The styles over ``part`` where it stands in ``words`` in the rich Text ``text``."""
    at = text.plain.index(words) + words.index(part)
    return {str(span.style) for span in text.spans if span.start <= at < span.end}


async def click_on(pilot, widget, label: str) -> None:
    """Click ``label`` where the Panel ``widget`` shows it (after wrapping)."""
    lines = widget._shown_text.wrap(pilot.app.console, widget.content_size.width)
    row = next(number for number, line in enumerate(lines) if label in line.plain)
    column = lines[row].plain.index(label)
    top = 1 if widget.styles.border_top[0] else 0
    await pilot.click(widget, offset=(widget.styles.padding.left + column + 1, top + row))
    await pilot.pause()


def footer_keys(app) -> list[str]:
    from textual.widgets._footer import FooterKey

    return [key.description for key in app.screen.query(FooterKey) if not key.has_class("-command-palette")]


async def test_the_bid_is_made_up_with_steps_and_digits_and_played_with_enter(tmp_path):
    # the twelfth card of round 1: clubs are rarest, then spades ($4); 4♠ would give Ann a corner
    hands = [["2S", "3S"], ["2H", "3H", "4H", "2D", "3D", "4D", "5D", "2C", "3C"]]
    app, table, match, notes = table_at({"phase": "auction", "card": "4S", "trinkets": hands})
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert table.block.has_focus
        text = block_text(table)
        assert "4♠ up · open, Ann first" in text and "Bids: none yet" in text
        assert "▶ You: at least $1, or pass" in text and " $1 " in text
        # what it would add to each sale if the round ended now: 3 × $4 × 3 − 2 × $4 for Ann
        assert "adds Ann +$28, Bob +$4" in text
        market = table.query_one("#market")._shown_text.plain.splitlines()
        assert market == ["            ♠A      ♥A      ♦A       ♣A",
                          "up           3       3       4        2",
                          "pays    $4 2nd  $2 3rd  $0 4th  $20 1st",
                          "corner       ·     Bob     Bob        ·"]
        steps = [("up", 2), ("right", 7), ("pageup", 17), ("down", 16), ("left", 11), ("pagedown", 1),
                 ("plus", 2), ("minus", 1), ("pagedown", 1)]  # never under the least bid
        for key, amount in steps:
            await pilot.press(key)
            assert table._amount == amount and f" ${amount} " in block_text(table), key
        await pilot.press("2", "3", "backspace", "5")
        assert " $25 " in block_text(table)
        await pilot.press("9", "9")  # $2599: more than Ann has
        assert "You have only $50: you cannot bid $2599." in block_text(table)
        # the rules' sentence, its money styled from its parts
        assert MONEY_STYLE in styles_at(table.block._shown_text, "You have only $50", "$50")
        assert table.check_action("bid", ()) is None  # greyed
        await pilot.press("enter")  # nothing played; the rules' reason comes up on the spot too
        assert match.history == [] and notes == ["You have only $50: you cannot bid $2599."]
        await pilot.press("pageup")  # a step brings it back to what Ann has
        assert table._amount == 50 and "You have only" not in block_text(table)
        await pilot.press("1", "2", "enter")
        await pilot.pause()
        assert [p.text for p in match.history] == ["bid 12"]
        assert "Bids: Ann $12" in block_text(table) and "▶ Bob (bot): at least $13" in block_text(table)
        assert table.check_action("bid", ()) is None  # Bob's turn: greyed for Ann
        # ctrl+z takes the bid back while Bob has not answered
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert match.history == [] and table.check_action("pass", ()) is True
        await pilot.press("p")
        await pilot.pause()
        assert [p.text for p in match.history] == ["pass"]


async def test_the_buttons_on_the_block_are_the_keys_by_mouse(tmp_path):
    app, table, match, _ = table_at({"phase": "auction", "card": "7H"})
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()

        for label in ("[+10]", "[+5]", "[-1]"):
            await click_on(pilot, table.block, label)
        assert table._amount == 15
        await click_on(pilot, table.block, "[Bid ⏎]")
        assert [p.text for p in match.history] == ["bid 15"]


async def test_a_sealed_bid_is_typed_or_passed_and_its_amount_stays_with_its_bidder(tmp_path):
    sealed = {"phase": "sealed", "round": 2, "card": "7H", "sold": SPADES}
    app, table, match, _ = table_at(sealed)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = block_text(table)
        assert "7♥ up · sealed bids, $0 declines" in text and "▶ Your sealed bid: $0 to $50" in text
        assert "Sealed: Ann … not yet · Bob … not yet" in text and " $0 " in text
        await pilot.press("1", "2", "enter")
        await pilot.pause()
        assert match.history[-1].command == SealedBid(12)
        assert "Sealed: Ann ✔ in ($12) · Bob … not yet" in block_text(table)
        assert table.game_log.plain[-2:] == ["Ann: bid 12", "  Ann bids $12 in secret."]
    app, table, match, _ = table_at(sealed)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert match.history[-1].command == SealedBid(0)


async def test_piles_are_chosen_with_their_number_or_a_click_and_a_played_one_is_greyed(tmp_path):
    app, table, match, _ = table_at({"phase": "choose", "round": 3, "chosen": [1, 3], "sold": SPADES + [
        "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]})
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = block_text(table)
        assert "▶ Ann (you) chooses the pile for round 3." in text
        assert "Rubber 1 · round 3: one bid each" in screen_text(app)
        assert "Piles: 1 played  [2]  3 played  [4]" in text
        assert table.check_action("choose_pile", (1,)) is None and table.check_action("choose_pile", (2,)) is True
        assert table.check_action("bid", ()) is False and table.check_action("ready", ()) is False
        assert "Choose pile" in footer_keys(app) and "Bid" not in footer_keys(app)
        await pilot.press("1")
        await pilot.pause()
        assert match.history == []
        await click_on(pilot, table.block, "[4]")
        assert match.history[-1].command == ChoosePile(4)
        assert "Card 1 of 12 · pile 4 · piles 2 to come" in screen_text(app)


TRADE = {"phase": "trade", "round": 1, "trinkets": [["3S", "5S"], ["2H", "4S"]],
         "sold": [], "money": [40, 30]}


async def test_the_trade_dialog_offers_what_is_ticked_and_shows_the_rules_refusal(tmp_path):
    app, table, match, _ = table_at(TRADE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = block_text(table)
        assert "Ready for the next card: Ann … · Bob …" in text and "[Offer a trade o]" in text
        assert footer_keys(app)[:4] == ["Offer", "Ready", "Accept", "Decline"]
        assert table.check_action("answer", (True,)) is None  # no offer to answer
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, OfferDialog))
        dialog = app.screen
        await pilot.press("space")  # 3♠, the first of Ann's trinkets
        await pilot.click("#offer-take-money")
        await pilot.press("9", "9")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, OfferDialog)  # refused, in the rules' words
        assert "Bob has only $30, not $99." in screen_text(app)
        error = dialog.query_one(".dialog--error").content  # the rules' sentence, styled by parts
        assert NAME_STYLE in styles_at(error, "Bob has", "Bob") and MONEY_STYLE in styles_at(error, "$99", "$99")
        await pilot.press("backspace", "backspace", "5")
        assert dialog.command == Offer(None, Side(cards=(Card.parse("3S"),)), Side(money=5))
        shown = screen_text(app)
        assert "Bob gets 3♠; you get $5" in shown and "At today's prices: Ann" in shown
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen is table and match.history[-1].text == "offer: give 3S take $5"
        assert "Ann offers Bob 3♠ for $5." in block_text(table) and "Waiting for Bob (bot)" in block_text(table)


async def test_after_the_one_offer_of_a_window_no_offer_button_is_shown(tmp_path):
    declined = {**TRADE, "offered": [True, False]}
    app, table, match, _ = table_at(declined)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = block_text(table)
        assert "Offer a trade" not in text
        assert "▶ You: [Ready r] · your one offer of this window is made" in text


async def test_a_click_on_a_trinket_offers_a_trade_for_it(tmp_path):
    app, table, match, _ = table_at(TRADE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await click_on(pilot, table.query_one("#trinkets"), "2♥")
        await settle(pilot, lambda: isinstance(app.screen, OfferDialog))
        assert app.screen.command.take.cards == (Card.parse("2H"),)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and match.history == []


async def test_an_offer_is_accepted_with_y_and_declined_with_n(tmp_path):
    offer = {**TRADE, "offer": {"proposer": 1, "responder": 0, "give_cards": ["2H"], "take_money": 5},
             "offered": [False, True]}
    for key, expected in (("y", Accept()), ("n", Decline())):
        app, table, match, _ = table_at(offer)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            text = block_text(table)
            # diamonds and clubs, not yet seen, are rarest: a heart pays $2, so Ann pays $5 for $2
            assert "Bob offers Ann 2♥ for $5." in text and "At today's prices: Ann −$3, Bob +$3" in text
            assert "▶ Your answer: [Accept y] [Decline n]" in text
            assert table.check_action("offer", ()) is None and table.check_action("answer", (True,)) is True
            await pilot.press(key)
            await pilot.pause()
            assert match.history[-1].command == expected
            assert (Card.parse("2H") in match.state.trinkets[0]) == (key == "y")


async def lift_curtain(pilot, app, table: AbundanceTable, name: str) -> None:
    """The curtain is up, calling ``name``: they press Enter and have the table."""
    await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
    await pilot.pause()  # drawn
    assert table.viewer is None and f"Pass to {name}" in screen_text(app)
    await pilot.press("enter")
    await settle(pilot, lambda: app.screen is table and table.viewer is not None)
    assert table.match.names[table.viewer] == name


async def test_between_two_humans_the_curtain_comes_at_each_turn_and_undo_is_ones_own(tmp_path):
    two = [Seat("Ann"), Seat("Bob")]
    app, table, match, notes = table_at({"phase": "auction", "card": "7H"}, two)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await lift_curtain(pilot, app, table, "Ann")  # from the start: it says whose turn it is
        await pilot.press("5", "enter")
        await lift_curtain(pilot, app, table, "Bob")  # never straight on to the other player
        await pilot.press("ctrl+z")  # Bob cannot take back Ann's bid
        await pilot.pause()
        assert [p.text for p in match.history] == ["bid 5"] and notes[-1].startswith("Nothing to take back")
        await pilot.press("p")  # Bob passes: Ann takes 7♥ for $5
        await lift_curtain(pilot, app, table, "Ann")
        assert match.state.phase == "trade" and match.state.trinkets[0] == [Card.parse("7H")]
        await pilot.press("r")
        await lift_curtain(pilot, app, table, "Bob")
        await pilot.press("r")  # both ready: the next card is turned up, and undo stops here
        await lift_curtain(pilot, app, table, "Ann")
        assert match.state.phase == "auction" and table.check_action("undo", ()) is None
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [p.text for p in match.history][-2:] == ["ready", "ready"]


async def test_a_rubber_ends_with_its_sales_and_s_shows_every_sale(tmp_path):
    from game_helpers import bot_choice
    from rules.core import chance, get_bot

    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=3)
    bot = get_bot(SPEC, "bot")
    step = 0
    while not (match.state.round == 4 and match.state.phase == "trade" and match.state.pile_left == 0):
        match.submit(*bot_choice(match, bot, chance(3, step)))
        step += 1
    table = AbundanceTable(match, None, None, Settings(bot_delay=0))
    app = TableApp(table)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, SalesScreen):
            if isinstance(app.screen, HandoffScreen):  # the keys pass from Ann to Bob and back
                await pilot.press("enter")
            else:
                await pilot.press("n" if match.state.offer is not None else "r")
            await pilot.pause()
        text = screen_text(app)
        money = match.state.rubbers[0]
        heading = str(app.screen.query_one("#sales-heading").render())  # its names and sums styled
        assert "Rubber 1 is over" in text and f"It ends with Ann ${money[0]} and Bob ${money[1]}." in heading
        assert "R1 round 4" in text and "Rubber 1 ends" in text
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is table and "Rubber 2 · round 1: open auctions" in screen_text(app)
        assert f"${money[0]}" in screen_text(app)  # the scoreboard's match column
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SalesScreen) and "Every sale so far" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table


async def test_the_keys_page_and_the_footer_name_every_key(tmp_path):
    from cardtable.screens.rules import keys_of

    app, table, match, _ = table_at({"phase": "auction", "card": "7H"})
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert footer_keys(app)[:6] == ["Bid", "Pass", "+1", "+5", "+10", "Type bid"]
        assert {"Sales", "Command", "Undo", "Rules & keys", "Menu"} <= set(footer_keys(app))
        rows = {description: keys for keys, description, _note in keys_of(table)}  # the F1 page
        assert rows["Choose pile"] == "1-4" and rows["Type bid"] == "0-9"  # as the footer names them
        assert rows["+1"] == "↑ + =" and rows["-10"] == "pgdn" and rows["Offer"] == "o"


# -- names are data (issue 20) -------------------------------------------------------------------

async def at_the_keys(pilot, app, table: AbundanceTable) -> int:
    """The next human takes the keys, through the curtain when it is up (it names them as
    typed); their seat."""
    names = table.match.names
    await until(pilot, lambda: isinstance(app.screen, HandoffScreen) or (
        app.screen is table and table.viewer is not None and table.viewer in table.match.awaiting))
    if isinstance(app.screen, HandoffScreen):
        seat = table.next_human()
        await pilot.pause()  # drawn
        text = screen_text(app)
        assert f"Pass to {names[seat]} — press Enter" in text and f"I am {names[seat]}" in text
        await keys(pilot, "enter")
        await until(pilot, lambda: app.screen is table and table.viewer == seat)
    await pilot.pause()
    return table.viewer


async def test_names_that_look_like_markup_are_shown_as_typed_and_break_nothing(tmp_path):
    """Two humans named ``[/]`` and ``Bob [kid]`` play a pile choice, an auction, an offer made in
    the dialog and one typed in the command bar with a quoted name, answers and readies at
    80×24, the curtain between them: nothing crashes, every name is on screen as typed, the game
    is saved and goes on."""
    from cardtable.widgets import CommandBar

    names = ["[/]", "Bob [kid]"]
    store = SaveStore(tmp_path / "data")
    match = Match(SPEC, [Seat(name) for name in names], seed=TWO_HUMANS_SEED)
    game_id = store.create(match)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=game_id)
    async with app.run_test(size=SMALL) as pilot:
        table = the_table(app)

        async def play(*pressed: str) -> None:
            before = len(match.history)
            await keys(pilot, *pressed)
            await until(pilot, lambda: len(match.history) > before)

        await at_the_keys(pilot, app, table)
        await play(str(match.state.available[0]))
        opener = await at_the_keys(pilot, app, table)
        assert match.state.phase == "auction"
        await play("5", "enter")
        other = await at_the_keys(pilot, app, table)
        text = screen_text(app)
        assert other == 1 - opener and f"{names[opener]} bids $5." in text and f"{names[other]}: bid on" in text
        await play("p")
        seat = await at_the_keys(pilot, app, table)
        text = screen_text(app)
        assert match.state.phase == "trade" and f"{names[opener]} wins" in text
        assert all(name in text for name in names)

        # an offer made in the dialog: its title and sides name the other player as typed
        await keys(pilot, "o")
        await settle(pilot, lambda: isinstance(app.screen, OfferDialog))
        await pilot.click("#offer-give-money")
        await pilot.press("1")
        await pilot.pause()
        text = screen_text(app)
        assert f"{names[seat]}: offer {names[1 - seat]} a trade" in text
        assert f"You take from {names[1 - seat]}" in text and f"{names[1 - seat]} gets $1" in text
        await pilot.press("ctrl+o")
        await until(pilot, lambda: match.state.offer is not None)
        assert await at_the_keys(pilot, app, table) == 1 - seat
        text = screen_text(app)  # (the screenshot's text loses a space between two styled words)
        assert f"{names[seat]} offers {names[1 - seat]}" in text and "offer: give $1" in text
        await play("y")

        # the other player types an offer naming the first by quoted name
        other = 1 - seat
        if await at_the_keys(pilot, app, table) != other:
            await play("r")  # the first is ready: the keys pass to the other
            assert await at_the_keys(pilot, app, table) == other
        await pilot.press("colon")
        bar = table.query_one(CommandBar)
        bar.input.value = f'offer "{names[seat]}": give $2'
        await pilot.press("enter")
        await until(pilot, lambda: match.state.offer is not None)
        assert await at_the_keys(pilot, app, table) == seat
        assert match.history[-1].text == "offer: give $2"  # saved without the name
        await play("n")
        while match.state.phase == "trade":
            await at_the_keys(pilot, app, table)
            await play("r")
        await at_the_keys(pilot, app, table)
        text = screen_text(app)
        assert match.state.phase == "auction" and all(name in text for name in names)
        assert f"{names[other]}: offer: give $2" in "\n".join(table.game_log.plain)
        assert app.is_running and isinstance(app.screen, AbundanceTable)
    saved = store.load(game_id)
    assert saved.names == tuple(names) and len(saved.history) == len(match.history) >= 10


# -- keys that can do nothing now say why (issue 21) ------------------------------------------------

async def press_for_note(pilot, notes: list, key: str) -> str:
    """Press ``key``; the one notification it raised."""
    before = len(notes)
    await pilot.press(key)
    await pilot.pause()
    assert len(notes) == before + 1, f"{key}: {notes[before:]}"
    return notes[-1]


async def test_keys_that_do_nothing_say_why(tmp_path):
    # a trade window: Ann has made her one offer of the window, and Bob has declined it
    app, table, match, notes = table_at({**TRADE, "offered": [True, False]})
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert table.check_action("offer", ()) is None  # greyed
        assert await press_for_note(pilot, notes, "o") == (
            "You have already made your offer in this trade window; say ready.")
        assert await press_for_note(pilot, notes, "y") == "There is no offer to answer."
        assert await press_for_note(pilot, notes, "n") == "There is no offer to answer."
        for key in ("5", "1", "up", "right", "pageup", "backspace", "enter", "p"):
            assert await press_for_note(pilot, notes, key) == "There is no auction now: make an offer or say ready."
        assert match.history == []
        await pilot.press("r")  # a key that acts says nothing
        await pilot.pause()
        assert [p.text for p in match.history] == ["ready"] and len(notes) == 11
    # an auction with Ann to bid; then Bob (a bot that does not get to move here)
    app, table, match, notes = table_at({"phase": "auction", "card": "7H"})
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        for key in ("r", "o", "y", "n"):
            assert await press_for_note(pilot, notes, key) == "7♥ is up for auction: bid or pass."
        await pilot.press("5", "enter")
        await pilot.pause()
        assert [p.text for p in match.history] == ["bid 5"] and len(notes) == 4
        waiting = "It is not Ann's move: the game is waiting for Bob."
        for key in ("3", "down", "left", "pagedown", "enter", "p", "r"):
            assert await press_for_note(pilot, notes, key) == waiting
        # the log's own keys are left to it
        table.game_log.focus()
        await pilot.press("up")
        await pilot.pause()
        assert len(notes) == 11 and len(match.history) == 1


async def test_a_played_pile_and_a_bid_beyond_the_money_say_why(tmp_path):
    app, table, match, notes = table_at({"phase": "choose", "round": 3, "chosen": [1, 3], "sold": SPADES + [
        "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]})
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        assert await press_for_note(pilot, notes, "1") == (
            "Pile 1 has already been played this rubber; choose pile 2 or 4.")
        assert await press_for_note(pilot, notes, "7") == "First choose the pile for round 3, as in 'choose pile 2'."
        assert await press_for_note(pilot, notes, "y") == "First choose the pile for round 3, as in 'choose pile 2'."
    # Ann cannot afford the least bid: digits and steps say so, and pass is all she can do
    app, table, match, notes = table_at({"phase": "auction", "card": "7H", "money": [2, 50], "auction": {
        "order": [0, 1], "high": 2, "leader": 1, "position": 0, "spoken": 1}, "calls": [[1, 2]]})
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        for key in ("4", "up", "enter"):
            assert await press_for_note(pilot, notes, key) == "You have only $2: you cannot bid $3."
        await pilot.press("p")
        await pilot.pause()
        assert [p.text for p in match.history] == ["pass"]


async def test_s_shows_the_sales_in_a_replay_and_in_the_results(tmp_path):
    from rules.core.replay import Replay

    from cardtable.screens.replay import replay_screen
    from cardtable.screens.results import results_screen
    from game_helpers import bot_choice
    from rules.core import chance, get_bot

    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=3)
    bot = get_bot(SPEC, "bot")
    while not match.over:
        match.submit(*bot_choice(match, bot, chance(3, len(match.history))))
    for screen in (results_screen(match, Settings()), replay_screen(Replay.of(match), Settings(), 200)):
        app = TableApp(screen)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            if screen.__class__.__name__.endswith("Results"):
                await pilot.press("t")  # the final table
                await pilot.pause()
            assert screen.check_action("sales", ()) is True and screen.check_action("bid", ()) is False
            await pilot.press("s")
            await settle(pilot, lambda: isinstance(app.screen, SalesScreen))
            assert "R1 round 1" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is screen)


# -- the end of a match at 80×24 (issue 21) --------------------------------------------------------

def finished_match(seed: int = 3, names=("Ann", "Bob")) -> Match:
    from game_helpers import bot_choice
    from rules.core import chance, get_bot

    match = Match(SPEC, [Seat(name) for name in names], seed=seed)
    bot = get_bot(SPEC, "bot")
    while not match.over:
        match.submit(*bot_choice(match, bot, chance(seed, len(match.history))))
    return match


async def test_the_results_at_80x24_scroll_to_all_they_hold(tmp_path):
    # the score sheet, every sale of the match (twelve lines) and the chart: more than 24 rows
    match = finished_match()
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await pilot.pause()
        body = app.screen.query_one("#results-body")
        final = app.screen.replay.scores().values[-1]
        assert body.max_scroll_y > 0 and f"Bob {final[1]:,}" not in screen_text(app)
        await pilot.press("end")  # (the focus is on a button of the body)
        await settle(pilot, lambda: body.scroll_y == body.max_scroll_y)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        # the last line the body holds, the chart's legend, is on screen above the footer
        legend = next(number for number, line in enumerate(lines) if f"Bob {final[1]:,}" in line)
        assert f"Ann {final[0]:,}" in lines[legend] and "turn 96" in lines[legend - 1]
        assert "Match total" in screen_text(app) and body.region.bottom == legend + 1


@pytest.mark.parametrize("names", [("Ann", "Bob"), ("Annabelle", "Bob [kid]")])
async def test_the_sales_sheet_on_the_board_fits_80_columns_at_the_end(tmp_path, names):
    # eight columns once both rubbers are in: at 80 columns the board is some 46 wide
    from cardtable.games.abundance.sales import SalesSheet

    match = finished_match(1, names)
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    # 80 columns and tall enough for the sheet (below 30 rows the sheet gives way to the
    # rest of the board, as on the live table, and `s` shows it)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await pilot.press("t")  # the final table
        await pilot.pause()
        sheet = app.screen.query_one("#sales", SalesSheet)
        text, width = sheet._shown_text, sheet.content_size.width
        lines = text.plain.splitlines()
        first, second = (name if len(name) <= 6 else name[:5] + "…" for name in names)  # compact: six wide
        assert lines[0].startswith("Sale") and f" {first} " in lines[0] and lines[0].endswith(f" {second}")
        assert lines[-1].startswith(("Total", "Match total")) and len(lines) == 12
        assert len(text.wrap(app.console, width)) == len(lines)  # no line wraps
        assert max(len(line) for line in lines) <= width


async def test_the_sales_sheet_is_made_again_only_when_a_sale_changes_it(monkeypatch):
    # made again at every move, its rows (a dozen a rubber) cost a late move more than an early one
    from textual.screen import Screen

    from cardtable.games.abundance import sales
    from cardtable.games.abundance.sales import SalesSheet
    from pilot_helpers import bot_played

    made: list[int] = []
    making = sales.sales_renderable
    monkeypatch.setattr(sales, "sales_renderable", lambda *a, **k: (made.append(1), making(*a, **k))[1])
    seats = [Seat("Ann"), Seat("Bob")]
    sold = bot_played("abundance", seats, 1, lambda m: len(m.view(None).sales) == 2)
    later = bot_played("abundance", seats, 1, lambda m: len(m.history) == len(sold.history) + 5)
    assert later.view(None).sales == sold.view(None).sales  # five moves that sell nothing
    sheet = SalesSheet()
    app = TableApp(Screen())
    async with app.run_test(size=(120, 40)):
        await app.screen.mount(sheet)
        sheet.show(sold.view(None), sold.names)
        shown, count = sheet._shown_text, len(made)
        assert count >= 1 and "R1 round 2" in shown.plain
        sheet.show(later.view(None), later.names)
        assert len(made) == count and sheet._shown_text is shown
        sheet.show(later.view(None), later.names, four_colour=True)  # the deck's colours change it
        assert len(made) == count + 1
        third = bot_played("abundance", seats, 1, lambda m: len(m.view(None).sales) == 3)
        sheet.show(third.view(None), third.names, four_colour=True)
        assert len(made) == count + 2 and "R1 round 3" in sheet._shown_text.plain


async def test_money_typed_and_ctrl_o_in_one_read_offer_the_money_typed(tmp_path):
    # keys typed fast (or over a slow connection) come in one read: ctrl+o was a priority
    # binding and offered at once, before the 5 still on its way to the money field
    from monkey_helpers import in_one_read

    app, table, match, _ = table_at(TRADE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, OfferDialog))
        await pilot.press("space")  # 3♠, the first of Ann's trinkets
        await pilot.click("#offer-take-money")
        in_one_read(app, ["5", "ctrl+o"])
        await settle(pilot, lambda: app.screen is table)
        assert match.history[-1].text == "offer: give 3S take $5"
