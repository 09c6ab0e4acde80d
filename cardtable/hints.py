"""Hints: the expert's three best commands for the seat to act, with its chance of winning by each.

A hint is worked out from what the table gives a bot and nothing more: the seat's view and its
legal commands (``match.view(seat)``, ``match.legal(seat)``); the hidden cards are dealt afresh by
the game's ``sample`` on every deal of the expert's race (``rules.core.search.weigh``). It never
reads a game's state, so it cannot use a card the seat has not seen.

It thinks in rounds: each round is a race of its own on fresh deals (its random numbers drawn
from the hint's seed and the round's number), and a command's chance is its mean share of the
win over every deal of every round so far. So the first answer comes after the first, short round
and each round after it makes the answer surer, while a hint closed half-way costs at most one
round of thinking more (a race cannot be interrupted in the middle). With an iteration budget
per round (tests, the snapshot) the answers are a pure function of the view, the legal commands
and the seed.

Nothing here imports textual: the panel (cardtable/widgets/hint_panel.py) runs ``think`` in a
worker thread and shows each answer as it comes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from rules.core import Command, View
from rules.core.search import settings_for, weigh

SHOWN = 3
"""How many commands a hint shows."""


@dataclass(frozen=True)
class Round:
    """One round's budget: wall-clock ``seconds``, or (tests) an ``iterations`` cap."""

    seconds: float | None = None
    iterations: int | None = None


ROUNDS: tuple[Round, ...] = (Round(0.15), Round(0.35), *[Round(1.0)] * 8)
"""At the table: a first answer within a fifth of a second, then a second's thinking a round,
some eight and a half seconds in all; a round of one second bounds what a closed hint still
costs the machine."""


@dataclass(frozen=True)
class Choice:
    """A command the hint weighed: its notation, the seat's chance of winning by it (0–100) and
    the deals it was tried on."""

    command: Command
    text: str
    chance: float
    deals: int


@dataclass(frozen=True)
class Answer:
    """The hint after ``round`` rounds (of ``rounds``): the best commands, best first."""

    choices: tuple[Choice, ...]
    round: int
    rounds: int
    deals: int

    @property
    def done(self) -> bool:
        return self.round >= self.rounds


def think(spec: Any, view: View, legal: Sequence[Command], format: Callable[[Command], str], seed: int | str,
          rounds: Sequence[Round] = ROUNDS) -> Iterator[Answer]:
    """The hint for the seat of ``view`` (its legal commands ``legal``), one Answer per round.
    A single legal command is answered at once, with no chance (there is nothing to weigh)."""
    legal = list(legal)
    if not legal:
        return
    if len(legal) == 1:
        yield Answer((Choice(legal[0], format(legal[0]), -1.0, 0),), 1, 1, 0)
        return
    totals: dict[Command, list[float]] = {}  # command → [reward sum, deals]
    order: list[Command] = []  # first seen first: ties keep the expert's order
    for number, budget in enumerate(rounds, 1):
        settings = settings_for(spec, seconds=budget.seconds, iterations=budget.iterations)
        rng = random.Random(f"hint/{seed}/{number}")
        for weighed in weigh(spec, view, legal, (), rng, settings):
            total = totals.get(weighed.command)
            if total is None:
                total = totals[weighed.command] = [0.0, 0]
                order.append(weighed.command)
            total[0] += sum(weighed.rewards)
            total[1] += len(weighed.rewards)
        yield Answer(_best(totals, order, format), number, len(rounds),
                     max((deals for _sum, deals in totals.values()), default=0))


def _best(totals: dict[Command, list[float]], order: Sequence[Command],
          format: Callable[[Command], str]) -> tuple[Choice, ...]:
    tried = [command for command in order if totals[command][1]]
    ranked = sorted(tried, key=lambda command: -totals[command][0] / totals[command][1])  # stable
    return tuple(Choice(command, format(command), 100.0 * totals[command][0] / totals[command][1],
                        int(totals[command][1])) for command in ranked[:SHOWN])


__all__ = ["Answer", "Choice", "ROUNDS", "Round", "SHOWN", "think"]
