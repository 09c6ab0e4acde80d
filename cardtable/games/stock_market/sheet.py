"""Card Stock Market's board: the stock-price sheet, the holdings and the certificates.

- ``PriceSheet``: one row per company (♦ ♠ ♥ ♣, the limits slip's order) with its price, the
  card on top of its price pile, what may be laid on it now (``range_of``), a bankrupt mark,
  and its price over the whole game as a chart of Unicode blocks, on one scale for all four
  ($0–$13) so the companies compare at a glance. A crash shows as a red ``×``.
- ``Holdings``: one row per player: money, shares of each company (and their value now where
  the width allows), debt when anyone owes, the value of all their certificates, and worth.
- ``Certificates``: one player's certificates with their value now and a cursor (↑↓ or a
  click) that picks the one ``s`` sells.
- ``table_line`` (the bank, the stock and its jokers, the discard pile) and ``phase_line`` (how
  far the turn has gone: traded? priced? bought 1/2, laid 1/2).

Everything here is public: the board never shows a hand. It renders a ``StockMarketView`` and
the pure helpers of ``rules.stock_market`` that read one.
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.reactive import reactive
from textual.widget import Widget

from rules.core import Card, Seat, Suit
from rules.core.bots import kind_of
from rules.stock_market import COMPANIES, LIMITS, StockMarketView, held_shares, holding_value, range_of, shares, worth
from rules.stock_market.rules import LayRange
from rules.stock_market.state import MAX_BUYS, MAX_DISCARD, MAX_LAYS, PRICE, TRADE

from ...widgets.card import GREEN, RED, card_text, suit_colour

TOP_PRICE = 13  # the highest price there is (a king): the charts' common scale
BLOCKS = " ▁▂▃▄▅▆▇█"
MAX_TURN_WIDTH = 3  # columns a turn takes in a chart while the game is young
CRASH = "×"
DANGER = f"bold {RED}"


def money(amount: int) -> str:
    """``$2,125``: dollars with thousands marked (the bank's sums are in the thousands)."""
    return f"${amount:,}" if amount >= 0 else f"−${-amount:,}"


# -- the price charts --------------------------------------------------------------------------
def chart_prices(history: Sequence[tuple[int, int]], turn: int, width: int) -> list[int]:
    """The price each column of a chart at most ``width`` wide shows, over turns 0 (the set-up)
    to ``turn``. While the turns fit, each gets the same number of columns (up to
    ``MAX_TURN_WIDTH``: a young game's chart is still wide enough to read); once they do not,
    the turns are shared out evenly among the columns. A column shows the price at the end of
    its last turn, or 0 if the company went bankrupt within it (a crash is never hidden by a
    revival in the same column)."""
    if not history or width <= 0:
        return []
    span = max(turn, history[-1][0]) + 1
    columns = min(width, span)
    per_turn = max(1, min(MAX_TURN_WIDTH, width // span))
    out: list[int] = []
    index, price = 0, history[0][1]
    for column in range(columns):
        last = (column + 1) * span // columns - 1
        crashed = False
        while index < len(history) and history[index][0] <= last:
            price = history[index][1]
            crashed = crashed or price == 0
            index += 1
        out += [0 if crashed or price == 0 else price] * per_turn
    return out


def level(price: int, rows: int) -> int:
    """How many eighths of a cell (over ``rows`` cells) a price fills: $1 at least one."""
    if price <= 0:
        return 0
    return max(1, round(price * 8 * rows / TOP_PRICE))


def chart_rows(prices: Sequence[int], rows: int = 1) -> list[str]:
    """A chart of ``prices`` in block characters, ``rows`` lines high, top line first. A price
    of $0 (bankrupt) is a ``×`` on the bottom line."""
    lines = []
    for row in range(rows - 1, -1, -1):
        cells = []
        for price in prices:
            if price == 0:
                cells.append(CRASH if row == 0 else " ")
            else:
                cells.append(BLOCKS[max(0, min(8, level(price, rows) - 8 * row))])
        lines.append("".join(cells))
    return lines


def chart_text(prices: Sequence[int], rows: int, colour: str) -> list[Text]:
    """``chart_rows`` in the company's colour, crashes in red."""
    texts = []
    for line in chart_rows(prices, rows):
        text = Text(line, style=colour)
        for index, char in enumerate(line):
            if char == CRASH:
                text.stylize(DANGER, index, index + 1)
        texts.append(text)
    return texts


# -- what may be laid --------------------------------------------------------------------------
def range_text(allowed: LayRange, bankrupt: bool = False) -> Text:
    """What a price pile accepts now, short: ``$6–$11``, ``$1–$9 or $0`` (a crash is possible:
    the $0 in red), ``A–10 only`` on a court card, ``A–10 revives`` for a bankrupt company."""
    if allowed.court_on_top:
        return Text("A–10 revives" if bankrupt else "A–10 only")
    top = max(allowed.court_values, default=allowed.high)
    text = Text(f"${allowed.low}–${top}")
    if allowed.zero:
        text.append(" or ")
        text.append("$0", style=DANGER)
    return text


def limits_text(suit: Suit) -> str:
    up, down = LIMITS[suit]
    return f"+{up}/−{down}"


def _cell(text: Text | str, width: int, right: bool = False) -> Text:
    """``text`` cut or padded to exactly ``width`` cells."""
    text = Text(text) if isinstance(text, str) else text.copy()
    if text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    pad = " " * (width - text.cell_len)
    return Text.assemble(pad, text) if right else Text.assemble(text, pad)


class PriceSheet(Widget):
    """The stock-price sheet (see the module docstring). ``show(view)`` redraws it;
    ``chart_height`` is how many lines each company's chart takes (2 on a tall terminal: then
    every price from $1 to $13 has a height of its own)."""

    DEFAULT_CSS = """
    PriceSheet {
        height: auto;
        width: 1fr;
        & > .price-sheet--shade { background: $foreground 6%; }
    }
    """

    COMPONENT_CLASSES = {"price-sheet--shade"}

    chart_height: reactive[int] = reactive(1, layout=True)

    NAME = 2  # "♦ "
    PRICE = 4  # " $13"
    TOP = 4  # " 10♦"
    LIMIT = 6  # " +3/−2"
    LAY = 13  # "$1–$11 or $0"
    MIN_CHART = 8

    def __init__(self, four_colour: bool = False, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.four_colour = four_colour
        self.view: StockMarketView | None = None

    def show(self, view: StockMarketView, four_colour: bool | None = None) -> None:
        self.view = view
        if four_colour is not None:
            self.four_colour = four_colour
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + len(COMPANIES) * self.chart_height if self.view is not None else 0

    def _widths(self, width: int) -> tuple[bool, int]:
        """Whether the limits column fits, and the chart's width."""
        fixed = self.NAME + self.PRICE + self.TOP + 2 + self.LAY + 1
        limits = width - fixed - self.LIMIT >= 3 * self.MIN_CHART
        chart = width - fixed - (self.LIMIT if limits else 0)
        return limits, max(chart, self.MIN_CHART)

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        width = max(self.size.width, 1)
        limits, chart_width = self._widths(width)
        rows = self.chart_height
        span = view.turn + 1
        header = Text.assemble(
            _cell("", self.NAME), _cell("Price", self.PRICE + self.TOP + 2),
            _cell("Limit", self.LIMIT) if limits else "", _cell("Lay now", self.LAY + 1),
            _cell(f"Chart · turns 0–{view.turn}" if span > 1 else "Chart", chart_width),
            style="bold")
        lines = [header]
        # every other company shaded, so a chart of several lines reads as one company's
        shade = Style(bgcolor=self.get_component_rich_style("price-sheet--shade").bgcolor)
        for number, company in enumerate(view.companies):
            suit = company.suit
            colour = suit_colour(suit, self.four_colour)
            bankrupt = company.bankrupt
            price = Text(f"${company.price}", style=f"reverse {DANGER}" if bankrupt else "bold")
            name = Text(suit.symbol, style=f"bold {colour}".strip())
            top = card_text(company.top, self.four_colour)
            allowed = range_of(view, suit)
            charts = chart_text(chart_prices(company.history, view.turn, chart_width), rows,
                                colour or "")
            for row in range(rows):
                if row == rows - 1:  # the words stand on the chart's baseline
                    cells = [_cell(name, self.NAME), _cell(price, self.PRICE, right=True), " ",
                             _cell(top, self.TOP - 1), " "]
                    if limits:
                        cells.append(_cell(Text(limits_text(suit), style="dim"), self.LIMIT))
                    cells += [_cell(range_text(allowed, bankrupt), self.LAY), " "]
                else:
                    cells = [" " * (self.NAME + self.PRICE + self.TOP + 2 + (self.LIMIT if limits else 0)
                                    + self.LAY + 1)]
                line = Text.assemble(*cells, charts[row])
                if number % 2:
                    line.pad_right(width - line.cell_len)
                    line.stylize(shade)
                lines.append(line)
        return Text("\n", no_wrap=True, overflow="crop").join(lines)


# -- the holdings --------------------------------------------------------------------------------
class Holdings(Widget):
    """Every player's shares of each company, money, debt (a column only while anyone owes),
    the value of their certificates and their worth. Where the width allows, each company's
    shares have their value now beside them (``7 $56``), in a column of its own.

    Every column has one width on every row, measured in screen cells (a Chinese character
    takes two), so the columns line up whatever the players are called: a name too long for
    its column is cut, with "…", and keeps its "(bot)"."""

    DEFAULT_CSS = """
    Holdings {
        height: auto;
        width: 1fr;
    }
    """

    WIDE_NAME = 20  # the values beside the shares only while the names keep this much room

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: StockMarketView | None = None
        self.seats: tuple[Seat, ...] = ()

    def show(self, view: StockMarketView, seats: Sequence[Seat]) -> None:
        self.view = view
        self.seats = tuple(seats)
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + len(self.seats) if self.view is not None else 0

    def _columns(self, view: StockMarketView, wide: bool) -> list[tuple[Text, list[Text]]]:
        """(header, cells) of every column after the names, each column's header and cells of
        one width, numbers right-aligned."""
        n = len(self.seats)
        columns = [_column("Money", [Text(money(view.money[s])) for s in range(n)])]
        for company in view.companies:
            counts = [held_shares(view.holdings[s], company.suit) for s in range(n)]
            header, cells = _column(company.suit.symbol, [Text(str(c)) if c else Text("·", style="dim")
                                                          for c in counts])
            if wide and any(counts):
                # the values beside the counts: the counts stay under the company's symbol
                _, values = _column("", [Text(money(c * company.price), style="dim") if c else Text("")
                                         for c in counts])
                header = Text.assemble(header, " " * (1 + values[0].cell_len))
                cells = [Text.assemble(count, " ", value) for count, value in zip(cells, values)]
            columns.append((header, cells))
        if any(view.debt):
            columns.append(_column("Debt", [Text(money(-view.debt[s]) if view.debt[s] else "", style=DANGER)
                                            for s in range(n)]))
        columns.append(_column("Shares", [Text(money(holding_value(view, s))) for s in range(n)]))
        columns.append(_column("Worth", [Text(money(worth(view, s)), style="bold") for s in range(n)]))
        return columns

    def _label(self, seat: int, info: Seat, width: int) -> Text:
        """``▶ Ann (bot)`` in ``width`` cells: the name cut to make room for the mark."""
        view = self.view
        assert view is not None
        awaited = seat in view.awaiting
        mark = _mark(info)
        name = Text(info.name, style="bold" if awaited else "")
        room = width - 2 - len(mark)
        if name.cell_len > room:
            name.truncate(max(room, 1), overflow="ellipsis")
        return _cell(Text.assemble("▶ " if awaited else "  ", name, (mark, "dim")), width)

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        width = max(self.size.width, 1)
        longest = max((2 + cell_len(info.name) + len(_mark(info)) for info in self.seats), default=0)
        columns = self._columns(view, wide=True)
        room = width - sum(header.cell_len + 1 for header, _ in columns)
        if room < min(longest, self.WIDE_NAME):
            columns = self._columns(view, wide=False)
            room = width - sum(header.cell_len + 1 for header, _ in columns)
        # names as long as the longest needs, no longer: the numbers stay beside them
        name_width = max(min(room, max(longest, len("Player"))), 4)
        header = Text.assemble(_cell("Player", name_width), *(Text.assemble(" ", h) for h, _ in columns),
                               style="bold")
        lines = [header]
        for seat, info in enumerate(self.seats):
            row = [self._label(seat, info, name_width)]
            for _, cells in columns:
                row += [" ", cells[seat]]
            lines.append(Text.assemble(*row))
        return Text("\n", no_wrap=True, overflow="crop").join(lines)


def _mark(seat: Seat) -> str:
    """What follows a seat's name: " (bot)", " (bot: expert)", nothing for a human."""
    kind = kind_of(seat.bot)
    return f" ({kind})" if kind else ""


def _column(header: str, cells: list[Text]) -> tuple[Text, list[Text]]:
    """A column of the holdings: its header and cells right-aligned to the widest of them."""
    width = max(cell_len(header), *(cell.cell_len for cell in cells))
    return _cell(header, width, right=True), [_cell(cell, width, right=True) for cell in cells]


# -- one player's certificates ---------------------------------------------------------------------
def certificate_order(cards: Sequence[Card]) -> list[Card]:
    """Certificates by company (the sheet's order), then rank, then copy."""
    return sorted(cards, key=lambda c: (COMPANIES.index(c.suit), c.rank, c.copy))


class Certificates(Widget):
    """One player's certificates in a line, each with its value now (``7♥ $42``). For the
    viewer, a cursor picks one (``move`` or a click) and certificates
    bought this turn are dim (they cannot be sold this turn unless the option allows it)."""

    DEFAULT_CSS = """
    Certificates {
        height: 1;
        width: 1fr;
    }
    """

    picked: reactive[Card | None] = reactive(None)

    def __init__(self, four_colour: bool = False, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.four_colour = four_colour
        self.view: StockMarketView | None = None
        self.owner: int | None = None
        self.owner_name = ""
        self.mine = False
        self.cards: list[Card] = []
        self._spans: list[tuple[int, int, Card]] = []

    def show(self, view: StockMarketView, owner: int | None, owner_name: str, mine: bool,
             four_colour: bool | None = None) -> None:
        """Show ``owner``'s certificates; ``mine``: the viewer's own, with the cursor."""
        self.view = view
        self.owner = owner
        self.owner_name = owner_name
        self.mine = mine
        if four_colour is not None:
            self.four_colour = four_colour
        old = self.cards
        self.cards = certificate_order(view.holdings[owner]) if owner is not None else []
        if self.picked not in self.cards:
            # keep the cursor near where it was (a sale takes the picked one away)
            index = old.index(self.picked) if self.picked in old else 0
            self.picked = self.cards[min(index, len(self.cards) - 1)] if self.cards else None
        self.refresh()

    def move(self, step: int) -> None:
        if not self.cards:
            return
        index = self.cards.index(self.picked) if self.picked in self.cards else 0
        self.picked = self.cards[max(0, min(len(self.cards) - 1, index + step))]

    def watch_picked(self) -> None:
        self.refresh()

    def _item(self, card: Card) -> Text:
        view = self.view
        assert view is not None
        value = view.prices[card.suit] * shares(card)
        text = Text.assemble(card_text(card, self.four_colour), f" {money(value)}")
        if self.mine and card == self.picked:
            text = Text.assemble(("▶", "bold"), text)
            text.stylize("reverse")
        elif card in view.bought and self.owner == view.current:
            text.stylize("dim")
        return text

    def render(self) -> Text:
        self._spans = []
        view = self.view
        if view is None or self.owner is None:
            return Text("")
        width = max(self.size.width, 1)
        whose = "Your" if self.mine else f"{self.owner_name}'s"
        if not self.cards:
            return Text(f"{whose} certificates: none", style="dim")
        lead = Text(f"{whose} certificates: ", style="bold")
        hint = Text("  ↑↓ pick · s sells", style="dim") if self.mine else Text("")
        items = [self._item(card) for card in self.cards]
        # the items that fit: a window around the picked one, "…" where some are left out
        start = self.cards.index(self.picked) if self.mine and self.picked in self.cards else 0
        end = start + 1
        room = width - lead.cell_len

        def need(first: int, last: int) -> int:
            body = sum(item.cell_len for item in items[first:last]) + 2 * (last - first - 1)
            return body + (2 if first > 0 else 0) + (2 if last < len(items) else 0)

        while True:
            if end < len(items) and need(start, end + 1) <= room:
                end += 1
            elif start > 0 and need(start - 1, end) <= room:
                start -= 1
            else:
                break
        line = lead.copy()
        if start > 0:
            line.append("… ", style="dim")
        for index in range(start, end):
            if index > start:
                line.append("  ")
            self._spans.append((line.cell_len, line.cell_len + items[index].cell_len, self.cards[index]))
            line.append_text(items[index])
        if end < len(items):
            line.append(" …", style="dim")
        if start == 0 and end == len(items) and line.cell_len + hint.cell_len <= width:
            line.append_text(hint)
        line.no_wrap = True
        line.overflow = "ellipsis"
        return line

    def on_click(self, event: Click) -> None:
        if not self.mine:
            return
        for left, right, card in self._spans:
            if left <= event.x < right:
                self.picked = card
                return


# -- the lines under the board ----------------------------------------------------------------------
def table_line(view: StockMarketView, four_colour: bool = False, width: int = 80) -> Text:
    """The bank, the stock (and where the jokers are) and the discard pile, in one line of
    ``width`` (the discard pile's size where it fits)."""
    bank = "Bank unlimited" if view.bank_unlimited else f"Bank {money(view.bank)}"
    text = Text.assemble((bank, "bold"), " · ", ("Stock ", "bold"), str(view.stock_size))
    if view.joker is not None:
        text.append(", joker drawn", style=DANGER)
    elif view.jokers_in_stock:
        jokers = "1 joker" if view.jokers_in_stock == 1 else f"{view.jokers_in_stock} jokers"
        text.append(f" with {jokers}!", style=DANGER)
    elif view.aside:
        text.append(", no jokers", style="dim")
    text.append(" · ")
    text.append("Discard ", style="bold")
    top = view.discard_top
    if top is None:
        text.append("—", style="dim")
    else:
        text.append_text(card_text(top, four_colour))
        size = f" ({len(view.discard)})"
        if text.cell_len + len(size) <= width:
            text.append(size, style="dim")
    return text


def phase_line(view: StockMarketView, names: Sequence[str], width: int = 80) -> Text:
    """How far the current turn has gone: each phase begun, in the order begun (the earlier one
    is over), then the one still open; what was bought and laid of the two allowed. In a
    narrow ``width`` the player's name goes (the status line above names them)."""
    if view.joker is not None:
        who = names[view.ended_by] if view.ended_by is not None else "someone"
        return Text(f"Game over: {who} drew a joker.", style="bold")
    phases = list(view.phases)
    counts = {TRADE: f"bought {len(view.bought)}/{MAX_BUYS}", PRICE: f"laid {len(view.laid)}/{MAX_LAYS}"}
    words = {TRADE: ("trade", "trading", "traded"), PRICE: ("price", "pricing", "priced")}

    def line(lead: str, compact: bool) -> Text:
        text = Text(lead, style="bold")
        for index, phase in enumerate(phases + [p for p in (TRADE, PRICE) if p not in phases]):
            open_word, now_word, done_word = words[phase]
            if phase not in phases:
                mark, word, style = "○", open_word, "dim"
            elif phase == phases[-1]:
                mark, word, style = "●", now_word, f"bold {GREEN}"
            else:
                mark, word, style = "✓", done_word, "dim"
            count = f", {counts[phase]}" if compact else f" ({counts[phase]})"
            text.append(" · " if index else " ")
            text.append(f"{mark} {word}{count}", style=style)
        if not phases and not compact:
            text.append(f" · or discard 1–{MAX_DISCARD}", style="dim")
        return text

    text = line(f"{names[view.current]}'s turn {view.turn}:", False)
    if text.cell_len > width:
        text = line("Turn:", True)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class Line(Widget):
    """One line drawn to the widget's width by ``draw(width)`` (given with ``show``)."""

    DEFAULT_CSS = """
    Line {
        height: 1;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.draw = lambda width: Text("")

    def show(self, draw) -> None:
        self.draw = draw
        self.refresh()

    def render(self) -> Text:
        text = self.draw(max(self.size.width, 1))
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text
