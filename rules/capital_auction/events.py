"""What happens in Capital Auction, as each seat's log tells it.

A card's face is written only for the seats that may know it: everyone when it lies face up,
else the seats in ``knowers`` (its owner, whoever looked at it). Capital hands and draws are
told to their owner only; the others read how many cards moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Event
from rules.core.words import join_names, plural

from .cards import Capital, Investment, Tool, values_of


def _values(values: Sequence[int]) -> str:
    return join_names([str(v) for v in values]) if values else "nothing"


def _face(card: Investment, up: bool, knowers: frozenset[int], reader: int | None) -> str:
    if up:
        return card.label
    if reader is not None and reader in knowers:
        return f"a face-down card ({card.label})"
    return "a face-down card"


def _paid(pay: Sequence[int]) -> str:
    return f" (paying {_values(pay)})" if pay else ""


@dataclass(frozen=True)
class LaidOut(Event):
    """A round begins: six Investment cards are laid out, two per auction."""

    reveals: ClassVar[bool] = True
    round: int
    lots: tuple[tuple[tuple[Investment, bool], ...], ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        parts = []
        for auction, lot in enumerate(self.lots, 1):
            cards = [card.label if up else "a face-down card" for card, up in lot]
            if cards:
                parts.append(f"auction {auction}: {join_names(cards)}")
        return f"Round {self.round} begins. On the table: {'; '.join(parts) or 'nothing'}."


@dataclass(frozen=True)
class Drew(Event):
    """Cards drawn (a round's draws, a bonus, a Tool's effect): the drawer reads them, the
    others how many."""

    reveals: ClassVar[bool] = True
    seat: int
    capital: tuple[Capital, ...]
    tools: tuple[Tool, ...]
    why: str

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if seat == self.seat:
            items = [str(v) for v in values_of(self.capital)] + [tool.name for tool in self.tools]
            what = join_names(items) if items else "nothing (the deck is empty)"
        else:
            items = ([plural(len(self.capital), "Capital card")] if self.capital else []) + (
                [plural(len(self.tools), "Tool card")] if self.tools else [])
            what = join_names(items) if items else "nothing (the deck is empty)"
        why = f" ({self.why})" if self.why else ""
        return f"{names[self.seat]} draws {what}{why}."


@dataclass(frozen=True)
class Reshuffled(Event):
    """A deck ran out: its discard pile is shuffled into a new deck."""

    reveals: ClassVar[bool] = True
    deck: str
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"The {self.deck} deck is empty: its discard pile is shuffled into a new deck of {self.size}."


@dataclass(frozen=True)
class AuctionOpened(Event):
    round: int
    auction: int
    starter: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"Round {self.round}, auction {self.auction}: {names[self.starter]} bids first."


@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} bids {sum(self.values)} ({' '.join(map(str, self.values))})."


@dataclass(frozen=True)
class Passed(Event):
    """A pass: out of the auction for good, or no Tool this Tool phase."""

    seat: int
    tool_phase: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if self.tool_phase:
            return f"{names[self.seat]} plays no Tool."
        return f"{names[self.seat]} passes."


@dataclass(frozen=True)
class AuctionWon(Event):
    """The last bidder left discards the bid and takes both cards as they lie; the others take
    their bids back. The winner sees the face-down cards (so do those who had looked)."""

    seat: int
    auction: int
    paid: tuple[int, ...]
    cards: tuple[tuple[Investment, bool], ...]
    knowers: tuple[frozenset[int], ...]

    @property
    def reveals(self) -> bool:  # type: ignore[override]
        return any(not up for _card, up in self.cards)

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        cards = [_face(card, up, knowers, seat) for (card, up), knowers in zip(self.cards, self.knowers)]
        return (f"{names[self.seat]} wins auction {self.auction} with {sum(self.paid)}, discards "
                f"{_values(self.paid)} and takes {join_names(cards) or 'nothing'}.")


@dataclass(frozen=True)
class NobodyBid(Event):
    """Everybody passed: the auction's cards are discarded as they lie; no Tool phase."""

    auction: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"Nobody bids in auction {self.auction}: its cards are discarded and there is no Tool phase."


@dataclass(frozen=True)
class LotFlipped(Event):
    """A face-down card on the table is turned face up (after auction 2, or Public Offering)."""

    reveals: ClassVar[bool] = True
    seat: int
    lot: str
    card: Investment

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} turns {self.lot} face up: {self.card.label}."


@dataclass(frozen=True)
class Stole(Event):
    """Failing Bank's bonus: a random Capital card from each opponent. The taker and each
    victim read the card; the others how many."""

    reveals: ClassVar[bool] = True
    seat: int
    taken: tuple[tuple[int, Capital], ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        parts = []
        for victim, card in self.taken:
            shown = f"a {card.value}" if seat in (self.seat, victim) else "a Capital card"
            parts.append(f"{shown} from {names[victim]}")
        return f"{names[self.seat]} takes {join_names(parts) or 'nothing'} at random."


@dataclass(frozen=True)
class ToolPlayed(Event):
    """A Tool card played on a Tool turn; ``target`` is the public wording of its targets."""

    seat: int
    tool: Tool
    target: str
    pay: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} plays {self.tool.name}{self.target}{_paid(self.pay)}."


@dataclass(frozen=True)
class Reacted(Event):
    """A Connection in the Government answers the latest card (the Tool, or a Connection)."""

    seat: int
    against: int
    pay: tuple[int, ...]
    against_connection: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        what = "Connection" if self.against_connection else "Tool"
        return (f"{names[self.seat]} answers {names[self.against]}'s {what} with a Connection in "
                f"the Government{_paid(self.pay)}.")


@dataclass(frozen=True)
class Declined(Event):
    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} lets it stand."


@dataclass(frozen=True)
class Cancelled(Event):
    """The answers are in: an odd number of Connections cancels the Tool (its cost stays paid;
    it still was its player's Tool turn)."""

    seat: int
    tool: Tool
    connections: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return (f"{names[self.seat]}'s {self.tool.name} is cancelled "
                f"({plural(self.connections, 'Connection')} played).")


@dataclass(frozen=True)
class Looked(Event):
    """Insider Information: the looker reads the face and remembers it."""

    reveals: ClassVar[bool] = True
    seat: int
    where: str
    card: Investment

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if seat == self.seat:
            return f"{names[self.seat]} looks at {self.where}: {self.card.label}."
        return f"{names[self.seat]} looks at {self.where}."


@dataclass(frozen=True)
class Flipped(Event):
    """An Investment card in a portfolio turned over (Press Release, Audit, Cover-Up)."""

    seat: int
    owner: int
    position: int
    card: Investment
    up: bool
    knowers: frozenset[int]

    @property
    def reveals(self) -> bool:  # type: ignore[override]
        return self.up

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        whose = "their own" if self.owner == self.seat else f"{names[self.owner]}'s"
        way = "up" if self.up else "down"
        return (f"{names[self.seat]} turns {whose} card {self.position} face {way}: "
                f"{_face(self.card, self.up, self.knowers, seat)}.")


@dataclass(frozen=True)
class Moved(Event):
    """An Investment card changed portfolios as it lay (Hostile Takeover, Merger)."""

    seat: int
    giver: int
    taker: int
    card: Investment
    up: bool
    knowers: frozenset[int]
    news: bool

    @property
    def reveals(self) -> bool:  # type: ignore[override]
        return self.news

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        face = _face(self.card, self.up, self.knowers, seat)
        if self.taker == self.seat:
            return f"{names[self.seat]} takes {face} from {names[self.giver]}."
        return f"{names[self.seat]} gives {face} to {names[self.taker]}."


@dataclass(frozen=True)
class WrittenOff(Event):
    """Write-Off: an Investment card leaves the game as it lies."""

    seat: int
    card: Investment
    up: bool
    knowers: frozenset[int]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} removes {_face(self.card, self.up, self.knowers, seat)} from the game."


@dataclass(frozen=True)
class Spied(Event):
    """Industrial Espionage: the spy reads the victim's Capital cards."""

    reveals: ClassVar[bool] = True
    seat: int
    victim: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        if seat == self.seat:
            return f"{names[self.seat]} looks at {names[self.victim]}'s Capital cards: {_values(self.values)}."
        return f"{names[self.seat]} looks at {names[self.victim]}'s Capital cards."


@dataclass(frozen=True)
class CapitalTaken(Event):
    """The spy takes one of the victim's Capital cards; only the two of them read which."""

    seat: int
    victim: int
    card: Capital

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        shown = f"a {self.card.value}" if seat in (self.seat, self.victim) else "a Capital card"
        return f"{names[self.seat]} takes {shown} from {names[self.victim]}."


@dataclass(frozen=True)
class CapitalDiscarded(Event):
    """Tax Inspection: the victim's discards (face up on the discard pile)."""

    seat: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} discards {_values(self.values)} for the tax inspection."


@dataclass(frozen=True)
class ToolDiscarded(Event):
    """Venture Fund: a Tool card discarded from the hand (face up)."""

    seat: int
    tool: Tool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return f"{names[self.seat]} discards {self.tool.name}."


@dataclass(frozen=True)
class GameOver(Event):
    """The end: every face-down card is turned up (no bonuses) and the totals compared."""

    reveals: ClassVar[bool] = True
    reason: str
    summary: str
    portfolios: tuple[tuple[Investment, ...], ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        turned = "; ".join(f"{names[s]}: {join_names([c.label for c in cards]) or 'nothing'}"
                           for s, cards in enumerate(self.portfolios))
        return f"{self.reason} Every card is turned up ({turned}). {self.summary}"
