"""Abundance's market tally: the four aces ♠ ♥ ♦ ♣ with how many of each suit have come up so far
this rubber, where each suit stands in the order of rarity, what one trinket of it would sell
for if the round ended now, and who holds a corner in it. The title names the round, its kind
of auction and its three values.

Everything here is read from the view (``counts``, ``rarity``, ``pays``, ``corners``,
``values``): the rules' own market helpers made those numbers. The suit of the card on the
block is underlined, since it has just come up and counts already.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.events import Resize

from rules.abundance.market import CORNER_TIMES
from rules.abundance.state import AbundanceView
from rules.core import SUITS
from rules.core.words import dollars

from ...widgets.card import suit_colour
from ...widgets.panel import Panel, columns

ORDINALS = ("1st", "2nd", "3rd", "4th")
WIDE = 60  # from this width the tally spells its rows out


def market_title(view: AbundanceView) -> str:
    """``Market · round 2/4 · sealed · pays $40/$8/$4``."""
    values = "/".join(dollars(value) for value in view.values)
    return f"Market · round {view.round}/4 · {view.kind} · pays {values}"


def short_name(name: str, width: int = 6) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def market_table(view: AbundanceView, names: Sequence[str], four_colour: bool = False,
                 wide: bool = False) -> Text:
    """One column per suit in the tally's order ♠ ♥ ♦ ♣: how many have come up, what it pays
    now with its place in the order of rarity, and who holds a corner in it."""
    up = view.card.suit if view.card is not None else None
    header = [Text("")]
    for suit in SUITS:
        cell = Text(f"{suit.symbol}A", style=f"bold {suit_colour(suit, four_colour)}".strip())  # the ace
        if suit is up:
            cell.stylize("underline")
        header.append(cell)
    counts = [Text("up so far" if wide else "up", style="dim"),
              *(Text(str(view.counts[suit.order])) for suit in SUITS)]
    places = {suit: place for place, suit in enumerate(view.rarity)}
    pays = [Text("pays now" if wide else "pays", style="dim")]
    for suit in SUITS:
        place, amount = places[suit], view.pays[suit.order]
        pays.append(Text.assemble((dollars(amount), "bold" if amount else "dim"),
                                  (f" {ORDINALS[place]}", "dim" if place < 3 else "dim italic")))
    corners = [Text(f"corner ×{CORNER_TIMES}" if wide else "corner", style="dim")]
    for suit in SUITS:
        seats = [seat for seat, suits in enumerate(view.corners) if suit in suits]
        corners.append(Text("/".join(short_name(names[seat], 12 if wide else 6) for seat in seats) or "·",
                            style="bold" if seats else "dim"))
    return columns([header, counts, pays, corners], gap=3 if wide else 2)


class MarketTally(Panel):
    """Shows the market of the latest view: ``show(view, names)``."""

    _shown: tuple[AbundanceView, tuple[str, ...], bool] | None = None
    _wide = False

    def show(self, view: AbundanceView, names: Sequence[str], four_colour: bool = False) -> None:
        self._shown = (view, tuple(names), four_colour)
        self._wide = self.size.width >= WIDE
        self.show_text(market_table(view, names, four_colour, wide=self._wide), market_title(view))

    def on_resize(self, event: Resize) -> None:
        if self._shown is not None and (event.size.width >= WIDE) != self._wide:
            self.show(*self._shown)
