"""The game log: what was played, in notation, and what happened, in plain sentences — only
the sentences the current viewer may see."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import Any, Iterable, Iterator, Sequence

from rich.console import RenderableType
from rich.measure import measure_renderables
from rich.padding import Padding
from rich.segment import Segment
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rules.core import Played
from rules.core.words import Sentence, player, say

from .words import styled

EVENT_INDENT = "  "
# The log holds the whole game, but only as the entries (the match's own) and how many rows
# each takes; an entry's lines are worded and rendered when they come into sight, and kept for
# the entries seen last: two logs' heights of them (an entry takes a row at least), and no
# fewer than RENDERED. (Holding every line rendered, each strip with Textual's caches of its
# crops and styles, grew a long match's memory by a third; keeping the last 200 entries only
# bounded it, but the start of the game could no longer be scrolled back to; 200 entries kept,
# some 1,200 strips with seven caches each, were still a fifth of a long match's growth.)
RENDERED = 32  # entries kept worded and rendered, at least


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


class GameLog(ScrollView, can_focus=True):
    """A scrolling log of the whole game, kept at its end. ``plain`` is every line it shows, as
    text (worded on demand: for tests and the like, not for drawing)."""

    DEFAULT_CSS = """
    GameLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        scrollbar-size-vertical: 1;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.notation: Any = None
        """The game's notation, whose ``display`` writes commands with their cards and players."""
        self.four_colour = False
        self.auto_scroll = True
        self.min_width = 10
        self._size_known = False
        self._width = 0  # the width the rows were counted at
        self._played: list[Played] = []
        self._names: tuple[str, ...] = ()
        self._viewer: int | None = None
        # rows each entry takes at _width, per viewer: for _played[:len(counts)] (a hand-off
        # back to a viewer counts only the entries made since that viewer's last look)
        self._counts: dict[int | None, list[int]] = {}
        self._ends = array("q")  # the rows up to the end of each entry, for the viewer shown
        # (entry, viewer, width, four_colour) -> (the entry, its lines, their rows rendered)
        # (sized to the log's height once it has one: on_resize)
        self._rendered: LRUCache[tuple[int, int | None, int, bool], tuple[Played, list[str], list[Strip]]] = \
            LRUCache(RENDERED)

    @property
    def entries(self) -> int:
        """How many history entries the log shows."""
        return len(self._played)

    @property
    def plain(self) -> list[str]:
        """Every line of the log as text (each worded now: not for drawing)."""
        return [line for index in range(len(self._played)) for line in self._lines(index)]

    def strips(self) -> Iterator[Strip]:
        """Every row of the log, rendered (for tests: drawing renders the rows in sight only)."""
        for index in range(len(self._played)):
            yield from self._entry(index)[2]

    # -- what is shown ---------------------------------------------------------------------------
    def append(self, played: Played, names: Sequence[str], viewer: int | None) -> None:
        if tuple(names) != self._names or viewer != self._viewer:
            self.rebuild([*self._played, played], names, viewer)
            return
        self._played.append(played)
        self._lay_out()

    def rebuild(self, history: Iterable[Played], names: Sequence[str], viewer: int | None) -> None:
        """Show ``history`` as ``viewer`` may read it (after an undo, or when the viewer changes).
        Entries already counted for that viewer are not worded again: a hand-off late in a long
        game costs the entries since that viewer last looked."""
        history = list(history)
        names = tuple(names)
        if names != self._names:
            self._counts.clear()
            self._rendered.clear()
        keep = next((n for n, (old, new) in enumerate(zip(self._played, history)) if old is not new),
                    min(len(self._played), len(history)))
        if keep == len(history) == len(self._played) and viewer == self._viewer and names == self._names:
            return
        for counts in self._counts.values():
            del counts[keep:]
        self._played, self._names, self._viewer = history, names, viewer
        self._ends = array("q")
        self._lay_out()

    def drop(self, count: int) -> bool:
        """Take the latest ``count`` entries off the end (a replay stepping back); False when
        there are not that many."""
        if not 0 <= count <= len(self._played):
            return False
        keep = len(self._played) - count
        del self._played[keep:]
        for counts in self._counts.values():
            del counts[keep:]
        del self._ends[keep:]
        self._lay_out()
        return True

    def clear(self) -> GameLog:
        self._played = []
        self._counts.clear()
        self._rendered.clear()
        self._ends = array("q")
        self._lay_out()
        return self

    def _lay_out(self) -> None:
        """Count the rows of the entries not yet counted, size the log to them and keep it at
        its end."""
        if not self._size_known:
            return  # counted once the log knows its width (on_resize)
        counts = self._counts.setdefault(self._viewer, [])
        for index in range(len(counts), len(self._played)):
            counts.append(len(self._entry(index)[2]))
        ends = self._ends
        del ends[len(self._played):]
        total = ends[-1] if ends else 0
        for rows in counts[len(ends):len(self._played)]:
            total += rows
            ends.append(total)
        size = Size(self._width if total else 0, total)
        if not total and size == self.virtual_size:
            return  # still nothing to show: no layout for it
        self.virtual_size = size
        self.refresh()
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=False, x_axis=False)

    # -- wording and rendering -----------------------------------------------------------------
    def _lines(self, index: int) -> list[str]:
        cached = self._rendered.get((index, self._viewer, self._width, self.four_colour))
        if cached is not None and cached[0] is self._played[index]:
            return cached[1]
        return visible_lines(self._played[index], self._names, self._viewer, self.notation)

    def _entry(self, index: int) -> tuple[Played, list[str], list[Strip]]:
        """Entry ``index``, its lines and their rows rendered at the log's width (from the cache
        of the entries seen last)."""
        played = self._played[index]
        key = (index, self._viewer, self._width, self.four_colour)
        cached = self._rendered.get(key)
        if cached is None or cached[0] is not played:
            lines = visible_lines(played, self._names, self._viewer, self.notation)
            cached = (played, lines, [strip for line in lines for strip in self._render(line, self._width)])
            self._rendered[key] = cached
        return cached

    def _renderable(self, line: str) -> RenderableType:
        if line.startswith(EVENT_INDENT):
            # Padding keeps a long sentence's wrapped lines under its first one
            text = styled(line, four_colour=self.four_colour)[len(EVENT_INDENT):]
            return Padding(text, (0, 0, 0, len(EVENT_INDENT)))
        return styled(line, style="bold", four_colour=self.four_colour)

    def _render(self, line: str, width: int) -> list[Strip]:
        """``line`` rendered as RichLog.write renders it (wrapped to fit ``width``)."""
        console = self.app.console
        renderable = self._renderable(line)
        measured = measure_renderables(console, console.options, [renderable]).maximum
        render_width = max(min(measured, width), self.min_width)
        rendered = list(Segment.split_lines(console.render(renderable, console.options.update_width(render_width))))
        return Strip.from_lines(rendered) if rendered else [Strip.blank(render_width)]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        row = scroll_y + y
        ends = self._ends
        if not 0 <= row < (ends[-1] if ends else 0):
            return Strip.blank(width, self.rich_style)
        index = bisect_right(ends, row)
        strips = self._entry(index)[2]
        offset = row - (ends[index - 1] if index else 0)
        if offset >= len(strips):  # (a width the rows were not counted at: until on_resize)
            return Strip.blank(width, self.rich_style)
        return strips[offset].crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(self.rich_style)

    # -- size ----------------------------------------------------------------------------------
    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.virtual_size.width if self._size_known else container.width

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # A layout of the screen hands a scroll view its viewport as its virtual size, which is
        # not the log's (its lines): Textual's ScrollView took the difference for a change and
        # repainted the scrollbar, a frame of its own a period after every layout (a key that
        # relaid the table was drawn twice). The log's own size is the one to compare.
        return super()._size_updated(size, self.virtual_size, container_size, layout)

    def on_resize(self, event: Resize) -> None:
        keep = max(RENDERED, 2 * self.size.height)
        if keep != self._rendered.maxsize:
            # anew: Textual's LRUCache, once full, never holds more, and drops one entry per
            # entry added (the entries in sight are rendered again, once)
            self._rendered = LRUCache(keep)
        # the rows of a line depend on the width it wraps at: a new width counts them again
        width = self.scrollable_content_region.width
        if width and width != self._width:
            self._size_known = True
            self._width = width
            self._counts.clear()
            self._rendered.clear()
            self._ends = array("q")
            self._lay_out()
        elif self._size_known and self.auto_scroll:
            # a shorter log (the hand beneath it grew a row) would otherwise stop short of its end
            self.scroll_end(animate=False, immediate=False, x_axis=False)
