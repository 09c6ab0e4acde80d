"""The game log: what was played, in notation, and what happened, in plain sentences — only
the sentences the current viewer may see."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.padding import Padding
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from rules.core import Played

from .card import in_symbols

EVENT_INDENT = "  "
# A long game's log is rebuilt (after an undo or a hand-off) from its last entries only.
MAX_ENTRIES = 400


def visible_lines(played: Played, names: Sequence[str], viewer: int | None) -> list[str]:
    """The log lines of one history entry as ``viewer`` may see them: the seat's name and its
    command (cards in symbols; a secret command — a sealed bid — only to its own seat), then
    one indented sentence per event the viewer may see, worded for the viewer."""
    own = viewer == played.seat
    hidden = played.command.secret and not own
    header = names[played.seat] if hidden else f"{names[played.seat]}: {in_symbols(played.text)}"
    lines = [header]
    for event in played.events:
        if event.visible_to(viewer):
            lines.append(EVENT_INDENT + event.describe(names, viewer))
    return lines


class GameLog(RichLog):
    """A scrolling log kept at its end. ``plain`` holds the visible lines as text."""

    DEFAULT_CSS = """
    GameLog {
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(wrap=True, min_width=10, auto_scroll=True, id=id, classes=classes)
        self.plain: list[str] = []
        self._width = 0

    def append(self, played: Played, names: Sequence[str], viewer: int | None) -> None:
        self._write(visible_lines(played, names, viewer))

    def rebuild(self, history: Iterable[Played], names: Sequence[str], viewer: int | None) -> None:
        """Start again from ``history`` (after an undo, or when the viewer changes)."""
        self.clear()
        self.plain = []
        for played in list(history)[-MAX_ENTRIES:]:
            self.append(played, names, viewer)

    def _write(self, lines: list[str]) -> None:
        for line in lines:
            self.plain.append(line)
            if line.startswith(EVENT_INDENT):
                # Padding keeps a long sentence's wrapped lines under its first one
                self.write(Padding(Text(line.removeprefix(EVENT_INDENT)), (0, 0, 0, len(EVENT_INDENT))))
            else:
                self.write(Text(line, style="bold"))

    def on_resize(self, event: Resize) -> None:
        # RichLog wraps at write time: a new width re-wraps what is already there
        if self._size_known and event.size.width != self._width and self.plain:
            self._width = event.size.width
            lines, self.plain = self.plain, []
            self.clear()
            self._write(lines)
        self._width = event.size.width
