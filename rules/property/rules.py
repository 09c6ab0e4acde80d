"""Property's rules: setup, legal plays, rent, purchase, mortgage, refill, bankruptcy, scoring.

Also the pure helpers the table needs: ``cells_for`` (the cells a pair of cards can name),
``group`` (an owner's connected group) and ``preview`` (what a play would do, in words).
"""

from __future__ import annotations

import itertools
import math
import random
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence, cast

from ..core import (
    JACK, KING, QUEEN, SUITS, Card, Colour, Command, Event, IllegalCommand, Option, Outcome, Suit,
    check_awaited, check_setup, sort_cards,
)
from ..core.listing import Listing, MadeWhenRead
from ..core.piles import draw, shuffled, stack
from ..core.words import Money, Sentence, dollars, join_names, player, players, say, winners_sentence
from .commands import Buy, Decline, Play
from .estimate import estimate
from .events import (
    Bought, Claimed, Declined, Drew, GameOver, Lost, Mortgaged, RentPaid, StockRemade, Vacated,
    WentBankrupt, rent_reason,
)
from .state import (
    CELLS, NEIGHBOURS, SIZE, LastPlay, PendingPurchase, PropertyState, PropertyView, cell_name, cell_of,
    hand_shape, index, sort_units, state_from_json, state_to_json, status_sentence, unit_value, units_total,
)

# The text's chip table: (white $1, red $5, blue $10) per player, by player count.
CHIPS = {2: (15, 9, 9), 3: (16, 8, 8), 4: (12, 6, 6), 5: (10, 5, 5), 6: (8, 4, 4)}
STARTING_MONEY = {n: white + 5 * red + 10 * blue for n, (white, red, blue) in CHIPS.items()}

JOKER = 0  # a joker's rank, as KING, QUEEN and JACK are the court cards
_SEATS = tuple(frozenset((seat,)) for seat in range(6))  # who is awaited: one seat, asked at every command
_NOBODY: frozenset[int] = frozenset()
_RED = tuple(suit for suit in SUITS if suit.colour is Colour.RED)  # a card's colour, without a property call
_BLACK = tuple(suit for suit in SUITS if suit.colour is Colour.BLACK)
# The project's ruling for the lost purchase-unit table: the shares, before they are dealt
# to the seats at random. Every count uses all 30 units except 4 players (jokers out).
UNIT_SHARES: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((KING, KING, QUEEN, QUEEN, JACK, JACK, JOKER),) * 2,
    3: ((KING, KING, JACK, JACK), (KING, QUEEN, QUEEN, JACK, JACK), (KING, QUEEN, QUEEN, JOKER, JOKER)),
    4: ((KING, QUEEN, JACK),) * 4,
    5: ((KING, QUEEN), (KING, QUEEN), (KING, JACK, JACK), (KING, JACK, JOKER), (QUEEN, QUEEN, JACK, JOKER)),
    6: ((KING, JACK),) * 4 + ((QUEEN, QUEEN, JOKER),) * 2,
}

PROPERTY_VALUE = 5  # a cell's worth at the end under the count-property option
WILD_RANKS = (9, 10)


# -- pure helpers ----------------------------------------------------------------------------

def number_deck() -> list[Card]:
    """The 40 number cards, A–10 of each suit, in a fixed order."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 11)]


def is_wild(card: Card) -> bool:
    """9s and 10s stand for any number 1–8."""
    return card.rank in WILD_RANKS


def has_both_colours(cards: Iterable[Card]) -> bool:
    colours = {card.colour for card in cards}
    return Colour.RED in colours and Colour.BLACK in colours


def cells_for(red: Card, black: Card) -> list[tuple[int, int]]:
    """Every (col, row) the pair can name: one cell, a whole column or row, or the whole grid."""
    return list(_cells(red.rank, black.rank))


@lru_cache(maxsize=None)  # ten ranks by ten: legal asks at every turn for every pair in the hand
def _cells(red: int, black: int) -> tuple[tuple[int, int], ...]:
    cols = range(1, SIZE + 1) if red in WILD_RANKS else (red,)
    rows = range(1, SIZE + 1) if black in WILD_RANKS else (black,)
    return tuple((col, row) for col in cols for row in rows)


@lru_cache(maxsize=1024)  # 20 reds by 20 blacks: every hand's pairs come back turn after turn
def _plays(red: Card, black: Card) -> tuple[Play, ...]:
    """The plays of a pair, one per cell it names, made once (commands are immutable): a few
    thousand in all, though a wild pair names a whole line or the grid."""
    return tuple(Play(red, black, col, row) for col, row in _cells(red.rank, black.rank))


def _owners_of(state_or_owners: Any) -> Sequence[int | None]:
    return getattr(state_or_owners, "owners", state_or_owners)


def group(state_or_owners: Any, col: int, row: int) -> set[tuple[int, int]]:
    """The cells orthogonally connected to col·row that share its owner (mortgaged cells
    included); empty when the cell is empty."""
    return {cell_of(i) for i in _group(_owners_of(state_or_owners), index(col, row))}


def group_size(state_or_owners: Any, col: int, row: int) -> int:
    """How many cells ``group`` holds: what a rent is counted on."""
    return len(_group(_owners_of(state_or_owners), index(col, row)))


def _group(owners: Sequence[int | None], start: int) -> set[int]:
    owner = owners[start]
    if owner is None:
        return set()
    found = {start}
    stack = [start]
    while stack:
        for i in NEIGHBOURS[stack.pop()]:
            if i not in found and owners[i] == owner:
                found.add(i)
                stack.append(i)
    return found


def multiplier(red: Card, black: Card) -> int:
    """Rent is doubled for a ♥, doubled for a ♠, so ×4 for both."""
    return (2 if red.suit is Suit.HEARTS else 1) * (2 if black.suit is Suit.SPADES else 1)


def useful_purchases(units: Sequence[Card], needed: int) -> list[tuple[Card, ...]]:
    """The hand-overs worth offering: sets of units totalling at least ``needed`` from which no
    card could be left out, one per mix of values (which jack or king is given does not matter)."""
    by_value: dict[int, list[Card]] = {4: [], 2: [], 1: []}
    for card in sort_units(units):
        by_value[unit_value(card)].append(card)
    fours, twos, ones = by_value[4], by_value[2], by_value[1]
    # each mix taken from the front of each value's cards, in unit order: a hand-over in unit order
    return [tuple(fours[:kings] + twos[:queens] + ones[:jacks])
            for kings, queens, jacks in _mixes(len(fours), len(twos), len(ones), needed)]


@lru_cache(maxsize=None)  # a few units of each value and a group's size: a small table, asked at every rent
def _mixes(fours: int, twos: int, ones: int, needed: int) -> tuple[tuple[int, int, int], ...]:
    """How many units of each value (4, 2, 1) make the useful purchases of ``useful_purchases``."""
    mixes = []
    for kings in range(fours + 1):
        for queens in range(twos + 1):
            jacks = max(0, needed - 4 * kings - 2 * queens)  # (or jokers) more than this would be spare
            if jacks > ones:
                continue
            total = 4 * kings + 2 * queens + jacks
            smallest = 1 if jacks else 2 if queens else 4 if kings else 0
            if total >= needed and total - smallest < needed:
                mixes.append((kings, queens, jacks))
    return tuple(mixes)


def preview(view: PropertyView, red: Card, black: Card, col: int, row: int) -> Sentence:
    """What playing ``red`` and ``black`` on col·row would do, for the player whose turn it is,
    from what everyone can see."""
    seat = view.current
    where = cell_name(col, row)
    i = index(col, row)
    owner = view.owners[i]
    if owner is None:
        return Sentence(f"Claim {where}")
    if owner == seat:
        if view.mortgaged[i]:
            return Sentence(f"Your {where} is mortgaged: playing it loses it")
        return Sentence(f"Mortgage your {where}")
    size = group_size(view.owners, col, row)
    rent = size * multiplier(red, black)
    text = say("Pay {} {} rent ({})", player(view.names, owner), Money(rent), rent_reason(size, red, black))
    if rent > view.money[seat]:
        text += say(": more than your {}, so you go bankrupt", Money(view.money[seat]))
    return text


# -- the game --------------------------------------------------------------------------------

class PropertySpec:
    """Sid Sackson's Property for 2–6 players (see seeds/property.md)."""

    name = "property"
    title = "Property"
    blurb = "Claim cells of an 8×8 grid with a red and a black card; rent grows with your groups."
    players = (2, 6)
    options = (
        Option("bankruptcies", "Bankruptcies that end the game", 1, "int", (1, 2, 3),
               "1: the game ends at the first bankruptcy; 2 or 3 for a longer game."),
        Option("count-property", "Count property at $5 a cell", False, "bool",
               help="Each cell a player owns adds $5 to their final worth (never to pay rent)."),
    )
    best_bot = "bot"
    # the longest game of the sweep (tests/benchmark.py --parts ending: 300 seeds, every pairing of
    # levels, every player count), in commands: six greedy bots, seed 276
    longest = 1405
    # the expert plays six turns out before judging: what a play does shows over the next few
    # rents and purchases (two turns won 55 of 100 games against the bot, six won 65)
    # analysis_scale: the estimate's lead at a playout's end that makes a win e times as likely as
    # a loss, fitted on the analysis's own chances (tests/fit_scale.py property --games 40
    # --stride 4: 1,315 decisions, 96 iterations; log loss 0.443 against 0.455 at the 92 before),
    # checked on 320 decisions of 80 other games (the benchmark's, 48 iterations): 0.488 against 0.495
    expert = {"turns": 6, "analysis_scale": 138.0}
    # legal lists one purchase per mix of unit values that pays no more than it must; check
    # also takes any other hand-over of enough units (which king is given does not matter)
    partial_legal = (Buy,)

    def __init__(self, notation: Any, bots: Mapping[str, Any]) -> None:
        self.notation = notation
        self.bots = dict(bots)

    # -- setup -------------------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> PropertyState:
        opts = check_setup(self, names, options)
        n = len(names)
        counter = 0
        shares = shuffled(self._unit_shares(n), seed, counter)  # who gets which share of an uneven division
        counter += 1
        first, cut, counter = self._cut_for_first(seed, counter, n)
        stock, hands, counter = self._deal_hands(seed, counter, n, first)
        return PropertyState(
            names=list(names), options=opts, seed=seed, counter=counter,
            owners=[None] * CELLS, mortgaged=[False] * CELLS,
            money=[STARTING_MONEY[n]] * n, units=[sort_units(share) for share in shares],
            hands=hands, stock=stock, current=first, first=first, cut=cut,
        )

    @staticmethod
    def _unit_shares(n: int) -> list[list[Card]]:
        pools = {rank: [Card(rank, suit) for suit in SUITS] for rank in (KING, QUEEN, JACK)}
        pools[JOKER] = [Card(JOKER, None, 0), Card(JOKER, None, 1)]
        return [[pools[rank].pop(0) for rank in share] for share in UNIT_SHARES[n]]

    @staticmethod
    def _cut_for_first(seed: int, counter: int, n: int) -> tuple[int, list[list[tuple[int, Card]]], int]:
        """Each player in seat order takes a card; the highest number (ace = 1) starts; tied
        players draw again. Returns the first seat, every round of the draw, the counter."""
        contenders = list(range(n))
        rounds: list[list[tuple[int, Card]]] = []
        deck: list[Card] = []
        while True:
            if len(deck) < len(contenders):
                deck = stack(shuffled(number_deck(), seed, counter))
                counter += 1
            cut = [(seat, deck.pop()) for seat in contenders]
            rounds.append(cut)
            high = max(card.rank for _, card in cut)
            contenders = [seat for seat, card in cut if card.rank == high]
            if len(contenders) == 1:
                return contenders[0], rounds, counter

    @staticmethod
    def _deal_hands(seed: int, counter: int, n: int, first: int) -> tuple[list[Card], list[list[Card]], int]:
        """Reshuffle all 40; in turn order each player draws until holding both colours. (If
        the stock ran dry first — a chance below one in a billion — the deal is made again.)"""
        while True:
            # (shuffled top first, as the deal has always been made, then stacked top last)
            stock = stack(shuffled(number_deck(), seed, counter))
            counter += 1
            hands: list[list[Card]] = [[] for _ in range(n)]
            for seat in [(first + k) % n for k in range(n)]:
                while stock and not has_both_colours(hands[seat]):
                    hands[seat] += draw(stock)
            if all(has_both_colours(hand) for hand in hands):
                return stock, hands, counter

    # -- asking --------------------------------------------------------------------------------
    def awaiting(self, state: PropertyState) -> frozenset[int]:
        if state.over:
            return _NOBODY
        return _SEATS[state.pending.payer if state.pending else state.current]

    def turn(self, state: PropertyState) -> int:
        return state.turn

    score_label = "Money"

    def scores(self, state: PropertyState) -> tuple[int, ...]:
        """Each seat's money, public at every moment: what the results chart draws."""
        return tuple(state.money)

    def estimate(self, state: PropertyState) -> tuple[float, ...]:
        """Each seat's worth judged from the table (the expert's judge of a position): money,
        groups and purchase units as the bot values them; a finished game's final worths."""
        outcome = self.outcome(state)
        if outcome is not None:
            return tuple(float(score) for score in outcome.scores)
        return estimate(state)

    def legal(self, state: PropertyState, seat: int) -> list[Command]:
        if seat not in self.awaiting(state):
            return []
        pending = state.pending
        if pending is not None:
            purchases = useful_purchases(state.units[pending.payer], pending.group_size)
            return Listing(MadeWhenRead(purchases, Buy), [Decline()])
        hand = sort_cards(state.hands[state.current])
        reds = [card for card in hand if card.suit in _RED]
        blacks = [card for card in hand if card.suit in _BLACK]
        plays: list[Command] = []
        for red in reds:
            for black in blacks:
                plays += _plays(red, black)
        return plays

    def check(self, state: PropertyState, seat: int, command: Command) -> None:
        check_awaited(self.awaiting(state), seat, state.names)
        pending = state.pending
        if isinstance(command, Play):
            if pending is not None:
                raise IllegalCommand(say("{} must first decide whether to buy {}: buy with units or decline.",
                                         player(state.names, seat), cell_name(pending.col, pending.row)))
            self._check_play(state, command, seat)
        elif isinstance(command, (Buy, Decline)):
            if pending is None:
                raise IllegalCommand("There is no purchase to decide: play a red and a black card.")
            if isinstance(command, Buy):
                self._check_buy(state, command, seat, pending)
        else:
            raise IllegalCommand(f"{command!r} is not a Property command.")

    @staticmethod
    def _check_play(state: PropertyState, play: Play, seat: int) -> None:
        red, black = play.red, play.black
        for card in (red, black):
            if card.suit is None or card.rank > 10:  # a joker, or a court card
                raise IllegalCommand(say("{} is a purchase unit, not a number card: play cards A-10.", card))
        red_first = red.suit in _RED
        if red_first is (black.suit in _RED):
            raise IllegalCommand(say("play needs one red and one black card; {} and {} are both {}",
                                     red, black, red.colour.value))
        if not red_first:
            raise IllegalCommand(say("a play names its red card first: play {} {}", black, red))
        hand = state.hands[state.current]
        if red not in hand or black not in hand:
            missing = [card for card in (red, black) if card not in hand]
            raise IllegalCommand(say("{} does not hold {}.", player(state.names, seat), Sentence(" or ").join(missing)))
        if not (1 <= play.col <= SIZE and 1 <= play.row <= SIZE):
            raise IllegalCommand(f"There is no cell {play.col}·{play.row}: columns and rows run from 1 to 8.")
        if (play.col, play.row) in _cells(red.rank, black.rank):
            return
        wanted = cell_name(play.col, play.row)
        if not is_wild(red) and not is_wild(black):
            raise IllegalCommand(say("{} and {} name cell {}, not {}.", red, black,
                                     cell_name(red.rank, black.rank), wanted))
        if is_wild(red):
            raise IllegalCommand(say("{} fixes the row at {}, so {} {} cannot name {}.",
                                     black, black.rank, red, black, wanted))
        raise IllegalCommand(say("{} fixes the column at {}, so {} {} cannot name {}.",
                                 red, red.rank, red, black, wanted))

    @staticmethod
    def _check_buy(state: PropertyState, buy: Buy, seat: int, pending: PendingPurchase) -> None:
        where = cell_name(pending.col, pending.row)
        if not buy.units:
            raise IllegalCommand(f"Name the units to hand over: buying {where} needs {pending.group_size}.")
        seen: set[Card] = set()
        for card in buy.units:
            if not unit_value(card):
                raise IllegalCommand(say("{} is not a purchase unit: buy with kings, queens, jacks or jokers.", card))
            if card in seen:
                raise IllegalCommand(say("{} is named twice.", card))
            seen.add(card)
        missing = [card for card in buy.units if card not in state.units[pending.payer]]
        if missing:
            raise IllegalCommand(say("{} does not hold {} among their purchase units.", player(state.names, seat),
                                     Sentence(" ").join(missing)))
        total = units_total(buy.units)
        if total < pending.group_size:
            raise IllegalCommand(say("Buying {} needs {} units; {} make only {}.", where, pending.group_size,
                                     Sentence(" ").join(buy.units), total))

    # -- changing ------------------------------------------------------------------------------
    def apply(self, state: PropertyState, seat: int, command: Command) -> list[Event]:
        self.check(state, seat, command)
        if isinstance(command, Play):
            return self._play(state, command)
        pending = cast(PendingPurchase, state.pending)  # check made sure there is one
        state.pending = None
        if isinstance(command, Buy):
            i = index(pending.col, pending.row)
            for card in command.units:
                state.units[pending.payer].remove(card)
            state.units[pending.owner] = sort_units(state.units[pending.owner] + list(command.units))
            state.owners[i] = pending.payer  # a mortgage stays with the cell
            events: list[Event] = [Bought(pending.payer, pending.owner, pending.col, pending.row,
                                          command.units, state.mortgaged[i])]
        else:
            events = [Declined(pending.payer, pending.col, pending.row)]
        return events + self._end_turn(state)

    def _play(self, state: PropertyState, play: Play) -> list[Event]:
        seat = state.current
        red, black, col, row = play.red, play.black, play.col, play.row
        hand = state.hands[seat]
        hand.remove(red)
        hand.remove(black)
        state.played += [red, black]
        state.last_play = LastPlay(seat, red, black, col, row)
        i = index(col, row)
        owner = state.owners[i]
        if owner is None:
            state.owners[i] = seat
            state.mortgaged[i] = False
            return [Claimed(seat, red, black, col, row)] + self._end_turn(state)
        if owner == seat:
            if state.mortgaged[i]:
                state.owners[i] = None
                state.mortgaged[i] = False
                return [Lost(seat, red, black, col, row)] + self._end_turn(state)
            state.mortgaged[i] = True
            return [Mortgaged(seat, red, black, col, row)] + self._end_turn(state)
        size = group_size(state, col, row)
        times = multiplier(red, black)
        rent = size * times
        paid = min(rent, state.money[seat])
        state.money[seat] -= paid
        state.money[owner] += paid
        events: list[Event] = [RentPaid(seat, owner, red, black, col, row, size, times, rent, paid)]
        if rent > paid:
            return events + self._bankrupt(state, seat, owner, rent, paid)
        if units_total(state.units[seat]) >= size:
            state.pending = PendingPurchase(seat, owner, col, row, size, rent)
            return events
        return events + self._end_turn(state)

    def _bankrupt(self, state: PropertyState, seat: int, owner: int, rent: int, paid: int) -> list[Event]:
        state.bankrupt.append(seat)
        events: list[Event] = [WentBankrupt(seat, owner, rent, paid)]
        if state.over:
            outcome = self.outcome(state)
            return events + [GameOver(outcome.summary if outcome else "")]
        cells = state.cells_of(seat)
        for i in cells:
            state.owners[i] = None
            state.mortgaged[i] = False
        cards = state.hands[seat]
        state.played += cards
        state.hands[seat] = []
        events.append(Vacated(seat, len(cells), len(cards)))
        self._advance(state)
        return events

    def _end_turn(self, state: PropertyState) -> list[Event]:
        events = self._refill(state, state.current)
        self._advance(state)
        return events

    @staticmethod
    def _advance(state: PropertyState) -> None:
        seat = state.current
        for _ in range(state.players):
            seat = (seat + 1) % state.players
            if seat not in state.bankrupt:
                break
        state.current = seat
        state.turn += 1

    @staticmethod
    def _refill(state: PropertyState, seat: int) -> list[Event]:
        """Draw until the hand holds both colours, remaking the stock from the played cards
        whenever it runs out (the pair just played is among them, so this always ends)."""
        hand = state.hands[seat]
        events: list[Event] = []
        drawn: list[Card] = []
        colours = {card.colour for card in hand}  # kept up to date as cards come (has_both_colours)
        while not (Colour.RED in colours and Colour.BLACK in colours):
            if not state.stock:
                if not state.played:
                    break
                if drawn:
                    events.append(Drew(seat, tuple(drawn)))
                    drawn = []
                state.stock = stack(shuffled(state.played, state.seed, state.counter))
                state.played = []
                state.counter += 1
                events.append(StockRemade(len(state.stock)))
            card = state.stock.pop()  # the top card
            hand.append(card)
            drawn.append(card)
            colours.add(card.colour)
        if drawn:
            events.append(Drew(seat, tuple(drawn)))
        return events

    # -- showing -------------------------------------------------------------------------------
    def view(self, state: PropertyState, seat: int | None, plain: bool = False) -> PropertyView:
        n = state.players
        cells, mortgages = [0] * n, [0] * n
        for owner, mortgaged in zip(state.owners, state.mortgaged) if not plain else ():  # for the rows alone
            if owner is not None:
                cells[owner] += 1
                mortgages[owner] += mortgaged
        rows = [(
            "bankrupt" if s in state.bankrupt else f"${state.money[s]}",
            str(units_total(state.units[s])),
            f"{cells[s]} ({mortgages[s]}*)" if mortgages[s] else str(cells[s]),
        ) for s in range(0 if plain else n)]
        own = seat is not None and 0 <= seat < n
        awaiting = self.awaiting(state)
        return PropertyView(
            seat=seat,
            names=tuple(state.names),
            awaiting=awaiting,
            status="" if plain else status_sentence(state.names, not awaiting, state.current, state.pending),
            zones={"hand": tuple(sort_cards(state.hands[seat]))} if own else {},
            zone_sizes=tuple({"hand": len(hand)} for hand in state.hands),
            columns=("Money", "Units", "Cells"),
            rows=tuple(rows),
            options=dict(state.options),
            owners=tuple(state.owners),
            mortgaged=tuple(state.mortgaged),
            money=tuple(state.money),
            units=tuple(tuple(units) for units in state.units),
            bankrupt=tuple(s in state.bankrupt for s in range(n)),
            bankrupt_order=tuple(state.bankrupt),
            stock_size=len(state.stock),
            played=tuple(state.played),
            current=state.current,
            turn=state.turn,
            pending=state.pending,
            last_play=state.last_play,
            first=state.first,
            cut=tuple(tuple(draw) for draw in state.cut),
        )

    def sample(self, view: PropertyView, rng: random.Random) -> PropertyState:
        """A state the viewer cannot tell from the real one: the cards it has not seen (the
        other hands and the stock) dealt at random as the rules deal them, and a fresh seed for
        future shuffles. Every hand is of the shape ``hand_shape`` says (both colours, one of them
        a single card; all one colour after a pair is played), and each deal of that shape is as
        likely as any other: the colours of the hands are drawn by how many deals give them."""
        mine = list(view.hand)
        seen = {card.key for card in mine} | {card.key for card in view.played}
        unseen = [card for card in number_deck() if card.key not in seen]
        rng.shuffle(unseen)
        pools = {True: [c for c in unseen if c.is_red], False: [c for c in unseen if c.is_black]}
        over = not view.awaiting
        others = [s for s in range(len(view.names)) if s != view.seat]
        choices = []  # per other seat: the (reds, blacks) its hand may hold
        for s in others:
            size = view.hand_sizes[s]
            shape = hand_shape(s, view.pending, view.bankrupt_order, over)
            if shape == "one single" and size >= 2:
                choices.append(sorted({(size - 1, 1), (1, size - 1)}))
            elif shape == "one colour" and size:
                choices.append([(size, 0), (0, size)])
            else:  # empty, or a hand the rules cannot make (a position written by hand): any colours
                choices.append([(r, size - r) for r in range(size + 1)])
        make_ups, weights = [], []
        for make_up in itertools.product(*choices):
            weight, reds, blacks = 1, len(pools[True]), len(pools[False])
            for r, b in make_up:
                weight *= math.comb(reds, r) * math.comb(blacks, b)  # 0 once a colour runs out
                reds, blacks = max(0, reds - r), max(0, blacks - b)
            make_ups.append(make_up)
            weights.append(weight)
        hands: list[list[Card]] = [mine if s == view.seat else [] for s in range(len(view.names))]
        if any(weights):
            for s, (r, b) in zip(others, rng.choices(make_ups, weights)[0]):
                hands[s] = [pools[True].pop() for _ in range(r)] + [pools[False].pop() for _ in range(b)]
            unseen = pools[True] + pools[False]
            rng.shuffle(unseen)
        else:  # no deal fits the shapes (a position written by hand): deal without them
            for s in others:
                hands[s] = [unseen.pop() for _ in range(view.hand_sizes[s])]
        return PropertyState(
            names=list(view.names), options=dict(view.options), seed=rng.randrange(10**9), counter=0,
            owners=list(view.owners), mortgaged=list(view.mortgaged), money=list(view.money),
            units=[list(units) for units in view.units], hands=hands, stock=unseen,
            played=list(view.played), current=view.current, turn=view.turn,
            bankrupt=list(view.bankrupt_order), pending=view.pending, last_play=view.last_play,
            first=view.first, cut=[list(draw) for draw in view.cut],
        )

    def outcome(self, state: PropertyState) -> Outcome | None:
        if not state.over:
            return None
        count = bool(state.options.get("count-property"))
        worths, keys, breakdown = [], [], []
        for seat in range(state.players):
            cells = len(state.cells_of(seat))
            value = PROPERTY_VALUE * cells if count else 0
            worth = state.money[seat] + value
            worths.append(worth)
            # a bankrupt player ranks below everyone still solvent, earlier bankruptcies lowest
            keys.append((0, state.bankrupt.index(seat), worth) if seat in state.bankrupt else (1, 0, worth))
            lines = {"Money": state.money[seat], "Cells": cells}
            if count:  # property counts for nothing without the option: no row of zeros
                lines["Property value"] = value
            breakdown.append({**lines, "Worth": worth})
        ranks = Outcome.rank_by(keys)
        return Outcome(ranks, tuple(worths), tuple(breakdown), self._summary(state, ranks, worths, count))

    @staticmethod
    def _summary(state: PropertyState, ranks: Sequence[int], worths: Sequence[int], count: bool) -> Sentence:
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        worth = dollars(worths[winners[0]])
        text = winners_sentence(state.names, winners, say("a worth of {}", worth) if count else worth)
        if state.bankrupt:
            text += say("; {} went bankrupt", join_names(players(state.names, state.bankrupt)))
        return text + "."

    # -- storing -------------------------------------------------------------------------------
    def to_json(self, state: PropertyState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> PropertyState:
        return state_from_json(data)

    def invariants(self, state: PropertyState) -> list[str]:
        """What no reachable position breaks, the broken ones in words (see invariants.py)."""
        from .invariants import invariants

        return invariants(self, state)

    def conserved(self, state: PropertyState) -> dict[str, Any]:
        cards = state.stock + state.played + [card for hand in state.hands for card in hand]
        return {
            "cards": sorted(card.key for card in cards),
            "units": sorted(card.key for units in state.units for card in units),
            "money": sum(state.money),
        }


__all__ = [
    "CHIPS", "STARTING_MONEY", "UNIT_SHARES", "PropertySpec", "cells_for", "group", "group_size",
    "has_both_colours", "is_wild", "multiplier", "number_deck", "preview", "units_total",
    "useful_purchases",
]
