"""Pile, a tiny two-seat game made for testing the bus and the table.

Two players take 1 or 2 from a pile in turn; whoever takes the last one wins. ``mark`` changes
nothing hidden (undoable), ``peek`` draws a random number (a reveal). When the pile is at 3,
both players are asked at once for a secret guess (a simultaneous, sealed step). Each player
holds a private hand of one card: 7♠ for the first seat, 8♠ for the second."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import rules
from rules.core import (
    Card, Command, Event, Suit, IllegalCommand, NotationError, Outcome, PrivateEvent, View, chance,
    check_awaited, check_setup,
)


@dataclass(frozen=True)
class Take(Command):
    n: int


@dataclass(frozen=True)
class Mark(Command):
    """Changes nothing hidden: undoable."""


@dataclass(frozen=True)
class Peek(Command):
    """Looks at a random number: a reveal, so undo stops here."""


@dataclass(frozen=True)
class Guess(Command):
    """A sealed guess, given by both seats at once."""

    secret = True
    n: int


@dataclass(frozen=True)
class Said(Event):
    text: str

    def describe(self, names, seat=None):
        return self.text


@dataclass(frozen=True)
class Peeked(Said):
    reveals = True


@dataclass(frozen=True)
class Guessed(Event):
    seat: int
    n: int

    def describe(self, names, seat=None):
        return f"{names[self.seat]} guessed {self.n}" if seat == self.seat else f"{names[self.seat]} has guessed"


@dataclass(frozen=True)
class Whispered(PrivateEvent):
    def describe(self, names, seat=None):
        return "psst"


@dataclass
class State:
    names: list
    seed: int
    pile: int = 5
    seat: int = 0
    marks: int = 0
    counter: int = 0
    guesses: dict = None


class Notation:
    def format(self, command):
        return {Take: lambda c: f"take {c.n}", Mark: lambda c: "mark", Peek: lambda c: "peek",
                Guess: lambda c: f"guess {c.n}"}[type(command)](command)

    def parse(self, text, view):
        word, *rest = text.split() or [""]
        if word in ("take", "guess") and rest and rest[0].isdigit():
            return Take(int(rest[0])) if word == "take" else Guess(int(rest[0]))
        if word in ("mark", "peek") and not rest:
            return Mark() if word == "mark" else Peek()
        raise NotationError(f"{text!r} is not a command")


class Pile:
    name, title, blurb, players, options, bots, best_bot = "pile", "Pile", "take the last", (2, 2), (), {}, "random"
    notation = Notation()
    checks = 0

    def setup(self, names, options, seed):
        check_setup(self, names, options)
        return State(list(names), seed)

    def awaiting(self, state):
        if state.pile == 0:
            return frozenset()
        if state.guesses is not None:
            return frozenset(s for s in (0, 1) if s not in state.guesses)
        return frozenset((state.seat,))

    def legal(self, state, seat):
        if seat not in self.awaiting(state):
            return []
        if state.guesses is not None:
            return [Guess(1), Guess(2)]
        return [Take(n) for n in (1, 2) if n <= state.pile] + [Mark(), Peek()]

    def check(self, state, seat, command):
        Pile.checks += 1
        check_awaited(self.awaiting(state), seat, state.names)
        if state.guesses is not None and not isinstance(command, Guess):
            raise IllegalCommand("Guess first.")
        if isinstance(command, Take) and not 1 <= command.n <= min(2, state.pile):
            raise IllegalCommand(f"You may take 1 or 2, not {command.n}.")

    def apply(self, state, seat, command):
        self.check(state, seat, command)
        if isinstance(command, Guess):
            state.guesses[seat] = command.n
            events = [Guessed(seat, command.n)]
            if len(state.guesses) == 2:
                state.guesses = None
                events.append(Peeked("both guesses are in"))
            return events
        if isinstance(command, Take):
            state.pile -= command.n
            state.seat = 1 - state.seat
            if state.pile == 3:
                state.guesses = {}
            return [Said(f"took {command.n}"), Whispered(seat)]
        if isinstance(command, Mark):
            state.marks += 1
            return [Said("marked")]
        state.counter += 1
        return [Peeked(str(chance(state.seed, state.counter).randrange(9)))]

    def view(self, state, seat):
        zones = {"hand": (Card(7 + seat, Suit.SPADES),)} if seat is not None else {}
        return View(seat, tuple(state.names), self.awaiting(state), f"pile {state.pile}", zones,
                    ({"hand": 1}, {"hand": 1}), ("Pile",), ((str(state.pile),), (str(state.pile),)))

    def sample(self, view, rng):
        raise NotImplementedError

    def outcome(self, state):
        if state.pile:
            return None
        winner = 1 - state.seat
        return Outcome(ranks=tuple(1 if s == winner else 2 for s in (0, 1)), scores=(0, 0))

    def to_json(self, state):
        return dict(vars(state))

    def from_json(self, data):
        return State(**data)

    def conserved(self, state):
        return {}

    def turn(self, state):
        return 5 - state.pile


@pytest.fixture
def pile(monkeypatch):
    spec = Pile()
    info = rules.GameInfo("pile", "pile", "Pile", (2, 2), "take the last")
    monkeypatch.setattr(rules, "INFO", {**rules.INFO, "pile": info})
    monkeypatch.setitem(rules.GAMES._specs, "pile", spec)
    return spec


