"""The viewer's hand: cards in suit-then-rank order, a keyboard cursor, click or space to
select, and marks that highlight cards the table wants to point out."""

from __future__ import annotations

from typing import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from rules.core import Card

from .beside_board import BesideBoard
from .words import styled
from .card import CardWidget

_CELL = 5  # a card's width (see CardWidget)
_GUTTER = 1


class HandWidget(BesideBoard, Widget, can_focus=True):
    """Shows ``cards`` (set them with ``show``) as CardWidgets that wrap onto as many lines as
    the width needs. Copies of one face are separate cards, told apart by ``card.key``.

    ``marks`` maps card keys to a short note (shown as the card's tooltip); marked cards are
    highlighted. ``fresh`` holds the keys of cards just drawn, marked ``•`` until the player's
    next move. Every change of the selection posts ``HandWidget.SelectionChanged``."""

    DEFAULT_CSS = """
    HandWidget {
        layout: grid;
        grid-size: 8;
        grid-rows: 1;
        grid-columns: 5;
        grid-gutter: 0 1;
        height: auto;
        max-height: 8;
        overflow-y: auto;
        &.-empty { layout: vertical; }
        &:focus CardWidget.-cursor { text-style: reverse bold; }
        &:focus CardWidget.-cursor.-selected { text-style: reverse bold underline; }
        /* -lent: its keys act on a board's cursor for now (Property's grid), so no cursor here */
        &.-lent:focus CardWidget.-cursor { text-style: none; }
        &.-lent:focus CardWidget.-cursor.-selected { text-style: bold underline; }
        & > .hand--placeholder { color: $text-muted; width: 1fr; }
    }
    """

    BINDINGS = [
        Binding("left,h", "move(-1)", "Previous card", show=False),
        Binding("right,l", "move(1)", "Next card", show=False),
        Binding("up", "move_row(-1)", "Row up", show=False),
        Binding("down", "move_row(1)", "Row down", show=False),
        Binding("home", "move_to(0)", "First card", show=False),
        Binding("end", "move_to(-1)", "Last card", show=False),
        Binding("space", "toggle", "Select card"),
    ]

    cards: reactive[tuple[Card, ...]] = reactive((), recompose=True)
    """The hand in display order (``show`` sorts it)."""
    placeholder: reactive[str] = reactive("No cards.", recompose=True)
    """What an empty hand says: "No cards.", or why the hand is hidden."""
    marks: reactive[dict[str, str | Text]] = reactive(dict)
    cursor: reactive[int] = reactive(0)

    class SelectionChanged(Message):
        """The selected cards changed; ``selected`` is in hand order."""

        def __init__(self, hand: HandWidget, selected: tuple[Card, ...]) -> None:
            super().__init__()
            self.hand = hand
            self.selected = selected

        @property
        def control(self) -> HandWidget:
            return self.hand

    def __init__(self, four_colour: bool = False, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.four_colour = four_colour
        self._selected: set[str] = set()
        self._fresh: frozenset[str] = frozenset()

    # -- the hand --------------------------------------------------------------------------
    def show(self, cards: Iterable[Card], placeholder: str = "No cards.",
             four_colour: bool | None = None, fresh: Iterable[str] = ()) -> None:
        """Show these cards, sorted by suit then rank (``fresh``: the keys of cards just
        drawn). Selected cards that are still in the hand stay selected; the others are dropped
        (posting SelectionChanged)."""
        ordered = tuple(sorted(cards, key=Card.sort_key))
        fresh = frozenset(fresh)
        if (four_colour is not None and four_colour != self.four_colour) or fresh != self._fresh:
            self.four_colour = self.four_colour if four_colour is None else four_colour
            self._fresh = fresh
            self.mutate_reactive(HandWidget.cards)  # same cards, new colours or marks
        self.placeholder = placeholder
        self.cards = ordered
        self.cursor = min(self.cursor, max(len(ordered) - 1, 0))
        kept = self._selected & {card.key for card in ordered}
        if kept != self._selected:
            self._selected = kept
            self._selection_changed()
        else:
            self._subtitle()

    @property
    def selected(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.key in self._selected)

    def clear_selection(self) -> None:
        if self._selected:
            self._selected.clear()
            self._selection_changed()

    def toggle(self, card: Card) -> None:
        """Select the card, or unselect it if it was selected."""
        self._selected ^= {card.key}
        self._selection_changed()

    # -- drawing ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self.set_class(not self.cards, "-empty")
        if not self.cards:
            yield Static(self.placeholder, classes="hand--placeholder")
            return
        for index, card in enumerate(self.cards):
            widget = CardWidget(card, self.four_colour, new=card.key in self._fresh)
            self._style_card(widget, index)
            yield widget

    def _card_widgets(self) -> list[CardWidget]:
        return list(self.query_children(CardWidget))

    def _style_card(self, widget: CardWidget, index: int) -> None:
        key = widget.card.key
        widget.set_class(key in self._selected, "-selected")
        widget.set_class(key in self.marks, "-marked")
        widget.set_class(index == self.cursor, "-cursor")
        note = self.marks.get(key)
        # a str tooltip is read as markup, and a note may name a player: Text, always
        widget.tooltip = note if note is None or isinstance(note, Text) else styled(note)

    def _restyle(self) -> None:
        for index, widget in enumerate(self._card_widgets()):
            self._style_card(widget, index)

    def watch_marks(self) -> None:
        self._restyle()

    def watch_cursor(self) -> None:
        self._restyle()

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        self.styles.grid_size_columns = max(1, (width + _GUTTER) // (_CELL + _GUTTER))

    def _selection_changed(self) -> None:
        self._restyle()
        self._subtitle()
        self.post_message(self.SelectionChanged(self, self.selected))

    def _subtitle(self) -> None:
        count, new = len(self._selected), len(self._fresh & {card.key for card in self.cards})
        parts = ([f"{count} selected"] if count else []) + ([f"{new} new •"] if new else [])
        self.border_subtitle = " · ".join(parts)

    # -- input -----------------------------------------------------------------------------
    def on_card_widget_pressed(self, message: CardWidget.Pressed) -> None:
        message.stop()
        widgets = self._card_widgets()
        if message.card_widget in widgets:
            self.cursor = widgets.index(message.card_widget)
        self.focus()
        self.toggle(message.card)

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step))

    def action_move_row(self, step: int) -> None:
        self.action_move(step * int(self.styles.grid_size_columns or 1))

    def action_move_to(self, index: int) -> None:
        if self.cards:
            self.cursor = index % len(self.cards)

    def action_toggle(self) -> None:
        if self.cards:
            self.toggle(self.cards[self.cursor])
