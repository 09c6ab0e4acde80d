"""Helpers the app tests share (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import html
import re

import pytest
from textual.app import App
from textual.screen import Screen


def screen_text(app: App) -> str:
    """What is on screen, as the SVG screenshot draws it: proof of what a player could see."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")


async def settle(pilot, done, limit: int = 400) -> None:
    """Let the app run (bots move through call_later) until ``done()``; fail after ``limit``."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause()
    pytest.fail("the table did not get there")


class TableApp(App[None]):
    """Just enough app to hold one table above an empty default screen."""

    def __init__(self, table: Screen) -> None:
        super().__init__()
        self.table = table

    def on_mount(self) -> None:
        self.push_screen(self.table)
