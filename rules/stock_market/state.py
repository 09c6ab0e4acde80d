"""Card Stock Market's position, its public view, and the position as hand-writable JSON.

The four companies are the suits, in the order of the limits slip (rule 3): ♦ ♠ ♥ ♣. Each has
a price pile (the price card at the bottom, every card laid since on top of it) and a current
price: the top card's number, or for a court card on top the value its player declared ($11,
$12, $13, or $0: the company is bankrupt).

The JSON form (every card by its notation, a second copy as ``"7S.1"``, the jokers ``"JK"`` and
``"JK.1"``; companies by suit letter D, S, H, C)::

    {
      "names": ["Ann", "Bob"],                      required, 2-6 players in seat order
      "piles": {"D": ["8D"], "S": ["AS", "QS"],      required: each company's price pile,
                "H": ["6H"], "C": ["3C"]},           bottom (the price card) first, top last
      "prices": {"S": 0},                           a court card's declared value (11/12/13 or
                                                    0); others follow from the top card
      "hands": [["7H", "KS", …], […]],             required: each seat's hand
      "money": [200, 200],                          required
      "stock": ["5C", …],                           required: the draw pile, TOP card first
      "holdings": [["7H"], []],                     certificates in front of each seat
      "debt": [0, 0],                               what each seat owes the bank from a levy
      "bank": 2525,                                 default: $2,925 less the players' money
      "discard": ["4C", "9D"],                      the discard pile, bottom first, top last
      "aside": ["JK", "JK.1"],                      jokers not yet in the game (default: both,
                                                    unless the stock or "joker" holds them)
      "joker": null,                                the joker whose draw ended the game
      "ended_by": null,                             the seat that drew it
      "options": {"unlimited-bank": false, "sell-same-turn": false},
      "current": 0, "first": 0, "turn": 1,          whose turn, who began, the turn number
      "phases": ["trade"],                          this turn's phases in the order begun
      "bought": ["7H"], "laid": ["9D"],             certificates bought / cards laid this turn
      "rebuilds": 0,                                how many times the stock was rebuilt
      "history": {"D": [[0, 8], [3, 10]], …},      each company's [turn, price] changes
      "turned_up": ["QH", "8D", …],                 the set-up draw that found the price cards
      "seed": 0, "counter": 3                       the random source for future shuffles
    }
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from rules.core import Card, RulesError, Suit, View, build_deck, quick_init
from rules.core.jsonio import (
    card_keys, read_bool, read_card_or_none, read_cards, read_int, read_list,
    read_object, read_str, require,
)
from rules.core.piles import stack, top_first

# the companies in the order of the limits slip (rule 3), and their limits: (up, down)
COMPANIES: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS, Suit.CLUBS)
LIMITS: dict[Suit, tuple[int, int]] = {
    Suit.DIAMONDS: (3, 2), Suit.SPADES: (4, 3), Suit.HEARTS: (5, 4), Suit.CLUBS: (6, 5),
}
HAND_SIZE = 8
START_MONEY = 200
CHIP_SUPPLY = 2925  # the midpoint of the text's chip counts: 50×$1 + 25×$5 + 25×$10 + 50×$50
MAX_SHARES = 12  # of one company, per player (rule 14)
MAX_BUYS = 2  # certificates bought in one turn (rule 13)
MAX_LAYS = 2  # cards laid on price piles in one turn (rule 22)
MAX_DISCARD = 4  # cards discarded by a player who did nothing else (rule 8)
LEVY = 100  # what every player pays when the bank cannot pay (rule 28)
TRADE, PRICE = "trade", "price"
UNLIMITED_BANK, SELL_SAME_TURN = "unlimited-bank", "sell-same-turn"
DEFAULT_OPTIONS = {UNLIMITED_BANK: False, SELL_SAME_TURN: False}
ALL_CARDS: tuple[Card, ...] = tuple(build_deck(2, jokers=1))  # 104 cards and JK, JK.1
JOKERS: tuple[Card, ...] = tuple(card for card in ALL_CARDS if card.is_joker)


def shares(card: Card) -> int:
    """The shares a certificate stands for: A–10 its number, J/Q/K five (rule 10)."""
    return card.rank if card.rank <= 10 else 5


def is_court(card: Card) -> bool:
    return card.rank >= 11


def company_name(suit: Suit) -> str:
    """How sentences name a company: its suit symbol."""
    return suit.symbol


@dataclass
class StockMarketState:
    """The whole position, hidden parts included (the view hides them). Piles are lists with
    their top at the END (``rules.core.piles``)."""

    names: list[str]
    options: dict[str, Any]
    seed: int
    counter: int
    piles: dict[Suit, list[Card]]
    prices: dict[Suit, int]
    hands: list[list[Card]]
    holdings: list[list[Card]]
    money: list[int]
    debt: list[int]
    bank: int
    stock: list[Card]
    current: int
    first: int
    turn: int
    discard: list[Card] = field(default_factory=list)
    aside: list[Card] = field(default_factory=list)
    joker: Card | None = None
    ended_by: int | None = None
    phases: list[str] = field(default_factory=list)
    bought: list[Card] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)
    rebuilds: int = 0
    history: dict[Suit, list[tuple[int, int]]] = field(default_factory=dict)
    turned_up: list[Card] = field(default_factory=list)
    # Turns in a row that ended without a card drawn (none played or discarded), for the status
    # sentence. What the last turns did, not the position: not in the JSON (so saves written
    # before it still match their snapshot) nor compared; loading a save replays it back.
    idle_turns: int = field(default=0, compare=False)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def over(self) -> bool:
        """The game ends the moment a joker is drawn (rule 26)."""
        return self.joker is not None

    @property
    def unlimited(self) -> bool:
        return bool(self.options.get(UNLIMITED_BANK))


@quick_init  # four in every view
@dataclass(frozen=True)
class Company:
    """One company as every seat sees it: its price pile (bottom first, top last), its price,
    its limits and its price after every change of the game (``history``: (turn, price), the
    set-up price at turn 0)."""

    suit: Suit
    price: int
    pile: tuple[Card, ...]
    history: tuple[tuple[int, int], ...]

    @property
    def top(self) -> Card:
        return self.pile[-1]

    @property
    def up(self) -> int:
        return LIMITS[self.suit][0]

    @property
    def down(self) -> int:
        return LIMITS[self.suit][1]

    @property
    def bankrupt(self) -> bool:
        return self.price == 0

    @property
    def court_on_top(self) -> bool:
        return is_court(self.top)


@quick_init  # the expert's playouts build views by the thousand
@dataclass(frozen=True)
class StockMarketView(View):
    """What one seat sees: everything but the other hands and the stock's order.

    Public: the companies (price piles, prices, histories), every seat's certificates
    (``holdings``), money and debt, the bank (``bank_unlimited`` with the option), the stock's
    size and how many jokers are in it, the jokers still aside, the whole discard pile (every
    card in it was shown), whose turn it is and how far it has gone (``phases`` begun in order,
    ``bought`` and ``laid`` this turn), the set-up draw, the joker that ended the game, and how
    many turns in a row ended without a card drawn (``idle_turns``)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    companies: tuple[Company, ...] = ()
    holdings: tuple[tuple[Card, ...], ...] = ()
    money: tuple[int, ...] = ()
    debt: tuple[int, ...] = ()
    bank: int = 0
    bank_unlimited: bool = False
    stock_size: int = 0
    jokers_in_stock: int = 0
    aside: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    current: int = 0
    first: int = 0
    turn: int = 1
    phases: tuple[str, ...] = ()
    bought: tuple[Card, ...] = ()
    laid: tuple[Card, ...] = ()
    rebuilds: int = 0
    turned_up: tuple[Card, ...] = ()
    joker: Card | None = None
    ended_by: int | None = None
    idle_turns: int = 0

    def company(self, suit: Suit) -> Company:
        return self.companies[COMPANIES.index(suit)]

    @property
    def prices(self) -> dict[Suit, int]:
        return {c.suit: c.price for c in self.companies}

    @property
    def piles(self) -> dict[Suit, tuple[Card, ...]]:
        return {c.suit: c.pile for c in self.companies}

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def unlimited(self) -> bool:
        return self.bank_unlimited

    @property
    def players(self) -> int:
        return len(self.names)


# -- JSON ----------------------------------------------------------------------------------------

def _suit_key(suit: Suit) -> str:
    return suit.letter


def state_to_json(state: StockMarketState) -> dict[str, Any]:
    return {
        "names": list(state.names),
        "options": dict(state.options),
        "seed": state.seed,
        "counter": state.counter,
        "piles": {_suit_key(s): card_keys(state.piles[s]) for s in COMPANIES},
        "prices": {_suit_key(s): state.prices[s] for s in COMPANIES},
        "hands": [card_keys(hand) for hand in state.hands],
        "holdings": [card_keys(held) for held in state.holdings],
        "money": list(state.money),
        "debt": list(state.debt),
        "bank": state.bank,
        "stock": card_keys(top_first(state.stock)),
        "discard": card_keys(state.discard),
        "aside": card_keys(state.aside),
        "joker": None if state.joker is None else state.joker.key,
        "ended_by": state.ended_by,
        "current": state.current,
        "first": state.first,
        "turn": state.turn,
        "phases": list(state.phases),
        "bought": card_keys(state.bought),
        "laid": card_keys(state.laid),
        "rebuilds": state.rebuilds,
        "history": {_suit_key(s): [[t, p] for t, p in state.history[s]] for s in COMPANIES},
        "turned_up": card_keys(state.turned_up),
    }


def _companies_object(data: Any, what: str) -> dict[Suit, Any]:
    """A {"D": …, "S": …} object read into suits; unknown keys are refused."""
    table = read_object(data, what)
    out: dict[Suit, Any] = {}
    for key, value in table.items():
        suit = next((s for s in COMPANIES if s.letter == str(key).upper()), None)
        if suit is None:
            raise RulesError(f"{what}: {key!r} is not a company; use D, S, H or C")
        out[suit] = value
    return out


def _declared(suit: Suit, pile: Sequence[Card], given: Any) -> int:
    top = pile[-1]
    if not is_court(top):
        price = top.rank
        if given is not None and read_int(given, f"the {suit.symbol} price") != price:
            raise RulesError(f"the {suit.symbol} price must be ${price}, the number on its top card {top.key}")
        return price
    if given is None:
        return top.rank
    price = read_int(given, f"the {suit.symbol} price")
    if price not in (0, top.rank):
        raise RulesError(f"the {suit.symbol} price card {top.key} stands for ${top.rank} or $0, not ${price}")
    return price


def _seat_list(values: Any, what: str, n: int, read: Any) -> list[Any]:
    items = read_list(values, what)
    if len(items) != n:
        raise RulesError(f"{what} needs one entry for each of the {n} players, not {len(items)}")
    return [read(item) for item in items]


def state_from_json(data: Mapping[str, Any], options_spec: Sequence[Any] = ()) -> StockMarketState:
    """A position from its JSON (see the module docstring); raises RulesError in words for
    anything missing, malformed or impossible (a card in two places, a joker in a hand, …)."""
    what = "a Card Stock Market position"
    names = [read_str(n, "a player's name") for n in read_list(require(data, "names", what), "names")]
    n = len(names)
    if not 2 <= n <= 6:
        raise RulesError(f"{what} has 2-6 players, not {n}")
    if len({name.strip().lower() for name in names}) != n or not all(name.strip() for name in names):
        raise RulesError("every player needs a name of their own")
    seat = lambda value, label: read_int(value, label, 0, n - 1)  # noqa: E731

    options = dict(DEFAULT_OPTIONS)
    given = read_object(data.get("options") or {}, "the options")
    for key, value in given.items():
        if key not in DEFAULT_OPTIONS:
            raise RulesError(f"unknown option {key!r}; the options are: {', '.join(DEFAULT_OPTIONS)}")
        options[key] = read_bool(value, f"option {key}")

    pile_data = _companies_object(require(data, "piles", what), "piles")
    piles: dict[Suit, list[Card]] = {}
    for suit in COMPANIES:
        if suit not in pile_data:
            raise RulesError(f"piles has no {suit.letter} ({suit.symbol}) price pile")
        pile = read_cards(pile_data[suit], f"the {suit.symbol} price pile")
        if not pile:
            raise RulesError(f"the {suit.symbol} price pile is empty; it needs at least its price card")
        wrong = [card.key for card in pile if card.suit is not suit]
        if wrong:
            raise RulesError(f"the {suit.symbol} price pile holds {', '.join(wrong)}, not of its suit")
        piles[suit] = pile
    price_data = _companies_object(data.get("prices") or {}, "prices")
    prices = {suit: _declared(suit, piles[suit], price_data.get(suit)) for suit in COMPANIES}

    hands = _seat_list(require(data, "hands", what), "hands", n, lambda h: read_cards(h, "a hand"))
    holdings = _seat_list(data.get("holdings", [[]] * n), "holdings", n, lambda h: read_cards(h, "holdings"))
    money = _seat_list(require(data, "money", what), "money", n, lambda m: read_int(m, "money", 0))
    debt = _seat_list(data.get("debt", [0] * n), "debt", n, lambda d: read_int(d, "debt", 0))
    stock = stack(read_cards(require(data, "stock", what), "stock"))
    discard = read_cards(data.get("discard", []), "discard")
    joker = read_card_or_none(data.get("joker"), "the joker that ended the game")
    placed = [*stock, *discard, *(c for h in hands for c in h), *(c for h in holdings for c in h),
              *(c for p in piles.values() for c in p)]
    if "aside" in data:
        aside = read_cards(data["aside"], "aside")
    else:  # the jokers that are nowhere else are still out of the game
        aside = [c for c in ALL_CARDS if c.is_joker and c not in placed and c != joker]
    everything = placed + aside + ([joker] if joker is not None else [])
    _check_cards(everything)
    for card in [c for h in hands for c in h] + [c for h in holdings for c in h] + discard:
        if card.is_joker:
            raise RulesError("a joker is only ever in the stock, aside, or the one drawn that ended the game")
    if any(not c.is_joker for c in aside):
        raise RulesError("only the jokers are set aside")
    if joker is not None and not joker.is_joker:
        raise RulesError(f"{joker.key} is not a joker")
    for s, held in enumerate(holdings):
        for suit in COMPANIES:
            if prices[suit] == 0 and any(c.suit is suit for c in held):
                raise RulesError(f"{names[s]} holds {suit.symbol} certificates, but {suit.symbol} is bankrupt "
                                 "(its certificates were discarded)")
            if sum(shares(c) for c in held if c.suit is suit) > MAX_SHARES:
                raise RulesError(f"{names[s]} holds more than {MAX_SHARES} shares of {suit.symbol}")

    bank_default = CHIP_SUPPLY - sum(money)
    bank = read_int(data.get("bank", bank_default), "bank")
    if bank < 0 and not options[UNLIMITED_BANK]:
        raise RulesError(f"a finite bank cannot hold ${bank}")
    current = seat(data.get("current", 0), "current")
    phases = [read_str(p, "a phase") for p in read_list(data.get("phases", []), "phases")]
    if any(p not in (TRADE, PRICE) for p in phases) or len(set(phases)) != len(phases):
        raise RulesError(f"phases lists {TRADE!r} and {PRICE!r} at most once each, in the order begun")
    bought = read_cards(data.get("bought", []), "bought")
    laid = read_cards(data.get("laid", []), "laid")
    if len(bought) > MAX_BUYS or len(laid) > MAX_LAYS:
        raise RulesError(f"at most {MAX_BUYS} certificates are bought and {MAX_LAYS} cards laid in a turn")
    if any(card not in holdings[current] and card not in discard for card in bought):
        # (one sold again the same turn, as an option allows, went to the discard pile)
        raise RulesError("the certificates bought this turn must be among the current player's holdings")
    if (bought and TRADE not in phases) or (laid and PRICE not in phases):
        raise RulesError("a turn that bought or laid cards has begun that phase")
    ended_by = data.get("ended_by")
    history_data = _companies_object(data.get("history") or {}, "history")
    history = {}
    for suit in COMPANIES:
        entries = history_data.get(suit)
        if entries is None:
            history[suit] = [(0, prices[suit])]
            continue
        points = []
        for entry in read_list(entries, f"the {suit.symbol} history"):
            pair = read_list(entry, f"an entry of the {suit.symbol} history")
            if len(pair) != 2:
                raise RulesError(f"an entry of the {suit.symbol} history is [turn, price]")
            points.append((read_int(pair[0], "a history turn", 0), read_int(pair[1], "a history price", 0, 13)))
        if not points:
            raise RulesError(f"the {suit.symbol} history needs at least its set-up price")
        history[suit] = points
    return StockMarketState(
        names=names, options=options, seed=read_int(data.get("seed", 0), "seed"),
        counter=read_int(data.get("counter", 0), "counter", 0), piles=piles, prices=prices,
        hands=hands, holdings=holdings, money=money, debt=debt, bank=bank, stock=stock,
        discard=discard, aside=aside, joker=joker,
        ended_by=None if ended_by is None else seat(ended_by, "ended_by"),
        current=current, first=seat(data.get("first", 0), "first"),
        turn=read_int(data.get("turn", 1), "turn", 1), phases=phases, bought=bought, laid=laid,
        rebuilds=read_int(data.get("rebuilds", 0), "rebuilds", 0), history=history,
        turned_up=read_cards(data.get("turned_up", []), "turned_up"),
    )


def _check_cards(cards: Sequence[Card]) -> None:
    """Every card is one of the two decks and two jokers, and in one place only."""
    known = set(ALL_CARDS)
    seen: set[Card] = set()
    for card in cards:
        if card not in known:
            raise RulesError(f"{card.key} is not a card of this game (two decks: copies 0 and 1; jokers JK and JK.1)")
        if card in seen:
            raise RulesError(f"{card.key} is in two places at once")
        seen.add(card)


__all__ = [
    "ALL_CARDS", "CHIP_SUPPLY", "COMPANIES", "Company", "DEFAULT_OPTIONS", "HAND_SIZE", "JOKERS", "LEVY",
    "LIMITS", "MAX_BUYS", "MAX_DISCARD", "MAX_LAYS", "MAX_SHARES", "PRICE", "SELL_SAME_TURN",
    "START_MONEY", "StockMarketState", "StockMarketView", "TRADE", "UNLIMITED_BANK",
    "company_name", "is_court", "shares", "state_from_json", "state_to_json",
]
