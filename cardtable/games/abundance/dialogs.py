"""Abundance's trade dialog: an offer to the other player of trinkets and money either way.

Both players' trinkets are public, so both sides are lists to tick (with what each trinket's
suit pays now), plus a sum of money each way. The offer is previewed in words, with what it
would do to both players' money and sale at today's prices, and checked with the rules as it
changes; it dismisses with the ``Offer`` (or None), never with text to parse.
"""

from __future__ import annotations

from typing import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from rules.abundance.commands import Offer, Side
from rules.abundance.state import AbundanceView
from rules.core import Card, Command, sort_cards
from rules.core.offers import Deal
from rules.core.words import dollars

from ...widgets.card import card_text
from ...widgets.dialog import Dialog
from ...widgets.toggles import TickList
from ...widgets.words import plain
from .auction import side_text, trade_effect

Check = Callable[[Command], "str | None"]
"""Asks the rules about a command: None if it may be played, else the reason."""


class OfferDialog(Dialog):
    """``seat``'s offer to the other player. ``chosen``: a trinket to start with ticked (the one
    the player clicked on the table)."""

    DEFAULT_CSS = """
    OfferDialog {
        & > Vertical { width: 78; }
        & #offer-sides { height: auto; }
        & .offer--side { width: 1fr; height: auto; border-top: solid $primary-muted; border-title-align: left; }
        & #offer-give { margin-right: 1; }
        & SelectionList { height: auto; max-height: 8; }
        & .offer--row { height: 1; }
        & .offer--row Label { width: auto; }
        & .offer--row Input { width: 1fr; }
        & #offer-preview { margin-top: 1; text-style: bold; }
        & #offer-effect { height: auto; }
    }
    """

    # not a priority binding: ctrl+o comes to the dialog after the keys typed before it have
    # reached the focused field (a priority one offered at once, without the last digits typed)
    BINDINGS = [
        Binding("ctrl+o", "offer", "Offer"),
    ]

    def __init__(self, view: AbundanceView, names: Sequence[str], seat: int, check: Check,
                 chosen: Card | None = None, four_colour: bool = False) -> None:
        super().__init__()
        self.view = view
        self.names = tuple(names)
        self.seat = seat
        self.other = 1 - seat
        self.check = check
        self.chosen = chosen
        self.four_colour = four_colour

    def compose(self) -> ComposeResult:
        other = self.names[self.other]
        with Vertical(id="offer-box") as box:
            # Text titles and labels: a name is shown as typed, never read as markup
            box.border_title = plain(f"{self.names[self.seat]}: offer {other} a trade")
            yield Static("Tick trinkets (space or click) and write sums of money; one offer per "
                         "trade window.", classes="dialog--note")
            with Horizontal(id="offer-sides"):
                with Vertical(id="offer-give", classes="offer--side") as give:
                    give.border_title = plain(f"You give ({dollars(self.view.money[self.seat])})")
                    yield self._trinkets(self.seat, "offer-give-cards", "You have no trinkets")
                    with Horizontal(classes="offer--row"):
                        yield Label("Money $")
                        yield Input(placeholder="0", type="integer", id="offer-give-money", compact=True)
                with Vertical(id="offer-take", classes="offer--side") as take:
                    take.border_title = plain(f"You take from {other} ({dollars(self.view.money[self.other])})")
                    yield self._trinkets(self.other, "offer-take-cards", f"{other} has no trinkets")
                    with Horizontal(classes="offer--row"):
                        yield Label("Money $")
                        yield Input(placeholder="0", type="integer", id="offer-take-money", compact=True)
            yield Static(id="offer-preview")
            yield Static(id="offer-effect")
            yield Static(classes="dialog--error")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Offer (ctrl+o)", variant="primary", id="offer-ok", compact=True)
                yield Button("Cancel (Esc)", id="offer-cancel", compact=True)

    def _trinkets(self, seat: int, id: str, empty: str) -> SelectionList | Label:
        cards = sort_cards(self.view.trinkets[seat])
        if not cards:
            return Label(plain(empty), classes="dialog--note", id=id)
        pays = self.view.pays
        options = [Selection(Text.assemble(card_text(card, self.four_colour),
                                           (f"  pays {dollars(pays[card.suit.order])} now", "dim")),
                             card.key, card == self.chosen)
                   for card in cards]
        return TickList(*options, id=id, compact=True)

    def on_mount(self) -> None:
        # (Dialog's on_mount runs too: the buttons take no focus)
        lists = list(self.query(TickList))
        if self.chosen is not None and self.chosen in self.view.trinkets[self.other] and len(lists) > 1:
            lists[-1].focus()
        elif lists:
            lists[0].focus()
        else:
            self.query_one("#offer-give-money", Input).focus()
        self._update()

    # -- the offer -------------------------------------------------------------------------
    def _cards(self, id: str, seat: int) -> tuple[Card, ...]:
        found = self.query(f"#{id}")
        if not found or not isinstance(found.first(), SelectionList):
            return ()
        keys = set(found.first(SelectionList).selected)
        return tuple(card for card in sort_cards(self.view.trinkets[seat]) if card.key in keys)

    def _money(self, selector: str) -> int:
        value = self.query_one(selector, Input).value.strip()
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else 0

    @property
    def command(self) -> Offer:
        give = Side(cards=self._cards("offer-give-cards", self.seat), money=self._money("#offer-give-money"))
        take = Side(cards=self._cards("offer-take-cards", self.other), money=self._money("#offer-take-money"))
        return Offer(None, give, take)

    def _update(self) -> None:
        command = self.command
        preview = self.query_one("#offer-preview", Static)
        effect = self.query_one("#offer-effect", Static)
        if command.give.empty and command.take.empty:
            preview.update(Text("Choose what to give and what to take.", style="dim"))
            effect.update("")
        else:
            preview.update(Text.assemble(("Offer: ", "dim"), self.names[self.other], " gets ",
                                         side_text(command.give, self.four_colour), "; you get ",
                                         side_text(command.take, self.four_colour)))
            deal = Deal(self.seat, self.other, command.give, command.take)
            effect.update(trade_effect(self.view, deal, self.names))
        self._error(None)

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
        command = self.command
        self._submit(command, self.check(command))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._ok_or_cancel(event, "offer-ok", self.action_offer)
