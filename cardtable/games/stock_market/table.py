"""The Card Stock Market table: the stock-price sheet with each company's price chart, the
holdings of every player, the viewer's certificates, the bank, the stock and the discard pile,
the turn's phase track, and under the hand what each card can do now.

Playing: select a card in the hand (space or a click); the notes under each card say what
buying it costs and the price it would lay, the line below says it in words. Then ``b`` buys
it, ``l`` lays it (a court card at its face value), ``0`` lays a court card as $0 — which
bankrupts the company, so the table asks first, naming what each player loses, with No as the
default. ``s`` sells the certificate picked on the board (↑↓ or a click); ``d`` discards the
selected cards (1–4, only in a turn with no trading and no pricing); ``e`` ends the turn.

Each key is live while a command of its kind is legal for the viewer (``self.legal``), greyed
otherwise; whatever is pressed goes to the rules, which refuse it in words if it is not
allowed. Every hint on the table comes from the viewer's view and ``rules.stock_market``'s
helpers that read one (``card_uses``, ``lay_effect``, ``range_of``, ``worth``). The rules'
sentences (a refusal, what a card does, who loses what in a crash) carry their cards, players
and sums as parts, and are shown through ``styled``: a name is shown as typed, never read as
markup, and a card in its colour.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from rules.core import Card, Command
from rules.core.words import Sentence, dollars, say
from rules.stock_market import Buy, Discard, End, Lay, Sell, StockMarketView, card_uses, crash_losses
from rules.stock_market.state import MAX_DISCARD

from ...screens.confirm import ConfirmScreen
from ...screens.table import TableScreen
from ...widgets import HandWidget
from ...widgets.card import card_text
from ...widgets.panel import fitting
from ...widgets.words import styled
from .notes import HandNotes, Uses, buy_note, card_line, lay_note
from .sheet import Certificates, Holdings, Line, PriceSheet, phase_line, table_line

# the chart's height by the terminal's: one line below 30 rows, two from 30, three from 50
CHART_HEIGHTS = ((50, 3), (30, 2), (0, 1))


def key_of(command: Command) -> str | None:
    """The key that plays a command of this kind."""
    match command:
        case Buy():
            return "buy"
        case Sell():
            return "sell"
        case Lay(_, 0):
            return "crash"
        case Lay():
            return "lay"
        case Discard():
            return "discard"
        case End():
            return "end_turn"
    return None


GAME_KEYS = ("buy", "sell", "lay", "crash", "discard", "end_turn")


class StockMarketTable(TableScreen, inherit_bindings=False):
    """A Card Stock Market game (see the module docstring)."""

    CSS_PATH = [*TableScreen.CSS_PATH, Path(__file__).with_name("table.tcss")]

    # the game's keys first, so they lead the Footer
    BINDINGS = [
        Binding("b", "buy", "Buy"),
        Binding("s", "sell", "Sell"),
        Binding("p", "lay", "Lay"),  # (l moves along the hand)
        Binding("0", "crash", "Lay $0"),
        Binding("d", "discard", "Discard"),
        Binding("e", "end_turn", "End turn"),
        # the certificate cursor; the board's certificates line says so itself
        Binding("up", "certificate(-1)", "Previous certificate", priority=True, show=False),
        Binding("down", "certificate(1)", "Next certificate", priority=True, show=False),
        *TableScreen.BINDINGS,
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._live: set[str] = set()
        self._uses: dict[str, list[str]] = {}

    # -- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        four = self.settings.four_colour
        yield PriceSheet(four, id="price-sheet")
        yield Holdings(id="holdings")
        yield Certificates(four, id="certificates")
        yield Line(id="table-line")
        yield Line(id="phase-line")

    def on_mount(self) -> None:
        # (TableScreen's own on_mount runs too: Textual calls each class's handler)
        play = self.query_one("#play")
        play.mount(HandNotes(id="hand-notes"), after="#hand")
        play.mount(Static(id="card-line"), after="#hand-notes")
        self.query_one(Footer).compact = True  # every key on two lines at 80 columns
        # the board fits without scrolling: a click on it (a certificate) leaves the keys with
        # the hand
        self.query_one("#board").can_focus = False
        self.sheet.border_title = "Stock prices"
        self.holdings.border_title = "Holdings"

    def on_resize(self, event: events.Resize) -> None:
        height = event.size.height
        self.sheet.chart_height = next(rows for lines, rows in CHART_HEIGHTS if height >= lines)

    @property
    def sheet(self) -> PriceSheet:
        return self.query_one(PriceSheet)

    @property
    def holdings(self) -> Holdings:
        return self.query_one(Holdings)

    @property
    def certificates(self) -> Certificates:
        return self.query_one(Certificates)

    @property
    def market(self) -> StockMarketView:
        return self.view  # type: ignore[return-value]  # Card Stock Market's views are these

    # -- showing -------------------------------------------------------------------------------
    def refresh_board(self, view: StockMarketView) -> None:
        names = self.match.names
        four = self.settings.four_colour
        self._live = {key for key in map(key_of, self.legal) if key is not None}
        self.sheet.show(view, four)
        self.sheet.border_title = f"Stock prices · turn {view.turn}"
        self.holdings.show(view, self.match.seats)
        # the viewer's certificates, to sell; with no hand on the table, the player to move's
        owner = self.viewer if self.viewer is not None else view.current
        self.certificates.show(view, owner, names[owner], owner == self.viewer, four)
        self.query_one("#table-line", Line).show(lambda width: table_line(view, four, width))
        self.query_one("#phase-line", Line).show(lambda width: phase_line(view, names, width))
        self._uses = card_uses(view) if self.my_turn else {}
        # a Text, not a str: a str tooltip is read as markup, and the words may name a player
        self.hand.marks = {key: styled(Sentence(" · ").join(words), four_colour=four)
                           for key, words in self._uses.items() if words}
        self._show_notes()

    def _show_notes(self) -> None:
        view = self.market
        cards = self.hand.cards
        if self.my_turn:
            notes = []
            for card in cards:
                uses = Uses.of(self._uses.get(card.key, ()))
                notes.append((buy_note(view, card, uses), lay_note(view, card, uses)))
        else:
            notes = []
        self.query_one(HandNotes).show(cards, notes)
        self._show_card_line()

    def _show_card_line(self) -> None:
        if self.is_mounted:
            line = self.query_one("#card-line", Static)
            with fitting(line):
                line.update(self.card_line_text(), layout=False)

    def card_line_text(self) -> Text:
        """The line under the notes: the selected card's uses, what the selected cards would do
        together (a discard), or how to read the notes."""
        if self.viewer is None or not self.my_turn:
            return Text("")
        four = self.settings.four_colour
        selected = self.hand.selected
        if not selected:
            return Text("Under each card: cost to buy, price if laid.", style="dim")
        if len(selected) == 1:
            card = selected[0]
            uses = Uses.of(self._uses.get(card.key, ()))
            if uses.any:
                return card_line(self.market, card, uses, four)
            reasons = []
            for verb, command in (("buy", Buy(card)), ("lay", Lay(card, card.rank))):
                refused = self.refusal(command)
                if refused:
                    reasons.append(say("no {}: {}", verb, refused))
            why = styled(Sentence(" · ").join(reasons), "dim", four)
            return Text.assemble(card_text(card, four), ": ", why)
        faces = Text(" ").join(card_text(card, four) for card in selected)
        refused = self.refusal(Discard(tuple(selected)))
        if refused is None:
            ending = "them" if len(selected) > 1 else "it"
            return Text.assemble(faces, ": ", ("d", "bold"), f" discards {ending} and ends your turn")
        return Text.assemble(faces, ": ", styled(refused, "dim", four))

    def on_hand_widget_selection_changed(self, message: HandWidget.SelectionChanged) -> None:
        self._show_card_line()

    # -- keys: when they apply -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in GAME_KEYS:
            return True if action in self._live else None
        if action == "certificate":
            certificates = self.certificates
            return True if certificates.mine and len(certificates.cards) > 1 else None
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        """A greyed key says why, in the rules' words where a command can be asked about: the
        selected card (or the first in hand) bought, laid or crashed; the picked certificate
        sold; the turn ended."""
        if action not in GAME_KEYS:
            return super().why_not(action)
        if not self.my_turn:
            return super().why_not("command_bar")  # not this player's move
        cards = self.hand.selected or self.hand.cards
        certificates = self.certificates
        asked = {
            "buy": lambda: Buy(cards[0]) if cards else None,
            "lay": lambda: Lay(cards[0], cards[0].rank) if cards else None,
            "crash": lambda: Lay(cards[0], 0) if cards else None,
            "discard": lambda: Discard(tuple(cards[:MAX_DISCARD])) if cards else None,
            "sell": lambda: Sell(certificates.picked) if certificates.mine and certificates.picked else None,
            "end_turn": lambda: End(),
        }[action]()
        reason = self.refusal(asked) if asked is not None else None
        if reason is not None:
            return str(reason)
        return {"sell": "You hold no certificates to sell.",
                "crash": "Only a jack, queen or king can be laid as $0, on a company it may crash."
                }.get(action, "No card in your hand can do that now.")

    # -- keys: the actions ---------------------------------------------------------------------
    def _ask(self, message: str) -> None:
        self.notify(message, severity="warning", title="Select first", markup=False)

    def _one_card(self, doing: str) -> Card | None:
        selected = self.hand.selected
        if len(selected) != 1:
            self._ask(f"Select the one card to {doing} (space or a click), then press the key.")
            return None
        return selected[0]

    def play(self, command: Command) -> bool:
        """Submit ``command``; a refusal is shown in the rules' words (cards in symbols)."""
        refused = self.refusal(command)
        if refused is not None:
            self.notify(refused, severity="error", title="Not allowed", markup=False)
            return False
        return self.submit(command)

    def action_certificate(self, step: int) -> None:
        self.certificates.move(step)

    def action_buy(self) -> None:
        card = self._one_card("buy")
        if card is not None:
            self.play(Buy(card))

    def action_lay(self) -> None:
        card = self._one_card("lay")
        if card is not None:
            self.play(Lay(card, card.rank))  # a court card: at its face value

    def action_sell(self) -> None:
        certificates = self.certificates
        card = certificates.picked if certificates.mine else None
        if card is None:
            self.notify("You hold no certificates to sell.", severity="warning", title="Sell", markup=False)
            return
        self.play(Sell(card))

    @work(exclusive=True, group="stock-market-crash")
    async def action_crash(self) -> None:
        card = self._one_card("lay as $0 (a jack, queen or king)")
        if card is None:
            return
        command = Lay(card, 0)
        if self.refusal(command) is not None:
            self.play(command)  # no question about a crash the rules will not take: they say why
            return
        # the dialog's Static takes the styled Text as it is: the card in colour, names as typed
        question = styled(self.crash_question(card), four_colour=self.settings.four_colour)
        if await self.app.push_screen_wait(ConfirmScreen(question, default=False)):
            self.play(command)

    def crash_question(self, card: Card) -> Sentence:
        """What laying ``card`` as $0 does, asked before it is done."""
        suit = card.suit.symbol
        return say("Lay {} as {}? {} goes bankrupt: {}. Every {} certificate goes to the discard pile, and "
                   "nobody can buy {} until a number card is laid on it.", card, dollars(0), suit,
                   crash_losses(self.market, card.suit), suit, suit)

    def action_discard(self) -> None:
        selected = self.hand.selected
        if not selected:
            self._ask(f"Select the cards to discard (1–{MAX_DISCARD}: space or a click), then press d.")
            return
        self.play(Discard(tuple(selected)))

    def action_end_turn(self) -> None:
        self.play(End())


TABLE = StockMarketTable

__all__ = ["StockMarketTable", "TABLE"]
