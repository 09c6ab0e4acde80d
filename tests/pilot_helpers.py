"""Helpers the app tests share (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import html
import re

import pytest
from textual.app import App


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
