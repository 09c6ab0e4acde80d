"""The bus, undo policy and save/replay of Match, on a tiny game made for the purpose."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import rules
from rules.core import (
    Command, Event, IllegalCommand, Match, NotationError, Outcome, SaveFormatError, Seat, View, chance,
    check_setup,
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
class Said(Event):
    text: str

    def describe(self, names):
        return self.text


@dataclass(frozen=True)
class Peeked(Said):
    reveals = True


@dataclass
class State:
    names: list
    seed: int
    pile: int = 5
    seat: int = 0
    marks: int = 0
    counter: int = 0


class Notation:
    def format(self, command):
        return {Take: lambda c: f"take {c.n}", Mark: lambda c: "mark", Peek: lambda c: "peek"}[type(command)](command)

    def parse(self, text, state):
        word, *rest = text.split()
        if word == "take" and rest and rest[0].isdigit():
            return Take(int(rest[0]))
        if word in ("mark", "peek") and not rest:
            return Mark() if word == "mark" else Peek()
        raise NotationError(f"{text!r} is not a command")


class Pile:
    name, title, blurb, players, options, bots, best_bot = "pile", "Pile", "take the last", (2, 2), (), {}, "random"
    notation = Notation()

    def setup(self, names, options, seed):
        check_setup(self, names, options)
        return State(list(names), seed)

    def to_move(self, state):
        return None if state.pile == 0 else state.seat

    def legal(self, state):
        return [Take(n) for n in (1, 2) if n <= state.pile] + [Mark(), Peek()]

    def check(self, state, command):
        if isinstance(command, Take) and not 1 <= command.n <= min(2, state.pile):
            raise IllegalCommand(f"You may take 1 or 2, not {command.n}.")

    def apply(self, state, command):
        self.check(state, command)
        if isinstance(command, Take):
            state.pile -= command.n
            state.seat = 1 - state.seat
            return [Said(f"took {command.n}")]
        if isinstance(command, Mark):
            state.marks += 1
            return [Said("marked")]
        state.counter += 1
        return [Peeked(str(chance(state.seed, state.counter).randrange(9)))]

    def view(self, state, seat):
        return View(seat, self.to_move(state))

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
    monkeypatch.setattr(rules, "GAMES", {**rules.GAMES, "pile": spec})
    return spec


def new_match(spec):
    return Match(spec, [Seat("Ann"), Seat("Bob")], seed=3)


def test_submit_publishes_to_subscribers_and_records_history(pile):
    match = new_match(pile)
    seen = []
    unsubscribe = match.subscribe(lambda m, update: seen.append((update.kind, update.played.text)))
    match.submit("mark")
    match.submit(Take(2))
    unsubscribe()
    match.submit("take 1")
    assert seen == [("command", "mark"), ("command", "take 2")]
    assert [p.text for p in match.history] == ["mark", "take 2", "take 1"]
    assert [p.seat for p in match.history] == [0, 0, 1]


def test_illegal_input_raises_and_changes_nothing(pile):
    match = new_match(pile)
    with pytest.raises(IllegalCommand, match="take 1 or 2, not 3"):
        match.submit("take 3")
    with pytest.raises(NotationError):
        match.submit("jump")
    with pytest.raises(IllegalCommand, match="Ann's move, not Bob's"):
        match.submit("mark", seat=1)
    assert match.history == [] and pile.to_json(match.state)["marks"] == 0


def test_undo_within_a_turn_stops_at_a_reveal_and_at_the_end_of_the_turn(pile):
    match = new_match(pile)
    assert not match.can_undo
    match.submit("mark")
    match.submit("mark")
    match.undo()
    assert match.state.marks == 1 and [p.text for p in match.history] == ["mark"]
    match.submit("peek")
    assert not match.can_undo  # the peek revealed a number: it cannot be taken back
    match.submit("mark")
    match.submit("take 1")
    assert not match.can_undo  # Bob is to move: Ann's turn is over
    with pytest.raises(IllegalCommand, match="Nothing to undo"):
        match.undo()


def test_save_replays_to_the_same_position(pile):
    match = new_match(pile)
    for text in ["peek", "take 2", "mark", "take 2", "take 1"]:
        match.submit(text)
    loaded = Match.from_json(match.to_json())
    assert pile.to_json(loaded.state) == pile.to_json(match.state)
    assert loaded.outcome == match.outcome and loaded.outcome.winners == (0,)
    with pytest.raises(IllegalCommand, match="over"):
        loaded.submit("mark")


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda d: d.update(format=99), "newer cardtable"),
        (lambda d: d.pop("format"), "not a cardtable save"),
        (lambda d: d.pop("seats"), "incomplete or damaged"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d["commands"].append("take 9"), "move 3 .* does not replay"),
        (lambda d: d["snapshot"].update(marks=7), "does not match"),
    ],
)
def test_damaged_saves_raise_save_format_error(pile, damage, says):
    match = new_match(pile)
    match.submit("take 1")
    match.submit("take 1")
    data = match.to_json()
    damage(data)
    with pytest.raises(SaveFormatError, match=says):
        Match.from_json(data)
