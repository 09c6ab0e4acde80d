"""What every game shares: cards, the GameSpec contract, the Match bus, bots, piles, auctions,
offers and the JSON helpers.

The names below are imported from their modules when first used (PEP 562), so that starting
the app — which needs only the registry and the errors before its first frame — does not pay
for the whole core."""

from __future__ import annotations

from .lazy import lazy_names

__getattr__, __dir__, __all__ = lazy_names(__name__, globals(), {
    "bots": ("Bot", "RandomBot", "bot_levels", "get_bot"),
    "cards": ("ACE", "JACK", "KING", "QUEEN", "RANKS", "SUITS", "Card", "Colour", "Suit", "build_deck",
              "find_card", "parse_card", "parse_cards", "rank_code", "sort_cards"),
    "engine": ("Command", "Event", "GameSpec", "Notation", "Option", "Outcome", "PrivateEvent", "View",
               "chance", "check_awaited", "check_setup", "quick_init", "resolve_options"),
    "errors": ("IllegalCommand", "NotationError", "ReplayError", "RulesError", "SaveFormatError",
               "SnapshotMismatch"),
    "match": ("FORMAT_VERSION", "Match", "Played", "Seat", "Update"),
    "replay": ("Replay", "ScoreSeries"),
})
