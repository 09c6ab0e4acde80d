"""The Capital Auction table: the auction block (this round's lots, the bids laid, a Tool being
answered), every player's portfolio, the viewer's Tool cards with what they do, and the
viewer's Capital cards to bid with, above the scoreboard's Investments, face-up value, Capital,
Tools and bid columns.

Keys: tick Capital cards (``←`` ``→`` ``space``, or a click) and ``b`` (or ``enter``) bids them,
``p`` passes (in a Tool phase: plays no Tool); ``t`` lists the Tools you may play now, with
their targets and what they cost; when a card has just been played ``c`` answers it with a
Connection in the Government and ``n`` lets it stand (every other player is asked in turn,
holder or not, so being asked reveals nothing); ``x`` lists the choices an effect asks of you
(turn a card up, take a card, discard). Keys are lit from the viewer's legal commands; the
lists come from them too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding

from rules.capital_auction.commands import (
    Bid, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take,
)
from rules.capital_auction.state import BID, FLIP, PICK, REACT, TAX, TOOL, VENTURE, CapitalAuctionView
from rules.core import Command, Match
from rules.core.words import plural

from ...screens.table import TableScreen
from ...widgets.words import plain
from .dialogs import ChoiceDialog
from .panels import AuctionPanel, CapitalChips, PortfoliosPanel, ToolsPanel
from .words import describe

if TYPE_CHECKING:
    from ...store import SaveStore
    from ...settings import Settings

CHOICES = (Flip, Take, DiscardCapital, DiscardTool)
# the phases each key belongs to: greyed in them while it cannot act, hidden in the others
PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "bid": (BID,), "pass": (BID, TOOL), "tool": (TOOL,),
    "react": (REACT,), "let_stand": (REACT,), "choose": (FLIP, PICK, TAX, VENTURE),
}


def spent(command: Command) -> tuple[int, tuple[int, ...]]:
    """What a choice costs its player in Capital (a Connection's payment, a Tax Inspection's
    discards): the total, then the values, the highest card kept longest; nothing for others."""
    values = command.pay if isinstance(command, React) else command.values if isinstance(command, DiscardCapital) else ()
    return (sum(values), values)


CHOICE_TITLES = {
    FLIP: "Turn one of auction 3's cards face up",
    PICK: "Industrial Espionage: take one Capital card",
    TAX: "Tax Inspection: discard Capital cards",
    VENTURE: "Venture Fund: discard a Tool card",
}


class CapitalAuctionTable(TableScreen, inherit_bindings=False):
    """A game of Capital Auction (see the module docstring)."""

    CSS_PATH = [*TableScreen.CSS_PATH, Path(__file__).with_name("table.tcss")]
    AUTO_FOCUS = KEYS_WIDGET = "#capital"  # the hand's place, and its keys

    # the game's keys first, so the footer shows them first
    BINDINGS = [
        Binding("b,enter", "bid", "Bid", key_display="b"),
        Binding("p", "pass", "Pass"),
        Binding("t", "tool", "Tool…"),
        Binding("c", "react", "Connection"),
        Binding("n", "let_stand", "Let it stand"),
        Binding("x", "choose", "Choose…"),
        *TableScreen.BINDINGS,
    ]

    def __init__(self, match: Match, game_id: str | None, store: SaveStore | None,
                 settings: Settings, **seating: Any) -> None:
        super().__init__(match, game_id, store, settings, **seating)
        self._kinds: set[type] = set()

    # -- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield AuctionPanel(id="auction")
        yield PortfoliosPanel(id="portfolios")
        yield ToolsPanel(id="tools")

    def compose_hand(self) -> ComposeResult:
        # Capital cards, not playing cards: the chips take the hand's place and its keys
        yield CapitalChips(id="capital")
        yield from super().compose_hand()

    @property
    def ca_view(self) -> CapitalAuctionView:
        return self.view  # type: ignore[return-value]  # this game's views are CapitalAuctionViews

    @property
    def chips(self) -> CapitalChips:
        return self.query_one("#capital", CapitalChips)

    # -- showing -------------------------------------------------------------------------------
    def refresh_board(self, view: CapitalAuctionView) -> None:  # type: ignore[override]
        names = self.match.names
        self._kinds = {type(command) for command in self.legal}
        short = self.has_class("-short")
        self.query_one(AuctionPanel).show(view, names, self.viewer, short)
        self.query_one(PortfoliosPanel).show(view, names, self.viewer, self.has_class("-narrow"))
        self.query_one(ToolsPanel).show(view, self.viewer, short)
        self._show_chips()

    def _show_chips(self) -> None:
        chips = self.chips
        view = self.ca_view
        if self.viewer is None:
            chips.border_title = plain("Capital")
            chips.show((), "Each player's Capital cards are theirs alone to see.")
            return
        cards, laid = view.capital, ()
        # the value first, then the cards it is in: "16 in hand" read as sixteen cards
        title = f"Your Capital · {sum(c.value for c in cards)} in {plural(len(cards), 'card')}" if cards else (
            "Your Capital · none")
        if view.phase == BID and self.my_turn:
            # a raise is a whole new bid: the cards already laid can be part of it again
            laid = view.bids[self.viewer]
            cards = tuple(sorted((*cards, *laid), reverse=True))
        chips.show(cards, "" if cards else "no Capital cards", laid)
        hint = ""
        if view.phase == BID and self.my_turn:
            title += f" · ticked {sum(chips.chosen)}, to beat {view.high}"
            # the rules say at once whether the ticked cards make a bid, before b is pressed
            if chips.chosen:
                hint = self.refusal(Bid(chips.chosen)) or f"b bids {sum(chips.chosen)}."
        chips.border_title = plain(title)
        chips.show_hint(hint)

    @on(CapitalChips.Changed)
    def _chips_changed(self, event: CapitalChips.Changed) -> None:
        event.stop()
        self._show_chips()
        self.refresh_bindings()

    # -- keys: when they apply -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phases = PHASE_ACTIONS.get(action)
        if phases is None:
            return super().check_action(action, parameters)
        if getattr(self.view, "phase", None) not in phases:
            return False
        return True if self._can(action) else None

    def _can(self, action: str) -> bool:
        kinds = self._kinds
        if action == "bid":
            return Bid in kinds and bool(self.chips.chosen)
        if action == "pass":
            return Pass in kinds
        if action == "tool":
            return Play in kinds
        if action == "react":
            return React in kinds
        if action == "let_stand":
            return Decline in kinds
        return bool(kinds & set(CHOICES))  # choose

    def why_not(self, action: str) -> str | None:
        """A key greyed or hidden now says why: the phase it belongs to, or what it lacks."""
        phases = PHASE_ACTIONS.get(action)
        if phases is None:
            return super().why_not(action)
        if not self.my_turn:
            return super().why_not("command_bar")
        phase = getattr(self.view, "phase", None)
        if phase not in phases:
            return {"bid": "There is no auction to bid in now.",
                    "pass": "There is nothing to pass on now.",
                    "tool": "Tools are played in the Tool phase, after the auction.",
                    "react": "There is no Tool card to react to now.",
                    "let_stand": "There is no Tool card to react to now.",
                    "choose": "There is no choice to make now."}[action]
        if action == "bid":
            if not self.chips.chosen:
                return "Tick the Capital cards to bid with first (space, or a click)."
            return str(self.refusal(Bid(self.chips.chosen)) or "That bid cannot be made now.")
        if action == "tool":
            return "None of your Tool cards can be played now (its cost, or no target)."
        if action == "react":
            return "You hold no Connection in the Government, or cannot pay for one."
        return "That is not possible now."

    # -- keys: the actions ---------------------------------------------------------------------
    def action_bid(self) -> None:
        if not self.my_turn or self.ca_view.phase != BID:
            return
        values = self.chips.chosen
        if not values:
            self.notify("Tick the Capital cards to bid with first (space, or a click).", severity="warning",
                        markup=False)
            return
        if self.submit(Bid(values)):
            self.chips.untick()

    def action_pass(self) -> None:
        self.submit(Pass())

    def action_tool(self) -> None:
        plays = [command for command in self.legal if isinstance(command, Play)]
        self._offer("Play a Tool card", "Each Tool you can play now, on each target it can take; "
                    "your lowest Capital cards pay its cost.", plays)

    def action_react(self) -> None:
        # the cheapest payment first: Enter must not spend a card the player did not need to
        reactions = sorted((command for command in self.legal if isinstance(command, React)), key=spent)
        if len(reactions) == 1:
            self.submit(reactions[0])
        else:
            self._offer("React with a Connection in the Government", "", reactions)

    def action_let_stand(self) -> None:
        self.submit(Decline())

    def action_choose(self) -> None:
        view = self.ca_view
        # a Tax Inspection's discards cheapest first, as a Connection's payment
        choices = sorted((command for command in self.legal if isinstance(command, CHOICES)), key=spent)
        self._offer(CHOICE_TITLES.get(view.phase, "Choose"), view.status, choices)

    def _offer(self, title: str, note: str, commands: list[Command]) -> None:
        if not self.my_turn or not commands:
            return
        names = self.match.names
        choices = [(describe(command, self.ca_view, names), command) for command in commands]
        self.app.push_screen(ChoiceDialog(title, note, choices), callback=self._chosen)

    def _chosen(self, command: Command | None) -> None:
        if command is not None and self.my_turn:
            self.submit(command)


TABLE = CapitalAuctionTable
