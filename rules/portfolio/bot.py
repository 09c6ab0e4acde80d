"""Portfolio's bot: a greedy player that reasons only on its own view, one command at a time.

It prices everything in dollars over the income collections still to come ("horizon"): a
portfolio worth $V to a seat with h collections left is worth about V·h to it. With that it
sizes its draws, takes over or throws away rivals' portfolios when that pays, answers offers,
and discards the card least useful to itself and most harmless in the next player's hands.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Iterable, Sequence

from rules.core import ACE, KING, Card, Command, build_deck

from .commands import (
    Accept, Acquire, Cap, Decline, Discard, Draw, End, Extend, Make, Neutralise, Pauper,
)
from .estimate import collection_counts
from .rules import (
    acquirers, cap_faces, card_value, draw_cost, extension, neutraliser, portfolio_value, sequences_in,
)
from .state import DRAW, HIGH, LOW, RESPOND, PortfolioInfo, PortfolioView

TOP_RIVAL, OTHER_RIVAL = 1.0, 0.4  # how much hurting a rival is worth, by their standing
GAIN_MARGIN = 1.0  # an action must gain this many dollars (over the horizon) to be taken
TABLES_KEPT = 256  # readings of a table a bot keeps (PortfolioBot.tables), at most (see INFOS_KEPT)
_QUARTER_VALUE = {card.rank: card_value(card) * 0.25 for card in build_deck()}  # by rank (no jokers here)


def horizons(view: PortfolioView) -> list[int]:
    """For each seat, how many more times it will collect income (coming turns + the final)."""
    return list(_horizons(view))


def _horizons(view: PortfolioView) -> tuple[int, ...]:
    # horizons as the estimate's cache keeps them (a decision only reads them, and the expert's
    # playouts decide at every command)
    return collection_counts(len(view.money), view.current, view.dealer, view.last_round,
                             view.stock_size + (view.discard_size if view.reshuffle_pending else 0))


class PortfolioBot:
    """Sizes draws by income and time left, builds and extends runs, caps exposed portfolios,
    acquires or neutralises when it pays, values deals, and discards defensively."""

    chooses_listed = True  # (choose falls back on a legal command)

    def __init__(self) -> None:
        # readings of the table (_Table) by seat, count of seats and portfolios: the
        # expert's playouts ask the bot again and again about tables it has read (the rules
        # hand out one PortfolioInfo for a portfolio while it is unchanged, so the key is their
        # ids, and the entry keeps them alive: an id cannot be reused while it is a key)
        self.tables: dict[tuple, tuple] = {}

    def choose(self, view: PortfolioView, legal: Sequence[Command], rng: random.Random) -> Command:
        plan = _Plan(view, view.seat, self.tables)
        if view.phase == RESPOND:
            command = plan.answer()
        elif view.phase == DRAW:
            command = plan.draw()
        else:
            command = plan.act()
        if command not in legal:
            # every command the plan makes is of a kind legal() lists in full (offers are never
            # made), so one not there is a misjudged detail: any legal command keeps play going
            command = rng.choice(legal)
        return command


class _Plan:
    """One decision: the bot's reading of its view."""

    def __init__(self, view: PortfolioView, seat: int, tables: dict[tuple, tuple] | None = None) -> None:
        self.view = view
        self.seat = seat
        self.hand = list(view.hand)
        self.faces = _by_face(self.hand)  # the hand by face (a new hand gets its own: see playable)
        self.money = view.money[seat]
        self.horizon = _horizons(view)
        self.top_rival: int | None = None  # the rival with the most money and income to come
        n = len(view.money)
        # the reading of the table depends on the portfolios alone (and the seat and the count
        # of seats): one read before serves
        if tables is None:
            table = _Table(view.portfolios, seat, n)
        else:
            key = (seat, n, *map(id, view.portfolios))
            known = tables.get(key)
            if known is None:
                table = _Table(view.portfolios, seat, n)
                if len(tables) >= TABLES_KEPT:
                    tables.clear()
                tables[key] = (view.portfolios, table)  # (the portfolios kept alive with their ids)
            else:
                table = known[1]
        self.table = table
        self.table_use, self.table_danger = table.use, table.danger

    def weight(self, rival: int) -> float:
        top = self.top_rival
        if top is None:  # worked out when first asked (only attacks and answers ask)
            view, horizon = self.view, self.horizon
            n = len(view.money)
            strength = [view.money[s] + view.income[s] * horizon[s] for s in range(n)]
            rivals = [s for s in range(n) if s != self.seat]
            top = self.top_rival = max(rivals, key=lambda s: strength[s])
        return TOP_RIVAL if rival == top else OTHER_RIVAL

    # -- how useful a card is ----------------------------------------------------------------
    def use(self, card: Card, hand: Sequence[Card] | None = None) -> float:
        """What ``card`` is worth to the bot, in rough dollars, next to the rest of ``hand``."""
        return _use(card, self.faces if hand is None else _by_face(hand), self.table_use)

    def holding(self, faces: Iterable[Card]) -> Card | None:
        """The first card in the hand (in sort order, so the lowest copy) of the first face held."""
        by_face = self.faces
        for face in faces:
            cards = by_face.get(face.face)
            if cards:
                return cards[0]
        return None

    def danger(self, card: Card) -> float:
        """What the card would do for the next player, who sees it on the discard pile first:
        attack one of the bot's portfolios, or extend one of theirs."""
        return self.table_danger.get(card.face, 0.0)

    # -- the draw ------------------------------------------------------------------------------
    def draw(self) -> Command:
        view = self.view
        top = view.discard_top
        take = top is not None and self.use(top, self.hand + [top]) >= 3.0
        if view.pauper:
            return Pauper(take)
        # the k-th card costs $k more; a card is worth more while there is time to use it
        worth = min(5.0, 1.0 + 0.35 * self.horizon[self.seat])
        count = 1
        while count + 1 <= worth and draw_cost(count + 1) <= view.turn_income:
            count += 1
        if count == 1 and take and not self.playable(top):
            # a lone draw from the discard pile leaves the stock as it was: two players passing
            # cards back and forth so would never end the game (the expert and this bot did), so
            # a lone draw takes the discard top only to play it this turn
            take = False
        return Draw(count, take)

    def playable(self, card: Card) -> bool:
        """Whether the bot, with ``card`` in hand, would play it at once and so take it off the
        discard pile for good: the first command of its act phase lays it on the table. (Not an
        Ace acquiring a King: that Ace is discarded at once. Two bots passed such an Ace, and a
        King they would not cap, back and forth for ever: seeds 200 and 241.)"""
        plan = copy.copy(self)
        plan.hand = self.hand + [card]
        plan.faces = _by_face(plan.hand)
        command = plan.act()
        if isinstance(command, Acquire) and command.card.rank == ACE:
            return False
        if isinstance(command, Make):
            return card.face in {c.face for c in command.cards}
        played = getattr(command, "card", None)
        return not isinstance(command, Discard) and played is not None and played.face == card.face

    # -- the act phase -------------------------------------------------------------------------
    def act(self) -> Command:
        for step in (self.attack, self.extend, self.make, self.cap):
            command = step()
            if command is not None:
                return command
        return self.finish()

    def attack(self) -> Command | None:
        best: tuple[float, Command] | None = None
        mine = self.horizon[self.seat]
        for p, low, acquiring in self.table.rivals:
            hurt = None  # (worked out for a portfolio the bot can attack: most it cannot)
            card = self.holding(low)
            if card is not None and self.money >= p.value:
                hurt = self.weight(p.owner) * p.value * self.horizon[p.owner]
                gain = hurt - p.value - 0.5 * self.use(card)
                best = _better(best, gain, Neutralise(p.pid, card))
            card = self.holding(acquiring)
            if card is not None and self.money >= 2 * p.value:
                if hurt is None:
                    hurt = self.weight(p.owner) * p.value * self.horizon[p.owner]
                on_king = p.cards[-1].rank == KING
                after = p.value if on_king else portfolio_value([*p.cards, card])
                gain = hurt + after * mine - 2 * p.value
                best = _better(best, gain, Acquire(p.pid, card))
        return best[1] if best else None

    def extend(self) -> Command | None:
        for p, ends in self.table.extensions:
            for faces in ends:
                card = self.holding(faces)
                if card is not None:
                    return Extend(p.pid, card)
        return None

    def make(self) -> Command | None:
        # the longest run of the hand (of runs_in), the most valuable of those, the first of
        # those tied: a longest run is a whole maximal sequence, so only those are weighed
        faces = self.faces
        for rank, suit in faces:  # (a loop, not any() of a generator: the bot acts at every turn)
            if (rank + 1, suit) in faces and (rank + 2, suit) in faces:
                break
        else:
            return None  # no three in sequence (most hands, most turns)
        sequences = sequences_in(self.hand)
        return Make(tuple(max(sequences, key=lambda run: (len(run), portfolio_value(run)))))

    def cap(self) -> Command | None:
        mine = self.horizon[self.seat]
        for p, caps in self.table.caps:
            if p.value * mine < 8:
                continue
            for end, faces in caps:
                card = self.holding(faces)
                # capping closes the end: only worth it for a card with little other use
                if card is not None and self.use(card) - (1 + 0.3 * p.value) < 3.0:
                    return Cap(p.pid, end, card)
        return None

    def finish(self) -> Command:
        if not self.hand:
            return End()
        taken = self.view.taken_discard
        allowed = (self.hand if taken is None  # (no card to compare with the whole hand)
                   else [c for c in self.hand if c != taken or len(self.hand) == 1])
        # the card of least use and danger, the lowest in sort order of those tied (in a loop,
        # not min() with a key: the bot discards at every turn of the expert's playouts)
        by_face, table_use, danger = self.faces, self.table_use, self.table_danger
        best, least, lowest = None, 0.0, None
        for card in allowed:
            score = _use(card, by_face, table_use) + danger.get(card.face, 0.0)
            if best is None or score < least or (score == least and card._sort < lowest):
                best, least, lowest = card, score, card._sort
        return Discard(best)

    # -- answering an offer ----------------------------------------------------------------------
    def answer(self) -> Command:
        offer = self.view.offer
        if offer is None or offer.take.money > self.money:
            return Decline()
        mine, theirs = self.horizon[self.seat], self.horizon[offer.proposer]
        values = {p.pid: p.value for p in self.view.portfolios}
        weight = self.weight(offer.proposer)
        # what the bot receives (the proposer's "give") and hands over (the proposer's "take")
        worth = {pid: value * (mine + weight * theirs) for pid, value in values.items()}
        gets = offer.give.money + sum(worth.get(pid, 0) for pid in offer.give.holdings)
        gets += sum(0.5 * self.use(card, self.hand + [card]) for card in offer.give.cards)
        loses = offer.take.money + sum(worth.get(pid, 0) for pid in offer.take.holdings)
        taken: list[Card] = []
        for wanted in offer.take.cards:
            card = _holding([c for c in self.hand if c not in taken], [wanted])
            if card is None:
                return Decline()
            taken.append(card)
            loses += 0.5 * self.use(card) + weight * 2
        return Accept() if gets - loses >= GAIN_MARGIN else Decline()

class _Table:
    """The bot's reading of the portfolios from one seat (of ``n``), which no hand changes:
    what a face is worth on the table (``use``), how much it would hurt in the next player's
    hands (``danger``), and per portfolio the faces that attack, extend or cap it. Shared by
    the decisions that face the same portfolios, so never changed once read."""

    __slots__ = ("use", "danger", "rivals", "extensions", "caps")

    def __init__(self, portfolios: Sequence[PortfolioInfo], seat: int, n: int) -> None:
        use: dict[tuple, float] = {}
        danger: dict[tuple, float] = {}
        nxt = (seat + 1) % n
        readings = [_reading(p, OWN if p.owner == seat else NEXT if p.owner == nxt else OTHER) for p in portfolios]
        for reading in readings:  # (added up portfolio by portfolio, face by face, as ever)
            for face, worth in reading[0]:
                use[face] = use.get(face, 0.0) + worth
            for face, worth in reading[1]:
                danger[face] = danger.get(face, 0.0) + worth
        self.use, self.danger = use, danger
        # the rivals' portfolios with the faces that neutralise and acquire them
        self.rivals = [reading[2] for reading in readings if reading[2] is not None]
        own = [reading[3] for reading in readings if reading[3] is not None]
        # the bot's own with the faces that extend them, high end first
        self.extensions = [(p, ends) for p, ends, _caps in own]
        # and the most valuable first, with the faces that cap each end, high end first
        self.caps = [(p, caps) for p, _ends, caps in sorted(own, key=lambda entry: -entry[0].value)]


OWN, NEXT, OTHER = range(3)  # whose a portfolio is, to the seat reading the table: its own, the next seat's, another's
READINGS_KEPT = 512  # readings of one portfolio kept (_READINGS), at most (see rules.INFOS_KEPT)
_READINGS: dict[tuple[int, int], tuple] = {}


def _reading(p: PortfolioInfo, whose: int) -> tuple:
    """What one portfolio adds to a _Table read by a seat to which it is ``whose``: the worth
    it adds to faces' use and danger, in the order they are added up, its entry in the
    rivals' list, and for the seat's own the faces that extend and cap each end (None where it
    has none). Kept by the portfolio's
    view (PortfolioInfo, unchanged while the portfolio is: the rules keep one while it is),
    which the entry keeps alive with its id."""
    key = (id(p), whose)
    kept = _READINGS.get(key)
    if kept is not None:
        return kept[1]
    ends = [f for end in (LOW, HIGH) if (f := extension(p, end))]
    low = neutraliser(p)
    if whose == OWN:
        caps = [f for end in (LOW, HIGH) for f in cap_faces(p, end)]
        use = [(f.face, 6 + card_value(f)) for f in ends] + [(f.face, 1 + 0.3 * p.value) for f in caps]
        danger = [(f.face, 4 + p.value) for f in ([low] if low else []) + list(acquirers(p))]
        rival = None
        own = (p, [[face] if (face := extension(p, end)) else [] for end in (HIGH, LOW)],
               [(end, cap_faces(p, end)) for end in (HIGH, LOW)])
    else:
        use = [(f.face, 1 + 0.3 * p.value) for f in ([low] if low else [])]
        use += [(f.face, 2 + 0.5 * p.value) for f in acquirers(p)]
        danger = [(f.face, 3 + card_value(f)) for f in ends] if whose == NEXT else []
        rival = (p, [low] if low else [], acquirers(p))
        own = None
    reading = (use, danger, rival, own)
    if len(_READINGS) >= READINGS_KEPT:
        _READINGS.clear()
    _READINGS[key] = (p, reading)
    return reading


def _use(card: Card, by_face: dict[tuple, list[Card]], table_use: dict[tuple, float]) -> float:
    """_Plan.use: what ``card`` is worth next to the hand ``by_face``, on a table whose
    faces are worth ``table_use``."""
    face = card.face
    score = _QUARTER_VALUE[card.rank] + table_use.get(face, 0.0)
    for other in by_face.get(face, ()):
        if other is not card:
            score -= 1.0  # a second copy of a face adds little
            break
    # (the bot discards by this at every turn: the neighbours are asked without loops, in the
    # order that adds them up the same)
    rank, suit = face
    if (rank - 1, suit) in by_face:
        score += 3.0
    if (rank + 1, suit) in by_face:
        score += 3.0
    if (rank - 2, suit) in by_face:
        score += 1.5
    if (rank + 2, suit) in by_face:
        score += 1.5
    return score


def _by_face(hand: Iterable[Card]) -> dict[tuple, list[Card]]:
    """The cards of ``hand`` by face, in its order."""
    faces: dict[tuple, list[Card]] = {}
    for card in hand:
        faces.setdefault(card.face, []).append(card)
    return faces


def _holding(hand: Iterable[Card], faces: Iterable[Card]) -> Card | None:
    """The first card in ``hand`` (in sort order, so the lowest copy) of the first face held."""
    for face in faces:
        for card in hand:
            if card.same_face(face):
                return card
    return None


def _better(best: tuple[float, Command] | None, gain: float, command: Command
            ) -> tuple[float, Command] | None:
    if gain < GAIN_MARGIN or (best is not None and best[0] >= gain):
        return best
    return (gain, command)


class GreedyBot:
    """The yardstick: draws as few cards as it may, makes a portfolio or extends one whenever it
    can, never caps, neutralises, acquires or trades, and discards its lowest card."""

    def choose(self, view: PortfolioView, legal: Sequence[Command], rng: random.Random) -> Command:
        draws = [command for command in legal if isinstance(command, (Draw, Pauper))]
        if draws:
            return min(draws, key=lambda command: (getattr(command, "count", 2), command.discard))
        for kind in (Make, Extend):
            found = [command for command in legal if isinstance(command, kind)]
            if found:
                return found[0]
        if Decline() in legal:
            return Decline()
        discards = [command for command in legal if isinstance(command, Discard)]
        if discards:
            return min(discards, key=lambda command: command.card.rank)
        ends = [command for command in legal if isinstance(command, End)]
        return ends[0] if ends else legal[0]
