"""Portfolio (Larry Levy, Al Dunn, Bill Moore): setup, legal commands, checks, effects, views
and the result. seeds/portfolio.md gives the rules as implemented and the rulings applied.

A turn: income is collected (what the player does not spend on extra cards stays banked), the
player draws, then acts in any order and number — make, extend, cap, neutralise, acquire, and at
most one offer of a deal — and ends the turn with a discard (or ``end`` with an empty hand).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from rules.core import (
    ACE, KING, SUITS, Card, IllegalCommand, Outcome, RulesError, Suit, build_deck, chance, check_setup,
    find_card, parse_card, sort_cards,
)
from rules.core.words import dollars

from .commands import (
    Accept, Acquire, Cap, Command, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer,
    Pauper,
)
from .events import (
    Acquired, CardsDrawn, Capped, DealDeclined, DealDone, Discarded, Drew, Event, Extended,
    FinalIncome, GameOver, HandEmptied, Made, Neutralised, Offered, StockFinished,
    StockReshuffled, TurnStarted, describe_items,
)
from .notation import PortfolioNotation, discard_choice
from .state import (
    ACT, DRAW, HIGH, LOW, OVER, RESPOND, OfferInfo, Portfolio, PortfolioInfo, PortfolioState,
    PortfolioView,
)

START_MONEY = 6
HAND_SIZE = 13
MIN_RUN = 3


# -- values ----------------------------------------------------------------------------------
def card_value(card: Card) -> int:
    """A card's worth inside a portfolio: A–6 $2, 7–10 $3, J–K $4."""
    return 2 if card.rank <= 6 else 3 if card.rank <= 10 else 4


def portfolio_value(cards: Iterable[Card]) -> int:
    """The income a run pays: every card but the two lowest counts (caps are not in ``cards``)."""
    ranked = sorted(cards, key=lambda c: c.rank)
    return sum(card_value(c) for c in ranked[2:])


def draw_cost(n: int) -> int:
    """The price of drawing ``n`` cards in one turn: 2+3+…+n (the first card is free)."""
    return n * (n + 1) // 2 - 1 if n > 1 else 0


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


def _end_card(portfolio: Any, end: str) -> Card:
    return portfolio.cards[0] if end == LOW else portfolio.cards[-1]


def _cap_on(portfolio: Any, end: str) -> Card | None:
    return portfolio.low_cap if end == LOW else portfolio.high_cap


# The helpers below take a Portfolio (state) or a PortfolioInfo (view): bots reason on views.
def extension(portfolio: Any, end: str) -> Card | None:
    """The face that extends ``end`` of a portfolio, None when that end is capped or closed."""
    if _cap_on(portfolio, end) is not None:
        return None
    card = _end_card(portfolio, end)
    rank = card.rank - 1 if end == LOW else card.rank + 1
    return _face(rank, card.suit) if ACE <= rank <= KING else None


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
    return tuple(_face(card.rank, s) for s in _SAME_COLOUR[card.suit])


def runs_in(hand: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every run of three or more that the hand can lay down (lowest copy of each face), by suit
    then start then length: the sub-runs of each maximal same-suit sequence."""
    lowest: dict[tuple[int, Suit], Card] = {}
    for card in sort_cards(hand):
        lowest.setdefault(card.face, card)
    runs: list[tuple[Card, ...]] = []
    for suit in SUITS:
        ranks = sorted(rank for rank, s in lowest if s is suit)
        segment: list[int] = []
        for rank in ranks + [0]:
            if segment and rank == segment[-1] + 1:
                segment.append(rank)
                continue
            for start in range(len(segment)):
                for stop in range(start + MIN_RUN, len(segment) + 1):
                    runs.append(tuple(lowest[(r, suit)] for r in segment[start:stop]))
            segment = [rank]
    return runs


def _named(portfolio: Portfolio) -> str:
    return f"{portfolio.pid} ({portfolio.low.code}–{portfolio.high.code})"


def _faces(cards: Sequence[Card]) -> str:
    return " or ".join(card.code for card in cards)


# -- checks shared by check(), legal() and playable() -----------------------------------------
def _need_cards(state: PortfolioState, seat: int, cards: Sequence[Card]) -> None:
    hand = state.hands[seat]
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise IllegalCommand(f"{card.key} is named twice.")
        if card not in hand:
            raise IllegalCommand(f"You have no {card.key} in your hand.")


def _portfolio(state: PortfolioState, pid: str) -> Portfolio:
    portfolio = state.find(pid)
    if portfolio is None:
        raise IllegalCommand(f"There is no portfolio {pid} on the table.")
    return portfolio


def _own(state: PortfolioState, seat: int, pid: str, doing: str) -> Portfolio:
    portfolio = _portfolio(state, pid)
    if portfolio.owner != seat:
        raise IllegalCommand(f"{pid} belongs to {state.names[portfolio.owner]}; you can only {doing} "
                             "your own portfolios.")
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
        shown = " ".join(c.code for c in sorted(cards, key=lambda c: c.rank))
        raise IllegalCommand(f"{shown} is not a sequence (Ace is low and there is no wrapping round).")


def validate_extend(state: PortfolioState, seat: int, pid: str, card: Card) -> str:
    """The end the card goes to."""
    portfolio = _own(state, seat, pid, "extend")
    _need_cards(state, seat, [card])
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
        raise IllegalCommand(f"{_named(portfolio)} cannot be extended any further.")
    raise IllegalCommand(f"{card.code} does not fit {_named(portfolio)}; it takes {_faces(wanted)}.")


def validate_cap(state: PortfolioState, seat: int, pid: str, end: str, card: Card) -> None:
    portfolio = _own(state, seat, pid, "cap")
    if end not in (LOW, HIGH):
        raise IllegalCommand("A portfolio is capped at its low end or its high end.")
    if portfolio.cap(end) is not None:
        raise IllegalCommand(f"The {end} end of {pid} is already capped.")
    end_card = portfolio.low if end == LOW else portfolio.high
    if end == LOW and end_card.rank == ACE:
        raise IllegalCommand("An Ace low end cannot be neutralised; it needs no cap.")
    _need_cards(state, seat, [card])
    faces = cap_faces(portfolio, end)
    if not any(card.same_face(face) for face in faces):
        raise IllegalCommand(f"A cap must have the rank and colour of the end card {end_card.code}: "
                             f"{_faces(faces)}, not {card.code}.")


def validate_neutralise(state: PortfolioState, seat: int, pid: str, card: Card) -> tuple[Portfolio, int]:
    """The portfolio and the cost."""
    portfolio = _theirs(state, seat, pid, "neutralise")
    if portfolio.low_cap is not None:
        raise IllegalCommand(f"The low end of {pid} is capped, so it cannot be neutralised.")
    face = neutraliser(portfolio)
    if face is None:
        raise IllegalCommand(f"{pid} starts with an Ace; nothing goes below it, so it cannot be neutralised.")
    _need_cards(state, seat, [card])
    if not card.same_face(face):
        raise IllegalCommand(f"Only {face.code} neutralises {_named(portfolio)}, not {card.code}.")
    cost = portfolio_value(portfolio.cards)
    if state.money[seat] < cost:
        raise IllegalCommand(f"You need {dollars(cost)} to neutralise {pid}; "
                             f"you have {dollars(state.money[seat])}.")
    return portfolio, cost


def validate_acquire(state: PortfolioState, seat: int, pid: str, card: Card) -> tuple[Portfolio, int]:
    """The portfolio and the cost."""
    portfolio = _theirs(state, seat, pid, "acquire")
    if portfolio.high_cap is not None:
        raise IllegalCommand(f"The high end of {pid} is capped, so it cannot be acquired.")
    faces = acquirers(portfolio)
    _need_cards(state, seat, [card])
    if not any(card.same_face(face) for face in faces):
        raise IllegalCommand(f"Only {_faces(faces)} acquires {_named(portfolio)}, not {card.code}.")
    cost = 2 * portfolio_value(portfolio.cards)
    if state.money[seat] < cost:
        raise IllegalCommand(f"You need {dollars(cost)} to acquire {pid}; "
                             f"you have {dollars(state.money[seat])}.")
    return portfolio, cost


def _seat_named(state: PortfolioState, name: str) -> int:
    for seat, known in enumerate(state.names):
        if known.lower() == name.strip().lower():
            return seat
    raise IllegalCommand(f"There is no player named {name!r}; the players are {', '.join(state.names)}.")


def _side(state: PortfolioState, seat: int, portfolios: Sequence[str], money: int, whose: str) -> None:
    """The public part of one side of a deal: its portfolios and money."""
    for i, pid in enumerate(portfolios):
        if pid in portfolios[:i]:
            raise IllegalCommand(f"{pid} is named twice.")
        if _portfolio(state, pid).owner != seat:
            raise IllegalCommand(f"{pid} does not belong to {whose}.")
    if money < 0:
        raise IllegalCommand("Money in a deal cannot be negative.")
    if money > state.money[seat]:
        raise IllegalCommand(f"{whose.capitalize()} {'have' if whose == 'you' else 'has'} only "
                             f"{dollars(state.money[seat])}, not {dollars(money)}.")


def validate_offer(state: PortfolioState, seat: int, offer: Offer) -> int:
    """The responder's seat. The responder's hand is hidden, so only their public side is checked."""
    if state.offered:
        raise IllegalCommand("You have already made an offer this turn; one offer per turn.")
    responder = _seat_named(state, offer.to)
    if responder == seat:
        raise IllegalCommand("You cannot make a deal with yourself.")
    if not (offer.give_cards or offer.give_portfolios or offer.give_money
            or offer.take_cards or offer.take_portfolios or offer.take_money):
        raise IllegalCommand("An offer must give or take something.")
    _need_cards(state, seat, offer.give_cards)
    _side(state, seat, offer.give_portfolios, offer.give_money, "you")
    _side(state, responder, offer.take_portfolios, offer.take_money, state.names[responder])
    return responder


def resolve_take(state: PortfolioState, offer: OfferInfo) -> list[Card]:
    """The responder's physical cards for the faces the proposer named, or IllegalCommand."""
    hand = state.hands[offer.responder]
    chosen: list[Card] = []
    for wanted in offer.take_cards:
        found = find_card([c for c in hand if c not in chosen], wanted)
        if found is None:
            raise IllegalCommand(f"You do not hold the {wanted.key} that {state.names[offer.proposer]} "
                                 "asks for, so you cannot accept; decline instead.")
        chosen.append(found)
    return chosen


def validate_accept(state: PortfolioState, offer: OfferInfo) -> list[Card]:
    take = resolve_take(state, offer)
    if offer.take_money > state.money[offer.responder]:
        raise IllegalCommand(f"You have only {dollars(state.money[offer.responder])}; the deal asks "
                             f"for {dollars(offer.take_money)}, so you cannot accept; decline instead.")
    _need_cards(state, offer.proposer, offer.give_cards)
    _side(state, offer.proposer, offer.give_portfolios, offer.give_money, state.names[offer.proposer])
    _side(state, offer.responder, offer.take_portfolios, 0, "you")
    return take


def validate_discard(state: PortfolioState, seat: int, card: Card) -> None:
    _need_cards(state, seat, [card])
    if card == state.taken_discard and len(state.hands[seat]) > 1:
        raise IllegalCommand(f"You took {card.code} from the discard pile this turn; you may discard "
                             "it only as your last card.")


def playable(state: PortfolioState, seat: int) -> dict[str, list[str]]:
    """For each card in ``seat``'s hand (by ``card.key``), what it could do in this position
    (ignoring whose turn it is): "make", "extend P2", "cap P2 high", "neutralise P5",
    "acquire P5". Money is taken into account."""
    hand = state.hands[seat]
    in_runs = {card.face for run in runs_in(hand) for card in run}
    result: dict[str, list[str]] = {}
    for card in hand:
        uses = ["make"] if card.face in in_runs else []
        for portfolio in state.portfolios:
            pid = portfolio.pid
            if portfolio.owner == seat:
                tries = [(f"extend {pid}", validate_extend, (pid, card)),
                         (f"cap {pid} low", validate_cap, (pid, LOW, card)),
                         (f"cap {pid} high", validate_cap, (pid, HIGH, card))]
            else:
                tries = [(f"neutralise {pid}", validate_neutralise, (pid, card)),
                         (f"acquire {pid}", validate_acquire, (pid, card))]
            for label, validate, args in tries:
                try:
                    validate(state, seat, *args)
                except IllegalCommand:
                    continue
                uses.append(label)
        result[card.key] = uses
    return result


# -- turn flow -------------------------------------------------------------------------------
def _pay(state: PortfolioState, seat: int, amount: int) -> None:
    """Move money from a player to the bank (a negative amount pays the player)."""
    state.money[seat] -= amount
    state.bank += amount


def _start_turn(state: PortfolioState) -> list[Event]:
    seat = state.current
    earned = income(state, seat)
    _pay(state, seat, -earned)
    state.turns += 1
    state.turn_income = earned
    state.pauper = not state.owned(seat) and len(state.hands[seat]) < HAND_SIZE
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
        state.stock, state.discard = state.discard, []
        chance(state.seed, state.counter).shuffle(state.stock)
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
    private = [CardsDrawn(seat, tuple(drawn))] if drawn else []
    return [Drew(seat, total, taken, cost, pauper), *private, *stock_events]


def _result(state: PortfolioState) -> Outcome:
    n = state.players
    values = [income(state, seat) for seat in range(n)]
    ranks = Outcome.rank_by([(state.money[s], values[s]) for s in range(n)])
    winners = [s for s in range(n) if ranks[s] == 1]
    names = state.names
    top = state.money[winners[0]]
    if len(winners) > 1:
        summary = (f"{' and '.join(names[s] for s in winners)} share the win with {dollars(top)} "
                   f"and portfolios worth {dollars(values[winners[0]])}.")
    elif sum(1 for s in range(n) if state.money[s] == top) > 1:
        summary = (f"{names[winners[0]]} wins: tied on {dollars(top)}, but with the greater "
                   f"portfolio value ({dollars(values[winners[0]])}).")
    else:
        summary = f"{names[winners[0]]} wins with {dollars(top)}."
    final = state.final_income or [0] * n
    breakdown = tuple(
        {"money before final income": state.money[s] - final[s], "final income": final[s],
         "money": state.money[s], "portfolio value": values[s]}
        for s in range(n))
    return Outcome(ranks, tuple(state.money), breakdown, summary)


# -- JSON ------------------------------------------------------------------------------------
def _keys(cards: Iterable[Card]) -> list[str]:
    return [card.key for card in cards]


def _card_or_none(text: Any) -> Card | None:
    return None if text is None else parse_card(str(text))


def _cards(texts: Iterable[Any]) -> list[Card]:
    return [parse_card(str(t)) for t in texts]


def _offer_json(offer: OfferInfo) -> dict[str, Any]:
    return {"proposer": offer.proposer, "responder": offer.responder,
            "give_cards": _keys(offer.give_cards), "give_portfolios": list(offer.give_portfolios),
            "give_money": offer.give_money, "take_cards": _keys(offer.take_cards),
            "take_portfolios": list(offer.take_portfolios), "take_money": offer.take_money}


def _offer_from_json(data: Mapping[str, Any]) -> OfferInfo:
    return OfferInfo(int(data["proposer"]), int(data["responder"]),
                     tuple(_cards(data.get("give_cards", ()))), tuple(data.get("give_portfolios", ())),
                     int(data.get("give_money", 0)), tuple(_cards(data.get("take_cards", ()))),
                     tuple(data.get("take_portfolios", ())), int(data.get("take_money", 0)))


# -- the spec --------------------------------------------------------------------------------
class PortfolioGame:
    """The GameSpec of Portfolio. Stateless: every function takes a ``PortfolioState``."""

    name = "portfolio"
    title = "Portfolio"
    blurb = "Build runs of cards that pay income; neutralise or take over your rivals' portfolios."
    players = (2, 5)
    options: tuple = ()
    best_bot = "bot"

    def __init__(self, bots: Mapping[str, Any] | None = None) -> None:
        self.notation = PortfolioNotation()
        self.bots = dict(bots or {})

    # -- setup and reading -------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> PortfolioState:
        check_setup(self, names, options)
        n = len(names)
        decks = 2 if n <= 3 else 3
        deck = build_deck(decks)
        chance(seed, 0).shuffle(deck)
        # dealt round the table from the top: seat s holds deck positions s, s+n, s+2n, …
        hands = [deck[seat::n][:HAND_SIZE] for seat in range(n)]
        stock = deck[n * HAND_SIZE:]
        discard = [stock.pop()]
        state = PortfolioState(
            names=list(names), seed=seed, decks=decks, stock=stock, discard=discard, hands=hands,
            money=[START_MONEY] * n, counter=1, turns=0, sheet=[[START_MONEY] for _ in names])
        _start_turn(state)
        return state

    def to_move(self, state: PortfolioState) -> int | None:
        return state.awaiting

    def turn(self, state: PortfolioState) -> int:
        return state.turns

    def conserved(self, state: PortfolioState) -> dict[str, Any]:
        cards = [*state.stock, *state.discard, *(c for hand in state.hands for c in hand),
                 *(c for p in state.portfolios for c in p.all_cards())]
        return {"cards": sorted(_keys(cards)), "money": sum(state.money) + state.bank}

    # -- legal commands ------------------------------------------------------------------------
    def legal(self, state: PortfolioState) -> list[Command]:
        if state.phase == OVER:
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
            commands += [Draw(n, flag) for n in range(1, max(1, min(top, reachable)) + 1)]
        return commands

    def _legal_actions(self, state: PortfolioState) -> list[Command]:
        seat = state.current
        hand = state.hands[seat]
        lowest = {}
        for card in sort_cards(hand):
            lowest.setdefault(card.face, card)
        commands: list[Command] = [Make(run) for run in runs_in(hand)]
        money = state.money[seat]
        for portfolio in state.portfolios:
            pid = portfolio.pid
            value = portfolio_value(portfolio.cards)
            if portfolio.owner == seat:
                for end in (LOW, HIGH):
                    face = extension(portfolio, end)
                    if face is not None and face.face in lowest:
                        commands.append(Extend(pid, lowest[face.face]))
                for end in (LOW, HIGH):
                    commands += [Cap(pid, end, lowest[f.face])
                                 for f in cap_faces(portfolio, end) if f.face in lowest]
            else:
                face = neutraliser(portfolio)
                if face is not None and face.face in lowest and money >= value:
                    commands.append(Neutralise(pid, lowest[face.face]))
                if money >= 2 * value:
                    commands += [Acquire(pid, lowest[f.face])
                                 for f in acquirers(portfolio) if f.face in lowest]
        if not state.offered:
            commands += self._legal_offers(state, seat, list(lowest.values()))
        if not hand:
            return commands + [End()]
        for card in lowest.values():
            choice = discard_choice(hand, state.taken_discard, card)
            if choice != state.taken_discard or len(hand) == 1:
                commands.append(Discard(choice))
        return commands

    def _legal_offers(self, state: PortfolioState, seat: int, cards: list[Card]) -> list[Command]:
        """A small useful set (``check`` judges any other): buy an opponent's portfolio for its
        acquisition price, or sell one hand card for $1."""
        offers: list[Command] = []
        for step in range(1, state.players):
            other = (seat + step) % state.players
            name = state.names[other]
            for portfolio in state.owned(other):
                price = 2 * portfolio_value(portfolio.cards)
                if price <= state.money[seat]:
                    offers.append(Offer(name, give_money=price, take_portfolios=(portfolio.pid,)))
            if state.money[other] >= 1:
                offers += [Offer(name, give_cards=(card,), take_money=1) for card in cards]
        return offers

    # -- checking ------------------------------------------------------------------------------
    def check(self, state: PortfolioState, command: Command) -> None:
        if state.phase == OVER:
            raise IllegalCommand("The game is over.")
        seat = state.current
        name = state.names[seat]
        if state.phase == RESPOND:
            offer = state.offer
            responder = state.names[offer.responder]
            if isinstance(command, Accept):
                validate_accept(state, offer)
            elif not isinstance(command, Decline):
                raise IllegalCommand(f"{responder} must first accept or decline {name}'s offer.")
            return
        if isinstance(command, (Accept, Decline)):
            raise IllegalCommand("There is no offer to answer.")
        if state.phase == DRAW:
            self._check_draw(state, command)
            return
        if isinstance(command, (Draw, Pauper)):
            if state.last_round:
                raise IllegalCommand("The stock is finished: nobody draws any more.")
            raise IllegalCommand(f"{name} has already drawn this turn.")
        match command:
            case Make(cards):
                validate_make(state, seat, cards)
            case Extend(pid, card):
                validate_extend(state, seat, pid, card)
            case Cap(pid, end, card):
                validate_cap(state, seat, pid, end, card)
            case Neutralise(pid, card):
                validate_neutralise(state, seat, pid, card)
            case Acquire(pid, card):
                validate_acquire(state, seat, pid, card)
            case Offer():
                validate_offer(state, seat, command)
            case Discard(card):
                validate_discard(state, seat, card)
            case End():
                if state.hands[seat]:
                    raise IllegalCommand("You still hold cards: end the turn by discarding one.")
            case _:
                raise IllegalCommand(f"{command!r} is not a Portfolio command.")

    def _check_draw(self, state: PortfolioState, command: Command) -> None:
        name = state.names[state.current]
        if not isinstance(command, (Draw, Pauper)):
            raise IllegalCommand(f"{name} must first choose how many cards to draw.")
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
            raise IllegalCommand(f"Drawing {command.count} cards costs {dollars(cost)}, but this turn's "
                                 f"income is {dollars(state.turn_income)} (savings cannot pay for cards).")

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: PortfolioState, command: Command) -> list[Event]:
        self.check(state, command)
        seat = state.current
        hand = state.hands[seat]
        match command:
            case Draw(count, from_discard):
                return _draw(state, count, from_discard, pauper=False)
            case Pauper(from_discard):
                return _draw(state, 2, from_discard, pauper=True)
            case Make(cards):
                for card in cards:
                    hand.remove(card)
                run = sorted(cards, key=lambda c: c.rank)
                pid = f"P{state.next_pid}"
                state.next_pid += 1
                state.portfolios.append(Portfolio(pid, seat, run))
                return [Made(seat, pid, tuple(run), portfolio_value(run))]
            case Extend(pid, card):
                end = validate_extend(state, seat, pid, card)
                portfolio = _portfolio(state, pid)
                hand.remove(card)
                if end == LOW:
                    portfolio.cards.insert(0, card)
                else:
                    portfolio.cards.append(card)
                return [Extended(seat, pid, card, end, portfolio_value(portfolio.cards))]
            case Cap(pid, end, card):
                portfolio = _portfolio(state, pid)
                hand.remove(card)
                if end == LOW:
                    portfolio.low_cap = card
                else:
                    portfolio.high_cap = card
                return [Capped(seat, pid, end, card)]
            case Neutralise(pid, card):
                portfolio, cost = validate_neutralise(state, seat, pid, card)
                hand.remove(card)
                _pay(state, seat, cost)
                state.portfolios.remove(portfolio)
                # swept up from low to high: the top discard is the high end (or its cap)
                state.discard += [card, *portfolio.all_cards()]
                return [Neutralised(seat, pid, portfolio.owner, card, cost)]
            case Acquire(pid, card):
                portfolio, cost = validate_acquire(state, seat, pid, card)
                owner = portfolio.owner
                hand.remove(card)
                _pay(state, seat, cost)
                portfolio.owner = seat
                on_king = portfolio.high.rank == KING
                if on_king:
                    state.discard.append(card)
                else:
                    portfolio.cards.append(card)
                return [Acquired(seat, pid, owner, card, cost, on_king)]
            case Offer():
                responder = validate_offer(state, seat, command)
                state.offer = OfferInfo(seat, responder, command.give_cards, command.give_portfolios,
                                        command.give_money, command.take_cards,
                                        command.take_portfolios, command.take_money)
                state.offered = True
                state.phase = RESPOND
                give = describe_items(command.give_cards, command.give_portfolios, command.give_money)
                take = describe_items(command.take_cards, command.take_portfolios, command.take_money)
                return [Offered(seat, responder, give, take)]
            case Accept():
                return self._accept(state)
            case Decline():
                offer = state.offer
                state.offer, state.phase = None, ACT
                return [DealDeclined(offer.proposer, offer.responder)]
            case Discard(card):
                hand.remove(card)
                state.discard.append(card)
                return [Discarded(seat, card), *_end_turn(state)]
            case End():
                return [HandEmptied(seat), *_end_turn(state)]
        raise IllegalCommand(f"{command!r} is not a Portfolio command.")

    def _accept(self, state: PortfolioState) -> list[Event]:
        offer = state.offer
        take = validate_accept(state, offer)
        proposer, responder = offer.proposer, offer.responder
        for card in offer.give_cards:
            state.hands[proposer].remove(card)
            state.hands[responder].append(card)
        for card in take:
            state.hands[responder].remove(card)
            state.hands[proposer].append(card)
        for pid in offer.give_portfolios:
            _portfolio(state, pid).owner = responder
        for pid in offer.take_portfolios:
            _portfolio(state, pid).owner = proposer
        net = offer.take_money - offer.give_money
        state.money[proposer] += net
        state.money[responder] -= net
        state.offer, state.phase = None, ACT
        return [DealDone(proposer, responder, offer.give_cards, offer.give_portfolios, offer.give_money,
                         tuple(take), offer.take_portfolios, offer.take_money)]

    # -- what a seat sees ----------------------------------------------------------------------
    def view(self, state: PortfolioState, seat: int | None) -> PortfolioView:
        n = state.players
        sizes = tuple(len(hand) for hand in state.hands)
        infos = tuple(_info(p) for p in state.portfolios)
        incomes = tuple(sum(i.value for i in infos if i.owner == s) for s in range(n))
        owned = [len(state.owned(s)) for s in range(n)]
        rows = tuple((dollars(state.money[s]), dollars(incomes[s]), str(owned[s]), str(sizes[s]))
                     for s in range(n))
        costs = (tuple(draw_cost(k) for k in range(1, max_draw(state.turn_income) + 1))
                 if state.phase == DRAW else ())
        return PortfolioView(
            seat=seat, to_move=state.awaiting,
            hand=tuple(sort_cards(state.hands[seat])) if seat is not None else (),
            hand_sizes=sizes, columns=("Money", "Income", "Portfolios", "Hand"), rows=rows,
            portfolios=infos, money=tuple(state.money),
            income=incomes, stock_size=len(state.stock),
            discard_top=state.discard[-1] if state.discard else None,
            discard_size=len(state.discard), phase=state.phase, current=state.current,
            turn_income=state.turn_income, draw_costs=costs, pauper=state.pauper,
            taken_discard=state.taken_discard, last_round=state.last_round,
            reshuffle_pending=state.reshuffle_pending, dealer=state.dealer,
            score_sheet=tuple(tuple(column) for column in state.sheet), offer=state.offer)

    def outcome(self, state: PortfolioState) -> Outcome | None:
        return _result(state) if state.phase == OVER else None

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self, state: PortfolioState) -> dict[str, Any]:
        return {
            "names": list(state.names), "seed": state.seed, "counter": state.counter,
            "decks": state.decks, "stock": _keys(state.stock), "discard": _keys(state.discard),
            "hands": [_keys(hand) for hand in state.hands], "money": list(state.money),
            "bank": state.bank,
            "portfolios": [{"pid": p.pid, "owner": p.owner, "cards": _keys(p.cards),
                            "low_cap": p.low_cap.key if p.low_cap else None,
                            "high_cap": p.high_cap.key if p.high_cap else None}
                           for p in state.portfolios],
            "next_pid": state.next_pid, "current": state.current, "phase": state.phase,
            "turns": state.turns, "turn_income": state.turn_income, "pauper": state.pauper,
            "taken_discard": state.taken_discard.key if state.taken_discard else None,
            "offered": state.offered,
            "offer": _offer_json(state.offer) if state.offer else None,
            "reshuffled": state.reshuffled, "last_round": state.last_round,
            "sheet": [list(column) for column in state.sheet],
            "final_income": list(state.final_income) if state.final_income is not None else None,
        }

    def from_json(self, data: Mapping[str, Any]) -> PortfolioState:
        """Read a position; only names, stock, discard, hands and money are required, so a test
        or a user can write a position by hand."""
        try:
            money = [int(m) for m in data["money"]]
            portfolios = [Portfolio(str(p["pid"]), int(p["owner"]), _cards(p["cards"]),
                                    _card_or_none(p.get("low_cap")), _card_or_none(p.get("high_cap")))
                          for p in data.get("portfolios", ())]
            next_pid = data.get("next_pid", 1 + max((int(p.pid[1:]) for p in portfolios), default=0))
            final = data.get("final_income")
            state = PortfolioState(
                names=[str(n) for n in data["names"]], seed=int(data.get("seed", 0)),
                decks=int(data.get("decks", 2)), stock=_cards(data["stock"]),
                discard=_cards(data["discard"]), hands=[_cards(h) for h in data["hands"]],
                money=money, bank=int(data.get("bank", 0)), counter=int(data.get("counter", 1)),
                portfolios=portfolios, next_pid=int(next_pid),
                current=int(data.get("current", 0)), phase=str(data.get("phase", DRAW)),
                turns=int(data.get("turns", 1)), turn_income=int(data.get("turn_income", 0)),
                pauper=bool(data.get("pauper", False)),
                taken_discard=_card_or_none(data.get("taken_discard")),
                offered=bool(data.get("offered", False)),
                offer=_offer_from_json(data["offer"]) if data.get("offer") else None,
                reshuffled=bool(data.get("reshuffled", False)),
                last_round=bool(data.get("last_round", False)),
                sheet=[[int(x) for x in col] for col in data.get("sheet", [[m] for m in money])],
                final_income=[int(x) for x in final] if final is not None else None)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RulesError(f"not a Portfolio position: {error}") from None
        if state.phase not in (DRAW, ACT, RESPOND, OVER):
            raise RulesError(f"not a Portfolio position: unknown phase {state.phase!r}")
        return state


def _info(portfolio: Portfolio) -> PortfolioInfo:
    value = portfolio_value(portfolio.cards)
    low = neutraliser(portfolio)
    high = acquirers(portfolio)
    return PortfolioInfo(
        pid=portfolio.pid, owner=portfolio.owner, cards=tuple(portfolio.cards),
        low_cap=portfolio.low_cap, high_cap=portfolio.high_cap, value=value,
        neutralise_cost=value if low else None, acquire_cost=2 * value if high else None,
        neutralise_card=low.code if low else None,
        acquire_card="/".join(card.code for card in high) or None)
