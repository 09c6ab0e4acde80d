"""How a card looks: ``card_text`` for any widget that shows cards, ``CardWidget`` for one card
you can click.

Suits never rely on colour alone: every suit has a symbol of its own shape (``10♥``, ``Q♠``),
and a joker shows ``JK``. Colour is a help on top: red suits red, and in four-colour mode
diamonds blue and clubs green. A card is written one way everywhere the player reads it — the
symbol — and the letters of the notation (``10H``) only where the player types (the log
writes a command through its notation's ``display``, with its cards as parts); copy numbers
(``7S.1``) are the rules' business and never shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from rules.core import Card, Suit

# Fixed colours chosen to read on both the dark and the light themes; black suits keep the
# theme's own foreground so they are never black on black.
RED = "#e0474c"
BLUE = "#3d8fe0"
GREEN = "#2fa35a"
JOKER = "#b36be0"

_SUIT_COLOURS = {Suit.HEARTS: RED, Suit.DIAMONDS: RED}
_FOUR_COLOURS = {Suit.HEARTS: RED, Suit.DIAMONDS: BLUE, Suit.CLUBS: GREEN}


def suit_colour(suit: Suit | None, four_colour: bool = False) -> str:
    """The colour a suit is drawn in ("" for the theme's foreground)."""
    if suit is None:
        return JOKER
    return (_FOUR_COLOURS if four_colour else _SUIT_COLOURS).get(suit, "")


def card_text(card: Card, four_colour: bool = False) -> Text:
    """``10♥``, ``Q♠``, ``JK``: rank and suit symbol, coloured by suit."""
    if card.suit is None:
        return Text("JK", style=f"bold {JOKER}")
    return Text(card.symbol, style=f"bold {suit_colour(card.suit, four_colour)}".strip())


class CardWidget(Static):
    """One card, one line high. Clicking it posts ``CardWidget.Pressed``; the hand decides what
    a click means. The classes ``-selected``, ``-cursor``, ``-marked`` and ``-new`` style its
    states; a new card (just drawn) also carries a ``•`` after it, so it shows without colour."""

    DEFAULT_CSS = """
    CardWidget {
        width: 5;
        height: 1;
        content-align: center middle;
        background: $panel;
        &.-marked { background: $warning 35%; }
        &.-new { background: $success 25%; }
        &.-selected { background: $primary 50%; text-style: bold underline; }
        &:hover { background: $panel-lighten-2; }
    }
    """

    class Pressed(Message):
        """The card was clicked."""

        def __init__(self, card_widget: CardWidget) -> None:
            super().__init__()
            self.card_widget = card_widget

        @property
        def card(self) -> Card:
            return self.card_widget.card

        @property
        def control(self) -> CardWidget:
            return self.card_widget

    def __init__(self, card: Card, four_colour: bool = False, *, new: bool = False,
                 id: str | None = None, classes: str | None = None) -> None:
        text = card_text(card, four_colour)
        if new:
            text.append("•", style="bold")
        super().__init__(text, id=id, classes=classes)
        self.card = card
        self.set_class(new, "-new")

    def on_click(self) -> None:
        self.post_message(self.Pressed(self))
