"""What each card in the hand can do now, under the hand.

``HandNotes`` draws two lines under the cards, each note under its card: what buying it costs
(``$42``), and the price it would set if laid (``↑$7``; a court card that may also crash its
company ``12/$0``, the $0 in red; ``$0!`` when a crash is all it can do). ``CardLine`` is the
line under those: the selected card's uses in words, with their keys, or why it can do nothing.

The notes come from ``card_uses`` (rules.stock_market: what each card of a view's hand can do
now) and the view's prices; this module only lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.text import Text
from textual.widget import Widget

from rules.core import Card
from rules.core.words import plural
from rules.stock_market import StockMarketView, lay_effect, shares

from ...widgets.card import GREEN, RED, card_text
from .sheet import DANGER

CELL, GUTTER = 5, 1  # a card's cell in the HandWidget, and the gap between cells


@dataclass(frozen=True)
class Uses:
    """What one hand card can do now, read from ``card_uses``' words."""

    buy: bool = False
    lay: bool = False
    crash: bool = False

    @classmethod
    def of(cls, words: Sequence[str]) -> Uses:
        return cls(buy=any(w.startswith("buy ") for w in words),
                   lay=any(w.startswith("lay: ") for w in words),
                   crash=any(w.startswith("lay as $0") for w in words))

    @property
    def any(self) -> bool:
        return self.buy or self.lay or self.crash


def buy_note(view: StockMarketView, card: Card, uses: Uses) -> Text:
    """What buying ``card`` costs (``$42``), or a dim dot."""
    if not uses.buy:
        return Text("·", style="dim")
    return Text(f"${view.prices[card.suit] * shares(card)}")


def lay_note(view: StockMarketView, card: Card, uses: Uses) -> Text:
    """The price laying ``card`` sets: ``↑$7``/``↓$2``/``=$6``; ``12/$0`` for a court card that
    may also be laid as $0; ``$0!`` when that is all it may do; a dim dot if it cannot be laid."""
    old = view.prices[card.suit]
    new = card.rank
    if uses.lay and uses.crash:
        return Text.assemble(str(new), ("/$0", DANGER))
    if uses.crash:
        return Text("$0!", style=f"reverse {DANGER}")
    if not uses.lay:
        return Text("·", style="dim")
    if new > old:
        return Text(f"↑${new}", style=GREEN)
    if new < old:
        return Text(f"↓${new}", style=RED)
    return Text(f"=${new}")


class HandNotes(Widget):
    """Two lines of notes, one per card of ``cards`` (the hand's display order), each centred
    under its card. When the hand wraps (more cards than fit a line), the notes cannot stand
    under their cards: they go card by card in a list instead."""

    DEFAULT_CSS = """
    HandNotes {
        height: 2;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.cards: tuple[Card, ...] = ()
        self.notes: list[tuple[Text, Text]] = []

    def show(self, cards: Sequence[Card], notes: Sequence[tuple[Text, Text]]) -> None:
        self.cards = tuple(cards)
        self.notes = list(notes)
        self.refresh()

    @property
    def columns(self) -> int:
        """How many cards a line of the hand holds: the HandWidget's own sum, at this width
        (the notes have the hand's padding)."""
        return max(1, (self.size.width + GUTTER) // (CELL + GUTTER))

    def render(self) -> Text:
        if not self.notes:
            return Text("")
        if len(self.notes) <= self.columns:
            lines = []
            for row in range(2):
                line = Text()
                for index, pair in enumerate(self.notes):
                    note = pair[row]
                    if note.cell_len > CELL:
                        note = note[:CELL]
                    if index:
                        line.append(" " * GUTTER)
                    left = (CELL - note.cell_len) // 2
                    line.append_text(Text.assemble(" " * left, note, " " * (CELL - left - note.cell_len)))
                lines.append(line)
            return Text("\n", no_wrap=True, overflow="crop").join(lines)
        parts = [Text.assemble(card_text(card), " ", buy, " ", lay)
                 for card, (buy, lay) in zip(self.cards, self.notes)]
        return Text("  ").join(parts)


def card_line(view: StockMarketView, card: Card, uses: Uses, four_colour: bool = False) -> Text:
    """The selected card's uses in a few words with their keys, a crash first (in red, with
    what each player loses): ``Q♠: 0 ⚠ $0 bankrupts ♠: Ann loses 7 shares ($21) · b buys 5
    shares for $35 · p lays ♠ $3 → $12``."""
    suit = card.suit
    parts = []
    if uses.crash:
        parts.append(Text.assemble(("0 ", "bold"), ("⚠ $0 " + lay_effect(view, card, 0), DANGER)))
    if uses.buy:
        count = shares(card)
        parts.append(Text.assemble(("b ", "bold"), f"buys {plural(count, 'share')} for "
                                   f"${view.prices[suit] * count}"))
    if uses.lay:
        parts.append(Text.assemble(("p ", "bold"), f"lays {suit.symbol} ${view.prices[suit]} → ${card.rank}"))
    return Text.assemble(card_text(card, four_colour), ": ", Text(" · ").join(parts))
