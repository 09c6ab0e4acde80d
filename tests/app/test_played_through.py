"""What a play-test of Abundance found, as pilot tests that fail until it is fixed.

Found at 80×24 against the bot: the match over, the results shown and the game added to the
record of finished games, `escape` went back to the finished table, whose footer still offered
`^z Undo`; `ctrl+z` took back Ann's last `ready` and the match was open again ("Trading before
the sale: Ann may make an offer or say ready"). Played on differently it ended a second time
with other totals ($1116 to $998), while the record kept the first ($1234 to $880).

Found with two humans at one screen: while the terminal was too small (60×18) and said so,
the keys still reached the screens hidden behind that notice. `enter` lifted the hand-off
curtain nobody could see, and `5 enter` played a bid of $5 for a player who saw only "The
terminal is too small"; back at 80×24 the curtain was calling the other player."""

from __future__ import annotations

import rules
from rules.core import Match, Seat, chance, get_bot

from cardtable.app import CardtableApp
from cardtable.games.abundance.table import AbundanceTable
from cardtable.store import SaveStore
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.menu import MenuScreen
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from game_helpers import bot_choice
from pilot_helpers import screen_text, settle, table_of

SPEC = rules.find_game("abundance")


def one_command_from_the_end(seed: int = 1) -> tuple[Match, int, str]:
    """A match, played by the bot in both seats, one command from its end; the seat that makes
    that command is the human, the other the bot: (the match, the human's seat, the command)."""
    bot = get_bot(SPEC, "bot")
    played = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=seed)
    while not played.over:
        played.submit(*bot_choice(played, bot, chance(seed, len(played.history))))
    *before, last = played.history
    seats = [Seat("Ann"), Seat("Bob")]
    seats[1 - last.seat] = Seat(seats[1 - last.seat].name, "bot")
    match = Match(SPEC, seats, seed=seed)
    for step in before:
        match.submit(step.seat, step.command)
    return match, last.seat, last.text


async def test_the_move_that_ended_the_match_cannot_be_taken_back(tmp_path):
    match, human, last = one_command_from_the_end()
    assert last == "ready" and match.awaiting == {human}
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=(80, 24)) as pilot:
        table = table_of(app, AbundanceTable)
        await settle(pilot, lambda: app.screen is table)
        await pilot.press("r")
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        assert match.over
        recorded = app.record.players()
        assert not match.can_undo(human) and table.check_action("undo", ()) is not True
        # the results took the finished table's place: leaving them goes on to the menu, never
        # back to a table where an undo could reopen the match
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert not table.is_attached
        await pilot.press("ctrl+z")
        await pilot.pause()
        # the match stays over, as the record of finished games says it ended
        assert match.over and match.history[-1].text == last
        assert app.record.players() == recorded


async def test_keys_behind_the_too_small_notice_neither_lift_the_curtain_nor_play(tmp_path):
    match = Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=1)
    store = SaveStore(tmp_path / "data")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        assert "too small" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)  # the curtain is still down
        await pilot.resize_terminal(80, 24)
        await pilot.press("enter")  # now the player sees the table
        await settle(pilot, lambda: app.screen is table_of(app, AbundanceTable))
        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        await pilot.press(str(match.state.available[0]), "p", "5", "enter")
        await pilot.pause()
        assert match.history == []  # nothing was played by a player who could not see
