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
from cardtable.saves import SaveStore
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from pilot_helpers import TableApp, screen_text, settle

SPEC = rules.find_game("abundance")
SMALL, LARGE = (80, 24), (120, 40)
TWO_HUMANS_SEED = 4  # pinned: a two-rubber match of about 420 commands under the policy below
BOT_SEED = 2


# -- driving the table as players would -------------------------------------------------------

async def keys(pilot, *names: str) -> None:
    """Press keys the way a player's keystrokes arrive (``App.simulate_key``), without Pilot's
    idle waits after each one: a whole match is hundreds of keys."""
    for name in names:
        pilot.app.simulate_key(name)
    await pilot.pause(0)


async def until(pilot, done, limit: int = 3000) -> None:
    """Let the app run until ``done()``, in short steps; fail after ``limit`` of them."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause(0)
    pytest.fail("the table did not get there")


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
    expected = Offer(other, Side(cards=(first,)), Side(money=1))
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
    assert table.game_log.plain[-2:] == ["Ann", "  Ann has bid."]
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
                # the curtain: nothing of the table behind it, and only for a sealed bid (or the
                # very start); the open rounds and the trade windows pass without one
                state = match.state
                curtains.append(state.phase if match.history else "start")
                assert table.viewer is None
                await pilot.pause()  # drawn
                text = screen_text(app)
                assert "Pass to" in text and "in secret" not in text and "Sealed:" not in text
                await keys(pilot, "enter")
                await until(pilot, lambda: table.viewer is not None)
                if state.phase == "sealed" and table.viewer == 1:
                    await check_bob_cannot_learn_anns_bid(pilot, table, match)
                continue
            if isinstance(screen, SalesScreen):
                rubber_screens += 1
                await pilot.pause()
                assert "Rubber 1 is over" in screen_text(app) and match.state.rubber == 2
                await keys(pilot, "enter")
                continue
            seat, before = table.viewer, len(match.history)
            pressed, expected = policy.keys(match, seat)
            await keys(pilot, *pressed)
            if expected == "offer":
                expected = await make_offer(pilot, table, match, seat)
                policy.offers += 1
            await until(pilot, lambda: len(match.history) > before)
            assert (match.history[before].seat, match.history[before].command) == (seat, expected)
            played.add(type(expected))

        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        details = str(app.screen.query_one("#abundance-sales").render())
        assert "Match total" in details and "R2 round 4" in details  # every sale beside the result
    assert match.over and len(match.history) > 300
    assert {ChoosePile, Bid, Pass, SealedBid, Offer, Accept, Decline, Ready} <= played
    # the curtain came up for the sealed bids only, once per human and card (not even at the
    # start: nothing is private until then)
    sealed_bids = sum(isinstance(p.command, SealedBid) for p in match.history)
    assert curtains.count("sealed") == sealed_bids and set(curtains) == {"sealed"}
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
            return screen is table and 0 in match.awaiting

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
