"""Portfolio's dialogs: how many cards to draw, a deal to offer, and the answer to a deal.

Each dialog dismisses with the Command to play (or True/False for the answer), or None when the
player closes it. None of them decides a rule: the draw and deal dialogs ask the ``check`` they
are given (the rules, through the table) before they let a command go, and show its refusal in
the rules' own words, its cards in colour. Players' names are shown exactly as typed (rich Text,
never markup).
"""

from __future__ import annotations

from typing import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, OptionList, RadioSet, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from rules.core import Command, NotationError, parse_cards
from rules.core.offers import Accept, Deal, Offer, Side
from rules.core.words import dollars, player, say
from rules.portfolio.commands import Draw, Pauper
from rules.portfolio.state import PortfolioInfo, PortfolioView

from ...widgets import HandWidget, card_text
from ...widgets.dialog import Dialog
from ...widgets.toggles import Dot, Tick, TickList
from ...widgets.words import plain, styled
from .board import offer_side, summary_text

Check = Callable[[Command], "str | None"]
"""Asks the rules about a command: None if it may be played, else the reason (a Sentence, whose
cards are shown in colour)."""


def draw_command(count: int, from_discard: bool, pauper: bool) -> Command:
    """The draw chosen: ``Draw(count, from_discard)``, or ``Pauper(from_discard)``."""
    return Pauper(from_discard) if pauper else Draw(count, from_discard)


def draw_choices(view: PortfolioView) -> list[tuple[int, int, int]]:
    """(cards, cost, money banked) for every draw this turn's income pays for; a pauper's one
    choice is two cards for nothing."""
    if view.pauper:
        return [(2, 0, view.turn_income)]
    return [(count, cost, view.turn_income - cost) for count, cost in enumerate(view.draw_costs, 1)]


class PortfolioDialog(Dialog):
    """A Portfolio dialog (the shared Dialog shows the rules' objection with its cards in colour)."""


class DrawDialog(PortfolioDialog):
    """The start of a turn: this turn's income, what 1, 2, 3 … cards would cost and leave in the
    bank, pauper's rule when it applies, and whether to take the top discard first. Dismisses
    with ``draw N [+discard]`` / ``pauper [+discard]``."""

    # Enter reaches the focused list of counts, which draws what it chooses: a priority Enter
    # acted at once, ahead of a Down typed before it but still on its way to the list (Down
    # then Enter in one read from the terminal drew the first count, not the second); so the
    # list keeps the focus, and the box for the discard's top card is ticked by t or a click
    BINDINGS = [
        Binding("enter", "draw", "Draw"),
        Binding("t", "toggle_discard", "Top discard"),
        *[Binding(str(n), f"choose({n})", str(n), show=False) for n in range(1, 10)],
    ]

    def __init__(self, view: PortfolioView, player: str, check: Check, four_colour: bool = False) -> None:
        super().__init__()
        self.view = view
        self.player = player
        self.check = check
        self.four_colour = four_colour
        self.choices = draw_choices(view)

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical(id="draw-box") as box:
            box.border_title = plain(f"{self.player}: draw")
            if view.pauper:
                yield Static(Text.assemble(
                    ("Pauper's rule: ", "bold"), "you own no portfolio and hold fewer than 13 cards, "
                    "so you draw two cards for the price of one — for nothing."), id="draw-income")
            else:
                yield Static(Text.assemble(
                    ("Income this turn: ", "bold"), (dollars(view.turn_income), "bold"),
                    ". The first card is free; more cards are paid from this income only, and "
                    "what you do not spend is banked."), id="draw-income")
            options = [Option(self._choice_text(*choice), id=str(choice[0])) for choice in self.choices]
            yield OptionList(*options, id="draw-counts", compact=True)
            top = view.discard_top
            label = (Text.assemble("Take ", card_text(top, self.four_colour), " from the discard pile first (t)")
                     if top else Text("The discard pile is empty"))
            tick = Tick(label, id="draw-discard", disabled=top is None, compact=True)
            tick.can_focus = False
            yield tick
            yield Static(id="draw-summary")
            yield Static(classes="dialog--error")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Draw (Enter)", variant="primary", id="draw-ok", compact=True)
                yield Button("Not now (Esc)", id="draw-cancel", compact=True)

    def _choice_text(self, count: int, cost: int, banked: int) -> Text:
        noun = "card " if count == 1 else "cards"
        tail = "  pauper's rule" if self.view.pauper else ""
        return Text.assemble(f"{count:>2} {noun}   costs ", (f"{dollars(cost):>4}", "bold"),
                             "   banks ", (f"{dollars(banked):>4}", "bold green"), tail)

    def on_mount(self) -> None:
        counts = self.query_one("#draw-counts", OptionList)
        counts.highlighted = 0
        counts.focus()
        self._update()

    # -- the choice ------------------------------------------------------------------------
    @property
    def count(self) -> int:
        index = self.query_one("#draw-counts", OptionList).highlighted or 0
        return self.choices[index][0]

    @property
    def from_discard(self) -> bool:
        return self.query_one("#draw-discard", Checkbox).value

    @property
    def command(self) -> Command:
        return draw_command(self.count, self.from_discard, self.view.pauper)

    def _update(self) -> None:
        index = self.query_one("#draw-counts", OptionList).highlighted or 0
        count, cost, banked = self.choices[index]
        top = self.view.discard_top
        if self.from_discard and top is not None:
            source = Text.assemble(card_text(top, self.four_colour), " (discard)",
                                   f" + {count - 1} from the stock" if count > 1 else "")
        else:
            source = Text(f"{count} from the stock")
        self.query_one("#draw-summary", Static).update(Text.assemble(
            ("You draw ", "bold"), source, f", pay {dollars(cost)} and bank ",
            (dollars(banked), "bold green"), "."))
        self._error(None)

    @on(OptionList.OptionHighlighted)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        self._update()

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_draw()

    def action_choose(self, count: int) -> None:
        for index, choice in enumerate(self.choices):
            if choice[0] == count:
                self.query_one("#draw-counts", OptionList).highlighted = index
                return
        # a count this turn's income does not pay for (a pauper's other than two): the key says
        # why in the rules' words, and the choice stays
        self._error(self.check(Draw(count, self.from_discard)))

    def action_toggle_discard(self) -> None:
        box = self.query_one("#draw-discard", Checkbox)
        if not box.disabled:
            box.toggle()

    def action_draw(self) -> None:
        self._submit(self.command, self.check(self.command))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._ok_or_cancel(event, "draw-ok", self.action_draw)


class DealDialog(PortfolioDialog):
    """An offer to one other player: what you give (hand cards, portfolios, money) and what you
    take (their portfolios, money, and cards named by face — their hand is hidden). The offer is
    previewed in notation and checked as it changes; dismisses with the ``Offer``."""

    DEFAULT_CSS = """
    DealDialog {
        & > Vertical { width: 80; }
        & #deal-with { width: 1fr; height: auto; layout: horizontal; border: none; padding: 0; }
        & #deal-with RadioButton { width: auto; margin-right: 2; }
        & #deal-sides { height: auto; }
        & .deal--side { width: 1fr; height: auto; border-top: solid $primary-muted; border-title-align: left; }
        & #deal-give { margin-right: 1; }
        & #deal-hand { max-height: 4; border: none; padding: 0; }
        & SelectionList { height: auto; max-height: 4; }
        & .deal--row { height: 1; }
        & .deal--row Label { width: auto; }
        & .deal--row Input { width: 1fr; }
        & #deal-preview { margin-top: 1; text-style: bold; }
    }
    """

    # not a priority binding: ctrl+o comes to the dialog after the keys typed before it have
    # reached the focused field (a priority one acted at once, ahead of them)
    BINDINGS = [Binding("ctrl+o", "offer", "Offer")]

    def __init__(self, view: PortfolioView, names: Sequence[str], seat: int, check: Check,
                 four_colour: bool = False) -> None:
        super().__init__()
        self.view = view
        self.names = tuple(names)
        self.seat = seat
        self.check = check
        self.four_colour = four_colour
        self.others = [s for s in range(len(names)) if s != seat]

    def compose(self) -> ComposeResult:
        with Vertical(id="deal-box") as box:
            box.border_title = plain(f"{self.names[self.seat]}: offer a deal")
            with Horizontal(classes="deal--row"):
                yield Label("With: ")
                with RadioSet(id="deal-with", compact=True):
                    for number, other in enumerate(self.others):
                        yield Dot(plain(self.names[other]), value=number == 0, compact=True)
            with Horizontal(id="deal-sides"):
                with Vertical(id="deal-give", classes="deal--side") as give:
                    give.border_title = "You give"
                    yield Label("Cards (space or click)", classes="dialog--note")
                    yield HandWidget(self.four_colour, id="deal-hand")
                    mine = self._portfolios(self.seat)
                    yield Label("Portfolios" if mine else "Portfolios: you have none", classes="dialog--note")
                    yield TickList(*mine, id="deal-give-portfolios", compact=True)
                    with Horizontal(classes="deal--row"):
                        yield Label("Money $")
                        yield Input(placeholder="0", type="integer", id="deal-give-money", compact=True)
                with Vertical(id="deal-take", classes="deal--side") as take:
                    take.border_title = "You take"
                    with Horizontal(classes="deal--row"):
                        yield Label("Cards ")
                        yield Input(placeholder="by name, e.g. 9C QH", id="deal-take-cards", compact=True)
                    yield Label("Portfolios", classes="dialog--note", id="deal-take-label")
                    yield TickList(id="deal-take-portfolios", compact=True)
                    with Horizontal(classes="deal--row"):
                        yield Label("Money $")
                        yield Input(placeholder="0", type="integer", id="deal-take-money", compact=True)
            yield Static(id="deal-preview")
            yield Static(classes="dialog--error")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Offer (ctrl+o)", variant="primary", id="deal-ok", compact=True)
                yield Button("Cancel (Esc)", id="deal-cancel", compact=True)

    def _portfolios(self, seat: int) -> list[Selection[str]]:
        return [Selection(summary_text(info, self.four_colour), info.pid)
                for info in self.view.portfolios if info.owner == seat]

    def on_mount(self) -> None:
        self.query_one("#deal-hand", HandWidget).show(self.view.hand, "No cards in hand.")
        self._counterparty_changed()
        self.query_one("#deal-with", RadioSet).focus()

    # -- what is on offer ------------------------------------------------------------------
    @property
    def counterparty(self) -> int:
        index = self.query_one("#deal-with", RadioSet).pressed_index
        return self.others[max(index, 0)]

    def _money(self, selector: str) -> int:
        value = self.query_one(selector, Input).value.strip()
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else 0

    @property
    def command(self) -> Offer:
        """The offer as chosen; cards to take are read by face (a name the rules cannot read
        raises NotationError, which the dialog shows)."""
        give = Side(tuple(self.query_one("#deal-hand", HandWidget).selected),
                    tuple(self.query_one("#deal-give-portfolios", SelectionList).selected),
                    self._money("#deal-give-money"))
        take = Side(tuple(parse_cards(self.query_one("#deal-take-cards", Input).value)),
                    tuple(self.query_one("#deal-take-portfolios", SelectionList).selected),
                    self._money("#deal-take-money"))
        return Offer(self.counterparty, give, take)

    def _offer_or_error(self) -> tuple[Offer | None, str | None]:
        try:
            return self.command, None
        except NotationError as error:
            return None, str(error)

    def _counterparty_changed(self) -> None:
        other = self.counterparty
        take = self.query_one("#deal-take-portfolios", SelectionList)
        take.clear_options()
        theirs = self._portfolios(other)
        take.add_options(theirs)
        self.query_one("#deal-take-label", Label).update(
            plain("Portfolios" if theirs else f"Portfolios: {self.names[other]} has none"))
        self.query_one("#deal-take", Vertical).border_title = plain(f"You take from {self.names[other]}")
        self._update()

    def _update(self) -> None:
        command, problem = self._offer_or_error()
        if command is None:
            preview = "name the cards to take by face, e.g. 9C QH"
        elif command.give.empty and command.take.empty:
            preview = "choose what to give and take"
        else:
            preview = say("{} gets {}; you get {}", player(self.names, self.counterparty),
                          command.give.describe(), command.take.describe())
        self.query_one("#deal-preview", Static).update(
            Text.assemble(("Offer: ", "dim"), styled(preview, four_colour=self.four_colour)))
        self._error(problem)

    @on(RadioSet.Changed)
    def _radio_changed(self) -> None:
        self._counterparty_changed()

    @on(HandWidget.SelectionChanged)
    @on(SelectionList.SelectedChanged)
    @on(Input.Changed)
    def _changed(self, event) -> None:
        event.stop()
        self._update()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_offer()

    def action_offer(self) -> None:
        command, problem = self._offer_or_error()
        self._submit(command, problem or self.check(command))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._ok_or_cancel(event, "deal-ok", self.action_offer)


class DealAnswer(PortfolioDialog):
    """The responder's side of a deal, shown after the hand-off curtain: what each side gives,
    in full. Dismisses with True (accept, ``y``), False (decline, ``n``) or None (Escape: look
    at the table first; ``y``/``n`` still answer there)."""

    BINDINGS = [
        Binding("y", "answer(True)", "Accept"),
        Binding("n", "answer(False)", "Decline"),
    ]

    def __init__(self, offer: Deal, names: Sequence[str], portfolios: Sequence[PortfolioInfo],
                 check: Check, four_colour: bool = False) -> None:
        super().__init__()
        self.offer = offer
        self.check = check
        self.names = tuple(names)
        self.infos = {info.pid: info for info in portfolios}
        self.four_colour = four_colour

    def compose(self) -> ComposeResult:
        offer, names, four = self.offer, self.names, self.four_colour
        proposer, responder = names[offer.proposer], names[offer.responder]
        with Vertical(id="answer-box") as box:
            box.border_title = plain(f"{responder}: a deal from {proposer}")
            yield Static(Text.assemble(
                (f"{proposer} gives you: ", "bold"),
                offer_side(offer.give, self.infos, four)),
                id="answer-give")
            yield Static(Text.assemble(
                (f"{proposer} takes from you: ", "bold"),
                offer_side(offer.take, self.infos, four)),
                id="answer-take")
            if offer.take.cards:
                yield Static(plain(f"{proposer} names the cards by face: you hand over one of each face "
                                   "from your hand."), classes="dialog--note")
            yield Static(classes="dialog--error")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Accept (y)", variant="primary", id="answer-yes", compact=True)
                yield Button("Decline (n)", variant="error", id="answer-no", compact=True)
                yield Button("Look at the table (Esc)", id="answer-later", compact=True)

    def on_mount(self) -> None:
        # a deal the responder cannot fulfil can only be declined: say why before they try
        problem = self.check(Accept())
        self._error(problem)
        self.query_one("#answer-yes", Button).disabled = problem is not None

    def action_answer(self, accept: bool) -> None:
        if accept and self.query_one("#answer-yes", Button).disabled:
            self.app.bell()
            return
        self.dismiss(accept)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "answer-later":
            self.action_cancel()
        else:
            self.dismiss(event.button.id == "answer-yes")
