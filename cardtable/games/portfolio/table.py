"""The Portfolio table: the board of portfolios, the score sheet, the draw and deal dialogs, and
the keys that turn a selection (cards in the hand, a portfolio on the board) into a command.

The table points things out from the viewer's legal commands (``card_uses``: which cards can
do something, which portfolio a card is meant for) and lights each key by whether a command of
its kind is legal now. Every action is submitted to the rules, which refuse it in words when it
is not allowed.
"""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.binding import Binding
from textual.app import ComposeResult
from textual.widgets import Footer

from rules.core import Card, Command, parse_card
from rules.core.words import dollars, player, say
from rules.portfolio.commands import (
    Accept, Acquire, Cap, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer, Pauper, Side,
)
from rules.portfolio.rules import card_uses
from rules.portfolio.state import ACT, DRAW, HIGH, LOW, RESPOND, PortfolioView

from ...screens.table import TableScreen
from ...widgets import HandWidget
from .board import PortfolioBoard
from .dialogs import DealAnswer, DealDialog, DrawDialog
from .score_sheet import ScoreSheet

# Each key's kinds of command: the key is live when one of them is legal for the viewer now.
KINDS: dict[str, tuple[type, ...]] = {
    "draw": (Draw, Pauper), "make": (Make,), "extend": (Extend,), "cap": (Cap,),
    "neutralise": (Neutralise,), "acquire": (Acquire,), "offer": (Offer,), "discard": (Discard,),
    "end_turn": (End,), "answer": (Accept, Decline),
}
# The keys shown in each phase (greyed while they cannot act); the others are hidden, so the
# Footer fits 80 columns.
PHASE_KEYS = {DRAW: {"draw"}, RESPOND: {"answer"},
              ACT: {"make", "extend", "cap", "neutralise", "acquire", "offer", "discard", "end_turn"}}
# The keys that play a card on a portfolio, and the command each would play.
CARD_KEYS = {"extend": Extend, "cap": Cap, "neutralise": Neutralise, "acquire": Acquire}
# Any card, for asking the rules about a key while no card is chosen: out of turn, or before the
# draw, their refusal is about that and not about the card.
ANY_CARD = parse_card("2C")


class PortfolioTable(TableScreen, inherit_bindings=False):
    """A Portfolio game. Select cards in the hand (space, click), a portfolio on the board
    (↑/↓, click), then press the key of the action."""

    CSS_PATH = [*TableScreen.CSS_PATH, Path(__file__).with_name("table.tcss")]

    # the game's keys first, so they are the ones the Footer shows at 80 columns
    BINDINGS = [
        Binding("d", "draw", "Draw"),
        Binding("m", "make", "Make"),
        Binding("e", "extend", "Extend"),
        Binding("c", "cap", "Cap"),
        Binding("x", "neutralise", "Neutralise"),
        Binding("a", "acquire", "Acquire"),
        Binding("o", "offer", "Deal"),
        Binding("backspace,delete", "discard", "Discard", key_display="⌫"),
        Binding("enter", "end_turn", "End turn"),
        Binding("y", "answer(True)", "Accept"),
        Binding("n", "answer(False)", "Decline"),
        # the board's cursor; the board says so itself (the Footer has no room at 80 columns)
        Binding("up", "portfolio(-1)", "Previous portfolio", priority=True, show=False),
        Binding("down", "portfolio(1)", "Next portfolio", priority=True, show=False),
        Binding("s", "sheet", "Sheet"),
        *TableScreen.BINDINGS,
    ]

    # keys that only change what is shown: a replay of the game keeps them
    VIEW_ACTIONS = frozenset({"sheet", "portfolio"})

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._uses: dict[str, list[str]] = {}
        self._prompted: tuple[object, ...] | None = None

    # -- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield PortfolioBoard(self.settings.four_colour, id="portfolio-board")

    def on_mount(self) -> None:
        # the score sheet shares the side column with the log: the pencil-and-paper column
        sheet = ScoreSheet(self.settings.four_colour, id="score-sheet")
        sheet.border_title = "Score sheet"
        self.query_one("#side").mount(sheet, before="#log")
        # the game has many keys: a compact Footer without the palette's key (ctrl+p still
        # opens it, as does the Header's icon) shows them all at 80 columns
        footer = self.query_one(Footer)
        footer.compact = True
        footer.show_command_palette = False

    @property
    def board(self) -> PortfolioBoard:
        return self.query_one(PortfolioBoard)

    # -- showing -------------------------------------------------------------------------------
    def refresh_board(self, view: PortfolioView) -> None:
        names = self.match.names
        four = self.settings.four_colour
        self.board.show(view, names, four)
        for sheet in self.query(ScoreSheet):
            sheet.show(view, names, four)
        self._uses = card_uses(view.hand, self.legal)
        self.hand.marks = {key: self._describe_uses(uses) for key, uses in self._uses.items()
                           if any(not use.startswith("make") for use in uses)}
        self._show_targets()
        self._prompt(view)

    def _describe_uses(self, uses: list[str]) -> str:
        """A card's tooltip: "extend P2 · acquire P5 for $16"."""
        infos = {info.pid: info for info in self.view.portfolios}
        words = []
        for use in uses:
            verb, _, rest = use.partition(" ")
            pid = rest.split(" ")[0]
            info = infos.get(pid)
            if verb == "neutralise" and info and info.neutralise_cost is not None:
                use += f" for ${info.neutralise_cost}"
            elif verb == "acquire" and info and info.acquire_cost is not None:
                use += f" for ${info.acquire_cost}"
            elif verb == "make":
                use = "make a run"
            words.append(use)
        return " · ".join(words)

    def _show_targets(self) -> None:
        """Point at the portfolios the one selected card can be played on."""
        selected = self.hand.selected
        targets: dict[str, str] = {}
        if len(selected) == 1:
            card = selected[0]
            for use in self._uses.get(card.key, []):
                verb, _, rest = use.partition(" ")
                if rest:
                    pid, _, end = rest.partition(" ")
                    note = f"{card.symbol} {verb}s" + (f" {end}" if end else "")
                    targets[pid] = f"{targets[pid]}, {note}" if pid in targets else note
        self.board.targets = targets

    def on_hand_widget_selection_changed(self, message: HandWidget.SelectionChanged) -> None:
        self._show_targets()

    def _prompt(self, view: PortfolioView) -> None:
        """Open the draw dialog when the viewer's turn starts, and the answer to a deal when
        one awaits the viewer — once each; ``d`` (or Escape then y/n) is there after that."""
        if not self.my_turn or view.phase not in (DRAW, RESPOND):
            return
        key = (view.phase, self.viewer, self.match.turn, len(self.match.history))
        if key != self._prompted:
            self._prompted = key
            self.call_after_refresh(self._open_prompt, key)

    def _open_prompt(self, key: tuple[object, ...]) -> None:
        # still the same moment, and nothing (a curtain, the rules) is over the table
        if not self.is_current or key != self._prompted or not self.my_turn:
            return
        if self.view.phase == DRAW:
            self.action_draw()
        elif self.view.phase == RESPOND:
            self._open_answer()

    # -- keys: when they apply -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kinds = KINDS.get(action)
        if kinds is not None:
            if any(isinstance(command, kinds) for command in self.legal):
                return True
            if action == "offer" and self.my_turn and self.refusal(self._probe("offer")) is None:
                return True  # legal lists a few offers; the rules take others (a gift, say)
            # greyed in its phase, hidden in the others (but Discard and End share one place)
            shown = PHASE_KEYS.get(getattr(self.view, "phase", ""), set())
            if action in ("discard", "end_turn") and action in shown:
                holding = bool(self.view.hand_sizes and self.view.hand_sizes[self.view.current])
                return None if (action == "discard") == holding else False
            return None if action in shown else False
        if action == "portfolio":
            return True if self.view.portfolios else None
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        """Why a key of the game does nothing now: the rules' refusal of what it would play
        (the selected card on the selected portfolio, an offer, a draw …), or what is missing."""
        name = action.partition("(")[0]
        acting = self.my_turn and getattr(self.view, "phase", None) == ACT
        if name in CARD_KEYS and acting and len(self.hand.selected) != 1:
            return f"No card in your hand can {name} a portfolio now."
        if name in CARD_KEYS and acting and self.board.selected is None:
            return f"There is no portfolio on the table to {name}."
        if name == "discard" and acting and not self.view.hand:
            return "You have no cards left: end the turn with Enter."
        probe = self._probe(name)
        reason = self.refusal(probe) if probe is not None else None
        return reason or super().why_not(action)

    def _probe(self, name: str) -> Command | None:
        """The command the key ``name`` would play now, to ask the rules about."""
        selected = self.hand.selected
        card = selected[0] if len(selected) == 1 else ANY_CARD
        pid = self.board.selected or "P1"
        match name:
            case "draw":
                return Draw(1)
            case "make":
                return Make(selected)
            case "cap":
                info = next((i for i in self.view.portfolios if i.pid == pid), None)
                return Cap(pid, LOW if info and card.rank == info.cards[0].rank else HIGH, card)
            case "extend" | "neutralise" | "acquire":
                return CARD_KEYS[name](pid, card)
            case "offer":
                # asking for a card by face is always an offer the rules take, when one may be made
                other = 0 if self.viewer is None else (self.viewer + 1) % len(self.match.names)
                return Offer(other, take=Side(cards=(ANY_CARD,)))
            case "discard":
                return Discard(card)
            case "end_turn":
                return End()
            case "answer":
                return Accept()
        return None

    # -- keys: the actions ---------------------------------------------------------------------
    def action_portfolio(self, step: int) -> None:
        self.board.move(step)

    def action_sheet(self) -> None:
        """Show or hide the score sheet (shown by default on a wide terminal only)."""
        shown = self.query_one(ScoreSheet).display
        self.set_class(not shown, "-sheet-open")
        self.set_class(shown, "-sheet-closed")

    def _play(self, command: Command | None) -> None:
        if command is not None and self.my_turn:
            self.submit(command)

    def action_draw(self) -> None:
        if not self.my_turn or self.view.phase != DRAW:
            return
        name = self.match.names[self.viewer]
        dialog = DrawDialog(self.view, name, self.refusal, self.settings.four_colour)
        self.app.push_screen(dialog, callback=self._play)

    def action_offer(self) -> None:
        if not self.my_turn:
            return
        dialog = DealDialog(self.view, self.match.names, self.viewer, self.refusal, self.settings.four_colour)
        self.app.push_screen(dialog, callback=self._play)

    def _open_answer(self) -> None:
        offer = self.view.offer
        if offer is None:
            return
        dialog = DealAnswer(offer, self.match.names, self.view.portfolios, self.refusal,
                            self.settings.four_colour)
        self.app.push_screen(dialog, callback=self._answered)

    def _answered(self, accept: bool | None) -> None:
        if accept is not None:  # None: the responder wants to look at the table first
            self.action_answer(accept)

    def action_answer(self, accept: bool) -> None:
        self._play(Accept() if accept else Decline())

    def action_make(self) -> None:
        cards = self.hand.selected
        if not cards:
            self._ask("Select the cards of the run first (space or click), then press m.")
            return
        self.submit(Make(cards))

    def action_extend(self) -> None:
        card = self._one_card("extend a portfolio")
        pid = card and self._portfolio_for(card, "extend")
        if pid:
            self.submit(Extend(pid, card))

    def action_cap(self) -> None:
        card = self._one_card("cap a portfolio")
        pid = card and self._portfolio_for(card, "cap")
        info = pid and next((i for i in self.view.portfolios if i.pid == pid), None)
        if info:
            # the card's rank names the end: a run's two ends never share a rank, and a card of
            # neither goes to the rules as it is, for them to say why not
            end = LOW if card.rank == info.cards[0].rank else HIGH
            self.submit(Cap(pid, end, card))

    @work(exclusive=True, group="portfolio-action")
    async def action_neutralise(self) -> None:
        await self._attack("neutralise")

    @work(exclusive=True, group="portfolio-action")
    async def action_acquire(self) -> None:
        await self._attack("acquire")

    async def _attack(self, verb: str) -> None:
        card = self._one_card(f"{verb} a portfolio")
        pid = card and self._portfolio_for(card, verb)
        info = pid and next((i for i in self.view.portfolios if i.pid == pid), None)
        if not info:
            return
        command = Neutralise(pid, card) if verb == "neutralise" else Acquire(pid, card)
        if self.refusal(command) is not None:
            # no question about a price the rules will not take: let them say why
            self.submit(command)
            return
        cost = info.neutralise_cost if verb == "neutralise" else info.acquire_cost
        owner = player(self.match.names, info.owner)
        question = say("{} {} from {} with {} for {}?", verb.capitalize(), pid, owner, card, dollars(cost))
        if await self.confirm(question):
            self.submit(command)

    def action_discard(self) -> None:
        card = self._one_card("discard")
        if card:
            self.submit(Discard(card))

    def action_end_turn(self) -> None:
        self.submit(End())

    # -- turning a selection into a command ------------------------------------------------------
    def _ask(self, message: str) -> None:
        self.notify(message, severity="warning", title="Select first", markup=False)

    def _one_card(self, doing: str) -> Card | None:
        selected = self.hand.selected
        if len(selected) != 1:
            self._ask(f"Select exactly one card to {doing} (space or click).")
            return None
        return selected[0]

    def _portfolio_for(self, card: Card, verb: str) -> str | None:
        """The portfolio ``card`` is meant for: the selected one if the card can go there, the
        only one it can go to, else the selected one (and the rules say why not)."""
        fits = list(dict.fromkeys(use.split(" ")[1] for use in self._uses.get(card.key, [])
                                  if use.startswith(verb + " ")))
        chosen = self.board.selected
        if chosen in fits:
            return chosen
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            self._ask(f"{card.symbol} can {verb} {', '.join(fits)}: choose one on the board "
                      "(↑/↓ or click).")
            return None
        if chosen is None:
            self._ask("There is no portfolio on the table to play on.")
        return chosen


TABLE = PortfolioTable
