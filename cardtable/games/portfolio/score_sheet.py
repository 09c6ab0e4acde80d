"""Portfolio's score sheet: the scorekeeper's pencil-and-paper column of each player's money,
a new total written under the last one after every turn that changed it, the old ones struck
through — with the stock, the discard pile and the last-round warning underneath."""

from __future__ import annotations

from typing import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.portfolio.state import PortfolioView

from ...widgets.card import card_text

# Totals shown per column; older ones are summed up by a "…" row.
ROWS = 8


def sheet_table(columns: Sequence[Sequence[int]], names: Sequence[str], current: int | None,
                rows: int = ROWS) -> Table:
    """One column per player, the latest ``rows`` totals of each, top to bottom."""
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    for seat, name in enumerate(names):
        style = "bold underline" if seat == current else "bold"
        table.add_column(Text(name, style=style), justify="right", no_wrap=True, overflow="ellipsis")
    shown = [list(column[-rows:]) for column in columns]
    cut = [len(column) > rows for column in columns]
    height = max((len(column) for column in shown), default=0)
    if any(cut):
        table.add_row(*(Text("…", style="dim") if c else Text("") for c in cut))
    for row in range(height):
        cells = []
        for column in shown:
            if row >= len(column):
                cells.append(Text(""))
            elif row == len(column) - 1:
                cells.append(Text(f"${column[row]}", style="bold"))
            else:
                cells.append(Text(f"${column[row]}", style="dim strike"))
        table.add_row(*cells)
    return table


class ScoreSheet(Static):
    """Shows ``view.score_sheet`` for ``names``; ``show(view, names)`` updates it."""

    DEFAULT_CSS = """
    ScoreSheet {
        height: auto;
    }
    """

    def __init__(self, four_colour: bool = False, rows: int = ROWS, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.four_colour = four_colour
        self.rows = rows

    def show(self, view: PortfolioView, names: Sequence[str], four_colour: bool | None = None) -> None:
        if four_colour is not None:
            self.four_colour = four_colour
        top = card_text(view.discard_top, self.four_colour) if view.discard_top else Text("empty")
        footer = Text.assemble(("Stock ", "bold"), str(view.stock_size), " · ", ("discard ", "bold"), top)
        parts = [sheet_table(view.score_sheet, names, view.current if view.awaiting else None,
                             self.rows), footer]
        if view.last_round:
            parts.append(Text("LAST ROUND: the stock is out", style="bold reverse red"))
        self.update(Group(*parts))
