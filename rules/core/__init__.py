"""What every game shares: cards, the GameSpec contract, the Match bus, bots, piles, auctions,
offers and the JSON helpers.

The names below are imported from their modules when first used (PEP 562), so that starting
the app — which needs only the registry and the errors before its first frame — does not pay
for the whole core."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_FROM = {
    "bots": ("Bot", "RandomBot", "bot_levels", "get_bot"),
    "cards": ("ACE", "JACK", "KING", "QUEEN", "RANKS", "SUITS", "Card", "Colour", "Suit", "build_deck",
              "find_card", "parse_card", "parse_cards", "rank_code", "sort_cards"),
    "engine": ("Command", "Event", "GameSpec", "Notation", "Option", "Outcome", "PrivateEvent", "View",
               "chance", "check_awaited", "check_setup", "resolve_options"),
    "errors": ("IllegalCommand", "NotationError", "ReplayError", "RulesError", "SaveFormatError",
               "SnapshotMismatch"),
    "match": ("FORMAT_VERSION", "Match", "Played", "Seat", "Update"),
    "replay": ("Replay", "ScoreSeries"),
}
_MODULE_OF = {name: module for module, names in _FROM.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
