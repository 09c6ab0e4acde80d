"""Bots: the protocol, the RandomBot every game gets, and the registry of bot levels."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .engine import Command
from .errors import RulesError


class Bot(Protocol):
    """A seat's automatic player. ``choose`` must not change ``state``, must base its choice only
    on what ``spec.view(state, seat)`` shows that seat (it may call legal/check/apply on a copy),
    and must draw any randomness from ``rng`` so that a game replays exactly."""

    def choose(self, spec: Any, state: Any, seat: int, rng: random.Random) -> Command: ...


class RandomBot:
    """Plays a uniformly random legal command: the baseline every game's bot must beat."""

    def choose(self, spec: Any, state: Any, seat: int, rng: random.Random) -> Command:
        return rng.choice(spec.legal(state))


RANDOM = "random"


def bot_levels(spec: Any) -> dict[str, Bot]:
    """Every bot level a game offers, its own first, then ``random``."""
    return {**spec.bots, RANDOM: RandomBot()}


def get_bot(spec: Any, level: str) -> Bot:
    levels = bot_levels(spec)
    try:
        return levels[level]
    except KeyError:
        raise RulesError(
            f"unknown bot level {level!r}; {spec.title} has: {', '.join(levels)}"
        ) from None
