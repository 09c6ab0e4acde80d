"""Offers: an exchange between two seats — cards, named holdings (a portfolio ``P3``) and money
each way — proposed by one and accepted or declined by the other.

The notation every game shares::

    offer 2: give 5H,$4 take P3        the proposer gives 5H and $4 to seat 2, and takes P3
    offer Bob: give 5H,$4 take P3      (typed: the player named, in any case, quoted if need be)
    offer: give 7H take 2S,$5          (two players: the player may be left out)
    accept                             decline

Either side may be left out or written ``nothing``. Saved offers name the player by seat number
from 1 (``rules.core.notation``); a person may type the name instead. The game decides which
physical cards a side means and whether it can be done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .cards import Card, parse_card
from .engine import Command, Event
from .errors import IllegalCommand, NotationError, RulesError
from .jsonio import card_keys, read_cards, read_int, read_list, read_str
from .notation import read_player_text, seat_word
from .words import Sentence, dollars, player, say

EXAMPLE = "offer 2: give 5H,$4 take P3"


@dataclass(frozen=True)
class Side:
    """What one side of a deal hands over."""

    cards: tuple[Card, ...] = ()
    holdings: tuple[str, ...] = ()
    money: int = 0

    @property
    def empty(self) -> bool:
        return not (self.cards or self.holdings or self.money)

    def items(self) -> list[Sentence]:
        """The items as the log reads them: ``["5♥", "P3", "$4"]`` (cards and money as parts)."""
        return ([Sentence(card) for card in self.cards] + [Sentence(h) for h in self.holdings]
                + ([dollars(self.money)] if self.money else []))

    def describe(self) -> Sentence:
        """``5♥, P3 and $4``, or ``nothing``."""
        items = self.items()
        if not items:
            return Sentence("nothing")
        if len(items) == 1:
            return items[0]
        return Sentence(Sentence(", ").join(items[:-1]), " and ", items[-1])

    def notation(self) -> str:
        """``5H,P3,$4``."""
        return ",".join(card_keys(self.cards) + list(self.holdings) + ([f"${self.money}"] if self.money else []))

    def to_json(self, prefix: str) -> dict[str, Any]:
        return {f"{prefix}_cards": card_keys(self.cards), f"{prefix}_portfolios": list(self.holdings),
                f"{prefix}_money": self.money}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], prefix: str) -> Side:
        holdings = read_list(data.get(f"{prefix}_portfolios", []), f"{prefix}_portfolios")
        return cls(tuple(read_cards(data.get(f"{prefix}_cards", []), f"{prefix}_cards")),
                   tuple(read_str(h, f"{prefix}_portfolios") for h in holdings),
                   read_int(data.get(f"{prefix}_money", 0), f"{prefix}_money", 0))


@dataclass(frozen=True)
class Offer(Command):
    """Propose a deal to the player in seat ``to`` (None: the only other player, at a table of
    two): the proposer gives ``give`` and takes ``take``. Cards taken are faces as named (copy 0
    means any copy): the proposer cannot see the other hand, so the physical copy is chosen
    when the deal is accepted."""

    to: int | None
    give: Side = field(default_factory=Side)
    take: Side = field(default_factory=Side)

    def __hash__(self) -> int:
        # the dataclass's hash, kept once worked out: a legal list's offers are looked up in
        # the expert's tree at every iteration, and each hash reads every card of both sides
        known = self.__dict__.get("_hash")
        if known is None:
            known = hash((self.to, self.give, self.take))
            object.__setattr__(self, "_hash", known)
        return known

    def __getstate__(self) -> dict[str, Any]:
        # a hash holds only in the process that worked it out (strings' hashes are salted)
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}


@dataclass(frozen=True)
class Accept(Command):
    """The responder accepts the pending offer; the deal happens at once."""


@dataclass(frozen=True)
class Decline(Command):
    """The responder declines the pending offer; nothing changes hands."""


@dataclass(frozen=True)
class Deal:
    """A pending offer: ``proposer`` gives ``give`` to ``responder`` and takes ``take``."""

    proposer: int
    responder: int
    give: Side = field(default_factory=Side)
    take: Side = field(default_factory=Side)

    def to_json(self) -> dict[str, Any]:
        return {"proposer": self.proposer, "responder": self.responder,
                **self.give.to_json("give"), **self.take.to_json("take")}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], players: int) -> Deal:
        if not isinstance(data, Mapping):
            raise RulesError("the pending offer must be an object")
        return cls(read_int(data.get("proposer"), "the offer's proposer", 0, players - 1),
                   read_int(data.get("responder"), "the offer's responder", 0, players - 1),
                   Side.from_json(data, "give"), Side.from_json(data, "take"))


# -- events ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Offered(Event):
    proposer: int
    responder: int
    give: Side
    take: Side

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} offers {} a deal: {} for {}.", player(names, self.proposer),
                   player(names, self.responder), self.give.describe(), self.take.describe())


@dataclass(frozen=True)
class DealDone(Event):
    """An accepted deal as carried out: the physical cards that changed hands."""

    proposer: int
    responder: int
    give: Side
    take: Side

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} accepts: {} gives {} and receives {}.", player(names, self.responder),
                   player(names, self.proposer), self.give.describe(), self.take.describe())


@dataclass(frozen=True)
class DealDeclined(Event):
    proposer: int
    responder: int

    def describe(self, names: Sequence[str], seat: int | None = None) -> str:
        return say("{} declines {}'s offer.", player(names, self.responder), player(names, self.proposer))


# -- notation -------------------------------------------------------------------------------
def format_offer(offer: Offer) -> str:
    text = f"offer {seat_word(offer.to)}:" if offer.to is not None else "offer:"
    give, take = offer.give.notation(), offer.take.notation()
    return text + (f" give {give}" if give else "") + (f" take {take}" if take else "")


def display_offer(offer: Offer, names: Sequence[str]) -> Sentence:
    """An offer as the log shows it: ``offer Bob: give 5♥, $4 take P3`` (the player by name,
    cards and money as parts)."""
    head = say("offer {}:", player(names, offer.to)) if offer.to is not None else Sentence("offer:")
    give = say(" give {}", Sentence(", ").join(offer.give.items())) if not offer.give.empty else ""
    take = say(" take {}", Sentence(", ").join(offer.take.items())) if not offer.take.empty else ""
    return Sentence(head, give, take)


def counterparty(text: str, rest: str, names: Sequence[str], seat: int | None) -> tuple[int | None, str]:
    """The seat named before the colon at the start of ``rest`` (a number from 1, or a name in
    any case, quoted or not; nothing at all at a table of two: None) and the text after it."""
    stripped = rest.lstrip()
    if stripped.startswith(":"):
        if len(names) == 2:
            return None, stripped[1:]
        raise NotationError(f"{text!r}: name the player to offer to, as in '{EXAMPLE}'.")
    who, colon, after = stripped.partition(":")
    if not colon:
        raise NotationError(f"{text!r}: write the player and a colon, as in '{EXAMPLE}'.")
    return read_player_text(text, who, names), after


def responder_of(offer: Offer, seat: int, players: int) -> int:
    """The seat an offer goes to: its ``to``, or the only other player at a table of two; an
    IllegalCommand in words when that cannot be."""
    if offer.to is None:
        if players != 2:
            raise IllegalCommand("Say which player the offer is for.")
        return 1 - seat
    if isinstance(offer.to, bool) or not isinstance(offer.to, int) or not 0 <= offer.to < players:
        raise IllegalCommand(f"There is no player {offer.to!r} at this table.")
    if offer.to == seat:
        raise IllegalCommand("You cannot make a deal with yourself.")
    return offer.to


Holding = Callable[[str], "str | None"]
"""Reads a word as the canonical name of a holding (``p03`` → ``P3``), or None if it is not one."""


def parse_sides(text: str, rest: str, holding: Holding | None = None,
                pick_give: Callable[[Card, list[Card]], Card] | None = None) -> tuple[Side, Side]:
    """The ``give …`` and ``take …`` lists after the colon. ``holding`` reads the names of a
    game's holdings (``P3``); ``pick_give(card, chosen)`` chooses the physical card the proposer
    means (taken cards stay faces)."""
    sides: dict[str, list[str]] = {}
    current: str | None = None
    for word in rest.replace(",", " ").split():
        lowered = word.lower()
        if lowered in ("give", "take"):
            if lowered in sides:
                raise NotationError(f"{text!r}: say '{lowered}' only once.")
            current = lowered
            sides[current] = []
        elif current is None:
            raise NotationError(f"{text!r}: list items after 'give' or 'take', as in '{EXAMPLE}'.")
        elif lowered != "nothing":
            sides[current].append(word)
    give = _side(text, sides.get("give", []), holding, pick_give)
    take = _side(text, sides.get("take", []), holding, None)
    return give, take


def money_amount(text: str, word: str) -> int:
    """``$12`` → 12, or a NotationError in words."""
    digits = word[1:] if word.startswith("$") else word
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise NotationError(f"{text!r}: {word!r} is not a sum of money; write it like '$4'.")
    return int(digits)


def _side(text: str, words: Sequence[str], holding: Holding | None,
          pick: Callable[[Card, list[Card]], Card] | None) -> Side:
    cards: list[Card] = []
    holdings: list[str] = []
    money: int | None = None
    for word in words:
        if word.startswith("$"):
            if money is not None:
                raise NotationError(f"{text!r}: give one sum of money per side, as in '$4'.")
            money = money_amount(text, word)
        elif holding is not None and (name := holding(word)) is not None:
            if name in holdings:
                raise NotationError(f"{text!r}: {name} is named twice.")
            holdings.append(name)
        else:
            card = parse_card(word)
            cards.append(pick(card, cards) if pick is not None else card)
    return Side(tuple(cards), tuple(holdings), money or 0)


__all__ = [
    "Accept", "Deal", "DealDeclined", "DealDone", "Decline", "EXAMPLE", "Offer", "Offered",
    "Side", "counterparty", "display_offer", "format_offer", "money_amount", "parse_sides", "responder_of",
]
