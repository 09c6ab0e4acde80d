"""Bots: the registry of bot levels (the protocol and the RandomBot are in baseline.py): a game's
own bots, then ``random`` and ``expert`` (the search of rules/core/search.py), which every game
gets from the core."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from .baseline import RANDOM, Bot, RandomBot
from .errors import RulesError
from .search import EXPERT, ExpertBot

_RANDOM = RandomBot()
_EXPERTS: WeakKeyDictionary[Any, ExpertBot] = WeakKeyDictionary()


def expert(spec: Any) -> ExpertBot:
    """The game's ``expert`` (one per game, made when first asked for)."""
    bot = _EXPERTS.get(spec)
    if bot is None:
        bot = _EXPERTS[spec] = ExpertBot(spec)
    return bot


def bot_levels(spec: Any) -> dict[str, Bot]:
    """Every bot level a game offers: its own first, then ``random`` and ``expert``."""
    return {**spec.bots, RANDOM: _RANDOM, EXPERT: expert(spec)}


def kind_of(level: str | None, best: str = "bot") -> str:
    """A seat's kind as every screen and list writes it, one name each: "" for a human, "bot"
    for the game's own bot, "bot: LEVEL" for any other level ("bot: expert", "bot: random")."""
    if level is None:
        return ""
    return "bot" if level == best else f"bot: {level}"


def seat_name(name: str, level: str | None, best: str = "bot") -> str:
    """"Ann", "Cleo (bot)", "Dan (bot: random)", "Eve (bot: expert)"."""
    kind = kind_of(level, best)
    return f"{name} ({kind})" if kind else name


def get_bot(spec: Any, level: str) -> Bot:
    levels = bot_levels(spec)
    try:
        return levels[level]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown bot level {level!r}; {spec.title} has: {', '.join(levels)}"
        ) from None
