"""What every game shares: cards, the GameSpec contract, the Match bus, bots, piles, auctions,
offers and the JSON helpers."""

from .bots import Bot, RandomBot, bot_levels, get_bot
from .cards import (
    ACE, JACK, KING, QUEEN, RANKS, SUITS, Card, Colour, Suit, build_deck, find_card, parse_card,
    parse_cards, rank_code, sort_cards,
)
from .engine import (
    Command, Event, GameSpec, Notation, Option, Outcome, PrivateEvent, View, chance,
    check_awaited, check_setup, resolve_options,
)
from .errors import IllegalCommand, NotationError, ReplayError, RulesError, SaveFormatError
from .match import FORMAT_VERSION, Match, Played, Seat, Update

__all__ = [
    "ACE", "JACK", "KING", "QUEEN", "RANKS", "SUITS", "Bot", "Card", "Colour", "Command", "Event",
    "FORMAT_VERSION", "GameSpec", "IllegalCommand", "Match", "Notation", "NotationError", "Option",
    "Outcome", "Played", "PrivateEvent", "RandomBot", "ReplayError", "RulesError",
    "SaveFormatError", "Seat", "Suit", "Update", "View", "bot_levels", "build_deck", "chance",
    "check_awaited", "check_setup", "find_card", "get_bot", "parse_card", "parse_cards",
    "rank_code", "resolve_options", "sort_cards",
]
