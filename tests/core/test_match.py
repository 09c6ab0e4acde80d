"""The bus, undo policy and save/replay of Match, on a tiny game made for the purpose.

Pile: two players take 1 or 2 from a pile in turn; whoever takes the last one wins. ``mark``
changes nothing hidden (undoable), ``peek`` draws a random number (a reveal). When the pile
is at 3, both players are asked at once for a secret guess (a simultaneous, sealed step)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import rules
from rules.core import (
    Command, Event, IllegalCommand, Match, NotationError, Outcome, PrivateEvent, SaveFormatError,
    Seat, View, chance, check_awaited, check_setup,
)
from rules.core.match import FORMAT_VERSION


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
        return View(seat, tuple(state.names), self.awaiting(state), f"pile {state.pile}")

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


def new_match(spec):
    return Match(spec, [Seat("Ann"), Seat("Bob")], seed=3)


def test_submit_publishes_to_subscribers_and_records_each_seat(pile):
    match = new_match(pile)
    seen = []
    unsubscribe = match.subscribe(lambda m, update: seen.append((update.kind, update.played.seat, update.played.text)))
    match.submit(0, "mark")
    match.submit(0, Take(1))
    unsubscribe()
    match.submit(1, "take 1")
    assert seen == [("command", 0, "mark"), ("command", 0, "take 1")]
    assert [(p.seat, p.text) for p in match.history] == [(0, "mark"), (0, "take 1"), (1, "take 1")]


def test_illegal_input_and_the_wrong_seat_are_refused_in_words_and_change_nothing(pile):
    match = new_match(pile)
    with pytest.raises(IllegalCommand, match="take 1 or 2, not 3"):
        match.submit(0, "take 3")
    with pytest.raises(NotationError):
        match.submit(0, "jump")
    with pytest.raises(IllegalCommand, match="not Bob's move: the game is waiting for Ann"):
        match.submit(1, "mark")
    with pytest.raises(IllegalCommand, match="spectator"):
        match.submit(None, "mark")
    assert match.history == [] and match.state.marks == 0


def test_check_runs_once_per_submitted_command(pile):
    match = new_match(pile)
    Pile.checks = 0
    match.submit(0, "mark")
    assert Pile.checks == 1


def test_several_seats_awaited_at_once_answer_in_any_order_and_stay_secret(pile):
    match = new_match(pile)
    match.submit(0, "take 2")  # pile 3: both guess
    assert match.awaiting == {0, 1}
    assert match.legal(0) == [Guess(1), Guess(2)] and match.legal(1) == [Guess(1), Guess(2)]
    match.submit(1, "guess 2")
    assert match.awaiting == {0}
    played = match.history[-1]
    # Bob's own log may read his guess; Ann's reads only that he has guessed
    assert played.command.secret and played.events[0].describe(match.names, 1) == "Bob guessed 2"
    assert played.events[0].describe(match.names, 0) == "Bob has guessed"
    with pytest.raises(IllegalCommand, match="not Bob's move"):
        match.submit(1, "guess 1")
    match.submit(0, "guess 1")
    assert match.awaiting == {1}  # Bob's turn to take


def test_private_events_are_visible_to_their_seat_only(pile):
    match = new_match(pile)
    event = match.submit(0, "take 1")[1]
    assert event.visible_to(0) and not event.visible_to(1) and not event.visible_to(None)


def test_views_and_legal_commands_are_computed_once_per_change(pile, monkeypatch):
    match = new_match(pile)
    calls = []
    monkeypatch.setattr(pile, "legal", lambda state, seat: calls.append(seat) or [Mark()])
    assert match.legal(0) == match.legal(0) == [Mark()] and calls == [0]
    assert match.legal(1) == [] and calls == [0]  # a seat not awaited has nothing to do
    assert match.view(0) is match.view(0)
    match.submit(0, "mark")
    match.legal(0)
    assert calls == [0, 0]


def test_undo_takes_back_own_moves_until_a_reveal_or_another_seat_acts(pile):
    match = new_match(pile)
    assert not match.can_undo(0)
    match.submit(0, "mark")
    match.submit(0, "mark")
    assert match.can_undo(0) and not match.can_undo(1)
    with pytest.raises(IllegalCommand, match="Nothing to undo"):
        match.undo(1)
    match.undo(0)
    assert match.state.marks == 1 and [p.text for p in match.history] == ["mark"]
    match.submit(0, "peek")
    assert not match.can_undo(0)  # the peek revealed a number: it cannot be taken back
    match.submit(0, "mark")
    match.submit(0, "take 1")  # Bob to move now; Ann may still take back her move…
    assert match.can_undo(0)
    match.submit(1, "mark")  # …until Bob acts
    assert not match.can_undo(0) and match.can_undo(1)
    with pytest.raises(IllegalCommand, match="Nothing to undo"):
        match.undo(0)


def test_a_failing_apply_leaves_the_state_as_it_was(pile, monkeypatch):
    match = new_match(pile)

    def broken(state, seat, command):
        state.marks = 99
        raise RuntimeError("a bug half-way")

    monkeypatch.setattr(pile, "apply", broken)
    with pytest.raises(RuntimeError):
        match.submit(0, "mark")
    assert match.state.marks == 0 and match.history == []


def test_save_records_seats_and_replays_to_the_same_position(pile):
    match = new_match(pile)
    for seat, text in [(0, "peek"), (0, "take 2"), (1, "guess 2"), (0, "guess 1"), (1, "mark"), (1, "take 2"), (0, "take 1")]:
        match.submit(seat, text)
    data = match.to_json()
    assert data["format"] == FORMAT_VERSION == 2 and data["commands"][2] == [1, "guess 2"]
    loaded = rules.load_match(data)
    assert pile.to_json(loaded.state) == pile.to_json(match.state)
    assert loaded.outcome == match.outcome and loaded.outcome.winners == (0,)
    assert [p.seat for p in loaded.history] == [p.seat for p in match.history]
    with pytest.raises(IllegalCommand, match="over"):
        loaded.submit(0, "mark")


def test_a_format_1_save_replays_each_command_for_the_one_seat_awaited(pile):
    data = {"format": 1, "game": "pile", "options": {}, "seats": [{"name": "Ann", "bot": None},
            {"name": "Bob", "bot": None}], "seed": 3, "commands": ["mark", "take 1", "take 1"]}
    match = rules.load_match(data)
    assert [(p.seat, p.text) for p in match.history] == [(0, "mark"), (0, "take 1"), (1, "take 1")]
    assert not match.can_undo(1)  # a resumed game starts with nothing to take back


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda d: d.update(format=99), "newer cardtable"),
        (lambda d: d.pop("format"), "not a cardtable save"),
        (lambda d: d.pop("seats"), "incomplete"),
        (lambda d: d.update(seed="x"), "whole number"),
        (lambda d: d.update(game="chess"), "does not have"),
        (lambda d: d["commands"].append([0, "take 9"]), "move 3 .* does not replay"),
        (lambda d: d["commands"].extend([[1, "guess 1"], [1, "guess 2"]]), "move 4 .* not Bob's move"),
        (lambda d: d["commands"].append(["Ann", "take 1"]), r"move 3 is not \[seat"),
        (lambda d: d["snapshot"].update(marks=7), "does not match"),
    ],
)
def test_damaged_saves_raise_save_format_error(pile, damage, says):
    match = new_match(pile)
    match.submit(0, "take 1")
    match.submit(1, "take 1")
    data = match.to_json()
    damage(data)
    with pytest.raises(SaveFormatError, match=says):
        rules.load_match(data)


def test_a_bot_is_given_its_view_and_legal_commands_only(pile, monkeypatch):
    seen = []

    class Spy:
        def choose(self, view, legal, rng):
            seen.append((view, list(legal)))
            return legal[0]

    monkeypatch.setattr(pile, "bots", {"spy": Spy()})
    match = Match(pile, [Seat("Ann", "spy"), Seat("Bob")], seed=1)
    command = match.bot_move(0)
    assert seen == [(match.view(0), match.legal(0))] and command == Take(1)
    with pytest.raises(Exception, match="no bot"):
        match.bot_move(1)
