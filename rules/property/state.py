"""Property's position: the 8×8 grid, money, purchase units, hands, stock and played pile.

The grid is indexed ``(row - 1) * 8 + (col - 1)``: columns come from the red card (left to
right), rows from the black card (bottom to top), both 1–8.

The JSON form is meant to be written by hand (like a chess FEN). The grid is eight strings, the
TOP row (row 8) first, one character per column, left to right::

    ".": empty    "A"–"F": owned by seat 0–5    "a"–"f": owned by seat 0–5 and mortgaged

Cards are ``card.key`` strings; the stock lists its top card first. Only ``players``,
``board``, ``money``, ``units`` and ``hands`` are required; everything else has a default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..core import Card, RulesError, View, parse_card

SIZE = 8
CELLS = SIZE * SIZE
SEAT_LETTERS = "ABCDEF"


def index(col: int, row: int) -> int:
    """The grid index of cell col·row."""
    return (row - 1) * SIZE + (col - 1)


def cell_of(i: int) -> tuple[int, int]:
    """The (col, row) of grid index ``i``."""
    return (i % SIZE + 1, i // SIZE + 1)


UNIT_VALUES = {13: 4, 12: 2, 11: 1, 0: 1}  # king, queen, jack, joker


def unit_value(card: Card) -> int:
    """The purchase value of a court card or joker: K 4, Q 2, J 1, joker 1."""
    return UNIT_VALUES[card.rank]


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
    stock: list[Card]  # top card first
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
        return len(self.bankrupt) >= self.options.get("bankruptcies", 1) or len(self.solvent) <= 1

    def cells_of(self, seat: int) -> list[int]:
        return [i for i, owner in enumerate(self.owners) if owner == seat]


@dataclass(frozen=True)
class PropertyView(View):
    """What one seat sees: the whole public table (grid, money, units) and its own hand."""

    owners: tuple[int | None, ...] = ()
    mortgaged: tuple[bool, ...] = ()
    money: tuple[int, ...] = ()
    units: tuple[tuple[Card, ...], ...] = ()
    bankrupt: tuple[bool, ...] = ()
    stock_size: int = 0
    played_size: int = 0
    pending: PendingPurchase | None = None
    last_play: LastPlay | None = None

    def owner(self, col: int, row: int) -> int | None:
        return self.owners[index(col, row)]

    def is_mortgaged(self, col: int, row: int) -> bool:
        return self.mortgaged[index(col, row)]

    def status(self, names: Sequence[str]) -> str:
        if self.to_move is None:
            return "The game is over."
        if self.pending is not None:
            p = self.pending
            return (
                f"{names[p.payer]} may buy {cell_name(p.col, p.row)} from {names[p.owner]} "
                f"with {p.group_size} unit{'s' if p.group_size != 1 else ''}, or decline."
            )
        return f"{names[self.to_move]} to play a red and a black card."


# -- JSON ------------------------------------------------------------------------------------

def _cards(keys: Sequence[str]) -> list[Card]:
    return [parse_card(key) for key in keys]


def _keys(cards: Sequence[Card]) -> list[str]:
    return [card.key for card in cards]


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
    if len(rows) != SIZE or any(len(text) != SIZE for text in rows):
        raise RulesError("the board must be 8 strings of 8 characters, the top row (row 8) first")
    owners: list[int | None] = [None] * CELLS
    mortgaged = [False] * CELLS
    for r, text in enumerate(rows):
        row = SIZE - r
        for c, char in enumerate(text):
            if char == ".":
                continue
            seat = SEAT_LETTERS.find(char.upper())
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
        "units": [_keys(units) for units in state.units],
        "hands": [_keys(hand) for hand in state.hands],
        "stock": _keys(state.stock),
        "played": _keys(state.played),
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
    try:
        names = [str(name) for name in data["players"]]
        owners, mortgaged = board_from_rows(data["board"], len(names))
        pending = data.get("pending")
        last = data.get("last_play")
        return PropertyState(
            names=names,
            options={"bankruptcies": 1, "count-property": False, **dict(data.get("options") or {})},
            seed=int(data.get("seed", 0)),
            counter=int(data.get("counter", 0)),
            owners=owners,
            mortgaged=mortgaged,
            money=[int(m) for m in data["money"]],
            units=[sort_units(_cards(units)) for units in data["units"]],
            hands=[_cards(hand) for hand in data["hands"]],
            stock=_cards(data.get("stock", ())),
            played=_cards(data.get("played", ())),
            current=int(data.get("current", 0)),
            turn=int(data.get("turn", 1)),
            bankrupt=[int(seat) for seat in data.get("bankrupt", ())],
            pending=None if pending is None else PendingPurchase(
                int(pending["payer"]), int(pending["owner"]), int(pending["col"]),
                int(pending["row"]), int(pending["group_size"]), int(pending["rent"]),
            ),
            last_play=None if last is None else LastPlay(
                int(last["seat"]), parse_card(last["red"]), parse_card(last["black"]),
                int(last["col"]), int(last["row"]),
            ),
            first=int(data.get("first", 0)),
            cut=[[(int(seat), parse_card(key)) for seat, key in draw] for draw in data.get("cut", ())],
        )
    except (KeyError, TypeError) as error:
        raise RulesError(f"not a Property position: missing or malformed {error}") from None
