"""Found by play-testing Capital Auction at 80×24 (a human against a bot, then two humans and a
bot at one screen): what a new player met, as tests that fail until it is mended."""

from __future__ import annotations

from cardtable.screens.results import ResultsScreen
from cardtable.screens.setup import SetupScreen
from pilot_helpers import one_bot_move_from_the_end, screen_text, snapshot_app, until


async def results_of_a_game_just_finished(pilot, app) -> None:
    await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.query("#results-scores"))
    await pilot.pause()


async def test_new_game_from_the_results_of_a_game_just_finished(tmp_path):
    # n on the results of a game that ended at the table pops the results and the live table
    # under them, then opens the setup; the table, resumed for a moment on the way, asks to fit
    # its board after the next refresh and by then has lost its #play column: "NoMatches: No
    # nodes match '#play' on CapitalAuctionTable", and cardtable closed with a traceback (keys:
    # the bid that ended the game, then n on the results; Card Stock Market's table does the same)
    app = snapshot_app(tmp_path, one_bot_move_from_the_end("capital-auction"))
    async with app.run_test(size=(80, 24)) as pilot:
        await results_of_a_game_just_finished(pilot, app)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert app.return_code is None  # still running: no exception reached the player


async def test_the_final_table_shows_the_portfolios(tmp_path):
    # t on the results showed a board 3 lines high, cut after "Auction 2: sold": no portfolios
    # (who holds what is the whole result), 11 lines of board to scroll, and under it the
    # Capital note cut short ("Each player's Capital cards are theirs alone to") above empty
    # lines; the same at the end of a game and on a finished game opened from the saves list
    app = snapshot_app(tmp_path, one_bot_move_from_the_end("capital-auction"))
    async with app.run_test(size=(80, 24)) as pilot:
        await results_of_a_game_just_finished(pilot, app)
        await pilot.press("t")
        await pilot.pause()
        text = screen_text(app)
        assert "Portfolios" in text and "Ann 1:" in text and "Bob 1:" in text
