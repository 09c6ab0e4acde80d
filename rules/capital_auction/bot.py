"""Capital Auction's bots. Both reason on their own view only (what a human in the seat sees).

``CapitalAuctionBot`` (level "bot") prices everything in points of Investment value. A card it
cannot see is worth the mean of the Investment cards it has not seen; Capital is worth less and
less as the game nears its end. It bids the cheapest bid it can while the price stays under
what the lot is worth to it (everything it has when the lot decides the game), plays the Tool
that gains it most against its strongest rival, and answers a Tool with a Connection when that
is worth a card — holding its last Connection back for a blow as heavy as a Hostile Takeover.

``GreedyBot`` (level "greedy") is the yardstick the issue asks for: it bids its lowest cards
while the standing bid is under the lot's face value, plays no Tools and never reacts.
"""

from __future__ import annotations

import random
from typing import Sequence

from .cards import CARDS, CONNECTION, Investment
from .commands import Bid, Command, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take
from .state import (
    AUCTIONS, BID, FLIP, FULL_PORTFOLIO, PICK, REACT, ROUNDS, TAX, TOOL, VENTURE, CapitalAuctionView,
    SlotInfo, read_lot,
)

CAPITAL_MEAN = sum(v * c for v, c in CARDS.capital.items()) / sum(CARDS.capital.values())
TOOL_WORTH = 0.8  # points a Tool card in hand is worth
BID_RATE = 2.6  # capital paid per point of a lot, early in the game
REACT_MARGIN = 1.5  # a Connection answers a swing of at least this many points
LAST_CONNECTION = 3.5  # … and the last one is kept for a swing this big
BUDGET = float(__import__("os").environ.get("BUDGET", 0.6))  # the share of its Capital it risks on an ordinary lot
THRESHOLD = float(__import__("os").environ.get("THRESHOLD", 0))
BONUS = float(__import__("os").environ.get("BONUS", 1))
ENDING = 30.0  # what ending the game is worth: winning it, or losing it
INSIDER = float(__import__("os").environ.get("INSIDER", 0.25))
SKIP = float(__import__("os").environ.get("SKIP", 99))
END_MARGIN = float(__import__("os").environ.get("END_MARGIN", 0.5))
BLOCK_MARGIN = float(__import__("os").environ.get("BLOCK_MARGIN", 0))
RESERVE = float(__import__("os").environ.get("RESERVE", 0))
FIRST = float(__import__("os").environ.get("FIRST", 1))
KS = [float(x) for x in __import__("os").environ.get("KS", "").split(",") if x]
PLAY_MARGIN = 0.2  # a Tool is played when it gains at least this much
RIVAL, OTHER = 1.0, 0.5  # how much a rival's gain counts against the bot
# which Tools the bot parts with first (Venture Fund's discard)
KEEP_ORDER = ("connection", "takeover", "merger", "write-off", "espionage", "press", "tax", "bailout",
              "venture", "audit", "insider", "offering", "cover-up")


def _unseen_mean(view: CapitalAuctionView) -> float:
    """The mean value of the Investment cards this seat has not seen."""
    shown = {info.card for info in (*(i for p in view.portfolios for i in p), *view.lots(), *view.removed)
             if info.card is not None}
    rest = [card.value for card in CARDS.investment_deck() if card not in shown]
    return sum(rest) / len(rest) if rest else 0.0


class _Reading:
    """One decision's reading of the view: estimated portfolio values, the worth of Capital."""

    def __init__(self, view: CapitalAuctionView) -> None:
        self.view = view
        self.me = view.seat
        self.n = len(view.names)
        self.mean = _unseen_mean(view)
        self.totals = [sum(self.worth(i) for i in p) for p in view.portfolios]
        self.counts = [len(p) for p in view.portfolios]
        rivals = [s for s in range(self.n) if s != self.me]
        self.rival = max(rivals, key=lambda s: (self.totals[s], self.counts[s]))
        # auctions still to come (this one included), and how soon a full portfolio may end it all
        self.auctions_left = (ROUNDS - view.round) * AUCTIONS + (AUCTIONS - view.auction) + 1
        wins_to_end = max(1, (FULL_PORTFOLIO - max(self.counts) + 1) // 2)
        horizon = min(self.auctions_left, 1 + self.n * wins_to_end)
        self.horizon = horizon
        self.rounds_left = ROUNDS - view.round
        # points one point of Capital value buys from now on
        self.rate = min(1.0, horizon / 6) / BID_RATE

    def worth(self, info: SlotInfo) -> float:
        return float(info.card.value) if info.card is not None else self.mean

    def weight(self, seat: int) -> float:
        if seat == self.me:
            return -1.0
        return RIVAL if seat == self.rival else OTHER

    def bonus(self, card: Investment | None) -> float:
        """What a card's bonus is worth to whoever gets it, plus the extra Capital a face-up
        card draws each coming round."""
        extra = self.rounds_left * CAPITAL_MEAN * self.rate
        if card is None:
            return extra
        bonus = card.info.bonus
        worth = (bonus.capital * CAPITAL_MEAN * self.rate + bonus.tools * TOOL_WORTH
                 + bonus.steal * (self.n - 1) * CAPITAL_MEAN * self.rate)
        return (worth + extra) * BONUS

    def standing(self, deltas: dict[int, float]) -> float:
        """What changes of value per seat are worth to the bot: its own gain less its rivals'."""
        return sum(-self.weight(s) * d for s, d in deltas.items())


class CapitalAuctionBot:
    """Values Investments by expected worth, bids what it can afford to lose, uses Tools where
    they gain, keeps a Connection for a Hostile Takeover against it."""

    def choose(self, view: CapitalAuctionView, legal: Sequence[Command], rng: random.Random) -> Command:
        reading = _Reading(view)
        phase = view.phase
        if phase == BID:
            command = self._bid(reading, legal)
        elif phase == TOOL:
            command = self._tool(reading, legal)
        elif phase == REACT:
            command = self._react(reading, legal)
        elif phase == FLIP:
            command = self._flip(reading, legal)
        else:
            command = _answer(view, legal)
        if command not in legal and not isinstance(command, (Bid, Play)):
            command = rng.choice(legal)
        return command

    # -- bidding ---------------------------------------------------------------------------------
    def lot_worth(self, r: _Reading) -> float:
        lot = r.view.table[r.view.auction - 1]
        worth = 0.0
        for info in lot:
            worth += r.worth(info)
            if info.up:
                worth += r.bonus(info.card)
        return worth

    def future_worth(self, r: _Reading, auction: int) -> float:
        lot = r.view.table[auction - 1]
        worth = 0.0
        for info in lot:
            worth += r.worth(info)
            if info.up:
                worth += r.bonus(info.card)
        if auction == 3 and r.view.auction < 2 and not any(i.up for i in lot):
            worth += r.bonus(None) * 0.5  # one of them will be turned up
        return worth

    def _bid(self, r: _Reading, legal: Sequence[Command]) -> Command:
        view = r.view
        bids = [c for c in legal if isinstance(c, Bid)]
        if not bids:
            return Pass()
        lot = view.table[view.auction - 1]
        values = sum(r.worth(info) for info in lot)
        worth = self.lot_worth(r)
        pool = sum(c.value for c in view.capital) + sum(c.value for c in view.bids[r.me])
        ceiling = min(worth / r.rate if r.rate else 0.0, pool * BUDGET)
        mine = r.totals[r.me] + values
        best_other = max(r.totals[s] for s in range(r.n) if s != r.me)
        decisive = False
        if r.counts[r.me] + len(lot) >= FULL_PORTFOLIO:
            # winning ends the game: worth everything if it wins it, nothing if it loses it
            ceiling = pool if mine > best_other + END_MARGIN else 0.0
            decisive = True
        else:
            for s in range(r.n):
                if s != r.me and r.counts[s] + len(lot) >= FULL_PORTFOLIO and r.totals[s] + values >= r.totals[r.me] - BLOCK_MARGIN:
                    ceiling = pool  # a rival would end the game ahead: stop them
                    decisive = True
        if not decisive:
            if worth < THRESHOLD:
                return Pass()
            later = [self.future_worth(r, a) for a in range(view.auction + 1, AUCTIONS + 1)]
            if later and max(later) > worth + SKIP:
                return Pass()
            ceiling = min(ceiling, pool - RESERVE * self.threat(r))
            if KS:
                ceiling = min(pool, worth * KS[view.auction - 1] * min(1.0, r.horizon / 6))
        cheapest = bids[0]
        if sum(cheapest.values) <= ceiling:
            return cheapest
        return Pass()

    def threat(self, r: _Reading) -> float:
        """The Capital a rival close to a full portfolio might bid (what the bot keeps to stop them)."""
        worst = 0.0
        for s in range(r.n):
            if s != r.me and r.counts[s] + 2 * 2 >= FULL_PORTFOLIO:
                worst = max(worst, r.view.capital_sizes[s] * CAPITAL_MEAN)
        return worst

    # -- the Tool phase ------------------------------------------------------------------------------
    def _tool(self, r: _Reading, legal: Sequence[Command]) -> Command:
        best: tuple[float, Command] = (PLAY_MARGIN, Pass())
        for command in legal:
            if isinstance(command, Play):
                gain = r.standing(self.effect(r, r.me, command)) - self.cost(r, command)
                if gain > best[0]:
                    best = (gain, command)
        return best[1]

    def cost(self, r: _Reading, play: Play) -> float:
        return sum(play.pay) * r.rate + TOOL_WORTH * 0.3

    def effect(self, r: _Reading, seat: int, play: Play) -> dict[int, float]:
        """The change of value, per seat, that ``seat`` playing ``play`` would make (an estimate)."""
        view = r.view
        effect = CARDS.tool(play.tool).effect
        other = view.names.index(play.player) if play.player in view.names else None
        theirs = view.portfolios[other][play.card - 1] if other is not None and 0 < play.card <= len(view.portfolios[other]) else None
        own = view.portfolios[seat][play.own - 1] if 0 < play.own <= len(view.portfolios[seat]) else None
        capital = CAPITAL_MEAN * r.rate
        if effect == "takeover" and theirs is not None:
            v = r.worth(theirs)
            return {seat: v + self._ending(r, seat, other, v), other: -v}
        if effect == "merger" and own is not None and other is not None:
            give = r.worth(own)
            take = r.worth(theirs) if theirs is not None else 0.0
            return {seat: take - give, other: give - take}
        if effect == "write-off" and own is not None:
            return {seat: -r.worth(own) - (r.bonus(None) if own.up else 0.0)}
        if effect == "press" and own is not None:
            return {seat: r.bonus(own.card)}
        if effect == "audit" and theirs is not None:
            if theirs.up:
                return {other: -r.rounds_left * capital}
            return {other: r.bonus(theirs.card), seat: 0.2}
        if effect == "draw-capital":
            return {seat: CARDS.tool(play.tool).amount * capital}
        if effect == "tax" and other is not None:
            hand = view.capital_sizes[other]
            return {other: -min(hand, CARDS.tool(play.tool).amount) * 1.5 * r.rate}
        if effect == "espionage" and other is not None:
            return {seat: 5 * r.rate, other: -5 * r.rate}
        if effect == "venture":
            return {seat: TOOL_WORTH}
        if effect == "insider":
            return {seat: INSIDER}
        if effect == "offering":
            return {seat: 0.25}
        return {}

    @staticmethod
    def _ending(r: _Reading, seat: int, victim: int, v: float) -> float:
        """Taking a card that fills the portfolio ends the game: good when it leaves ``seat``
        ahead, ruin when behind (in points for ``seat``)."""
        if r.counts[seat] + 1 < FULL_PORTFOLIO:
            return 0.0
        totals = list(r.totals)
        totals[seat] += v
        totals[victim] -= v
        best = max(t for s, t in enumerate(totals) if s != seat)
        return ENDING if totals[seat] > best + 0.5 else -ENDING

    # -- reactions -----------------------------------------------------------------------------------
    def _react(self, r: _Reading, legal: Sequence[Command]) -> Command:
        reacts = [c for c in legal if isinstance(c, React)]
        pending = r.view.pending
        if not reacts or pending is None:
            return Decline()
        swing = r.standing(self.effect(r, pending.seat, pending.play))
        if pending.seat == r.me:
            swing = max(swing, 0.0)
        standing = len(pending.chain) % 2 == 0
        # reacting flips the outcome: worth it when the other outcome is better by a margin
        gain = -swing if standing else swing
        held = sum(1 for t in r.view.tools if t.info.effect == CONNECTION)
        margin = LAST_CONNECTION if held <= 1 else REACT_MARGIN
        if gain >= margin:
            return min(reacts, key=lambda c: sum(c.pay))
        return Decline()

    # -- small choices ---------------------------------------------------------------------------------
    def _flip(self, r: _Reading, legal: Sequence[Command]) -> Command:
        # turn the card it has not seen: what it knows stays its own
        for command in legal:
            where = read_lot(command.lot) if isinstance(command, Flip) else None
            if where is not None and r.view.table[where[0] - 1][where[1]].card is None:
                return command
        return legal[0]


def _answer(view: CapitalAuctionView, legal: Sequence[Command]) -> Command:
    """The forced choices every bot makes the same way: take the highest card, discard the
    lowest ones, part with the least useful Tool."""
    takes = [c for c in legal if isinstance(c, Take)]
    if takes:
        return max(takes, key=lambda c: c.value)
    discards = [c for c in legal if isinstance(c, DiscardCapital)]
    if discards:
        return min(discards, key=lambda c: (sum(c.values), -len(c.values)))
    tools = [c for c in legal if isinstance(c, DiscardTool)]
    if tools:
        order = {key: i for i, key in enumerate(KEEP_ORDER)}
        return max(tools, key=lambda c: order.get(CARDS.tool(c.tool).effect, len(order)))
    return legal[0]


class GreedyBot:
    """Bids its lowest cards while the standing bid is under the lot's face value (a face-down
    card counts at the mean of the cards it has not seen); plays no Tools; never reacts."""

    def choose(self, view: CapitalAuctionView, legal: Sequence[Command], rng: random.Random) -> Command:
        if view.phase == BID:
            return self._bid(view, legal)
        if view.phase in (TOOL, REACT):
            return Pass() if view.phase == TOOL else Decline()
        if view.phase == FLIP:
            return legal[0]
        if view.phase in (PICK, TAX, VENTURE):
            return _answer(view, legal)
        return legal[0]

    @staticmethod
    def _bid(view: CapitalAuctionView, legal: Sequence[Command]) -> Command:
        mean = _unseen_mean(view)
        face = sum(info.card.value if info.card is not None else mean for info in view.table[view.auction - 1])
        if view.high >= face:
            return Pass()
        pool = sorted([c.value for c in view.capital] + [c.value for c in view.bids[view.seat]])
        bid: list[int] = []
        for value in pool:
            bid.append(value)
            if sum(bid) > view.high:
                return Bid(tuple(sorted(bid, reverse=True)))
        return Pass()
