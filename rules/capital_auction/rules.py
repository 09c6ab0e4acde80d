"""Capital Auction: setup, legal commands, checks, effects, views and the result.
seeds/capital-auction.md gives the rules as implemented and the rulings applied.

A round lays out six Investment cards for three auctions. Each auction has an Investment phase
(an open auction with final passes, bid in Capital cards laid face up) and, when someone won,
a Tool phase: from the winner's left each player once plays a Tool card or passes, and every
Tool played is put to the other players, one at a time, who may cancel it with a Connection in
the Government (which may itself be cancelled, and so on).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from itertools import combinations
from operator import attrgetter
from typing import Any, Iterable, Mapping, Sequence

from rules.core import IllegalCommand, Option, Outcome, chance, check_awaited, check_setup
from rules.core.auctions import OpenAuction
from rules.core.known import forget
from rules.core.listing import Listing, MadeWhenRead
from rules.core.piles import deal, shuffled
from rules.core.words import Sentence, join_names, player, players, plural, say, winners_sentence

from .cards import CARDS, CONNECTION, Capital, Investment, Tool, ToolKind, by_value, total, values_of
from .commands import Bid, Command, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take
from .events import (
    AuctionOpened, AuctionWon, BidMade, Cancelled, CapitalDiscarded, CapitalTaken, Declined, Drew,
    Event, Flipped, GameOver, LaidOut, Looked, LotFlipped, Moved, NobodyBid, Passed, Reacted,
    Reshuffled, Spied, Stole, ToolDiscarded, ToolPlayed, WrittenOff,
)
from .notation import CapitalAuctionNotation, example
from .state import (
    ASK_ONLY_HOLDERS, AUCTIONS, BID, FLIP, FULL_PORTFOLIO, OVER, PICK, REACT, ROUNDS, TAX, TOOL,
    VENTURE, CapitalAuctionState, CapitalAuctionView, Pending, Slot, SlotInfo, lot_name, read_lot,
    state_from_json, state_to_json, status_sentence,
)

START_CAPITAL = 6
START_TOOLS = 3
ROUND_CAPITAL = 4
TOOL_HAND = 3
# the pattern of a round's six cards: per auction, each card face up (True) or down
LAYOUT = ((True, False), (True, False), (False, False))
CAPITAL, TOOLS = "Capital", "Tool"
_MEAN_CAPITAL = total(CARDS.capital_deck()) / len(CARDS.capital_deck())


# -- small readings of the position (states and views alike where possible) -----------------------
def portfolio_value(slots: Iterable[Any]) -> int:
    """The total value of a portfolio's cards, face up or down."""
    return sum(slot.card.value for slot in slots)


def face_up_value(slots: Iterable[Any]) -> int:
    return sum(slot.card.value for slot in slots if slot.up and slot.card is not None)


@lru_cache(maxsize=1)  # the card set is read once; every question to a Tool asks this
def connection_kind() -> ToolKind:
    return next(kind for kind in CARDS.tools if kind.effect == CONNECTION)


def effect_of(key: str) -> str:
    return CARDS.tool(key).effect


# a Capital card's value, and (value, copy), read in C: its kind is its value
_VALUE, _VALUE_COPY = attrgetter("kind"), attrgetter("kind", "copy")
_COPY = attrgetter("copy")


def _pick(cards: Sequence[Capital], values: Iterable[int]) -> list[Capital] | None:
    """The physical cards of these values (the lowest copy of each), or None if some are missing."""
    left = sorted(cards, key=_VALUE_COPY)
    left_values = list(map(_VALUE, left))
    chosen: list[Capital] = []
    for value in values:
        if value not in left_values:
            return None
        at = left_values.index(value)
        del left_values[at]
        chosen.append(left.pop(at))
    return chosen


def _multisets(values: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct choice of ``size`` of these values, each highest first, in a stable order."""
    ordered = sorted(values, reverse=True)
    return sorted({combo for combo in combinations(ordered, size)}, reverse=True)


def _cheapest(values: Sequence[int], count: int) -> tuple[int, ...]:
    """The ``count`` lowest of a hand's ``values`` (sorted low to high), highest first: the pay
    the legal list offers."""
    return tuple(reversed(values[:count]))


def useful_bids(counts: tuple[tuple[int, int], ...], high: int) -> tuple[tuple[int, ...], ...]:
    """For every total above ``high`` that the cards (value, count) can make, the bid making it
    with the fewest cards (of those, the one with the highest cards): a useful list of bids,
    lowest total first. Any other set of cards is a legal bid too (``check`` judges)."""
    totals, bids = _best_bids(counts)
    return bids[bisect_right(totals, high):]


@lru_cache(maxsize=4096)  # a hand stays the same while the bids of an auction climb
def _best_bids(counts: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Every total the cards can make, lowest first, and the bid of ``useful_bids`` making each."""
    # each total's best bid so far and its size; a bid is made only where it may be the best
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for value, count in sorted(counts, reverse=True):
        step = best.copy()  # none of this value: every bid made so far stands
        for made, (size, cards) in best.items():
            for k in range(1, count + 1):
                key = made + k * value
                old = step.get(key)
                # fewer cards, then the higher cards (tuples of one length compare card by card)
                if old is None or size + k < old[0]:
                    step[key] = (size + k, cards + (value,) * k)
                elif size + k == old[0] and (bid := cards + (value,) * k) > old[1]:
                    step[key] = (size + k, bid)
        best = step
    totals = tuple(sorted(best))
    return totals, tuple(best[t][1] for t in totals)


@lru_cache(maxsize=4096)
def _counts(values: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(value, how many) of Capital cards of these sorted values, lowest value first."""
    return tuple(sorted(Counter(values).items()))


# -- the chance draws ----------------------------------------------------------------------------
def _refill(state: CapitalAuctionState, kind: str) -> list[Event]:
    """An empty deck takes its shuffled discard pile (RULINGS)."""
    deck, discard = ((state.capital_deck, state.capital_discard) if kind == CAPITAL
                     else (state.tool_deck, state.tool_discard))
    if deck or not discard:
        return []
    deck[:] = shuffled(discard, state.seed, state.counter)
    state.counter += 1
    discard.clear()
    return [Reshuffled(kind, len(deck))]


def _draw(state: CapitalAuctionState, seat: int, capital: int, tools: int, why: str) -> list[Event]:
    events: list[Event] = []
    got: dict[str, list[Any]] = {CAPITAL: [], TOOLS: []}
    for kind, count in ((CAPITAL, capital), (TOOLS, tools)):
        deck = state.capital_deck if kind == CAPITAL else state.tool_deck
        while len(got[kind]) < count:
            events += _refill(state, kind)
            if not deck:
                break
            got[kind].append(deck.pop())
    state.capital[seat] += got[CAPITAL]
    state.tools[seat] += got[TOOLS]
    return events + [Drew(seat, tuple(got[CAPITAL]), tuple(got[TOOLS]), why)]


def _available(state: CapitalAuctionState, kind: str) -> int:
    if kind == CAPITAL:
        return len(state.capital_deck) + len(state.capital_discard)
    return len(state.tool_deck) + len(state.tool_discard)


def _bonus(state: CapitalAuctionState, seat: int, card: Investment) -> list[Event]:
    """The bonus of a card secured or turned face up in ``seat``'s portfolio."""
    bonus = card.info.bonus
    events: list[Event] = []
    if bonus.capital or bonus.tools:
        events += _draw(state, seat, bonus.capital, bonus.tools, f"bonus of {card.name}")
    if bonus.steal:
        taken = []
        for step in range(1, state.players):
            victim = (seat + step) % state.players
            for _ in range(bonus.steal):
                hand = sorted(state.capital[victim], key=_VALUE_COPY)
                if not hand:
                    break
                card_taken = chance(state.seed, state.counter).choice(hand)
                state.counter += 1
                state.capital[victim].remove(card_taken)
                state.known[victim].clear()  # any of them may be the one taken, unseen
                state.capital[seat].append(card_taken)
                taken.append((victim, card_taken))
        events.append(Stole(seat, tuple(taken)))
    return events


# -- the flow of a round ---------------------------------------------------------------------------
def _lay_out(state: CapitalAuctionState) -> list[Event]:
    everyone = set(range(state.players))
    state.table = []
    for pattern in LAYOUT:
        lot = []
        for up in pattern:
            if state.investment_deck:
                lot.append(Slot(state.investment_deck.pop(), up, set(everyone) if up else set()))
        state.table.append(lot)
    return [LaidOut(state.round, tuple(tuple((s.card, s.up) for s in lot) for lot in state.table))]


def _open_auction(state: CapitalAuctionState) -> list[Event]:
    n = state.players
    state.bids = [[] for _ in range(n)]
    state.winner = None
    state.tool_order, state.tool_turn = [], 0
    if not state.table[state.auction - 1]:  # a card set too small for this auction: skip it
        state.bidding = None
        state.starter = (state.starter + 1) % n
        return _next_auction(state)
    state.bidding = OpenAuction(tuple((state.starter + i) % n for i in range(n)), final_pass=True)
    state.phase = BID
    return [AuctionOpened(state.round, state.auction, state.starter)]


def _next_auction(state: CapitalAuctionState) -> list[Event]:
    if state.auction < AUCTIONS:
        state.auction += 1
        return _open_auction(state)
    if state.round >= ROUNDS:
        return _finish(state)
    state.round += 1
    state.auction = 1
    events: list[Event] = []
    n = state.players
    for step in range(n):
        seat = (state.starter + step) % n
        face_up = sum(1 for slot in state.portfolios[seat] if slot.up)
        tools = max(0, TOOL_HAND - len(state.tools[seat]))
        events += _draw(state, seat, ROUND_CAPITAL + face_up, tools, f"round {state.round}")
    events += _lay_out(state)
    return events + _open_auction(state)


def _full(state: CapitalAuctionState) -> bool:
    return any(len(p) >= FULL_PORTFOLIO for p in state.portfolios)


def _finish(state: CapitalAuctionState) -> list[Event]:
    """The end: every face-down card in a portfolio is turned up, without bonuses."""
    full = [s for s, p in enumerate(state.portfolios) if len(p) >= FULL_PORTFOLIO]
    if full:
        reason = say("{} {} {} or more Investment cards: the game ends at once.",
                     join_names(players(state.names, full)), "holds" if len(full) == 1 else "hold", FULL_PORTFOLIO)
    else:
        reason = Sentence(f"Round {ROUNDS} is over: the game ends.")
    everyone = set(range(state.players))
    for portfolio in state.portfolios:
        for slot in portfolio:
            slot.up, slot.seen = True, set(everyone)
    state.phase = OVER
    state.bidding, state.pending = None, None
    return [GameOver(reason, _result(state).summary,
                     tuple(tuple(slot.card for slot in p) for p in state.portfolios))]


def _resolve_auction(state: CapitalAuctionState) -> list[Event]:
    auction = state.bidding
    winner = auction.winner
    n = state.players
    lot = state.table[state.auction - 1]
    state.table[state.auction - 1] = []
    state.bidding = None
    if winner is None:
        state.removed += lot
        state.starter = (state.starter + 1) % n
        return [NobodyBid(state.auction), *_next_auction(state)]
    paid = state.bids[winner]
    state.capital_discard += paid
    for seat in range(n):
        if seat != winner:
            state.capital[seat] += state.bids[seat]
            state.known[seat] += state.bids[seat]  # face up until now
    state.bids = [[] for _ in range(n)]
    for slot in lot:
        slot.seen.add(winner)
    state.portfolios[winner] += lot
    state.winner = winner
    state.starter = winner
    events: list[Event] = [AuctionWon(winner, state.auction, values_of(paid),
                                      tuple((s.card, s.up) for s in lot),
                                      tuple(frozenset(s.seen) for s in lot))]
    for slot in lot:
        if slot.up:
            events += _bonus(state, winner, slot.card)
    if _full(state):
        return events + _finish(state)
    if state.auction == 2:
        down = [i for i, slot in enumerate(state.table[2]) if not slot.up]
        if len(down) > 1:
            state.phase = FLIP
            return events
        if down:
            events += _turn_lot(state, winner, 3, down[0])
    return events + _start_tools(state)


def _turn_lot(state: CapitalAuctionState, seat: int, auction: int, index: int) -> list[Event]:
    slot = state.table[auction - 1][index]
    slot.up, slot.seen = True, set(range(state.players))
    return [LotFlipped(seat, lot_name(auction, index), slot.card)]


def _start_tools(state: CapitalAuctionState) -> list[Event]:
    n = state.players
    state.tool_order = [(state.winner + 1 + i) % n for i in range(n)]
    state.tool_turn = 0
    state.phase = TOOL
    return []


def _next_tool_turn(state: CapitalAuctionState) -> list[Event]:
    state.tool_turn += 1
    if state.tool_turn >= len(state.tool_order):
        return _next_auction(state)
    state.phase = TOOL
    return []


def can_react(state: CapitalAuctionState, seat: int) -> bool:
    """The seat holds a Connection in the Government and can pay for it."""
    kind = connection_kind()
    return (any(tool.kind == kind.key for tool in state.tools[seat])
            and len(state.capital[seat]) >= kind.cost)


def _askers(state: CapitalAuctionState, latest: int) -> tuple[int, ...]:
    """Everyone but the latest card's player, clockwise from their left (only those who could
    answer, under the option "ask only holders")."""
    n = state.players
    seats = [(latest + step) % n for step in range(1, n)]
    if state.ask_only_holders:
        seats = [s for s in seats if can_react(state, s)]
    return tuple(seats)


# -- Tool targets ----------------------------------------------------------------------------------
def _refuse_extra(play: Play, wanted: set[str], kind: ToolKind) -> None:
    given = {"player": play.player is not None, "card": bool(play.card), "own": bool(play.own), "lot": bool(play.lot)}
    extra = [name for name, present in given.items() if present and name not in wanted]
    if extra:
        what = {"player": "a player", "card": "a card of theirs", "own": "a card of yours", "lot": "a lot"}
        raise IllegalCommand(f"{kind.name} does not take {join_names([what[e] for e in extra], 'or')}: "
                             f"write it as '{example(kind.key)}'.")


def _other_player(state: CapitalAuctionState, seat: int, other: int | None, tool: str) -> int:
    if other is None:
        raise IllegalCommand(f"{tool} needs another player: name them.")
    if not 0 <= other < state.players:
        listed = join_names(players(state.names, range(state.players)))
        raise IllegalCommand(say("There is no player {} at this table; the players are {}.", other + 1, listed))
    if other == seat:
        raise IllegalCommand(f"{tool} needs another player, not yourself.")
    return other


def _whose(state: CapitalAuctionState, seat: int, owner: int) -> Sentence:
    """"Your" to ``seat`` for its own portfolio, else "Bob's"."""
    return Sentence("Your") if owner == seat else say("{}'s", player(state.names, owner))


def _card_of(state: CapitalAuctionState, seat: int, owner: int, position: int) -> Slot:
    """The card at ``position`` in ``owner``'s portfolio, named by ``seat``; the words of a
    refusal are written only for a refusal (a Tool's check asks this at every play)."""
    portfolio = state.portfolios[owner]
    if not portfolio:
        raise IllegalCommand(say("{} portfolio is empty.", _whose(state, seat, owner)))
    if not 1 <= position <= len(portfolio):
        raise IllegalCommand(say("{} portfolio has cards 1 to {}, not {}.", _whose(state, seat, owner),
                                 len(portfolio), position))
    return portfolio[position - 1]


def _lot_slot(state: CapitalAuctionState, text: str) -> tuple[int, int, Slot]:
    where = read_lot(text)
    if where is None or where[1] >= len(state.table[where[0] - 1]):
        on_table = [lot_name(a, i) for a, lot in enumerate(state.table, 1) for i in range(len(lot))]
        listed = join_names(on_table) if on_table else "none"
        raise IllegalCommand(f"There is no card {text!r} on the table (the cards there: {listed}).")
    auction, index = where
    return auction, index, state.table[auction - 1][index]


def validate_targets(state: CapitalAuctionState, seat: int, play: Play, resolving: bool = False) -> dict[str, Any]:
    """Refuse targets the Tool cannot take, in words, or return them resolved: ``slot`` (the
    Investment the effect works on), ``owner``/``position``, ``other`` (a seat), ``give``
    (Merger's own card), ``lot`` ((auction, index))."""
    kind = CARDS.tool(play.tool)
    effect, name = kind.effect, kind.name
    if effect == "insider":
        _refuse_extra(play, {"player", "card", "lot"}, kind)
        if play.lot and (play.player is not None or play.card):
            raise IllegalCommand(f"{name} looks at one card: a card on the table or one in a portfolio.")
        if play.lot:
            auction, index, slot = _lot_slot(state, play.lot)
            if slot.up:
                raise IllegalCommand(f"{play.lot} lies face up: there is nothing to look at.")
            return {"slot": slot, "lot": (auction, index)}
        if play.player is None:
            raise IllegalCommand(f"{name} needs a face-down card: one on the table (3a) or one in a portfolio "
                                 "(a player and the card's place).")
        # any portfolio, the player's own too: it shows them nothing new, but the card allows it
        owner = seat if play.player == seat else _other_player(state, seat, play.player, name)
        slot = _card_of(state, seat, owner, play.card)
        if slot.up:
            raise IllegalCommand(say("{} card {} lies face up: there is nothing to look at.",
                                     _whose(state, seat, owner), play.card))
        return {"slot": slot, "owner": owner, "position": play.card}
    if effect in ("press", "cover-up", "write-off"):
        _refuse_extra(play, {"own"}, kind)
        slot = _card_of(state, seat, seat, play.own)
        if effect == "press" and slot.up:
            raise IllegalCommand(f"Your card {play.own} is already face up.")
        if effect == "cover-up" and not slot.up:
            raise IllegalCommand(f"Your card {play.own} is already face down.")
        return {"slot": slot, "owner": seat, "position": play.own}
    if effect in ("audit", "takeover"):
        _refuse_extra(play, {"player", "card"}, kind)
        other = _other_player(state, seat, play.player, name)
        slot = _card_of(state, seat, other, play.card)
        return {"slot": slot, "owner": other, "position": play.card}
    if effect == "merger":
        _refuse_extra(play, {"own", "player", "card"}, kind)
        if not state.portfolios[seat]:
            raise IllegalCommand(f"{name} first gives one of your Investment cards, and you have none.")
        give = _card_of(state, seat, seat, play.own)
        other = _other_player(state, seat, play.player, name)
        them = player(state.names, other)
        if not state.portfolios[other]:
            if play.card:
                raise IllegalCommand(say("{} holds no Investment card, so there is nothing to take back: name "
                                         "none ('tool merger {} {}').", them, play.own, other + 1))
            return {"give": give, "other": other, "slot": None}
        if not play.card:
            raise IllegalCommand(say("Name the card you take from {}: 'tool merger {} {} 1'.", them, play.own,
                                     other + 1))
        slot = _card_of(state, seat, other, play.card)
        return {"give": give, "other": other, "slot": slot}
    if effect in ("tax", "espionage"):
        _refuse_extra(play, {"player"}, kind)
        other = _other_player(state, seat, play.player, name)
        if effect == "espionage" and not state.capital[other] and not resolving:
            raise IllegalCommand(say("{} holds no Capital cards: there is nothing to look at.",
                                     player(state.names, other)))
        return {"other": other}
    if effect == "offering":
        _refuse_extra(play, {"lot"}, kind)
        if not play.lot:
            raise IllegalCommand(f"{name} needs a face-down card on the table: name it, e.g. 3a.")
        auction, index, slot = _lot_slot(state, play.lot)
        if slot.up:
            raise IllegalCommand(f"{play.lot} is already face up.")
        return {"slot": slot, "lot": (auction, index)}
    _refuse_extra(play, set(), kind)
    if effect == "draw-capital" and not _available(state, CAPITAL):
        raise IllegalCommand("There are no Capital cards left to draw (the deck and its discard pile are empty).")
    if effect == "venture" and not _available(state, TOOLS):
        raise IllegalCommand("There are no Tool cards left to draw (the deck and its discard pile are empty).")
    return {}


def _targets(state: CapitalAuctionState, seat: int, key: str) -> list[dict[str, Any]]:
    """Every target set a Tool can take now, as Play fields (the legal list's, in a stable order)."""
    effect = effect_of(key)
    n = state.players
    others = [(seat + step) % n for step in range(1, n)]
    own = state.portfolios[seat]
    found: list[dict[str, Any]] = []
    if effect == "insider":
        found += _face_down_lots(state)
        found += [{"player": o, "card": i} for o in (*others, seat)
                  for i, slot in enumerate(state.portfolios[o], 1) if not slot.up]
    elif effect == "press":
        found += [{"own": i} for i, slot in enumerate(own, 1) if not slot.up]
    elif effect == "cover-up":
        found += [{"own": i} for i, slot in enumerate(own, 1) if slot.up]
    elif effect == "write-off":
        found += [{"own": i} for i in range(1, len(own) + 1)]
    elif effect in ("audit", "takeover"):
        found += [{"player": o, "card": i} for o in others for i in range(1, len(state.portfolios[o]) + 1)]
    elif effect == "merger":
        for give in range(1, len(own) + 1):
            for o in others:
                theirs = range(1, len(state.portfolios[o]) + 1) or [0]
                found += [{"own": give, "player": o, "card": i} for i in theirs]
    elif effect == "tax":
        found += [{"player": o} for o in others]
    elif effect == "espionage":
        found += [{"player": o} for o in others if state.capital[o]]
    elif effect == "offering":
        found += _face_down_lots(state)
    elif effect == "draw-capital":
        found += [{}] if _available(state, CAPITAL) else []
    elif effect == "venture":
        found += [{}] if _available(state, TOOLS) else []
    return found


def _play(play: tuple[str, tuple[int, ...], dict[str, Any]]) -> Play:
    tool, pay, targets = play
    return Play(tool, pay=pay, **targets)


_PASS = (Pass(),)  # commands are immutable: every legal list may end with the same one
_DECLINE = Decline()


def _face_down_lots(state: CapitalAuctionState) -> list[dict[str, Any]]:
    """The face-down cards on the table, as a Play's ``lot``."""
    return [{"lot": lot_name(a, i)} for a, lot in enumerate(state.table, 1) for i, slot in enumerate(lot)
            if not slot.up]


def tool_uses(legal: Sequence[Command]) -> dict[str, list[Play]]:
    """For each Tool key, the legal plays of it now (what the table points out on a Tool card)."""
    uses: dict[str, list[Play]] = {}
    for command in legal:
        if isinstance(command, Play):
            uses.setdefault(command.tool, []).append(command)
    return uses


# -- effects -----------------------------------------------------------------------------------
def _reveal(state: CapitalAuctionState, slot: Slot) -> None:
    slot.up, slot.seen = True, set(range(state.players))


def _apply_effect(state: CapitalAuctionState, pending: Pending, targets: dict[str, Any]) -> list[Event]:
    """Carry out a Tool that stands. Returns its events; sets the phase when it awaits a choice."""
    seat, play = pending.seat, pending.play
    kind = CARDS.tool(play.tool)
    effect = kind.effect
    slot: Slot | None = targets.get("slot")
    if effect == "insider":
        news = seat not in slot.seen
        slot.seen.add(seat)
        if play.lot:
            return [Looked(seat, slot.card, lot=play.lot, news=news)]
        return [Looked(seat, slot.card, owner=targets["owner"], position=targets["position"], news=news)]
    if effect in ("press", "audit", "cover-up"):
        owner = targets["owner"]
        if effect == "cover-up" or (effect == "audit" and slot.up):
            slot.up = False
            return [Flipped(seat, owner, targets["position"], slot.card, False, frozenset(slot.seen))]
        _reveal(state, slot)
        return [Flipped(seat, owner, targets["position"], slot.card, True, frozenset(slot.seen)),
                *_bonus(state, owner, slot.card)]
    if effect == "takeover":
        owner = targets["owner"]
        return [_move(state, slot, owner, seat, seat)]
    if effect == "merger":
        other = targets["other"]
        events = [_move(state, targets["give"], seat, other, seat)]
        if slot is not None:
            events.append(_move(state, slot, other, seat, seat))
        return events
    if effect == "write-off":
        state.portfolios[seat].remove(slot)
        state.removed.append(slot)
        return [WrittenOff(seat, slot.card, slot.up, frozenset(slot.seen))]
    if effect == "draw-capital":
        return _draw(state, seat, kind.amount, 0, kind.name)
    if effect == "venture":
        events = _draw(state, seat, 0, kind.amount, kind.name)
        if state.tools[seat]:
            state.phase = VENTURE
        return events
    if effect == "offering":
        auction, index = targets["lot"]
        return _turn_lot(state, seat, auction, index)
    other = targets["other"]
    if effect == "espionage":
        hand = state.capital[other]
        events: list[Event] = [Spied(seat, other, values_of(hand))]
        if hand:
            state.pending = pending.but(victim=other)
            state.phase = PICK
        return events
    # tax: the victim chooses, unless they hold no more than it asks for
    hand = state.capital[other]
    if len(hand) <= kind.amount:
        state.capital[other], state.known[other] = [], []
        state.capital_discard += hand
        return [CapitalDiscarded(other, values_of(hand))]
    state.pending = pending.but(victim=other)
    state.phase = TAX
    return []


def _move(state: CapitalAuctionState, slot: Slot, giver: int, taker: int, seat: int) -> Moved:
    state.portfolios[giver].remove(slot)
    news = not slot.up and taker not in slot.seen
    slot.seen.add(taker)
    state.portfolios[taker].append(slot)
    return Moved(seat, giver, taker, slot.card, slot.up, frozenset(slot.seen), news)


def _settle(state: CapitalAuctionState) -> list[Event]:
    """Every answer is in: cancel the Tool, or carry it out."""
    pending = state.pending
    state.tool_discard += pending.connections
    state.pending = pending.but(connections=(), asking=())
    if pending.cancelled:
        return [Cancelled(pending.seat, pending.tool, len(pending.chain)), *_done_with_tool(state)]
    targets = validate_targets(state, pending.seat, pending.play, resolving=True)
    events = _apply_effect(state, state.pending, targets)
    if state.phase in (PICK, TAX, VENTURE):
        return events
    return events + _done_with_tool(state)


def _done_with_tool(state: CapitalAuctionState) -> list[Event]:
    state.tool_discard.append(state.pending.tool)
    state.pending = None
    if _full(state):
        return _finish(state)
    return _next_tool_turn(state)


def _track_known(state: CapitalAuctionState, seat: int, checked: Any) -> None:
    """What the table sees a command of ``seat`` put into its Capital hand or take out of it
    (``checked``: what the check returned), noted in ``state.known`` before it is carried out;
    the effects that follow note theirs where they happen (bids taken back, a steal, a tax)."""
    known = state.known
    phase = state.phase
    if phase == BID and checked:  # the old bid comes back and the new one goes out, face up
        known[seat] += state.bids[seat]
        forget(known[seat], checked)
    elif phase in (TOOL, REACT) and checked is not None:
        forget(known[seat], checked[1])  # the pay, face up on the discard pile
    elif phase == TAX:
        forget(known[seat], checked)
    elif phase == PICK:
        known[state.pending.victim].clear()  # only the spy and the victim see which card goes


# -- the result --------------------------------------------------------------------------------
# how much the expert's estimate weighs a seat's Capital claim against its portfolio: games of
# the bot against itself show a point of claim over a rival's worth 1.9 points of final margin
# in round 1 and 1.7 in round 2 (a logistic fit of the win: 6 and 2.9 portfolio points), and
# the expert (96 iterations a move, 600 games head to head, seeds 60000 on) won against the
# bot 344 with the claim counted once, 360.5 twice, 374.5 three times, 416.5 five times,
# 417.5 eight, 407.5 twelve; against random play 540 once, 542 five times
CLAIM_WEIGHT = 5.0


def capital_claims(state: CapitalAuctionState) -> list[float]:
    """What each seat's Capital (in hand, laid out as a bid, and the extra card each of its
    face-up Investments draws every round to come) is worth in Investment value by the end:
    its share of all the Capital at the table, times the value still to be sold. The lots
    still to be sold are the fewest of those left in the game and those before a portfolio
    fills (a seat may win lots until it holds five cards, the last ending the game); each is
    worth two of the cards not yet sold, at their mean value, a card of negative value
    counting as nothing (nobody need buy it: a lot of ruinous cards stays unsold)."""
    n = state.players
    rounds_left = ROUNDS - state.round
    capital = []
    for s in range(n):
        face_up = sum(1 for slot in state.portfolios[s] if slot.up)
        laid = total(state.bids[s]) if state.bids else 0
        capital.append(total(state.capital[s]) + laid + rounds_left * (ROUND_CAPITAL + face_up) * _MEAN_CAPITAL)
    unsold = [slot.card.value for lot in state.table[state.auction - 1:] for slot in lot]
    unsold += [card.value for card in state.investment_deck]
    if not unsold or sum(capital) <= 0:
        return [0.0] * n
    lots_left = sum(1 for lot in state.table[state.auction - 1:] if lot) + rounds_left * AUCTIONS
    to_fill = [max(1, -(-(FULL_PORTFOLIO - len(p)) // 2)) for p in state.portfolios]
    lots = min(lots_left, 1 + sum(k - 1 for k in to_fill))
    value = lots * 2 * sum(max(0, v) for v in unsold) / len(unsold)
    return [value * c / sum(capital) for c in capital]


def _result(state: CapitalAuctionState) -> Outcome:
    n = state.players
    names = state.names
    values = [portfolio_value(p) for p in state.portfolios]
    capital = [total(hand) for hand in state.capital]
    ranks = Outcome.rank_by([(values[s], capital[s]) for s in range(n)])
    winners = [s for s in range(n) if ranks[s] == 1]
    top = values[winners[0]]
    tied = [s for s in range(n) if values[s] == top]
    if len(winners) > 1:
        summary = say("{}, and {} in Capital each.", winners_sentence(names, winners, str(top)), capital[winners[0]])
    elif len(tied) > 1:
        others = join_names(players(names, [s for s in tied if s != winners[0]]))
        summary = say("{} wins: tied with {} on {}, but with more Capital in hand ({}).",
                      player(names, winners[0]), others, top, capital[winners[0]])
    else:
        summary = say("{}.", winners_sentence(names, winners, str(top)))
    breakdown = tuple({"investments": values[s], "investment cards": len(state.portfolios[s]),
                       "capital in hand": capital[s]} for s in range(n))
    return Outcome(ranks, tuple(values), breakdown, summary)


# -- the spec -----------------------------------------------------------------------------------
# the SlotInfos views have shown, by what makes one: most cards' are the same from one command to
# the next, and the expert's playouts build a view per command
_SLOT_INFOS: dict[tuple, SlotInfo] = {}


class CapitalAuctionGame:
    """The GameSpec of Capital Auction. Stateless: every function takes a state."""

    name = "capital-auction"
    title = "Capital Auction"
    blurb = "Bid Capital cards for face-up and face-down Investments; play Tools, cancel them with Connections."
    players = (2, 5)
    options = (
        Option(ASK_ONLY_HOLDERS, "Ask only holders of a Connection", False, "bool",
               help="Ask for reactions only players who could play a Connection: quicker, but being "
                    "asked tells the table you hold one."),
    )
    best_bot = "bot"
    # the longest game of the sweep (tests/benchmark.py --parts ending: 300 seeds, every pairing of
    # levels, every player count), in commands: five bots, seed 122 (485, seed 36, before the bot's
    # bids were searched)
    longest = 437
    # any set of Capital cards beating the standing bid is a bid, and a Tool may be paid with
    # any of the player's cards: legal lists the useful ones (see useful_bids, _cheapest)
    partial_legal = (Bid, Play)
    # JSON fields newer than some saves: a save's snapshot without one still matches its replay
    added_fields = ("known",)

    def __init__(self, bots: Mapping[str, Any] | None = None) -> None:
        self.notation = CapitalAuctionNotation()
        self.bots = dict(bots or {})

    # -- setup and reading -------------------------------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> CapitalAuctionState:
        chosen = check_setup(self, names, options)
        n = len(names)
        capital = shuffled(CARDS.capital_deck(), seed, "capital")
        tools = shuffled(CARDS.tool_deck(), seed, "tools")
        investments = shuffled(CARDS.investment_deck(), seed, "investments")
        first = chance(seed, "first").randrange(n)
        state = CapitalAuctionState(
            names=list(names), seed=seed, counter=0, options=dict(chosen),
            capital=deal(capital, n, START_CAPITAL), tools=deal(tools, n, START_TOOLS),
            portfolios=[[] for _ in range(n)], capital_deck=capital, tool_deck=tools,
            investment_deck=investments, starter=first)
        _lay_out(state)
        _open_auction(state)
        return state

    def awaiting(self, state: CapitalAuctionState) -> frozenset[int]:
        return state.awaiting

    def turn(self, state: CapitalAuctionState) -> int:
        """The turn being played, from 1 (``turns`` counts the bid and Tool turns taken)."""
        return state.turns + 1

    def invariants(self, state: CapitalAuctionState) -> list[str]:
        """What no reachable position breaks, the broken ones in words (see invariants.py)."""
        from .invariants import invariants

        return invariants(self, state)

    def conserved(self, state: CapitalAuctionState) -> dict[str, Any]:
        capital = [*state.capital_deck, *state.capital_discard, *(c for h in state.capital for c in h),
                   *(c for b in state.bids for c in b)]
        tools = [*state.tool_deck, *state.tool_discard, *(t for h in state.tools for t in h)]
        if state.pending is not None:
            tools += [state.pending.tool, *state.pending.connections]
        slots = [*state.removed, *(s for p in state.portfolios for s in p), *(s for lot in state.table for s in lot)]
        investments = [s.card for s in slots] + list(state.investment_deck)
        return {"capital": sorted(c.key for c in capital), "tools": sorted(t.key for t in tools),
                "investments": sorted(i.key for i in investments)}

    # -- legal commands ------------------------------------------------------------------------
    def legal(self, state: CapitalAuctionState, seat: int) -> Sequence[Command]:
        current = state.current  # the one seat awaited (None once over)
        if current is None or seat != current:
            return []
        phase = state.phase
        if phase == BID:
            pool = state.capital[seat] + state.bids[seat]
            counts = _counts(tuple(sorted(map(_VALUE, pool))))
            return Listing(MadeWhenRead(useful_bids(counts, state.bidding.high), Bid), _PASS)
        if phase == FLIP:
            return [Flip(lot_name(3, i)) for i, slot in enumerate(state.table[2]) if not slot.up]
        if phase == TOOL:
            return Listing(MadeWhenRead(self._legal_plays(state, seat), _play), _PASS)
        if phase == REACT:
            kind = connection_kind()
            if not can_react(state, seat):
                return [_DECLINE]
            pays = _multisets([c.value for c in state.capital[seat]], kind.cost)
            return [*(React(pay) for pay in pays), _DECLINE]
        pending = state.pending
        if phase == PICK:
            return [Take(v) for v in sorted({c.value for c in state.capital[pending.victim]}, reverse=True)]
        if phase == TAX:
            amount = CARDS.tool(pending.play.tool).amount
            return [DiscardCapital(vs) for vs in _multisets([c.value for c in state.capital[seat]], amount)]
        # VENTURE
        kinds = {tool.kind for tool in state.tools[seat]}
        return [DiscardTool(kind.key) for kind in CARDS.tools if kind.key in kinds]

    def _legal_plays(self, state: CapitalAuctionState, seat: int) -> list[tuple[str, tuple[int, ...], dict[str, Any]]]:
        """The Tool plays of the legal list as (tool, pay, targets), each made a Play when read
        (``_play``): a random player reads one."""
        held = {tool.kind for tool in state.tools[seat]}
        hand = state.capital[seat]
        values = sorted(map(_VALUE, hand))
        plays: list[tuple[str, tuple[int, ...], dict[str, Any]]] = []
        for kind in CARDS.tools:
            if kind.key not in held or kind.effect == CONNECTION or len(hand) < kind.cost:
                continue
            pay = _cheapest(values, kind.cost)
            plays += [(kind.key, pay, fields) for fields in _targets(state, seat, kind.key)]
        return plays

    # -- checking ------------------------------------------------------------------------------
    def check(self, state: CapitalAuctionState, seat: int, command: Command) -> None:
        self._validate(state, seat, command)

    def _validate(self, state: CapitalAuctionState, seat: int, command: Command) -> Any:
        """Refuse ``command`` in words, or return what ``apply`` needs to carry it out."""
        check_awaited(state.awaiting, seat, state.names)
        _well_formed(command)
        phase = state.phase
        if phase == BID:
            return self._check_bid(state, seat, command)
        if phase == FLIP:
            if not isinstance(command, Flip):
                raise IllegalCommand("You won auction 2: first turn one of auction 3's face-down cards face "
                                     "up ('flip 3a' or 'flip 3b').")
            where = read_lot(command.lot)
            if where is None or where[0] != 3 or where[1] >= len(state.table[2]):
                raise IllegalCommand(f"Only a card of auction 3 is turned after auction 2 (3a or 3b), not "
                                     f"{command.lot!r}.")
            if state.table[2][where[1]].up:
                raise IllegalCommand(f"{command.lot} is already face up: turn the other one.")
            return where
        if phase == TOOL:
            return self._check_tool(state, seat, command)
        if phase == REACT:
            return self._check_react(state, seat, command)
        pending = state.pending
        if phase == PICK:
            victim = player(state.names, pending.victim)
            if not isinstance(command, Take):
                raise IllegalCommand(say("Take one of {}'s Capital cards first, e.g. 'take 5'.", victim))
            card = _pick(state.capital[pending.victim], [command.value])
            if card is None:
                held = " ".join(map(str, values_of(state.capital[pending.victim])))
                raise IllegalCommand(say("{} has no {}; they hold {}.", victim, command.value, held))
            return card[0]
        if phase == TAX:
            amount = CARDS.tool(pending.play.tool).amount
            if not isinstance(command, DiscardCapital):
                raise IllegalCommand(f"Discard {amount} Capital cards for the tax inspection first, "
                                     "e.g. 'discard 2 1'.")
            if len(command.values) != amount:
                raise IllegalCommand(f"The tax inspection takes exactly {amount} Capital cards, not "
                                     f"{len(command.values)}.")
            return self._cards(state, seat, command.values, "discard")
        # VENTURE
        if not isinstance(command, DiscardTool):
            raise IllegalCommand("Venture Fund: discard one Tool card from your hand first, e.g. "
                                 "'discard audit'.")
        tool = _lowest_tool(state.tools[seat], command.tool)
        if tool is None:
            raise IllegalCommand(f"You hold no {_tool_name(command.tool)} to discard.")
        return tool

    @staticmethod
    def _cards(state: CapitalAuctionState, seat: int, values: Sequence[int], doing: str,
               extra: Sequence[Capital] = ()) -> list[Capital]:
        pool = list(state.capital[seat]) + list(extra)
        cards = _pick(pool, values)
        if cards is None:
            want = Counter(values)
            have = Counter(c.value for c in pool)
            value = next(v for v in sorted(want) if want[v] > have[v])
            held = " ".join(map(str, values_of(pool))) or "none"
            if have[value]:
                raise IllegalCommand(f"You have only {plural(have[value], 'Capital card')} of {value} to "
                                     f"{doing} (yours: {held}).")
            raise IllegalCommand(f"You have no Capital card of {value} to {doing} (yours: {held}).")
        return cards

    def _check_bid(self, state: CapitalAuctionState, seat: int, command: Command) -> list[Capital]:
        if not isinstance(command, (Bid, Pass)):
            raise IllegalCommand("It is the bidding: bid Capital cards ('bid 5 3') or pass.")
        if isinstance(command, Pass):
            return []
        if not command.values:
            raise IllegalCommand("Name the Capital cards of your bid, e.g. 'bid 5 3'.")
        cards = self._cards(state, seat, command.values, "bid", state.bids[seat])
        high = state.bidding.high
        if total(cards) <= high:
            raise IllegalCommand(f"A bid of {total(cards)} does not beat the standing bid of {high}: bid "
                                 f"more than {high}.")
        return cards

    def _check_tool(self, state: CapitalAuctionState, seat: int, command: Command) -> Any:
        if not isinstance(command, (Play, Pass)):
            raise IllegalCommand("It is your Tool turn: play a Tool card or pass.")
        if isinstance(command, Pass):
            return None
        if not CARDS.has_tool(command.tool):
            keys = ", ".join(kind.key for kind in CARDS.tools)
            raise IllegalCommand(f"There is no Tool card called {command.tool!r}; the Tools are {keys}.")
        kind = CARDS.tool(command.tool)
        if kind.effect == CONNECTION:
            raise IllegalCommand(f"{kind.name} is a reaction: it answers another player's Tool and is "
                                 "never a Tool turn of its own.")
        tool = _lowest_tool(state.tools[seat], kind.key)
        if tool is None:
            raise IllegalCommand(f"You hold no {kind.name}.")
        pay = self._pay(state, seat, kind, command.pay)
        targets = validate_targets(state, seat, command)
        return tool, pay, targets

    def _pay(self, state: CapitalAuctionState, seat: int, kind: ToolKind, pay: Sequence[int]) -> list[Capital]:
        if len(pay) != kind.cost:
            if kind.cost == 0:
                raise IllegalCommand(f"{kind.name} costs nothing: pay no Capital cards.")
            if len(state.capital[seat]) < kind.cost:
                raise IllegalCommand(f"{kind.name} costs {plural(kind.cost, 'Capital card')}; you have only "
                                     f"{len(state.capital[seat])}.")
            raise IllegalCommand(f"{kind.name} costs exactly {plural(kind.cost, 'Capital card')} (any values), "
                                 f"not {len(pay)}.")
        return self._cards(state, seat, pay, "pay with")

    def _check_react(self, state: CapitalAuctionState, seat: int, command: Command) -> Any:
        pending = state.pending
        if not isinstance(command, (React, Decline)):
            raise IllegalCommand(say("{}'s card awaits your answer: 'react connection' or 'decline'.",
                                     player(state.names, pending.latest)))
        if isinstance(command, Decline):
            return None
        kind = connection_kind()
        tool = _lowest_tool(state.tools[seat], kind.key)
        if tool is None:
            raise IllegalCommand(f"You hold no {kind.name}: decline.")
        return tool, self._pay(state, seat, kind, command.pay)

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: CapitalAuctionState, seat: int, command: Command) -> list[Event]:
        checked = self._validate(state, seat, command)  # the one check of this command
        _track_known(state, seat, checked)
        phase = state.phase
        if phase == BID:
            state.turns += 1
            auction = state.bidding
            if isinstance(command, Pass):
                auction.pass_(seat)
                events: list[Event] = [Passed(seat, False)]
            else:
                pool = state.capital[seat] + state.bids[seat]
                bid = set(map(id, checked))  # the pool's own cards (check picked them from it)
                state.capital[seat] = [c for c in pool if id(c) not in bid]
                state.bids[seat] = list(checked)
                auction.bid(seat, total(checked))
                events = [BidMade(seat, values_of(checked))]
            if auction.done:
                events += _resolve_auction(state)
            return events
        if phase == FLIP:
            auction_number, index = checked
            return _turn_lot(state, seat, auction_number, index) + _start_tools(state)
        if phase == TOOL:
            state.turns += 1
            if checked is None:
                return [Passed(seat, True), *_next_tool_turn(state)]
            tool, pay, _targets_now = checked
            state.tools[seat].remove(tool)
            for card in pay:
                state.capital[seat].remove(card)
            state.capital_discard += pay
            state.pending = Pending(seat, command, tool, asking=_askers(state, seat))
            events = [ToolPlayed(seat, tool, command, values_of(pay))]
            if state.pending.asking:
                state.phase = REACT
                return events
            return events + _settle(state)
        if phase == REACT:
            pending = state.pending
            if checked is None:
                rest = pending.asking[1:]
                state.pending = pending.but(asking=rest)
                if rest:
                    return [Declined(seat)]
                return [Declined(seat), *_settle(state)]
            tool, pay = checked
            state.tools[seat].remove(tool)
            for card in pay:
                state.capital[seat].remove(card)
            state.capital_discard += pay
            against = pending.latest
            state.pending = pending.but(connections=pending.connections + (tool,),
                                    chain=pending.chain + (seat,), asking=_askers(state, seat))
            events = [Reacted(seat, against, values_of(pay), bool(pending.chain))]
            if state.pending.asking:
                return events
            return events + _settle(state)
        pending = state.pending
        if phase == PICK:
            state.capital[pending.victim].remove(checked)
            state.capital[seat].append(checked)
            return [CapitalTaken(seat, pending.victim, checked), *_done_with_tool(state)]
        if phase == TAX:
            for card in checked:
                state.capital[seat].remove(card)
            state.capital_discard += checked
            return [CapitalDiscarded(seat, values_of(checked)), *_done_with_tool(state)]
        # VENTURE
        state.tools[seat].remove(checked)
        state.tool_discard.append(checked)
        return [ToolDiscarded(seat, checked), *_done_with_tool(state)]

    # -- what a seat sees ----------------------------------------------------------------------
    def view(self, state: CapitalAuctionState, seat: int | None, plain: bool = False) -> CapitalAuctionView:
        n = state.players
        own = seat is not None

        def info(slot: Slot, name: str) -> SlotInfo:
            seen, card = slot.seen, slot.card
            key = (name, card.kind, card.copy, slot.up, seat in seen, *seen)
            found = cache.get(key)
            if found is None:
                visible = slot.up or (own and seat in seen)
                found = cache[key] = SlotInfo(name, slot.up, card if visible else None, tuple(sorted(seen)))
            return found

        cache = _SLOT_INFOS
        if len(cache) > 20_000:
            cache.clear()
        portfolios = tuple([tuple([info(s, str(i)) for i, s in enumerate(p, 1)]) for p in state.portfolios])
        table = tuple([tuple([info(s, lot_name(a, i)) for i, s in enumerate(lot)])
                       for a, lot in enumerate(state.table, 1)])
        zones: dict[str, Any] = {}
        if own:
            zones = {"capital": tuple(by_value(state.capital[seat])), "tools": tuple(sorted(state.tools[seat]))}
            if state.phase == PICK and state.pending.seat == seat:
                zones["spied"] = tuple(by_value(state.capital[state.pending.victim]))
        auction = state.bidding
        out = tuple(auction.out) if auction is not None else ()
        rows = []
        for s in range(0 if plain else n):
            down = sum(1 for slot in state.portfolios[s] if not slot.up)
            cards = f"{len(state.portfolios[s])}" + (f" ({down}▒)" if down else "")  # ▒: face down, as on the table
            bid = str(total(state.bids[s])) if state.bids[s] else ""
            if s in out:
                bid = f"{bid} out".strip()
            rows.append((cards, str(face_up_value(state.portfolios[s])), str(len(state.capital[s])),
                         str(len(state.tools[s])), bid))
        return CapitalAuctionView(
            seat=seat, names=tuple(state.names), awaiting=state.awaiting,
            status="" if plain else status_sentence(state),
            zones=zones,
            zone_sizes=tuple({"capital": len(state.capital[s]), "tools": len(state.tools[s])} for s in range(n)),
            columns=("Cards", "Value", "Cap.", "Tools", "Bid"), rows=tuple(rows),
            options=dict(state.options), round=state.round, auction=state.auction, phase=state.phase,
            starter=state.starter, current=state.current, portfolios=portfolios, table=table,
            removed=tuple(info(s, "") for s in state.removed),
            bids=tuple([tuple(by_value(b)) if b else () for b in state.bids]),
            high=auction.high if auction else 0, leader=auction.leader if auction else None, out=out,
            bid_order=tuple(auction.order) if auction else (), bid_position=auction.position if auction else 0,
            spoken=auction.spoken if auction else 0, winner=state.winner,
            tool_order=tuple(state.tool_order), tool_turn=state.tool_turn, pending=state.pending,
            capital_deck=len(state.capital_deck), capital_discard=tuple(state.capital_discard),
            tool_deck=len(state.tool_deck), tool_discard=tuple(state.tool_discard),
            investment_deck=len(state.investment_deck), turns=state.turns,
            known=tuple(tuple(cards) for cards in state.known))

    def sample(self, view: CapitalAuctionView, rng: random.Random) -> CapitalAuctionState:
        """A state the viewer cannot tell from the real one: the other hands, the decks and every
        face-down card it has not seen dealt at random from the cards it has not seen."""
        n = len(view.names)
        me = view.seat
        spied = view.zones.get("spied")
        victim = view.pending.victim if spied is not None and view.pending is not None else None
        # Capital: known are the own hand, the bids, the discard pile and a hand being spied on
        # and the cards every seat knows to be in a hand, which stay there
        in_hands = [list(cards) for cards in view.known] or [[] for _ in view.names]
        known = {c for c in (*view.capital, *view.capital_discard, *(c for b in view.bids for c in b),
                             *(spied or ()), *(c for cards in in_hands for c in cards))}
        unseen = [c for c in CARDS.capital_deck() if c not in known]
        rng.shuffle(unseen)
        capital = []
        for s, size in enumerate(view.capital_sizes):
            if s == me:
                capital.append(list(view.capital))
            elif s == victim:
                capital.append(list(spied))
            else:
                capital.append(in_hands[s] + [unseen.pop() for _ in range(size - len(in_hands[s]))])
        capital_deck = unseen
        pending = view.pending
        known_tools = {*view.tools, *view.tool_discard}
        if pending is not None:
            known_tools |= {pending.tool, *pending.connections}
        unseen_tools = [t for t in CARDS.tool_deck() if t not in known_tools]
        rng.shuffle(unseen_tools)
        tools = [list(view.tools) if s == me else [unseen_tools.pop() for _ in range(size)]
                 for s, size in enumerate(view.tool_sizes)]
        infos = [*(i for p in view.portfolios for i in p), *(i for lot in view.table for i in lot), *view.removed]
        shown = {i.card for i in infos if i.card is not None}
        hidden = [c for c in CARDS.investment_deck() if c not in shown]
        rng.shuffle(hidden)

        def slot(i: SlotInfo) -> Slot:
            return Slot(i.card if i.card is not None else hidden.pop(), i.up, set(i.seen))

        portfolios = [[slot(i) for i in p] for p in view.portfolios]
        table = [[slot(i) for i in lot] for lot in view.table]
        removed = [slot(i) for i in view.removed]
        bidding = None
        if view.phase == BID:
            bidding = OpenAuction(view.bid_order, final_pass=True, high=view.high, leader=view.leader,
                                  position=view.bid_position, out=list(view.out), spoken=view.spoken)
        return CapitalAuctionState(
            names=list(view.names), seed=rng.randrange(10**9), counter=0, options=dict(view.options),
            capital=capital, tools=tools, portfolios=portfolios, table=table, removed=removed,
            capital_deck=capital_deck, capital_discard=list(view.capital_discard), tool_deck=unseen_tools,
            tool_discard=list(view.tool_discard), investment_deck=hidden, round=view.round,
            auction=view.auction, phase=view.phase, starter=view.starter,
            bids=[list(b) for b in view.bids] if view.bids else [[] for _ in range(n)], bidding=bidding,
            winner=view.winner, tool_order=list(view.tool_order), tool_turn=view.tool_turn,
            pending=pending, turns=view.turns, known=in_hands)

    def outcome(self, state: CapitalAuctionState) -> Outcome | None:
        return _result(state) if state.phase == OVER else None

    # the expert plays twelve turns out (about two auctions and their Tool phases) and judges the
    # position by ``estimate``, where every face-down card counts at its real value. Played to
    # the end, each deal was a win or a loss: the analysis (96 iterations a position, 7 or 8
    # deals a command where 12 are weighed) saw no loss in either player's moves in 15 games of
    # 100 and gave the bot the higher accuracy in 74 (tests/benchmark.py --parts analysis); a
    # lead after twelve turns grades each deal, and it gives it in 86 (1 the same, 13 lower), at
    # half the time a game. Six turns: 23 of 30 (the luck of so few turns is a small unit of the
    # margin, which then outweighs the chances).
    # analysis_scale: the estimate's lead that makes a win e times as likely as a loss, for the
    # analysis's chances. tests/fit_scale.py capital-auction --games 40 --stride 4 (451 decisions,
    # 96 iterations) fits 8.8 (log loss 0.617 against 0.621 at 6); at 6 the decisions rated
    # 70–80% were won 72.5 in 100, so 6 stayed. With 6 commands weighed (below), 100 games
    # (seeds 5000 on, 1,113 decisions) fit 5.6 (log loss 0.5179 against 0.5180 at 6): at 6 the
    # benchmark's calibration (200 games, 4 decisions each) had the decisions rated 70–80% won
    # 80.6 in 100, at the band's edge, at 5.6 78.7; the bot higher in 92 of 100 at either.
    # With the claims weighed five times (CLAIM_WEIGHT): fit_scale on 300 games (seeds 5000 on,
    # 3,196 decisions) fits 9.3 (log loss 0.4993, against 0.5179 for the estimate before), but
    # the analysis's own chances (the race dropping commands as it goes) on 200 other games
    # (seeds 7000 on, one decision in 3, 2,862 decisions) had log loss 0.4742 at 9.3, 0.4726 at
    # 7.5 and 0.4723 at 6.5, the decisions rated 70-80% won 78.7, 76.3 and 75.1 in 100, those
    # rated 10-30% won 4 to 6 points more than rated at 6.5: 7.5.
    # analysis_candidates: the analysis weighs 6 commands a decision, not 12: at 96 iterations
    # twelve got 8 deals each, and a better command rarely beat the one played by the 2.5
    # standard errors the best of twelve must (random play's accuracy was that noise: two in
    # three of its moves were found no loss). Six get 16 deals each and must beat it by 2.2.
    # With 6: the bot higher in 92 of the benchmark's 100 games (87 with 12) and
    # in 88 of seeds 100–199 (85); 4 gave 86, 8 gave 89. A model of rivals who err at random
    # (each rival command at random with a chance of 0.25 or 0.5) made it worse: 22 and 21 of
    # 30 against 27, the playouts' luck hiding random play's mistakes.
    # Tried and not kept: a finished playout scored by the logistic of its final lead, as one
    # stopped at the horizon is (near the end, a bare 1 or 0 beside the logistic of an
    # estimate): at 96 iterations 91 of seeds 0-99 (92 without) and 88 of seeds 100-199 (88);
    # at 384, about what the default 0.4 s a position gives, 95 (92) but 90 (91), and the
    # decisions rated 70-80% were won 85.9 in 100 (branch caacc3-graded). Continuing a playout
    # past the horizon until the auction on the table closes: 4 lower in the first 38 (2).
    # Of the bot's moves flagged in the games where the test failed (96 iterations), 1,000 deals
    # each, played to the twelfth turn and to the end, found 12 of 43 real (bidding all it
    # has against a rival as broke, seeds 96 and 71; denying a lot to a rival whose win would
    # end the game behind, 183; passing where winning ends the game behind, 119), 20 noise
    # (15 to 45 points told, 0 to 3 found), 7 the horizon's (seed 12's pass, told 47,
    # worth 40 at twelve turns and −6 at the end). Tried and not kept, bot higher in k of seeds
    # 0-99 and of 100-199 at 96 iterations (92 and 88 without): the race's leader measured
    # against the move played on new deals, a third of the budget (92 of 0-99, other games
    # failing; with the race's budget whole besides, 89; those deals played to the end, 68);
    # the loss told beyond prefer's bar (93 and 89; at 384, 93 and 90 against 92 and 91;
    # branch caacc4-lcb); the bot leaving a lot to a rival whose win ends the game behind (93
    # and 88; with that loss, 93 and 89), that and bidding where winning ends the game with a
    # chance over 0.1 (92 and 88), passing rather than bid its last card against a rival as
    # broke (91 of 0-99).
    # Tenth session, both seed sets at once (200 games take two minutes on two cores; every weighed
    # command's deals recorded, so the judging's own numbers could be tried on the very same deals):
    # the bot higher in 180 of 200 at 96 iterations, 181 at 192, 183 at 384; 12 commands weighed at
    # 384, 180. The judging's numbers (PREFER 1.5 to 3, MARGIN 0.1 to 0.4, the stakes' floor 0.5 or
    # 2 and cap 12 or 30): 166 to 182 at 96, 177 to 186 at 384, the best at one budget among the
    # worst at the other (186 at 384 is 170 at 96). A loss counted only beyond 2 to 12 points: 171
    # to 181 and 179 to 183. Lichess's harmonic mean beside the weighted one (its game accuracy) or
    # alone, or a plain mean: 174 to 183. The search, judging only, at 96: 8, 16 or 20 turns 163,
    # 172, 165; no tree 172, a tree 8 deep 182, widening 2 180, exploration 1.2 179 (94 and 85),
    # rivals searched like the mover 140, the auction on the table played to its close past the
    # horizon 173, the face-down cards the mover has not seen judged at the mean of its unseen cards
    # (less luck in each deal's lead) 181, and 183 at 384. The bot's ceiling at 0.8 or 1.0 of a
    # lot's worth (the play, both sides' judging and the playouts change): 171, 178. The bot's moves
    # found worse are mostly a higher bid preferred (200 of 365 at 384, 109 of them in the game's
    # first eight turns). About 90 in 100 is what these short games give: a player has 9 to 11
    # decisions, random play has no more moves found worse than the bot in 46 of 200 (none in 5),
    # and the games the bot loses (24 of 200) are 7 to 9 of the 17 to 20 failures. Twelfth session:
    # 768 iterations, 93 and 91; the bot bidding all it has when its chance of ending ahead is under
    # 0.15, 92 and 88; denying a lot only to a rival whose win would end the game, 90 and 86.
    # Thirteenth session: the bot changed while the playouts kept this bot (so the judging stayed
    # the same) — letting a lot go to a broke rival, bidding all when behind, denying a lot only
    # where the rival's win ends the game: none made it stronger in play to the end (4,000 games
    # each: its share against this bot 49.5, 49.7, 50.1%; against random 88.2, 88.2, 89.0 against
    # 88.2; against two random 76.0, 73.4, 75.4 against 76.3), so none could be kept. And the
    # loss told as its expected value (a normal about the paired difference), the plain
    # difference, or it less 0.5 or 1 standard errors, on the recorded deals: 88 to 93 of
    # either hundred, the same seeds failing. The rival modelled by its known level (random
    # play's playouts random, not this bot's): 93 and 88 (bot's mean 95, random's 66 and 70).
    # Fourteenth session: the estimate itself against how games of this bot against itself end
    # (600 two-player games, each turn): a point of a seat's Capital claim over its rival's was
    # worth 1.9 points of final margin in round 1 and 1.7 in round 2, a point of portfolio 0.6
    # and 1.1 (logistic fits of the win give Capital 6 and 2.9 times a portfolio point), so the
    # claims undervalue Capital at the horizon. The claims times 2, 3 or 5: 92, 90, 89 of seeds
    # 0-99; the fitted weights by round: 87. None better than the 92 kept.
    # Fifteenth session: the same test with the expert (96 iterations a move) in the bot's seat:
    # higher than random play in 99 of seeds 0-99 and 89 of 100-199 (9 the same: no loss found
    # in either player's moves) at 96 iterations a position, 98 and 97 at 384 (about the app's
    # 0.4 s). So the analysis finds random play's mistakes beside a player whose moves its own
    # search chooses; but that is partly the same search agreeing with itself: that expert won
    # 264 of 300 games against random play (seeds 50000 on), as this bot does (88%), and 281
    # of 300 against greedy. What the analysis finds in this bot's moves (a higher bid, mostly)
    # is where the bot parts from the search, and no variant of the bot that follows the
    # search there (above) was stronger in play. The judging's margin weight (MARGIN) 0.5, 1,
    # 2 or 5 on the recorded deals: 88 to 93 of either hundred. The estimate's claims weighed
    # five times (CLAIM_WEIGHT, kept: a stronger expert) and the scale fitted again (7.5): the
    # bot higher in 93 of seeds 0-99 and 86 of 100-199 at 96 iterations (92 and 88 before).
    # Sixteenth session, at 384 iterations: 91, 91 and 87 of seeds 0-99, 100-199 and 200-299.
    # Every seat played out as the table shows it (random play at random) in the analysis of
    # every game: 96, 97 and 90 (94 and 91 at 96 iterations); but Card Stock Market's bot, which
    # does not play to exploit random play, fell from 100 to 89 of 100 (its mean accuracy from
    # 89 to 82), so that judging is not kept.
    # Seventeenth session, the judging unchanged: the bot (LookAheadBot, bot.py) checks its bids
    # with a short search that plays out with its reading (CapitalAuctionBot), as the judging
    # does: 97, 95 and 94 of seeds 0-99, 100-199 and 200-299 at 96 iterations, 94, 97 and 93 at
    # 384 (the reading alone: 93, 86; 91, 91, 87). Searched at every decision (96 deals, 12
    # commands), 95 and 99 at 96, at five times the cost.
    # Eighteenth session, the judging unchanged: the bot checks its turns of the Tool phase too
    # (24 deals, six commands): 97, 96, 96 and 98 of seeds 0-99 to 300-399 at 96 iterations
    # (bids alone: 97, 95, 94, 96). 48 deals a Tool: 99, 96, 96; every decision searched at
    # 48: the same, and 97 of 300-399; six-turn playouts: 276 of seeds 0-299. (Those "deals"
    # were tries, a command on a deal: 24 is 4 deals for each of six commands.)
    # Twentieth session, the judging unchanged: the bot's search looks up to 96 tries longer
    # where a command leads its choice by a standard error or more but not by 1.5 (``doubt``,
    # rules/core/search.py): 95, 98 and 96 of seeds 0-99, 100-199 and 200-299 at 384
    # iterations (93, 97 and 97 before), 99 and 96 of 0-99 and 100-199 at 96 (97, 96).
    # Looking longer at every lead, however small: 95 (48 tries more) and 96 (96) of seeds
    # 0-99 at 384, at half as much again of the bot's time.
    # Where it still falls short: ties (neither player's move judged worse: 3 in 400),
    # games the bot lost to the cards (the expert itself, at 96 iterations, wins 261 of 300
    # two-player games against random play where the bot wins 268), and a few wins.
    expert = {"turns": 12, "analysis_scale": 7.5, "analysis_candidates": 6}

    def estimate(self, state: CapitalAuctionState) -> tuple[float, ...]:
        """Each seat's expected final Investment value, judged from the whole table (the
        expert's judge of a position): its portfolio, face-down cards at their real value, and
        its Capital as a claim on what is still to be sold (``capital_claims``, weighed
        ``CLAIM_WEIGHT`` times); a finished game's final values."""
        outcome = self.outcome(state)
        if outcome is not None:
            return tuple(float(score) for score in outcome.scores)
        claims = capital_claims(state)
        return tuple(portfolio_value(p) + CLAIM_WEIGHT * claim for p, claim in zip(state.portfolios, claims))

    score_label = "Face-up value"

    def scores(self, state: CapitalAuctionState) -> tuple[int, ...]:
        """Each portfolio's face-up value (the public part of the final score): what the results
        chart draws."""
        return tuple(face_up_value(portfolio) for portfolio in state.portfolios)

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self, state: CapitalAuctionState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> CapitalAuctionState:
        return state_from_json(data)


def _is_int(value: Any) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def _is_values(value: Any) -> bool:
    if type(value) is tuple:
        for v in value:  # a loop, not all() over a generator: every bid and payment asks this
            if type(v) is not int and not _is_int(v):
                return False
        return True
    return isinstance(value, tuple) and all(map(_is_int, value))


def _is_seat(value: Any) -> bool:  # a player is named by seat, or not at all
    return value is None or _is_int(value)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {
    Bid: (("values", _is_values),), Flip: (("lot", _is_str),), React: (("pay", _is_values),),
    Take: (("value", _is_int),), DiscardCapital: (("values", _is_values),), DiscardTool: (("tool", _is_str),),
    Play: (("tool", _is_str), ("player", _is_seat), ("card", _is_int), ("own", _is_int), ("lot", _is_str),
           ("pay", _is_values))}


def _well_formed(command: Any) -> None:
    """Refuse a command whose fields are not of their kinds (one built by hand, not parsed)."""
    if not isinstance(command, Command):
        raise IllegalCommand(f"{command!r} is not a Capital Auction command.")
    for name, ok in _FIELDS.get(type(command), ()):
        value = getattr(command, name, None)
        if not ok(value):
            raise IllegalCommand(f"{command!r} is not a well-formed command: its {name} is {value!r}.")


def _lowest_tool(tools: Iterable[Tool], key: str) -> Tool | None:
    """The lowest copy of the Tool ``key`` among ``tools`` (the first of them sorted), or None."""
    return min((tool for tool in tools if tool.kind == key), key=_COPY, default=None)


def _tool_name(key: str) -> str:
    return CARDS.tool(key).name if CARDS.has_tool(key) else repr(key)
