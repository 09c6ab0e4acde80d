"""The widgets that share the board's column (the scoreboard, the hand, and what a game puts in
the hand's place) say when their size changes, so the table measures the board's room again.

The table fits the board after each redraw, but a widget that mounts new children (the hand
showing cards where it showed a line of text) is laid out a frame later: fitted then, the board
kept the room measured before, a row short (or a row too tall, the hand cut off) until the next
move. A widget's Resize does not bubble; this message does."""

from __future__ import annotations

from textual.events import Resize
from textual.message import Message


class Resized(Message):
    """A widget beside the board changed size."""


class BesideBoard:
    """Mixed into a Widget in the board's column: posts Resized when its size changes."""

    def on_resize(self, event: Resize) -> None:
        self.post_message(Resized())  # type: ignore[attr-defined]
