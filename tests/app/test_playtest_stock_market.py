"""Found by play-testing Card Stock Market at 80×24 (a human against a bot, then two humans at
one screen): what a new player met, as tests that fail until it is mended."""

from __future__ import annotations

import re

from textual.app import App

from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.results import ResultsScreen
from pilot_helpers import one_bot_move_from_the_end, screen_text, snapshot_app, until

# the question Card Stock Market asks before a court card is laid as $0, word for word as the
# play-test met it (Ann held 10 shares of ♠ and pressed 0 on Q♠)
CRASH_QUESTION = ("Lay Q♠ as $0? ♠ goes bankrupt: Ann loses 10 shares ($20). Every ♠ certificate goes to "
                  "the discard pile, and nobody can buy ♠ until a number card is laid on it.")


class QuestionApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(ConfirmScreen(CRASH_QUESTION, default=False))


def question_shown(text: str) -> str:
    """The question as the dialog shows it: the lines of words inside its thick border (not its
    edges, nor the buttons' row), joined with spaces."""
    inside = [match.group(1).strip() for line in text.splitlines() if (match := re.fullmatch(r"█(.*)█", line))]
    return " ".join(line for line in inside if line and not set(line) & set("▀▄▔▁") and "Yes (y)" not in line)


async def test_the_crash_question_shows_every_word():
    # the box is at most 70 wide, less its border (2) and padding (4): 64 columns for the words,
    # but the message may be 66 wide, so the last word of a full line was cut by the box: at 80×24
    # and at 120×40 alike the player read "…($20). Every" and "…can buy ♠ until" — the ♠ after
    # "Every" and the "a" before "number card" were not on screen (keys: a court card selected,
    # then 0)
    for size in ((80, 24), (120, 40)):
        app = QuestionApp()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert question_shown(screen_text(app)) == CRASH_QUESTION


async def test_the_final_table_shows_the_whole_sheet(tmp_path):
    # t on the results showed a board 3 lines high: the price sheet's heading and ♦ and ♠, then
    # "Hands hidden" above eleven empty lines — no ♥, no ♣, no holdings, no bank (8 lines of
    # board to scroll); the same at the end of a game (a joker drawn) and on a finished game
    # opened from the saves list
    app = snapshot_app(tmp_path, one_bot_move_from_the_end("stock-market"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.query("#results-scores"))
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        text = screen_text(app)
        assert all(re.search(rf"^{suit}\$\d", text, re.MULTILINE) for suit in "♦♠♥♣")  # the four price rows
        assert "Worth" in text and "Bank $" in text
