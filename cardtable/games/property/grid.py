"""Property's 8×8 grid: who owns which cell, the cells a pair of cards names, a cursor to pick
one, and the last play.

Columns are the red card's number (1–8, left to right), rows the black card's (1–8, bottom to
top), as on the rules page. The grid only shows what it is given — owners, mortgages, the named
cells — and reports the cell the player points at; the table decides what a pick means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget

from ...widgets.card import RED

SIZE = 8
Cell = tuple[int, int]  # (col, row), both 1–8

SEAT_CLASSES = tuple(f"property-grid--seat-{seat}" for seat in range(6))
_LABEL_WIDTH = 4  # "A/1 " and " 8 " beside the rows
_MIN_CELL, _MAX_CELL = 3, 8  # cell width in columns
_MAX_CELL_HEIGHT = 3


def seat_initials(names: Sequence[str]) -> tuple[str, ...]:
    """Two capitals per seat, different for every seat: the initials of a name of several
    words, else its first two letters, else its first letter with a later one, else a digit."""
    taken: list[str] = []
    for name in names:
        letters = [c for c in name.upper() if c.isalnum()] or ["?"]
        words = [w for w in name.upper().split() if w[:1].isalnum()]
        candidates = []
        if len(words) > 1:
            candidates.append(words[0][0] + words[-1][0])
        candidates += [letters[0] + later for later in letters[1:]]
        candidates += [letters[0] + str(digit) for digit in range(1, 10)]
        taken.append(next((c for c in candidates if c not in taken), letters[0] + "?"))
    return tuple(taken)


@dataclass(frozen=True)
class GridLayout:
    """Where the grid's cells are drawn in a content area: ``left`` blank columns, the row
    labels, then eight cells of ``cell_width`` × ``cell_height``; the column labels below."""

    cell_width: int
    cell_height: int
    left: int = 0

    @classmethod
    def fit(cls, width: int, height: int) -> GridLayout:
        """The largest cells that fit ``width`` × ``height`` (never smaller than 3×1), centred."""
        cell_width = max(_MIN_CELL, min(_MAX_CELL, (width - _LABEL_WIDTH) // SIZE))
        cell_height = max(1, min(_MAX_CELL_HEIGHT, (height - 1) // SIZE))
        left = max(0, (width - _LABEL_WIDTH - SIZE * cell_width) // 2)
        return cls(cell_width, cell_height, left)

    @property
    def width(self) -> int:
        return self.left + _LABEL_WIDTH + SIZE * self.cell_width

    @property
    def height(self) -> int:
        return SIZE * self.cell_height + 1

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at content offset (x, y), or None for the labels and margins."""
        col = (x - self.left - _LABEL_WIDTH) // self.cell_width + 1
        row = SIZE - y // self.cell_height
        if x < self.left + _LABEL_WIDTH or not (1 <= col <= SIZE and 1 <= row <= SIZE) or y < 0:
            return None
        return (col, row)


def _clamp(cell: Cell) -> Cell:
    col, row = cell
    return (max(1, min(SIZE, col)), max(1, min(SIZE, row)))


class PropertyGrid(Widget, can_focus=True):
    """The grid. ``show`` gives it the owners (seat or None per cell, indexed
    ``(row - 1) * 8 + (col - 1)``), the mortgages, the seats' initials and the last play.

    ``named`` are the cells the selected pair of cards can name (highlighted); while it holds
    some but not all cells, the cursor moves among them only. ``move`` moves the cursor: the
    table binds the keys to it while the grid has them (``active``, its cursor drawn stronger),
    and the focus stays on the hand. A click on the cursor's cell chooses it (``CellChosen``); a
    click elsewhere moves the cursor there (``CursorMoved``)."""

    DEFAULT_CSS = """
    PropertyGrid {
        width: 100%;
        height: auto;
        & > .property-grid--empty { color: $text-muted; }
        & > .property-grid--shade { background: $foreground 5%; }
        & > .property-grid--named { background: $accent 30%; }
        & > .property-grid--cursor { background: $accent 55%; color: $text; text-style: bold; }
        & > .property-grid--last { text-style: bold underline; }
        & > .property-grid--row-label { text-style: bold; }
        /* seat colours: the theme's where they stay clear of the accent used for the named
           cells and the cursor; two fixed mid tones that read on light and dark themes */
        & > .property-grid--seat-0 { color: $text-primary; text-style: bold; }
        & > .property-grid--seat-1 { color: $text-success; text-style: bold; }
        & > .property-grid--seat-2 { color: #b36be0; text-style: bold; }
        & > .property-grid--seat-3 { color: $text-error; text-style: bold; }
        & > .property-grid--seat-4 { color: #2aa1b3; text-style: bold; }
        & > .property-grid--seat-5 { color: $text-warning; text-style: bold; }
        & > .property-grid--active-cursor { background: $accent; color: $text; text-style: bold; }
    }
    """

    COMPONENT_CLASSES = {
        "property-grid--empty", "property-grid--shade", "property-grid--named",
        "property-grid--cursor", "property-grid--active-cursor", "property-grid--last",
        "property-grid--row-label", *SEAT_CLASSES,
    }

    # the cursor, the named cells and the keys change only some cells: they redraw those lines
    # (``_redraw``), not the grid
    cursor: reactive[Cell] = reactive((1, 1), repaint=False)
    named: reactive[frozenset[Cell]] = reactive(frozenset, repaint=False)
    active: reactive[bool] = reactive(False, repaint=False)
    """The grid has the keys: its cursor is drawn stronger."""

    class _CellMessage(Message):
        def __init__(self, grid: PropertyGrid, col: int, row: int) -> None:
            super().__init__()
            self.grid = grid
            self.col = col
            self.row = row

        @property
        def control(self) -> PropertyGrid:
            return self.grid

    class CursorMoved(_CellMessage):
        """A click moved the cursor to col·row."""

    class CellChosen(_CellMessage):
        """The player chose col·row (Enter, or a click on the cursor's cell)."""

    def __init__(self, initials: Sequence[str] = (), *, spare_lines: int = 0,
                 id: str | None = None, classes: str | None = None) -> None:
        """``spare_lines``: how many lines of the container the widgets below the grid need,
        so the cells grow only into room that is really free."""
        super().__init__(id=id, classes=classes)
        self.initials = tuple(initials)
        self.spare_lines = spare_lines
        self.owners: tuple[int | None, ...] = (None,) * SIZE * SIZE
        self.mortgaged: tuple[bool, ...] = (False,) * SIZE * SIZE
        self.last: Cell | None = None

    # -- what it shows ---------------------------------------------------------------------
    def show(self, owners: Sequence[int | None], mortgaged: Sequence[bool],
             last: Cell | None = None) -> None:
        self.owners = tuple(owners)
        self.mortgaged = tuple(mortgaged)
        self.last = last
        self.refresh()

    def owner(self, cell: Cell) -> int | None:
        col, row = cell
        return self.owners[(row - 1) * SIZE + (col - 1)]

    def is_mortgaged(self, cell: Cell) -> bool:
        col, row = cell
        return self.mortgaged[(row - 1) * SIZE + (col - 1)]

    def cell_text(self, cell: Cell) -> str:
        """What a cell says, unpadded: the owner's initials (``*`` if mortgaged) or ``·``."""
        owner = self.owner(cell)
        if owner is None:
            return "·"
        initials = self.initials[owner] if owner < len(self.initials) else str(owner + 1)
        return initials + ("*" if self.is_mortgaged(cell) else "")

    def validate_cursor(self, cursor: Cell) -> Cell:
        return _clamp(cursor)

    def watch_cursor(self, old: Cell, new: Cell) -> None:
        self._redraw({old, new})

    def watch_named(self, old: frozenset[Cell], new: frozenset[Cell]) -> None:
        # every cell is named alike when all are (none is highlighted): a change to or from all
        # of them changes the look of every cell named before or after
        whole = SIZE * SIZE
        self._redraw(old | new if whole in (len(old), len(new)) else old ^ new)

    def watch_active(self) -> None:
        self._redraw({self.cursor})

    def nearest_named(self) -> Cell:
        """The named cell nearest the cursor (the cursor itself when none is named)."""
        if not self.named:
            return self.cursor
        col, row = self.cursor
        return min(self.named, key=lambda c: (abs(c[0] - col) + abs(c[1] - row), c))

    # -- drawing ---------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return GridLayout.fit(width, container.height - self.spare_lines).height

    @property
    def layout_now(self) -> GridLayout:
        size = self.content_size
        return GridLayout.fit(size.width, size.height)

    # The grid is drawn line by line (Textual's line API) from segments made straight from the
    # cells, each look of a cell made once: a Rich Text of the whole grid, converted to Textual's
    # Content at every change, took some 20 ms a draw. Textual keeps the lines drawn and asks
    # again only for those refreshed: the watchers above refresh only the lines of the cells
    # whose look changed.
    _styles: dict | None = None  # component styles and segments by look, until the styles change
    _looks: dict[tuple, list[Segment]]
    _drawn_on: VisualStyle | None = None

    def notify_style_update(self) -> None:
        self._styles = None  # a theme or a pseudo-class changed the component styles
        super().notify_style_update()

    def _redraw(self, cells: set[Cell]) -> None:
        """Draw again the lines of ``cells`` only (all of them, when the grid's own style moved
        since it was drawn: the lines kept would no longer match)."""
        if not self.is_mounted or self.visual_style != self._drawn_on:
            self.refresh()
            return
        height, width = self.layout_now.cell_height, self.content_size.width
        rows = {row for _col, row in cells}
        if rows:
            self.refresh(*(Region(0, (SIZE - row) * height, width, height) for row in rows))

    def render_line(self, y: int) -> Strip:
        base = self.visual_style
        if self._styles is None or self._drawn_on != base:
            self._styles, self._looks, self._drawn_on = {}, {}, base
        layout, width = self.layout_now, self.content_size.width
        labels_line = SIZE * layout.cell_height  # the column labels, under the cells' lines
        if y < labels_line:
            return self._line(layout, y, width)
        if y > labels_line:
            return Strip.blank(width, self.rich_style)
        red = Style(color=RED, bold=True)
        labels = [(" " * (layout.left + _LABEL_WIDTH), Style())]
        labels += [(self._label(col, layout.cell_width).center(layout.cell_width), red)
                   for col in range(1, SIZE + 1)]
        return Strip(self._segments(labels)).crop(0, width)

    def _line(self, layout: GridLayout, y: int, width: int) -> Strip:
        """Line ``y`` of the cells (the column labels are below them)."""
        row, line = SIZE - y // layout.cell_height, y % layout.cell_height
        middle = line == (layout.cell_height - 1) // 2
        label = self._label(row, layout.cell_width) if middle else ""
        label_style = self._component("property-grid--row-label")
        segments = self._segments(((" " * layout.left, Style()), (f"{label:>3} ", label_style)))
        for col in range(1, SIZE + 1):
            segments += self._cell(layout, (col, row), middle)
        return Strip(segments).crop(0, width)

    def _segments(self, runs) -> list[Segment]:
        """Runs of (text, Rich style) as segments over the widget's own style, combined as
        Textual's Content combines a span's style with it."""
        base, styles = self._drawn_on, self._styles
        segments = []
        for text, style in runs:
            rich = styles.get(style)
            if rich is None:
                rich = styles[style] = (base + VisualStyle.from_rich_style(style)).rich_style
            segments.append(Segment(text, rich))
        return segments

    @staticmethod
    def _label(number: int, cell_width: int) -> str:
        # an ace is the 1: say so where there is room
        return "A/1" if number == 1 and cell_width >= 5 else str(number)

    def _component(self, name: str) -> Style:
        styles = self._styles
        if styles is None:
            return self.get_component_rich_style(name)
        if name not in styles:
            styles[name] = self.get_component_rich_style(name)
        return styles[name]

    def _ink(self, name: str) -> Style:
        """A component's text colour and style without its background, to draw over a cell's
        own background."""
        full = self._component(name)
        return full.without_color + Style(color=full.color)

    def seat_style(self, seat: int) -> Style:
        """The colour a seat's cells are drawn in (for legends elsewhere)."""
        return self._ink(SEAT_CLASSES[seat % len(SEAT_CLASSES)])

    def _cell(self, layout: GridLayout, cell: Cell, middle: bool) -> list[Segment]:
        """A cell's line: made once for each look (backgrounds, owner, mark) while styles hold."""
        col, row = cell
        shade = (col + row) % 2
        named = cell in self.named and len(self.named) < SIZE * SIZE
        cursor, last = (2 if self.active else 1) if cell == self.cursor else 0, cell == self.last
        owner = self.owner(cell) if middle else None
        content = self.cell_text(cell) if middle else ""
        look = (layout.cell_width, middle, shade, named, cursor, last, owner, content)
        segments = self._looks.get(look)
        if segments is None:
            segments = self._looks[look] = self._segments(self._cell_runs(*look))
        return segments

    def _cell_runs(self, width: int, middle: bool, shade: int, named: bool, cursor: int, last: bool,
                   owner: int | None, content: str) -> list[tuple[str, Style]]:
        style = self._component
        # backgrounds, weakest first: the checkerboard shade, the named cells, the cursor
        base = style("property-grid--shade") if shade else Style()
        if named:
            base += style("property-grid--named")
        if cursor:  # (2: the grid has the keys)
            base += style("property-grid--active-cursor" if cursor == 2 else "property-grid--cursor")
        if last:
            base += self._ink("property-grid--last")
        if not middle:
            return [(" " * width, base)]
        if cursor:
            ink = Style()  # the cursor's own contrasting text: a seat colour could vanish on it
        elif owner is None:
            ink = self._ink("property-grid--empty")
        else:
            ink = self.seat_style(owner)
        # the initials are centred without the mortgage mark, so marking a cell never shifts them
        pad = (width - 1) // 2 if owner is None else (width - 2) // 2
        return [(" " * pad, base), (content, base + ink), (" " * (width - pad - len(content)), base)]

    # -- input -----------------------------------------------------------------------------
    def move(self, dx: int, dy: int) -> bool:
        """Move the cursor a step (to the next named cell that way, while confined to them);
        False at the edge, or with no named cell further that way."""
        col, row = self.cursor
        named = self.named
        confined = bool(named) and len(named) < SIZE * SIZE and self.cursor in named
        while True:
            col, row = col + dx, row + dy
            if not (1 <= col <= SIZE and 1 <= row <= SIZE):
                return False
            if not confined or (col, row) in named:
                self.cursor = (col, row)
                return True

    def choose(self) -> None:
        self.post_message(self.CellChosen(self, *self.cursor))

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.layout_now.cell_at(offset.x, offset.y)
        if cell is None:
            return
        event.stop()
        if cell == self.cursor:
            self.choose()
        else:
            self.cursor = cell
            self.post_message(self.CursorMoved(self, *cell))
