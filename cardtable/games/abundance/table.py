"""The Abundance table: the market tally, the auction block, both players' trinkets and (on a
tall terminal) the sales so far, above the scoreboard's money, trinkets, sale and match columns.

Abundance has no hand of cards: the hand widget is hidden and the auction block takes the keys.
Everything is public but a sealed bid before both are in, so two humans share the screen in the
open rounds and the trade windows, and the curtain calls each of them to the keys for a sealed
bid (TableScreen decides, from the view's zones and the secret commands).

Keys: ``1``–``4`` choose a pile; in an auction the bid being made up starts at the least that
beats the standing bid ($0 for a sealed bid): ``↑``/``↓`` ±1, ``→``/``←`` ±5, ``PgUp``/``PgDn``
±10, digits type it, ``⏎`` bids it, ``p`` passes; in a trade window ``o`` offers a trade (a
dialog), ``r`` says ready, ``y``/``n`` answer an offer; ``s`` shows every sale so far (in a replay
and in the results too). Keys are lit from the viewer's legal commands; the block shows the
rules' reason when the bid made up cannot be played, and a game key that can do nothing now
says why when it is pressed (the rules' refusal of what it would play).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget

from rules.abundance.commands import Accept, Bid, ChoosePile, Decline, Offer, Pass, Ready, SealedBid, Side
from rules.abundance.events import SealedRevealed, Won
from rules.abundance.state import AUCTION, CHOOSE, OVER, SEALED_PHASE, TRADE, AbundanceView
from rules.core import Command, Match
from rules.core.words import Sentence

from ...screens.table import TableScreen
from .auction import AuctionBlock, Entry
from .dialogs import OfferDialog
from .market import MarketTally
from .sales import SalesScreen, SalesSheet
from .trinkets import TrinketsPanel

if TYPE_CHECKING:
    from ...store import SaveStore
    from ...settings import Settings

BIDDING = (AUCTION, SEALED_PHASE)
# the phases each key belongs to: greyed in them while it cannot act, hidden in the others
PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "choose_pile": (CHOOSE,),
    "bid": BIDDING, "pass": BIDDING, "raise_bid": BIDDING, "digit": BIDDING, "erase": BIDDING,
    "offer": (TRADE,), "ready": (TRADE,), "answer": (TRADE,),
}
KINDS: dict[type, str] = {
    ChoosePile: "choose", Bid: "bid", SealedBid: "bid", Pass: "pass", Offer: "offer",
    Ready: "ready", Accept: "accept", Decline: "decline",
}
MAX_DIGITS = 9
NO_TRADE = ("No trade can be suggested now: neither of you holds a trinket the other can pay for "
            "or swap. An offer may still be typed (:), as in 'offer: give $1'.")


class AbundanceTable(TableScreen, inherit_bindings=False):
    """An Abundance match (see the module docstring)."""

    CSS_PATH = [*TableScreen.CSS_PATH, Path(__file__).with_name("table.tcss")]
    AUTO_FOCUS = KEYS_WIDGET = "#auction"  # the hand's place, and its keys
    VIEW_ACTIONS = frozenset({"sales"})  # a replay's or the results' sheet: it only shows

    # the game's keys first, so the footer shows them first
    BINDINGS = [
        Binding("1", "choose_pile(1)", "Choose pile", key_display="1-4"),
        *[Binding(str(n), f"choose_pile({n})", "Choose pile", show=False) for n in (2, 3, 4)],
        Binding("enter", "bid", "Bid", key_display="⏎"),
        Binding("p", "pass", "Pass"),
        Binding("up,plus,equals_sign", "raise_bid(1)", "+1", key_display="↑"),
        Binding("right", "raise_bid(5)", "+5", key_display="→"),
        Binding("pageup", "raise_bid(10)", "+10", key_display="PgUp"),
        Binding("down,minus", "raise_bid(-1)", "-1", show=False),
        Binding("left", "raise_bid(-5)", "-5", show=False),
        Binding("pagedown", "raise_bid(-10)", "-10", show=False),
        Binding("0", "digit(0)", "Type bid", key_display="0-9"),
        *[Binding(str(n), f"digit({n})", "Type bid", show=False) for n in range(1, 10)],
        Binding("backspace", "erase", "Erase a digit", show=False),
        Binding("o", "offer", "Offer"),
        Binding("r", "ready", "Ready"),
        Binding("y", "answer(True)", "Accept"),
        Binding("n", "answer(False)", "Decline"),
        Binding("s", "sales", "Sales"),
        *TableScreen.BINDINGS,
    ]

    def __init__(self, match: Match, game_id: str | None, store: SaveStore | None,
                 settings: Settings, **seating: Any) -> None:
        super().__init__(match, game_id, store, settings, **seating)
        self._legal_set: frozenset[Command] = frozenset(self.legal)
        self._kinds: set[str] = set()
        # the bid being made up, for the auction moment it was made up in
        self._moment: tuple[object, ...] | None = None
        self._amount = 0
        self._typed = False
        self._rubbers_seen = len(self.abundance_view.rubbers)
        self._rubber_due: int | None = None

    # -- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield MarketTally(id="market")
        yield TrinketsPanel(id="trinkets")
        yield SalesSheet(id="sales")

    def compose_hand(self) -> ComposeResult:
        # There is no hand of cards: the auction block takes the hand's place under the board,
        # and the keys. It sits outside the board's scrolling container, whose arrow and page
        # keys would otherwise come first.
        yield AuctionBlock(id="auction")
        yield from super().compose_hand()

    @property
    def abundance_view(self) -> AbundanceView:
        return self.view  # type: ignore[return-value]  # Abundance's views are AbundanceViews

    @property
    def block(self) -> AuctionBlock:
        return self.query_one("#auction", AuctionBlock)

    # -- showing -------------------------------------------------------------------------------
    def refresh_board(self, view: AbundanceView) -> None:  # type: ignore[override]
        names = self.match.names
        four = self.settings.four_colour
        self._legal_set = frozenset(self.legal)
        self._kinds = {KINDS.get(type(command), "") for command in self.legal}
        if SealedBid(0) in self._legal_set:
            self._kinds.add("pass")
        self._new_moment(view)
        self.query_one(MarketTally).show(view, names, four)
        self._show_block()
        self.query_one(TrinketsPanel).show(view, names, self.viewer, "offer" in self._kinds, four)
        self.query_one(SalesSheet).show(view, names, four)
        if len(view.rubbers) > self._rubbers_seen:
            self._rubbers_seen = len(view.rubbers)
            if view.phase != OVER:  # the results show the last rubber with the match
                self._rubber_due = self._rubbers_seen
        if self._rubber_due is not None:
            self._show_rubber()  # at once: a key pressed next goes to it, not to the table

    def _show_block(self) -> None:
        view = self.abundance_view
        bots = [seat for seat, player in enumerate(self.match.seats) if player.bot is not None]
        self.block.show(view, self.match.names, self.viewer, self._kinds, self._entry(), self._last_result(),
                        bots, self.settings.four_colour)

    def _last_result(self) -> Sentence | None:
        """How the latest auction ended, as the log says it (only in a trade window)."""
        if self.abundance_view.phase != TRADE:
            return None
        names = self.match.names
        for played in reversed(self.match.history[-12:]):
            for event in reversed(played.events):
                if isinstance(event, (Won, SealedRevealed)) and event.visible_to(self.viewer):
                    return event.describe(names, self.viewer)
        return None

    def _show_rubber(self) -> None:
        """The sales of the rubber that has just ended, over the table, once."""
        rubber = self._rubber_due
        if rubber is None or not self.is_current:
            return  # a curtain or a dialog is up: when the table is back (its refresh)
        self._rubber_due = None
        self.app.push_screen(SalesScreen(self.match.view(None), self.match.names, rubber,  # type: ignore[arg-type]
                                         self.settings.four_colour))

    def results_details(self) -> Widget | None:
        sheet = SalesSheet(id="abundance-sales")
        sheet.show(self.match.view(None), self.match.names, self.settings.four_colour)  # type: ignore[arg-type]
        return sheet

    # -- the bid being made up -----------------------------------------------------------------
    def _new_moment(self, view: AbundanceView) -> None:
        """A new auction moment (another card, bid, bidder or viewer) starts the bid afresh at
        the least that can be bid: nothing made up for one player outlives their turn."""
        moment = (self.viewer, view.rubber, view.round, view.auctions, view.phase, len(view.calls),
                  view.sealed_in)
        if moment != self._moment:
            self._moment = moment
            self._amount = self._lowest()
            self._typed = False

    def _lowest(self) -> int:
        view = self.abundance_view
        if view.phase == SEALED_PHASE:
            return 0
        return view.auction.minimum if view.auction is not None else 1

    def _bid_command(self) -> Command:
        if self.abundance_view.phase == SEALED_PHASE:
            return SealedBid(self._amount)
        return Bid(self._amount)

    def _entry(self) -> Entry | None:
        view = self.abundance_view
        if not self.my_turn or view.phase not in BIDDING or "bid" not in self._kinds:
            return None
        command = self._bid_command()
        problem = None
        if command not in self._legal_set:
            problem = self.refusal(command) or "That bid cannot be made now."
        return Entry(self._amount, view.phase == SEALED_PHASE, problem)

    def _entry_changed(self) -> None:
        self._show_block()
        self.refresh_bindings()  # Bid lights up or greys with the amount

    # -- keys: when they apply -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phases = PHASE_ACTIONS.get(action)
        if phases is None:
            return super().check_action(action, parameters)
        if getattr(self.view, "phase", None) not in phases:
            return False
        return True if self._can(action, parameters) else None

    def _can(self, action: str, parameters: tuple[object, ...]) -> bool:
        legal, kinds = self._legal_set, self._kinds
        if action == "choose_pile":
            return ChoosePile(parameters[0]) in legal if parameters else "choose" in kinds  # type: ignore[arg-type]
        if action == "bid":
            return self._bid_command() in legal
        if action == "pass":
            return "pass" in kinds
        if action in ("raise_bid", "digit", "erase"):
            return "bid" in kinds
        if action == "answer":
            if parameters:
                return (Accept() if parameters[0] else Decline()) in legal
            return bool(kinds & {"accept", "decline"})
        return action in kinds  # offer, ready

    # -- keys: the actions ---------------------------------------------------------------------
    def action_choose_pile(self, number: int) -> None:
        self.submit(ChoosePile(number))

    def action_bid(self) -> None:
        self.submit(self._bid_command())

    def action_pass(self) -> None:
        self.submit(SealedBid(0) if self.abundance_view.phase == SEALED_PHASE else Pass())

    def action_raise_bid(self, step: int) -> None:
        view = self.abundance_view
        if self.viewer is None or view.phase not in BIDDING:
            return
        low = self._lowest()
        high = max(low, view.money[self.viewer])
        self._amount = max(low, min(high, self._amount + step))
        self._typed = False
        self._entry_changed()

    def action_digit(self, digit: int) -> None:
        """Type the bid: the first digit after a step (or a new turn) starts a new number."""
        if self._typed and len(str(self._amount)) < MAX_DIGITS:
            self._amount = self._amount * 10 + digit
        elif not self._typed:
            self._amount = digit
        self._typed = True
        self._entry_changed()

    def action_erase(self) -> None:
        self._amount //= 10
        self._typed = True
        self._entry_changed()

    def action_offer(self, chosen: str | None = None) -> None:
        if not self.my_turn or "offer" not in self._kinds:
            return
        view = self.abundance_view
        card = next((c for cards in view.trinkets for c in cards if c.key == chosen), None)
        dialog = OfferDialog(view, self.match.names, self.viewer, self.refusal, card,  # type: ignore[arg-type]
                             self.settings.four_colour)
        self.app.push_screen(dialog, callback=self._offered)

    def _offered(self, command: Offer | None) -> None:
        if command is not None and self.my_turn:
            self.submit(command)

    def action_trade(self, key: str) -> None:
        """A click on a trinket: offer a trade for it."""
        self.action_offer(key)

    def action_ready(self) -> None:
        self.submit(Ready())

    def action_answer(self, accept: bool) -> None:
        self.submit(Accept() if accept else Decline())

    def action_sales(self) -> None:
        self.app.push_screen(SalesScreen(self.abundance_view, self.match.names, None, self.settings.four_colour))

    # -- keys that can do nothing now say why ----------------------------------------------------
    def why_not(self, action: str) -> str | None:
        """Why a game key does nothing now (TableScreen's ``on_key`` shows it): the rules' refusal
        of what it would play."""
        _, name, parameters = parse_action(action)
        if name not in PHASE_ACTIONS:
            return super().why_not(action)
        view = self.abundance_view
        if name == "choose_pile":
            if view.phase != CHOOSE:  # "1" types a bid more often than it chooses a pile
                return self.why_not("digit(1)")
            return self.refusal(ChoosePile(parameters[0]))  # type: ignore[arg-type]
        if name in ("bid", "raise_bid", "digit", "erase"):
            return self.refusal(self._bid_command()) or "No bid can be made now."
        if name == "pass":
            return self.refusal(SealedBid(0) if view.phase == SEALED_PHASE else Pass())
        if name == "answer":
            return self.refusal(Accept() if parameters[0] else Decline())
        if name == "ready":
            return self.refusal(Ready())
        # offer: no trade window, not this player's say, or an offer to answer first
        reason = self.refusal(Ready())
        if reason is None and self.viewer is not None and view.offered[self.viewer]:
            reason = self.refusal(Offer(None, Side(money=1)))  # one offer a window: any offer says so
        return reason or NO_TRADE

TABLE = AbundanceTable
