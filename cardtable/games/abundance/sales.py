"""Abundance's record of the match: every round's sale (what one trinket of each suit paid and
what each player's trinkets fetched), the money each player finished each rubber with, and the
match totals — from the view's ``sales`` and ``rubbers``.

``SalesSheet`` shows it on the table (on a tall terminal) and in the match's results;
``SalesScreen`` is the sheet over the table: on ``s`` at any time, and by itself when a rubber
ends.
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.widgets import Static

from rules.abundance.state import AbundanceView
from rules.core import SUITS
from rules.core.words import Sentence, dollars, player, say

from ...widgets.card import suit_colour
from ...widgets.dialog import Dialog
from .market import short_name
from ...widgets.panel import Panel, columns
from ...widgets.words import styled


TITLE = "Sales · what each suit paid, what each player fetched"
SHORT_TITLE = "Sales · suits paid, players fetched"
COMPACT_NAMES = 6  # a name's width in the compact sheet


def sales_table(view: AbundanceView, names: Sequence[str], rubber: int | None = None,
                four_colour: bool = False, name_width: int = 8, compact: bool = False,
                gap: int = 2) -> Text:
    """One row per sale (of ``rubber`` only, or of the whole match so far), each rubber closed
    by the money its players finished with, and the match total once both are over, its
    columns ``gap`` apart. ``compact``: short row labels ("R1 rd 1", "R1 ends", "Total"), for a
    narrow board (eight columns once both rubbers are in)."""
    rows = [[Text("Sale", style="bold"),
             *(Text(suit.symbol, style=f"bold {suit_colour(suit, four_colour)}".strip()) for suit in SUITS),
             *(Text(short_name(name, name_width), style="bold") for name in names)]]
    blank = [Text("")] * len(SUITS)
    rubbers = [rubber] if rubber is not None else sorted({sale.rubber for sale in view.sales} | {view.rubber})
    for number in rubbers:
        for sale in (s for s in view.sales if s.rubber == number):
            rows.append([Text(f"R{number} rd {sale.round}" if compact else f"R{number} round {sale.round}"),
                         *(Text(dollars(pay), style="" if pay else "dim") for pay in sale.pays),
                         *(Text(dollars(amount), style="bold" if amount else "dim") for amount in sale.amounts)])
        if number <= len(view.rubbers):
            rows.append([Text(f"R{number} ends" if compact else f"Rubber {number} ends", style="bold"), *blank,
                         *(Text(dollars(m), style="bold underline") for m in view.rubbers[number - 1])])
    if rubber is None and len(view.rubbers) > 1:
        totals = [sum(money[seat] for money in view.rubbers) for seat in range(len(names))]
        rows.append([Text("Total" if compact else "Match total", style="bold"), *blank,
                     *(Text(dollars(t), style="bold reverse") for t in totals)])
    return columns(rows, gap=gap)


def sales_renderable(view: AbundanceView, names: Sequence[str], rubber: int | None = None,
                     four_colour: bool = False, name_width: int = 8, compact: bool = False,
                     gap: int = 2) -> Text:
    if not view.sales and not view.rubbers:
        return Text("No sale yet: the market buys every trinket after the twelfth auction of "
                    "each round.", style="dim")
    return sales_table(view, names, rubber, four_colour, name_width, compact, gap)


def widest_line(text: Text) -> int:
    return max((cell_len(line) for line in text.plain.splitlines()), default=0)


class SalesSheet(Panel):
    """The sales so far: ``show(view, names)``. Where the whole sheet is wider than the panel
    (the board at 80 columns), the compact one, and a shorter title."""

    _shown: tuple[AbundanceView, tuple[str, ...], bool] | None = None
    _made_for: tuple[object, ...] | None = None

    def show(self, view: AbundanceView, names: Sequence[str], four_colour: bool = False) -> None:
        self._shown = (view, tuple(names), four_colour)
        room = self.content_size.width
        # the sheet changes at a sale or a rubber's end: made again at every move, its rows
        # (a dozen a rubber) cost a late move more than an early one
        made_for = (view.sales, view.rubbers, view.rubber, tuple(names), four_colour, room)
        if made_for == self._made_for:
            return
        self._made_for = made_for
        text = sales_renderable(view, names, None, four_colour, 12)
        for gap in (2, 1):  # the compact sheet, its columns closer if need be
            if not room or widest_line(text) <= room:
                break
            text = sales_renderable(view, names, None, four_colour, COMPACT_NAMES, compact=True, gap=gap)
        self.show_text(text, TITLE if not room or cell_len(TITLE) + 2 <= room else SHORT_TITLE)

    def on_resize(self, event: Resize) -> None:
        if self._shown is not None:
            self.show(*self._shown)


class SalesScreen(Dialog):
    """The sheet over the table: every sale of the match so far, or (``rubber``) the rubber
    that has just ended with a heading saying who finished with what. Enter or Escape closes.
    (A Dialog for its box; it has no buttons and asks nothing.)"""

    DEFAULT_CSS = """
    SalesScreen {
        & > Vertical { width: 72; }
        & #sales-heading { margin-bottom: 1; text-style: bold; }
        & VerticalScroll { height: auto; max-height: 18; }
        & #sales-keys { color: $text-muted; margin-top: 1; }
    }
    """

    BINDINGS = [
        Binding("enter", "close", "Back to the table", key_display="⏎"),
        Binding("escape,s", "close", "Back to the table", show=False),
    ]

    def __init__(self, view: AbundanceView, names: Sequence[str], rubber: int | None = None,
                 four_colour: bool = False) -> None:
        super().__init__()
        self.view = view
        self.names = tuple(names)
        self.rubber = rubber
        self.four_colour = four_colour

    def compose(self) -> ComposeResult:
        view, names = self.view, self.names
        with Vertical(id="sales-box") as box:
            if self.rubber is not None and self.rubber <= len(view.rubbers):
                box.border_title = f"Rubber {self.rubber} is over"
                money = view.rubbers[self.rubber - 1]
                ends = Sentence(" and ").join(say("{} {}", player(names, seat), dollars(m))
                                              for seat, m in enumerate(money))
                heading = say("It ends with {}.", ends)
                if view.phase != "over":
                    heading += say(" Rubber {}: the deal passes to {}, four new piles, and both start "
                                   "again with {}.", self.rubber + 1, player(names, view.dealer), dollars(50))
                yield Static(styled(heading, four_colour=self.four_colour), id="sales-heading")
            else:
                box.border_title = "Every sale so far"
            with VerticalScroll():
                yield Static(sales_renderable(view, names, self.rubber, self.four_colour), id="sales-table")
            yield Static("Enter or Esc: back to the table", id="sales-keys")

    def action_close(self) -> None:
        self.dismiss(None)
