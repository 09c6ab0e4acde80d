"""The Capital Auction table through Pilot: a whole seeded 3-player game of two humans and a bot
played with the table's keys — Capital cards ticked and bid, Tools chosen from the dialog, a
Connection played behind the curtain, effects' choices — with the curtain checked at every
hand-off; then each key on its own, refusals that change nothing, and the board at 80×24 and
120×40."""

from __future__ import annotations

from collections import Counter

import pytest

import rules
from rules.capital_auction.commands import (
    Bid, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take,
)
from rules.capital_auction.cards import Capital
from rules.core import Match, Seat, chance, get_bot

from cardtable.games.capital_auction.dialogs import ChoiceDialog
from cardtable.games.capital_auction.panels import CapitalChips
from cardtable.games.capital_auction.table import CapitalAuctionTable
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.results import ResultsScreen
from pilot_helpers import board_fits, keys, screen_text, snapshot_app, table_of, until

SPEC = rules.find_game("capital-auction")
BOT = get_bot(SPEC, "bot").playout  # the humans here play as the bot reads a table, without its search
# pinned: the humans play the bot's reading's choices, so a change to the bot may call for
# other seeds. GAME_SEED reaches the positions the tests below look at; WHOLE_GAME_SEED is a
# whole game of 111 commands, 81 of them the humans', among which every kind of command: a
# Connection played by a human, Industrial Espionage's take, a discard of Capital cards, Venture
# Fund's discard and a flip (992 until the bot looked longer where in doubt, 799 until it
# searched its Tools, 84 until it paid at most nine tenths of a lot's worth)
GAME_SEED = 799
WHOLE_GAME_SEED = 993
HUMANS_AND_BOT = [Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot")]


def human_choice(match: Match, seat: int):
    return BOT.choose(match.view(seat), match.legal(seat), chance(match.seed, f"human/{len(match.history)}/{seat}"))


def tick_keys(chips: CapitalChips, values) -> list[str]:
    """Keys that tick exactly cards of ``values`` (a multiset) among the chips, from the left."""
    wanted = Counter(values)
    keys = ["left"] * chips.cursor  # to the first chip, then tick or untick each as needed
    for index, card in enumerate(chips.cards):
        want = wanted[card.value] > 0
        if want:
            wanted[card.value] -= 1
        if want != (card in chips.ticked):
            keys.append("space")
        if index < len(chips.cards) - 1:
            keys.append("right")
    return keys


async def past_the_curtain(pilot, seat: int) -> CapitalAuctionTable:
    """The table, once the curtain that opens the game (or a hand-off) is lifted for ``seat``."""
    app = pilot.app
    table = table_of(app, CapitalAuctionTable)
    await until(pilot, lambda: isinstance(app.screen, HandoffScreen))
    await keys(pilot, "enter")
    await until(pilot, lambda: table.viewer == seat)
    return table


async def choose_in_dialog(pilot, command) -> None:
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog)
    index = [choice for _, choice in dialog.choices].index(command)
    await keys(pilot, *["down"] * index)
    await pilot.pause()
    assert dialog.query_one("OptionList").highlighted == index
    await keys(pilot, "enter")


async def play_by_keys(pilot, table: CapitalAuctionTable, command) -> None:
    """Carry out ``command`` with the table's keys, as a player would."""
    match command:
        case Bid(values):
            chips = table.chips
            chips.focus()
            await pilot.pause()
            await keys(pilot, *tick_keys(chips, values))
            await pilot.pause()
            assert chips.chosen == tuple(sorted(values, reverse=True))
            await keys(pilot, "b")
        case Pass():
            await keys(pilot, "p")
        case Decline():
            await keys(pilot, "n")
        case React():
            await keys(pilot, "c")
            await pilot.pause()
            if isinstance(pilot.app.screen, ChoiceDialog):
                await choose_in_dialog(pilot, command)
        case Play():
            await keys(pilot, "t")
            await until(pilot, lambda: isinstance(pilot.app.screen, ChoiceDialog))
            await choose_in_dialog(pilot, command)
        case Flip() | Take() | DiscardCapital() | DiscardTool():
            await keys(pilot, "x")
            await until(pilot, lambda: isinstance(pilot.app.screen, ChoiceDialog))
            await choose_in_dialog(pilot, command)


async def test_a_whole_game_of_two_humans_and_a_bot_through_the_keys(tmp_path):
    match = Match(SPEC, HUMANS_AND_BOT, seed=WHOLE_GAME_SEED)
    app = snapshot_app(tmp_path, match)
    played: Counter = Counter()
    curtains = 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = table_of(app, CapitalAuctionTable)

        def ready() -> bool:
            screen = app.screen
            if match.over or isinstance(screen, HandoffScreen):
                return True
            return screen is table and table.viewer is not None and table.viewer in match.awaiting

        for _ in range(400):
            await until(pilot, ready)
            if match.over:
                break
            if isinstance(app.screen, HandoffScreen):
                curtains += 1
                await pilot.pause()
                text = screen_text(app)
                # behind the curtain: nobody's Tools or Capital cards
                assert table.viewer is None and "Your Tools" not in text and "Your Capital" not in text
                for name in {tool.info.name for seat in (0, 1) for tool in match.view(seat).tools}:
                    assert name not in text
                await keys(pilot, "enter")
                await until(pilot, lambda: table.viewer is not None)
                continue
            seat, before = table.viewer, len(match.history)
            command = human_choice(match, seat)
            await play_by_keys(pilot, table, command)
            await until(pilot, lambda: len(match.history) > before)
            assert (match.history[before].seat, match.history[before].command) == (seat, command)
            played[type(command)] += 1
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.query("#results-scores"))
        await pilot.pause()
        assert "Game over" in screen_text(app)
    assert match.over
    assert {Bid, Pass, Play, React, Decline, Flip, Take, DiscardCapital, DiscardTool} <= set(played)
    assert curtains >= 10


async def test_the_reaction_is_asked_of_every_human_behind_the_curtain(tmp_path):
    # play on (every move the bot's) until a human is asked whether to react
    match = Match(SPEC, HUMANS_AND_BOT, seed=GAME_SEED)
    while not (match.awaiting & {0, 1} and match.view(min(match.awaiting)).phase == "react"):
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat) if seat == 2 else human_choice(match, seat))
    asked = min(match.awaiting)
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=(80, 24)) as pilot:
        table = table_of(app, CapitalAuctionTable)
        await until(pilot, lambda: isinstance(app.screen, HandoffScreen))
        await pilot.pause()
        assert f"Pass to {match.names[asked]}" in screen_text(app)
        await keys(pilot, "enter")
        await until(pilot, lambda: table.viewer == asked)
        await pilot.pause()
        text = screen_text(app)
        assert "may react with a Connection" in text
        # Let it stand is live for everyone asked; Connection only for a holder
        holds = any(isinstance(command, React) for command in match.legal(asked))
        assert table.check_action("let_stand", ()) is True
        assert table.check_action("react", ()) is (True if holds else None)
        before = len(match.history)
        await keys(pilot, "n")
        await until(pilot, lambda: len(match.history) > before)
        assert match.history[before].command == Decline()


async def test_a_bid_the_rules_refuse_changes_nothing_and_says_why(tmp_path):
    match = Match(SPEC, HUMANS_AND_BOT, seed=GAME_SEED)
    match.submit(0, match.legal(0)[0])  # the least bid: Bob's lowest card cannot beat it
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await past_the_curtain(pilot, 1)
        await pilot.pause()
        assert table.check_action("bid", ()) is None  # nothing ticked: greyed
        chips = table.chips
        chips.focus()
        await pilot.pause()
        await keys(pilot, *["left"] * chips.cursor, *["right"] * (len(chips.cards) - 1), "space")  # the lowest card
        await pilot.pause()
        assert table.check_action("bid", ()) is True
        # the rules' objection shows under the chips before b is pressed
        assert "does not beat the standing bid" in chips.hint
        shown = screen_text(app)  # wrapped at 80 columns: its first and last words are on screen
        assert chips.hint.split(":")[0][:30] in shown and chips.hint.split(":")[1].strip() in shown
        before = (len(match.history), match.view(1))
        await keys(pilot, "b")
        await pilot.pause()
        assert (len(match.history), match.view(1)) == before
        assert "beat" in screen_text(app) or "more than" in screen_text(app)
        # ticking every card makes a bid the rules accept, and the line says what b will do
        chips.focus()
        await pilot.pause()
        await keys(pilot, *["left", "space"] * (len(chips.cards) - 1))
        await pilot.pause()
        assert len(chips.chosen) == len(chips.cards)
        assert chips.hint == f"b bids {sum(chips.chosen)}." and chips.hint in screen_text(app)


async def test_a_tool_dialog_lists_the_legal_plays_and_escape_plays_nothing(tmp_path):
    match = Match(SPEC, HUMANS_AND_BOT, seed=GAME_SEED)
    while not (match.awaiting & {0, 1} and match.view(min(match.awaiting)).phase == "tool"
               and any(isinstance(c, Play) for c in match.legal(min(match.awaiting)))):
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat) if seat == 2 else human_choice(match, seat))
    seat = min(match.awaiting)
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await past_the_curtain(pilot, seat)
        before = len(match.history)
        await keys(pilot, "t")
        await until(pilot, lambda: isinstance(app.screen, ChoiceDialog))
        dialog = app.screen
        assert [command for _, command in dialog.choices] == [c for c in match.legal(seat) if isinstance(c, Play)]
        await keys(pilot, "escape")
        await until(pilot, lambda: app.screen is table)
        assert len(match.history) == before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_board_fits(tmp_path, size):
    seats = [Seat("Ann"), *(Seat(name, "bot") for name in ("Bob", "Cleo", "Dan", "Eve"))][: 3 if size[0] == 80 else 5]
    match = Match(SPEC, seats, seed=3)
    while len(match.history) < 60 or match.awaiting != {0}:
        seat = min(match.awaiting)
        match.submit(seat, human_choice(match, seat))  # every seat by the bot's reading
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        board_fits(app, CapitalAuctionTable)



async def test_a_big_hand_of_capital_wraps_and_a_click_ticks_the_card_under_it():
    from textual.app import App

    class Chips(App):
        def compose(self):
            yield CapitalChips(id="capital")

    many = tuple(Capital(6 - n // 3, n) for n in range(18))  # 18 cards: more than a line holds
    app = Chips()
    async with app.run_test(size=(40, 10)) as pilot:
        chips = app.query_one(CapitalChips)
        chips.show(many)
        await pilot.pause()
        assert chips.per_line == 8 and chips.size.height == 3
        await pilot.click(chips, offset=(CapitalChips.CHIP + 1, 1))  # the second chip of the second line
        await pilot.pause()
        assert chips.ticked == {many[9]} and chips.cursor == 9 and chips.chosen == (many[9].value,)


async def test_the_board_redraws_to_the_terminal_it_is_given(tmp_path):
    match = Match(SPEC, HUMANS_AND_BOT, seed=GAME_SEED)
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await past_the_curtain(pilot, 0)
        await pilot.pause()
        assert "Decks:" in screen_text(app)  # room for the decks' line
        # the Capital's title gives the value and the cards it is in (issue 21: "Your Capital ·
        # 16 in hand" read as sixteen cards)
        hand = match.view(0).capital
        assert len(hand) == 6 and sum(c.value for c in hand) != 6
        assert f"Your Capital · {sum(c.value for c in hand)} in 6 cards" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Decks:" not in screen_text(app) and table.has_class("-short")
        board_fits(app, CapitalAuctionTable)


async def test_names_that_look_like_markup_are_shown_as_typed(tmp_path):
    # issue 20: a name was read as markup — "[/]" crashed the table, "[@click=app.quit]" ran an
    # action, "Bob [kid]" showed as "Bob ". The same pinned game, the seats renamed, played
    # through the keys until a Tool has named a player (so the log, the status and the dialog
    # all name them)
    names = ["[/]", "Bob [kid]", "[@click=app.quit]"]
    match = Match(SPEC, [Seat(names[0]), Seat(names[1]), Seat(names[2], "bot")], seed=GAME_SEED)
    app = snapshot_app(tmp_path, match)
    aimed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = table_of(app, CapitalAuctionTable)
        for _ in range(200):
            await until(pilot, lambda: isinstance(app.screen, HandoffScreen)
                        or (app.screen is table and table.viewer in match.awaiting))
            if isinstance(app.screen, HandoffScreen):
                await pilot.pause()
                assert any(f"Pass to {name}" in screen_text(app) for name in names[:2])
                await keys(pilot, "enter")
                await until(pilot, lambda: table.viewer is not None)
                continue
            await pilot.pause()
            text = screen_text(app)
            for name in names:
                assert name in text  # on the scoreboard and in the portfolios, as typed
            seat, before = table.viewer, len(match.history)
            command = human_choice(match, seat)
            await play_by_keys(pilot, table, command)
            await until(pilot, lambda: len(match.history) > before)
            aimed += isinstance(command, Play) and command.player is not None
            if aimed >= 2:
                break
        assert aimed >= 2
        if isinstance(app.screen, HandoffScreen):
            await keys(pilot, "enter")
        await until(pilot, lambda: app.screen is table and table.viewer is not None)
        await pilot.pause()
        text = screen_text(app)
        assert all(name in text for name in names)
        # the log names the Tool's target by name (its command is saved by number)
        named = next(p for p in reversed(match.history) if isinstance(p.command, Play) and p.command.player is not None)
        line = f"{names[named.seat]}: {SPEC.notation.display(named.command, names)}"
        assert line in table.game_log.plain and names[named.command.player] in line
        assert app.is_running


def human_asked(kind):
    """The pinned game played on (every move the bot's) until a human may choose between
    several commands of ``kind``; the match and that seat."""
    match = Match(SPEC, HUMANS_AND_BOT, seed=GAME_SEED)
    while True:
        seat = min(match.awaiting)
        if seat != 2 and sum(isinstance(c, kind) for c in match.legal(seat)) > 1:
            return match, seat
        match.submit(seat, match.bot_move(seat) if seat == 2 else human_choice(match, seat))


@pytest.mark.parametrize("kind, key", [(React, "c"), (DiscardCapital, "x")], ids=["connection", "tax"])
async def test_enter_in_a_dialog_that_spends_capital_spends_the_least(tmp_path, kind, key):
    # issue 21: the Connection dialog proposed the highest Capital card first, so Enter paid a
    # 5 where a 1 would do; so did Tax Inspection's discards
    match, seat = human_asked(kind)
    options = [c for c in match.legal(seat) if isinstance(c, kind)]
    cheapest = min(options, key=lambda c: sum(getattr(c, "pay", None) or c.values))
    assert options[0] != cheapest  # the rules list the dearest first
    app = snapshot_app(tmp_path, match)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await past_the_curtain(pilot, seat)
        before = len(match.history)
        await keys(pilot, key)
        await until(pilot, lambda: isinstance(app.screen, ChoiceDialog))
        dialog = app.screen
        assert dialog.query_one("OptionList").highlighted == 0 and dialog.choices[0][1] == cheapest
        await keys(pilot, "enter")
        await until(pilot, lambda: len(match.history) > before)
        assert match.history[before].command == cheapest
