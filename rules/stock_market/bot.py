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
from .rules import lay_range, worth
from .state import (
    COMPANIES, LEVY, LIMITS, MAX_BUYS, MAX_DISCARD, MAX_LAYS, MAX_SHARES, PRICE,
    SELL_SAME_TURN, TRADE, StockMarketView, is_court, shares,
)

_INDEX = {suit: i for i, suit in enumerate(COMPANIES)}
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
                 "leaders", "vals", "rivals")

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
        # set by ``score``: the share values and the rivals' weighted worth, which ``follow``
        # starts from to score a position one command on without building it
        self.vals: list[float] | None = None
        self.rivals = 0.0

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
        seen_courts = [0] * 4
        seen_numbers = [0] * 4
        visible = list(view.hand) + list(view.discard)
        visible += [c for held in view.holdings for c in held]
        visible += [c for company in view.companies for c in company.pile]
        for card in visible:
            if card.suit is None:
                continue
            if is_court(card):
                seen_courts[_INDEX[card.suit]] += 1
            else:
                seen_numbers[_INDEX[card.suit]] += 1
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
        worths = {s: worth(view, s) for s in self.rivals}
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
            hand = tuple(c for c in m.hand if c is not card)
            return _Model(m.prices, m.court, hand, m.certs + (card,), shares_, money,
                          m.entered(TRADE), m.bought + (card,), m.laid, None, m.leaders)
        if kind == "sell":
            shares_ = [list(row) for row in m.shares]
            shares_[me][i] -= shares(card)
            money[me] += price * shares(card)
            certs = tuple(c for c in m.certs if c is not card)
            return _Model(m.prices, m.court, m.hand, certs, shares_, money, m.entered(TRADE),
                          m.bought, m.laid, m.push, m.leaders)
        prices = list(m.prices)
        court = list(m.court)
        prices[i] = value
        court[i] = is_court(card)
        hand = tuple(c for c in m.hand if c is not card)
        shares_ = m.shares
        certs = m.certs
        leaders = m.leaders
        if value == 0:
            leaders = None
            shares_ = [list(row) for row in m.shares]
            for row in shares_:
                row[i] = 0
            certs = tuple(c for c in m.certs if c.suit is not card.suit)
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
        values = m.vals = self.values(m)
        v0, v1, v2, v3 = values
        weight = self.rival_weight
        shares_, money = m.shares, m.money
        # as sum() adds (from 0, in order): the same float to the last bit
        rivals = 0
        for s in self.rivals:
            row = shares_[s]
            rivals += weight[s] * (money[s] + (0 + row[0] * v0 + row[1] * v1 + row[2] * v2 + row[3] * v3))
        m.rivals = rivals
        row = shares_[self.me]
        score = money[self.me] + (0 + row[0] * v0 + row[1] * v1 + row[2] * v2 + row[3] * v3) - rivals
        if self.levy_risk:
            score -= 0.5 * max(0, LEVY - money[self.me])
        return score

    def follow(self, m: _Model, move: tuple) -> float:
        """``score(play(m, move))`` for a model ``m`` already scored, without building the
        position: a trade or a price that crashes nothing changes one company's value at most,
        and the rest is added up in ``score``'s order, to the same float."""
        kind, card, lay = move
        if kind == "lay" and lay == 0:
            return self.score(self.play(m, move))  # a crash: shares and leaders change
        me = self.me
        i = _INDEX[card.suit]
        values = m.vals
        assert values is not None and m.push is not None and m.leaders is not None
        shares_, money = m.shares, m.money
        mine = shares_[me][i]
        money_me = money[me]
        price = m.prices[i]
        court = m.court[i]
        push = m.push[i]
        if kind == "sell":
            count = shares(card)
            mine -= count
            money_me += price * count
        else:
            if kind == "buy":
                count = shares(card)
                mine += count
                money_me -= price * count
                # the same prices: the push is the hand's but for a card below it
                recount = card.rank - price >= push and _pushes(price, court, i)[card.rank]
            else:
                price, court = lay, is_court(card)
                recount = True
            # the hand without the card: only its company's push can change
            if recount:
                push = 0
            if recount and price:
                suit = card.suit
                pushes = _pushes(price, court, i)
                for other in m.hand:
                    if other.suit is suit and other is not card:
                        rise = other.rank - price
                        if rise > push and pushes[other.rank]:
                            push = rise
        value = self.value(i, price, push, court, mine, m.leaders, shares_)
        rivals = m.rivals
        if value != values[i]:
            values = list(values)
            values[i] = value
            v0, v1, v2, v3 = values
            weight = self.rival_weight
            rivals = 0
            for s in self.rivals:
                row = shares_[s]
                rivals += weight[s] * (money[s] + (0 + row[0] * v0 + row[1] * v1 + row[2] * v2 + row[3] * v3))
        v0, v1, v2, v3 = values
        r0, r1, r2, r3 = shares_[me]
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
            after = self.play(root, move)
            value = self.score(after)
            for follow in self.moves(after):
                value = max(value, self.follow(after, follow))
            if value > best_value + MARGIN:
                best_move, best_value = move, value
        return best_move, best_value - base

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


_LAYS: dict[tuple[int, bool, int], tuple[tuple[int, ...], ...]] = {}
_PUSHES: dict[tuple[int, bool, int], tuple[bool, ...]] = {}


def _lays(price: int, court_on_top: bool, i: int) -> tuple[tuple[int, ...], ...]:
    """By rank, the prices a card of company ``i`` may be laid at that change its price."""
    key = (price, court_on_top, i)
    found = _LAYS.get(key)
    if found is None:
        allowed = _range(price, court_on_top, i)
        found = [()]
        for rank in range(1, 14):
            card = Card(rank, COMPANIES[i])
            found.append(tuple(value for value in ((rank, 0) if is_court(card) else (rank,))
                               if allowed.accepts(card, value) and value != price))
        found = _LAYS[key] = tuple(found)
    return found


def _pushes(price: int, court_on_top: bool, i: int) -> tuple[bool, ...]:
    """By rank, whether a card of company ``i`` may be laid at its own number now."""
    key = (price, court_on_top, i)
    found = _PUSHES.get(key)
    if found is None:
        allowed = _range(price, court_on_top, i)
        found = _PUSHES[key] = (False, *(allowed.accepts(Card(rank, COMPANIES[i]), rank) for rank in range(1, 14)))
    return found


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
