"""What happens in Capital Auction, as each seat's log tells it.

A card's face is written only for the seats that may know it: everyone when it lies face up,
else the seats in ``knowers`` (its owner, whoever looked at it). Capital hands and draws are
told to their owner only; the others read how many cards moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence

from rules.core import Event
from rules.core.words import Sentence, join_names, player, plural, say

from .cards import CARDS, Capital, Investment, Tool, values_of
from .commands import Play


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


def _card_of(names: Sequence[str], actor: int, owner: int, position: int) -> Sentence:
    """``their own card 2`` or ``Bob's card 2``."""
    if owner == actor:
        return say("their own card {}", position)
    return say("{}'s card {}", player(names, owner), position)


def targets(play: Play, seat: int, names: Sequence[str]) -> Sentence:
    """The public words for a Tool's targets, as the log writes them after its name: " on
    Bob's card 2", " on 3a", " on their own card 1", " on Bob", ", giving … to Bob …"."""
    if CARDS.has_tool(play.tool) and CARDS.tool(play.tool).effect == "merger" and play.player is not None:
        other = player(names, play.player)
        take = say(" for {}'s card {}", other, play.card) if play.card else " (nothing to take back)"
        return say(", giving their card {} to {}{}", play.own, other, take)
    if play.own:
        return say(" on their own card {}", play.own)
    if play.player is not None:
        if play.card:
            return say(" on {}", _card_of(names, seat, play.player, play.card))
        return say(" on {}", player(names, play.player))
    return Sentence(f" on {play.lot}" if play.lot else "")


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
        return Sentence(f"Round {self.round} begins. On the table: {'; '.join(parts) or 'nothing'}.")


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
        return say("{} draws {}{}.", player(names, self.seat), what, why)


@dataclass(frozen=True)
class Reshuffled(Event):
    """A deck ran out: its discard pile is shuffled into a new deck."""

    reveals: ClassVar[bool] = True
    deck: str
    size: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return Sentence(f"The {self.deck} deck is empty: its discard pile is shuffled into a new deck of "
                        f"{self.size}.")


@dataclass(frozen=True)
class AuctionOpened(Event):
    round: int
    auction: int
    starter: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("Round {}, auction {}: {} bids first.", self.round, self.auction, player(names, self.starter))


@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} bids {} ({}).", player(names, self.seat), sum(self.values), " ".join(map(str, self.values)))


@dataclass(frozen=True)
class Passed(Event):
    """A pass: out of the auction for good, or no Tool this Tool phase."""

    seat: int
    tool_phase: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} plays no Tool." if self.tool_phase else "{} passes.", player(names, self.seat))


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
        return say("{} wins auction {} with {}, discards {} and takes {}.", player(names, self.seat),
                   self.auction, sum(self.paid), _values(self.paid), join_names(cards) if cards else "nothing")


@dataclass(frozen=True)
class NobodyBid(Event):
    """Everybody passed: the auction's cards are discarded as they lie; no Tool phase."""

    auction: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return Sentence(f"Nobody bids in auction {self.auction}: its cards are discarded and there is no "
                        "Tool phase.")


@dataclass(frozen=True)
class LotFlipped(Event):
    """A face-down card on the table is turned face up (after auction 2, or Public Offering)."""

    reveals: ClassVar[bool] = True
    seat: int
    lot: str
    card: Investment

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} turns {} face up: {}.", player(names, self.seat), self.lot, self.card.label)


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
            parts.append(say("{} from {}", shown, player(names, victim)))
        return say("{} takes {} at random.", player(names, self.seat), join_names(parts) if parts else "nothing")


@dataclass(frozen=True)
class ToolPlayed(Event):
    """A Tool card played on a Tool turn, on the targets ``play`` names, paying ``pay``."""

    seat: int
    tool: Tool
    play: Play
    pay: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} plays {}{}{}.", player(names, self.seat), self.tool.name,
                   targets(self.play, self.seat, names), _paid(self.pay))


@dataclass(frozen=True)
class Reacted(Event):
    """A Connection in the Government answers the latest card (the Tool, or a Connection)."""

    seat: int
    against: int
    pay: tuple[int, ...]
    against_connection: bool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        what = "Connection" if self.against_connection else "Tool"
        return say("{} answers {}'s {} with a Connection in the Government{}.", player(names, self.seat),
                   player(names, self.against), what, _paid(self.pay))


@dataclass(frozen=True)
class Declined(Event):
    seat: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} lets it stand.", player(names, self.seat))


@dataclass(frozen=True)
class Cancelled(Event):
    """The answers are in: an odd number of Connections cancels the Tool (its cost stays paid;
    it still was its player's Tool turn)."""

    seat: int
    tool: Tool
    connections: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{}'s {} is cancelled ({} played).", player(names, self.seat), self.tool.name,
                   plural(self.connections, "Connection"))


@dataclass(frozen=True)
class Looked(Event):
    """Insider Information: the looker reads the face and remembers it. The card lies on the
    table (``lot``) or in ``owner``'s portfolio at ``position``; ``news`` is False when the
    looker knew it already (their own card, one they had seen)."""

    seat: int
    card: Investment
    lot: str = ""
    owner: int | None = None
    position: int = 0
    news: bool = True

    @property
    def reveals(self) -> bool:  # type: ignore[override]
        return self.news

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        where = (Sentence(self.lot) if self.owner is None
                 else _card_of(names, self.seat, self.owner, self.position))
        if seat == self.seat:
            return say("{} looks at {}: {}.", player(names, self.seat), where, self.card.label)
        return say("{} looks at {}.", player(names, self.seat), where)


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
        way = "up" if self.up else "down"
        return say("{} turns {} face {}: {}.", player(names, self.seat),
                   _card_of(names, self.seat, self.owner, self.position), way,
                   _face(self.card, self.up, self.knowers, seat))


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
            return say("{} takes {} from {}.", player(names, self.seat), face, player(names, self.giver))
        return say("{} gives {} to {}.", player(names, self.seat), face, player(names, self.taker))


@dataclass(frozen=True)
class WrittenOff(Event):
    """Write-Off: an Investment card leaves the game as it lies."""

    seat: int
    card: Investment
    up: bool
    knowers: frozenset[int]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} removes {} from the game.", player(names, self.seat),
                   _face(self.card, self.up, self.knowers, seat))


@dataclass(frozen=True)
class Spied(Event):
    """Industrial Espionage: the spy reads the victim's Capital cards."""

    reveals: ClassVar[bool] = True
    seat: int
    victim: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        looks = say("{} looks at {}'s Capital cards", player(names, self.seat), player(names, self.victim))
        if seat == self.seat:
            return say("{}: {}.", looks, _values(self.values))
        return looks + "."


@dataclass(frozen=True)
class CapitalTaken(Event):
    """The spy takes one of the victim's Capital cards; only the two of them read which."""

    seat: int
    victim: int
    card: Capital

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        shown = f"a {self.card.value}" if seat in (self.seat, self.victim) else "a Capital card"
        return say("{} takes {} from {}.", player(names, self.seat), shown, player(names, self.victim))


@dataclass(frozen=True)
class CapitalDiscarded(Event):
    """Tax Inspection: the victim's discards (face up on the discard pile)."""

    seat: int
    values: tuple[int, ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} discards {} for the tax inspection.", player(names, self.seat), _values(self.values))


@dataclass(frozen=True)
class ToolDiscarded(Event):
    """Venture Fund: a Tool card discarded from the hand (face up)."""

    seat: int
    tool: Tool

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} discards {}.", player(names, self.seat), self.tool.name)


@dataclass(frozen=True)
class GameOver(Event):
    """The end: every face-down card is turned up (no bonuses) and the totals compared.
    ``reason`` and ``summary`` are Sentences (their players kept as parts)."""

    reveals: ClassVar[bool] = True
    reason: str
    summary: str
    portfolios: tuple[tuple[Investment, ...], ...]

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        turned = Sentence("; ").join(
            say("{}: {}", player(names, s), join_names([c.label for c in cards]) if cards else "nothing")
            for s, cards in enumerate(self.portfolios))
        return say("{} Every card is turned up ({}). {}", self.reason, turned, self.summary)
