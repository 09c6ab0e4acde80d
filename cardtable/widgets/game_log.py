"""The game log: what was played, in notation, and what happened, in plain sentences — only
the sentences the current viewer may see."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.padding import Padding
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
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
        # where each entry shown ends: (in plain, in the rendered lines; -1 while not rendered)
        self._ends: list[tuple[int, int]] = []

    @property
    def entries(self) -> int:
        """How many history entries the log shows."""
        return len(self._ends)

    def append(self, played: Played, names: Sequence[str], viewer: int | None) -> None:
        self._write(visible_lines(played, names, viewer))
        self._ends.append((len(self.plain), len(self.lines) if self._size_known else -1))

    def rebuild(self, history: Iterable[Played], names: Sequence[str], viewer: int | None) -> None:
        """Start again from ``history`` (after an undo, or when the viewer changes)."""
        self.clear()
        self.plain = []
        self._ends = []
        for played in list(history)[-MAX_ENTRIES:]:
            self.append(played, names, viewer)

    def drop(self, count: int) -> bool:
        """Take the latest ``count`` entries off the end (a replay stepping back) without
        writing the others again; False when that cannot be done here (rebuild instead)."""
        if not 0 <= count <= len(self._ends) or self._deferred_renders or self.max_lines is not None:
            return False
        keep = len(self._ends) - count
        plain_end, line_end = self._ends[keep - 1] if keep else (0, 0)
        if any(lines < 0 for _plain, lines in self._ends):
            return False
        del self._ends[keep:]
        del self.plain[plain_end:]
        del self.lines[line_end:]
        self._line_cache.clear()
        self._widest_line_width = max((line.cell_length for line in self.lines), default=0)
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.scroll_end(animate=False, immediate=False, x_axis=False)
        self.refresh()
        return True

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
            ends, self._ends = self._ends, []
            self.clear()
            start = 0
            for plain_end, _lines in ends:
                self._write(lines[start:plain_end])
                self._ends.append((len(self.plain), len(self.lines)))
                start = plain_end
            self._write(lines[start:])
        self._width = event.size.width
