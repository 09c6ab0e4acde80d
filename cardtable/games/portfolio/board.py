"""Portfolio's board: every portfolio on the table grouped by owner, the stock and the discard
pile, a cursor that selects one portfolio, and what that portfolio would cost to neutralise or
acquire.

A portfolio is drawn as its run with the caps in brackets at the ends
(``[6♦d] 6♥h 7♥h 8♥h 9♥h 10♥h [10♦d]``) when the board is wide enough, otherwise in a compact
form (``♥ 6–10 capped low/high``); the selected one always gets its cards and its costs on the
lines below it. Everything here is public: the board never shows a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.text import Text
from textual.events import Click
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rules.core import Card, parse_card, rank_code
from rules.core.words import dollars
from rules.core.offers import Deal, Side
from rules.portfolio.state import PortfolioInfo, PortfolioView

from ...widgets.card import card_text, suit_colour

# Below this width the board draws portfolios in their compact form.
FULL_WIDTH = 60
CURSOR = "▶"
PREFIX = 13  # " ▶ P12   $11  ": what comes before a portfolio's cards
TARGET = "bold #e0a030"  # the portfolios the selected card fits: amber reads on dark and light
INDENT = "    "


# -- how a portfolio reads (shared with the dialogs) ----------------------------------------
def cards_text(cards: Sequence[Card], four_colour: bool = False, sep: str = " ") -> Text:
    """Cards in a row, each as ``card_text``."""
    return Text(sep).join(card_text(card, four_colour) for card in cards)


def faces_text(codes: str | None, four_colour: bool = False) -> Text:
    """A PortfolioInfo face string ("2C", or "AD/AH" for an uncapped King) as coloured cards."""
    if not codes:
        return Text("—")
    return cards_text([parse_card(code) for code in codes.split("/")], four_colour, sep="/")


def run_text(info: PortfolioInfo, four_colour: bool = False) -> Text:
    """The run with its caps in brackets: ``[6♦d] 6♥h 7♥h 8♥h [8♦d]``."""
    parts: list[Text] = []
    if info.low_cap is not None:
        parts.append(Text.assemble("[", card_text(info.low_cap, four_colour), "]"))
    parts += [card_text(card, four_colour) for card in info.cards]
    if info.high_cap is not None:
        parts.append(Text.assemble("[", card_text(info.high_cap, four_colour), "]"))
    return Text(" ").join(parts)


def caps_words(info: PortfolioInfo) -> str:
    ends = [end for end, cap in (("low", info.low_cap), ("high", info.high_cap)) if cap is not None]
    return f"capped {'/'.join(ends)}" if ends else ""


def compact_text(info: PortfolioInfo, four_colour: bool = False) -> Text:
    """``♥ 6–10 capped low/high``: suit, rank span and caps."""
    low, high = info.cards[0], info.cards[-1]
    suit = low.suit
    text = Text.assemble((suit.symbol, f"bold {suit_colour(suit, four_colour)}".strip()),
                         f" {rank_code(low.rank)}–{rank_code(high.rank)}")
    caps = caps_words(info)
    if caps:
        text.append(f" {caps}", style="italic")
    return text


def summary_text(info: PortfolioInfo, four_colour: bool = False) -> Text:
    """One line naming a portfolio for lists and dialogs: ``P3 ♥ 6–10 capped low $11``."""
    return Text.assemble(f"{info.pid} ", compact_text(info, four_colour), f" {dollars(info.value)}")


def attack_text(info: PortfolioInfo, four_colour: bool = False) -> Text:
    """What a rival would need to neutralise and to acquire the portfolio, and with which card:
    ``neutralise: 2♣c $4 · acquire: 7♣c $8``."""
    if info.neutralise_card is not None:
        low = Text.assemble("neutralise: ", faces_text(info.neutralise_card, four_colour),
                            f" {dollars(info.neutralise_cost)}")
    elif info.low_cap is not None:
        low = Text("low end capped", style="italic")
    else:
        low = Text("Ace low end", style="italic")
    if info.acquire_card is not None:
        high = Text.assemble("acquire: ", faces_text(info.acquire_card, four_colour),
                             f" {dollars(info.acquire_cost)}")
    else:
        high = Text("high end capped", style="italic")
    return Text(" · ").join([low, high])


def offer_side(side: Side, infos: dict[str, PortfolioInfo], four_colour: bool = False) -> Text:
    """One side of a deal: cards, portfolios (with their runs) and money, or "nothing"."""
    items: list[Text] = [card_text(card, four_colour) for card in side.cards]
    items += [summary_text(infos[pid], four_colour) if pid in infos else Text(pid) for pid in side.holdings]
    if side.money:
        items.append(Text(dollars(side.money)))
    return Text(", ").join(items) if items else Text("nothing", style="italic")


def offer_text(offer: Deal, names: Sequence[str], infos: dict[str, PortfolioInfo],
               four_colour: bool = False) -> Text:
    """``Ann gives 5♥h, $4 — and takes P3 ♥ 6–10 $11 from Bob``."""
    return Text.assemble(
        (names[offer.proposer], "bold"), " gives ",
        offer_side(offer.give, infos, four_colour),
        " — and takes ",
        offer_side(offer.take, infos, four_colour),
        " from ", (names[offer.responder], "bold"))


@dataclass(frozen=True)
class _Line:
    text: Text
    pid: str | None = None


class PortfolioBoard(Widget):
    """The public table of a Portfolio game. ``show(view, names)`` redraws it; ``selected`` is
    the pid under the cursor (moved with ``move`` or a click, posting ``Selected``);
    ``targets`` (pid → note) marks the portfolios the selected hand card can be played on."""

    DEFAULT_CSS = """
    PortfolioBoard {
        height: auto;
        width: 1fr;
    }
    """

    selected: reactive[str | None] = reactive(None)
    targets: reactive[dict[str, str]] = reactive(dict)

    class Selected(Message):
        """The cursor moved to the portfolio ``pid`` (None: there are no portfolios)."""

        def __init__(self, board: PortfolioBoard, pid: str | None) -> None:
            super().__init__()
            self.board = board
            self.pid = pid

        @property
        def control(self) -> PortfolioBoard:
            return self.board

    def __init__(self, four_colour: bool = False, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.four_colour = four_colour
        self.view: PortfolioView | None = None
        self.names: tuple[str, ...] = ()
        self._lines: list[_Line] = []

    # -- the data --------------------------------------------------------------------------
    def show(self, view: PortfolioView, names: Sequence[str], four_colour: bool | None = None) -> None:
        """Draw ``view``; the cursor stays on its portfolio while it is on the table."""
        self.view = view
        self.names = tuple(names)
        if four_colour is not None:
            self.four_colour = four_colour
        pids = self.order()
        if self.selected not in pids:
            self.selected = pids[0] if pids else None
        self.refresh(layout=True)

    def order(self) -> list[str]:
        """The pids in the order the board lists them: by owner in seat order, then by age."""
        if self.view is None:
            return []
        return [info.pid for seat in range(len(self.names)) for info in self.view.portfolios
                if info.owner == seat]

    def move(self, step: int) -> None:
        pids = self.order()
        if not pids:
            return
        index = pids.index(self.selected) if self.selected in pids else -step
        self.selected = pids[max(0, min(len(pids) - 1, index + step))]

    def watch_selected(self, pid: str | None) -> None:
        self.refresh(layout=True)
        self.post_message(self.Selected(self, pid))
        self.call_after_refresh(self._scroll_to_cursor)

    def watch_targets(self) -> None:
        self.refresh(layout=True)

    # -- drawing ---------------------------------------------------------------------------
    def _build(self, width: int) -> list[_Line]:
        view = self.view
        if view is None:
            return []
        four = self.four_colour
        lines = [_Line(self._table_line(view))]
        if view.last_round:
            lines.append(_Line(Text(f"LAST ROUND — the stock is out: no more drawing; the game ends "
                                    f"after {self.names[view.dealer]}'s turn.", style="bold reverse red")))
        if view.offer is not None:
            infos = {info.pid: info for info in view.portfolios}
            lines.append(_Line(Text.assemble(("Deal on the table: ", "bold"),
                                             offer_text(view.offer, self.names, infos, four))))
        # every run in full, or every run compact: a board that mixes the two is hard to scan
        full = width >= FULL_WIDTH and all(
            PREFIX + run_text(info).cell_len <= width for info in view.portfolios)
        for seat, name in enumerate(self.names):
            header = Text.assemble(
                (name, "bold underline" if seat == view.current else "bold"),
                f" · {dollars(view.money[seat])} · income {dollars(view.income[seat])}")
            if seat == view.current and view.awaiting:
                header.append(" · to play", style="italic")
            lines.append(_Line(header))
            owned = [info for info in view.portfolios if info.owner == seat]
            if not owned:
                lines.append(_Line(Text(f"{INDENT}no portfolios", style="dim italic")))
            for info in owned:
                lines.append(_Line(self._portfolio_line(info, full), info.pid))
                if info.pid == self.selected:
                    lines += [_Line(text, info.pid) for text in self._details(info, full)]
        if view.portfolios:
            lines.append(_Line(Text("↑↓ or a click selects a portfolio.", style="dim")))
        else:
            lines.append(_Line(Text("No portfolios yet: select three or more cards of one suit in "
                                    "sequence and press m to make one.", style="dim")))
        return lines

    def _table_line(self, view: PortfolioView) -> Text:
        top = card_text(view.discard_top, self.four_colour) if view.discard_top else Text("empty")
        text = Text.assemble(("Stock ", "bold"), str(view.stock_size))
        if view.reshuffle_pending:
            text.append(" +1 reshuffle", style="dim")
        text.append_text(Text.assemble("  ·  ", ("Discard ", "bold"), top, f" ({view.discard_size})"))
        return text

    def _portfolio_line(self, info: PortfolioInfo, full: bool) -> Text:
        cursor = CURSOR if info.pid == self.selected else " "
        body = run_text(info, self.four_colour) if full else compact_text(info, self.four_colour)
        line = Text.assemble(f" {cursor} ", (f"{info.pid:<4}", "bold"), f"{dollars(info.value):>4}  ", body)
        if info.pid == self.selected:
            line.stylize("reverse", 0, 7)  # the cursor and the pid
        note = self.targets.get(info.pid)
        if note:
            line.append(f"  ◀ {note}", style=TARGET)
        return line

    def _details(self, info: PortfolioInfo, full: bool) -> list[Text]:
        """Under the selected portfolio: its cards (when the line is compact) and its price."""
        lines = []
        if not full:
            lines.append(Text.assemble(INDENT, run_text(info, self.four_colour)))
        lines.append(Text.assemble(INDENT, attack_text(info, self.four_colour)))
        return lines

    def _rows(self, width: int) -> list[_Line]:
        """The board's lines wrapped to ``width``: one entry per row on screen, so a click's
        row finds its portfolio. A wrapped line keeps its indent on every row."""
        rows: list[_Line] = []
        for line in self._build(width):
            plain = line.text.plain
            indent = len(plain) - len(plain.lstrip(" "))
            body = line.text[indent:]
            for piece in body.wrap(self.app.console, max(width - indent, 8), overflow="fold"):
                rows.append(_Line(Text.assemble(" " * indent, piece), line.pid))
        return rows

    def render(self) -> Text:
        self._lines = self._rows(max(self.size.width, 1))
        return Text("\n", no_wrap=True).join(line.text for line in self._lines)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._rows(width))

    # -- the mouse and scrolling -----------------------------------------------------------
    def on_click(self, event: Click) -> None:
        if 0 <= event.y < len(self._lines) and self._lines[event.y].pid is not None:
            self.selected = self._lines[event.y].pid

    def _scroll_to_cursor(self) -> None:
        rows = [line.pid for line in self._lines]
        if self.selected not in rows:
            return
        top = rows.index(self.selected)
        height = rows.count(self.selected)
        region = Region(0, self.virtual_region.y + top, 1, height)
        parent = self.parent
        if isinstance(parent, Widget):
            parent.scroll_to_region(region, animate=False)
