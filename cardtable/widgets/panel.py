"""What board widgets share: a Static that redraws only when what it shows has
changed (the table redraws the whole board after every move, and most of it stays as it was),
``fitting`` (a widget whose content changes is laid out again only when its height does), and
plain columns of Text (cheaper to lay out than a Rich table, and comparable)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static


def _content_height(widget: Widget) -> int | None:
    """The widget's content height at its width as a layout measures it; None when a layout
    is needed whatever it is (not laid out yet, or its width follows its content)."""
    width = widget.content_size.width
    if not widget.is_mounted or width <= 0 or (widget.styles.width is not None and widget.styles.width.is_auto):
        return None
    size = widget.app.size
    return widget.get_content_height(size, size, width)


@contextmanager
def fitting(widget: Widget) -> Iterator[None]:
    """Change what ``widget`` shows inside this block: it is repainted, and the screen laid out
    again only when the widget's height changed. A layout is not free (Textual's Static lays
    the screen out at every update), and a key that changes a line the size it was should
    cost one repaint of that widget."""
    height = widget.styles.height
    fixed = height is not None and not height.is_auto
    before = None if fixed else _content_height(widget)
    yield
    widget.refresh()  # (also forgets the measured height, for the one below)
    if not fixed and (before is None or _content_height(widget) != before):
        widget.refresh(layout=True)


class Panel(Static):
    """``show_text(text, title)``: update only when the text or the title changed."""

    DEFAULT_CSS = """
    Panel {
        height: auto;
    }
    """

    _shown_text: Text | None = None
    _shown_title: str | Text | None = None

    def show_text(self, text: Text, title: str | Text | None = None) -> None:
        if title is not None and title != self._shown_title:
            self._shown_title = title
            # a str title would be read as markup, and a title may hold a player's name
            self.border_title = title if isinstance(title, Text) else Text(title)
        if text != self._shown_text:
            self._shown_text = text
            with fitting(self):
                self.update(text, layout=False)


def columns(rows: Sequence[Sequence[Text]], gap: int = 1) -> Text:
    """Rows of cells as lines: the first column left-aligned, the others right-aligned, each as
    wide as its widest cell, ``gap`` spaces apart."""
    count = max((len(row) for row in rows), default=0)
    widths = [max((row[i].cell_len for row in rows if i < len(row)), default=0) for i in range(count)]
    lines = []
    for row in rows:
        line = Text()
        for index, cell in enumerate(row):
            pad = widths[index] - cell.cell_len
            if index == 0:
                line.append_text(cell)
                line.append(" " * pad)
            else:
                line.append(" " * (gap + pad))
                line.append_text(cell)
        lines.append(line)
    return Text("\n").join(lines)
