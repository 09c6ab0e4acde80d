"""Card Stock Market (Sid Sackson): setup, legal commands, checks, effects, views and the result.
seeds/card-stock-market.md gives the rules as implemented and the rulings applied.

A turn has a trading phase (``buy``, ``sell``) and a price phase (``lay``), in either order,
each at most once, either or both skipped; a player who did neither may ``discard`` 1–4 cards
instead, which ends the turn; otherwise ``end`` ends it. Every turn ends with the hand refilled
to eight from the stock, rebuilding the stock (with the jokers, the first time) when it is
short; a joker drawn ends the game at once.

The helpers at the top (``lay_range``, ``validate_*``, ``card_uses``, ``worth``) read a
"table": a state or a view, which share the names ``prices``, ``piles``, ``holdings``,
``money``, ``debt``, ``bank``, ``phases``, ``bought``, ``laid``, ``options``, ``names`` and
``current``. So the table and the bots ask the same questions the rules do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from operator import attrgetter, countOf
from typing import Any, Iterable, Mapping, Sequence

from rules.core import (
    Card, IllegalCommand, Option, Outcome, Suit, build_deck, chance, check_awaited, check_setup,
    sort_cards,
)
from rules.core.listing import Listing, MadeWhenRead
from rules.core.piles import draw, shuffled
from rules.core.words import Sentence, dollars, join_names, player, plural, say, winners_sentence

from .commands import Buy, Command, Discard, End, Lay, Sell
from .events import (
    Bankruptcy, Bought, Discarded, Drew, Event, GameOver, JokerDrawn, Levied, PriceChanged, Sold,
    StockRebuilt, TurnEnded,
)
from .state import (
    ALL_CARDS, CHIP_SUPPLY, COMPANIES, HAND_SIZE, JOKERS, LEVY, LIMITS, MAX_BUYS, MAX_DISCARD, MAX_LAYS,
    MAX_SHARES, PRICE, SELL_SAME_TURN, START_MONEY, TRADE, UNLIMITED_BANK, Company,
    StockMarketState, StockMarketView, is_court, shares, state_from_json, state_to_json,
)


# -- what the limits allow ---------------------------------------------------------------------
@dataclass(frozen=True)
class LayRange:
    """What a company's price pile accepts now. ``low``–``high`` bound the new price a number
    card may set; ``court_values`` are the face values ($11–$13) a court card may be laid as;
    ``zero``: a court card may be laid as $0. On a court price card (rule 21) any number card
    and no court card is accepted."""

    suit: Suit
    low: int
    high: int
    court_values: tuple[int, ...]
    zero: bool
    court_on_top: bool

    def accepts(self, card: Card, price: int) -> bool:
        """Whether ``card`` laid as ``price`` fits (the price is assumed to be one the card can
        stand for: its number, or a court card's face value or $0)."""
        if is_court(card):
            return (self.zero and price == 0) or price in self.court_values
        return self.low <= price <= self.high

    def text(self) -> str:
        """The range in words, for the price sheet: "$2–$11", "any number card, no court card"."""
        if self.court_on_top:
            return "any number card (A–10), no court card"
        top = max(self.court_values, default=self.high)  # always above low: every limit is ≥ 2
        text = f"${self.low}–${top}"
        return text + " or $0 (a court card: bankruptcy)" if self.zero else text


@lru_cache(maxsize=1024)  # a few hundred (price, top card) pairs ever: legal asks at every turn
def lay_range(price: int, top: Card, suit: Suit) -> LayRange:
    """What the ``suit`` pile, showing ``top`` and standing at ``price``, accepts (rules 20–21
    and the rulings: the range is checked against the declared value; the same value is fine)."""
    if is_court(top):
        return LayRange(suit, 1, 10, (), False, True)
    up, down = LIMITS[suit]
    low, high = price - down, price + up
    numbers_low, numbers_high = max(1, low), min(10, high)
    courts = tuple(v for v in (11, 12, 13) if v <= high)
    return LayRange(suit, numbers_low, numbers_high, courts, low <= 0, False)


def range_of(table: Any, suit: Suit) -> LayRange:
    return lay_range(table.prices[suit], table.piles[suit][-1], suit)


def held_shares(holdings: Iterable[Card], suit: Suit) -> int:
    """The shares of ``suit`` among ``holdings``."""
    return sum(shares(card) for card in holdings if card.suit is suit)


def holding_value(table: Any, seat: int) -> int:
    """What ``seat``'s certificates are worth at the current prices."""
    prices = table.prices
    return sum(prices[card.suit] * shares(card) for card in table.holdings[seat])


def worth(table: Any, seat: int) -> int:
    """A player's worth (rule 27 and the ruling on debt): money plus certificates at current
    prices, less unpaid debt."""
    return table.money[seat] + holding_value(table, seat) - table.debt[seat]


# -- checks shared by check(), legal(), card_uses() and the bots ------------------------------------
def _company(suit: Suit) -> str:
    return suit.symbol


def _is_card(card: Any) -> bool:
    return isinstance(card, Card)


def _need_card(hand: Sequence[Card], card: Any) -> Card:
    if not _is_card(card):
        raise IllegalCommand(f"{card!r} is not a card.")
    if card not in hand:
        raise IllegalCommand(say("You have no {} in your hand.", card))
    return card


def phase_over(table: Any, phase: str) -> bool:
    """Rule 7: each phase at most once a turn, in either order; a phase left is over."""
    phases = table.phases
    return phase in phases and phases[-1] != phase


def check_phase(table: Any, phase: str) -> None:
    """Refuse, in words, a phase that is over (``phase_over``)."""
    if phase_over(table, phase):
        if phase == TRADE:
            raise IllegalCommand("You traded and then changed prices: your trading phase is over "
                                 "(each phase comes once a turn, in either order).")
        raise IllegalCommand("You changed prices and then traded: your price phase is over "
                             "(each phase comes once a turn, in either order).")


def validate_buy(table: Any, seat: int, hand: Sequence[Card], card: Any) -> tuple[int, int]:
    """Refuse in words, or return (shares, cost)."""
    check_phase(table, TRADE)
    if len(table.bought) >= MAX_BUYS:
        raise IllegalCommand(f"You have already bought {MAX_BUYS} certificates this turn; that is the most a turn allows.")
    _need_card(hand, card)
    suit = card.suit
    price = table.prices[suit]
    if price == 0:
        raise IllegalCommand(f"{_company(suit)} is bankrupt: its shares cannot be bought until a number card "
                             "is laid on its price pile.")
    count = shares(card)
    held = held_shares(table.holdings[seat], suit)
    if held + count > MAX_SHARES:
        raise IllegalCommand(say("You hold {} of {}; {} would make {}, and nobody may hold more than {}.",
                                 plural(held, "share"), _company(suit), card, held + count, MAX_SHARES))
    cost = price * count
    if table.money[seat] < cost:
        raise IllegalCommand(say("{} buys {} of {} at {}: {}; you have {}.", card, plural(count, "share"),
                                 _company(suit), dollars(price), dollars(cost), dollars(table.money[seat])))
    return count, cost


def validate_sell(table: Any, seat: int, card: Any) -> tuple[int, int]:
    """Refuse in words, or return (shares, amount)."""
    check_phase(table, TRADE)
    if not _is_card(card):
        raise IllegalCommand(f"{card!r} is not a card.")
    if card not in table.holdings[seat]:
        raise IllegalCommand(say("You hold no {} certificate.", card))
    if card in table.bought and not table.options.get(SELL_SAME_TURN):
        raise IllegalCommand(say("You bought {} this turn; a certificate cannot be sold in the turn it was "
                                 "bought.", card))
    count = shares(card)
    amount = table.prices[card.suit] * count
    if not table.unlimited and table.bank + sum(table.money) < amount:
        # only a hand-made position can hold less money than one sale: the levies could not cover it
        raise IllegalCommand(say("The bank and the players together hold only {}: nobody can pay {} for {}.",
                                 dollars(table.bank + sum(table.money)), dollars(amount), card))
    return count, amount


def validate_lay(table: Any, seat: int, hand: Sequence[Card], card: Any, price: Any) -> None:
    check_phase(table, PRICE)
    if len(table.laid) >= MAX_LAYS:
        raise IllegalCommand(f"You have already laid {MAX_LAYS} cards on price piles this turn; that is the most "
                             "a turn allows.")
    _need_card(hand, card)
    if not isinstance(price, int) or isinstance(price, bool):
        raise IllegalCommand(f"A price is a whole number of dollars, not {price!r}.")
    if is_court(card):
        if price not in (0, card.rank):
            raise IllegalCommand(say("{} is laid as {} or as {}, not {}.", card, dollars(card.rank), dollars(0),
                                     dollars(price)))
    elif price != card.rank:
        raise IllegalCommand(say("{} sets the price to {}, not {}; only a court card can be laid as {}.", card,
                                 dollars(card.rank), dollars(price), dollars(0)))
    suit = card.suit
    top = table.piles[suit][-1]
    allowed = lay_range(table.prices[suit], top, suit)
    if allowed.accepts(card, price):
        return
    if allowed.court_on_top:
        raise IllegalCommand(say("The {} price card is {}, a court card: no court card may be laid on it (any "
                                 "number card may).", _company(suit), top))
    current = table.prices[suit]
    low = max(0, current - LIMITS[suit][1])
    laid = say("{} as {}", card, dollars(0)) if price == 0 else say("{} ({})", card, dollars(price))
    raise IllegalCommand(say("{} stands at {} and may move only from {} to {}: {} is out of range.",
                             _company(suit), dollars(current), dollars(low), dollars(current + LIMITS[suit][0]),
                             laid))


def validate_discard(table: Any, hand: Sequence[Card], cards: Any) -> None:
    if table.phases:
        raise IllegalCommand("You have traded or changed a price this turn; only a player who did "
                             "neither may discard.")
    if not isinstance(cards, tuple) or not 1 <= len(cards) <= MAX_DISCARD:
        count = len(cards) if isinstance(cards, tuple) else cards
        raise IllegalCommand(f"Discard 1 to {MAX_DISCARD} cards, not {count}.")
    if _same_cards(hand, cards):
        return
    for i, card in enumerate(cards):
        _need_card(hand, card)
        if card in cards[:i]:
            raise IllegalCommand(say("{} is named twice.", card))


def _same_cards(hand: Sequence[Card], cards: tuple[Card, ...]) -> bool:
    """Whether ``cards`` are the hand's own card objects, each once (as ``legal`` lists them):
    then they are in the hand and none is named twice, asked by identity (in C) rather than
    card by card with ``==``; cards read from notation are equal, not the same, and are asked
    card by card."""
    held = set(map(id, hand))
    named = set(map(id, cards))
    return len(named) == len(cards) and named <= held


def sell_choice(holdings: Sequence[Card], bought: Sequence[Card], allow_same_turn: bool, wanted: Card) -> Card:
    """The certificate ``sell <face>`` means: the copy named, if the text named one; else the
    lowest copy of that face that may be sold (not one bought this turn, unless the option allows
    it); the text's own card when none is held, so that ``check`` refuses it in words."""
    if wanted.copy != 0:
        return wanted
    same = sorted((c for c in holdings if c.same_face(wanted)), key=lambda c: c.copy)
    free = [c for c in same if allow_same_turn or c not in bought]
    return (free or same or [wanted])[0]


# -- what each card can do now (for the table) -----------------------------------------------------
def lay_effect(table: Any, card: Card, price: int) -> Sentence:
    """What laying ``card`` as ``price`` does, in words: "♥ $6 → $7", or for $0 "bankrupts ♥:
    Ann loses 7 shares ($42)" (players and sums as parts)."""
    suit = card.suit
    old = table.prices[suit]
    if price != 0:
        text = say("{} {} → {}", _company(suit), dollars(old), dollars(price))
        return text + " (back in business)" if old == 0 else text
    return say("bankrupts {}: {}", _company(suit), crash_losses(table, suit))


def crash_losses(table: Any, suit: Suit) -> Sentence:
    """What each holder would lose if ``suit`` went bankrupt now: "Ann loses 7 shares ($42) and
    Bob loses 5 shares ($30)", or "nobody holds any"."""
    old = table.prices[suit]
    losses = [say("{} loses {} ({})", player(table.names, s), plural(n, "share"), dollars(n * old))
              for s in range(len(table.names)) if (n := held_shares(table.holdings[s], suit))]
    return join_names(losses) if losses else Sentence("nobody holds any")


def card_uses(view: StockMarketView) -> dict[str, list[Sentence]]:
    """For each card in the view's hand (by ``card.key``), what it can do now: "buy 7 shares of
    ♥ for $42", "lay: ♥ $6 → $7", "lay as $0: bankrupts ♥: Ann loses 7 shares ($42)". The lists
    are empty when it is not the viewer's turn."""
    hand = view.hand
    uses: dict[str, list[Sentence]] = {card.key: [] for card in hand}
    seat = view.seat
    if seat is None or seat not in view.awaiting:
        return uses
    for card in hand:
        found = uses[card.key]
        try:
            count, cost = validate_buy(view, seat, hand, card)
            found.append(say("buy {} of {} for {}", plural(count, "share"), _company(card.suit), dollars(cost)))
        except IllegalCommand:
            pass
        for price in ((card.rank, 0) if is_court(card) else (card.rank,)):
            try:
                validate_lay(view, seat, hand, card, price)
            except IllegalCommand:
                continue
            found.append(Sentence("lay as $0: " if price == 0 else "lay: ", lay_effect(view, card, price)))
    return uses


# -- money --------------------------------------------------------------------------------------
def _levy(state: StockMarketState, needed: int) -> Levied:
    """Rule 28: every player pays the bank $100; who cannot pays all they have and owes the rest."""
    bank = state.bank
    paid, owed = [], []
    for seat in range(state.players):
        pay = min(LEVY, state.money[seat])
        state.money[seat] -= pay
        state.bank += pay
        state.debt[seat] += LEVY - pay
        paid.append(pay)
        owed.append(LEVY - pay)
    return Levied(needed, bank, tuple(paid), tuple(owed))


def _pay_out(state: StockMarketState, seat: int, amount: int) -> tuple[list[Event], int]:
    """The bank pays ``amount`` to ``seat`` (levying the players as often as it must first); the
    seller's debt is paid first from it. Returns the levies and the debt paid."""
    events: list[Event] = []
    if not state.unlimited:
        while state.bank < amount:  # check made sure the money exists somewhere
            events.append(_levy(state, amount))
    state.bank -= amount
    settled = min(state.debt[seat], amount)
    state.debt[seat] -= settled
    state.bank += settled
    state.money[seat] += amount - settled
    return events, settled


# -- the end of a turn -----------------------------------------------------------------------------
def _rebuild(state: StockMarketState) -> StockRebuilt:
    """Rule 25: the rest of the stock, the discard pile, every price pile but its top card, and the
    jokers still aside (the first time only: no joker joins twice) make a new, shuffled stock."""
    cards = list(state.stock) + state.discard
    for suit in COMPANIES:
        cards += state.piles[suit][:-1]
        state.piles[suit] = state.piles[suit][-1:]
    added = len(state.aside)
    cards += state.aside
    state.discard, state.aside = [], []
    state.stock = shuffled(cards, state.seed, state.counter)
    state.counter += 1
    state.rebuilds += 1
    return StockRebuilt(len(state.stock), added, sum(1 for c in state.stock if c.is_joker))


def _refill(state: StockMarketState, seat: int) -> list[Event]:
    """Draw up to eight; a short stock is rebuilt first (taking none from it); a joker ends the
    game at once and the drawer draws no further."""
    hand = state.hands[seat]
    need = HAND_SIZE - len(hand)
    events: list[Event] = []
    if len(state.stock) < need:
        events.append(_rebuild(state))
    stock = state.stock
    start = max(0, len(stock) - need)
    drawn = stock[start:][::-1]  # the top of the stock is its end
    for i, card in enumerate(drawn):
        if card.is_joker:
            state.joker, state.ended_by = card, seat
            drawn = drawn[:i]
            start = len(stock) - i - 1
            break
    del stock[start:]
    hand.extend(drawn)
    if drawn:
        events.append(Drew(seat, tuple(drawn)))
    if state.joker is not None:
        events.append(JokerDrawn(seat, state.joker))
    return events


def _end_turn(state: StockMarketState, seat: int) -> list[Event]:
    idle = len(state.hands[seat]) >= HAND_SIZE  # nothing left the hand: nothing is drawn
    events: list[Event] = [TurnEnded(seat), *_refill(state, seat)]
    if state.over:
        events.append(GameOver(_result(state).summary))
        return events
    state.idle_turns = state.idle_turns + 1 if idle else 0
    state.current = (seat + 1) % state.players
    state.turn += 1
    state.phases, state.bought, state.laid = [], [], []
    return events


def _result(state: StockMarketState) -> Outcome:
    n = state.players
    worths = [worth(state, s) for s in range(n)]
    ranks = Outcome.rank_by(worths)
    winners = [s for s in range(n) if ranks[s] == 1]
    in_debt = any(state.debt)
    breakdown = []
    for s in range(n):
        lines = {"Money": state.money[s], "Certificates": holding_value(state, s)}
        if in_debt:  # no row of zeros when nobody owes anything
            lines["Debt"] = -state.debt[s]
        breakdown.append({**lines, "Worth": worths[s]})
    summary = winners_sentence(state.names, winners, dollars(worths[winners[0]])) + "."
    return Outcome(ranks, tuple(worths), tuple(breakdown), summary)


def status_sentence(table: Any) -> Sentence:
    names = table.names
    if table.joker is not None:
        if table.ended_by is None:
            return Sentence("The game is over.")
        return say("The game is over: {} drew a joker.", player(names, table.ended_by))
    name = player(names, table.current)
    bought, laid = f"bought {len(table.bought)}/{MAX_BUYS}", f"laid {len(table.laid)}/{MAX_LAYS}"
    phases = list(table.phases)
    if not phases and table.idle_turns:
        # two players who only end their turns never finish: say what does
        idle = table.idle_turns
        who = player(names, (table.current - 1) % len(names)) if idle == 1 else f"The last {idle} turns"
        return say("{}'s turn. {} drew no card: the game ends when a joker is drawn, and only playing or "
                   "discarding draws cards.", name, who)
    if not phases:
        return say("{}'s turn: trade and change prices, in either order, or discard 1–{} cards; then end the "
                   "turn.", name, MAX_DISCARD)
    if phases == [TRADE]:
        return say("{} is trading ({}); then change prices or end the turn.", name, bought)
    if phases == [PRICE]:
        return say("{} is changing prices ({}); then trade or end the turn.", name, laid)
    if phases[-1] == TRADE:
        return say("{} is trading ({}) after changing prices; then end the turn.", name, bought)
    return say("{} is changing prices ({}) after trading; then end the turn.", name, laid)


# -- the spec --------------------------------------------------------------------------------------
class StockMarketGame:
    """The GameSpec of Card Stock Market. Stateless: every function takes a StockMarketState."""

    name = "stock-market"
    rules_page = "card-stock-market"  # seeds/card-stock-market.md: the page is named for the game
    title = "Card Stock Market"
    blurb = "Buy shares in the four suits, push their prices up or crash them, and end the richest."
    players = (2, 6)
    options = (
        Option(UNLIMITED_BANK, "Unlimited bank", False, "bool",
               help="The bank never runs out, so there is never a levy. Default: the bank holds "
                    "$2,925 less the players' money and levies $100 from everyone when it runs short."),
        Option(SELL_SAME_TURN, "Sell a certificate the turn it is bought", False, "bool",
               help="Allow selling a certificate in the same turn it was bought (the book is silent)."),
    )
    best_bot = "bot"
    # the longest game of the sweep (tests/benchmark.py --parts ending: 300 seeds, every pairing of
    # levels, every player count), in commands: two bots, seed 187
    longest = 284
    # analysis_scale and analysis_lead: the analysis's chance of a playout stopped before the end
    # is 1 / (1 + e^(−(lead + 20) / 48)), the lead in scores; fitted together on the analysis's own
    # chances (tests/fit_scale.py stock-market --lead --iterations 48) over three recordings, 632
    # decisions of 126 games (16 games of 12 decisions from seed 5000, 60 of 4 from 1000 and 50
    # of 4 from 2000). Fitted on two and checked on the third, each way round, the lead beat the
    # scale alone and the 67.5 before on every third (log loss 0.376, 0.531, 0.439 against
    # 0.379, 0.538, 0.459 and 0.393, 0.534, 0.454); the scale alone swung from 35 to 59
    expert = {"analysis_scale": 48.0, "analysis_lead": 20.0}
    partial_legal: tuple = ()  # legal lists every command, discards included

    def __init__(self, notation: Any, bots: Mapping[str, Any] | None = None) -> None:
        self.notation = notation
        self.bots = dict(bots or {})

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> StockMarketState:
        opts = check_setup(self, names, options)
        n = len(names)
        # rule 4: one deck turned up card by card; the first A–10 of each suit is its price card
        deck = shuffled(build_deck(1), seed, 0)
        turned_up: list[Card] = []
        price_cards: dict[Suit, Card] = {}
        while len(price_cards) < len(COMPANIES):
            card = deck.pop()
            turned_up.append(card)
            if not is_court(card) and card.suit not in price_cards:
                price_cards[card.suit] = card
        # rule 6 and the ruling: everything else, both decks, no jokers, shuffled; 2 cards × 4 each
        # (by face, a tuple hashed in C: the price cards are the first deck's, copy 0)
        chosen = {card.face for card in price_cards.values()}
        rest = [card for card in build_deck(2) if card.copy or card.face not in chosen]
        stock = shuffled(rest, seed, 1)
        first = chance(seed, 2).randrange(n)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE // 2):
            for step in range(n):
                hands[(first + step) % n] += draw(stock, 2)
        return StockMarketState(
            names=list(names), options=opts, seed=seed, counter=3,
            piles={suit: [price_cards[suit]] for suit in COMPANIES},
            prices={suit: price_cards[suit].rank for suit in COMPANIES},
            hands=hands, holdings=[[] for _ in range(n)], money=[START_MONEY] * n, debt=[0] * n,
            bank=CHIP_SUPPLY - START_MONEY * n, stock=stock,
            aside=list(JOKERS),
            current=first, first=first, turn=1,
            history={suit: [(0, price_cards[suit].rank)] for suit in COMPANIES},
            turned_up=turned_up)

    # -- asking ----------------------------------------------------------------------------------
    def awaiting(self, state: StockMarketState) -> frozenset[int]:
        return frozenset() if state.over else frozenset((state.current,))

    def turn(self, state: StockMarketState) -> int:
        return state.turn

    def invariants(self, state: StockMarketState) -> list[str]:
        """What no reachable position breaks, the broken ones in words (see invariants.py)."""
        from .invariants import invariants

        return invariants(self, state)

    def conserved(self, state: StockMarketState) -> dict[str, Any]:
        cards = [*state.stock, *state.discard, *state.aside,
                 *(c for hand in state.hands for c in hand), *(c for held in state.holdings for c in held),
                 *(c for suit in COMPANIES for c in state.piles[suit])]
        if state.joker is not None:
            cards.append(state.joker)
        return {"cards": sorted(card.key for card in cards), "money": sum(state.money) + state.bank}

    def legal(self, state: StockMarketState, seat: int) -> Sequence[Command]:
        if state.joker is not None or seat != state.current:
            return []
        ordered = sort_cards(state.hands[seat])
        # the lowest copy of each face (copies of a face sort together, lowest first), and for
        # each card of the sorted hand the number of its face, for the discards
        lowest: list[Card] = []
        groups: list[int] = []
        face = None
        for card in ordered:
            if card.face != face:
                face = card.face
                lowest.append(card)
            groups.append(len(lowest))
        # what validate_* asks of the turn (the phase, the count) is asked once here, and of each
        # card only what concerns the card, without building the sentence of a refusal; the
        # commands are made when read (a random player reads one)
        phases = state.phases
        trading = TRADE not in phases or phases[-1] == TRADE
        parts: list[Sequence[Command]] = []
        if trading and len(state.bought) < MAX_BUYS:
            held = dict.fromkeys(COMPANIES, 0)
            for card in state.holdings[seat]:
                held[card.suit] += shares(card)
            prices, money = state.prices, state.money[seat]
            buys = [card for card in lowest if (price := prices[card.suit]) != 0
                    and held[card.suit] + (count := shares(card)) <= MAX_SHARES and money >= price * count]
            if buys:
                parts.append(MadeWhenRead(buys, Buy, _bought))
        if trading and state.holdings[seat] and (sells := _sellable(state, seat)):
            parts.append(MadeWhenRead(sells, Sell, _sold))
        if (PRICE not in phases or phases[-1] == PRICE) and len(state.laid) < MAX_LAYS:
            prices, piles = state.prices, state.piles
            lays: list[tuple[Card, int]] = []
            ranges = {suit: lay_range(prices[suit], piles[suit][-1], suit) for suit in COMPANIES}
            for card in lowest:
                allowed, rank = ranges[card.suit], card.rank
                if rank > 10:
                    if rank in allowed.court_values:
                        lays.append((card, rank))
                    if allowed.zero:
                        lays.append((card, 0))
                elif allowed.low <= rank <= allowed.high:
                    lays.append((card, rank))
            if lays:
                parts.append(MadeWhenRead(lays, _lay, _laid))
        if not phases:
            parts.append(_discards(ordered, tuple(groups)))
        return Listing(*parts, _END)

    # -- checking --------------------------------------------------------------------------------
    def check(self, state: StockMarketState, seat: int, command: Command) -> None:
        self._validate(state, seat, command)

    def _validate(self, state: StockMarketState, seat: int, command: Command) -> Any:
        """Refuse ``command`` in words, or return what ``apply`` needs (shares and money)."""
        check_awaited(self.awaiting(state), seat, state.names)
        hand = state.hands[seat]
        match command:  # the commonest first (a random player discards at most turns)
            case Discard(cards):
                return validate_discard(state, hand, cards)
            case Buy(card):
                return validate_buy(state, seat, hand, card)
            case Sell(card):
                return validate_sell(state, seat, card)
            case Lay(card, price):
                return validate_lay(state, seat, hand, card, price)
            case End():
                return None
        raise IllegalCommand(f"{command!r} is not a Card Stock Market command.")

    # -- applying --------------------------------------------------------------------------------
    def apply(self, state: StockMarketState, seat: int, command: Command) -> list[Event]:
        checked = self._validate(state, seat, command)  # the one check of this command
        hand = state.hands[seat]
        match command:
            case Discard(cards):
                for card in cards:
                    hand.remove(card)
                state.discard += cards
                return [Discarded(seat, cards), *_end_turn(state, seat)]
            case Buy(card):
                count, cost = checked
                _begin(state, TRADE)
                hand.remove(card)
                state.holdings[seat].append(card)
                state.bought.append(card)
                state.money[seat] -= cost
                state.bank += cost
                return [Bought(seat, card, count, state.prices[card.suit], cost)]
            case Sell(card):
                count, amount = checked
                _begin(state, TRADE)
                state.holdings[seat].remove(card)
                state.discard.append(card)
                levies, settled = _pay_out(state, seat, amount)
                return [*levies, Sold(seat, card, count, state.prices[card.suit], amount, settled)]
            case Lay(card, price):
                _begin(state, PRICE)
                return self._lay(state, seat, card, price)
            case End():
                return _end_turn(state, seat)
        raise IllegalCommand(f"{command!r} is not a Card Stock Market command.")  # pragma: no cover

    @staticmethod
    def _lay(state: StockMarketState, seat: int, card: Card, price: int) -> list[Event]:
        suit = card.suit
        old = state.prices[suit]
        state.hands[seat].remove(card)
        state.piles[suit].append(card)
        state.laid.append(card)
        state.prices[suit] = price
        state.history[suit].append((state.turn, price))
        events: list[Event] = [PriceChanged(seat, card, old, price, revived=old == 0)]
        if price == 0:
            losses = []
            for s in range(state.players):
                lost = tuple(c for c in state.holdings[s] if c.suit is suit)
                if lost:
                    count = sum(shares(c) for c in lost)
                    losses.append((s, lost, count, count * old))
                    state.holdings[s] = [c for c in state.holdings[s] if c.suit is not suit]
                    state.discard += lost
            events.append(Bankruptcy(suit, old, tuple(losses)))
        return events

    # -- what a seat sees ------------------------------------------------------------------------
    def view(self, state: StockMarketState, seat: int | None, plain: bool = False) -> StockMarketView:
        n = state.players
        own = seat is not None and 0 <= seat < n
        rows = []
        for s in range(0 if plain else n):
            owes = say(", owes {}", dollars(state.debt[s])) if state.debt[s] else ""
            money = dollars(state.money[s]) + owes
            counts = [str(held_shares(state.holdings[s], suit) or "") for suit in COMPANIES]
            rows.append((money, *counts, dollars(worth(state, s))))
        return StockMarketView(
            seat=seat, names=tuple(state.names), awaiting=self.awaiting(state),
            status="" if plain else status_sentence(state),
            zones={"hand": tuple(sort_cards(state.hands[seat]))} if own else {},
            zone_sizes=tuple({"hand": len(hand)} for hand in state.hands),
            columns=("Money", *(suit.symbol for suit in COMPANIES), "Worth"), rows=tuple(rows),
            options=dict(state.options),
            companies=tuple(Company(suit, state.prices[suit], tuple(state.piles[suit]),
                                    tuple(state.history[suit])) for suit in COMPANIES),
            holdings=tuple(tuple(held) for held in state.holdings), money=tuple(state.money),
            debt=tuple(state.debt), bank=state.bank, bank_unlimited=state.unlimited,
            stock_size=len(state.stock), jokers_in_stock=countOf(map(_RANK, state.stock), 0),  # jokers: rank 0, in C
            aside=tuple(state.aside), discard=tuple(state.discard), current=state.current,
            first=state.first, turn=state.turn, phases=tuple(state.phases),
            bought=tuple(state.bought), laid=tuple(state.laid), rebuilds=state.rebuilds,
            turned_up=tuple(state.turned_up), joker=state.joker, ended_by=state.ended_by,
            idle_turns=state.idle_turns)

    def sample(self, view: StockMarketView, rng: random.Random) -> StockMarketState:
        """A state the viewer cannot tell from the real one: the other hands and the stock dealt
        at random from the cards it has not seen. Jokers go only to the stock (a joker never
        stays in a hand: drawing one ends the game)."""
        mine = list(view.hand)
        seen = set(mine) | set(view.discard) | set(view.aside)
        seen |= {card for held in view.holdings for card in held}
        seen |= {card for company in view.companies for card in company.pile}
        if view.joker is not None:
            seen.add(view.joker)
        unseen = [card for card in ALL_CARDS if card not in seen]
        jokers = [card for card in unseen if card.is_joker][: view.jokers_in_stock]
        others = [card for card in unseen if not card.is_joker]
        rng.shuffle(others)
        hands: list[list[Card]] = []
        for s, size in enumerate(view.hand_sizes):
            hands.append(mine if s == view.seat else [others.pop() for _ in range(min(size, len(others)))])
        stock = jokers + others[: max(0, view.stock_size - len(jokers))]
        rng.shuffle(stock)
        return StockMarketState(
            names=list(view.names), options=dict(view.options), seed=rng.randrange(10**9), counter=0,
            piles={c.suit: list(c.pile) for c in view.companies},
            prices={c.suit: c.price for c in view.companies},
            hands=hands, holdings=[list(held) for held in view.holdings], money=list(view.money),
            debt=list(view.debt), bank=view.bank, stock=stock, discard=list(view.discard),
            aside=list(view.aside), joker=view.joker, ended_by=view.ended_by, current=view.current,
            first=view.first, turn=view.turn, phases=list(view.phases), bought=list(view.bought),
            laid=list(view.laid), rebuilds=view.rebuilds,
            history={c.suit: list(c.history) for c in view.companies},
            turned_up=list(view.turned_up), idle_turns=view.idle_turns)

    def outcome(self, state: StockMarketState) -> Outcome | None:
        return _result(state) if state.over else None

    score_label = "Worth"

    def scores(self, state: StockMarketState) -> tuple[int, ...]:
        """Each seat's worth at this moment — money and certificates at today's prices, less
        debt, all public —: what the results chart draws."""
        return tuple(worth(state, seat) for seat in range(state.players))

    # -- JSON ------------------------------------------------------------------------------------
    def to_json(self, state: StockMarketState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> StockMarketState:
        return state_from_json(data)


def _begin(state: StockMarketState, phase: str) -> None:
    """Enter ``phase`` (check has made sure it is not over)."""
    if not state.phases or state.phases[-1] != phase:
        state.phases.append(phase)


def discard_choices(hand: Sequence[Card]) -> Sequence[Discard]:
    """Every discard of 1–4 hand cards, one per set of faces (the lowest copies), each made
    when it is read (rules.core.listing)."""
    ordered = sort_cards(hand)
    groups = []  # for each card of the sorted hand, the number of its face among the hand's
    for i, card in enumerate(ordered):
        groups.append(groups[-1] + (card.face != ordered[i - 1].face) if i else 1)
    return _discards(ordered, tuple(groups))


def _discards(ordered: Sequence[Card], groups: tuple[int, ...]) -> Sequence[Discard]:
    """``discard_choices`` of a sorted hand whose faces ``groups`` numbers (1 for the first)."""
    pick = ordered.__getitem__
    return MadeWhenRead(_discard_places(groups), lambda places: Discard.of_sorted(tuple(map(pick, places))))


def _sellable(state: StockMarketState, seat: int) -> list[Card]:
    """The certificates ``legal`` offers to sell in a trading phase: of each face held, the copy
    ``sell_choice`` names (the lowest not bought this turn, unless the option allows it), when
    ``validate_sell`` accepts it."""
    allow = bool(state.options.get(SELL_SAME_TURN))
    bought = state.bought
    cash = None if state.unlimited else state.bank + sum(state.money)
    prices = state.prices
    out: list[Card] = []
    named = None  # the face whose copy is already named
    for card in sort_cards(state.holdings[seat]):
        if card.face != named and (allow or card not in bought):
            named = card.face
            if cash is None or cash >= prices[card.suit] * shares(card):
                out.append(card)
    return out


def _lay(lay: tuple[Card, int]) -> Lay:
    return Lay(*lay)


# what legal's commands are made from (MadeWhenRead's made_from), so that ``in`` need not make them
def _bought(command: Any) -> Card | None:
    return command.card if type(command) is Buy else None


def _sold(command: Any) -> Card | None:
    return command.card if type(command) is Sell else None


def _laid(command: Any) -> tuple[Card, int] | None:
    return (command.card, command.price) if type(command) is Lay else None


_RANK = attrgetter("rank")
_END = (End(),)  # commands are immutable: every legal list may end with the same one


@lru_cache(maxsize=512)
def _discard_places(groups: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The places in a sorted hand of the cards of every discard of 1–4 cards, one per set of
    faces, where ``groups`` numbers each place's face: the same for every hand of that shape,
    and eight cards make only 128 shapes."""
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for count in range(1, min(MAX_DISCARD, len(groups)) + 1):
        for places in combinations(range(len(groups)), count):
            faces = tuple(groups[i] for i in places)
            if faces not in seen:
                seen.add(faces)
                out.append(places)
    return tuple(out)


__all__ = [
    "LayRange", "StockMarketGame", "card_uses", "check_phase", "crash_losses", "discard_choices",
    "held_shares", "holding_value", "lay_effect", "lay_range", "phase_over", "range_of", "sell_choice", "status_sentence",
    "validate_buy", "validate_discard", "validate_lay", "validate_sell", "worth",
]
