"""Capital Auction's position, the views built from it, and its JSON form.

The state is mutable (``apply`` changes it); every view is frozen. Every pile keeps its TOP at
the END (``rules.core.piles``); the JSON lists piles top first.

The JSON form, meant to be written by hand (only ``names`` and ``capital`` are required; a
missing pile is empty, a missing portfolio has no cards)::

    {
      "names": ["Ann", "Bob"],
      "seed": 7, "counter": 3,                     # chance: every shuffle and random pick
      "options": {"ask-only-holders": false},
      "round": 1, "auction": 1,                    # round 1-4, auction 1-3 of the round
      "phase": "bid",                              # bid flip tool react pick tax venture over
      "starter": 0,                                # who opened this auction's bidding
      "capital": [["5", "3", "1.2"], ["6"]],       # hands: Capital values, ".n" = copy n
      "tools": [["audit", "connection.1"], []],    # hands: Tool keys
      "portfolios": [[{"card": "steel-works", "up": true}],
                     [{"card": "start-up.1", "up": false, "seen": [1, 0]}]],
      "table": [[{"card": "brewery", "up": true}, {"card": "print-shop", "up": false}],
                [...], [...]],                     # the lots of auctions 1-3 ("1a", "1b", …)
      "removed": [{"card": "brewery.1", "up": false}],   # written off or unsold
      "capital_deck": ["2", "4.1"], "capital_discard": [],   # top first
      "tool_deck": [], "tool_discard": [], "investment_deck": [],
      "bids": [["5"], []],                         # cards laid face up in this auction
      "bidding": {OpenAuction.to_json()},          # while phase is "bid"
      "winner": null,                              # this auction's Investment-phase winner
      "tool_order": [1, 0], "tool_turn": 0,        # the Tool phase: who plays, and how far
      "pending": {"seat": 0, "play": {"tool": "audit", "player": "Bob", "card": 1, "pay": [1]},
                  "tool": "audit", "connections": [], "chain": [], "asking": [1],
                  "victim": null},                 # a Tool being answered or resolved
                                                   # (its player by name, or by seat from 0)
      "turns": 4
    }

A slot's ``seen`` lists the seats that know its face; it defaults to everyone for a face-up
card, the owner for a face-down card in a portfolio and nobody for one on the table. Capital
cards are written by value (``"5"``, ``"5.3"``), Tools and Investments by their key in
``cards.toml`` (``"audit.2"``, ``"steel-works.1"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from rules.core import RulesError, View, quick_init
from rules.core.auctions import OpenAuction
from rules.core.known import read_known
from rules.core.jsonio import read_bool, read_int, read_list, read_object, read_str, require
from rules.core.piles import stack, top_first
from rules.core.words import Sentence, player, say

from .cards import CARDS, Capital, Investment, Tool
from .commands import Play

BID, FLIP, TOOL, REACT, PICK, TAX, VENTURE, OVER = (
    "bid", "flip", "tool", "react", "pick", "tax", "venture", "over")
PHASES = (BID, FLIP, TOOL, REACT, PICK, TAX, VENTURE, OVER)
ROUNDS = 4
AUCTIONS = 3
FULL_PORTFOLIO = 5
ASK_ONLY_HOLDERS = "ask-only-holders"
LOT_SIDES = "ab"


def lot_name(auction: int, index: int) -> str:
    """``lot_name(3, 0)`` → ``3a``: auction 3's left card."""
    return f"{auction}{LOT_SIDES[index]}"


def read_lot(text: str) -> tuple[int, int] | None:
    """``3a`` → (3, 0); None for anything that is not a lot's name."""
    if (isinstance(text, str) and len(text) == 2 and text[0] in "123"
            and text[1].lower() in LOT_SIDES):
        return int(text[0]), LOT_SIDES.index(text[1].lower())
    return None


@dataclass
class Slot:
    """An Investment card lying somewhere (a portfolio, the table, out of the game): face up or
    down, and the seats that know its face — everyone once it has been face up, its owners,
    and whoever looked at it with Insider Information (they remember)."""

    card: Investment
    up: bool
    seen: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Pending:
    """A Tool card played and not yet finished with.

    ``chain`` lists the seats whose Connections answered it, in order (an odd number cancels
    it); ``asking`` the seats still to be asked about the latest card, in order; ``victim`` the
    player whose input the effect awaits (Tax Inspection) or whose hand is looked at
    (Industrial Espionage)."""

    seat: int
    play: Play
    tool: Tool
    connections: tuple[Tool, ...] = ()
    chain: tuple[int, ...] = ()
    asking: tuple[int, ...] = ()
    victim: int | None = None

    @property
    def cancelled(self) -> bool:
        return len(self.chain) % 2 == 1

    @property
    def latest(self) -> int:
        """The seat whose card the question is about: the last Connection's, or the Tool's."""
        return self.chain[-1] if self.chain else self.seat

    def but(self, **changes: Any) -> Pending:
        """This Pending with ``changes``: ``dataclasses.replace`` without its generic reading of
        the fields (every answer to a Tool replaces the Pending), nor the frozen ``__init__``'s
        setting of each field in turn: the fields are copied whole (there is no
        ``__post_init__`` to run)."""
        if not changes.keys() <= self.__dict__.keys():
            raise TypeError(f"a Pending has no field {', '.join(changes.keys() - self.__dict__.keys())}")
        new = object.__new__(Pending)
        new.__dict__.update(self.__dict__, **changes)
        return new


@dataclass
class CapitalAuctionState:
    """A game of Capital Auction, hidden parts included (the view hides them)."""

    names: list[str]
    seed: int
    counter: int
    options: dict[str, Any]
    capital: list[list[Capital]]
    tools: list[list[Tool]]
    portfolios: list[list[Slot]]
    starter: int
    table: list[list[Slot]] = field(default_factory=lambda: [[], [], []])
    removed: list[Slot] = field(default_factory=list)
    capital_deck: list[Capital] = field(default_factory=list)
    capital_discard: list[Capital] = field(default_factory=list)
    tool_deck: list[Tool] = field(default_factory=list)
    tool_discard: list[Tool] = field(default_factory=list)
    investment_deck: list[Investment] = field(default_factory=list)
    round: int = 1
    auction: int = 1
    phase: str = BID
    bids: list[list[Capital]] = field(default_factory=list)
    bidding: OpenAuction | None = None
    winner: int | None = None
    tool_order: list[int] = field(default_factory=list)
    tool_turn: int = 0
    pending: Pending | None = None
    turns: int = 0
    # per seat, the Capital cards every seat saw go into that hand (bids taken back) and not
    # leave it (rules.core.known)
    known: list[list[Capital]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.known:
            self.known = [[] for _ in self.names]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def ask_only_holders(self) -> bool:
        return bool(self.options.get(ASK_ONLY_HOLDERS))

    @property
    def current(self) -> int | None:
        """The one seat whose input the game awaits (this game never awaits two at once); None
        once it is over."""
        phase = self.phase
        if phase == BID:
            return self.bidding.to_speak
        if phase == FLIP:
            return self.winner
        if phase == TOOL:
            return self.tool_order[self.tool_turn]
        if phase == REACT:
            return self.pending.asking[0]
        if phase in (PICK, VENTURE):
            return self.pending.seat
        if phase == TAX:
            return self.pending.victim
        return None

    @property
    def awaiting(self) -> frozenset[int]:
        seat = self.current
        return frozenset() if seat is None else frozenset((seat,))


# -- what a seat sees ----------------------------------------------------------------------------
@quick_init  # a view holds one per Investment card in play
@dataclass(frozen=True)
class SlotInfo:
    """An Investment card as one seat sees it: ``card`` is None when it lies face down and this
    seat has not seen it. ``seen`` (public: everyone saw who looked) lists the seats that know
    its face. ``name`` is how the command line names it: a lot (``3a``) or a position (``2``)."""

    name: str
    up: bool
    card: Investment | None
    seen: tuple[int, ...]

    @property
    def value(self) -> int | None:
        return None if self.card is None else self.card.value


@quick_init  # the expert's playouts build views by the thousand
@dataclass(frozen=True, kw_only=True)
class CapitalAuctionView(View):
    """What one seat sees. Private zones: ``capital`` (its Capital cards, highest first),
    ``tools`` (its Tool cards) and, while it picks with Industrial Espionage, ``spied`` (the hand
    it is looking at). Everything public is here too, so a state can be sampled from it.

    - ``portfolios[seat]``/``table[auction - 1]``/``removed``: Investment cards as this seat
      sees them (``SlotInfo``); ``table`` holds the lots of auctions 1-3 of this round, empty
      once sold or discarded.
    - ``bids[seat]``: the Capital cards laid face up in this auction; ``high``/``leader``: the
      standing bid; ``out``: who has passed; ``bid_order``, ``bid_position``, ``spoken``: the
      auction's turn order and how far it has gone.
    - ``winner``: this auction's Investment-phase winner; ``tool_order``/``tool_turn``: the
      Tool phase; ``pending``: a Tool being answered with Connections or resolved.
    - ``current``: the seat awaited (None when the game is over).
    - ``known[seat]``: the Capital cards of that hand every seat knows of (bids taken back, not
      seen to leave since)."""

    options: Mapping[str, Any]
    round: int
    auction: int
    phase: str
    starter: int
    current: int | None
    portfolios: tuple[tuple[SlotInfo, ...], ...]
    table: tuple[tuple[SlotInfo, ...], ...]
    removed: tuple[SlotInfo, ...]
    bids: tuple[tuple[Capital, ...], ...]
    high: int
    leader: int | None
    out: tuple[int, ...]
    bid_order: tuple[int, ...]
    bid_position: int
    spoken: int
    winner: int | None
    tool_order: tuple[int, ...]
    tool_turn: int
    pending: Pending | None
    capital_deck: int
    capital_discard: tuple[Capital, ...]
    tool_deck: int
    tool_discard: tuple[Tool, ...]
    investment_deck: int
    turns: int
    known: tuple[tuple[Capital, ...], ...] = ()

    @property
    def capital(self) -> tuple[Capital, ...]:
        return tuple(self.zones.get("capital", ()))

    @property
    def tools(self) -> tuple[Tool, ...]:
        return tuple(self.zones.get("tools", ()))

    @property
    def capital_sizes(self) -> tuple[int, ...]:
        return tuple(sizes["capital"] for sizes in self.zone_sizes)

    @property
    def tool_sizes(self) -> tuple[int, ...]:
        return tuple(sizes["tools"] for sizes in self.zone_sizes)

    @property
    def ask_only_holders(self) -> bool:
        return bool(self.options.get(ASK_ONLY_HOLDERS))

    def lots(self) -> list[SlotInfo]:
        """Every card still on the table, auction by auction."""
        return [slot for lot in self.table for slot in lot]


def status_sentence(state: CapitalAuctionState) -> Sentence:
    names = state.names
    seat = state.current
    where = f"Round {state.round}, auction {state.auction}"
    if seat is None:
        return Sentence("The game is over.")
    who = player(names, seat)
    if state.phase == BID:
        high = state.bidding.high
        if high:
            return say("{}: {} to bid more than {} or pass.", where, who, high)
        return say("{}: {} to open the bidding or pass.", where, who)
    if state.phase == FLIP:
        return say("{}: {} won and turns one of auction 3's face-down cards face up.", where, who)
    if state.phase == TOOL:
        return say("{}, Tool phase: {} to play a Tool card or pass.", where, who)
    pending = state.pending
    tool = pending.tool.name
    played_by = player(names, pending.seat)
    if state.phase == REACT:
        if pending.chain:
            answered = say("{}'s Connection answers {}'s {}", player(names, pending.chain[-1]), played_by, tool)
        else:
            answered = say("{} played {}", played_by, tool)
        return say("{}: {} may react with a Connection or decline.", answered, who)
    if state.phase == PICK:
        return say("{} looks at {}'s Capital cards and takes one.", who, player(names, pending.victim))
    if state.phase == TAX:
        return say("{} must discard Capital cards for {}'s {}.", who, played_by, tool)
    return say("{} discards one Tool card for {}.", who, tool)


# -- JSON ----------------------------------------------------------------------------------------
def _slot_json(slot: Slot) -> dict[str, Any]:
    return {"card": slot.card.key, "up": slot.up, "seen": sorted(slot.seen)}


def _read_slot(data: Any, what: str, players: int, default_seen: set[int]) -> Slot:
    if isinstance(data, str):  # shorthand: a face-up card
        data = {"card": data}
    data = read_object(data, what)
    card = CARDS.read_investment(require(data, "card", what), what)
    up = read_bool(data.get("up", True), f"{what}'s up")
    seen = {read_int(s, f"{what}'s seen", 0, players - 1) for s in read_list(data.get("seen", []), f"{what}'s seen")}
    seen |= default_seen  # an owner always knows their own cards
    if up:
        seen = set(range(players))  # a face-up card is seen by everyone
    return Slot(card, up, seen)


def _play_json(play: Play, names: Sequence[str]) -> dict[str, Any]:
    # the player by name, as positions saved before seats were written by number have it: the
    # saved position of a game is compared with its replay when it is opened again
    return {"tool": play.tool, "player": "" if play.player is None else names[play.player], "card": play.card,
            "own": play.own, "lot": play.lot, "pay": list(play.pay)}


def _read_player(value: Any, names: Sequence[str]) -> int | None:
    """A pending play's player: a name as the table spells it (any case), a seat from 0, or
    nothing (``""``, null)."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return read_int(value, "the play's player", 0, len(names) - 1)
    name = read_str(value, "the play's player")
    for seat, known in enumerate(names):
        if known.casefold() == name.casefold():
            return seat
    raise RulesError(f"the pending play names {name!r}, who is not at the table")


def _read_play(data: Any, names: Sequence[str]) -> Play:
    data = read_object(data, "the pending Tool's play")
    tool = read_str(require(data, "tool", "the pending play"), "the pending Tool")
    CARDS.tool(tool)
    return Play(tool, _read_player(data.get("player"), names),
                read_int(data.get("card", 0), "the play's card", 0),
                read_int(data.get("own", 0), "the play's own card", 0),
                read_str(data.get("lot", ""), "the play's lot"),
                tuple(read_int(v, "a value paid", 1) for v in read_list(data.get("pay", []), "the play's pay")))


def state_to_json(state: CapitalAuctionState) -> dict[str, Any]:
    pending = state.pending
    return {
        "names": list(state.names), "seed": state.seed, "counter": state.counter,
        "options": dict(state.options), "round": state.round, "auction": state.auction,
        "phase": state.phase, "starter": state.starter,
        "capital": [[c.key for c in hand] for hand in state.capital],
        "tools": [[t.key for t in hand] for hand in state.tools],
        "portfolios": [[_slot_json(s) for s in p] for p in state.portfolios],
        "table": [[_slot_json(s) for s in lot] for lot in state.table],
        "removed": [_slot_json(s) for s in state.removed],
        "capital_deck": [c.key for c in top_first(state.capital_deck)],
        "capital_discard": [c.key for c in top_first(state.capital_discard)],
        "tool_deck": [t.key for t in top_first(state.tool_deck)],
        "tool_discard": [t.key for t in top_first(state.tool_discard)],
        "investment_deck": [i.key for i in top_first(state.investment_deck)],
        "bids": [[c.key for c in bid] for bid in state.bids],
        "bidding": None if state.bidding is None else state.bidding.to_json(),
        "winner": state.winner, "tool_order": list(state.tool_order), "tool_turn": state.tool_turn,
        "pending": None if pending is None else {
            "seat": pending.seat, "play": _play_json(pending.play, state.names), "tool": pending.tool.key,
            "connections": [t.key for t in pending.connections], "chain": list(pending.chain),
            "asking": list(pending.asking), "victim": pending.victim},
        "turns": state.turns,
        "known": [[c.key for c in cards] for cards in state.known],
    }


def state_from_json(data: Mapping[str, Any]) -> CapitalAuctionState:
    """A position from its JSON; raises RulesError naming what is missing or wrong."""
    what = "a Capital Auction position"
    data = read_object(data, what)
    names = [read_str(n, "a player's name") for n in read_list(require(data, "names", what), "names")]
    n = len(names)
    if not 2 <= n <= 5:
        raise RulesError(f"{what} has 2-5 players, not {n}")

    def seat(value: Any, label: str) -> int:
        return read_int(value, label, 0, n - 1)

    def per_seat(key: str, read: Any, default: Any = None) -> list[Any]:
        values = data.get(key, default) if default is not None else require(data, key, what)
        values = read_list(values, key)
        if len(values) != n:
            raise RulesError(f"{what} needs {key} for each of its {n} players, not {len(values)}")
        return [read(value, s) for s, value in enumerate(values)]

    capital = per_seat("capital", lambda v, s: [CARDS.read_capital(c) for c in read_list(v, "a Capital hand")])
    tools = per_seat("tools", lambda v, s: [CARDS.read_tool(t) for t in read_list(v, "a Tool hand")], [[]] * n)
    portfolios = per_seat("portfolios", lambda v, s: [_read_slot(x, "a portfolio card", n, {s})
                                                      for x in read_list(v, "a portfolio")], [[]] * n)
    bids = per_seat("bids", lambda v, s: [CARDS.read_capital(c) for c in read_list(v, "a bid")], [[]] * n)
    table = [[_read_slot(x, "a card on the table", n, set()) for x in read_list(lot, "a lot")]
             for lot in read_list(data.get("table", [[], [], []]), "the table")]
    if len(table) != 3 or any(len(lot) > 2 for lot in table):
        raise RulesError("the table has three lots (auctions 1-3) of at most two cards each")
    options = read_object(data.get("options", {}), "the options")
    phase = read_str(data.get("phase", BID), "phase")
    if phase not in PHASES:
        raise RulesError(f"not a Capital Auction phase: {phase!r}; the phases are {', '.join(PHASES)}")
    bidding = data.get("bidding")
    pending = data.get("pending")
    winner = data.get("winner")
    state = CapitalAuctionState(
        names=names, seed=read_int(data.get("seed", 0), "seed"),
        counter=read_int(data.get("counter", 1), "counter", 0),
        options={ASK_ONLY_HOLDERS: read_bool(options.get(ASK_ONLY_HOLDERS, False), ASK_ONLY_HOLDERS)},
        capital=capital, tools=tools, portfolios=portfolios, table=table,
        removed=[_read_slot(x, "a removed card", n, set()) for x in read_list(data.get("removed", []), "removed")],
        capital_deck=stack(CARDS.read_capital(c) for c in read_list(data.get("capital_deck", []), "capital_deck")),
        capital_discard=stack(CARDS.read_capital(c) for c in read_list(data.get("capital_discard", []),
                                                                         "capital_discard")),
        tool_deck=stack(CARDS.read_tool(t) for t in read_list(data.get("tool_deck", []), "tool_deck")),
        tool_discard=stack(CARDS.read_tool(t) for t in read_list(data.get("tool_discard", []), "tool_discard")),
        investment_deck=stack(CARDS.read_investment(i) for i in read_list(data.get("investment_deck", []),
                                                                          "investment_deck")),
        round=read_int(data.get("round", 1), "round", 1, ROUNDS),
        auction=read_int(data.get("auction", 1), "auction", 1, AUCTIONS),
        phase=phase, starter=seat(data.get("starter", 0), "starter"), bids=bids,
        bidding=None if bidding is None else OpenAuction.from_json(bidding),
        winner=None if winner is None else seat(winner, "winner"),
        tool_order=[seat(s, "the Tool order") for s in read_list(data.get("tool_order", []), "tool_order")],
        tool_turn=read_int(data.get("tool_turn", 0), "tool_turn", 0),
        pending=None if pending is None else _read_pending(pending, seat, names),
        turns=read_int(data.get("turns", 0), "turns", 0))
    if "known" in data:  # saved before hands kept what was seen go into them: none (a replay rebuilds it)
        state.known = read_known(data["known"], capital, CARDS.read_capital, "Capital hand")
    _check_shape(state)
    return state


def _read_pending(data: Any, seat: Any, names: Sequence[str]) -> Pending:
    data = read_object(data, "the pending Tool")
    victim = data.get("victim")
    return Pending(
        seat(require(data, "seat", "the pending Tool"), "the pending Tool's seat"),
        _read_play(require(data, "play", "the pending Tool"), names),
        CARDS.read_tool(require(data, "tool", "the pending Tool"), "the pending Tool"),
        tuple(CARDS.read_tool(t, "a Connection") for t in read_list(data.get("connections", []), "connections")),
        tuple(seat(s, "a Connection's seat") for s in read_list(data.get("chain", []), "chain")),
        tuple(seat(s, "a seat to ask") for s in read_list(data.get("asking", []), "asking")),
        None if victim is None else seat(victim, "the victim"))


def _check_shape(state: CapitalAuctionState) -> None:
    """What hand-written JSON must get right for the game to go on from it."""
    everything = [
        *state.capital_deck, *state.capital_discard, *(c for h in state.capital for c in h),
        *(c for b in state.bids for c in b)]
    keys = [c.key for c in everything]
    if len(set(keys)) != len(keys):
        raise RulesError("a Capital card is in the position twice")
    tools = [*state.tool_deck, *state.tool_discard, *(t for h in state.tools for t in h)]
    if state.pending is not None:
        tools += [state.pending.tool, *state.pending.connections]
    keys = [t.key for t in tools]
    if len(set(keys)) != len(keys):
        raise RulesError("a Tool card is in the position twice")
    slots = [*state.removed, *(s for p in state.portfolios for s in p), *(s for lot in state.table for s in lot)]
    keys = [s.card.key for s in slots] + [i.key for i in state.investment_deck]
    if len(set(keys)) != len(keys):
        raise RulesError("an Investment card is in the position twice")
    phase = state.phase
    if phase == BID and state.bidding is None:
        raise RulesError("a position in the bidding needs its 'bidding' (the auction)")
    if phase == BID and any(s >= state.players for s in state.bidding.order):
        raise RulesError("the auction names a seat that is not at the table")
    if phase == BID and state.bidding.done:
        raise RulesError("a position in the bidding needs someone still to bid")
    if phase == FLIP and state.winner is None:
        raise RulesError("a position awaiting the flip after auction 2 needs its winner")
    if phase == TOOL and not state.tool_turn < len(state.tool_order):
        raise RulesError("a position in the Tool phase needs a Tool order with someone still to play")
    if phase in (REACT, PICK, TAX, VENTURE) and state.pending is None:
        raise RulesError(f"a position in the {phase} phase needs the pending Tool")
    if phase == REACT and not state.pending.asking:
        raise RulesError("a position awaiting a reaction needs someone to ask")
    if phase in (PICK, TAX) and state.pending.victim is None:
        raise RulesError(f"a position in the {phase} phase needs the pending Tool's victim")
