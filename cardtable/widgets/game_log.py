"""The game log: what was played, in notation, and what happened, in plain sentences — only
the sentences the current viewer may see."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rich.console import RenderableType
from rich.measure import measure_renderables
from rich.padding import Padding
from rich.segment import Segment
from textual.events import Resize
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import RichLog

from rules.core import Played
from rules.core.words import Sentence, player, say

from .words import styled

EVENT_INDENT = "  "
# A long game's log shows its last entries only: rebuilt (after an undo or a hand-off) from
# them, and trimmed back to them as it grows, so a long match costs no more to show at its end
# than at its start (it held every line, rendered, to the end of the match).
MAX_ENTRIES = 200
TRIM_SLACK = 25  # entries past MAX_ENTRIES before the oldest are taken off (a few at a time)
RENDER_CACHE = 1000  # lines kept rendered (for one width): about the lines of MAX_ENTRIES entries


def shown_command(played: Played, names: Sequence[str], notation: Any = None) -> str:
    """A command as the log shows it: the game notation's ``display`` (cards and players as
    parts, a player by name), else its saved notation as it is."""
    display = getattr(notation, "display", None)
    if display is not None:
        try:
            return display(played.command, names)
        except Exception:  # noqa: BLE001 — a log line must never stop the table
            pass
    return Sentence(played.text)


def visible_lines(played: Played, names: Sequence[str], viewer: int | None,
                  notation: Any = None) -> list[str]:
    """The log lines of one history entry as ``viewer`` may see them: the seat's name and its
    command (a secret command — a sealed bid — only to its own seat), then one indented
    sentence per event the viewer may see, worded for the viewer. Lines are Sentences: their
    players, cards and money are styled from their parts."""
    own = viewer == played.seat
    hidden = played.command.secret and not own
    who = player(names, played.seat)
    header = say("{}: (in secret)", who) if hidden else say("{}: {}", who, shown_command(played, names, notation))
    lines: list[str] = [header]
    for event in played.events:
        if event.visible_to(viewer):
            lines.append(Sentence(EVENT_INDENT, event.describe(names, viewer)))
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
        self.notation: Any = None
        """The game's notation, whose ``display`` writes commands with their cards and players."""
        self.four_colour = False
        self._width = 0
        self._widest = 0
        self._rendered: dict[tuple[Any, int, bool], list[Strip]] = {}
        # where each entry shown ends: (in plain, in the rendered lines; -1 while not rendered)
        self._ends: list[tuple[int, int]] = []

    @property
    def entries(self) -> int:
        """How many history entries the log shows."""
        return len(self._ends)

    def append(self, played: Played, names: Sequence[str], viewer: int | None) -> None:
        self._write(visible_lines(played, names, viewer, self.notation))
        self._end_entry()
        if len(self._ends) > MAX_ENTRIES + TRIM_SLACK:
            self._trim(len(self._ends) - MAX_ENTRIES)

    def _trim(self, count: int) -> None:
        """Take the oldest ``count`` entries off the top of the log."""
        if self._deferred_renders or any(lines < 0 for _plain, lines in self._ends[:count]):
            return  # not rendered yet: trimmed on a later append
        plain_end, line_end = self._ends[count - 1]
        del self._ends[:count]
        self._ends = [(plain - plain_end, lines - line_end) for plain, lines in self._ends]
        del self.plain[:plain_end]
        del self.lines[:line_end]
        self._start_line += line_end  # RichLog's line cache is keyed by the line's number from the first
        self._widest = max((line.cell_length for line in self.lines), default=0)
        self._show()

    def _end_entry(self) -> None:
        self._ends.append((len(self.plain), len(self.lines) if self._size_known else -1))

    def rebuild(self, history: Iterable[Played], names: Sequence[str], viewer: int | None) -> None:
        """Start again from ``history`` (after an undo, or when the viewer changes). When the
        lines come out the same as those shown (a viewer who may read just what the last one
        did), nothing is redrawn: writing hundreds of lines again is the slow part."""
        entries = [visible_lines(played, names, viewer, self.notation) for played in list(history)[-MAX_ENTRIES:]]
        lines = [line for entry in entries for line in entry]
        if lines == self.plain and len(entries) == len(self._ends):
            return
        self.clear()
        self.plain = []
        self._ends = []
        for entry in entries:
            self._write(entry, show=False)
            self._end_entry()
        self._show()

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
        self._widest = max((line.cell_length for line in self.lines), default=0)
        self._show()
        return True

    def _write(self, lines: list[str], show: bool = True) -> None:
        self.plain.extend(lines)
        if not self._size_known:  # RichLog keeps writes until it knows its width
            for line in lines:
                self.write(self._renderable(line))
            return
        width = self.scrollable_content_region.width
        strips = [strip for line in lines for strip in self._strips(line, width)]
        if not strips:
            return
        self.lines.extend(strips)
        self._widest = max(self._widest, *(strip.cell_length for strip in strips))
        if show:
            self._show()

    def _show(self) -> None:
        """Size the log to its lines and keep it at its end."""
        if not self._size_known:  # RichLog sizes itself once the kept writes are rendered
            return
        self.virtual_size = Size(self._widest, len(self.lines))
        self.refresh()
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=False, x_axis=False)

    def _renderable(self, line: str) -> RenderableType:
        if line.startswith(EVENT_INDENT):
            # Padding keeps a long sentence's wrapped lines under its first one
            text = styled(line, four_colour=self.four_colour)[len(EVENT_INDENT):]
            return Padding(text, (0, 0, 0, len(EVENT_INDENT)))
        return styled(line, style="bold", four_colour=self.four_colour)

    def _strips(self, line: str, width: int) -> list[Strip]:
        """``line`` rendered as RichLog.write renders it (shrunk to fit ``width``), from a cache:
        a rebuild for another viewer finds most of its lines there, so it costs a list of
        strips instead of wrapping hundreds of sentences again."""
        key = (getattr(line, "parts", line), width, self.four_colour)
        strips = self._rendered.get(key)
        if strips is None:
            console = self.app.console
            renderable = self._renderable(line)
            measured = measure_renderables(console, console.options, [renderable]).maximum
            render_width = max(min(measured, width), self.min_width)
            rendered = list(Segment.split_lines(console.render(renderable, console.options.update_width(render_width))))
            strips = Strip.from_lines(rendered) if rendered else [Strip.blank(render_width)]
            if len(self._rendered) >= RENDER_CACHE:
                self._rendered.clear()
            self._rendered[key] = strips
        return strips

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # A layout of the screen hands a scroll view its viewport as its virtual size, which is
        # not the log's (its lines): Textual's ScrollView took the difference for a change and
        # repainted the scrollbar, a frame of its own a period after every layout (a key that
        # relaid the table was drawn twice). The log's own size is the one to compare.
        return super()._size_updated(size, self.virtual_size, container_size, layout)

    def clear(self) -> GameLog:
        self._widest = 0
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        # RichLog wraps at write time: a new width re-wraps what is already there
        if self._size_known and event.size.width != self._width and self.plain:
            self._width = event.size.width
            lines, self.plain = self.plain, []
            ends, self._ends = self._ends, []
            self.clear()
            start = 0
            for plain_end, _lines in ends:
                self._write(lines[start:plain_end], show=False)
                self._end_entry()
                start = plain_end
            self._write(lines[start:], show=False)
            self._show()
        elif self._size_known and self.auto_scroll:
            # a shorter log (the hand beneath it grew a row) would otherwise stop short of its end
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        self._width = event.size.width
