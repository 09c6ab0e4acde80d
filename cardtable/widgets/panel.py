"""What board widgets share: a Static that redraws only when what it shows has
changed (the table redraws the whole board after every move, and most of it stays as it was),
and plain columns of Text (cheaper to lay out than a Rich table, and comparable)."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.widgets import Static


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
            self.update(text)


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
