"""A table stays light however long the game: bots at bot delay 0 are drawn move by move, the
footer's keys are rebuilt once per change however many come before it draws and leave nothing
behind, the log keeps few entries rendered however long the game, and a table waiting for a
human draws nothing. (How fast is tests/benchmark.py's business; these assert the behaviour.)"""

from __future__ import annotations

import gc
import weakref

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets._footer import FooterKey

import rules
from rules.core import Match, Seat

from cardtable import frames
from cardtable.app import CardtableApp
from cardtable.settings import Settings
from cardtable.store import SaveStore
from cardtable.widgets import GameLog
from cardtable.widgets.footer import TableFooter
from cardtable.widgets import game_log
from cardtable.widgets.game_log import RENDERED, visible_lines
from game_helpers import play_random
from pilot_helpers import LogApp, count_frames, screen_text, settle


def bots_at_the_table(tmp_path) -> tuple[CardtableApp, Match]:
    """An Abundance match between two bots at the table, bot delay 0, saved in tmp_path."""
    store = SaveStore(tmp_path / "data")
    match = Match(rules.find_game("abundance"), [Seat("Ann", "bot"), Seat("Bob", "bot")], seed=1)
    return CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match)), match


async def test_bots_at_bot_delay_0_are_drawn_move_by_move(tmp_path):
    # played at once, each bot move came before the screen had drawn the one before: a whole
    # match ran to its end showing its first position (and queued work for every move)
    app, match = bots_at_the_table(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen
        composed: list[int] = []
        compose = table._compositor_refresh

        def counted() -> None:
            composed.append(1)
            compose()

        table._compositor_refresh = counted  # type: ignore[method-assign]
        drawn: list[int] = []
        match.subscribe(lambda _match, _update: drawn.append(len(composed)))
        await settle(pilot, lambda: len(drawn) >= 40, limit=4000)
    # the screen drawn (at least) once between any two bot moves
    assert all(later > earlier for earlier, later in zip(drawn, drawn[1:40])), drawn


class CountingFooter(TableFooter):
    composed = 0

    def compose(self) -> ComposeResult:
        CountingFooter.composed += 1
        yield from super().compose()


class KeysScreen(Screen[None]):
    BINDINGS = [Binding("a", "one", "One"), Binding("b", "two", "Two")]
    shown = 1

    def compose(self) -> ComposeResult:
        yield CountingFooter()

    def check_action(self, action: str, parameters) -> bool | None:
        return action == "one" or self.shown == 2


class KeysApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(KeysScreen())


async def test_the_footer_is_rebuilt_once_for_many_changes_and_keeps_no_old_keys():
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        screen = app.screen
        footer = screen.query_one(CountingFooter)
        await settle(pilot, lambda: len(footer.query(FooterKey)) >= 1)
        for _ in range(5):
            await pilot.pause()
        old = [weakref.ref(key) for key in footer.query(FooterKey)]
        before = CountingFooter.composed

        def change(n: int) -> None:
            screen.shown = 2 if n % 2 == 0 else 1
            footer.bindings_changed(screen)

        for n in range(21):  # the keys shown change 21 times before the screen draws again
            footer.call_later(change, n)
        await settle(pilot, lambda: CountingFooter.composed > before)
        for _ in range(5):
            await pilot.pause()
        assert CountingFooter.composed == before + 1
        assert [key.action for key in footer.query(FooterKey)][:2] == ["one", "two"]
        gc.collect()
        assert [ref() for ref in old] == [None] * len(old)  # the old keys are gone, not held


async def test_the_log_shows_the_whole_game_and_keeps_few_entries_rendered(monkeypatch):
    # every line of a long match was kept rendered (each strip with Textual's caches of its
    # crops and styles): a third more memory at the end; then only the last 200 entries were
    # kept, and the start of the game could not be scrolled back to; then the whole game could
    # be, and the last 200 entries were kept rendered (a fifth of a long match's growth): now
    # two logs' heights of them
    app = LogApp()
    async with app.run_test(size=(40, 20)) as pilot:
        log = app.query_one(GameLog)
        await settle(pilot, lambda: log._size_known)
        match = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1)
        for _ in range(300):
            play_random(match)
            log.append(match.history[-1], match.names, None)
            await pilot.pause()  # each entry drawn, as at a table
        assert log.entries == len(match.history)
        assert log.plain == [line for played in match.history for line in visible_lines(played, match.names, None)]
        assert len(log._rendered) <= max(RENDERED, 2 * log.size.height) == 40
        assert log.virtual_size.height == sum(1 for _strip in log.strips())  # every row counted
        await settle(pilot, lambda: log.scroll_y == log.max_scroll_y > 0)
        log.scroll_home(animate=False)
        await settle(pilot, lambda: log.scroll_y == 0)
        first = visible_lines(match.history[0], match.names, None)[0]
        await settle(pilot, lambda: first in screen_text(app))  # the start can still be read

        # a hand-off back to a viewer words only what that viewer has not read yet (and what
        # comes into sight), not the whole game again
        log.rebuild(match.history, match.names, 0)
        log.rebuild(match.history, match.names, None)
        play_random(match)
        worded: list[int] = []
        wording = game_log.visible_lines
        monkeypatch.setattr(game_log, "visible_lines", lambda *a, **k: (worded.append(1), wording(*a, **k))[1])
        log.rebuild(match.history, match.names, 0)
        assert log.entries == len(match.history) and len(worded) <= 1
        await pilot.pause()
        assert len(worded) <= 1 + log.size.height  # the rows in sight, at most one entry each


async def test_a_table_waiting_for_a_human_draws_nothing(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Cleo", "bot")], seed=3)
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: match.awaiting == {0})
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen._update_timer, frames.FrameTimer)  # (the paced timer, below)
        drawn = count_frames(app)
        await pilot.pause(1.0)  # five looks at the store for moves, none found
        assert drawn == []


async def test_a_tables_frames_are_paced_from_the_last_one(tmp_path, monkeypatch):
    # Textual's screen timer, resumed, skipped to a tick one to two periods ahead: a key's
    # second frame (the line its selection changes) came up to 33 ms after the key
    waits: list[float] = []
    sleep = frames._time.sleep

    async def noted(seconds: float) -> None:
        waits.append(seconds)
        await sleep(seconds)

    monkeypatch.setattr(frames._time, "sleep", noted)
    ticks: list[int] = []
    app = LogApp()
    async with app.run_test() as pilot:
        timer = frames.FrameTimer(app, 0.05, callback=lambda: (ticks.append(1), timer.pause()), pause=True)
        timer._start()
        for round in range(1, 4):
            timer.resume()  # something changed: draw it
            await settle(pilot, lambda: len(ticks) == round)
        timer.stop()
    assert waits and all(0 < wait <= 0.05 for wait in waits)



async def test_a_sheet_over_a_live_table_is_not_drawn_under_at_every_move(tmp_path):
    # a rubber's sales sheet stays over a match between bots for its second half: each move
    # drawn under it had the whole dimmed table composed again (a third of a move's time)
    from cardtable.games.abundance.sales import SalesScreen

    app, match = bots_at_the_table(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen
        log = table.query_one(GameLog)
        await settle(pilot, lambda: len(match.history) >= 5, limit=4000)
        app.push_screen(SalesScreen(match.view(None), match.names))
        await pilot.pause()
        covered_at, entries = len(match.history), log.entries
        await settle(pilot, lambda: len(match.history) >= covered_at + 30, limit=4000)
        assert log.entries == entries  # nothing drawn under the sheet…
        assert table.legal == match.legal(table.viewer)  # …though the table knows where the game is
        uncovered = match.turn
        app.pop_screen()
        await pilot.pause()
        assert log.entries > entries  # uncovered, the table shows every move made meanwhile
        # and its title the turn reached under the sheet (the bots play on: it may be further)
        await settle(pilot, lambda: int(str(table.sub_title).removeprefix("Turn ")) >= uncovered)


async def test_a_removed_widget_takes_its_drawn_lines_with_it():
    # Textual's StylesCache.get_inner_outer, an lru_cache on a method, held the styles cache
    # (and so the drawn lines) of its last 1,024 widgets, removed or not: a table replaces
    # its footer's keys at every move (cardtable.textual_fixes)
    from textual.widgets import Static

    app = LogApp()
    async with app.run_test(size=(40, 20)) as pilot:
        widget = Static("drawn, then removed")
        await app.screen.mount(widget)
        await settle(pilot, lambda: widget._styles_cache._cache)  # drawn: its lines are cached
        drawn, removed = weakref.ref(widget._styles_cache), weakref.ref(widget)
        await widget.remove()
        widget = Static("in its place")  # as the footer's keys are replaced
        await app.screen.mount(widget)
        await settle(pilot, lambda: widget._styles_cache._cache)

        def gone() -> bool:
            gc.collect()
            return removed() is None and drawn() is None

        # (what the screen laid out before lets go of it; on a busy machine a message still in
        # flight may hold it a few frames longer, but the cache that kept 1,024 never lets go)
        await settle(pilot, gone)
