"""The log widget on its own: it stays at its end when the table around it changes its size."""

from __future__ import annotations

import rules
from rules.core import Match, Seat

from cardtable.widgets import GameLog
from game_helpers import play_random
from pilot_helpers import LogApp, settle


async def test_the_log_stays_at_its_end_when_it_gets_shorter():
    app = LogApp()
    async with app.run_test(size=(40, 20)) as pilot:
        log = app.query_one(GameLog)
        match = Match(rules.find_game("portfolio"), [Seat("Ann"), Seat("Bob")], seed=1)
        for _ in range(40):
            play_random(match)
        log.rebuild(match.history, match.names, None)
        await settle(pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y)
        # as when the hand under the log wraps onto one more row
        log.styles.height = 15
        # the new size, its Resize and the scroll after the refresh take a few turns of the loop
        await settle(pilot, lambda: log.size.height == 15 and log.scroll_y == log.max_scroll_y)
