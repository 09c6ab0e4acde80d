"""Property's position: the 8×8 grid, money, purchase units, hands, stock and played pile.

The grid is indexed ``(row - 1) * 8 + (col - 1)``: columns come from the red card (left to
right), rows from the black card (bottom to top), both 1–8.

The JSON form is meant to be written by hand (like a chess FEN). The grid is eight strings, the
TOP row (row 8) first, one character per column, left to right::

    ".": empty    "A"–"F": owned by seat 0–5    "a"–"f": owned by seat 0–5 and mortgaged

Cards are ``card.key`` strings; the stock lists its top card first (in memory it is a pile,
top last, as every pile in rules/core/piles.py). Only ``players``,
``board``, ``money``, ``units`` and ``hands`` are required; everything else has a default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter
from typing import Any, Iterable, Mapping, Sequence

from ..core import Card, RulesError, View, quick_init
from ..core.jsonio import card_keys, read_card, read_cards, read_int, read_list, read_str, require
from ..core.piles import stack, top_first
from ..core.words import Sentence, player, plural, say

SIZE = 8
CELLS = SIZE * SIZE
SEAT_LETTERS = "ABCDEF"


def index(col: int, row: int) -> int:
    """The grid index of cell col·row."""
    return (row - 1) * SIZE + (col - 1)


def cell_of(i: int) -> tuple[int, int]:
    """The (col, row) of grid index ``i``."""
    return (i % SIZE + 1, i // SIZE + 1)


NEIGHBOURS = [
    [index(c, r) for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
     if 1 <= c <= SIZE and 1 <= r <= SIZE]
    for row in range(1, SIZE + 1) for col in range(1, SIZE + 1)
]
"""Each grid index's orthogonal neighbours, by grid index."""


UNIT_VALUES = {13: 4, 12: 2, 11: 1, 0: 1}  # king, queen, jack, joker
_RANK = attrgetter("rank")


def unit_value(card: Card) -> int:
    """The purchase value of a court card or joker: K 4, Q 2, J 1, joker 1 (0: not a unit)."""
    return UNIT_VALUES.get(card.rank, 0)


def units_total(cards: Iterable[Card]) -> int:
    return sum(map(UNIT_VALUES.get, map(_RANK, cards), repeat(0)))  # unit_value's, in C: bots add hands up by the thousand


def sort_units(cards: Iterable[Card]) -> list[Card]:
    """Purchase units by value, then suit: kings, queens, jacks, jokers."""
    return sorted(cards, key=lambda card: (-unit_value(card), card.sort_key()))


def cell_name(col: int, row: int) -> str:
    """How the table and the log name a cell: column·row, e.g. ``3·5``."""
    return f"{col}·{row}"


@dataclass(frozen=True)
class PendingPurchase:
    """After paying rent, ``payer`` may buy col·row from ``owner`` with units totalling at
    least ``group_size`` (the size of the owner's group when the rent was paid)."""

    payer: int
    owner: int
    col: int
    row: int
    group_size: int
    rent: int


@dataclass(frozen=True)
class LastPlay:
    """The most recent pair of cards played and the cell they named."""

    seat: int
    red: Card
    black: Card
    col: int
    row: int


@dataclass
class PropertyState:
    """The whole position, hidden parts included (the view hides them)."""

    names: list[str]
    options: dict[str, Any]
    seed: int
    counter: int
    owners: list[int | None]
    mortgaged: list[bool]
    money: list[int]
    units: list[list[Card]]
    hands: list[list[Card]]
    stock: list[Card]  # top card LAST (a pile); the JSON lists it top first
    played: list[Card] = field(default_factory=list)
    current: int = 0
    turn: int = 1
    bankrupt: list[int] = field(default_factory=list)  # seats, in the order they went bankrupt
    pending: PendingPurchase | None = None
    last_play: LastPlay | None = None
    first: int = 0
    cut: list[list[tuple[int, Card]]] = field(default_factory=list)  # the draws for first player

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def solvent(self) -> list[int]:
        return [seat for seat in range(self.players) if seat not in self.bankrupt]

    @property
    def over(self) -> bool:
        """The game ends at the bankruptcy the options ask for, or when one player is left."""
        fallen = len(self.bankrupt)
        return fallen >= self.options.get("bankruptcies", 1) or len(self.names) - fallen <= 1

    def cells_of(self, seat: int) -> list[int]:
        return [i for i, owner in enumerate(self.owners) if owner == seat]


@quick_init  # the expert's playouts build views by the thousand
@dataclass(frozen=True)
class PropertyView(View):
    """What one seat sees: the whole public table (grid, money, units, the played pile) and its
    own hand (``zones["hand"]``). ``current`` is the seat whose turn it is; during a purchase
    the payer is awaited. Everything public is here, so a state can be sampled from it."""

    options: Mapping[str, Any] = field(default_factory=dict)
    owners: tuple[int | None, ...] = ()
    mortgaged: tuple[bool, ...] = ()
    money: tuple[int, ...] = ()
    units: tuple[tuple[Card, ...], ...] = ()
    bankrupt: tuple[bool, ...] = ()
    bankrupt_order: tuple[int, ...] = ()
    stock_size: int = 0
    played: tuple[Card, ...] = ()
    current: int = 0
    turn: int = 1
    pending: PendingPurchase | None = None
    last_play: LastPlay | None = None
    first: int = 0
    cut: tuple[tuple[tuple[int, Card], ...], ...] = ()

    @property
    def played_size(self) -> int:
        return len(self.played)

    def owner(self, col: int, row: int) -> int | None:
        return self.owners[index(col, row)]

    def is_mortgaged(self, col: int, row: int) -> bool:
        return self.mortgaged[index(col, row)]


def hand_shape(seat: int, pending: PendingPurchase | None, bankrupt: Sequence[int], over: bool) -> str:
    """What the rules let ``seat``'s hand be (a state or a view tells the rest): ``"empty"`` for
    a bankrupt player whose cards went to the played pile; ``"one colour"`` (or empty) for one
    who has played a pair and not drawn yet (the payer deciding on a purchase, the player whose
    bankruptcy ended the game); otherwise ``"one single"``: both colours, one of them a single
    card, since players draw until they hold both colours (the last card drawn is the single)."""
    if seat in bankrupt:
        return "one colour" if over and seat == bankrupt[-1] else "empty"
    if pending is not None and seat == pending.payer:
        return "one colour"
    return "one single"


def status_sentence(names: Sequence[str], over: bool, current: int, pending: PendingPurchase | None) -> Sentence:
    if over:
        return Sentence("The game is over.")
    if pending is not None:
        p = pending
        return say("{} may buy {} from {} with {}, or decline.", player(names, p.payer),
                   cell_name(p.col, p.row), player(names, p.owner), plural(p.group_size, "unit"))
    return say("{} to play a red and a black card.", player(names, current))


# -- JSON ------------------------------------------------------------------------------------

def board_to_rows(owners: Sequence[int | None], mortgaged: Sequence[bool]) -> list[str]:
    rows = []
    for row in range(SIZE, 0, -1):
        text = ""
        for col in range(1, SIZE + 1):
            i = index(col, row)
            owner = owners[i]
            if owner is None:
                text += "."
            else:
                letter = SEAT_LETTERS[owner]
                text += letter.lower() if mortgaged[i] else letter
        rows.append(text)
    return rows


def board_from_rows(rows: Sequence[str], players: int) -> tuple[list[int | None], list[bool]]:
    if (not isinstance(rows, (list, tuple)) or len(rows) != SIZE
            or any(not isinstance(text, str) or len(text) != SIZE for text in rows)):
        raise RulesError("the board must be 8 strings of 8 characters, the top row (row 8) first")
    owners: list[int | None] = [None] * CELLS
    mortgaged = [False] * CELLS
    for r, text in enumerate(rows):
        row = SIZE - r
        for c, char in enumerate(text):
            if char == ".":
                continue
            seat = SEAT_LETTERS.find(char.upper()) if char.isascii() and char.isalpha() else -1
            if not 0 <= seat < players:
                raise RulesError(
                    f"board row {row} column {c + 1}: {char!r} is not '.' or a seat letter "
                    f"A-{SEAT_LETTERS[players - 1]} (lower case = mortgaged)"
                )
            owners[index(c + 1, row)] = seat
            mortgaged[index(c + 1, row)] = char.islower()
    return owners, mortgaged


def state_to_json(state: PropertyState) -> dict[str, Any]:
    pending = state.pending
    last = state.last_play
    return {
        "players": list(state.names),
        "options": dict(state.options),
        "seed": state.seed,
        "counter": state.counter,
        "turn": state.turn,
        "current": state.current,
        "board": board_to_rows(state.owners, state.mortgaged),
        "money": list(state.money),
        "units": [card_keys(units) for units in state.units],
        "hands": [card_keys(hand) for hand in state.hands],
        "stock": card_keys(top_first(state.stock)),
        "played": card_keys(state.played),
        "bankrupt": list(state.bankrupt),
        "pending": None if pending is None else {
            "payer": pending.payer, "owner": pending.owner, "col": pending.col,
            "row": pending.row, "group_size": pending.group_size, "rent": pending.rent,
        },
        "last_play": None if last is None else {
            "seat": last.seat, "red": last.red.key, "black": last.black.key,
            "col": last.col, "row": last.row,
        },
        "first": state.first,
        "cut": [[[seat, card.key] for seat, card in draw] for draw in state.cut],
    }


def state_from_json(data: Mapping[str, Any]) -> PropertyState:
    """A position from its JSON; raises RulesError naming what is missing or wrong."""
    what = "a Property position"
    names = [read_str(name, "a player's name") for name in read_list(require(data, "players", what), "players")]
    n = len(names)
    if not 2 <= n <= len(SEAT_LETTERS):
        raise RulesError(f"{what} has 2-6 players, not {n}")
    seat = lambda value, label: read_int(value, label, 0, n - 1)  # noqa: E731
    owners, mortgaged = board_from_rows(require(data, "board", what), n)
    money = [read_int(m, "money") for m in read_list(require(data, "money", what), "money")]
    units = [sort_units(read_cards(u, "units")) for u in read_list(require(data, "units", what), "units")]
    for card in (card for share in units for card in share):
        if not unit_value(card):
            raise RulesError(f"{card.key} is not a purchase unit (units are K, Q, J and jokers)")
    hands = [read_cards(h, "a hand") for h in read_list(require(data, "hands", what), "hands")]
    if not len(money) == len(units) == len(hands) == n:
        raise RulesError(f"{what} needs money, units and a hand for each of its {n} players")
    pending = data.get("pending")
    last = data.get("last_play")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RulesError("the options must be an object")
    cut = []
    for draw in read_list(data.get("cut", []), "cut"):
        rounds = []
        for pair in read_list(draw, "a round of the cut"):
            pair = read_list(pair, "a draw of the cut")
            if len(pair) != 2:
                raise RulesError("a draw of the cut is [seat, card]")
            rounds.append((seat(pair[0], "a seat of the cut"), read_card(pair[1], "a card of the cut")))
        cut.append(rounds)
    return PropertyState(
        names=names,
        options={"bankruptcies": 1, "count-property": False, **dict(options)},
        seed=read_int(data.get("seed", 0), "seed"),
        counter=read_int(data.get("counter", 0), "counter", 0),
        owners=owners,
        mortgaged=mortgaged,
        money=money,
        units=units,
        hands=hands,
        stock=stack(read_cards(data.get("stock", []), "stock")),
        played=read_cards(data.get("played", []), "played"),
        current=seat(data.get("current", 0), "current"),
        turn=read_int(data.get("turn", 1), "turn", 0),
        bankrupt=[seat(s, "a bankrupt seat") for s in read_list(data.get("bankrupt", []), "bankrupt")],
        pending=None if pending is None else PendingPurchase(
            seat(require(pending, "payer", "pending"), "payer"), seat(require(pending, "owner", "pending"), "owner"),
            read_int(require(pending, "col", "pending"), "col", 1, SIZE),
            read_int(require(pending, "row", "pending"), "row", 1, SIZE),
            read_int(require(pending, "group_size", "pending"), "group_size", 1, CELLS),
            read_int(require(pending, "rent", "pending"), "rent", 0),
        ),
        last_play=None if last is None else LastPlay(
            seat(require(last, "seat", "last_play"), "seat"), read_card(require(last, "red", "last_play")),
            read_card(require(last, "black", "last_play")),
            read_int(require(last, "col", "last_play"), "col", 1, SIZE),
            read_int(require(last, "row", "last_play"), "row", 1, SIZE),
        ),
        first=seat(data.get("first", 0), "first"),
        cut=cut,
    )
