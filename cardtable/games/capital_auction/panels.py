"""Capital Auction's board: the auction block, every player's portfolio, the viewer's Tools and
Capital cards. Each panel draws a view (never a state), and only the viewer's own private zones."""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from rules.capital_auction.cards import Capital
from rules.capital_auction.state import BID, CapitalAuctionView
from rules.core.words import join_names, player, players, say

from ...widgets.beside_board import BesideBoard
from ...widgets.panel import Panel, fitting
from ...widgets.words import styled
from .words import BACK, describe, phase_title, slot_text, values_text


def auction_text(view: CapitalAuctionView, names: Sequence[str], viewer: int | None, short: bool = False) -> Text:
    """The lots of this round (the current one marked), the bids laid (their totals and who is
    out are in the scoreboard: the cards only when there is room), the Tool being answered."""
    lines: list[Text] = []
    for number, lot in enumerate(view.table, 1):
        current = number == view.auction and view.current is not None
        line = Text("▶ " if current else "  ", style="bold")
        line.append(f"Auction {number}: ", style="bold" if current else "dim")
        if lot:
            line.append_text(Text("  ").join(slot_text(slot, viewer, names, short=short) for slot in lot))
        else:
            sold = number < view.auction or (number == view.auction and view.phase != BID)
            line.append("sold" if sold else "—", style="dim")
        lines.append(line)
    if view.phase == BID and not short:
        cells = []
        for seat in view.bid_order or range(len(names)):
            cell = Text(f"{names[seat]} ", style="bold" if seat == view.current else "")
            laid = [card.value for card in view.bids[seat]]
            if seat in view.out:
                cell.append("passed", style="dim")
            elif laid:
                cell.append(f"{values_text(laid)}={sum(laid)}")
                if seat == view.leader:
                    cell.append(" leads", style="green")
            else:
                cell.append("—", style="dim")
            cells.append(cell)
        lines.append(Text("Bids: ", style="dim") + Text(" · ").join(cells))
    elif view.winner is not None and view.phase != BID:
        lines.append(Text(f"{names[view.winner]} won auction {view.auction}.", style="dim"))
    pending = view.pending
    if pending is not None:
        # names are styled as parts of the sentence, never read as markup
        line = styled(say("{} plays {}", player(names, pending.seat), describe(pending.play, view, names, pending.seat)),
                      style="bold")
        if pending.chain:
            line.append_text(styled(say("; Connections: {}", join_names(players(names, pending.chain)))))
            line.append(" — cancelled" if pending.cancelled else " — stands", style="yellow")
        if pending.asking and not short:
            line.append_text(styled(say("; to answer: {}", join_names(players(names, pending.asking))), style="dim"))
        lines.append(line)
    if not short:
        lines.append(Text(f"Decks: Capital {view.capital_deck}, discards {len(view.capital_discard)} · Tools "
                          f"{view.tool_deck}, discards {len(view.tool_discard)} · Investments "
                          f"{view.investment_deck}", style="dim"))
    return Text("\n").join(lines)


def portfolios_text(view: CapitalAuctionView, names: Sequence[str], viewer: int | None, short: bool = False) -> Text:
    """One line per player: the name, then each Investment card as the viewer sees it."""
    # names line up by the cells they take (李雷 takes four)
    width = max(cell_len(name) for name in names) + (6 if viewer is not None else 0)
    lines = []
    for seat, portfolio in enumerate(view.portfolios):
        label = ("▶ " if seat == view.current else "  ") + names[seat] + (" (you)" if seat == viewer else "")
        line = Text(label + " " * max(0, width + 2 - cell_len(label)) + " ",
                    style="bold underline" if seat == viewer else "bold" if seat == view.current else "")
        if portfolio:
            line.append_text(Text(" ").join(slot_text(slot, viewer, names, short=short, owner=seat)
                                            for slot in portfolio))
        else:
            line.append("no Investments", style="dim italic")
        lines.append(line)
    return Text("\n").join(lines)


def tools_text(view: CapitalAuctionView, short: bool = False) -> Text:
    """The viewer's Tool cards (a private zone: only the viewer's view holds it); ``short``:
    names and costs on one line (``t`` lists what each can do now)."""
    tools = view.tools
    if not tools:
        return Text("no Tool cards", style="dim italic")
    if short:
        return Text(" · ").join(Text.assemble((tool.info.name, "bold"), (f" ({tool.info.cost})", "dim"))
                                for tool in sorted(tools, key=lambda t: t.key))
    lines = []
    for tool in sorted(tools, key=lambda t: t.key):
        info = tool.info
        line = Text(f"{info.name}", style="bold")
        line.append(f" ({info.cost}) ", style="dim")
        line.append(info.text.split(".")[0] + ".", style="")
        lines.append(line)
    return Text("\n").join(lines)


class AuctionPanel(Panel):
    def show(self, view: CapitalAuctionView, names: Sequence[str], viewer: int | None, short: bool = False) -> None:
        self.show_text(auction_text(view, names, viewer, short), phase_title(view))


class PortfoliosPanel(Panel):
    def show(self, view: CapitalAuctionView, names: Sequence[str], viewer: int | None, short: bool = False) -> None:
        self.show_text(portfolios_text(view, names, viewer, short),
                       f"Portfolios · {BACK} face down · [name] known")


class ToolsPanel(Panel):
    def show(self, view: CapitalAuctionView, viewer: int | None, short: bool = False) -> None:
        if viewer is None:
            self.show_text(Text("Each player's Tool cards are theirs alone to see.", style="dim"), "Tools")
        else:
            self.show_text(tools_text(view, short), f"Your Tools · {len(view.tools)} · cost in ()")


class CapitalChips(BesideBoard, Widget, can_focus=True):
    """The viewer's Capital cards in a row, ticked to make up a bid: ``←`` ``→`` move, ``space``
    ticks (or a click). Posts ``Changed`` when the ticked cards change."""

    DEFAULT_CSS = """
    CapitalChips {
        height: auto;
    }
    """

    BINDINGS = [
        Binding("left,h", "move(-1)", "Previous card", show=False),
        Binding("right,l", "move(1)", "Next card", show=False),
        Binding("space", "tick", "Tick a card", key_display="space"),
    ]

    class Changed(Message):
        """The ticked cards changed."""

    CHIP = 5  # cells per chip: " 5 " and a gap

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[Capital, ...] = ()
        self.ticked: set[Capital] = set()
        self.laid: frozenset[Capital] = frozenset()
        self.cursor = 0
        self.note = ""
        self.hint = ""

    def show(self, cards: Sequence[Capital], note: str = "", laid: Sequence[Capital] = ()) -> None:
        """Show ``cards``; when they change, the ``laid`` ones (a bid already on the table, which
        a raise may keep) start ticked."""
        cards = tuple(cards)
        with fitting(self):
            if cards != self.cards:
                self.cards = cards
                self.laid = frozenset(laid)
                self.ticked = set(laid) & set(cards)
                self.cursor = min(self.cursor, max(len(cards) - 1, 0))
            self.note = note

    @property
    def chosen(self) -> tuple[int, ...]:
        """The ticked cards' values, highest first."""
        return tuple(sorted((card.value for card in self.ticked), reverse=True))

    def untick(self) -> None:
        if self.ticked:
            self.ticked.clear()
            self.refresh()
            self.post_message(self.Changed())

    @property
    def per_line(self) -> int:
        """How many chips one line holds (a big hand takes more lines)."""
        return max(1, (self.size.width + 2) // self.CHIP)

    def render(self) -> Text:
        if not self.cards:
            return Text(self.note or "no Capital cards", style="dim italic")
        text = Text()
        for index, card in enumerate(self.cards):
            if index and index % self.per_line == 0:
                text.append("\n")
            style = "reverse bold" if card in self.ticked else "bold"
            if card in self.laid:
                style += " italic"
            if index == self.cursor and self.has_focus:
                style += " underline"
            text.append(f"[{card.value}]", style=style)
            text.append("  ")
        if self.note:
            text.append(self.note, style="dim")
        if self.hint:
            text.append("\n")
            text.append_text(styled(self.hint, style="italic"))
        return text

    def show_hint(self, hint: str) -> None:
        """A line under the chips: what the ticked cards would do, or why they cannot."""
        if hint != self.hint:
            with fitting(self):
                self.hint = hint

    def get_content_height(self, container, viewport, width: int) -> int:
        lines = -(-len(self.cards) // max(1, (width + 2) // self.CHIP)) if self.cards else 1
        hint = len(Text(self.hint).wrap(self.app.console, max(1, width))) if self.hint and self.cards else 0
        return max(1, lines) + hint

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_tick(self) -> None:
        if not self.cards:
            return
        card = self.cards[self.cursor]
        self.ticked.symmetric_difference_update({card})
        self.refresh()
        self.post_message(self.Changed())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y * self.per_line + offset.x // self.CHIP
        if 0 <= index < len(self.cards) and offset.x % self.CHIP < 3:
            self.cursor = index
            self.action_tick()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
