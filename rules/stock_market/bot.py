"""Card Stock Market's bots. Both read only their own view and legal commands.

``GreedyBot`` (level "greedy") is the issue's simple baseline: it buys the cheapest shares it
can afford, then lays its highest card on its own largest holding when that raises the price;
a turn in which it can do neither it spends discarding its lowest cards.

``StockMarketBot`` (level "bot") plans inside its own turn: for every command it can play now
it looks one more command ahead on a small model of the public table, and keeps the one that
leaves the best position. A position is scored as its own expected worth less its rivals'
(the leader most). "Expected" prices a company at its current price, plus what the bot's own
hand can still push it up, plus what rivals who hold it are likely to push it up, less what it
stands to lose to a crash or a drop the bot can foresee: the chance that a rival holds the card
that does it (worked out from the cards the bot has not seen) times the loss. So it buys what it
can push up, raises what it holds, lowers or crashes what its rivals hold when that pays, sells
before a crash it can see coming, and keeps some cash when the bank is running low.

Neither bot ends a turn without trading or changing a price unless it discards (the strong bot,
when every card has a use, the one it values least): only playing or discarding draws cards, and
two seats that only ended their turns would never reach the joker that ends the game (RULINGS.md).
"""

from __future__ import annotations

import functools
import random
from typing import Any, Sequence

from rules.core import Card, Command

from .commands import Buy, Discard, End, Lay, Sell
from .rules import lay_range
from .state import (
    COMPANIES, LEVY, LIMITS, MAX_BUYS, MAX_DISCARD, MAX_LAYS, MAX_SHARES, PRICE,
    SELL_SAME_TURN, TRADE, StockMarketView, is_court, shares,
)

_INDEX = {suit: i for i, suit in enumerate(COMPANIES)}
# what _read_risks counts a card seen as, by its face: a number card of a company (0-3), a court
# card of one (4-7), or nothing (a joker)
_SEEN = {(rank, suit): (4 if rank > 10 else 0) + i for i, suit in enumerate(COMPANIES) for rank in range(1, 14)}
_SEEN[(0, None)] = 8
_UP = tuple(LIMITS[s][0] for s in COMPANIES)
_DOWN = tuple(LIMITS[s][1] for s in COMPANIES)
MARGIN = 1.0  # a command must gain this much (in dollars of score) to be played
COURTS_PER_SUIT = 6  # J, Q, K in two decks
NUMBERS_PER_SUIT = 20


def _largest(holding: Sequence[int]) -> int | None:
    """The company with the most shares in a holding (None when there are none)."""
    best = 0  # the first of the largest, as max(range(4), key=(holding[i], -i)) finds
    for i in (1, 2, 3):
        if holding[i] > holding[best]:
            best = i
    return best if holding[best] else None


def _shares_by_company(cards: Sequence[Card]) -> list[int]:
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[_INDEX[card.suit]] += shares(card)
    return counts


class GreedyBot:
    """Buys the cheapest shares it can afford; lays its highest card on its own largest holding."""

    def choose(self, view: StockMarketView, legal: Sequence[Command], rng: random.Random) -> Command:
        prices = view.prices
        buys = [c for c in legal if isinstance(c, Buy)]
        if buys:
            return min(buys, key=lambda c: (prices[c.card.suit], -shares(c.card), c.card.sort_key()))
        mine = _shares_by_company(view.holdings[view.seat])
        largest = _largest(mine)
        if largest is not None:
            suit = COMPANIES[largest]
            raises = [c for c in legal if isinstance(c, Lay) and c.card.suit is suit and c.price > prices[suit]]
            if raises:
                return max(raises, key=lambda c: (c.price, c.card.sort_key()))
        if not view.phases:
            discards = [c for c in legal if isinstance(c, Discard)]
            if discards:
                lowest = sorted(view.hand, key=lambda c: (c.rank, c.sort_key()))[:MAX_DISCARD]
                wanted = Discard(tuple(lowest))
                if wanted in discards:
                    return wanted
        return next(c for c in legal if isinstance(c, End))


# -- the strong bot ----------------------------------------------------------------------------------
class _Model:
    """The public table as the bot plans on it: prices, which piles show a court card, every
    seat's shares per company, money, and the bot's own hand, certificates and turn so far."""

    __slots__ = ("prices", "court", "hand", "certs", "shares", "money", "phases", "bought", "laid", "push",
                 "leaders", "vals", "rivals", "total")

    def __init__(self, prices: list[int], court: list[bool], hand: tuple[Card, ...],
                 certs: tuple[Card, ...], shares_: list[list[int]], money: list[int],
                 phases: tuple[str, ...], bought: tuple[Card, ...], laid: int,
                 push: list[int] | None = None, leaders: list[int | None] | None = None) -> None:
        self.prices = prices
        self.court = court
        self.hand = hand
        self.certs = certs
        self.shares = shares_
        self.money = money
        self.phases = phases
        self.bought = bought
        self.laid = laid
        # what ``values`` reads of the hand and of the rivals' shares, worked out once and
        # handed on by ``play`` to the positions that leave them unchanged (the bot scores tens
        # of positions a decision, most of them a trade that changes neither)
        self.push = push
        self.leaders = leaders
        # set by ``score``: the share values, the rivals' weighted worth and the score, which
        # ``scored`` and ``reach`` start from to score a position one command on
        self.vals: list[float] | None = None
        self.rivals = 0.0
        self.total = 0.0

    def can(self, phase: str) -> bool:
        return phase not in self.phases or self.phases[-1] == phase

    def entered(self, phase: str) -> tuple[str, ...]:
        return self.phases if self.phases and self.phases[-1] == phase else self.phases + (phase,)


class _Planner:
    """One decision of the strong bot: its reading of the view, and the search."""

    def __init__(self, view: StockMarketView) -> None:
        self.view = view
        self.me = view.seat
        self.n = len(view.names)
        self.allow_same_turn = bool(view.options.get(SELL_SAME_TURN))
        hand = tuple(view.hand)
        prices = [c.price for c in view.companies]
        court = [is_court(c.top) for c in view.companies]
        self.root = _Model(prices, court, hand, tuple(view.holdings[self.me]),
                           [_shares_by_company(h) for h in view.holdings], list(view.money),
                           tuple(view.phases), tuple(view.bought), len(view.laid))
        self.rivals = [s for s in range(self.n) if s != self.me]
        self._follows: dict[int, float] = {}  # see ``reach``
        # the companies some rival holds shares of (only a crash changes a rival's shares, to none)
        self._rivals_hold = [any(self.root.shares[s][i] for s in self.rivals) for i in range(4)]
        # each card the plan may trade or lay, by identity: its company, rank and shares
        self._info = {id(card): (_INDEX[card.suit], card.rank, shares(card)) for card in hand + self.root.certs}
        # a card of the hand whose face an earlier card has too, by identity: that earlier card
        self._later: dict[int, Card] = {}
        first: dict[tuple, Card] = {}
        for card in hand:
            if card.face in first:
                self._later[id(card)] = first[card.face]
            else:
                first[card.face] = card
        self._read_risks(view)
        self._read_time(view)
        self.rival_weight = self._rival_weights(view)
        # the factors of ``values``, multiplied out once (in its order, so to the same floats)
        future = self.future
        self._half = 0.5 * future
        self._up = [0.3 * future * _UP[i] for i in range(4)]
        self._down = [0.1 * future * _DOWN[i] for i in range(4)]
        self._drop = [0.35 * self.p_number[i] for i in range(4)]
        self._crash = [0.45 * self.p_court[i] for i in range(4)]

    # -- what the bot can infer ---------------------------------------------------------------
    def _read_risks(self, view: StockMarketView) -> None:
        """For each company, the chance that some rival holds a court card of it (which can
        crash it when it is low enough) and a number card of it (which can drop it from a
        court price), from the cards the bot has not seen."""
        seen = [0] * 9
        kinds = _SEEN
        for cards in (self.root.hand, view.discard, *view.holdings, *(company.pile for company in view.companies)):
            for card in cards:
                seen[kinds[card.face]] += 1
        seen_numbers, seen_courts = seen[:4], seen[4:8]
        rival_cards = sum(view.hand_sizes[s] for s in self.rivals)
        unseen = max(1, view.stock_size - view.jokers_in_stock + rival_cards)
        self.p_court = [_some(unseen, COURTS_PER_SUIT - seen_courts[i], rival_cards) for i in range(4)]
        self.p_number = [_some(unseen, NUMBERS_PER_SUIT - seen_numbers[i], rival_cards) for i in range(4)]

    def _read_time(self, view: StockMarketView) -> None:
        """How much the future counts: little once the jokers are in the stock and few cards
        stand before them (the game may end at any refill)."""
        if view.jokers_in_stock:
            cards_left = (view.stock_size + 1) / (view.jokers_in_stock + 1)
            turns_left = cards_left / 2.5
            self.future = max(0.15, min(1.0, turns_left / (self.n + 1)))
        else:
            self.future = 1.0
        self.levy_risk = (not view.bank_unlimited) and view.bank < 150 * self.n

    def _rival_weights(self, view: StockMarketView) -> list[float]:
        """How much each rival's worth counts against the bot: the leader most."""
        # worth(view, s), by company: the same whole dollars
        prices, shares_, money, debt = self.root.prices, self.root.shares, view.money, view.debt
        worths = {s: money[s] + sum(p * n for p, n in zip(prices, shares_[s])) - debt[s] for s in self.rivals}
        leader = max(worths.values())
        weights = [0.0] * self.n
        for s in self.rivals:
            weights[s] = 1.0 if worths[s] == leader else 0.35
        total = sum(weights)
        return [w / total for w in weights]

    # -- moves on the model ----------------------------------------------------------------------
    def moves(self, m: _Model, root: bool = False) -> list[tuple]:
        out: list[tuple] = []
        me = self.me
        faces: dict[tuple, Card] = {}
        for card in m.hand:
            faces.setdefault(card.face, card)
        if m.can(TRADE):
            if len(m.bought) < MAX_BUYS:
                for card in faces.values():
                    i = _INDEX[card.suit]
                    price = m.prices[i]
                    count = shares(card)
                    if price and m.shares[me][i] + count <= MAX_SHARES and m.money[me] >= price * count:
                        out.append(("buy", card, 0))
            seen: set[tuple] = set()
            for card in m.certs:
                if card.face in seen or (card in m.bought and not self.allow_same_turn):
                    continue
                seen.add(card.face)
                out.append(("sell", card, 0))
        if m.can(PRICE) and m.laid < MAX_LAYS:
            for card in faces.values():
                i = _INDEX[card.suit]
                for value in _lays(m.prices[i], m.court[i], i)[card.rank]:
                    out.append(("lay", card, value))
        return out

    def play(self, m: _Model, move: tuple) -> _Model:
        kind, card, value = move
        me = self.me
        i = _INDEX[card.suit]
        price = m.prices[i]
        money = list(m.money)
        if kind == "buy":
            count = shares(card)
            shares_ = [list(row) for row in m.shares]
            shares_[me][i] += count
            money[me] -= price * count
            hand = tuple([c for c in m.hand if c is not card])
            return _Model(m.prices, m.court, hand, m.certs + (card,), shares_, money,
                          m.entered(TRADE), m.bought + (card,), m.laid, None, m.leaders)
        if kind == "sell":
            shares_ = [list(row) for row in m.shares]
            shares_[me][i] -= shares(card)
            money[me] += price * shares(card)
            certs = tuple([c for c in m.certs if c is not card])
            return _Model(m.prices, m.court, m.hand, certs, shares_, money, m.entered(TRADE),
                          m.bought, m.laid, m.push, m.leaders)
        prices = list(m.prices)
        court = list(m.court)
        prices[i] = value
        court[i] = is_court(card)
        hand = tuple([c for c in m.hand if c is not card])
        shares_ = m.shares
        certs = m.certs
        leaders = m.leaders
        if value == 0:
            leaders = None
            shares_ = [list(row) for row in m.shares]
            for row in shares_:
                row[i] = 0
            certs = tuple([c for c in m.certs if c.suit is not card.suit])
        return _Model(prices, court, hand, certs, shares_, money, m.entered(PRICE), m.bought, m.laid + 1,
                      None, leaders)

    # -- judging a position ---------------------------------------------------------------------------
    def values(self, m: _Model) -> list[float]:
        """What one share of each company is worth to the bot, looking a round ahead."""
        me = self.me
        prices = m.prices
        # what the bot's own hand can still do to each company next turn
        push = m.push
        if push is None:
            push = m.push = [0, 0, 0, 0]
            for card in m.hand:
                i = _INDEX[card.suit]
                price = prices[i]
                rise = card.rank - price
                if price and rise > push[i] and _pushes(price, m.court[i], i)[card.rank]:
                    push[i] = rise
        leaders = m.leaders
        if leaders is None:
            leaders = m.leaders = [_largest(m.shares[s]) for s in self.rivals]
        shares_, court = m.shares, m.court
        mine_row = shares_[me]
        return [self.value(i, prices[i], push[i], court[i], mine_row[i], leaders, shares_) for i in range(4)]

    def value(self, i: int, price: int, push: int, court: bool, mine: int, leaders: list[int | None],
              shares_: list[list[int]]) -> float:
        """What one share of company ``i`` is worth to the bot (``values``, one company)."""
        if price == 0:
            return 0.0
        value = price + self._half * push
        # rivals who hold it push it up; rivals who do not may push it down
        k = 0
        for s in self.rivals:
            if leaders[k] == i:
                value += self._up[i]
            elif mine and not shares_[s][i]:
                value -= self._down[i]
            k += 1
        # what it stands to lose before the bot's next turn
        if court:
            value -= self._drop[i] * max(0, price - 5)
        elif price <= _DOWN[i]:
            value -= self._crash[i] * price
        return value

    def score(self, m: _Model) -> float:
        return self._tally(m, self.values(m))

    def _tally(self, m: _Model, values: list[float]) -> float:
        """``m``'s score from its share values (kept on it, with the rivals' weighted worth,
        for the positions one command on)."""
        m.vals = values
        v0, v1, v2, v3 = values
        shares_, money = m.shares, m.money
        rivals = m.rivals = self._rivals_worth(shares_, money, values)
        row = shares_[self.me]
        score = money[self.me] + (0 + row[0] * v0 + row[1] * v1 + row[2] * v2 + row[3] * v3) - rivals
        if self.levy_risk:
            score -= 0.5 * max(0, LEVY - money[self.me])
        m.total = score
        return score

    def _rivals_worth(self, shares_: list[list[int]], money: list[int], values: list[float]) -> float:
        """The rivals' worth at these share values, each weighed by ``rival_weight``."""
        v0, v1, v2, v3 = values
        weight = self.rival_weight
        # as sum() adds (from 0, in order): the same float to the last bit
        rivals = 0
        for s in self.rivals:
            row = shares_[s]
            rivals += weight[s] * (money[s] + (0 + row[0] * v0 + row[1] * v1 + row[2] * v2 + row[3] * v3))
        return rivals

    def _total(self, m: _Model, i: int, value: float, mine: int, money_me: int) -> float:
        """The score of ``m`` (scored) with company ``i``'s share value, the bot's shares of it
        and its money changed to these: a trade or a price that crashes nothing changes one
        company's value at most, and the rest is added up in ``score``'s order, to the same float."""
        values = m.vals
        shares_ = m.shares
        rivals = m.rivals
        if value != values[i]:  # type: ignore[index]
            values = list(values)  # type: ignore[arg-type]
            values[i] = value
            if self._rivals_hold[i]:
                rivals = self._rivals_worth(shares_, m.money, values)
            # else their every share of it is 0, and 0 × the value adds a zero (+0.0 or −0.0,
            # which leaves a sum begun at 0 as it was): the same float
        v0, v1, v2, v3 = values  # type: ignore[misc]
        r0, r1, r2, r3 = shares_[self.me]
        if i == 0:
            r0 = mine
        elif i == 1:
            r1 = mine
        elif i == 2:
            r2 = mine
        else:
            r3 = mine
        score = money_me + (0 + r0 * v0 + r1 * v1 + r2 * v2 + r3 * v3) - rivals
        if self.levy_risk:
            score -= 0.5 * max(0, LEVY - money_me)
        return score

    # -- the search ---------------------------------------------------------------------------------
    def best(self) -> tuple[tuple | None, float]:
        root = self.root
        base = self.score(root)
        best_move, best_value = None, base
        for move in self.moves(root, root=True):
            value = self.reach(self.scored(root, move), _company(move))
            if value > best_value + MARGIN:
                best_move, best_value = move, value
        return best_move, best_value - base

    def scored(self, m: _Model, move: tuple) -> _Model:
        """``play(m, move)``, scored, for a model ``m`` already scored: one company's value (and
        the hand's push for it) is worked out afresh and the others are ``m``'s, which
        ``values`` would find again (a trade or a price that crashes nothing changes no other)."""
        kind, card, lay = move
        after = self.play(m, move)
        if kind == "lay" and lay == 0:
            self.score(after)  # a crash: shares and leaders change
            return after
        i = _INDEX[card.suit]
        push_i = m.push[i]  # type: ignore[index]
        if kind != "sell":
            price = after.prices[i]
            if kind == "lay" or (card.rank - price >= push_i and _pushes(price, after.court[i], i)[card.rank]):
                push_i = _push(after.hand, None, i, price, after.court[i])
        push = after.push = list(m.push)  # type: ignore[arg-type]
        push[i] = push_i
        after.leaders = m.leaders
        values = list(m.vals)  # type: ignore[arg-type]
        values[i] = self.value(i, after.prices[i], push_i, after.court[i], after.shares[self.me][i],
                               after.leaders, after.shares)  # type: ignore[arg-type]
        self._tally(after, values)
        return after

    def reach(self, m: _Model, company: int | None = None) -> float:
        """The best score of ``m`` (scored) and of every position one command on from it:
        ``max(score(m), *(score(play(m, f)) for f in moves(m)))``, without building them but
        for a crash (the scores of ``_total``).

        ``company``: ``m`` is the root after a command on this company that crashes nothing.
        A command on another company then finds that company as at the root (its price, top,
        the hand's cards of it, every seat's shares of it, the leaders), so its share value
        after the command is the same from every such position: worked out once a decision
        (``_follows``, by the command)."""
        best = m.total
        known = self._follows if company is not None else None
        me = self.me
        prices, courts, pushes, leaders = m.prices, m.court, m.push, m.leaders
        shares_ = m.shares
        row = shares_[me]
        money_me = m.money[me]
        hand = m.hand
        trading = m.can(TRADE)
        buying = trading and len(m.bought) < MAX_BUYS
        laying = m.can(PRICE) and m.laid < MAX_LAYS
        value_of, total, info, later = self.value, self._total, self._info, self._later
        if buying or laying:
            for card in hand:
                i, rank, count = info[id(card)]
                # a second copy of a face is the face's only while the first is gone
                if later and id(card) in later and any(c is later[id(card)] for c in hand):
                    continue
                price, court = prices[i], courts[i]
                if buying:
                    mine = row[i] + count
                    if price and mine <= MAX_SHARES and money_me >= price * count:
                        key = 16 * id(card) + 14
                        value = known.get(key) if known is not None and i != company else None
                        if value is None:
                            push = pushes[i]  # type: ignore[index]
                            # the hand without the card: the push changes only if it was the card's
                            if rank - price >= push and _PUSHES[i + 4 * (court + 2 * price)][rank]:
                                push = _push(hand, card, i, price, court)
                            value = value_of(i, price, push, court, mine, leaders, shares_)
                            if known is not None and i != company:
                                known[key] = value
                        score = total(m, i, value, mine, money_me - price * count)
                        if score > best:
                            best = score
                if laying:
                    for lay in _LAYS[i + 4 * (court + 2 * price)][rank]:
                        if lay:
                            key = 16 * id(card) + lay
                            value = known.get(key) if known is not None and i != company else None
                            if value is None:
                                laid_court = rank >= 11
                                push = _push(hand, card, i, lay, laid_court)
                                value = value_of(i, lay, push, laid_court, row[i], leaders, shares_)
                                if known is not None and i != company:
                                    known[key] = value
                            score = total(m, i, value, row[i], money_me)
                        else:  # a crash: shares and leaders change
                            score = self.score(self.play(m, ("lay", card, 0)))
                        if score > best:
                            best = score
        if trading:
            faces: set[tuple] = set()
            allow_same_turn = self.allow_same_turn
            for card in m.certs:
                face = card.face
                if face in faces or (card in m.bought and not allow_same_turn):
                    continue
                faces.add(face)
                i, _rank, count = info[id(card)]
                price = prices[i]
                mine = row[i] - count
                key = 16 * id(card) + 15
                value = known.get(key) if known is not None and i != company else None
                if value is None:
                    value = value_of(i, price, pushes[i], courts[i], mine, leaders, shares_)  # type: ignore[index]
                    if known is not None and i != company:
                        known[key] = value
                score = total(m, i, value, mine, money_me + price * count)
                if score > best:
                    best = score
        return best

    def junk(self) -> list[Card]:
        """Hand cards that do nothing for the bot now or soon, discarded when the turn is idle;
        when every card has a use, the one it values least: an idle turn must draw a card."""
        m = self.root
        me = self.me
        keep: list[tuple[float, Card]] = []
        for card in m.hand:
            i = _INDEX[card.suit]
            price = m.prices[i]
            allowed = _range(price, m.court[i], i)
            use = 0.0
            if allowed.accepts(card, card.rank) and m.shares[me][i]:
                use = max(use, (card.rank - price) * m.shares[me][i])
            rivals_held = sum(m.shares[s][i] for s in self.rivals)
            if is_court(card) and rivals_held and allowed.accepts(card, 0):
                use = max(use, price * rivals_held)
            if is_court(card) or card.rank >= 7:
                use = max(use, 4.0)  # a strong card for later
            keep.append((use, card))
        keep.sort(key=lambda pair: (pair[0], pair[1].rank))
        return [card for use, card in keep if use < 3.0][:MAX_DISCARD] or [card for _use, card in keep[:1]]


@functools.lru_cache(maxsize=4096)  # the same few counts at every decision
def _some(unseen: int, wanted: int, drawn: int) -> float:
    """The chance that ``drawn`` cards dealt from ``unseen`` hold at least one of ``wanted``."""
    if wanted <= 0 or drawn <= 0:
        return 0.0
    none = 1.0
    for k in range(min(drawn, unseen)):
        remaining = unseen - k
        none *= max(0, remaining - wanted) / remaining
        if none <= 0:
            return 1.0
    return 1.0 - none


_RANGES: dict[tuple[int, bool, int], Any] = {}


def _range(price: int, court_on_top: bool, i: int) -> Any:
    key = (price, court_on_top, i)
    found = _RANGES.get(key)
    if found is None:
        # a stand-in top card: a court card or a number card of that price
        suit = COMPANIES[i]
        top = Card(13 if court_on_top else max(1, min(10, price)), suit)
        found = _RANGES[key] = lay_range(price, top, suit)
    return found


def _made_lays(price: int, court_on_top: bool, i: int) -> tuple[tuple[int, ...], ...]:
    """By rank, the prices a card of company ``i`` may be laid at that change its price."""
    allowed = _range(price, court_on_top, i)
    found: list[tuple[int, ...]] = [()]
    for rank in range(1, 14):
        card = Card(rank, COMPANIES[i])
        found.append(tuple(value for value in ((rank, 0) if is_court(card) else (rank,))
                           if allowed.accepts(card, value) and value != price))
    return tuple(found)


def _made_pushes(price: int, court_on_top: bool, i: int) -> tuple[bool, ...]:
    """By rank, whether a card of company ``i`` may be laid at its own number now."""
    allowed = _range(price, court_on_top, i)
    return (False, *(allowed.accepts(Card(rank, COMPANIES[i]), rank) for rank in range(1, 14)))


# _made_lays and _made_pushes of every price ($0-$13), top (a court card or not) and company, at
# ``i + 4 * (court_on_top + 2 * price)``: the planner reads them a million times a second
_LAYS = [_made_lays(price, court, i) for price in range(14) for court in (False, True) for i in range(4)]
_PUSHES = [_made_pushes(price, court, i) for price in range(14) for court in (False, True) for i in range(4)]


def _lays(price: int, court_on_top: bool, i: int) -> tuple[tuple[int, ...], ...]:
    return _LAYS[i + 4 * (court_on_top + 2 * price)]


def _pushes(price: int, court_on_top: bool, i: int) -> tuple[bool, ...]:
    return _PUSHES[i + 4 * (court_on_top + 2 * price)]


def _company(move: tuple) -> int | None:
    """The company a command of the plan changes, None for a crash (which changes the leaders)."""
    kind, card, lay = move
    return None if kind == "lay" and lay == 0 else _INDEX[card.suit]


def _push(hand: Sequence[Card], without: Card | None, i: int, price: int, court_on_top: bool) -> int:
    """How far the best card of company ``i`` in ``hand`` (but ``without``) raises its price
    laid at its own number (``values``'s push, one company)."""
    push = 0
    if price:
        suit = COMPANIES[i]
        pushes = _PUSHES[i + 4 * (court_on_top + 2 * price)]
        for card in hand:
            if card.suit is suit and card is not without:
                rise = card.rank - price
                if rise > push and pushes[card.rank]:
                    push = rise
    return push


class StockMarketBot:
    """Plans its own turn a command ahead on the public table; see the module docstring."""

    def choose(self, view: StockMarketView, legal: Sequence[Command], rng: random.Random) -> Command:
        planner = _Planner(view)
        move, gain = planner.best()
        command: Command | None = None
        if move is not None:
            kind, card, value = move
            command = {"buy": Buy(card), "sell": Sell(card), "lay": Lay(card, value)}[kind]
        elif not view.phases:
            junk = planner.junk()
            if junk:
                command = Discard(tuple(junk))
        if command is None:
            command = End()
        if command in legal:
            return command
        for candidate in legal:  # the same face as a legal command (legal lists the lowest copy)
            if type(candidate) is type(command) and _faces(candidate) == _faces(command):
                return candidate
        return End() if End() in legal else rng.choice(list(legal))


def _faces(command: Command) -> tuple:
    if isinstance(command, (Buy, Sell)):
        return (command.card.face,)
    if isinstance(command, Lay):
        return (command.card.face, command.price)
    if isinstance(command, Discard):
        return tuple(card.face for card in command.cards)
    return ()
