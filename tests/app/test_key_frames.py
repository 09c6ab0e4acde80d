"""A key at a table is drawn whole in one frame: the hand (the chips, the auction block) and
what the table says about the change come together, and nothing is laid out again when no
size changed. (How fast is tests/benchmark.py's business; these count frames and layouts.)"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

import rules
from rules.core import Match, Seat

from benchmark import KEY_TABLES, key_position
from cardtable.app import CardtableApp
from cardtable.frames import FrameTimer
from cardtable.settings import Settings
from cardtable.store import SaveStore
from cardtable.widgets import GameLog
from cardtable.widgets.panel import Panel
from game_helpers import play_random
from pilot_helpers import LogApp, count_frames, property_position, settle


def count_layouts(screen) -> list[int]:
    """A list that grows by one for every layout of ``screen``."""
    layouts: list[int] = []
    layout = screen._refresh_layout

    def counted(*args, **kwargs) -> None:
        layouts.append(1)
        layout(*args, **kwargs)

    screen._refresh_layout = counted  # type: ignore[method-assign]
    return layouts


async def quiet(pilot, frames: list[int], layouts: list[int]) -> None:
    """Let the app run until nothing has been drawn or laid out for five steps."""
    still = 0
    for _ in range(400):
        count = len(frames) + len(layouts)
        await pilot.pause()
        still = still + 1 if len(frames) + len(layouts) == count else 0
        if still == 5:
            return
    pytest.fail("the screen did not come to rest")


async def each_in_one_frame_without_a_layout(pilot, table, keys: list[str]) -> None:
    """Press ``keys`` in turn at ``table``: each is drawn in one frame, and nothing laid out."""
    timer = table._update_timer
    frames, layouts = count_frames(pilot.app), count_layouts(table)
    await quiet(pilot, frames, layouts)
    for key in keys:
        del frames[:], layouts[:]
        await pilot.press(key)
        for _ in range(3):  # a later frame the key caused would be due by now
            await settle(pilot, lambda: not timer.due)
            await pilot.pause()
        assert (key, len(frames), len(layouts)) == (key, 1, 0)


# (Portfolio's selection changes the hand only; Card Stock Market's card line keeps its two lines)
@pytest.mark.parametrize("game", ["property", "stock-market", "capital-auction", "abundance"])
async def test_every_timed_key_is_drawn_in_one_frame_without_a_layout(game, monkeypatch):
    # the table heard of a selection a message after the hand was drawn, and drew its answer
    # (Property's preview, the card line) a period later; a line updated the same size laid the
    # screen out, and the layout repainted the log's scrollbar in a frame of its own
    # a loaded machine must not cut a settling frame short: what is counted is the frames
    monkeypatch.setattr(FrameTimer, "settle_periods", 100)
    players, widget, keys = KEY_TABLES[game]
    app = CardtableApp(store=SaveStore(Path(tempfile.mkdtemp())), settings=Settings(bot_delay=0),
                       match=key_position(game, players))
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen
        await settle(pilot, lambda: app.screen is table)
        table.query_one(widget).focus()
        await settle(pilot, lambda: table.query_one(widget).has_focus)
        # the cursor one way, a selection, back, the selection taken back (a second card selected
        # can change more: Property's wild pair hands the keys to the grid, below)
        sequence = [key for key, _character, _what in keys]
        sequence += [{"right": "left"}.get(key, key) for key in sequence]
        await each_in_one_frame_without_a_layout(pilot, table, sequence)


async def test_a_wild_pair_hands_the_keys_to_the_grid_and_back_in_one_frame_without_a_layout(monkeypatch):
    # the grid took the focus: the whole screen redrawn, the footer rebuilt without the hand's
    # Select card (one line fewer at 80 columns, and the screen laid out twice), three frames
    monkeypatch.setattr(FrameTimer, "settle_periods", 100)
    match = property_position(["........"] * 8, ["9D", "5C", "7H", "3S", "10H"])  # 3♠ 7♥ 10♥ 9♦ 5♣
    app = CardtableApp(store=SaveStore(Path(tempfile.mkdtemp())), settings=Settings(bot_delay=0), match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen
        await settle(pilot, lambda: table.hand.has_focus)
        await pilot.press("right", "right", "right", "space", "right")  # 9♦ selected, on 5♣
        # the wild pair, the grid's cursor right, the keys back to the hand, the pair broken and
        # made again, the grid's cursor left, and tab back
        await each_in_one_frame_without_a_layout(
            pilot, table, ["space", "right", "escape", "space", "space", "left", "tab"])
        assert not table.grid_has_keys and match.history == []


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Panel(Text("one line"), id="panel")


async def test_a_panel_is_laid_out_again_only_when_its_height_changes():
    app = PanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(Panel)
        layouts = count_layouts(app.screen)
        await quiet(pilot, count_frames(app), layouts)
        del layouts[:]
        panel.show_text(Text("another line"))
        await pilot.pause()
        assert layouts == []
        panel.show_text(Text("three\nlines\nnow"))
        await settle(pilot, lambda: panel.size.height == 3)
        assert layouts
        del layouts[:]
        panel.show_text(Text("wrapped " * 12))  # three lines again at 40 columns, by wrapping
        await pilot.pause()
        assert layouts == [] and panel.size.height == 3


async def test_a_layout_leaves_the_logs_scrollbar_alone():
    app = LogApp()
    async with app.run_test(size=(40, 20)) as pilot:
        log = app.query_one(GameLog)
        await settle(pilot, lambda: log._size_known)
        match = Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1)
        play_random(match)
        log.append(match.history[-1], match.names, None)
        layouts = count_layouts(app.screen)
        await quiet(pilot, count_frames(app), layouts)
        repaints: list[int] = []
        scrollbar = log.vertical_scrollbar
        refresh = scrollbar.refresh
        scrollbar.refresh = lambda *a, **k: (repaints.append(1), refresh(*a, **k))[1]  # type: ignore[method-assign]
        del layouts[:]
        app.screen.refresh(layout=True)
        await settle(pilot, lambda: layouts)
        await pilot.pause()
        assert repaints == []
