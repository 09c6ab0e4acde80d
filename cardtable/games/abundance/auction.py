"""Abundance's auction block: what is happening at the table now, and the viewer's part in it.

- Choosing a pile: who chooses, and the piles (a click on one chooses it).
- An auction: the trinket up, the kind of auction and who opens, what the trinket would add to
  each player's sale if the round ended now, the bids so far (open) or who has sealed a bid
  (sealed: never what the other bid), whose turn it is and the least bid that beats the
  standing one; for the viewer on turn, the bid being made up (``Entry``: +1, +5, +10 or typed)
  with the rules' objection when it cannot be played, and clickable buttons.
- A trade window: how the last auction ended, who is ready, the offer waiting for an answer and
  what it would do to both players' sales; for the viewer, offer / ready / accept / decline.

Everything comes from the viewer's view, the table's legal commands and the rules' market
helpers (which take what the view shows); a line of the log is quoted for the last result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text

from rules.abundance.market import sale_value
from rules.abundance.state import AUCTION, CHOOSE, OVER, PILE_NUMBERS, SEALED_PHASE, TRADE, AbundanceView
from rules.core import Card
from rules.core.offers import Deal, Side
from rules.core.words import dollars, join_names

from ...widgets.beside_board import BesideBoard
from ...widgets.card import card_text
from ...widgets.panel import Panel
from ...widgets.words import styled

CALLS_SHOWN = 4  # the latest bids shown on the block (the log has them all)


@dataclass(frozen=True)
class Entry:
    """The bid the viewer on turn is making up: ``amount``, whether it is a ``sealed`` bid, and
    the rules' objection to it (None: Enter plays it)."""

    amount: int
    sealed: bool
    problem: str | None = None
    """The rules' sentence (its cards and money styled from its parts)."""


def button(label: str, action: str, enabled: bool = True) -> Text:
    """A clickable ``[label]`` that runs the table's ``action`` (greyed and inert when not
    enabled)."""
    if not enabled:
        return Text(f"[{label}]", style="dim")
    return Text(f"[{label}]", style=Style(bold=True, color="#e0a030") + Style(meta={"@click": f"screen.{action}"}))


def worth(view: AbundanceView, seat: int, card: Card) -> int:
    """What ``card`` would add to ``seat``'s sale if the round ended now (corners included)."""
    held = view.trinkets[seat]
    return (sale_value((*held, card), view.counts, view.round)
            - sale_value(held, view.counts, view.round))


def side_text(side: Side, four_colour: bool = False) -> Text:
    """One side of a trade: ``3♠, 5♠ and $5``, or "nothing"."""
    items = [card_text(card, four_colour) for card in side.cards]
    if side.money:
        items.append(Text(dollars(side.money), style="bold"))
    if not items:
        return Text("nothing", style="italic")
    if len(items) == 1:
        return items[0]
    return Text(", ").join(items[:-1]) + Text(" and ") + items[-1]


def after_trade(view: AbundanceView, deal: Deal) -> tuple[tuple[int, int], ...]:
    """(money, sale now) for each player if ``deal`` were carried out now."""
    trinkets = [list(cards) for cards in view.trinkets]
    money = list(view.money)
    for card in deal.give.cards:
        if card in trinkets[deal.proposer]:
            trinkets[deal.proposer].remove(card)
            trinkets[deal.responder].append(card)
    for card in deal.take.cards:
        if card in trinkets[deal.responder]:
            trinkets[deal.responder].remove(card)
            trinkets[deal.proposer].append(card)
    net = deal.take.money - deal.give.money
    money[deal.proposer] += net
    money[deal.responder] -= net
    return tuple((money[s], sale_value(trinkets[s], view.counts, view.round)) for s in (0, 1))


def trade_change(view: AbundanceView, deal: Deal) -> tuple[int, int]:
    """What ``deal`` would change for each player in money plus the sale of their trinkets, if
    the round ended now."""
    after = after_trade(view, deal)
    return tuple(money + sale - view.money[seat] - view.sells[seat]  # type: ignore[return-value]
                 for seat, (money, sale) in enumerate(after))


def signed(amount: int) -> Text:
    if amount > 0:
        return Text(f"+{dollars(amount)}", style="bold green")
    if amount < 0:
        return Text(f"−{dollars(-amount)}", style="bold red")
    return Text("±$0", style="dim")


def trade_effect(view: AbundanceView, deal: Deal, names: Sequence[str]) -> Text:
    """``At today's prices: Ann −$33, Bob +$33`` (money plus sale, if the round ended now)."""
    change = trade_change(view, deal)
    return Text.assemble(("At today's prices: ", "dim"),
                         Text(", ").join(Text.assemble(names[seat], " ", signed(change[seat])) for seat in (0, 1)))


class AuctionBlock(BesideBoard, Panel, can_focus=True):
    """The auction block. ``show(...)`` redraws it from the viewer's view; the table's keys
    act on it (it is the widget the table focuses)."""

    def show(self, view: AbundanceView, names: Sequence[str], viewer: int | None, legal_kinds: set[str],
             entry: Entry | None, last: str | None, bots: Sequence[int] = (), four_colour: bool = False) -> None:
        """``legal_kinds``: the kinds of command the viewer may play now ("choose", "bid",
        "pass", "offer", "ready", "accept", "decline"); ``last``: how the last auction ended,
        the log's sentence; ``bots``: the seats played by bots. Names are shown as typed (rich
        Text, never markup)."""
        self._names = tuple(names)
        self._bots = set(bots)
        self.four_colour = four_colour
        lines: list[Text] = []
        title = ""
        phase = view.phase
        to_come = [str(n) for n in view.available]
        piles = f" · piles {' '.join(to_come)} to come" if to_come else " · the last pile"
        if phase == CHOOSE:
            kind = {"open": "open auctions", "sealed": "sealed bids", "one bid": "one bid each"}.get(view.kind, view.kind)
            title = f"Rubber {view.rubber} · round {view.round}: {kind}"
            lines += self._choose(view, viewer, legal_kinds)
        elif phase in (AUCTION, SEALED_PHASE) and view.card is not None:
            title = f"Card {view.number} of 12 · pile {view.pile}{piles}"
            lines += self._auction(view, viewer, legal_kinds, entry)
        elif phase == TRADE:
            done = 12 - view.pile_left
            title = f"Trading after card {done} of 12{piles}"
            lines += self._trade(view, viewer, legal_kinds, last)
        elif phase == OVER:
            title = "The match is over"
            lines.append(styled(view.status, four_colour=four_colour))
            lines.append(Text("s: every round's sale · the results are on the next screen", style="dim"))
        self.show_text(Text("\n").join(lines), title)

    # -- the pieces ------------------------------------------------------------------------
    def _who(self, seat: int, viewer: int | None) -> str:
        name = self._names[seat]
        if seat == viewer:
            return f"{name} (you)"
        return f"{name} (bot)" if seat in self._bots else name

    def _waiting(self, view: AbundanceView, viewer: int | None) -> Text:
        waiting = [self._who(seat, viewer) for seat in sorted(view.awaiting) if seat != viewer]
        return Text(f"Waiting for {join_names(waiting)}…", style="italic") if waiting else Text("")

    def _choose(self, view: AbundanceView, viewer: int | None, legal: set[str]) -> list[Text]:
        chooser = view.chooser if view.chooser is not None else min(view.awaiting, default=0)
        line = Text.assemble(("▶ ", "bold"), (self._who(chooser, viewer), "bold"),
                             f" chooses the pile for round {view.round}.")
        piles = Text("Piles: ")
        for number in PILE_NUMBERS:
            if number in view.chosen:
                piles.append(f"{number} played", style="dim")
            else:
                piles.append_text(button(str(number), f"choose_pile({number})", "choose" in legal))
            piles.append("  ")
        lines = [line, piles.rstrip() or piles]
        if "choose" in legal:
            lines.append(Text("Press 1–4 or click a pile; its 12 cards are auctioned one by one.", style="dim"))
        else:
            lines.append(self._waiting(view, viewer))
        return lines

    def _auction(self, view: AbundanceView, viewer: int | None, legal: set[str], entry: Entry | None) -> list[Text]:
        card = view.card
        assert card is not None
        four = self.four_colour
        head = Text.assemble((card_text(card, four) + Text(" up")).copy())
        head.stylize("bold")
        info = view.auction
        if view.phase == SEALED_PHASE:
            head.append(" · sealed bids, $0 declines")
        elif view.revealed is not None and info is not None:
            head.append(f" · tie at {dollars(view.revealed[0])}: open, {self._names[info.opener]} first")
        elif info is not None and info.once_around:
            head.append(f" · one bid each, {self._names[info.order[0]]} first")
        elif info is not None:
            head.append(f" · open, {self._names[info.opener]} first")
        head.append(" · adds ", style="dim")
        head.append_text(Text(", ").join(
            Text.assemble(self._names[seat], " ", (f"+{dollars(worth(view, seat, card))}", "bold"))
            for seat in (0, 1)))
        lines = [head, self._bids(view, viewer)]
        if view.phase == SEALED_PHASE:
            if viewer is not None and viewer in view.awaiting:
                lines.append(Text.assemble(("▶ Your sealed bid", "bold"),
                                           f": $0 to {dollars(view.money[viewer])}, in secret"))
            else:
                lines.append(self._waiting(view, viewer))
        elif info is not None:
            speaker = min(view.awaiting) if view.awaiting else None
            if speaker is not None:
                standing = (f"{self._names[info.leader]} leads {dollars(info.high)}"
                            if info.leader is not None else "no bid yet")
                once = ", once" if info.once_around and speaker == viewer else ""
                who = "You" if speaker == viewer else self._who(speaker, viewer)
                lines.append(Text.assemble(
                    ("▶ ", "bold"), (who, "bold"), f": at least {dollars(info.minimum)}, or pass{once}",
                    (f" · {standing}", "dim")))
        if entry is not None:
            lines += self._entry(view, viewer, legal, entry)
        return lines

    def _bids(self, view: AbundanceView, viewer: int | None) -> Text:
        if view.phase == SEALED_PHASE:
            text = Text("Sealed: ")
            parts = []
            for seat in (0, 1):
                if seat in view.sealed_in:
                    mine = f" ({dollars(view.my_bid)})" if seat == viewer and view.my_bid is not None else ""
                    parts.append(Text.assemble(self._names[seat], (f" ✔ in{mine}", "bold green")))
                else:
                    parts.append(Text.assemble(self._names[seat], (" … not yet", "dim")))
            return text + Text(" · ").join(parts)
        calls = view.calls
        if not calls:
            return Text("Bids: none yet", style="dim")
        shown = [Text.assemble(self._names[seat], " ", (dollars(amount), "bold") if amount is not None else ("pass", "dim"))
                 for seat, amount in calls[-CALLS_SHOWN:]]
        text = Text("Bids: " + ("… " if len(calls) > CALLS_SHOWN else ""))
        return text + Text(" · ").join(shown)

    def _entry(self, view: AbundanceView, viewer: int | None, legal: set[str], entry: Entry) -> list[Text]:
        field = Text(f" {dollars(entry.amount)} ", style="bold reverse")
        line = Text.assemble("Bid ", field, " ")
        line.append_text(Text("").join([
            button("-1", "raise_bid(-1)"), button("+1", "raise_bid(1)"), button("+5", "raise_bid(5)"),
            button("+10", "raise_bid(10)")]))
        line.append(" ")
        line.append_text(Text(" ").join([button("Bid ⏎", "bid", entry.problem is None),
                                         button("Pass p", "pass", "pass" in legal)]))
        lines = [line]
        if entry.problem is not None:
            lines.append(styled(entry.problem, style="bold red", four_colour=self.four_colour))
        return lines

    def _trade(self, view: AbundanceView, viewer: int | None, legal: set[str], last: str | None) -> list[Text]:
        lines = []
        if last:
            lines.append(styled(last, four_colour=self.four_colour))
        after = "the next card" if view.pile_left else "the sale"
        ready = []
        for seat in (0, 1):
            if view.ready[seat]:
                ready.append(Text.assemble(self._names[seat], (" ✔", "bold green")))
            else:
                ready.append(Text.assemble(self._names[seat], (" …", "dim")))
        lines.append(Text.assemble(f"Ready for {after}: ", Text(" · ").join(ready)))
        offer = view.offer
        if offer is not None:
            lines.append(Text.assemble(
                (self._names[offer.proposer], "bold"), " offers ", (self._names[offer.responder], "bold"), " ",
                side_text(offer.give, self.four_colour), " for ", side_text(offer.take, self.four_colour), "."))
            lines.append(trade_effect(view, offer, self._names))
            if viewer == offer.responder:
                lines.append(Text.assemble(("▶ Your answer: ", "bold"),
                                           button("Accept y", "answer(True)", "accept" in legal), " ",
                                           button("Decline n", "answer(False)", "decline" in legal)))
            else:
                lines.append(self._waiting(view, viewer))
        elif viewer is not None and viewer in view.awaiting:
            if "offer" in legal:
                lines.append(Text.assemble(("▶ You: ", "bold"), button("Offer a trade o", "offer"),
                                           " or ", button("Ready r", "ready", "ready" in legal)))
                lines.append(Text("One offer per window; a click on a trinket offers one for it.", style="dim"))
            else:  # no dead button: say why there is no offer to make
                why = " · your one offer of this window is made" if view.offered[viewer] else " · nothing to trade"
                lines.append(Text.assemble(("▶ You: ", "bold"), button("Ready r", "ready", "ready" in legal),
                                           (why, "dim")))
        else:
            lines.append(self._waiting(view, viewer))
        return lines
