"""Screens that open as the app closes are left alone.

A screen pushed just before the app closes (the game ends, or a key opens a screen, as the
player quits) gets its Mount and ScreenResume after Textual has taken its parts down: setting
it up then looks for parts no longer there, and the error would reach the player's terminal as
the app ends. Nothing of such a screen will be seen, so nothing of it is set up."""

from __future__ import annotations

from typing import Any

from textual import events


class OpensWhileRunning:
    """Mixed in first by every cardtable screen, and by a widget that sets itself up from its
    parts when mounted (see the module docstring)."""

    async def on_event(self: Any, event: events.Event) -> None:
        if isinstance(event, (events.Mount, events.ScreenResume)) and not self.app.is_running:
            return
        await super().on_event(event)  # type: ignore[misc]
