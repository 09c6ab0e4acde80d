"""Both players' trinkets (all public in Abundance), grouped by suit, with what each group and
the whole would sell for if the round ended now (corners marked), and each player's money.

A click on a trinket offers a trade for it (the table opens the offer dialog with it chosen),
when the viewer may make an offer. The sums are the rules' own market helpers applied to what
the view shows.
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from rules.abundance.market import is_corner, sale_by_suit, suit_counts
from rules.abundance.state import AbundanceView
from rules.core import SUITS, sort_cards
from rules.core.words import dollars

from ...widgets.card import card_text
from ...widgets.panel import Panel


def trinkets_line(view: AbundanceView, seat: int, names: Sequence[str], viewer: int | None,
                  clickable: bool, four_colour: bool = False, width: int = 0) -> Text:
    """``Ann (you) $45 · 3♠ 5♠ 9♠ corner $36 · 7♥ $20 · sells for $56``."""
    name = names[seat] + (" (you)" if seat == viewer else "")
    # padded by cells, not characters: 李雷 takes four columns
    padded = name + " " * max(0, width - cell_len(name))
    line = Text.assemble((padded, "bold underline" if seat in view.awaiting else "bold"),
                         " ", (dollars(view.money[seat]), "bold"))
    cards = sort_cards(view.trinkets[seat])
    if not cards:
        return line.append("  no trinkets", style="dim italic")
    held = suit_counts(cards)
    amounts = sale_by_suit(cards, view.counts, view.round)
    for suit in SUITS:
        group = [card for card in cards if card.suit is suit]
        if not group:
            continue
        line.append(" · ", style="dim")
        for index, card in enumerate(group):
            text = card_text(card, four_colour)
            if clickable:
                text.stylize(Style(meta={"@click": f"screen.trade({card.key!r})"}))
            line.append_text(text)
            line.append(" ")
        if is_corner(held[suit.order]):
            line.append("corner ", style="bold reverse")
        amount = amounts[suit.order]
        line.append(dollars(amount), style="bold green" if amount else "dim")
    line.append(" · ", style="dim")
    line.append_text(Text.assemble(("sells for ", "dim"), (dollars(view.sells[seat]), "bold")))
    return line


class TrinketsPanel(Panel):
    """Both players' trinkets: ``show(view, names, viewer, clickable)``."""

    def show(self, view: AbundanceView, names: Sequence[str], viewer: int | None, clickable: bool,
             four_colour: bool = False) -> None:
        width = max(cell_len(name) + (6 if seat == viewer else 0) for seat, name in enumerate(names))
        self.show_text(Text("\n").join(
            trinkets_line(view, seat, names, viewer, clickable, four_colour, width) for seat in (0, 1)),
            "Trinkets · their sale if the round ended now")
