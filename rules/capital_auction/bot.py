"""Capital Auction's bots. Each reasons on its own view only (what a human in the seat sees).

``LookAheadBot`` (level "bot") plays as ``CapitalAuctionBot`` does, but checks each of its bids
and each of its turns in the Tool phase with a short search of its own view (the expert's,
rules/core/search.py, 24 tries of a command on a deal: at a bid, its bid and the two best others
at a glance, 8 deals each; in the Tool phase, its choice and the five best others, 4 each; each
played on twelve turns by ``CapitalAuctionBot``; up to 96 tries more while another command
leads its choice by a standard error or more, but not clearly), and plays otherwise where the
search shows a better command. That search only ever plays out with ``CapitalAuctionBot``
(``playout``), as the expert and the analysis do.

``CapitalAuctionBot`` prices everything in points of Investment value. A card it
cannot see is worth the mean of the Investment cards it has not seen (their spread tells it how
sure it can be of a lead); Capital, and the Capital a bonus draws, is worth less and less as
the game nears its end. It bids the cheapest bid it can while the price stays under what the
lot is worth to it — everything it has when the lot decides the game: when winning it would
end the game with the bot likely ahead, or when a rival winning it would end the game or bring
that rival within one card of ending it (a game its rival ends is the bot's likeliest loss).
Capital is cheap to it (one point of Capital per point of a lot while the end is far): buying
lots brings its own full portfolio, and an end it chooses, nearer. In the Tool phase it plays the Tool that gains it most against its
strongest rival, and it answers a Tool with a Connection when the swing is worth a card,
holding its last Connection back for a blow as heavy as a Hostile Takeover against it.

``GreedyBot`` (level "greedy") is the yardstick the issue asks for: it bids its lowest cards
while the standing bid is under the lot's face value, plays no Tools and never reacts.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Sequence

from ..core.search import ExpertBot
from .cards import CARDS, CONNECTION, Investment
from .commands import Bid, Command, Decline, DiscardCapital, DiscardTool, Pass, Play, React, Take
from .state import AUCTIONS, BID, FLIP, FULL_PORTFOLIO, REACT, ROUNDS, TOOL, CapitalAuctionView, SlotInfo, read_lot

CAPITAL_MEAN = sum(v * c for v, c in CARDS.capital.items()) / sum(CARDS.capital.values())
TOOL_WORTH = 0.8  # points a Tool card in hand is worth
TOOL_HAND = 3  # a new round fills a hand of Tools up to this
BID_RATE = 1.0  # Capital value paid per point of a lot, while the game's end is far
# what the bot pays at most for a lot that does not decide the game, as a share of its worth:
# a rival bidding by ones to the same worth leaves the lot to whoever reaches it, and the one
# who pays its whole worth for it loses more often than not (seed 2 of the analysis's games:
# the bot's opening `bid 1` won 14% of 300 deals played out against itself, 91% against random
# play; paying at most nine tenths of a lot's worth won 575 of 1,000 two-player games against
# the bot paying all of it)
CEILING = 0.9
FIRST_AUCTION = 1.0  # a round's first auction is paid like any other (less measured worse)
BONUS_WEIGHT = 0.75  # how much of the Capital a face-up card will draw counts in its worth
SURE = 0.4  # the chance of finishing ahead that makes a decisive lot worth everything
REACT_MARGIN = 1.5  # a Connection answers a swing of at least this many points
LAST_CONNECTION = 3.5  # … and the last one is kept for a swing this big
PLAY_MARGIN = 0.0  # a Tool is played when it gains more than this
ENDING = 30.0  # what ending the game is worth: winning it, or losing it
RIVAL, OTHER = 1.0, 0.5  # how much a rival's gain counts against the bot: the leader, the others
INFORMATION = 1.5  # what looking at a face-down card (or showing one) is worth: better bids later
# which Tools the bot parts with first (Venture Fund's discard): the last of this order first
KEEP_ORDER = ("connection", "takeover", "merger", "write-off", "espionage", "press", "tax",
              "draw-capital", "venture", "audit", "insider", "offering", "cover-up")


def unseen_investments(view: CapitalAuctionView) -> list[int]:
    """The values of the Investment cards this seat has not seen (in the deck or face down)."""
    shown = _shown(view)
    return [value for key, value in _deck_values() if key not in shown]


def _shown(view: CapitalAuctionView) -> frozenset[tuple[str, int]]:
    """The Investment cards this seat has seen, by (kind, copy)."""
    return frozenset([(info.card.kind, info.card.copy)
                      for info in (*(i for p in view.portfolios for i in p), *view.lots(), *view.removed)
                      if info.card is not None])


@functools.cache
def _deck_values() -> tuple[tuple[tuple[str, int], int], ...]:
    """Every Investment card of the deck, in its order, by its (kind, copy) and with its value:
    looked up once (the expert's playouts ask for the unseen cards tens of thousands of times)."""
    return tuple(((card.kind, card.copy), card.value) for card in CARDS.investment_deck())


_SPREADS: dict[frozenset, tuple[float, float]] = {}


def _unseen_spread(view: CapitalAuctionView) -> tuple[float, float]:
    """The mean and variance of the values of the Investment cards this seat has not seen, kept
    by the cards it has seen (the same few sets, decision after decision)."""
    shown = _shown(view)
    found = _SPREADS.get(shown)
    if found is None:
        if len(_SPREADS) > 10_000:
            _SPREADS.clear()
        rest = [value for key, value in _deck_values() if key not in shown]
        mean = sum(rest) / len(rest) if rest else 0.0
        variance = sum((v - mean) ** 2 for v in rest) / len(rest) if rest else 0.0
        found = _SPREADS[shown] = (mean, variance)
    return found


@functools.cache
def _worths() -> dict[str, float]:
    """What a face-up Investment is worth to the bot, by its kind (``_Reading.worth``)."""
    return {card.kind: float(card.value) for card in CARDS.investment_deck()}


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class _Reading:
    """One decision's reading of the view: estimated portfolio values, the worth of Capital."""

    def __init__(self, view: CapitalAuctionView) -> None:
        self.view = view
        self.me = view.seat
        self.n = len(view.names)
        self.mean, self.variance = _unseen_spread(view)
        self.unknown = [sum(1 for i in p if i.card is None) for p in view.portfolios]
        mean, worths = self.mean, _worths()  # ``worth`` of each card, as one list per portfolio
        self.totals = [sum([mean if i.card is None else worths[i.card.kind] for i in p]) for p in view.portfolios]
        self.counts = [len(p) for p in view.portfolios]
        rivals = [s for s in range(self.n) if s != self.me]
        self.rival = max(rivals, key=lambda s: (self.totals[s], self.counts[s]))
        # auctions still to come (this one included), and how soon a full portfolio may end it all
        auctions_left = (ROUNDS - view.round) * AUCTIONS + (AUCTIONS - view.auction) + 1
        wins_to_end = max(1, (FULL_PORTFOLIO - max(self.counts) + 1) // 2)
        horizon = min(auctions_left, 1 + self.n * wins_to_end)
        self.rounds_left = ROUNDS - view.round
        # points that one point of Capital value buys from now on
        self.rate = min(1.0, horizon / 6) / BID_RATE

    def worth(self, info: SlotInfo) -> float:
        return float(info.card.value) if info.card is not None else self.mean

    def weight(self, seat: int) -> float:
        if seat == self.me:
            return -1.0
        return RIVAL if seat == self.rival else OTHER

    def bonus(self, card: Investment | None) -> float:
        """What a card lying face up in a portfolio is worth beyond its value: its bonus, and
        the extra Capital card it draws each coming round."""
        worth = self.rounds_left * CAPITAL_MEAN * self.rate
        if card is not None:
            bonus = card.info.bonus
            worth += (bonus.capital * CAPITAL_MEAN * self.rate + bonus.tools * TOOL_WORTH
                      + bonus.steal * (self.n - 1) * CAPITAL_MEAN * self.rate)
        return worth * BONUS_WEIGHT

    def standing(self, deltas: dict[int, float]) -> float:
        """What changes of value per seat are worth to the bot: its own gain less its rivals'."""
        return sum(-self.weight(s) * d for s, d in deltas.items())

    def pool(self) -> int:
        """What the bot can bid: its Capital cards and the ones it has laid out."""
        return sum(c.value for c in (*self.view.capital, *self.view.bids[self.me]))

    def ahead(self, seat: int, gains: dict[int, tuple[float, int]]) -> float:
        """The chance that ``seat`` finishes above every other seat were the game to end now,
        after ``gains`` (seat → value and number of unseen cards added)."""
        def of(s: int) -> tuple[float, int]:
            value, unknown = gains.get(s, (0.0, 0))
            return self.totals[s] + value, self.unknown[s] + unknown

        mine, mine_unknown = of(seat)
        chance = 1.0
        for other in range(self.n):
            if other != seat:
                theirs, their_unknown = of(other)
                spread = math.sqrt((mine_unknown + their_unknown) * self.variance)
                gap = mine - theirs
                chance *= _phi(gap / spread) if spread else float(gap > 0) + 0.5 * float(gap == 0)
        return chance


class CapitalAuctionBot:
    """Values Investments by expected worth, bids what it can afford to lose, uses Tools where
    they gain, keeps a Connection for a Hostile Takeover against it."""

    plays_forced = True  # a third of the commands of a playout: the search need not build a view

    def choose(self, view: CapitalAuctionView, legal: Sequence[Command], rng: random.Random) -> Command:
        if len(legal) == 1:
            return legal[0]
        reading = _Reading(view)
        phase = view.phase
        if phase == BID:
            command = self.bid(reading, legal)
        elif phase == TOOL:
            command = self.tool(reading, legal)
        elif phase == REACT:
            command = self.react(reading, legal)
        elif phase == FLIP:
            command = self.flip(reading, legal)
        else:
            command = answer(legal)
        return command if command in legal else rng.choice(legal)

    # -- bidding ---------------------------------------------------------------------------------
    def lot_worth(self, r: _Reading) -> float:
        """The current lot's worth to the bot: its cards' values and the face-up cards' bonuses."""
        lot = r.view.table[r.view.auction - 1]
        return sum(r.worth(info) + (r.bonus(info.card) if info.up else 0.0) for info in lot)

    def ceiling(self, r: _Reading) -> float:
        """The highest bid the bot will make for the current lot."""
        view = r.view
        lot = view.table[view.auction - 1]
        gain = (sum(r.worth(info) for info in lot), sum(1 for info in lot if info.card is None))
        pool = r.pool()
        if r.counts[r.me] + len(lot) >= FULL_PORTFOLIO:
            # winning it ends the game: everything if the bot likely ends ahead, nothing if not
            return pool if r.ahead(r.me, {r.me: gain}) > SURE else 0
        worth = self.lot_worth(r)
        for s in range(r.n):
            if s != r.me and s not in view.out and r.counts[s] + len(lot) >= FULL_PORTFOLIO - 1:
                # a rival winning it would end the game, or come within one card of ending it:
                # random rivals end it at once and unpredictably, so the bot denies them the lot
                return pool
        if worth <= 0:
            return 0
        return min(pool, worth / r.rate * CEILING * (FIRST_AUCTION if view.auction == 1 else 1.0))

    def bid(self, r: _Reading, legal: Sequence[Command]) -> Command:
        # the legal list offers, for each total, the bid that makes it with the fewest cards;
        # the cheapest comes first, and the rest of the list is never read
        cheapest = next((c for c in legal if isinstance(c, Bid)), None)
        if cheapest is not None and sum(cheapest.values) <= self.ceiling(r):
            return cheapest
        return Pass()

    # -- the Tool phase ------------------------------------------------------------------------------
    def tool(self, r: _Reading, legal: Sequence[Command]) -> Command:
        best: tuple[float, Command] = (PLAY_MARGIN, Pass())
        for command in legal:
            if isinstance(command, Play):
                gain = r.standing(self.effect(r, r.me, command)) - self.cost(r, command)
                if gain > best[0]:
                    best = (gain, command)
        return best[1]

    @staticmethod
    def cost(r: _Reading, play: Play) -> float:
        """The Capital paid, less what playing a card is worth in itself: a hand of fewer than
        three Tools is filled up again at the next round."""
        refill = TOOL_WORTH if r.rounds_left and len(r.view.tools) <= TOOL_HAND else 0.0
        return sum(play.pay) * r.rate - refill

    def effect(self, r: _Reading, seat: int, play: Play) -> dict[int, float]:
        """The change of value, per seat, that ``seat`` playing ``play`` would make (an estimate)."""
        view = r.view
        effect = CARDS.tool(play.tool).effect
        other = play.player
        theirs = (view.portfolios[other][play.card - 1]
                  if other is not None and 0 < play.card <= len(view.portfolios[other]) else None)
        own = view.portfolios[seat][play.own - 1] if 0 < play.own <= len(view.portfolios[seat]) else None
        capital = CAPITAL_MEAN * r.rate
        amount = CARDS.tool(play.tool).amount
        if effect == "takeover" and theirs is not None:
            v = r.worth(theirs)
            return {seat: v + self.ending(r, seat, other, v), other: -v}
        if effect == "merger" and own is not None and other is not None:
            give, take = r.worth(own), (r.worth(theirs) if theirs is not None else 0.0)
            return {seat: take - give, other: give - take}
        if effect == "write-off" and own is not None:
            return {seat: -r.worth(own) - (r.bonus(None) if own.up else 0.0)}
        if effect == "press" and own is not None:
            return {seat: r.bonus(own.card)}
        if effect == "audit" and theirs is not None:
            if theirs.up:
                return {other: -r.rounds_left * capital}  # one Capital card fewer each round
            return {other: r.bonus(theirs.card), seat: INFORMATION}
        if effect == "draw-capital":
            return {seat: amount * capital}
        if effect == "tax" and other is not None:
            return {other: -min(view.capital_sizes[other], amount) * 1.5 * r.rate}
        if effect == "espionage" and other is not None:
            return {seat: 5 * r.rate, other: -5 * r.rate}
        if effect == "venture":
            return {seat: TOOL_WORTH}
        if effect == "insider":
            looked = theirs if other is not None else self.lot(view, play.lot)
            # a card the looker knows already (its own, one it has seen) tells it nothing
            return {seat: INFORMATION} if looked is not None and seat not in looked.seen else {}
        if effect == "offering":
            return {seat: INFORMATION}
        return {}  # Cover-Up: nothing the bot counts

    @staticmethod
    def lot(view: CapitalAuctionView, name: str) -> SlotInfo | None:
        """The card on the table called ``name`` (``3a``), as the bot sees it."""
        where = read_lot(name)
        if where is None or where[1] >= len(view.table[where[0] - 1]):
            return None
        return view.table[where[0] - 1][where[1]]

    @staticmethod
    def ending(r: _Reading, seat: int, victim: int, v: float) -> float:
        """Taking a card that fills the portfolio ends the game: a win when it leaves ``seat``
        ahead, a loss when behind (in points for ``seat``)."""
        if r.counts[seat] + 1 < FULL_PORTFOLIO:
            return 0.0
        totals = list(r.totals)
        totals[seat] += v
        totals[victim] -= v
        best = max(t for s, t in enumerate(totals) if s != seat)
        return ENDING if totals[seat] > best + 0.5 else -ENDING

    # -- reactions -----------------------------------------------------------------------------------
    def react(self, r: _Reading, legal: Sequence[Command]) -> Command:
        reacts = [c for c in legal if isinstance(c, React)]
        pending = r.view.pending
        if not reacts:
            return Decline()
        swing = r.standing(self.effect(r, pending.seat, pending.play))
        if pending.seat == r.me:
            swing = max(swing, 0.0)
        # a Connection turns the outcome over: worth it when the other outcome is better enough
        gain = -swing if len(pending.chain) % 2 == 0 else swing
        held = sum(1 for t in r.view.tools if t.info.effect == CONNECTION)
        if gain >= (LAST_CONNECTION if held <= 1 else REACT_MARGIN):
            return min(reacts, key=lambda c: sum(c.pay))
        return Decline()

    # -- small choices ---------------------------------------------------------------------------------
    @staticmethod
    def flip(r: _Reading, legal: Sequence[Command]) -> Command:
        """Turn the card it has not seen: what it knows stays its own."""
        for command in legal:
            auction, index = read_lot(command.lot)
            if r.view.table[auction - 1][index].card is None:
                return command
        return legal[0]


def answer(legal: Sequence[Command]) -> Command:
    """The forced choices every bot makes the same way: take the highest card, discard the
    lowest ones, part with the least useful Tool."""
    takes = [c for c in legal if isinstance(c, Take)]
    if takes:
        return max(takes, key=lambda c: c.value)
    discards = [c for c in legal if isinstance(c, DiscardCapital)]
    if discards:
        return min(discards, key=lambda c: sum(c.values))
    tools = [c for c in legal if isinstance(c, DiscardTool)]
    if tools:
        order = {effect: i for i, effect in enumerate(KEEP_ORDER)}
        return max(tools, key=lambda c: order.get(CARDS.tool(c.tool).effect, len(order)))
    return legal[0]


class GreedyBot:
    """Bids its lowest cards while the standing bid is under the lot's face value (a face-down
    card counts at the mean of the cards it has not seen); plays no Tools; never reacts."""

    def choose(self, view: CapitalAuctionView, legal: Sequence[Command], rng: random.Random) -> Command:
        if view.phase == BID:
            return self.bid(view)
        if view.phase == TOOL:
            return Pass()
        if view.phase == REACT:
            return Decline()
        return answer(legal)

    @staticmethod
    def bid(view: CapitalAuctionView) -> Command:
        rest = unseen_investments(view)
        mean = sum(rest) / len(rest) if rest else 0.0
        face = sum(info.card.value if info.card is not None else mean for info in view.table[view.auction - 1])
        if view.high >= face:
            return Pass()
        bid: list[int] = []
        for value in sorted(c.value for c in (*view.capital, *view.bids[view.seat])):
            bid.append(value)
            if sum(bid) > view.high:
                return Bid(tuple(sorted(bid, reverse=True)))
        return Pass()


class LookAheadBot:
    """``CapitalAuctionBot`` whose bids and Tools a short search checks (the module's docstring)."""

    # The bidding and the Tool phase are where the reading parts from what a search finds (the
    # analysis of its games against random play marked its bids, and once those were searched,
    # mostly its Tools). The rest (answering a Tool, the forced choices, the flip) is left to
    # the reading: searched too, it did no better (the bot's accuracy higher in 291 of the
    # analysis's 300 games either way, 48 tries a Tool turn) at 60% more time a game. Playouts
    # of six turns, not twelve, halved the time but parted from the judging's (276 against
    # 291). A search of 24 tries is 8 deals a command at a bid, 4 in the Tool phase: where
    # passing loses for sure and a bid of 1 wins one deal in eight, it cannot tell, and the
    # analysis at four times its budget marked such passes as blunders. Up to 96 tries more
    # where a command leads its choice by a standard error or more (``doubt``): the bot's
    # accuracy higher in 289 of the analysis's 300 games at 384 iterations (287 before), at a
    # tenth more of its time. Weighing a pass at every searched bid, in place of the second best
    # other at a glance (which rates a pass low: the rival takes the lot), did no better: 97, 95
    # and 95 of those 300 (287 in all against 289), 277 of 300 against greedy (283). Figures:
    # README.md, and the record in rules.py (``expert``).
    SEARCHED = {BID: (24, 3, 96), TOOL: (24, 6, 96)}
    """The phases searched, each with its tries (a command on a deal), the commands weighed,
    and the tries more while a command leads the reading's choice but not clearly: a turn of
    the Tool phase offers more different commands (which Tool, on whom) than a bid does (how
    much), so every one the analysis would weigh (``analysis_candidates``). 48 tries a Tool
    turn throughout: 291 of the 300 analysed games against 289, within the noise, at twice the
    time."""

    def __init__(self, spec: object) -> None:
        self.playout = CapitalAuctionBot()
        self.searches = {phase: ExpertBot(spec, seconds=None, iterations=tries, candidates=commands, doubt=doubt)
                         for phase, (tries, commands, doubt) in self.SEARCHED.items()}

    def choose(self, view: CapitalAuctionView, legal: Sequence[Command], rng: random.Random) -> Command:
        return self.searches.get(view.phase, self.playout).choose(view, legal, rng)

__all__ = ["CapitalAuctionBot", "GreedyBot", "LookAheadBot", "answer", "unseen_investments"]
