"""The bot protocol and the random baseline every game gets: what the expert's search plays its
playouts with, below the registry of every level (rules/core/bots.py), which adds the expert."""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence

from .engine import Command, View


class Bot(Protocol):
    """A seat's automatic player. It is given exactly what a human in its seat would have: the
    seat's view and its legal commands. It may return a command not in ``legal`` when the game
    lists only the useful ones (``check`` is the authority), and must draw any randomness from
    ``rng`` so that a game replays exactly."""

    def choose(self, view: View, legal: Sequence[Command], rng: random.Random) -> Command: ...

    # Optional: ``reads_view = False`` for a bot that never looks at its view (it is given None),
    # and ``chooses_listed = True`` for one whose choice always equals a command of ``legal``
    # (the expert's search then has the game apply it unchecked: ``listed``, rules/core/engine.py);
    # ``playout``, the bot a search plays out with in its place, for a bot that searches itself
    # (Capital Auction's): ``played_out``; ``plays_forced = True`` for one that, given a single
    # legal command, plays it and draws nothing from ``rng`` (the search then neither asks it
    # nor builds its view).


class RandomBot:
    """Plays a uniformly random legal command: the baseline every game's bot must beat."""

    reads_view = False  # so headless simulations need not build a view it never looks at
    chooses_listed = True

    def choose(self, view: View, legal: Sequence[Command], rng: random.Random) -> Command:
        return rng.choice(legal)


RANDOM = "random"


def played_out(bot: Bot) -> Bot:
    """The bot that plays in ``bot``'s place in a search's playouts (and wherever a position is
    to be reached quickly, as a bot would): itself, or the ``playout`` it names when it searches
    itself, so that no search runs inside a search."""
    return getattr(bot, "playout", bot)


def own_bot(spec: Any, level: str) -> Bot:
    """The game's own bot of ``level``, or the random baseline; KeyError for any other level."""
    if level == RANDOM:
        return RandomBot()
    return spec.bots[level]
