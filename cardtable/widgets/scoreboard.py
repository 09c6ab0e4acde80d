"""The scoreboard: one row per seat from the view's ``columns`` and ``rows``, the seat names
first, the seats whose input the game awaits marked ▶, a searching bot's seat "thinking…"."""

from __future__ import annotations

from typing import Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.core import Seat, View
from rules.core.bots import kind_of

from .beside_board import BesideBoard

AWAITED = "▶"
THINKING = "thinking…"


def scoreboard_table(view: View, seats: Sequence[Seat], labels: Sequence[Text] | None = None,
                     thinking: int | None = None) -> Table:
    """A compact Rich table: a header row, then one row per seat (bots marked "(bot)", "(bot:
    expert)" as every list writes them, and ``thinking`` the seat whose search is running); ``labels`` replace
    the seat names (a table may add each seat's colour or initials)."""
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold",
                  show_edge=False)
    table.add_column("Player", no_wrap=True)
    for label in view.columns:
        table.add_column(Text(str(label)), justify="right", no_wrap=True)
    for index, seat in enumerate(seats):
        awaited = index in view.awaiting
        marker = AWAITED if awaited else " "
        kind = kind_of(seat.bot)
        bot = f" ({kind})" if kind else ""
        if index == thinking:
            bot += f" {THINKING}"
        cells = view.rows[index] if index < len(view.rows) else ()
        style = "bold" if awaited else ""
        label = labels[index] if labels is not None else Text(seat.name)
        # Text, never str: a rich table reads a str cell as markup
        table.add_row(Text.assemble(f"{marker} ", label, bot), *(Text(str(cell)) for cell in cells), style=style)
    return table


class Scoreboard(BesideBoard, Static):
    """Shows ``scoreboard_table`` of the latest view; ``show(view, seats)`` updates it."""

    DEFAULT_CSS = """
    Scoreboard {
        height: auto;
    }
    """

    def show(self, view: View, seats: Sequence[Seat], labels: Sequence[Text] | None = None,
             thinking: int | None = None) -> None:
        self.update(scoreboard_table(view, seats, labels, thinking))
