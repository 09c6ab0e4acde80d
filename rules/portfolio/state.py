"""Portfolio's position and the public views built from it.

The state is mutable (``apply`` changes it); everything a view hands out is frozen. Cards are
physical ``Card`` values (two or three decks, told apart by copy number); portfolios keep the
id they were given at creation (P1, P2, …) wherever they travel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rules.core import Card, View, quick_init
from rules.core.offers import Deal
from rules.core.words import Sentence, dollars, player, say

OfferInfo = Deal  # a pending deal is the shared Deal of rules.core.offers

DRAW, ACT, RESPOND, OVER = "draw", "act", "respond", "over"
LOW, HIGH = "low", "high"
_SEATS = tuple(frozenset((seat,)) for seat in range(5))  # who is awaited: one seat, asked at every command
_NOBODY: frozenset[int] = frozenset()


@dataclass
class Portfolio:
    """A run of at least three cards of one suit on the table, low to high, with optional caps
    (cards of the end card's rank and colour that close that end; they are not part of the run)."""

    pid: str
    owner: int
    cards: list[Card]
    low_cap: Card | None = None
    high_cap: Card | None = None

    @property
    def low(self) -> Card:
        return self.cards[0]

    @property
    def high(self) -> Card:
        return self.cards[-1]

    def cap(self, end: str) -> Card | None:
        return self.low_cap if end == LOW else self.high_cap

    def all_cards(self) -> list[Card]:
        """The run and its caps: everything that leaves the table with the portfolio."""
        return [c for c in (self.low_cap, *self.cards, self.high_cap) if c is not None]

    def __str__(self) -> str:
        return f"{self.pid} ({self.low.code}–{self.high.code})"


@dataclass
class PortfolioState:
    """A game of Portfolio in progress.

    ``stock`` and ``discard`` have their top at the END of the list. ``bank`` is the bank's
    balance (income is paid out of it, costs are paid into it; it may be negative) so that the
    players' money plus the bank never changes. ``sheet`` is the scorekeeper's column per seat:
    the starting $6, then a new total after every turn that changed it. ``seed``/``counter``
    drive every shuffle (see ``rules.core.chance``)."""

    names: list[str]
    seed: int
    decks: int
    stock: list[Card]
    discard: list[Card]
    hands: list[list[Card]]
    money: list[int]
    bank: int = 0
    counter: int = 0
    portfolios: list[Portfolio] = field(default_factory=list)
    next_pid: int = 1
    current: int = 0
    phase: str = DRAW
    turns: int = 1
    turn_income: int = 0
    pauper: bool = False
    taken_discard: Card | None = None
    offered: bool = False
    offer: Deal | None = None
    reshuffled: bool = False
    last_round: bool = False
    sheet: list[list[int]] = field(default_factory=list)
    final_income: list[int] | None = None
    # per seat, the cards every seat saw go into that hand and not leave it (rules.core.known)
    known: list[list[Card]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.known:
            self.known = [[] for _ in self.names]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def dealer(self) -> int:
        """The last seat deals, so seat 0 (on the dealer's left) plays first."""
        return self.players - 1

    @property
    def awaiting(self) -> frozenset[int]:
        """The seat whose input the game awaits (the responder while an offer is pending);
        nobody once the game is over."""
        if self.phase == OVER:
            return _NOBODY
        if self.phase == RESPOND and self.offer is not None:
            return _SEATS[self.offer.responder]
        return _SEATS[self.current]

    @property
    def reshuffle_pending(self) -> bool:
        """True while a 3- or 5-player game has not yet gone through the deck once."""
        return self.players in (3, 5) and not self.reshuffled and not self.last_round

    def find(self, pid: str) -> Portfolio | None:
        for portfolio in self.portfolios:
            if portfolio.pid == pid:
                return portfolio
        return None

    def owned(self, seat: int) -> list[Portfolio]:
        return [p for p in self.portfolios if p.owner == seat]


@dataclass(frozen=True)
class PortfolioInfo:
    """One portfolio as every seat sees it. ``neutralise_card``/``acquire_card`` name the face
    that would attack that end ("2C", or "AD/AH" for an uncapped King), None when it is closed;
    the costs are None then too."""

    pid: str
    owner: int
    cards: tuple[Card, ...]
    low_cap: Card | None
    high_cap: Card | None
    value: int
    neutralise_cost: int | None
    acquire_cost: int | None
    neutralise_card: str | None
    acquire_card: str | None


@quick_init  # the expert's playouts build views by the thousand
@dataclass(frozen=True)
class PortfolioView(View):
    """What one seat sees of a Portfolio table: everything but the other hands and the stock's
    order. The whole discard pile is here: every card in it was played face up.

    ``current`` is the seat whose turn it is (during an offer the responder is awaited).
    ``draw_costs[k-1]`` is the cost of drawing k cards, for every k this turn's income affords.
    ``reshuffle_pending``: the discard pile will still be shuffled into a new stock once.
    ``known[seat]``: the cards of that hand every seat knows of (taken from the discard pile,
    offered, received in a deal, and not seen to leave since)."""

    portfolios: tuple[PortfolioInfo, ...] = ()
    money: tuple[int, ...] = ()
    bank: int = 0
    income: tuple[int, ...] = ()
    decks: int = 2
    stock_size: int = 0
    discard: tuple[Card, ...] = ()
    phase: str = DRAW
    current: int = 0
    turns: int = 1
    turn_income: int = 0
    draw_costs: tuple[int, ...] = ()
    pauper: bool = False
    taken_discard: Card | None = None
    offered: bool = False
    reshuffled: bool = False
    last_round: bool = False
    reshuffle_pending: bool = False
    dealer: int = 0
    next_pid: int = 1
    score_sheet: tuple[tuple[int, ...], ...] = ()
    final_income: tuple[int, ...] | None = None
    offer: Deal | None = None
    known: tuple[tuple[Card, ...], ...] = ()  # per seat: the cards all saw go into its hand and stay

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def discard_size(self) -> int:
        return len(self.discard)


def status_sentence(names: Sequence[str], phase: str, current: int, hand_size: int, pauper: bool,
                    turn_income: int, last_round: bool, offer: Deal | None) -> Sentence:
    """The view's status: whose move it is and what it is, the players named as parts."""
    if phase == OVER:
        return Sentence("The game is over.")
    who = player(names, current)
    if phase == DRAW:
        tail = " (pauper's rule: two cards for the price of one)" if pauper else ""
        return say("{}: income {} — choose how many cards to draw{}.", who, dollars(turn_income), tail)
    if phase == RESPOND and offer is not None:
        return say("{}: {} offers a deal — accept or decline.", player(names, offer.responder),
                   player(names, offer.proposer))
    finish = "end the turn" if hand_size == 0 else "discard"
    tail = " (last round: no drawing)" if last_round else ""
    return say("{} may act, then {}{}.", who, finish, tail)
