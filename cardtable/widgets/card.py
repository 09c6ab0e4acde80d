"""How a card looks: ``card_text`` for any widget that shows cards, ``CardWidget`` for one card
you can click.

Suits never rely on colour alone: a card shows its rank, the suit symbol and the suit letter
(``10♥h``, ``Q♠s``), and a joker shows ``JK``. Colour is a help on top: red suits red, and in
four-colour mode diamonds blue and clubs green.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from rules.core import Card, Suit, rank_code

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
    """``10♥h``, ``Q♠s``, ``JK``: rank, suit symbol and suit letter, coloured by suit."""
    if card.suit is None:
        return Text("JK", style=f"bold {JOKER}")
    text = rank_code(card.rank) + card.suit.symbol + card.suit.letter.lower()
    return Text(text, style=f"bold {suit_colour(card.suit, four_colour)}".strip())


class CardWidget(Static):
    """One card, one line high. Clicking it posts ``CardWidget.Pressed``; the hand decides what
    a click means. The classes ``-selected``, ``-cursor`` and ``-marked`` style its states."""

    DEFAULT_CSS = """
    CardWidget {
        width: 5;
        height: 1;
        content-align: center middle;
        background: $panel;
        &.-marked { background: $warning 35%; }
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

    def __init__(self, card: Card, four_colour: bool = False, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(card_text(card, four_colour), id=id, classes=classes)
        self.card = card

    def on_click(self) -> None:
        self.post_message(self.Pressed(self))
