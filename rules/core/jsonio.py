"""Reading and writing positions as plain JSON: cards by their notation, strict readers.

A position file is written by hand as often as by the program, so every reader says what is
wrong in words (``RulesError``) instead of failing somewhere deep with a TypeError.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, Iterable, Mapping

from .cards import Card, parse_card
from .errors import NotationError, RulesError


def card_keys(cards: Iterable[Card]) -> list[str]:
    """Cards as notation, physical copies included: ``["7S", "7S.1"]``."""
    return [card.key for card in cards]


def read_card(value: Any, what: str = "a card") -> Card:
    if not isinstance(value, str):
        raise RulesError(f"{what} must be written as text such as \"7S\", not {value!r}")
    try:
        return parse_card(value)
    except NotationError as error:
        raise RulesError(f"{what}: {error}") from None


def read_cards(values: Any, what: str = "cards") -> list[Card]:
    if not isinstance(values, (list, tuple)):
        raise RulesError(f"{what} must be a list of cards such as [\"7S\", \"QH\"]")
    return [read_card(value, what) for value in values]


def read_card_or_none(value: Any, what: str = "a card") -> Card | None:
    return None if value is None else read_card(value, what)


def read_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number from JSON (an int, or a float with no fraction), within bounds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesError(f"{what} must be a whole number, not {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise RulesError(f"{what} must be a whole number, not {value!r}")
        value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low}" if high is None else f"up to {high}" if low is None else f"from {low} to {high}"
        raise RulesError(f"{what} must be a whole number {bounds}, not {value}")
    return value


def read_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"{what} must be true or false, not {value!r}")
    return value


def read_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise RulesError(f"{what} must be text, not {value!r}")
    return value


def read_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"{what} must be a list, not {type(value).__name__}")
    return list(value)


def read_object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(f"{what} must be an object {{…}}, not {type(value).__name__}")
    return value


def require(data: Mapping[str, Any], key: str, what: str) -> Any:
    """``data[key]``, or a RulesError naming the missing field."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{what} must be a JSON object")
    if key not in data:
        raise RulesError(f"{what} has no {key!r}")
    return data[key]


def to_plain(value: Any) -> Any:
    """Any value of a view, an outcome or an event as plain JSON, one way for every game (what a
    program at a seat reads): a card — anything with a text ``key`` property, the core's
    ``Card`` and a game's own — as its key in notation (``7S``, ``7S.1``, ``audit.2``); an enum
    as its value; a dataclass as an object of its public fields; a mapping as an object (keys as
    text); a list or tuple as a list, a set as a sorted list; a Sentence as its text; a number
    JSON cannot hold (nan, infinity) as null. Never a game's state: the caller passes a view."""
    if value is None or isinstance(value, (bool, int, str)):
        return str.__str__(value) if isinstance(value, str) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(getattr(type(value), "key", None), property) and isinstance(value.key, str):
        return value.key
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in fields(value) if not f.name.startswith("_")}
    if isinstance(value, Mapping):
        return {_plain_key(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_plain(item) for item in value), key=_order)
    raise TypeError(f"{type(value).__name__} has no plain JSON form")


def _plain_key(key: Any) -> str:
    plain = to_plain(key)
    return plain if isinstance(plain, str) else json.dumps(plain)


def _order(item: Any) -> tuple[int, float, str]:
    """Numbers by value before anything else by its JSON text: a set always lists the same."""
    if isinstance(item, (int, float)) and not isinstance(item, bool):
        return (0, item, "")
    return (1, 0.0, json.dumps(item, sort_keys=True))
