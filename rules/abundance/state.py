"""Abundance's position, the public view built from it, and its JSON form.

The state is mutable (``apply`` changes it); everything a view hands out is frozen. Piles are
lists with their top at the END (as every pile in rules/core/piles.py); the JSON lists them top
first.

The JSON form, meant to be written by hand as often as by the program (only ``names`` is
required; everything else has a default)::

    {
      "names": ["Ann", "Bob"],
      "seed": 7, "counter": 2,          the chance source (see rules.core.chance)
      "first_dealer": 1,                 who dealt the first rubber (default 1: Ann chooses first)
      "rubber": 1, "round": 1,           rubber 1-2, round 1-4
      "phase": "trade",                  choose | auction | sealed | trade | over
      "money": [50, 50], "bank": 0,      "bank": what the bank took in less what it paid out
      "piles": [["7H", …], [], […], […]],  piles 1-4, top first; a played pile is empty
      "chosen": [3],                     the piles taken this rubber, round by round
      "card": "7H",                      the trinket up for auction (auction and sealed phases)
      "trinkets": [["3S", "5S"], ["2H"]],
      "sold": ["4D", …],                 trinkets sold this rubber (they stay in the tally)
      "auction": {…},                    an open auction (rules.core.auctions.OpenAuction JSON)
      "sealed": {"bidders": [0, 1], "bids": {"0": 12}},   the sealed round's bids so far
      "calls": [[0, 3], [1, null]],      this auction's bids (null: a pass), in order
      "revealed": [8, 8],                the sealed bids shown for this card (after a tie)
      "ready": [false, true], "offered": [true, false],   this trade window
      "offer": {"proposer": 0, "responder": 1, "give_cards": ["3S"], "give_money": 0,
                "take_cards": [], "take_money": 5},       a pending offer
      "rubbers": [[230, 180]],           the money each player finished each rubber with
      "sales": [{"rubber": 1, "round": 1, "pays": [4, 20, 0, 2], "amounts": [36, 40]}],
      "auctions": 13                     the cards turned up so far in the match
    }

Defaults for a hand-written position: ``chosen`` is piles 1, 2, … up to this round; ``piles``
are the cards seen nowhere else, in deck order, dealt into this round's pile (what is left of
it: 12 less the cards turned up this round) and the piles not yet chosen (12 each); an auction
or sealed phase without ``auction``/``sealed`` starts the round's auction afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from rules.core import SUITS, Card, RulesError, Suit, View, quick_init
from rules.core.auctions import OpenAuction, SealedAuction
from rules.core.jsonio import (
    card_keys, read_bool, read_card_or_none, read_cards, read_int, read_list, read_object, read_str,
    require,
)
from rules.core.offers import Deal
from rules.core.piles import stack, top_first

from .market import PILE_SIZE, ROUNDS

CHOOSE, AUCTION, SEALED_PHASE, TRADE, OVER = "choose", "auction", "sealed", "trade", "over"
PHASES = (CHOOSE, AUCTION, SEALED_PHASE, TRADE, OVER)
START_MONEY = 50
PILES = 4
PILE_NUMBERS = (1, 2, 3, 4)  # the piles as the players number them
ACES = tuple(Card(1, suit) for suit in SUITS)
TRINKET_CARDS = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 14))
"""The 48 trinkets, in deck order (suit order, then rank)."""


@dataclass(frozen=True)
class Sale:
    """One round's sale, for the results: what a trinket of each suit paid (♠ ♥ ♦ ♣) and what
    each player's trinkets fetched."""

    rubber: int
    round: int
    pays: tuple[int, ...]
    amounts: tuple[int, ...]


@dataclass
class AbundanceState:
    """A match of Abundance in progress: two rubbers of four rounds of twelve auctions."""

    names: list[str]
    seed: int
    counter: int
    first_dealer: int
    piles: list[list[Card]]
    money: list[int]
    trinkets: list[list[Card]]
    rubber: int = 1
    round: int = 1
    phase: str = CHOOSE
    bank: int = 0
    chosen: list[int] = field(default_factory=list)
    card: Card | None = None
    sold: list[Card] = field(default_factory=list)
    auction: OpenAuction | None = None
    sealed: SealedAuction | None = None
    calls: list[tuple[int, int | None]] = field(default_factory=list)
    revealed: tuple[int, ...] | None = None
    ready: list[bool] = field(default_factory=lambda: [False, False])
    offered: list[bool] = field(default_factory=lambda: [False, False])
    offer: Deal | None = None
    rubbers: list[tuple[int, ...]] = field(default_factory=list)
    sales: list[Sale] = field(default_factory=list)
    auctions: int = 0

    @property
    def dealer(self) -> int:
        """The first dealer deals the first rubber; the deal passes for the second."""
        return self.first_dealer if self.rubber == 1 else 1 - self.first_dealer

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def pile(self) -> int | None:
        """The number (1-4) of the pile in play, None while a pile is being chosen."""
        return self.chosen[-1] if self.chosen and self.phase not in (CHOOSE, OVER) else None

    @property
    def available(self) -> list[int]:
        """The numbers of the piles not yet chosen this rubber."""
        return [n for n in PILE_NUMBERS if n not in self.chosen]

    @property
    def pile_left(self) -> int:
        """Cards still face down in the pile in play."""
        pile = self.pile
        return 0 if pile is None else len(self.piles[pile - 1])

    def up(self) -> list[Card]:
        """Every card turned up so far this rubber (the tally): sold, held, and on the block."""
        return [*self.sold, *self.trinkets[0], *self.trinkets[1], *([self.card] if self.card else [])]


@quick_init  # in every view of an auction
@dataclass(frozen=True)
class AuctionInfo:
    """The public part of an open (or one-bid) auction: who bids in what order, the standing
    bid and its leader, whose turn it is and the least bid that beats the standing one."""

    order: tuple[int, ...]
    once_around: bool
    high: int
    leader: int | None
    position: int
    passed: tuple[int, ...]
    spoken: int
    to_speak: int | None
    minimum: int

    @property
    def opener(self) -> int:
        return self.order[0]


@quick_init  # the expert's playouts build views by the thousand
@dataclass(frozen=True, kw_only=True)
class AbundanceView(View):
    """What one seat sees: everything but the order of the face-down piles and the other
    player's sealed bid (its own is ``zones["bid"]``, one number once it is in).

    The market tally: ``counts`` (cards up so far this rubber, ♠ ♥ ♦ ♣), ``rarity`` (suits
    rarest first), ``pays`` (what one trinket of each suit would sell for now), ``values``
    (the round's three values), ``held`` (per seat, its trinkets of each suit ♠ ♥ ♦ ♣),
    ``corners`` (per seat, the suits it holds three or more of).
    The auction block: ``card``, ``number`` (its place in the round, 1-12), ``kind`` (the
    round's auction) and ``auction_kind`` (this card's: "open" after a sealed tie), ``auction``
    (open auctions), ``calls`` (bids so far, None for a pass), ``sealed_in`` (seats whose
    sealed bid is in), ``revealed`` (the tied sealed bids). ``sells`` is what each player's
    trinkets would sell for now; ``piles`` the cards face down in piles 1-4."""

    options: Mapping[str, Any]
    phase: str
    rubber: int
    round: int
    dealer: int
    first_dealer: int
    chooser: int | None
    kind: str
    auction_kind: str
    values: tuple[int, ...]
    counts: tuple[int, ...]
    rarity: tuple[Suit, ...]
    pays: tuple[int, ...]
    held: tuple[tuple[int, int, int, int], ...]
    corners: tuple[tuple[Suit, ...], ...]
    piles: tuple[int, ...]
    chosen: tuple[int, ...]
    pile: int | None
    pile_left: int
    card: Card | None
    number: int
    auction: AuctionInfo | None
    calls: tuple[tuple[int, int | None], ...]
    sealed_in: tuple[int, ...]
    revealed: tuple[int, ...] | None
    trinkets: tuple[tuple[Card, ...], ...]
    sold: tuple[Card, ...]
    money: tuple[int, ...]
    bank: int
    sells: tuple[int, ...]
    ready: tuple[bool, ...]
    offered: tuple[bool, ...]
    offer: Deal | None
    rubbers: tuple[tuple[int, ...], ...]
    sales: tuple[Sale, ...]
    auctions: int

    @property
    def my_bid(self) -> int | None:
        """This seat's own sealed bid, once it is in."""
        bid = tuple(self.zones.get("bid", ()))
        return bid[0] if bid else None

    @property
    def available(self) -> tuple[int, ...]:
        """The piles not yet chosen this rubber."""
        return tuple(n for n in PILE_NUMBERS if n not in self.chosen)


# -- JSON ------------------------------------------------------------------------------------

def state_to_json(state: AbundanceState) -> dict[str, Any]:
    return {
        "names": list(state.names), "seed": state.seed, "counter": state.counter,
        "first_dealer": state.first_dealer, "rubber": state.rubber, "round": state.round,
        "phase": state.phase, "money": list(state.money), "bank": state.bank,
        "piles": [card_keys(top_first(pile)) for pile in state.piles],
        "chosen": list(state.chosen),
        "card": state.card.key if state.card else None,
        "trinkets": [card_keys(cards) for cards in state.trinkets],
        "sold": card_keys(state.sold),
        "auction": state.auction.to_json() if state.auction else None,
        "sealed": state.sealed.to_json() if state.sealed else None,
        "calls": [[seat, amount] for seat, amount in state.calls],
        "revealed": list(state.revealed) if state.revealed is not None else None,
        "ready": list(state.ready), "offered": list(state.offered),
        "offer": state.offer.to_json() if state.offer else None,
        "rubbers": [list(money) for money in state.rubbers],
        "sales": [{"rubber": s.rubber, "round": s.round, "pays": list(s.pays), "amounts": list(s.amounts)}
                  for s in state.sales],
        "auctions": state.auctions,
    }


def _pair(values: Any, what: str, read: Any) -> list[Any]:
    items = read_list(values, what)
    if len(items) != 2:
        raise RulesError(f"{what} must list both players, not {len(items)}")
    return [read(item, what) for item in items]


def state_from_json(data: Mapping[str, Any], fresh_auction: Any) -> AbundanceState:
    """A position from its JSON; ``fresh_auction(state)`` starts the round's auction where the
    position is in an auction phase without one. Raises RulesError naming what is wrong."""
    what = "an Abundance position"
    data = read_object(data, what)
    names = [read_str(n, "a player's name") for n in read_list(require(data, "names", what), "names")]
    if len(names) != 2:
        raise RulesError(f"Abundance is for 2 players, not {len(names)}")
    rubber = read_int(data.get("rubber", 1), "rubber", 1, 2)
    round_number = read_int(data.get("round", 1), "round", 1, ROUNDS)
    phase = read_str(data.get("phase", CHOOSE), "phase")
    if phase not in PHASES:
        raise RulesError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    if phase == CHOOSE and round_number == ROUNDS:
        raise RulesError("nobody chooses the pile of round 4: it is the one left")
    card = read_card_or_none(data.get("card"), "the card up for auction")
    if (card is not None) != (phase in (AUCTION, SEALED_PHASE)):
        raise RulesError("a card is up for auction in the auction and sealed phases, and only then")
    trinkets = _pair(data.get("trinkets", [[], []]), "trinkets", read_cards)
    sold = read_cards(data.get("sold", []), "sold")
    default_chosen = list(range(1, round_number + (phase != CHOOSE)))
    chosen = [read_int(n, "a chosen pile", 1, PILES) for n in read_list(data.get("chosen", default_chosen), "chosen")]
    if len(set(chosen)) != len(chosen):
        raise RulesError("a pile is chosen only once a rubber")
    seen = [*sold, *trinkets[0], *trinkets[1], *([card] if card else [])]
    if "piles" in data:
        piles = [stack(read_cards(p, "a pile")) for p in read_list(data["piles"], "piles")]
        if len(piles) != PILES:
            raise RulesError(f"there are {PILES} piles, not {len(piles)}")
    else:
        piles = _default_piles(seen, chosen, phase, round_number)
    every = seen + [c for pile in piles for c in pile]
    if sorted(card_keys(every)) != sorted(card_keys(TRINKET_CARDS)):
        raise RulesError("the piles, the card up, the trinkets and the sold cards must hold the 48 "
                         "cards from 2 to King of each suit, each once (the aces keep the tally)")
    offer = data.get("offer")
    revealed = data.get("revealed")
    state = AbundanceState(
        names=names, seed=read_int(data.get("seed", 0), "seed"),
        counter=read_int(data.get("counter", 1), "counter", 0),
        first_dealer=read_int(data.get("first_dealer", 1), "first_dealer", 0, 1),
        piles=piles, money=_pair(data.get("money", [START_MONEY] * 2), "money", read_int),
        trinkets=trinkets, rubber=rubber, round=round_number, phase=phase,
        bank=read_int(data.get("bank", 0), "bank"), chosen=chosen, card=card, sold=sold,
        calls=[_call(c) for c in read_list(data.get("calls", []), "calls")],
        revealed=None if revealed is None else tuple(_pair(revealed, "revealed", read_int)),
        ready=_pair(data.get("ready", [False, False]), "ready", read_bool),
        offered=_pair(data.get("offered", [False, False]), "offered", read_bool),
        offer=None if offer is None else Deal.from_json(offer, 2),
        rubbers=[tuple(_pair(m, "a rubber's money", read_int)) for m in read_list(data.get("rubbers", []), "rubbers")],
        sales=[_sale(s) for s in read_list(data.get("sales", []), "sales")],
        auctions=read_int(data.get("auctions", len(seen)), "auctions", 0))
    if any(m < 0 for m in state.money):
        raise RulesError("a player's money cannot be negative")
    if len(state.rubbers) != rubber - 1 + (phase == OVER):
        raise RulesError("rubbers lists the money of each finished rubber: none in the first, one in "
                         "the second, two when the match is over")
    if phase == TRADE and all(state.ready) and state.offer is None:
        raise RulesError("both players are ready: that trade window is closed")
    if state.offer is not None and (phase != TRADE or state.offer.proposer == state.offer.responder):
        raise RulesError("an offer is pending only in a trade window, from one player to the other")
    if phase == SEALED_PHASE and round_number != 2:
        raise RulesError("sealed bids are made only in round 2")
    if data.get("auction") is not None:
        state.auction = OpenAuction.from_json(data["auction"])
        if sorted(state.auction.order) != [0, 1]:
            raise RulesError("an auction's order names both players, seats 0 and 1")
        if state.auction.done:
            raise RulesError("that auction is over: the card would have gone to its winner")
    if data.get("sealed") is not None:
        state.sealed = SealedAuction.from_json(data["sealed"])
        if sorted(state.sealed.bidders) != [0, 1]:
            raise RulesError("both players, seats 0 and 1, bid in a sealed auction")
        if state.sealed.done:
            raise RulesError("both sealed bids are in: they would have been shown")
    if (phase == AUCTION) != (state.auction is not None) or (phase == SEALED_PHASE) != (state.sealed is not None):
        if state.auction is not None or state.sealed is not None:
            raise RulesError("an open auction belongs to the auction phase and sealed bids to the sealed phase")
        fresh_auction(state)
    return state


def _default_piles(seen: Sequence[Card], chosen: Sequence[int], phase: str, round_number: int) -> list[list[Card]]:
    """The unseen cards in deck order: what is left of this round's pile, then 12 for each pile
    not yet chosen (each pile top first)."""
    rest = [card for card in TRINKET_CARDS if card not in seen]
    piles: list[list[Card]] = [[] for _ in range(PILES)]
    if phase not in (CHOOSE, OVER) and chosen:
        left = PILE_SIZE * round_number - len(seen)
        if not 0 <= left <= PILE_SIZE:
            raise RulesError(f"round {round_number} cannot have {len(seen)} cards up this rubber")
        piles[chosen[-1] - 1] = stack(rest[:left])
        rest = rest[left:]
    for n in PILE_NUMBERS:
        if n not in chosen:
            piles[n - 1] = stack(rest[:PILE_SIZE])
            rest = rest[PILE_SIZE:]
    return piles


def _call(value: Any) -> tuple[int, int | None]:
    pair = read_list(value, "a call")
    if len(pair) != 2:
        raise RulesError("a call is [seat, amount], with null for a pass")
    amount = None if pair[1] is None else read_int(pair[1], "a bid", 1)  # an open bid is at least 1
    return read_int(pair[0], "a call's seat", 0, 1), amount


def _sale(value: Any) -> Sale:
    value = read_object(value, "a sale")
    pays = [read_int(p, "a sale's pays", 0) for p in read_list(require(value, "pays", "a sale"), "pays")]
    if len(pays) != 4:
        raise RulesError("a sale's pays lists the four suits ♠ ♥ ♦ ♣")
    return Sale(read_int(require(value, "rubber", "a sale"), "a sale's rubber", 1, 2),
                read_int(require(value, "round", "a sale"), "a sale's round", 1, ROUNDS),
                tuple(pays), tuple(_pair(require(value, "amounts", "a sale"), "a sale's amounts", read_int)))


__all__ = [
    "ACES", "AUCTION", "CHOOSE", "OVER", "PHASES", "PILE_NUMBERS", "PILES", "SEALED_PHASE", "START_MONEY", "TRADE",
    "TRINKET_CARDS", "AbundanceState", "AbundanceView", "AuctionInfo", "Sale", "state_from_json",
    "state_to_json",
]
