"""The brute-force reference ``tests/test_sample_deviation.py`` measures Portfolio, Card Stock
Market, Capital Auction and Abundance against: the rules' own deal, conditioned on everything a
seat saw over a short game's public history.

Why it is exact. Each of these games deals by shuffling each of its decks uniformly (Portfolio:
one shuffle into hands, stock and discard; Card Stock Market: the stock and hands from one shuffle
of the cards left once the price cards are turned up, which stay public; Capital Auction: three
independent shuffles, of Capital, Tools and Investments; Abundance: one shuffle into four piles).
A uniform shuffle conditioned on some of its slots holding given cards deals the other cards
uniformly over the other slots. So the reference keeps the real start, leaves every card the seat
has seen at any moment in the slot it was dealt to, shuffles the rest of each deck among the slots
they fill, replays the real history's commands, and keeps the deal only if every command is legal
and the seat sees, after every one of them, the very view and events it saw in the real game
(rejection: nothing about the rules is assumed, so a rule that makes the hidden cards depend on
one another — a hand that must hold both colours, a joker that ends the game — shows up as deals
thrown away). Fixing the seen cards' slots conditions on a little more than the seat saw (which of
the seen cards lay where), which changes nothing in these games: their rules never read an unseen
card's face, so where a seen card was dealt changes no other card's chance of being anywhere. The
rest of the game's chance (reshuffles of a discard pile) comes from the real state's seed, the same
in every deal; the positions measured lie before any such reshuffle.
"""

from __future__ import annotations

import copy
import re
import dataclasses
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

import rules
from rules.core.cards import Card
from rules.core.engine import PrivateEvent
from rules.core.errors import RulesError


@dataclass(frozen=True)
class Deck:
    """Where a game's shuffled decks lie in a state: ``slots`` reads each deck's cards as one list
    (in a fixed order of places), ``refill`` writes lists of the same lengths back; ``places``
    names where each card lies now (a hand, a pile; the public table as one place)."""
    slots: Callable[[Any], list[list[Any]]]
    refill: Callable[[Any, list[list[Any]]], None]
    places: Callable[[Any], dict[str, str]]
    history: tuple[str, ...] = ()  # view fields that name cards as they were, not where they are


def _split(flat: list, sizes: list[int]) -> list[list]:
    out, at = [], 0
    for size in sizes:
        out.append(flat[at:at + size])
        at += size
    return out


# -- Portfolio: hands, stock and discard from one shuffle -------------------------------------
def _portfolio_slots(state) -> list[list]:
    return [[*(c for hand in state.hands for c in hand), *state.stock, *state.discard]]


def _portfolio_refill(state, decks) -> None:
    sizes = [len(h) for h in state.hands] + [len(state.stock), len(state.discard)]
    *hands, state.stock, state.discard = _split(decks[0], sizes)
    state.hands = hands


def _portfolio_places(state) -> dict[str, str]:
    where = {c.key: "table" for c in state.discard}
    where.update({c.key: "table" for p in state.portfolios for c in p.all_cards()})
    where.update({c.key: f"hand {s}" for s, hand in enumerate(state.hands) for c in hand})
    where.update({c.key: "stock" for c in state.stock})
    return where


# -- Card Stock Market: the hands and the stock from one shuffle -------------------------------
def _market_slots(state) -> list[list]:
    return [[*(c for hand in state.hands for c in hand), *state.stock]]


def _market_refill(state, decks) -> None:
    *hands, state.stock = _split(decks[0], [len(h) for h in state.hands] + [len(state.stock)])
    state.hands = hands


def _market_places(state) -> dict[str, str]:
    where = {c.key: "table" for c in (*state.discard, *state.aside, *state.turned_up)}
    where.update({c.key: "table" for pile in state.piles.values() for c in pile})
    where.update({c.key: "table" for held in state.holdings for c in held})
    where.update({c.key: f"hand {s}" for s, hand in enumerate(state.hands) for c in hand})
    where.update({c.key: "stock" for c in state.stock})
    return where


# -- Capital Auction: Capital, Tools and Investments, three shuffles ---------------------------
def _auction_investment_slots(state) -> list:
    return [*(s for p in state.portfolios for s in p), *(s for lot in state.table for s in lot), *state.removed]


def _auction_slots(state) -> list[list]:
    return [[*(c for hand in state.capital for c in hand), *state.capital_deck],
            [*(t for hand in state.tools for t in hand), *state.tool_deck],
            [*(s.card for s in _auction_investment_slots(state)), *state.investment_deck]]


def _auction_refill(state, decks) -> None:
    capital, tools, investments = decks
    *state.capital, state.capital_deck = _split(capital, [len(h) for h in state.capital] + [len(state.capital_deck)])
    *state.tools, state.tool_deck = _split(tools, [len(h) for h in state.tools] + [len(state.tool_deck)])
    slots = _auction_investment_slots(state)
    for slot, card in zip(slots, investments):
        slot.card = card
    state.investment_deck = investments[len(slots):]


def _auction_places(state) -> dict[str, str]:
    where = {c.key: f"capital {s}" for s, hand in enumerate(state.capital) for c in hand}
    where.update({c.key: "capital deck" for c in state.capital_deck})
    where.update({c.key: "table" for c in (*state.capital_discard, *state.tool_discard)})
    where.update({c.key: "table" for bid in state.bids for c in bid})
    where.update({t.key: f"tools {s}" for s, hand in enumerate(state.tools) for t in hand})
    where.update({t.key: "tool deck" for t in state.tool_deck})
    if state.pending is not None:
        where.update({t.key: "table" for t in (state.pending.tool, *state.pending.connections)})
    where.update({s.card.key: f"portfolio {p} card {i}" for p, slots in enumerate(state.portfolios)
                  for i, s in enumerate(slots)})
    where.update({s.card.key: f"lot {a} card {i}" for a, lot in enumerate(state.table) for i, s in enumerate(lot)})
    where.update({s.card.key: f"removed {i}" for i, s in enumerate(state.removed)})
    where.update({c.key: "investment deck" for c in state.investment_deck})
    return where


# -- Abundance: four face-down piles from one shuffle ------------------------------------------
def _abundance_slots(state) -> list[list]:
    return [[c for pile in state.piles for c in pile]]


def _abundance_refill(state, decks) -> None:
    state.piles = _split(decks[0], [len(p) for p in state.piles])


def _abundance_places(state) -> dict[str, str]:
    where = {c.key: "table" for c in (*state.sold, *(c for t in state.trinkets for c in t))}
    if state.card is not None:
        where[state.card.key] = "table"
    where.update({c.key: f"pile {p + 1}" for p, pile in enumerate(state.piles) for c in pile})
    return where


DECKS = {
    "portfolio": Deck(_portfolio_slots, _portfolio_refill, _portfolio_places),
    # the cards turned up to find the prices went back into the deck: where they lie is not seen
    "stock_market": Deck(_market_slots, _market_refill, _market_places, history=("turned_up",)),
    "capital_auction": Deck(_auction_slots, _auction_refill, _auction_places),
    "abundance": Deck(_abundance_slots, _abundance_refill, _abundance_places),
}


def card_keys(thing: Any, into: set[str], skip: tuple[str, ...] = ()) -> set[str]:
    """The keys of every card anywhere in a view or an event (cards have a ``key``; a face
    never shown is None)."""
    if isinstance(thing, (str, int, float, bool)) or thing is None:
        return into
    if isinstance(thing, Card) or (dataclasses.is_dataclass(thing) and hasattr(type(thing), "key")):
        into.add(thing.key)
    elif dataclasses.is_dataclass(thing):
        for f in dataclasses.fields(thing):
            if f.name not in skip:
                card_keys(getattr(thing, f.name), into, skip)
    elif isinstance(thing, dict):
        for key, value in thing.items():
            card_keys(key, into, skip)
            card_keys(value, into, skip)
    elif isinstance(thing, (list, tuple, set, frozenset)):
        for item in thing:
            card_keys(item, into, skip)
    return into


@dataclass
class Position:
    """A short game played at random from a seed, to ``steps`` commands, seen from ``seat``."""
    game: str
    start: Any
    moves: list[tuple[int, Any]]
    final: Any
    seat: int
    seen: list[tuple[str, list[str]]]  # after each command: the seat's view (faces_of) and its log's new lines
    seen_keys: set[str]


_COPY = re.compile(r"""\.\d+(['"]\))""")


def faces_of(view) -> str:
    """The view as a seat would read it at a real table, where two copies of a face look alike:
    which copy a rule moved (the lowest of a value bid, say) tells nothing of the deal."""
    return _COPY.sub(r"\1", repr(view))


def heard(events: list, names, seat: int) -> list[str]:
    """The events as the seat's log words them."""
    return [str(e.describe(names, seat)) for e in events if e.visible_to(seat)]


def play_position(game: str, players: int, seed: int, steps: int, seat: int) -> Position:
    spec = rules.find_game(game)
    state = spec.setup([f"P{i + 1}" for i in range(players)], None, seed)
    start = copy.deepcopy(state)
    rng = random.Random(seed)
    moves, seen = [], []
    skip = DECKS[game].history
    keys = card_keys(spec.view(state, seat), set(), skip)
    for _ in range(steps):
        if spec.outcome(state) is not None:
            break
        mover = min(spec.awaiting(state))
        command = rng.choice(spec.legal(state, mover))
        events = spec.apply(state, mover, command)
        view = spec.view(state, seat)
        moves.append((mover, command))
        seen.append((faces_of(view), heard(events, state.names, seat)))
        card_keys(view, keys, skip)
        # an event may carry more than it tells a seat (a draw's cards): only one meant for the
        # seat alone shows it cards; the others' sentences are compared, not their fields
        card_keys([e for e in events if isinstance(e, PrivateEvent) and e.seat == seat], keys)
    return Position(game, start, moves, state, seat, seen, keys)


def reference(position: Position, deals: int, rng: random.Random) -> list:
    """The final states of ``deals`` redeals of ``position`` that the seat cannot tell from the
    real game (see the module's docstring), the others thrown away."""
    spec = rules.find_game(position.game)
    deck = DECKS[position.game]
    decks = deck.slots(position.start)
    free = [[i for i, c in enumerate(cards) if c.key not in position.seen_keys] for cards in decks]
    kept = []
    for _ in range(deals):
        state = copy.deepcopy(position.start)
        shuffled = []
        for cards, places in zip(decks, free):
            cards = list(cards)
            moved = [cards[i] for i in places]
            rng.shuffle(moved)
            for i, card in zip(places, moved):
                cards[i] = card
            shuffled.append(cards)
        deck.refill(state, shuffled)
        if replays(spec, state, position):
            kept.append(state)
    return kept


def replays(spec, state, position: Position) -> bool:
    """Play the real commands on ``state``; True if each is legal and the seat sees what it saw."""
    for (mover, command), (view, events) in zip(position.moves, position.seen):
        try:
            spec.check(state, mover, command)
        except RulesError:
            return False
        shown = heard(spec.apply(state, mover, command), state.names, position.seat)
        if shown != events or faces_of(spec.view(state, position.seat)) != view:
            return False
    return True


def face(key: str) -> str:
    """A card's face: its key without the copy number (``5S.1`` is a ``5S``; Capital ``2.11`` a
    2): the rules treat the copies of a face alike, and a view does not always say which copy a
    seat saw go back into a hand."""
    return key.split(".")[0]


def moments(places: list[dict[str, str]]) -> tuple[dict, dict]:
    """Per (face, place): the mean number of copies there, and the mean of its square."""
    first, second = Counter(), Counter()
    for where in places:
        for pair, count in Counter((face(key), place) for key, place in where.items()).items():
            first[pair] += count
            second[pair] += count * count
    return ({pair: v / len(places) for pair, v in first.items()},
            {pair: v / len(places) for pair, v in second.items()})


def compare(position: Position, deals: int, samples: int, seed: int, sample=None) -> dict[str, Any]:
    """The largest |sample - reference| over (face, place) of the mean number of copies there
    (for a face of one copy: the chance it is there) at ``position``, that gap's size in standard
    errors of the two means' difference, and the largest such size over every (face, place)."""
    spec = rules.find_game(position.game)
    places = DECKS[position.game].places
    rng = random.Random(seed)
    ref = [places(state) for state in reference(position, deals, rng)]
    view = spec.view(position.final, position.seat)
    sample = sample or spec.sample
    dealt = [places(sample(view, random.Random(rng.randrange(10**12)))) for _ in range(samples)]
    (p, p2), (q, q2) = moments(dealt), moments(ref)
    gap, where, z_gap, z_most = 0.0, None, 0.0, 0.0
    for pair in set(p) | set(q):
        a, b = p.get(pair, 0.0), q.get(pair, 0.0)
        variance = (p2.get(pair, 0.0) - a * a) / len(dealt) + (q2.get(pair, 0.0) - b * b) / len(ref)
        # never below one card in the smaller count: a place no deal of either put a face in
        # has a variance of 0 on one side
        error = max(max(variance, 0.0) ** 0.5, 1 / min(len(dealt), len(ref)))
        z = abs(a - b) / error
        z_most = max(z_most, z)
        if abs(a - b) > gap:
            gap, where, z_gap = abs(a - b), pair, z
    return {"gap": gap, "where": where, "z": z_gap, "z_most": z_most,
            "kept": len(ref), "deals": deals, "samples": samples}
