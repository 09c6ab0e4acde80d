"""Capital Auction's three decks, read from the card set in ``cards.toml``.

The rulebook has no card list, so the project ships its own set as data: ``cards.toml`` (package
data) gives every card's value, count, cost and effect, and a publisher's list can replace it
without touching the code. The code knows the *effects* (``EFFECTS``); the file says which card
has which, at what cost, how many of them.

Every physical card has its own identity in the state: a kind and a copy number, written
``5``/``5.3`` (Capital: its value), ``audit``/``audit.2`` (Tool: its key) and
``steel-works``/``steel-works.1`` (Investment: its key). Copies of a kind are interchangeable
for the rules; the notation names Capital by value and Tools by key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from operator import attrgetter
from typing import Any, Iterable, Mapping

from rules.core import RulesError

CONNECTION = "connection"
EFFECTS = ("connection", "insider", "press", "audit", "cover-up", "takeover", "merger",
           "write-off", "draw-capital", "tax", "espionage", "offering", "venture")
"""The Tool effects the rules know; every Tool in the card set names one of them."""


def _key(kind: str | int, copy: int) -> str:
    return f"{kind}" if copy == 0 else f"{kind}.{copy}"


def _split(text: Any, what: str) -> tuple[str, int]:
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"{what} must be written as text such as \"5\" or \"5.1\", not {text!r}")
    kind, dot, copy = text.strip().partition(".")
    if dot and not (copy.isascii() and copy.isdigit() and len(copy) <= 3):
        raise RulesError(f"{what} {text!r}: the copy number after '.' must be a number")
    return kind, int(copy) if dot else 0


@dataclass(frozen=True, order=True)
class _Copy:
    """One physical card: its kind and its copy number (copies are alike to the rules)."""

    kind: Any
    copy: int = 0

    @property
    def key(self) -> str:
        return _key(self.kind, self.copy)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r})"


@dataclass(frozen=True, order=True, repr=False)
class Capital(_Copy):
    """One Capital card: its value (1–6 in the project's set) and its copy number."""

    @property
    def value(self) -> int:
        return self.kind


@dataclass(frozen=True, order=True, repr=False)
class Tool(_Copy):
    """One Tool card: its kind (the card set's key, e.g. ``audit``) and its copy number."""

    @property
    def info(self) -> ToolKind:
        return CARDS.tool(self.kind)

    @property
    def name(self) -> str:
        return self.info.name


@dataclass(frozen=True, order=True, repr=False)
class Investment(_Copy):
    """One Investment card: its kind (e.g. ``steel-works``) and its copy number."""

    @property
    def info(self) -> InvestmentKind:
        return CARDS.investment(self.kind)

    @property
    def value(self) -> int:
        return self.info.value

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def label(self) -> str:
        """How a sentence names it: ``Steel Works (6)``."""
        return f"{self.info.name} ({self.info.value})"


@dataclass(frozen=True)
class Bonus:
    """What a face-up Investment gives: Capital and Tool cards drawn, and Capital cards taken
    at random from each opponent."""

    capital: int
    tools: int
    steal: int

    def __bool__(self) -> bool:
        return bool(self.capital or self.tools or self.steal)

    def describe(self) -> str:
        parts = []
        if self.capital:
            parts.append(f"draw {self.capital} Capital card{'s' if self.capital != 1 else ''}")
        if self.tools:
            parts.append(f"draw {self.tools} Tool card{'s' if self.tools != 1 else ''}")
        if self.steal:
            parts.append(f"take {self.steal} random Capital card{'s' if self.steal != 1 else ''} "
                         "from each opponent")
        return " and ".join(parts) or "no bonus"


@dataclass(frozen=True)
class InvestmentKind:
    key: str
    name: str
    value: int
    count: int
    bonus: Bonus


@dataclass(frozen=True)
class ToolKind:
    key: str
    name: str
    effect: str
    cost: int
    count: int
    amount: int
    text: str


@dataclass(frozen=True)
class CardSet:
    """The three decks' contents, as the data file gives them."""

    capital: Mapping[int, int]  # value → count
    investments: tuple[InvestmentKind, ...]
    tools: tuple[ToolKind, ...]

    @cached_property
    def _investments(self) -> dict[str, InvestmentKind]:
        return {kind.key: kind for kind in self.investments}

    @cached_property
    def _tools(self) -> dict[str, ToolKind]:
        return {kind.key: kind for kind in self.tools}

    def investment(self, key: str) -> InvestmentKind:
        try:
            return self._investments[key]
        except KeyError:
            raise RulesError(f"{key!r} is not an Investment card of this set") from None

    def tool(self, key: str) -> ToolKind:
        try:
            return self._tools[key]
        except KeyError:
            raise RulesError(f"{key!r} is not a Tool card of this set") from None

    def has_tool(self, key: str) -> bool:
        return key in self._tools

    # each deck is made once and shared: cards are immutable, and every game deals all three
    def capital_deck(self) -> list[Capital]:
        return list(self._capital_deck)

    def investment_deck(self) -> list[Investment]:
        return list(self._investment_deck)

    def tool_deck(self) -> list[Tool]:
        return list(self._tool_deck)

    @cached_property
    def _capital_deck(self) -> tuple[Capital, ...]:
        return tuple(Capital(value, copy) for value, count in sorted(self.capital.items()) for copy in range(count))

    @cached_property
    def _investment_deck(self) -> tuple[Investment, ...]:
        return tuple(Investment(kind.key, copy) for kind in self.investments for copy in range(kind.count))

    @cached_property
    def _tool_deck(self) -> tuple[Tool, ...]:
        return tuple(Tool(kind.key, copy) for kind in self.tools for copy in range(kind.count))

    @cached_property
    def capital_values(self) -> tuple[int, ...]:
        return tuple(sorted(self.capital))

    # -- reading cards back from their keys ------------------------------------------------------
    def read_capital(self, text: Any, what: str = "a Capital card") -> Capital:
        kind, copy = _split(text, what)
        if not (kind.isascii() and kind.isdigit()) or int(kind) not in self.capital:
            values = ", ".join(map(str, self.capital_values))
            raise RulesError(f"{what} {text!r} is not a Capital card (the values are {values})")
        value = int(kind)
        if copy >= self.capital[value]:
            raise RulesError(f"{what} {text!r}: there are only {self.capital[value]} Capital cards of {value}")
        return Capital(value, copy)

    def read_tool(self, text: Any, what: str = "a Tool card") -> Tool:
        kind, copy = _split(text, what)
        info = self.tool(kind)
        if copy >= info.count:
            raise RulesError(f"{what} {text!r}: there are only {info.count} {info.name} cards")
        return Tool(kind, copy)

    def read_investment(self, text: Any, what: str = "an Investment card") -> Investment:
        kind, copy = _split(text, what)
        info = self.investment(kind)
        if copy >= info.count:
            raise RulesError(f"{what} {text!r}: there are only {info.count} {info.name} cards")
        return Investment(kind, copy)


def _int(table: Mapping[str, Any], key: str, what: str, low: int | None = None, default: int | None = None) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low):
        bound = "" if low is None else f" of at least {low}"
        raise RulesError(f"the card set: {what} needs a whole number {key!r}{bound}, not {value!r}")
    return value


def _text(table: Mapping[str, Any], key: str, what: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if value == default == "":
        return ""  # optional text left out
    if not isinstance(value, str) or not value.strip():
        raise RulesError(f"the card set: {what} needs a text {key!r}")
    return value


def _word(table: Mapping[str, Any], what: str) -> str:
    key = _text(table, "key", what)
    if not (key.isascii() and key.replace("-", "").isalnum() and key.islower() and not key.isdigit()):
        raise RulesError(f"the card set: {what}'s key {key!r} must be lower-case letters, digits and '-'")
    return key


def _tables(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    tables = data.get(key)
    if not isinstance(tables, list) or not tables or not all(isinstance(t, Mapping) for t in tables):
        raise RulesError(f"the card set needs a list of [[{key}]] tables")
    return tables


def read_card_set(data: Mapping[str, Any]) -> CardSet:
    """A card set from the parsed TOML; raises RulesError saying what is wrong."""
    capital: dict[int, int] = {}
    for table in _tables(data, "capital"):
        value = _int(table, "value", "a Capital card", 1)
        if value in capital:
            raise RulesError(f"the card set lists Capital value {value} twice")
        capital[value] = _int(table, "count", f"Capital value {value}", 1)
    investments = []
    for table in _tables(data, "investment"):
        key = _word(table, "an Investment card")
        bonus = table.get("bonus", {})
        if not isinstance(bonus, Mapping) or set(bonus) - {"capital", "tools", "steal"}:
            raise RulesError(f"the card set: {key}'s bonus may only name capital, tools and steal")
        investments.append(InvestmentKind(
            key, _text(table, "name", key), _int(table, "value", key), _int(table, "count", key, 1),
            Bonus(*(_int(bonus, part, f"{key}'s bonus", 0, 0) for part in ("capital", "tools", "steal")))))
    tools = []
    for table in _tables(data, "tool"):
        key = _word(table, "a Tool card")
        effect = _text(table, "effect", key)
        if effect not in EFFECTS:
            raise RulesError(f"the card set: {key}'s effect {effect!r} is not one of {', '.join(EFFECTS)}")
        tools.append(ToolKind(key, _text(table, "name", key), effect, _int(table, "cost", key, 0),
                              _int(table, "count", key, 1), _int(table, "amount", key, 0, 0),
                              _text(table, "text", key, "")))
    for kinds, what in ((investments, "Investment"), (tools, "Tool")):
        keys = [kind.key for kind in kinds]
        if len(set(keys)) != len(keys):
            raise RulesError(f"the card set lists an {what} key twice")
    if not any(tool.effect == CONNECTION for tool in tools):
        raise RulesError("the card set needs a Tool with the connection effect")
    return CardSet(capital, tuple(investments), tuple(tools))


def load_card_set(text: str | None = None) -> CardSet:
    """The card set from TOML text, or from the package's ``cards.toml``."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"the card set is not valid TOML: {error}") from None
    return read_card_set(data)


CARDS = load_card_set()
"""The card set the game plays with."""


_VALUE = attrgetter("kind")  # a Capital card's value, read in C (bids are totalled at every command)
_COPY = attrgetter("copy")


def by_value(cards: Iterable[Capital]) -> list[Capital]:
    """Capital cards highest value first (then copy), as a hand shows them."""
    # by copy, then by value highest first: a reversed sort keeps equal values in copy order
    # (two sorts in C: every view of the expert's playouts shows a hand)
    return sorted(sorted(cards, key=_COPY), key=_VALUE, reverse=True)


def values_of(cards: Iterable[Capital]) -> tuple[int, ...]:
    """The values of Capital cards, highest first: ``(5, 3, 1)``."""
    return tuple(sorted(map(_VALUE, cards), reverse=True))


def total(cards: Iterable[Capital]) -> int:
    return sum(map(_VALUE, cards))


__all__ = [
    "CARDS", "CONNECTION", "EFFECTS", "Bonus", "CardSet", "Capital", "Investment", "InvestmentKind",
    "Tool", "ToolKind", "by_value", "load_card_set", "read_card_set", "total", "values_of",
]
