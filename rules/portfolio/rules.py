"""Portfolio (Larry Levy, Al Dunn, Bill Moore): setup, legal commands, checks, effects, views
and the result. seeds/portfolio.md gives the rules as implemented and the rulings applied.

A turn: income is collected (what the player does not spend on extra cards stays banked), the
player draws, then acts in any order and number — make, extend, cap, neutralise, acquire, and at
most one offer of a deal — and ends the turn with a discard (or ``end`` with an empty hand).
"""

from __future__ import annotations

from functools import lru_cache, partial
from operator import attrgetter
from typing import Any, Iterable, Iterator, Mapping, Sequence

import random

from rules.core import (
    ACE, KING, SUITS, Card, IllegalCommand, Outcome, RulesError, Suit, build_deck, check_awaited,
    check_setup, find_card, sort_cards,
)
from rules.core.jsonio import (
    card_keys, read_bool, read_card, read_card_or_none, read_cards, read_int, read_list, read_object,
    read_str, require,
)
from rules.core.known import forget, read_known, show
from rules.core.engine import made_with
from rules.core.listing import Deferred, Listing, MadeWhenRead
from rules.core.offers import Deal, DealDeclined, DealDone, Offered, Side, responder_of
from rules.core.piles import shuffled
from rules.core.words import Sentence, dollars, player, say, winners_sentence

from .commands import (
    Accept, Acquire, Cap, Command, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer,
    Pauper,
)
from .events import (
    Acquired, Capped, Discarded, Drew, Event, Extended, FinalIncome, GameOver, HandEmptied, Made,
    Neutralised, StockFinished, StockReshuffled, TurnStarted,
)
from .estimate import estimate
from .notation import PortfolioNotation
from .state import (
    ACT, DRAW, HIGH, LOW, OVER, RESPOND, Portfolio, PortfolioInfo, PortfolioState, PortfolioView,
    status_sentence,
)
from .values import portfolio_value

START_MONEY = 6
HAND_SIZE = 13
MIN_RUN = 3


# -- values ----------------------------------------------------------------------------------
def card_value(card: Card) -> int:
    """A card's worth inside a portfolio: A–6 $2, 7–10 $3, J–K $4."""
    return 2 if card.rank <= 6 else 3 if card.rank <= 10 else 4


def draw_cost(n: int) -> int:
    """The price of drawing ``n`` cards in one turn: 2+3+…+n (the first card is free)."""
    return n * (n + 1) // 2 - 1 if n > 1 else 0


@lru_cache(maxsize=256)  # a few incomes, asked at every view of a draw
def _draw_costs(income: int) -> tuple[int, ...]:
    """The cost of drawing 1, 2, … cards, as many as ``income`` pays for."""
    return tuple(draw_cost(k) for k in range(1, max_draw(income) + 1))


@lru_cache(maxsize=256)  # a few incomes, asked at every draw
def max_draw(income: int) -> int:
    """The most cards this turn's income pays for (at least one: the first card is free)."""
    n = 1
    while draw_cost(n + 1) <= income:
        n += 1
    return n


def income(table: Any, seat: int) -> int:
    """The income ``seat`` collects at the start of their next turn, from a state or a view."""
    return sum(portfolio_value(p.cards) for p in table.portfolios if p.owner == seat)


@lru_cache(maxsize=None)
def _face(rank: int, suit: Suit) -> Card:
    """A face as a (copy 0) card; there are only 52, so they are made once."""
    return Card(rank, suit)


# the suits of each suit's colour, its own first (enum iteration is slow in hot loops)
_SAME_COLOUR = {suit: (suit, *(s for s in SUITS if s is not suit and s.colour is suit.colour))
                for suit in SUITS}


# each face's neighbours and caps, looked up rather than built (bots ask in every decision)
_BELOW = {(r, s): _face(r - 1, s) for s in SUITS for r in range(ACE + 1, KING + 1)}
_ABOVE = {(r, s): _face(r + 1, s) for s in SUITS for r in range(ACE, KING)}
_CAPS = {(r, s): tuple(_face(r, other) for other in _SAME_COLOUR[s]) for s in SUITS for r in range(ACE, KING + 1)}


def _end_card(portfolio: Any, end: str) -> Card:
    return portfolio.cards[0] if end == LOW else portfolio.cards[-1]


def _cap_on(portfolio: Any, end: str) -> Card | None:
    return portfolio.low_cap if end == LOW else portfolio.high_cap


# The helpers below take a Portfolio (state) or a PortfolioInfo (view): bots reason on views.
def extension(portfolio: Any, end: str) -> Card | None:
    """The face that extends ``end`` of a portfolio, None when that end is capped or closed."""
    if end == LOW:
        return None if portfolio.low_cap is not None else _BELOW.get(portfolio.cards[0].face)
    return None if portfolio.high_cap is not None else _ABOVE.get(portfolio.cards[-1].face)


def neutraliser(portfolio: Any) -> Card | None:
    """The face that neutralises a portfolio (the next card below an uncapped low end)."""
    return extension(portfolio, LOW)


def acquirers(portfolio: Any) -> tuple[Card, ...]:
    """The faces that acquire a portfolio: the next card above an uncapped high end, or either
    Ace of the portfolio's colour on an uncapped King (its own suit first)."""
    if portfolio.high_cap is not None:
        return ()
    high = portfolio.cards[-1]
    if high.rank == KING:
        return tuple(_face(ACE, suit) for suit in _SAME_COLOUR[high.suit])
    return (_face(high.rank + 1, high.suit),)


def cap_faces(portfolio: Any, end: str) -> tuple[Card, ...]:
    """The faces that cap ``end``: the end card's rank in either suit of its colour (own first)."""
    card = _end_card(portfolio, end)
    if _cap_on(portfolio, end) is not None or (end == LOW and card.rank == ACE):
        return ()
    return _CAPS[card.face]


def runs_in(hand: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every run of three or more that the hand can lay down (lowest copy of each face), by suit
    then start then length: the sub-runs of each maximal same-suit sequence."""
    return _runs(_lowest(hand))


def sequences_in(hand: Iterable[Card]) -> list[list[Card]]:
    """The hand's maximal same-suit sequences of three or more (lowest copy of each face), by
    suit then rank: the longest runs of ``runs_in``, each the longest of those it holds."""
    return _sequences(_lowest(hand))


def _lowest(cards: Iterable[Card]) -> dict[tuple[int, Suit], Card]:
    """The lowest copy of each face among ``cards``, by face, in sort order."""
    lowest: dict[tuple[int, Suit], Card] = {}
    for card in sort_cards(cards):
        lowest.setdefault(card.face, card)
    return lowest


def _runs(lowest: dict[tuple[int, Suit], Card]) -> list[tuple[Card, ...]]:
    """``runs_in`` a hand whose lowest copy of each face is ``lowest``, in sort order (by suit,
    then rank)."""
    return [run for sequence in _sequences(lowest) for run in _sub_runs(sequence)]


def _sequences(lowest: dict[tuple[int, Suit], Card]) -> list[list[Card]]:
    """``sequences_in`` a hand whose lowest copy of each face is ``lowest``, in sort order:
    read in one pass."""
    sequences: list[list[Card]] = []
    segment: list[Card] = []
    rank, suit = -2, None  # the last card's: no card follows this
    for card in lowest.values():
        if card.rank != rank + 1 or card.suit is not suit:
            if len(segment) >= MIN_RUN:  # (most sequences are a card or two)
                sequences.append(segment)
            segment = []
        segment.append(card)
        rank, suit = card.rank, card.suit
    if len(segment) >= MIN_RUN:
        sequences.append(segment)
    return sequences


def _sub_runs(sequence: list[Card]) -> list[tuple[Card, ...]]:
    """Every run of three or more in one sequence, by start then length."""
    return [tuple(sequence[start:stop]) for start in range(len(sequence))
            for stop in range(start + MIN_RUN, len(sequence) + 1)]


def _named(portfolio: Portfolio) -> Sentence:
    return say("{} ({}–{})", portfolio.pid, portfolio.low, portfolio.high)


def _faces(cards: Sequence[Card]) -> Sentence:
    return Sentence(" or ").join(cards)


# -- checks shared by check(), legal() and playable() -----------------------------------------
def _need_cards(state: PortfolioState, seat: int, cards: Sequence[Card]) -> None:
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise IllegalCommand(say("{} is named twice.", card))
        _need_card(state, seat, card)


def _need_card(state: PortfolioState, seat: int, card: Card) -> None:
    if card not in state.hands[seat]:
        raise IllegalCommand(say("You have no {} in your hand.", card))


def _portfolio(state: PortfolioState, pid: str) -> Portfolio:
    portfolio = state.find(pid)
    if portfolio is None:
        raise IllegalCommand(f"There is no portfolio {pid} on the table.")
    return portfolio


def _own(state: PortfolioState, seat: int, pid: str, doing: str) -> Portfolio:
    portfolio = _portfolio(state, pid)
    if portfolio.owner != seat:
        raise IllegalCommand(say("{} belongs to {}; you can only {} your own portfolios.", pid,
                                 player(state.names, portfolio.owner), doing))
    return portfolio


def _theirs(state: PortfolioState, seat: int, pid: str, doing: str) -> Portfolio:
    portfolio = _portfolio(state, pid)
    if portfolio.owner == seat:
        raise IllegalCommand(f"{pid} is your own portfolio; you can only {doing} an opponent's.")
    return portfolio


def validate_make(state: PortfolioState, seat: int, cards: Sequence[Card]) -> None:
    _need_cards(state, seat, cards)
    if len(cards) < MIN_RUN:
        raise IllegalCommand("A portfolio needs at least three cards of one suit in sequence.")
    if len({card.suit for card in cards}) != 1:
        raise IllegalCommand("All the cards of a portfolio must be of the same suit.")
    ranks = sorted(card.rank for card in cards)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        shown = Sentence(" ").join(sorted(cards, key=lambda c: c.rank))
        raise IllegalCommand(say("{} is not a sequence (Ace is low and there is no wrapping round).", shown))


def validate_extend(state: PortfolioState, seat: int, pid: str, card: Card) -> str:
    """The end the card goes to."""
    portfolio = _own(state, seat, pid, "extend")
    _need_card(state, seat, card)
    for end in (LOW, HIGH):
        face = extension(portfolio, end)
        if face is not None and card.same_face(face):
            return end
        closed = portfolio.cap(end) is not None
        next_rank = portfolio.low.rank - 1 if end == LOW else portfolio.high.rank + 1
        if closed and card.suit is portfolio.low.suit and card.rank == next_rank:
            raise IllegalCommand(f"The {end} end of {pid} is capped; it cannot be extended there.")
    wanted = [face for end in (LOW, HIGH) if (face := extension(portfolio, end)) is not None]
    if not wanted:
        raise IllegalCommand(say("{} cannot be extended any further.", _named(portfolio)))
    raise IllegalCommand(say("{} does not fit {}; it takes {}.", card, _named(portfolio), _faces(wanted)))


def validate_cap(state: PortfolioState, seat: int, pid: str, end: str, card: Card) -> None:
    portfolio = _own(state, seat, pid, "cap")
    if end not in (LOW, HIGH):
        raise IllegalCommand("A portfolio is capped at its low end or its high end.")
    if portfolio.cap(end) is not None:
        raise IllegalCommand(f"The {end} end of {pid} is already capped.")
    end_card = portfolio.low if end == LOW else portfolio.high
    if end == LOW and end_card.rank == ACE:
        raise IllegalCommand("An Ace low end cannot be neutralised; it needs no cap.")
    _need_card(state, seat, card)
    faces = cap_faces(portfolio, end)
    if card.face not in map(_FACE, faces):
        raise IllegalCommand(say("A cap must have the rank and colour of the end card {}: {}, not {}.",
                                 end_card, _faces(faces), card))


def validate_neutralise(state: PortfolioState, seat: int, pid: str, card: Card) -> tuple[Portfolio, int]:
    """The portfolio and the cost."""
    portfolio = _theirs(state, seat, pid, "neutralise")
    if portfolio.low_cap is not None:
        raise IllegalCommand(f"The low end of {pid} is capped, so it cannot be neutralised.")
    face = neutraliser(portfolio)
    if face is None:
        raise IllegalCommand(f"{pid} starts with an Ace; nothing goes below it, so it cannot be neutralised.")
    _need_card(state, seat, card)
    if not card.same_face(face):
        raise IllegalCommand(say("Only {} neutralises {}, not {}.", face, _named(portfolio), card))
    cost = portfolio_value(portfolio.cards)
    if state.money[seat] < cost:
        raise IllegalCommand(say("You need {} to neutralise {}; you have {}.", dollars(cost), pid,
                                 dollars(state.money[seat])))
    return portfolio, cost


def validate_acquire(state: PortfolioState, seat: int, pid: str, card: Card) -> tuple[Portfolio, int]:
    """The portfolio and the cost."""
    portfolio = _theirs(state, seat, pid, "acquire")
    if portfolio.high_cap is not None:
        raise IllegalCommand(f"The high end of {pid} is capped, so it cannot be acquired.")
    faces = acquirers(portfolio)
    _need_card(state, seat, card)
    if card.face not in map(_FACE, faces):
        raise IllegalCommand(say("Only {} acquires {}, not {}.", _faces(faces), _named(portfolio), card))
    cost = 2 * portfolio_value(portfolio.cards)
    if state.money[seat] < cost:
        raise IllegalCommand(say("You need {} to acquire {}; you have {}.", dollars(cost), pid,
                                 dollars(state.money[seat])))
    return portfolio, cost


def _side(state: PortfolioState, seat: int, side: Side, you: bool, money: bool = True) -> None:
    """The public part of one side of a deal, ``seat``'s (``you``: the player asking): its
    portfolios and (unless told not to) money."""
    def whose() -> Sentence:  # only a refusal names the player
        return Sentence("you") if you else player(state.names, seat)

    for i, pid in enumerate(side.holdings):
        if pid in side.holdings[:i]:
            raise IllegalCommand(f"{pid} is named twice.")
        if _portfolio(state, pid).owner != seat:
            raise IllegalCommand(say("{} does not belong to {}.", pid, whose()))
    if side.money < 0:
        raise IllegalCommand("Money in a deal cannot be negative.")
    if money and side.money > state.money[seat]:
        raise IllegalCommand(say("{} {} only {}, not {}.", "You" if you else whose(), "have" if you else "has",
                                 dollars(state.money[seat]), dollars(side.money)))


def validate_offer(state: PortfolioState, seat: int, offer: Offer) -> int:
    """The responder's seat. The responder's hand is hidden, so only their public side is checked."""
    if state.offered:
        raise IllegalCommand("You have already made an offer this turn; one offer per turn.")
    responder = responder_of(offer, seat, state.players)
    if offer.give.empty and offer.take.empty:
        raise IllegalCommand("An offer must give or take something.")
    _need_cards(state, seat, offer.give.cards)
    _side(state, seat, offer.give, you=True)
    _side(state, responder, offer.take, you=False)
    return responder


def resolve_take(state: PortfolioState, offer: Deal) -> list[Card]:
    """The responder's physical cards for the faces the proposer named, or IllegalCommand."""
    hand = state.hands[offer.responder]
    chosen: list[Card] = []
    for wanted in offer.take.cards:
        found = find_card([c for c in hand if c not in chosen], wanted)
        if found is None:
            raise IllegalCommand(say("You do not hold the {} that {} asks for, so you cannot accept; "
                                     "decline instead.", wanted, player(state.names, offer.proposer)))
        chosen.append(found)
    return chosen


def validate_accept(state: PortfolioState, offer: Deal) -> list[Card]:
    take = resolve_take(state, offer)
    if offer.take.money > state.money[offer.responder]:
        raise IllegalCommand(say("You have only {}; the deal asks for {}, so you cannot accept; decline "
                                 "instead.", dollars(state.money[offer.responder]),
                                 dollars(offer.take.money)))
    _need_cards(state, offer.proposer, offer.give.cards)
    _side(state, offer.proposer, offer.give, you=False)
    _side(state, offer.responder, offer.take, you=True, money=False)
    return take


def validate_discard(state: PortfolioState, seat: int, card: Card) -> None:
    _need_card(state, seat, card)
    taken = state.taken_discard
    if taken is not None and card == taken and len(state.hands[seat]) > 1:
        raise IllegalCommand(say("You took {} from the discard pile this turn; you may discard it only "
                                 "as your last card.", card))


def card_uses(hand: Sequence[Card], legal: Sequence[Command]) -> dict[str, list[str]]:
    """For each card in ``hand`` (by ``card.key``), what the legal commands let its face do:
    "make", "extend P2", "cap P2 high", "neutralise P5", "acquire P5" (what the table points
    out; the uses come from ``legal``, so they already allow for money and caps)."""
    by_face: dict[tuple, list[str]] = {}

    def note(card: Card, use: str) -> None:
        uses = by_face.setdefault(card.face, [])
        if use not in uses:
            uses.append(use)

    for command in legal:
        match command:
            case Make(cards):
                for card in cards:
                    note(card, "make")
            case Extend(pid, card):
                note(card, f"extend {pid}")
            case Cap(pid, end, card):
                note(card, f"cap {pid} {end}")
            case Neutralise(pid, card):
                note(card, f"neutralise {pid}")
            case Acquire(pid, card):
                note(card, f"acquire {pid}")
    return {card.key: list(by_face.get(card.face, [])) for card in hand}


# -- turn flow -------------------------------------------------------------------------------
def _pay(state: PortfolioState, seat: int, amount: int) -> None:
    """Move money from a player to the bank (a negative amount pays the player)."""
    state.money[seat] -= amount
    state.bank += amount


def _start_turn(state: PortfolioState) -> list[Event]:
    seat = state.current
    earned, owns = 0, False  # (income() and owned() from the portfolios' views, kept with the state)
    for info in infos_of(state):
        if info.owner == seat:
            earned += info.value
            owns = True
    _pay(state, seat, -earned)
    state.turns += 1
    state.turn_income = earned
    state.pauper = not owns and len(state.hands[seat]) < HAND_SIZE
    state.taken_discard = None
    state.offered = False
    state.phase = ACT if state.last_round else DRAW
    return [TurnStarted(seat, earned, state.last_round)]


def _note_sheet(state: PortfolioState) -> None:
    for seat, column in enumerate(state.sheet):
        if column[-1] != state.money[seat]:
            column.append(state.money[seat])


def _end_turn(state: PortfolioState) -> list[Event]:
    _note_sheet(state)
    state.taken_discard = None
    if state.last_round and state.current == state.dealer:
        return _finish(state)
    state.current = (state.current + 1) % state.players
    return _start_turn(state)


def _finish(state: PortfolioState) -> list[Event]:
    events: list[Event] = []
    state.final_income = [income(state, seat) for seat in range(state.players)]
    for seat, earned in enumerate(state.final_income):
        _pay(state, seat, -earned)
        events.append(FinalIncome(seat, earned, state.money[seat]))
    _note_sheet(state)
    state.phase = OVER
    events.append(GameOver(_result(state).summary))
    return events


def _stock_out(state: PortfolioState) -> Event:
    """The last stock card was just drawn: reshuffle once in 3/5-player games, else finish."""
    if state.reshuffle_pending and state.discard:
        state.stock, state.discard = shuffled(state.discard, state.seed, state.counter), []
        state.counter += 1
        state.reshuffled = True
        return StockReshuffled(len(state.stock))
    state.last_round = True
    return StockFinished(state.current, state.dealer)


def _draw(state: PortfolioState, count: int, from_discard: bool, pauper: bool) -> list[Event]:
    seat = state.current
    hand = state.hands[seat]
    taken = None
    if from_discard:
        taken = state.discard.pop()
        hand.append(taken)
        state.taken_discard = taken
    drawn: list[Card] = []
    stock_events: list[Event] = []
    while len(drawn) + (taken is not None) < count and not state.last_round:
        if state.stock:
            drawn.append(state.stock.pop())
        if not state.stock:  # the last card is gone (or a hand-written position had none)
            stock_events.append(_stock_out(state))
    hand.extend(drawn)
    total = len(drawn) + (taken is not None)
    cost = 0 if pauper else draw_cost(total)
    _pay(state, seat, cost)
    state.phase = ACT
    return [Drew(seat, total, taken, cost, pauper, tuple(drawn)), *stock_events]


def _track_known(state: PortfolioState, seat: int, command: Command, checked: Any) -> None:
    """What the table sees ``command`` put into a hand or take out of one (``checked``: what
    the check returned), noted in ``state.known`` before it is carried out. Every card leaving a
    hand is played face up, so every leaving is seen."""
    known = state.known
    kind = type(command)  # (the commonest first, without the match's tries)
    if kind is Discard or kind in _ON_PORTFOLIOS:  # one card leaves the hand, face up
        if known[seat]:  # (seldom: forget would find nothing to forget)
            forget(known[seat], (command.card,))
        return
    if kind is Draw and command.discard is False:
        return
    match command:
        case Draw(_, True) | Pauper(True):
            known[seat].append(state.discard[-1])
        case Make(cards):
            forget(known[seat], cards)
        case Offer(_, give, _):
            show(known[seat], give.cards)
        case Accept():
            offer = state.offer
            forget(known[offer.proposer], offer.give.cards)
            forget(known[offer.responder], checked)
            known[offer.responder] += offer.give.cards
            known[offer.proposer] += checked


def default_known(state: PortfolioState) -> list[list[Card]]:
    """What a position saved without ``known`` shows of its hands: the card taken from the
    discard pile this turn and a pending offer's cards (a replay of its moves knows more)."""
    known: list[list[Card]] = [[] for _ in state.names]
    taken = state.taken_discard
    if taken is not None and taken in state.hands[state.current]:
        known[state.current].append(taken)
    if state.offer is not None:
        show(known[state.offer.proposer], state.offer.give.cards)
    return known


def _result(state: PortfolioState) -> Outcome:
    n = state.players
    values = [income(state, seat) for seat in range(n)]
    ranks = Outcome.rank_by([(state.money[s], values[s]) for s in range(n)])
    winners = [s for s in range(n) if ranks[s] == 1]
    names = state.names
    top = state.money[winners[0]]
    if len(winners) > 1:
        summary = say("{} and portfolios worth {}.", winners_sentence(names, winners, dollars(top)),
                      dollars(values[winners[0]]))
    elif sum(1 for s in range(n) if state.money[s] == top) > 1:
        summary = say("{} wins: tied on {}, but with the greater portfolio value ({}).",
                      player(names, winners[0]), dollars(top), dollars(values[winners[0]]))
    else:
        summary = winners_sentence(names, winners, dollars(top)) + "."
    final = state.final_income or [0] * n
    breakdown = tuple(
        {"money before final income": state.money[s] - final[s], "final income": final[s],
         "money": state.money[s], "portfolio value": values[s]}
        for s in range(n))
    return Outcome(ranks, tuple(state.money), breakdown, summary)


# -- the spec --------------------------------------------------------------------------------
@lru_cache(maxsize=256)  # a few counts: made once, as commands are immutable
def _draws(most: int, discard: bool) -> tuple[Draw, ...]:
    """The draws of 1 to ``most`` cards."""
    return tuple(Draw(n, discard) for n in range(1, most + 1))


@lru_cache(maxsize=1024)  # at most 5 seats × 156 cards: the expert's tree reads these lists whole
def _sell_one(other: int, card: Card) -> Offer:
    """The offer of ``card`` to ``other`` for $1."""
    return Offer(other, Side(cards=(card,)), Side(money=1))


# what legal's commands are made from (MadeWhenRead's made_from), so that ``in`` need not make
# them: a bot asks whether its choice is legal at every command of the expert's playouts
def _sold_one(other: int, command: Any) -> Card | None:
    """The card ``_sell_one(other, card)`` would offer for ``command`` (None: none would)."""
    if type(command) is not Offer or command.to != other or command.take != _ONE_DOLLAR:
        return None
    given = command.give.cards
    if type(given) is not tuple or len(given) != 1 or command.give != Side(cards=given):
        return None
    return given[0]


_ONE_DOLLAR = Side(money=1)


def _made(command: Any) -> tuple[Card, ...] | None:
    return command.cards if type(command) is Make else None


@lru_cache(maxsize=1024)  # at most 156 cards
def _discard(card: Card) -> Discard:
    return Discard(card)


def _discarded(command: Any) -> Card | None:
    return command.card if type(command) is Discard else None


class _Actions:
    """The commands of the act phase at a snapshot of the table (the hand, the portfolios as
    every seat sees them, the money), each kind worked out when asked for: ``whole`` is the
    legal list, ``contains`` answers ``in`` as it would by the part that could hold the command
    (commands of different kinds are never equal)."""

    __slots__ = ("seat", "hand", "infos", "money", "offered", "taken", "_lowest", "_runs", "_commands",
                 "_offers", "_last")

    def __init__(self, seat: int, hand: tuple[Card, ...], infos: tuple[PortfolioInfo, ...],
                 money: tuple[int, ...], offered: bool, taken: Card | None) -> None:
        self.seat, self.hand, self.infos, self.money, self.offered, self.taken = (
            seat, hand, infos, money, offered, taken)
        self._lowest: dict[tuple[int, Suit], Card] | None = None
        self._runs: list[Sequence[Command]] | None = None
        self._commands: list[Sequence[Command]] | None = None
        self._offers: list[Sequence[Command]] | None = None
        self._last: Sequence[Command] | None = None

    @property
    def lowest(self) -> dict[tuple[int, Suit], Card]:
        if self._lowest is None:
            self._lowest = _lowest(self.hand)
        return self._lowest

    def whole(self) -> Listing:
        # the parts of the list, the empty ones left out (fewer to step over when one is read)
        return Listing(*self.runs(), *self.commands(), *self.offers(), self.last())

    def read(self) -> list[Command]:
        """The whole list made, as read through: the expert's tree reads its own seat's list so
        at every iteration, and mostly at the same table (its hand, the portfolios, the money)
        deal after deal, so a list made before is found by the ids of what it was made from
        (kept alive with it: no other object can have their ids while it is kept)."""
        key = (self.seat, self.offered, id(self.taken), self.money, *map(id, self.hand), *map(id, self.infos))
        kept = _READ.get(key)
        if kept is not None:
            return kept[3]
        made = list(self.whole())
        if len(_READ) >= READ_KEPT:
            _READ.clear()
        _READ[key] = (self.hand, self.infos, self.taken, made)
        return made

    def contains(self, command: Any) -> bool:
        kind = type(command)
        if kind is Discard and self.taken is None and self.hand:
            # a hand card's lowest copy, as last() lists them (without making them)
            card = command.card
            return card.__class__ is Card and self.is_lowest(card)
        if kind is Discard or kind is End:
            return command in self.last()
        if kind is Make:
            return any(command in part for part in self.runs())
        if kind is Offer:
            return any(command in part for part in self.offers())
        if kind in _ON_PORTFOLIOS:
            # what on() would list for the named portfolio, found without making it: the lowest
            # copy in hand of a face that extends, caps, neutralises or acquires it
            card = command.card
            if card.__class__ is not Card or not self.is_lowest(card):
                return False
            face, own, pid = card.face, self.seat, command.pid
            for portfolio in self.infos:  # (a loop, not any(): a bot's choice is asked about at every command)
                if portfolio.pid == pid and _on_portfolio(kind, command, portfolio, face, own, self.money[own]):
                    return True
        return False

    def is_lowest(self, card: Card) -> bool:
        """Whether ``card`` is the hand's lowest copy of its face (``lowest``'s), answered
        without making ``lowest`` when the hand holds the face once or not at all (most faces:
        the bot's choice is asked about at every command of the expert's playouts)."""
        if self._lowest is None:
            held = list(map(_FACE, self.hand)).count(card.face)
            if held < 2:
                return held == 1 and card in self.hand
        return self.lowest.get(card.face) == card

    def runs(self) -> list[Sequence[Command]]:
        if self._runs is None:
            runs = _runs(self.lowest)
            self._runs = [MadeWhenRead(runs, Make, _made)] if runs else []  # seldom made at random
        return self._runs

    def commands(self) -> list[Sequence[Command]]:
        """The extensions, caps, neutralisations and acquisitions, in one part."""
        if self._commands is None:
            commands = [command for portfolio in self.infos for command in self.on(portfolio)]
            self._commands = [commands] if commands else []
        return self._commands

    def on(self, portfolio: PortfolioInfo) -> list[Command]:
        """The extensions and caps of one of the seat's portfolios, or the neutralisation and
        acquisitions of a rival's."""
        seat, lowest = self.seat, self.lowest
        pid = portfolio.pid
        commands: list[Command] = []
        if portfolio.owner == seat:
            for end in (LOW, HIGH):
                face = extension(portfolio, end)
                if face is not None and face.face in lowest:
                    commands.append(Extend(pid, lowest[face.face]))
            for end in (LOW, HIGH):
                commands += [Cap(pid, end, lowest[f.face])
                             for f in cap_faces(portfolio, end) if f.face in lowest]
        else:
            money, value = self.money[seat], portfolio.value
            face = neutraliser(portfolio)
            if face is not None and face.face in lowest and money >= value:
                commands.append(Neutralise(pid, lowest[face.face]))
            if money >= 2 * value:
                commands += [Acquire(pid, lowest[f.face])
                             for f in acquirers(portfolio) if f.face in lowest]
        return commands

    def offers(self) -> list[Sequence[Command]]:
        """A small useful set (``check`` judges any other), in parts: buy an opponent's
        portfolio for its acquisition price, or sell one hand card for $1 to the next player
        (those offers made when read: a random player seldom reads them)."""
        if self._offers is not None:
            return self._offers
        parts: list[Sequence[Command]] = []
        if not self.offered:
            seat, money = self.seat, self.money
            players = len(money)
            prices = [(portfolio, 2 * portfolio.value) for portfolio in self.infos
                      if 2 * portfolio.value <= money[seat]]
            for step in range(1, players):
                other = (seat + step) % players
                buys = [Offer(other, Side(money=price), Side(holdings=(portfolio.pid,)))
                        for portfolio, price in prices if portfolio.owner == other]
                if buys:
                    parts.append(buys)
                if step == 1 and money[other] >= 1:
                    parts.append(MadeWhenRead(list(self.lowest.values()), partial(_sell_one, other),
                                              partial(_sold_one, other)))
        self._offers = parts
        return parts

    def last(self) -> Sequence[Command]:
        """The discards, or End with an empty hand."""
        if self._last is not None:
            return self._last
        hand, lowest = self.hand, self.lowest
        if not hand:
            self._last = [End()]
            return self._last
        cards = list(lowest.values())
        taken = self.taken
        if taken is not None and len(hand) > 1 and lowest.get(taken.face) == taken:
            # the card taken from the discard pile this turn goes only as the last card: its
            # face is discarded as its next lowest copy, if the hand holds another
            at = list(lowest).index(taken.face)
            others = sort_cards(card for card in hand if card.face == taken.face and card != taken)
            if others:
                cards[at] = others[0]
            else:
                del cards[at]
        self._last = MadeWhenRead(cards, _discard, _discarded)
        return self._last


_ON_PORTFOLIOS = (Extend, Cap, Neutralise, Acquire)
_READ: dict[tuple, tuple] = {}  # lists read through (_Actions.read), by the ids of what they were made from
READ_KEPT = 64  # few: a full garbage collection walks what a module keeps (see INFOS_KEPT)


class _ActionList(Deferred):
    """The act phase's legal list (``Deferred``, made from ``_Actions``): read through, it is
    the list ``_Actions.read`` keeps; read by length and index (a random player's one
    command), the ``Listing`` made when read, as any Deferred."""

    __slots__ = ("_actions",)

    def __init__(self, actions: _Actions) -> None:
        super().__init__(actions.whole, actions.contains, nonempty=True)  # a discard or End at least
        self._actions = actions

    def __iter__(self) -> Iterator[Command]:
        if self._made is None:
            self._made = self._actions.read()
        return iter(self._made)


_FACE = attrgetter("face")
_PID = attrgetter("pid")
_SORT_KEY = attrgetter("_sort")  # a card's rank, suit and copy (Card compares by it)


def _on_portfolio(kind: type, command: Any, portfolio: PortfolioInfo, face: tuple, seat: int, money: int) -> bool:
    """Whether a ``kind`` command with a card of ``face`` (the hand's lowest copy) on
    ``portfolio`` is one _Actions.on lists for ``seat`` with ``money``."""
    if kind is Extend or kind is Cap:
        if portfolio.owner != seat:
            return False
        if kind is Extend:
            low, high = extension(portfolio, LOW), extension(portfolio, HIGH)
            return (low is not None and low.face == face) or (high is not None and high.face == face)
        return any(end == command.end and any(f.face == face for f in cap_faces(portfolio, end))
                   for end in (LOW, HIGH))
    if portfolio.owner == seat:
        return False
    if kind is Neutralise:
        f = neutraliser(portfolio)
        return f is not None and f.face == face and money >= portfolio.value
    return money >= 2 * portfolio.value and any(f.face == face for f in acquirers(portfolio))


# the kinds whose check (_validate) hands apply nothing: a listed one needs none (the expert's
# playouts discard, draw, make and cap at most commands)
_SETTLED_BY_LEGAL = frozenset((Discard, Draw, Pauper, Make, Cap, Decline, End))


class PortfolioGame:
    """The GameSpec of Portfolio. Stateless: every function takes a ``PortfolioState``."""

    name = "portfolio"
    title = "Portfolio"
    blurb = "Build runs of cards that pay income; neutralise or take over your rivals' portfolios."
    players = (2, 5)
    options: tuple = ()
    best_bot = "bot"
    # the longest game of the sweep (tests/benchmark.py --parts ending: 300 seeds, every pairing of
    # levels, every player count), in commands: five random players, seed 255
    longest = 829
    # the expert races its candidate moves to the end of its time: here one move is seldom much
    # better than another, but small gains add up over sixty moves (dropping the candidates
    # within a 1% win chance of the leader won 46 of 79 games against the bot, racing on 54.5;
    # measured while that rule could drop the bot's own choice too, not since it cannot)
    # analysis_scale and analysis_lead: the analysis's chance of a playout stopped before the end
    # is 1 / (1 + e^(−(lead + 49) / 69)): the estimate underrates the seat with a decision to make
    # (its movers won 57% of the decisions it rated 51% on average), which no scale mends. Fitted
    # together on the analysis's own chances (tests/fit_scale.py portfolio --lead, on --games 30
    # --decisions 10 --iterations 48: 300 decisions, log loss 0.279 against 0.297 at the scale 70
    # alone) and checked on 320 decisions of 80 other games (the benchmark's): 0.272 against 0.301
    expert = {"indifference": 0.0, "analysis_scale": 69.0, "analysis_lead": 49.0}
    # legal lists a useful few of these (any deal; more cards than the stock holds): check judges the rest
    partial_legal = (Offer, Draw)
    # JSON fields newer than some saves: a save's snapshot without one still matches its replay
    added_fields = ("known",)

    def __init__(self, bots: Mapping[str, Any] | None = None) -> None:
        self.notation = PortfolioNotation()
        self.bots = dict(bots or {})

    # -- setup and reading -------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> PortfolioState:
        check_setup(self, names, options)
        n = len(names)
        decks = 2 if n <= 3 else 3
        deck = shuffled(build_deck(decks), seed, 0)
        # dealt round the table from the top: seat s holds deck positions s, s+n, s+2n, …
        hands = [deck[seat::n][:HAND_SIZE] for seat in range(n)]
        stock = deck[n * HAND_SIZE:]
        discard = [stock.pop()]
        state = PortfolioState(
            names=list(names), seed=seed, decks=decks, stock=stock, discard=discard, hands=hands,
            money=[START_MONEY] * n, counter=1, turns=0, sheet=[[START_MONEY] for _ in names])
        _start_turn(state)
        return state

    def awaiting(self, state: PortfolioState) -> frozenset[int]:
        return state.awaiting

    def turn(self, state: PortfolioState) -> int:
        return state.turns

    score_label = "Money"

    def estimate(self, state: PortfolioState) -> tuple[float, ...]:
        """Each seat's expected final money (the expert's judge of a position): its money plus
        its portfolios' income over the collections still to come."""
        if self.outcome(state) is not None:  # the game is over: its money is final
            return tuple(float(m) for m in state.money)
        return estimate(state, infos_of(state))

    def scores(self, state: PortfolioState) -> tuple[int, ...]:
        """Each seat's money, public at every moment (the final score): what the results
        chart draws."""
        return tuple(state.money)

    def invariants(self, state: PortfolioState) -> list[str]:
        """What no reachable position breaks, the broken ones in words (see invariants.py)."""
        from .invariants import invariants

        return invariants(self, state)

    def conserved(self, state: PortfolioState) -> dict[str, Any]:
        cards = [*state.stock, *state.discard, *(c for hand in state.hands for c in hand),
                 *(c for p in state.portfolios for c in p.all_cards())]
        return {"cards": sorted(card_keys(cards)), "money": sum(state.money) + state.bank}

    # -- legal commands ------------------------------------------------------------------------
    def legal(self, state: PortfolioState, seat: int) -> list[Command]:
        if seat not in state.awaiting:
            return []
        if state.phase == RESPOND:
            return self._legal_answers(state)
        if state.phase == DRAW:
            return self._legal_draws(state)
        return self._legal_actions(state)

    def _legal_answers(self, state: PortfolioState) -> list[Command]:
        try:
            validate_accept(state, state.offer)
        except IllegalCommand:
            return [Decline()]
        return [Accept(), Decline()]

    def _legal_draws(self, state: PortfolioState) -> list[Command]:
        commands: list[Command] = []
        flags = (False, True) if state.discard else (False,)
        if state.pauper:
            return [Pauper(flag) for flag in flags]
        top = max_draw(state.turn_income)
        for flag in flags:
            # more than the cards that exist is allowed (only drawn cards are paid), but useless
            reachable = len(state.stock) + int(flag)
            if state.reshuffle_pending:
                reachable += len(state.discard) - int(flag)
            commands += _draws(max(1, min(top, reachable)), flag)
        return commands

    def _legal_actions(self, state: PortfolioState) -> Sequence[Command]:
        seat = state.current
        # a snapshot of what the list reads (its commands are made only when it is read whole):
        # the bot asks whether its choice is in it at every command of the expert's playouts
        actions = _Actions(seat, tuple(state.hands[seat]), infos_of(state),
                           tuple(state.money), state.offered, state.taken_discard)
        return _ActionList(actions)

    # -- checking ------------------------------------------------------------------------------
    def check(self, state: PortfolioState, seat: int, command: Command) -> None:
        self._validate(state, seat, command)

    def _validate(self, state: PortfolioState, seat: int, command: Command) -> Any:
        """Refuse ``command`` in words, or return what ``apply`` needs to carry it out (the end
        an extension goes to, a portfolio and its price, a responder, the cards a deal takes)."""
        check_awaited(state.awaiting, seat, state.names)
        kind, phase = type(command), state.phase
        if kind is Discard and phase == ACT:  # (the commonest, without the checks of every kind)
            return validate_discard(state, seat, command.card)
        if kind is Draw and phase == DRAW:
            return self._check_draw(state, command)
        if phase == RESPOND:
            offer = state.offer
            if isinstance(command, Accept):
                return validate_accept(state, offer)
            if not isinstance(command, Decline):
                raise IllegalCommand(say("{} must first accept or decline {}'s offer.",
                                         player(state.names, offer.responder),
                                         player(state.names, offer.proposer)))
            return None
        if isinstance(command, (Accept, Decline)):
            raise IllegalCommand("There is no offer to answer.")
        if state.phase == DRAW:
            return self._check_draw(state, command)
        if isinstance(command, (Draw, Pauper)):
            if state.last_round:
                raise IllegalCommand("The stock is finished: nobody draws any more.")
            raise IllegalCommand(say("{} has already drawn this turn.", player(state.names, state.current)))
        match command:  # (the commonest first: a match tries its cases in turn)
            case Discard(card):
                return validate_discard(state, seat, card)
            case Make(cards):
                return validate_make(state, seat, cards)
            case Extend(pid, card):
                return validate_extend(state, seat, pid, card)
            case Cap(pid, end, card):
                return validate_cap(state, seat, pid, end, card)
            case Neutralise(pid, card):
                return validate_neutralise(state, seat, pid, card)
            case Acquire(pid, card):
                return validate_acquire(state, seat, pid, card)
            case Offer():
                return validate_offer(state, seat, command)
            case End():
                if state.hands[seat]:
                    raise IllegalCommand("You still hold cards: end the turn by discarding one.")
                return None
        raise IllegalCommand(f"{command!r} is not a Portfolio command.")

    def _check_draw(self, state: PortfolioState, command: Command) -> None:
        if not isinstance(command, (Draw, Pauper)):
            raise IllegalCommand(say("{} must first choose how many cards to draw.",
                                     player(state.names, state.current)))
        if command.discard and not state.discard:
            raise IllegalCommand("The discard pile is empty.")
        if isinstance(command, Pauper):
            if not state.pauper:
                raise IllegalCommand("Pauper's rule is only for a player who began the turn with no "
                                     "portfolios and fewer than 13 cards.")
            return
        if state.pauper:
            raise IllegalCommand("Pauper's rule applies: a pauper draws exactly two cards, with 'pauper'.")
        if command.count < 1:
            raise IllegalCommand("Draw at least one card.")
        cost = draw_cost(command.count)
        if cost > state.turn_income:
            raise IllegalCommand(say("Drawing {} cards costs {}, but this turn's income is {} (savings "
                                     "cannot pay for cards).", command.count, dollars(cost),
                                     dollars(state.turn_income)))

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: PortfolioState, seat: int, command: Command, listed: bool = False) -> list[Event]:
        """``listed``: the caller vouches that ``command`` equals one ``legal(state, seat)``
        lists (rules/core/engine.py): then a kind whose check hands nothing on is not checked."""
        if listed and type(command) in _SETTLED_BY_LEGAL:
            checked = None
        else:
            checked = self._validate(state, seat, command)  # the one check of this command
        _track_known(state, seat, command, checked)
        if type(command) is Accept:
            state.__dict__.pop("_infos", None)  # (see infos_of; the others mend what they change)
        hand = state.hands[seat]
        match command:  # (the commonest first: a match tries its cases in turn)
            case Discard(card):
                hand.remove(card)
                state.discard.append(card)
                return [Discarded(seat, card), *_end_turn(state)]
            case Draw(count, from_discard):
                return _draw(state, count, from_discard, pauper=False)
            case Offer(_, give, take):
                responder = checked
                state.offer = Deal(seat, responder, give, take)
                state.offered = True
                state.phase = RESPOND
                return [Offered(seat, responder, give, take)]
            case Accept():
                return self._accept(state, checked)
            case Decline():
                offer = state.offer
                state.offer, state.phase = None, ACT
                return [DealDeclined(offer.proposer, offer.responder)]
            case Pauper(from_discard):
                return _draw(state, 2, from_discard, pauper=True)
            case Make(cards):
                for card in cards:
                    hand.remove(card)
                run = sorted(cards, key=lambda c: c.rank)
                pid = f"P{state.next_pid}"
                state.next_pid += 1
                made = Portfolio(pid, seat, run)
                state.portfolios.append(made)
                _mend_infos(state, made, made=True)
                return [Made(seat, pid, tuple(run), portfolio_value(run))]
            case Extend(pid, card):
                portfolio = _portfolio(state, pid)
                hand.remove(card)
                if checked == LOW:
                    portfolio.cards.insert(0, card)
                else:
                    portfolio.cards.append(card)
                _mend_infos(state, portfolio)
                return [Extended(seat, pid, card, checked, portfolio_value(portfolio.cards))]
            case Cap(pid, end, card):
                portfolio = _portfolio(state, pid)
                hand.remove(card)
                if end == LOW:
                    portfolio.low_cap = card
                else:
                    portfolio.high_cap = card
                _mend_infos(state, portfolio)
                return [Capped(seat, pid, end, card)]
            case Neutralise(pid, card):
                portfolio, cost = checked
                hand.remove(card)
                _pay(state, seat, cost)
                state.portfolios.remove(portfolio)
                _mend_infos(state, portfolio, gone=True)
                # swept up from low to high: the top discard is the high end (or its cap)
                state.discard += [card, *portfolio.all_cards()]
                return [Neutralised(seat, pid, portfolio.owner, card, cost)]
            case Acquire(pid, card):
                portfolio, cost = checked
                owner = portfolio.owner
                hand.remove(card)
                _pay(state, seat, cost)
                portfolio.owner = seat
                on_king = portfolio.high.rank == KING
                if on_king:
                    state.discard.append(card)
                else:
                    portfolio.cards.append(card)
                _mend_infos(state, portfolio)
                return [Acquired(seat, pid, owner, card, cost, on_king)]
            case End():
                return [HandEmptied(seat), *_end_turn(state)]
        raise IllegalCommand(f"{command!r} is not a Portfolio command.")

    @staticmethod
    def _accept(state: PortfolioState, take: list[Card]) -> list[Event]:
        offer = state.offer
        proposer, responder = offer.proposer, offer.responder
        for card in offer.give.cards:
            state.hands[proposer].remove(card)
            state.hands[responder].append(card)
        for card in take:
            state.hands[responder].remove(card)
            state.hands[proposer].append(card)
        for pid in offer.give.holdings:
            _portfolio(state, pid).owner = responder
        for pid in offer.take.holdings:
            _portfolio(state, pid).owner = proposer
        net = offer.take.money - offer.give.money
        state.money[proposer] += net
        state.money[responder] -= net
        state.offer, state.phase = None, ACT
        taken = Side(tuple(take), offer.take.holdings, offer.take.money)
        return [DealDone(proposer, responder, offer.give, taken)]

    # -- what a seat sees ----------------------------------------------------------------------
    def view(self, state: PortfolioState, seat: int | None, plain: bool = False) -> PortfolioView:
        n = state.players
        sizes = tuple(map(len, state.hands))  # (read in C: the expert's playouts view every command)
        infos = infos_of(state)
        earned = [0] * n
        for info in infos:  # (one pass: the expert's playouts build a view per command)
            earned[info.owner] += info.value
        incomes = tuple(earned)
        if plain:
            rows: tuple[tuple[str, ...], ...] = ()
        else:
            owned = [sum(1 for i in infos if i.owner == s) for s in range(n)]
            rows = tuple((dollars(state.money[s]), dollars(incomes[s]), str(owned[s]), str(sizes[s]))
                         for s in range(n))
        costs = _draw_costs(state.turn_income) if state.phase == DRAW else ()
        own = seat is not None and 0 <= seat < n
        # the fields set at once (as quick_init would, without the call's forty keywords: the
        # expert's playouts view every command); every field is here (tested)
        return made_with(PortfolioView, {
            "seat": seat, "names": tuple(state.names), "awaiting": state.awaiting,
            "status": "" if plain else status_sentence(state.names, state.phase, state.current, sizes[state.current],
                                                       state.pauper, state.turn_income, state.last_round, state.offer),
            "zones": {"hand": tuple(sorted(state.hands[seat], key=_SORT_KEY))} if own else {},  # (sort_cards')
            "zone_sizes": tuple([{"hand": size} for size in sizes]),
            "columns": ("Money", "Income", "Portfolios", "Hand"), "rows": rows,
            "portfolios": infos, "money": tuple(state.money), "bank": state.bank, "income": incomes,
            "decks": state.decks, "stock_size": len(state.stock), "discard": tuple(state.discard),
            "phase": state.phase, "current": state.current, "turns": state.turns,
            "turn_income": state.turn_income, "draw_costs": costs, "pauper": state.pauper,
            "taken_discard": state.taken_discard, "offered": state.offered, "reshuffled": state.reshuffled,
            "last_round": state.last_round, "reshuffle_pending": state.reshuffle_pending,
            "dealer": state.dealer, "next_pid": state.next_pid,
            "score_sheet": tuple(map(tuple, state.sheet)),
            "final_income": None if state.final_income is None else tuple(state.final_income),
            "offer": state.offer, "known": tuple(map(tuple, state.known))})

    def copy(self, state: PortfolioState) -> PortfolioState:
        """A copy for the expert's search, which copies a deal for every command it tries: what
        apply changes is copied (lists, portfolios), what it replaces or never changes (cards,
        numbers, an offer) is shared; rules.core.copying's state_copy, which finds that out
        field by field, took twice as long."""
        new = object.__new__(PortfolioState)
        fields = new.__dict__
        fields.update(state.__dict__)
        fields["names"] = state.names[:]
        fields["stock"] = state.stock[:]
        fields["discard"] = state.discard[:]
        fields["hands"] = [hand[:] for hand in state.hands]
        fields["money"] = state.money[:]
        fields["portfolios"] = [Portfolio(p.pid, p.owner, p.cards[:], p.low_cap, p.high_cap)
                                for p in state.portfolios]
        fields["sheet"] = [column[:] for column in state.sheet]
        if state.final_income is not None:
            fields["final_income"] = state.final_income[:]
        fields["known"] = [cards[:] for cards in state.known]
        return new

    def sample(self, view: PortfolioView, rng: random.Random) -> PortfolioState:
        """A state the viewer cannot tell from the real one: the other hands and the stock dealt
        at random from the cards it has not seen."""
        mine = list(view.hand)
        # the cards every seat knows to be in a hand stay there (a pending offer's among them)
        known = [list(cards) for cards in view.known] or [[] for _ in view.names]
        # the cards by their sort keys (equal exactly when the cards are, and hashed in C: the
        # expert samples a deal every few playouts)
        seen = set(map(_SORT_KEY, mine)) | set(map(_SORT_KEY, view.discard))
        for cards in known:
            seen.update(map(_SORT_KEY, cards))
        for info in view.portfolios:
            seen.update(map(_SORT_KEY, info.cards))
            seen.update(card._sort for card in (info.low_cap, info.high_cap) if card is not None)
        unseen = [card for card in build_deck(view.decks) if card._sort not in seen]
        rng.shuffle(unseen)
        hands = [mine if s == view.seat else known[s] + [unseen.pop() for _ in range(size - len(known[s]))]
                 for s, size in enumerate(view.hand_sizes)]
        state = PortfolioState(
            names=list(view.names), seed=rng.randrange(10**9), decks=view.decks, stock=unseen,
            discard=list(view.discard), hands=hands, money=list(view.money), bank=view.bank,
            counter=1, portfolios=[Portfolio(i.pid, i.owner, list(i.cards), i.low_cap, i.high_cap)
                                   for i in view.portfolios],
            next_pid=view.next_pid, current=view.current, phase=view.phase, turns=view.turns,
            turn_income=view.turn_income, pauper=view.pauper, taken_discard=view.taken_discard,
            offered=view.offered, offer=view.offer, reshuffled=view.reshuffled,
            last_round=view.last_round, sheet=[list(column) for column in view.score_sheet],
            final_income=None if view.final_income is None else list(view.final_income),
            known=[list(cards) for cards in known])
        infos_of(state)  # read once, for every copy the expert makes of the deal
        return state

    def outcome(self, state: PortfolioState) -> Outcome | None:
        return _result(state) if state.phase == OVER else None

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self, state: PortfolioState) -> dict[str, Any]:
        return {
            "names": list(state.names), "seed": state.seed, "counter": state.counter,
            "decks": state.decks, "stock": card_keys(state.stock), "discard": card_keys(state.discard),
            "hands": [card_keys(hand) for hand in state.hands], "money": list(state.money),
            "bank": state.bank,
            "portfolios": [{"pid": p.pid, "owner": p.owner, "cards": card_keys(p.cards),
                            "low_cap": p.low_cap.key if p.low_cap else None,
                            "high_cap": p.high_cap.key if p.high_cap else None}
                           for p in state.portfolios],
            "next_pid": state.next_pid, "current": state.current, "phase": state.phase,
            "turns": state.turns, "turn_income": state.turn_income, "pauper": state.pauper,
            "taken_discard": state.taken_discard.key if state.taken_discard else None,
            "offered": state.offered,
            "offer": state.offer.to_json() if state.offer else None,
            "reshuffled": state.reshuffled, "last_round": state.last_round,
            "sheet": [list(column) for column in state.sheet],
            "final_income": list(state.final_income) if state.final_income is not None else None,
            "known": [card_keys(cards) for cards in state.known],
        }

    def from_json(self, data: Mapping[str, Any]) -> PortfolioState:
        """Read a position; only names, stock, discard, hands and money are required, so a test
        or a user can write a position by hand. Anything wrong is a RulesError in words."""
        what = "a Portfolio position"
        names = [read_str(n, "a player's name") for n in read_list(require(data, "names", what), "names")]
        n = len(names)
        if not self.players[0] <= n <= self.players[1]:
            raise RulesError(f"{what} has 2-5 players, not {n}")
        money = [read_int(m, "money") for m in read_list(require(data, "money", what), "money")]
        hands = [read_cards(h, "a hand") for h in read_list(require(data, "hands", what), "hands")]
        if not len(money) == len(hands) == n:
            raise RulesError(f"{what} needs money and a hand for each of its {n} players")
        portfolios = []
        for p in read_list(data.get("portfolios", []), "portfolios"):
            p = read_object(p, "a portfolio")
            pid = read_str(require(p, "pid", "a portfolio"), "a portfolio's pid")
            if not (pid[:1] == "P" and pid[1:].isascii() and pid[1:].isdigit() and len(pid) <= 6):
                raise RulesError(f"a portfolio's pid is P1, P2, …, not {pid!r}")
            cards = read_cards(require(p, "cards", "a portfolio"), f"{pid}'s cards")
            if not cards:
                raise RulesError(f"{pid} has no cards")
            portfolios.append(Portfolio(pid, read_int(require(p, "owner", "a portfolio"), "owner", 0, n - 1),
                                        cards, read_card_or_none(p.get("low_cap")),
                                        read_card_or_none(p.get("high_cap"))))
        next_pid = read_int(data.get("next_pid", 1 + max((int(p.pid[1:]) for p in portfolios), default=0)),
                            "next_pid", 1)
        phase = read_str(data.get("phase", DRAW), "phase")
        if phase not in (DRAW, ACT, RESPOND, OVER):
            raise RulesError(f"not a Portfolio position: unknown phase {phase!r}")
        offer = data.get("offer")
        final = data.get("final_income")
        sheet = data.get("sheet", [[m] for m in money])
        state = PortfolioState(
            names=names, seed=read_int(data.get("seed", 0), "seed"),
            decks=read_int(data.get("decks", 2), "decks", 1, 9),
            stock=read_cards(require(data, "stock", what), "stock"),
            discard=read_cards(require(data, "discard", what), "discard"), hands=hands,
            money=money, bank=read_int(data.get("bank", 0), "bank"),
            counter=read_int(data.get("counter", 1), "counter", 0),
            portfolios=portfolios, next_pid=next_pid,
            current=read_int(data.get("current", 0), "current", 0, n - 1), phase=phase,
            turns=read_int(data.get("turns", 1), "turns", 0),
            turn_income=read_int(data.get("turn_income", 0), "turn_income", 0),
            pauper=read_bool(data.get("pauper", False), "pauper"),
            taken_discard=read_card_or_none(data.get("taken_discard")),
            offered=read_bool(data.get("offered", False), "offered"),
            offer=Deal.from_json(offer, n) if offer else None,
            reshuffled=read_bool(data.get("reshuffled", False), "reshuffled"),
            last_round=read_bool(data.get("last_round", False), "last_round"),
            sheet=[[read_int(x, "the score sheet") for x in read_list(col, "the score sheet")]
                   for col in read_list(sheet, "the score sheet")],
            final_income=None if final is None else [read_int(x, "final_income") for x in read_list(final, "final_income")])
        if len(state.sheet) != n or any(not column for column in state.sheet):
            raise RulesError(f"the score sheet needs a column with a first total for each of the {n} players")
        if phase == RESPOND and state.offer is None:
            raise RulesError("a position awaiting an answer needs the offer")
        # saved before hands kept what was seen go into them: a replay of the moves rebuilds it
        state.known = (default_known(state) if "known" not in data
                       else read_known(data["known"], hands, read_card))
        return state


def infos_of(state: PortfolioState) -> tuple[PortfolioInfo, ...]:
    """The portfolios as every seat sees them, kept with the state until ``apply`` changes a
    portfolio (the expert's playouts view and list every command, and most leave the table as
    it was; a copy shares them with its original). The state's invariants check that they match."""
    infos = state.__dict__.get("_infos")
    if infos is None:
        infos = state.__dict__["_infos"] = tuple(map(_info, state.portfolios))
    return infos


def _mend_infos(state: PortfolioState, changed: Portfolio, made: bool = False, gone: bool = False) -> None:
    """The kept views (``infos_of``) after ``apply`` changed one portfolio, ``made`` it (the
    last on the table) or removed it (``gone``): only its own view is made again (the
    expert's playouts make, extend and cap portfolios at most turns, and the others are as
    they were)."""
    kept = state.__dict__.get("_infos")
    if kept is None:
        return
    if made:
        state.__dict__["_infos"] = (*kept, _info(changed))
        return
    at = list(map(_PID, kept)).index(changed.pid)  # (in C)
    if gone:
        state.__dict__["_infos"] = kept[:at] + kept[at + 1:]
    else:
        state.__dict__["_infos"] = (*kept[:at], _info(changed), *kept[at + 1:])



def _info(portfolio: Portfolio) -> PortfolioInfo:
    # between two views most portfolios have not changed: their infos are made once. The key
    # names the cards by id (a card's hash is a Python call; the key is made for every
    # portfolio of every view): an info keeps its cards alive, so no other object can have
    # their ids while it is kept, and an equal card of another id only makes an equal info
    key = (portfolio.pid, portfolio.owner, id(portfolio.low_cap), id(portfolio.high_cap), *map(id, portfolio.cards))
    memo = _INFOS.get(key)
    if memo is None:
        memo = _INFOS[key] = _new_info(portfolio)
        if len(_INFOS) > INFOS_KEPT:
            _INFOS.clear()
            _INFOS[key] = memo
    return memo


_INFOS: dict[tuple, PortfolioInfo] = {}
# Kept small: what a module keeps alive, every full garbage collection walks, in whatever game
# runs after (4,096 made the expert's playouts of a Property game after a Portfolio game in one
# process 10% slower; 512 serves the playouts as well)
INFOS_KEPT = 512


def _new_info(portfolio: Portfolio) -> PortfolioInfo:
    value = portfolio_value(portfolio.cards)
    low = neutraliser(portfolio)
    high = acquirers(portfolio)
    return PortfolioInfo(
        pid=portfolio.pid, owner=portfolio.owner, cards=tuple(portfolio.cards),
        low_cap=portfolio.low_cap, high_cap=portfolio.high_cap, value=value,
        neutralise_cost=value if low else None, acquire_cost=2 * value if high else None,
        neutralise_card=low.code if low else None,
        acquire_card="/".join(card.code for card in high) or None)
