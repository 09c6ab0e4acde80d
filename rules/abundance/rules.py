"""Abundance (pagat.com invented games): setup, legal commands, checks, effects, views and the
result. seeds/abundance.md gives the rules as implemented and the rulings applied.

A match is two rubbers; a rubber is four rounds; a round is one face-down pile of twelve cards,
each turned up and auctioned in turn (open, sealed, one bid, open), with a trade window after
every auction, and ends with the sale of every trinket to the market (market.py).
"""

from __future__ import annotations

import random
from functools import lru_cache, partial
from typing import Any, Mapping, Sequence

from rules.core import (
    SUITS, Card, IllegalCommand, Outcome, RulesError, Suit, chance, check_awaited, check_setup, sort_cards,
)
from rules.core.auctions import OpenAuction, SealedAuction
from rules.core.engine import made_with
from rules.core.jsonio import card_keys
from rules.core.listing import Deferred, Listing, MadeWhenRead
from rules.core.offers import Deal, DealDeclined, DealDone, Offered, Side, responder_of
from rules.core.piles import shuffled
from rules.core.words import Sentence, dollars, join_names, player, players, say, winners_sentence

from .commands import Accept, Bid, ChoosePile, Command, Decline, Offer, Pass, Ready, SealedBid
from .events import (
    BidMade, CardTurned, LastPile, MatchOver, NewRubber, Passed, PileChosen, ReadyToGo, RubberOver,
    SealedBidIn, SealedRevealed, Sold, Won,
)
from .market import (
    CORNER, ONE_BID, OPEN, PILE_SIZE, ROUND_KINDS, ROUNDS, SEALED, expected_pays, expected_sale, held_sale,
    pays, rarity, round_values, sale_value, suit_counts,
)
from .notation import AbundanceNotation
from .state import (
    ACES, AUCTION, CHOOSE, OVER, PILE_NUMBERS, PILES, SEALED_PHASE, START_MONEY, TRADE, TRINKET_CARDS,
    AbundanceState, AbundanceView, AuctionInfo, Sale, state_from_json, state_to_json,
)

RUBBERS = 2
DEALER_CHOOSES = (2,)  # the rounds whose pile the dealer chooses; the non-dealer chooses 1 and 3


# -- who does what ---------------------------------------------------------------------------
def chooser(state: AbundanceState) -> int:
    """The seat that chooses this round's pile: the non-dealer in rounds 1 and 3, the dealer
    in round 2 (round 4 takes the pile that is left)."""
    return state.dealer if state.round in DEALER_CHOOSES else state.non_dealer


def auction_kind(state: AbundanceState) -> str:
    """The kind of the auction on the block: the round's, except that a tied sealed auction is
    re-run open."""
    kind = ROUND_KINDS[state.round]
    return OPEN if kind == SEALED and state.phase == AUCTION else kind


def new_auction(state: AbundanceState, rerun: bool = False) -> None:
    """Start the auction of the card on the block: round 1 open with the non-dealer first,
    round 2 sealed (``rerun``: the open auction after a tie, the dealer first), round 3 one bid
    each with the non-dealer first, round 4 open with the dealer first."""
    dealer, other = state.dealer, state.non_dealer
    kind = ROUND_KINDS[state.round]
    state.auction, state.sealed = None, None
    state.calls = []
    if kind == SEALED and not rerun:
        state.phase = SEALED_PHASE
        state.sealed = SealedAuction((0, 1))
        return
    state.phase = AUCTION
    if kind == ONE_BID:
        state.auction = OpenAuction((other, dealer), once_around=True)
    elif state.round == 1:
        state.auction = OpenAuction((other, dealer))
    else:  # round 4, and the re-run of a tied sealed auction in round 2
        state.auction = OpenAuction((dealer, other))


def counts(state: AbundanceState) -> tuple[int, int, int, int]:
    """The market tally: cards of each suit (♠ ♥ ♦ ♣) turned up so far this rubber."""
    return suit_counts(state.up())


def awaiting(state: AbundanceState) -> frozenset[int]:
    phase = state.phase
    if phase == CHOOSE:
        return _ONLY[chooser(state)]
    if phase == AUCTION:  # an auction phase always has its auction (from_json sees to it)
        return _ONLY[state.auction.order[state.auction.position]]  # type: ignore[union-attr]
    if phase == SEALED_PHASE:
        return state.sealed.waiting  # type: ignore[union-attr]
    if phase == TRADE:
        if state.offer is not None:
            return _ONLY[state.offer.responder]
        ready = state.ready
        return _NOT_READY[ready[0], ready[1]]
    return frozenset()


# the sets awaiting answers, made once (frozen): the playouts ask several times a command
_ONLY = (frozenset((0,)), frozenset((1,)))
_NOT_READY = {(r0, r1): frozenset(seat for seat, ready in enumerate((r0, r1)) if not ready)
              for r0 in (False, True) for r1 in (False, True)}


@lru_cache(maxsize=4096)  # of the few hundred hands a match holds: every view asks
def _corners(held: tuple[int, int, int, int]) -> tuple[Suit, ...]:
    """The suits a hand holding ``held`` of each (suit order) corners."""
    return tuple(suit for suit in SUITS if held[suit.order] >= CORNER)


_READY = (Ready(),)  # commands are immutable: every trade's list may begin with the same one


def _offer_money(pair: tuple[int, Card]) -> Offer:
    return Offer(None, Side(money=pair[0]), Side(cards=(pair[1],)))


def _offer_card(pair: tuple[Card, int]) -> Offer:
    return Offer(None, Side(cards=(pair[0],)), Side(money=pair[1]))


def _swap(pair: tuple[Card, Card]) -> Offer:
    return Offer(None, Side(cards=(pair[0],)), Side(cards=(pair[1],)))


def _offers(up: list[Card], round_number: int, mine: list[Card], theirs: list[Card], my_money: int,
            their_money: int) -> Listing:
    """Ready, then a few offers worth suggesting: buy one of the other's trinkets, or sell one
    of one's own, for what a trinket of its suit would sell for now (at the tally ``up``; at
    least $1); swap one trinket for one of another suit. Each offer is made when read (two
    hands of ten make a hundred)."""
    paid = pays(suit_counts(up), round_number)
    theirs, mine = sort_cards(theirs), sort_cards(mine)
    buys, sells = [], []
    for card in theirs:
        price = max(1, paid[card.suit.order])  # type: ignore[union-attr]
        if price <= my_money:
            buys.append((price, card))
    for card in mine:
        price = max(1, paid[card.suit.order])  # type: ignore[union-attr]
        if price <= their_money:
            sells.append((card, price))
    swaps = [(given, taken) for given in mine for taken in theirs if given.suit is not taken.suit]
    return Listing(_READY, MadeWhenRead(buys, _offer_money), MadeWhenRead(sells, _offer_card),
                   MadeWhenRead(swaps, _swap))


_BIDS: dict[type, list[Any]] = {Bid: [], SealedBid: []}


def _bids(kind: type, low: int, high: int) -> list[Any]:
    """``kind(n)`` for every n from ``low`` to ``high``: made once and shared (commands are
    frozen), since a rich player's bids number in the thousands at every turn to bid."""
    made = _BIDS[kind]
    while len(made) <= high:
        made.append(kind(len(made)))
    return made[low:high + 1]


# -- checks ----------------------------------------------------------------------------------
def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _named(card: Any) -> Any:
    """A card as a refusal names it: a Card part (read as its symbol), or whatever else was
    sent, in its repr."""
    return card if isinstance(card, Card) else repr(card)


def validate_choice(state: AbundanceState, command: ChoosePile) -> None:
    available = state.available
    if not _whole(command.pile) or command.pile not in PILE_NUMBERS:
        raise IllegalCommand(f"The piles are numbered 1 to {PILES}; choose pile {join_names(list(map(str, available)), 'or')}.")
    if command.pile in state.chosen:
        raise IllegalCommand(f"Pile {command.pile} has already been played this rubber; "
                             f"choose pile {join_names(list(map(str, available)), 'or')}.")


def validate_bid(state: AbundanceState, seat: int, amount: Any) -> None:
    auction: OpenAuction = state.auction  # type: ignore[assignment]  # from_json sees to it
    if not _whole(amount):
        raise IllegalCommand(f"A bid is a whole number of units, not {amount!r}.")
    if amount < auction.minimum:
        if auction.high == 0:
            raise IllegalCommand(say("Bid at least {}, or pass.", dollars(1)))
        raise IllegalCommand(say("A bid must beat the standing bid of {}: bid at least {}, or pass.",
                                 dollars(auction.high), dollars(auction.minimum)))
    if amount > state.money[seat]:
        raise IllegalCommand(say("You have only {}: you cannot bid {}.", dollars(state.money[seat]), dollars(amount)))


def validate_sealed(state: AbundanceState, seat: int, amount: Any) -> None:
    if not _whole(amount):
        raise IllegalCommand(f"A bid is a whole number of units, not {amount!r}.")
    if amount < 0:
        raise IllegalCommand("A bid cannot be negative; bid 0 to decline.")
    if amount > state.money[seat]:
        raise IllegalCommand(say("You have only {}: you cannot bid {}.", dollars(state.money[seat]), dollars(amount)))


def _side_cards(side: Side, holder: list[Card], names: Sequence[str] | None, seat: int) -> None:
    """Refuse a side naming a card twice or one its holder (``seat``; None for ``names``: the
    proposer, "You") lacks; the holder's name is made only for the refusal."""
    for i, card in enumerate(side.cards):
        if card in side.cards[:i]:
            raise IllegalCommand(say("{} is named twice.", _named(card)))
        if card not in holder:
            whose = Sentence("You") if names is None else player(names, seat)
            raise IllegalCommand(say("{} {} no trinket {}.", whose, "have" if whose == "You" else "has", _named(card)))


def validate_deal(state: AbundanceState, proposer: int, responder: int, give: Any, take: Any) -> None:
    """Refuse, in words, an exchange that cannot be carried out now (both sides are public)."""
    if not isinstance(give, Side) or not isinstance(take, Side):
        raise IllegalCommand("An offer lists what is given and what is taken.")
    if give.holdings or take.holdings:
        raise IllegalCommand("Only trinkets and money can be traded in Abundance.")
    if give.empty and take.empty:
        raise IllegalCommand("An offer must give or take something.")
    for side in (give, take):
        if not _whole(side.money) or side.money < 0:
            raise IllegalCommand("Money in an offer is a whole number of units, not negative.")
        if not isinstance(side.cards, (tuple, list)):
            raise IllegalCommand("An offer lists the trinkets each side hands over.")
    _side_cards(give, state.trinkets[proposer], None, proposer)
    _side_cards(take, state.trinkets[responder], state.names, responder)
    if give.money > state.money[proposer]:
        raise IllegalCommand(say("You have only {}, not {}.", dollars(state.money[proposer]), dollars(give.money)))
    if take.money > state.money[responder]:
        raise IllegalCommand(say("{} has only {}, not {}.", player(state.names, responder),
                                 dollars(state.money[responder]), dollars(take.money)))


def validate_offer(state: AbundanceState, seat: int, offer: Offer) -> int:
    """The responder's seat."""
    if state.offered[seat]:
        raise IllegalCommand("You have already made your offer in this trade window; say ready.")
    if offer.to == seat:
        raise IllegalCommand("You cannot trade with yourself.")
    responder = responder_of(offer, seat, 2)
    validate_deal(state, seat, responder, offer.give, offer.take)
    return responder


def validate_accept(state: AbundanceState, offer: Deal) -> None:
    try:
        validate_deal(state, offer.proposer, offer.responder, offer.give, offer.take)
    except IllegalCommand as error:
        reason = Sentence(error.sentence)
        if reason.parts and isinstance(reason.parts[-1], str) and reason.endswith("."):
            reason = Sentence(*reason.parts[:-1], reason.parts[-1][:-1])  # its own stop goes
        raise IllegalCommand(say("That offer cannot be carried out ({}); decline it.", reason)) from None


# -- the flow of a round ---------------------------------------------------------------------
def _pay(state: AbundanceState, seat: int, amount: int) -> None:
    """Money from a player to the bank (a negative amount: from the bank to the player)."""
    state.money[seat] -= amount
    state.bank += amount


def _deal(state: AbundanceState) -> None:
    """A new rubber's deal: the 48 trinkets shuffled into four face-down piles of twelve."""
    deck = shuffled(TRINKET_CARDS, state.seed, state.counter)
    state.counter += 1
    state.piles = [deck[i::PILES] for i in range(PILES)]
    state.chosen, state.sold, state.trinkets = [], [], [[], []]
    state.round, state.phase = 1, CHOOSE


def _turn_card(state: AbundanceState) -> list[Any]:
    pile = state.piles[state.chosen[-1] - 1]
    state.card = pile.pop()
    state.auctions += 1
    new_auction(state)
    state.revealed = None
    opener = None if state.auction is None else state.auction.order[0]
    return [CardTurned(state.card, PILE_SIZE - len(pile), state.round, auction_kind(state), opener)]


def _take(state: AbundanceState, seat: int, price: int) -> Card:
    """The card on the block goes to ``seat`` for ``price``; a trade window opens."""
    card: Card = state.card  # type: ignore[assignment]  # a card is always up when an auction ends
    _pay(state, seat, price)
    state.trinkets[seat].append(card)
    state.card, state.auction, state.sealed = None, None, None
    state.phase = TRADE
    state.ready, state.offered, state.offer = [False, False], [False, False], None
    return card


def _settle_open(state: AbundanceState) -> list[Any]:
    auction: OpenAuction = state.auction  # type: ignore[assignment]
    if auction.leader is None:
        opener = auction.order[0]
        return [Won(opener, _take(state, opener, 0), 0, free=True)]
    winner, price = auction.leader, auction.high
    return [Won(winner, _take(state, winner, price), price)]


def _settle_sealed(state: AbundanceState) -> list[Any]:
    sealed: SealedAuction = state.sealed  # type: ignore[assignment]
    card: Card = state.card  # type: ignore[assignment]
    top, price = sealed.result()
    bids = tuple(sealed.bids[seat] for seat in (0, 1))
    state.revealed = bids
    if len(top) == 1:
        _take(state, top[0], price)
        return [SealedRevealed(card, bids, top[0], price, state.dealer)]
    new_auction(state, rerun=True)
    return [SealedRevealed(card, bids, None, price, state.dealer)]


def _after_trading(state: AbundanceState) -> list[Any]:
    """Both players are ready: the next card, or the sale and what follows it."""
    if state.pile_left:
        return _turn_card(state)
    events = _sell(state)
    if state.round < ROUNDS:
        state.round += 1
        if state.round < ROUNDS:
            state.phase = CHOOSE
            return events
        last = state.available[0]
        state.chosen.append(last)
        return events + [LastPile(last, state.round)] + _turn_card(state)
    state.rubbers.append(tuple(state.money))
    events.append(RubberOver(state.rubber, tuple(state.money)))
    if state.rubber < RUBBERS:
        state.rubber += 1
        for seat in (0, 1):  # the rubber's money is on the score sheet; the bank pays out afresh
            state.money[seat] = START_MONEY
            state.bank -= START_MONEY
        _deal(state)
        return events + [NewRubber(state.rubber, state.dealer, START_MONEY)]
    state.phase = OVER
    outcome = _result(state)
    return events + [MatchOver(outcome.summary)]


def _sell(state: AbundanceState) -> list[Any]:
    tally = counts(state)
    paid = pays(tally, state.round)
    amounts = tuple(sale_value(state.trinkets[seat], tally, state.round) for seat in (0, 1))
    held = tuple(tuple(sort_cards(cards)) for cards in state.trinkets)
    for seat in (0, 1):
        _pay(state, seat, -amounts[seat])
        state.sold += state.trinkets[seat]
    state.trinkets = [[], []]
    state.sales.append(Sale(state.rubber, state.round, paid, amounts))
    return [Sold(state.rubber, state.round, tally, rarity(tally), paid, held, amounts)]


def _result(state: AbundanceState) -> Outcome:
    totals = tuple(sum(money[seat] for money in state.rubbers) for seat in (0, 1))
    ranks = Outcome.rank_by(totals)
    winners = [seat for seat in (0, 1) if ranks[seat] == 1]
    text = winners_sentence(state.names, winners, dollars(totals[winners[0]]))
    if len(winners) == 1:
        text += say(" to {}", dollars(totals[1 - winners[0]]))
    breakdown = tuple({**{f"rubber {n}": money[seat] for n, money in enumerate(state.rubbers, 1)},
                       "total": totals[seat]} for seat in (0, 1))
    return Outcome(ranks, totals, breakdown, text + " over the two rubbers.")


def status_sentence(state: AbundanceState) -> Sentence:
    names = state.names
    if state.phase == OVER:
        return say("The match is over: {}", _result(state).summary)
    if state.phase == CHOOSE:
        return say("Rubber {}, round {}: {} chooses the pile ({} auctions).", state.rubber, state.round,
                   player(names, chooser(state)), ROUND_KINDS[state.round])
    card = state.card if state.card else ""
    waiting = join_names(players(names, sorted(awaiting(state))))
    if state.phase == SEALED_PHASE:
        return say("Sealed bids on {}: waiting for {}.", card, waiting)
    if state.phase == AUCTION:
        auction: OpenAuction = state.auction  # type: ignore[assignment]
        speaker = player(names, auction.order[auction.position])
        if auction.leader is None:
            return say("{}: bid on {} or pass (no bid yet).", speaker, card)
        return say("{}: bid on {} (at least {}) or pass; {} bids {}.", speaker, card, dollars(auction.minimum),
                   player(names, auction.leader), dollars(auction.high))
    if state.offer is not None:
        return say("{}: {} offers a trade — accept or decline.", player(names, state.offer.responder),
                   player(names, state.offer.proposer))
    after = "the next card" if state.pile_left else "the sale"
    return say("Trading before {}: {} may make an offer or say ready.", after, waiting)


# -- the spec --------------------------------------------------------------------------------
class AbundanceGame:
    """The GameSpec of Abundance. Stateless: every function takes an ``AbundanceState``."""

    name = "abundance"
    title = "Abundance"
    blurb = "Bid for trinkets at open, sealed and one-bid auctions; sell the rarest suits dear."
    players = (2, 2)
    options: tuple = ()
    best_bot = "bot"
    # the longest game of the sweep (tests/benchmark.py --parts ending: 300 seeds, every pairing of
    # levels, every player count), in commands: two bots, seed 15
    longest = 1811
    # a match asks the expert some 480 times: at 0.2 s a move a player waits half as long as at
    # the other games' 0.4 s, and it won 140 of 200 matches against the bot (0.4 s: 7 of 16)
    # analysis_scale: the estimate's lead at a playout's end that makes a win e times as likely as
    # a loss, fitted on the analysis's own chances (tests/fit_scale.py abundance --games 16
    # --decisions 12 --iterations 48: 192 decisions; log loss 0.542 against 0.563 at the 1605 before),
    # checked on 240 decisions of 40 other games (the benchmark's): 0.492 against 0.522. Kept when
    # the estimate came to value trinkets at their expected sale: fitted again the same way, 874
    # (log loss 0.5360 either way), and on 160 decisions of the benchmark's games 0.5051 against 0.5052
    expert = {"seconds": 0.2, "analysis_scale": 870.0}
    # legal lists a useful few offers (buy or sell one trinket, swap two): check judges any other
    partial_legal = (Offer,)

    def __init__(self, bots: Mapping[str, Any] | None = None) -> None:
        self.notation = AbundanceNotation()
        self.bots = dict(bots or {})

    # -- setup and reading -------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> AbundanceState:
        check_setup(self, names, options)
        first_dealer = chance(seed, "first dealer").randrange(2)  # drawn by lot
        state = AbundanceState(names=list(names), seed=seed, counter=0, first_dealer=first_dealer,
                               piles=[], money=[START_MONEY, START_MONEY], trinkets=[[], []])
        _deal(state)
        return state

    def awaiting(self, state: AbundanceState) -> frozenset[int]:
        return awaiting(state)

    def turn(self, state: AbundanceState) -> int:
        """The auction the match is at (1-96), counted through both rubbers."""
        return max(1, state.auctions)

    def invariants(self, state: AbundanceState) -> list[str]:
        """What no reachable position breaks, the broken ones in words (see invariants.py)."""
        from .invariants import invariants

        return invariants(self, state)

    def conserved(self, state: AbundanceState) -> dict[str, Any]:
        cards = [*ACES, *(c for pile in state.piles for c in pile), *state.up()]
        # a finished rubber's money went onto the score sheet when the next rubber began afresh
        banked = state.rubbers[: state.rubber - 1]
        money = sum(state.money) + state.bank + sum(sum(money) for money in banked)
        return {"cards": sorted(card_keys(cards)), "money": money}

    # -- legal commands ------------------------------------------------------------------------
    def legal(self, state: AbundanceState, seat: int) -> list[Command]:
        if seat not in awaiting(state):
            return []
        money = state.money[seat]
        if state.phase == CHOOSE:
            return [ChoosePile(n) for n in state.available]
        if state.phase == SEALED_PHASE:
            return _bids(SealedBid, 0, money)
        if state.phase == AUCTION:
            return [*_bids(Bid, state.auction.minimum, money), Pass()]  # type: ignore[union-attr]
        if state.offer is not None:
            try:
                validate_accept(state, state.offer)
            except IllegalCommand:
                return [Decline()]
            return [Accept(), Decline()]
        if state.offered[seat]:
            return [Ready()]
        return self._useful_offers(state, seat)

    @staticmethod
    def _useful_offers(state: AbundanceState, seat: int) -> Sequence[Command]:
        """Ready, then a few offers worth suggesting (``_offers``), the list made when first
        read, from copies of what it is made from: a bot between auctions reads none of it, and
        the expert's playouts only ask whether it is empty (it never is)."""
        other = 1 - seat
        return Deferred(partial(_offers, state.up(), state.round, state.trinkets[seat][:], state.trinkets[other][:],
                                state.money[seat], state.money[other]), nonempty=True)  # Ready at least

    # -- checking ------------------------------------------------------------------------------
    def check(self, state: AbundanceState, seat: int, command: Command) -> None:
        self._validate(state, seat, command)

    def _validate(self, state: AbundanceState, seat: int, command: Command) -> Any:
        """Refuse ``command`` in words, or return what ``apply`` needs (an offer's responder)."""
        check_awaited(awaiting(state), seat, state.names)
        phase = state.phase
        if isinstance(command, ChoosePile):
            if phase != CHOOSE:
                raise IllegalCommand("No pile is being chosen now.")
            return validate_choice(state, command)
        if phase == CHOOSE:
            raise IllegalCommand(f"First choose the pile for round {state.round}, as in 'choose pile "
                                 f"{state.available[0]}'.")
        if isinstance(command, SealedBid):
            if phase != SEALED_PHASE:
                raise IllegalCommand("No sealed bid is asked for now.")
            return validate_sealed(state, seat, command.amount)
        if isinstance(command, (Bid, Pass)):
            if phase == SEALED_PHASE:
                raise IllegalCommand("The bids on this card are sealed: bid a number of units, 0 to decline.")
            if phase != AUCTION:
                raise IllegalCommand("There is no auction now: make an offer or say ready.")
            return validate_bid(state, seat, command.amount) if isinstance(command, Bid) else None
        if phase != TRADE:
            raise IllegalCommand(say("{} is up for auction: bid or pass.", state.card))
        if isinstance(command, (Accept, Decline)):
            if state.offer is None:
                raise IllegalCommand("There is no offer to answer.")
            return validate_accept(state, state.offer) if isinstance(command, Accept) else None
        if state.offer is not None:
            raise IllegalCommand(say("First accept or decline {}'s offer.", player(state.names, state.offer.proposer)))
        if isinstance(command, Offer):
            return validate_offer(state, seat, command)
        if isinstance(command, Ready):
            return None
        raise IllegalCommand(f"{command!r} is not an Abundance command.")

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: AbundanceState, seat: int, command: Command) -> list[Any]:
        checked = self._validate(state, seat, command)  # the one check of this command
        match command:
            case ChoosePile(pile):
                state.chosen.append(pile)
                return [PileChosen(seat, pile, state.round), *_turn_card(state)]
            case Bid(amount):
                state.auction.bid(seat, amount)  # type: ignore[union-attr]
                state.calls.append((seat, amount))
                return [BidMade(seat, amount), *self._auction_over(state)]
            case Pass():
                state.auction.pass_(seat)  # type: ignore[union-attr]
                state.calls.append((seat, None))
                return [Passed(seat), *self._auction_over(state)]
            case SealedBid(amount):
                state.sealed.place(seat, amount)  # type: ignore[union-attr]
                events: list[Any] = [SealedBidIn(seat, amount)]
                if state.sealed.done:  # type: ignore[union-attr]
                    events += _settle_sealed(state)
                return events
            case Offer(_, give, take):
                state.offer = Deal(seat, checked, give, take)
                state.offered[seat] = True
                return [Offered(seat, checked, give, take)]
            case Accept():
                return [self._carry_out(state)]
            case Decline():
                offer = state.offer
                state.offer = None
                state.ready[offer.responder] = False  # type: ignore[union-attr]
                return [DealDeclined(offer.proposer, offer.responder)]  # type: ignore[union-attr]
        # Ready: the only command left that _validate lets through
        state.ready[seat] = True
        events = [ReadyToGo(seat)]
        if all(state.ready):
            events += _after_trading(state)
        return events

    @staticmethod
    def _auction_over(state: AbundanceState) -> list[Any]:
        return _settle_open(state) if state.auction.done else []  # type: ignore[union-attr]

    @staticmethod
    def _carry_out(state: AbundanceState) -> DealDone:
        offer: Deal = state.offer  # type: ignore[assignment]
        proposer, responder = offer.proposer, offer.responder
        for card in offer.give.cards:
            state.trinkets[proposer].remove(card)
            state.trinkets[responder].append(card)
        for card in offer.take.cards:
            state.trinkets[responder].remove(card)
            state.trinkets[proposer].append(card)
        net = offer.take.money - offer.give.money
        state.money[proposer] += net
        state.money[responder] -= net
        state.offer = None
        state.ready[responder] = False
        return DealDone(proposer, responder, offer.give, offer.take)

    # -- what a seat sees ----------------------------------------------------------------------
    def view(self, state: AbundanceState, seat: int | None, plain: bool = False) -> AbundanceView:
        own = seat in (0, 1)
        bids = state.sealed.bids if state.sealed is not None else {}
        # the tally is the sold cards, the trinkets (counted once for the sales and corners too)
        # and the card on the block, as counts(state) counts them
        held = (suit_counts(state.trinkets[0]), suit_counts(state.trinkets[1]))
        sold, card = suit_counts(state.sold), state.card
        (s0, s1, s2, s3), (a0, a1, a2, a3), (b0, b1, b2, b3) = sold, held[0], held[1]
        if card is not None:
            suit = card.suit
            spades, hearts, diamonds, clubs = SUITS
            s0 += suit is spades
            s1 += suit is hearts
            s2 += suit is diamonds
            s3 += suit is clubs
        tally = (s0 + a0 + b0, s1 + a1 + b1, s2 + a2 + b2, s3 + a3 + b3)
        paid = pays(tally, state.round)
        sells = (held_sale(held[0], paid), held_sale(held[1], paid))
        if plain:
            rows: tuple = ()
        else:
            match_money = [sum(money[s] for money in state.rubbers) for s in (0, 1)]
            rows = tuple((dollars(state.money[s]), str(len(state.trinkets[s])), dollars(sells[s]),
                          dollars(match_money[s]) if state.rubbers else "–") for s in (0, 1))
        auction, pile_left = state.auction, state.pile_left
        info = None if auction is None else AuctionInfo(
            tuple(auction.order), auction.once_around, auction.high, auction.leader, auction.position,
            tuple(auction.passed), auction.spoken, auction.to_speak, auction.minimum)
        # made from a dict of its fields: a call by keyword took half of a view's time
        return made_with(AbundanceView, {
            "seat": seat, "names": tuple(state.names), "awaiting": awaiting(state),
            "status": "" if plain else status_sentence(state),
            # a seat's one private zone is its sealed bid, and only once it is in: with none, the
            # view holds nothing private (the table passes between humans without a curtain)
            "zones": {"bid": (bids[seat],)} if own and seat in bids else {},
            "zone_sizes": ({"bid": int(0 in bids)}, {"bid": int(1 in bids)}),
            "columns": ("Money", "Trinkets", "Sells for", "Match"), "rows": rows,
            "options": {}, "phase": state.phase, "rubber": state.rubber, "round": state.round,
            "dealer": state.dealer, "first_dealer": state.first_dealer,
            "chooser": chooser(state) if state.phase == CHOOSE else None,
            "kind": ROUND_KINDS[state.round], "auction_kind": auction_kind(state),
            "values": round_values(state.round), "counts": tally, "rarity": rarity(tally), "pays": paid,
            "held": held, "corners": (_corners(held[0]), _corners(held[1])),
            "piles": tuple(map(len, state.piles)), "chosen": tuple(state.chosen),
            "pile": state.pile, "pile_left": pile_left, "card": card,
            "number": PILE_SIZE - pile_left if card is not None else 0,
            "auction": info, "calls": tuple(state.calls), "sealed_in": tuple(sorted(bids)),
            "revealed": state.revealed, "trinkets": (tuple(state.trinkets[0]), tuple(state.trinkets[1])),
            "sold": tuple(state.sold), "money": tuple(state.money), "bank": state.bank, "sells": sells,
            "ready": tuple(state.ready), "offered": tuple(state.offered), "offer": state.offer,
            "rubbers": tuple(state.rubbers), "sales": tuple(state.sales), "auctions": state.auctions})

    def sample(self, view: AbundanceView, rng: random.Random) -> AbundanceState:
        """A state the viewer cannot tell from the real one: the face-down cards dealt at random
        into the piles (sizes as seen), the other player's sealed bid (if it is in) drawn at
        random within its money, and a fresh seed."""
        seen = set(view.sold) | {c for cards in view.trinkets for c in cards} | {view.card}
        unseen = [card for card in TRINKET_CARDS if card not in seen]
        rng.shuffle(unseen)
        piles = []
        for size in view.piles:
            piles.append(unseen[:size])
            unseen = unseen[size:]
        state = AbundanceState(
            names=list(view.names), seed=rng.randrange(10**9), counter=1, first_dealer=view.first_dealer,
            piles=piles, money=list(view.money), trinkets=[list(cards) for cards in view.trinkets],
            rubber=view.rubber, round=view.round, phase=view.phase, bank=view.bank,
            chosen=list(view.chosen), card=view.card, sold=list(view.sold), calls=list(view.calls),
            revealed=view.revealed, ready=list(view.ready), offered=list(view.offered),
            offer=view.offer, rubbers=list(view.rubbers), sales=list(view.sales),
            auctions=view.auctions)
        info = view.auction
        if info is not None:
            state.auction = OpenAuction(info.order, False, info.once_around, info.high, info.leader,
                                        info.position, list(info.passed), [], info.spoken)
        if view.phase == SEALED_PHASE:
            state.sealed = SealedAuction((0, 1), {
                s: view.my_bid if s == view.seat else rng.randint(0, view.money[s])  # type: ignore[misc]
                for s in view.sealed_in})
        return state

    def outcome(self, state: AbundanceState) -> Outcome | None:
        return _result(state) if state.phase == OVER else None

    score_label = "Match money"

    def scores(self, state: AbundanceState) -> tuple[int, ...]:
        """Each seat's money over the match so far: the rubbers banked and the one in play
        (what the result adds up at the end; the chart of the results draws it)."""
        banked = state.rubbers[: state.rubber - 1]  # the rubber in play (or just over) is in ``money``
        return tuple(sum(money[seat] for money in banked) + state.money[seat] for seat in (0, 1))

    def estimate(self, state: AbundanceState) -> tuple[float, ...]:
        """Each seat's money over the match so far, with its trinkets at what they should sell
        for at this round's sale, the rest of the pile still to come (``expected_pays``, as the
        bot values them: from the public tally and the pile's size, no card face down). At the
        tally so far instead, early in a round most trinkets looked worthless, and selling one
        for $1 looked better than keeping it (the expert's judge of a position, and the
        analysis's)."""
        expected = expected_pays(counts(state), state.round, state.pile_left)
        banked = state.rubbers[: state.rubber - 1]  # the rubber in play is in ``money``
        return tuple(sum(money[seat] for money in banked) + state.money[seat]
                     + expected_sale(suit_counts(state.trinkets[seat]), expected) for seat in (0, 1))

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self, state: AbundanceState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> AbundanceState:
        """Read a position (only ``names`` is required; see state.py for the format and the
        defaults). Anything wrong is a RulesError in words."""
        if not isinstance(data, Mapping):
            raise RulesError("an Abundance position must be a JSON object")
        return state_from_json(data, lambda state: new_auction(state, rerun=state.phase == AUCTION))


__all__ = [
    "AbundanceGame", "auction_kind", "awaiting", "chooser", "counts", "new_auction",
    "status_sentence", "validate_bid", "validate_deal", "validate_offer", "validate_sealed",
]
