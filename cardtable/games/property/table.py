"""The Property table: the 8×8 grid above the hand, a preview of the play the player is
pointing at, and the purchase offer after a rent.

Playing: select one red and one black card in the hand (a third card of a colour replaces the
older one); the grid highlights the cells the pair can name and puts its cursor there; with a
9 or 10 the grid has the keys and the player moves its cursor among those cells; Enter (or p)
plays. The rules decide everything — the preview line is ``rules.property.preview`` of the
viewer's view and the Play key is greyed unless the rules' ``check`` accepts the play. Only one
thing is asked twice: a play on one's own mortgaged cell, which loses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...screens.closing import OpensWhileRunning

from rules.core import Card, Match, View
from rules.core.words import Sentence, player, plural, say
from rules.property import (
    Buy, Decline, PendingPurchase, Play, PropertyView, cell_name, cells_for, group, is_wild,
    preview,
)
from rules.property.rules import units_total

from ...screens.table import TableScreen
from ...widgets import HandWidget, card_text
from ...widgets.words import styled
from .grid import PropertyGrid, seat_initials

if TYPE_CHECKING:
    from ...store import SaveStore
    from ...settings import Settings

CONFIRM_MORTGAGED = (
    "That cell is yours and mortgaged: playing it loses it — press Enter again to confirm "
    "(any other key cancels)."
)


def units_text(units: Sequence[Card], four_colour: bool = False) -> Text:
    """Purchase units as cards, e.g. ``K♠s Q♥h JK``."""
    return Text(" ").join(card_text(card, four_colour) for card in units)


class BuyScreen(OpensWhileRunning, ModalScreen[Buy | None]):
    """Which units to hand over, when there is more than one useful way: the cheapest first.
    Enter buys with the highlighted set; Escape goes back without buying."""

    DEFAULT_CSS = """
    BuyScreen {
        align: center middle;
        & #buy-box {
            width: 56;
            max-width: 100%;
            height: auto;
            padding: 1 2;
            border: thick $accent;
            background: $surface;
        }
        & #buy-offer { text-style: bold; margin-bottom: 1; }
        & OptionList { height: auto; max-height: 10; }
        & #buy-hint { color: $text-muted; margin-top: 1; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, offer: Sentence, buys: Sequence[Buy], four_colour: bool = False) -> None:
        super().__init__()
        self.offer = offer
        self.buys = list(buys)
        self.four_colour = four_colour

    def compose(self) -> ComposeResult:
        with Vertical(id="buy-box"):
            yield Static(styled(self.offer, four_colour=self.four_colour), id="buy-offer")
            options = []
            for buy in self.buys:
                label = units_text(buy.units, self.four_colour)
                label.append(f"   {plural(units_total(buy.units), 'unit')}", style="dim")
                options.append(Option(label))
            yield OptionList(*options, id="buy-choices")
            yield Static("Enter: hand these over · Escape: back", id="buy-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.buys[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)


class PropertyTable(TableScreen):
    """Property's table (see the module docstring)."""

    CSS_PATH = [*TableScreen.CSS_PATH, Path(__file__).with_name("table.tcss")]

    BINDINGS = [
        Binding("enter,p", "play", "Play", key_display="⏎"),
        Binding("b", "buy", "Buy"),
        Binding("n,d", "decline", "Decline"),
        # the grid's keys while it has them (a wild pair, a click on it): the hand keeps the focus
        # and these come before its keys. Handing the focus to the grid redrew the whole screen
        # and restyled the hand, the board and the grid, over three frames. Change pair takes
        # the footer's place of the hand's Select card, and is as wide: relabelled, not rebuilt
        Binding("space,escape,tab", "release", "Change pair", priority=True),
        # a class's bindings of a key replace its bases' of that key: the table's and the
        # screen's own escape and tab are listed again, to act when the grid has no keys
        *(binding for binding in (*Screen.BINDINGS, *TableScreen.BINDINGS) if binding.key in ("escape", "tab")),
        Binding("left,h", "grid_move(-1, 0)", "Cell left", show=False, priority=True),
        Binding("right,l", "grid_move(1, 0)", "Cell right", show=False, priority=True),
        Binding("up,k", "grid_move(0, 1)", "Cell up", show=False, priority=True),
        Binding("down,j", "grid_move(0, -1)", "Cell down", show=False, priority=True),
        # else the hand's own home and end would move its hidden cursor while the grid has the keys
        Binding("home", "grid_edge(-1)", "First cell", show=False, priority=True),
        Binding("end", "grid_edge(1)", "Last cell", show=False, priority=True),
    ]

    def __init__(self, match: Match, game_id: str | None, store: SaveStore | None,
                 settings: Settings, **seating: Any) -> None:
        super().__init__(match, game_id, store, settings, **seating)
        self.initials = seat_initials(match.names)
        self._order: list[Card] = []  # the selected cards, oldest first
        self._armed: Play | None = None  # a play on the viewer's mortgaged cell, asked once
        self._play_shown = False  # whether the footer last showed Play enabled

    def on_mount(self) -> None:
        # (TableScreen's own on_mount runs too: Textual calls each class's handler)
        self.query_one(Footer).compact = True  # room for Play, or Buy and Decline, at 80 columns

    # -- the board -----------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        # the lines under the grid: preview (up to two when it wraps), units, legend
        yield PropertyGrid(self.initials, spare_lines=4, id="grid")
        yield Static(id="preview")
        yield Static(id="units")
        yield Static(id="legend")

    @property
    def grid(self) -> PropertyGrid:
        return self.query_one("#grid", PropertyGrid)

    @property
    def property_view(self) -> PropertyView:
        return self.view  # type: ignore[return-value]  # Property's views are PropertyViews

    def refresh_board(self, view: View) -> None:
        view = self.property_view
        last = view.last_play
        self.grid.show(view.owners, view.mortgaged, None if last is None else (last.col, last.row))
        self._armed = None  # the table changed: a question asked about the old one is void
        # forget cards that left the hand now, not when the hand reports it: the named cells
        # must not outlive the hand they came from (a curtain may be about to go up)
        if any(card not in view.hand for card in self._order):
            self._order = [card for card in self._order if card in view.hand]
            self.grid.named = self._named()
        self._show_units()
        self._show_legend()
        self._show_preview()

    def _show_units(self) -> None:
        view = self.property_view
        seat = self.viewer if self.viewer is not None else view.current
        widget = self.query_one("#units", Static)
        if seat is None or seat >= len(view.units):
            widget.update("")
            return
        units = view.units[seat]
        owner = "Your" if seat == self.viewer else f"{self.match.names[seat]}'s"
        text = Text.assemble((f"{owner} units ({units_total(units)}): ", "dim"))
        text.append_text(units_text(units, self.settings.four_colour) if units else Text("none"))
        widget.update(text)

    def seat_labels(self) -> list[Text]:
        """The scoreboard names each seat beside its initials in the grid's colour: the grid's key
        (plain while the grid is not mounted: a results screen can fill its scores first)."""
        grids = self.query("#grid").results(PropertyGrid)
        grid = next(grids, None)
        return [Text.assemble((self.initials[seat], grid.seat_style(seat) if grid else ""), f" {name}")
                for seat, name in enumerate(self.match.names)]

    def _show_legend(self) -> None:
        # (the seats' initials are in the scoreboard: what the grid's other marks mean)
        parts = [Text("* mortgaged", style="dim")]
        last = self.property_view.last_play
        if last is not None:
            parts.append(Text.assemble(("last ", "dim"), (cell_name(last.col, last.row), "underline")))
        self.query_one("#legend", Static).update(Text("  ").join(parts))

    def _show_preview(self) -> None:
        widget = self.query_one("#preview", Static)
        widget.set_class(self._armed is not None, "-confirm")
        widget.update(self._preview_text(), layout=False)  # its height is fixed: no relayout

    def _preview_text(self) -> Text:
        """One line about what Enter would do now, or what the table awaits."""
        four = self.settings.four_colour
        outcome = self.match.outcome
        if outcome is not None:
            return styled(outcome.summary, four_colour=four)
        if self._armed is not None:
            return Text(CONFIRM_MORTGAGED)
        offer = self._offer()
        if offer is not None:
            return Text.assemble(styled(self._offer_text(offer), four_colour=four), ("   b buy · n decline", "dim"))
        pair = self._pair()
        if not self.my_turn or pair is None:
            hint = "Select red + black · " if self.my_turn else ""
            return Text.assemble((hint, "dim"), self._cell_info(*self.grid.cursor))
        red, black = pair
        col, row = self.grid.cursor
        text = Text.assemble(card_text(red, four), " ", card_text(black, four), " → ")
        refused = self.refusal(Play(red, black, col, row))
        if refused is not None:
            return text.append_text(styled(refused, "dim", four))
        text.append_text(styled(preview(self.property_view, red, black, col, row), four_colour=four))
        arrows = ("←→" if is_wild(red) else "") + ("↑↓" if is_wild(black) else "")
        moves = f"   {arrows} cell ·" if arrows else "  "
        return text.append(f"{moves} ⏎ play", style="dim")

    def _cell_info(self, col: int, row: int) -> Text:
        """A cell in words: empty, or whose and how big its group is (public facts only)."""
        view = self.property_view
        where = cell_name(col, row)
        owner = view.owner(col, row)
        if owner is None:
            return Text(f"{where}: empty", style="dim")
        size = len(group(view.owners, col, row))
        mortgaged = ", mortgaged" if view.is_mortgaged(col, row) else ""
        return Text.assemble(
            (f"{where}: ", "dim"), (self.match.names[owner], self.grid.seat_style(owner)),
            (f", group of {size}{mortgaged}", "dim"),
        )

    # -- choosing a pair of cards --------------------------------------------------------------
    def _pair(self) -> tuple[Card, Card] | None:
        """The (red, black) pair selected, newest of each colour; None without both."""
        reds = [card for card in self._order if card.is_red]
        blacks = [card for card in self._order if card.is_black]
        return (reds[-1], blacks[-1]) if reds and blacks else None

    def _play_command(self) -> Play | None:
        pair = self._pair()
        if pair is None:
            return None
        col, row = self.grid.cursor
        return Play(*pair, col, row)

    def on_hand_widget_selection_changed(self, message: HandWidget.SelectionChanged) -> None:
        # the hand's selection now, not the message's: quick keys may have changed it since
        selected = self.hand.selected
        kept = [card for card in self._order if card in selected]
        self._order = kept + [card for card in selected if card not in kept]
        # a newly selected card replaces the older selected card of its colour
        for older in self._replaced():
            self._order.remove(older)
            self.hand.toggle(older)
        self._armed = None
        self._pair_changed()

    def _replaced(self) -> list[Card]:
        reds = [card for card in self._order if card.is_red]
        blacks = [card for card in self._order if card.is_black]
        return reds[:-1] + blacks[:-1]

    def _named(self) -> frozenset[tuple[int, int]]:
        """The cells the selected pair can name (none without a pair)."""
        pair = self._pair()
        return frozenset(cells_for(*pair)) if pair is not None else frozenset()

    def _pair_changed(self) -> None:
        grid = self.grid
        grid.named = cells = self._named()
        if cells and grid.cursor not in cells:
            grid.cursor = grid.nearest_named()
        # a 9 or 10: the player picks the cell next (space, escape or tab: back to the hand)
        self._keys_to_grid(len(cells) > 1 and self.my_turn)
        self._show_preview()
        self._refresh_play_key()

    def _keys_to_grid(self, grid: bool) -> None:
        """Give the keys to the grid's cursor (True) or back to the hand. The hand keeps the
        focus: it is drawn as without it, and the board's edge lights up, as the focus drew them."""
        if self.grid.active == grid:
            return
        self.grid.active = grid
        self.hand.set_class(grid, "-lent")
        # the board's edge: restyling the widgets in it too (the grid's fourteen component
        # styles) cost more than all the rest of the change
        board = self.query_one("#board")
        board.set_class(grid, "-keys", update=False)
        self.app.stylesheet.update_nodes([board], animate=False)
        self.refresh_bindings()

    @property
    def grid_has_keys(self) -> bool:
        """The arrows move the grid's cursor now (not while a play on a mortgaged cell awaits
        its second Enter: any key cancels it)."""
        return self.grid.active and self.hand.has_focus and self._armed is None

    def action_grid_move(self, dx: int, dy: int) -> None:
        if self.grid.move(dx, dy):
            self._cursor_moved()

    def action_grid_edge(self, dx: int) -> None:
        moved = False
        while self.grid.move(dx, 0):
            moved = True
        if moved:
            self._cursor_moved()

    def action_release(self) -> None:
        self._keys_to_grid(False)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # a click on the grid, or shift+tab from the hand, gives the grid the keys as its focus did
        # (by its class: a results screen's buttons take the focus before its grid is mounted)
        if isinstance(event.widget, PropertyGrid):
            self.hand.focus(scroll_visible=False)
            self._keys_to_grid(True)

    def on_property_grid_cursor_moved(self, message: PropertyGrid.CursorMoved) -> None:
        message.stop()
        self._cursor_moved()

    def _cursor_moved(self) -> None:
        self._armed = None
        self._show_preview()
        self._refresh_play_key()

    def _refresh_play_key(self) -> None:
        # redrawing the footer is slow: only when a pick turned Play on or off
        playable = self._playable() is not None
        if playable != self._play_shown:
            self.refresh_bindings()

    def on_property_grid_cell_chosen(self, message: PropertyGrid.CellChosen) -> None:
        message.stop()
        if self._offer() is None:
            self.action_play()

    # -- actions -------------------------------------------------------------------------------
    def why_not(self, action: str) -> str | None:
        if action == "play":
            if not self.my_turn:
                return super().why_not("command_bar")
            if self._offer() is not None:
                return "First decide on the purchase: b buys the cell, n declines."
            command = self._play_command()
            if command is None:
                return "Select one red card (the column) and one black card (the row) first."
            return str(self.refusal(command) or "That play cannot be made now.")
        if action in ("buy", "decline"):
            return "There is no purchase to decide now: one is offered after you pay rent."
        if action.split("(")[0] in ("grid_move", "release"):  # (the binding's action, with its step)
            return ("The grid's cursor moves when the grid has the keys: select a 9 or 10 with a card "
                    "of the other colour, or click the grid.")
        return super().why_not(action)

    def _playable(self) -> Play | None:
        """The play the selection and the cursor make, if the rules would take it now."""
        command = self._play_command()
        # legal lists every play there is: a play not in it is refused
        return command if command is not None and command in self.legal else None

    def _offer_text(self, offer: PendingPurchase) -> Sentence:
        have = units_total(self.property_view.units[offer.payer])
        return say("Buy {} from {}: {} needed, you have {}", cell_name(offer.col, offer.row),
                   player(self.match.names, offer.owner), plural(offer.group_size, "unit"), have)

    def _offer(self) -> PendingPurchase | None:
        """The purchase the viewer is being offered, if any."""
        pending = self.property_view.pending
        return pending if pending is not None and self.my_turn and pending.payer == self.viewer else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # 80 columns of footer cannot show Play, Buy and Decline besides the table's own keys:
        # Play is greyed while the rules would refuse it and gives way to Buy and Decline while
        # the viewer is offered a purchase; those two are hidden the rest of the time
        if action == "play":
            if self._offer() is not None:
                return False
            self._play_shown = self._playable() is not None
            return True if self._play_shown else None
        if action in ("buy", "decline"):
            return self._offer() is not None
        if action in ("release", "grid_move", "grid_edge"):
            return self.grid_has_keys
        return super().check_action(action, parameters)

    def action_play(self) -> None:
        command = self._play_command()
        if command is None:
            self.notify("Select one red card (the column) and one black card (the row) first.",
                        title="Play")
            return
        view = self.property_view
        mine_mortgaged = (view.owner(command.col, command.row) == self.viewer
                          and view.is_mortgaged(command.col, command.row))
        if mine_mortgaged and self._armed != command and self._playable() is not None:
            self._armed = command
            self._show_preview()
            return
        self._armed = None
        if self.submit(command):
            self._keys_to_grid(False)
            self.hand.focus()

    def on_key(self, event: events.Key) -> None:
        """While a play on a mortgaged cell waits for its second Enter, any other key cancels."""
        if self._armed is None or event.key in ("enter", "p"):
            return
        event.stop()
        event.prevent_default()
        self._armed = None
        self._show_preview()
        self.notify("Not played: the mortgaged cell stays yours.", title="Cancelled")

    def action_buy(self) -> None:
        pending = self._offer()
        if pending is None:
            return
        # the rules list the useful hand-overs; the cheapest first (stable: rules' order on ties)
        buys = sorted((c for c in self.legal if isinstance(c, Buy)),
                      key=lambda buy: units_total(buy.units))
        if not buys:
            self.notify("Your units do not cover the price.", severity="warning", title="Buy")
        elif len(buys) == 1:
            self.submit(buys[0])
        else:
            screen = BuyScreen(self._offer_text(pending), buys, self.settings.four_colour)
            self.app.push_screen(screen, callback=self._buy_chosen)

    def _buy_chosen(self, buy: Buy | None) -> None:
        if buy is not None and self._offer() is not None:
            self.submit(buy)

    def action_decline(self) -> None:
        if self._offer() is not None:
            self.submit(Decline())


TABLE = PropertyTable
