"""One random-playout test over EVERY registered game (OpenSpiel style).

For seeded games between random players, at every step: only legal commands are accepted, and
illegal ones (other positions' commands, near misses of legal ones) are refused with the state
unchanged; where ``legal`` lists every command, every near miss that ``check`` accepts is in it;
the position survives a JSON round trip (compared as a state); the notation of every command
reads back to the same command; cards and money are conserved; undo restores the position; the
game ends; replaying seed + commands gives the same state.

Every position keeps the game's invariants (``spec.invariants``: hand make-up, counts, money,
piles), and every awaited seat has a legal command.

Secrecy, at random points: for every seat, states sampled from what that seat sees look the
same to it (the same view, status and legal commands), hold the same cards and money, keep the
invariants and leave no awaited seat without a command (a sample the rules could not have dealt
misleads every search), and the seat's own commands tell it the same things there as in the real
game — so nothing a seat can do or read depends on what it cannot see."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

import rules
from rules.core import Card, IllegalCommand, Match, RulesError, Seat

GAMES = sorted(rules.GAMES)
SEEDS = range(4)
MAX_COMMANDS = 20_000
SECRECY_EVERY = 5  # steps between secrecy checks (each samples states for every seat)
SAMPLES = 3  # states sampled from each seat's view at a secrecy check


def player_counts(spec):
    low, high = spec.players
    return sorted({low, high, (low + high) // 2})


def round_trip(spec, state):
    """The state read back from its JSON text."""
    return spec.from_json(json.loads(json.dumps(spec.to_json(state))))


def near_misses(command, view, rng):
    """Commands one small change away from ``command``: a number one off, a flag flipped, a
    card swapped for another the seat holds or for another face."""
    if not dataclasses.is_dataclass(command):
        return []
    cards = list(view.hand) + [Card(rank, card.suit) for card in view.hand[:3] for rank in (1, 13)]
    out = []
    for field in dataclasses.fields(command):
        value = getattr(command, field.name)
        options = []
        if isinstance(value, bool):
            options = [not value]
        elif isinstance(value, int):
            options = [value - 1, value + 1, 0]
        elif isinstance(value, Card):
            options = rng.sample(cards, min(4, len(cards)))
        elif isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
            options = [value[:-1], value + (rng.choice(cards),)] if cards else [value[:-1]]
            if cards:
                i = rng.randrange(len(value))
                options.append(value[:i] + (rng.choice(cards),) + value[i + 1:])
        for option in options:
            try:
                out.append(dataclasses.replace(command, **{field.name: option}))
            except (TypeError, ValueError):
                continue
    return [c for c in out if c != command]


def by_face(value):
    """A command with every card reduced to its face: copies of a face are interchangeable for
    the rules, so ``legal`` may list one copy where the seat holds several."""
    if isinstance(value, Card):
        return (value.rank, value.suit)
    if isinstance(value, tuple):
        return tuple(by_face(v) for v in value)
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, *(by_face(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return value


def other_positions(spec, rng):
    """Legal commands of unrelated positions: mostly illegal here."""
    other = spec.setup(["X", "Y", "Z", "W", "V", "U"][: spec.players[0]], None, rng.randrange(10**6))
    candidates = [c for seat in sorted(spec.awaiting(other)) for c in spec.legal(other, seat)]
    rng.shuffle(candidates)
    return candidates[:5]


def told(spec, state, seat, command, reader):
    """What applying ``command`` for ``seat`` tells ``reader``: the visible sentences of the
    events that reveal nothing (a reveal may differ: that is what chance and secrets are)."""
    events = spec.apply(state, seat, command)
    names = spec.view(state, None).names
    return [(type(e).__name__, e.describe(names, reader)) for e in events
            if e.visible_to(reader) and not e.reveals]


def check_invariants(spec, state, what):
    """The game's invariants (hand make-up, counts, money, piles) hold; every awaited seat has a
    legal command."""
    broken = spec.invariants(state)
    assert not broken, f"{spec.name}: {what} breaks its invariants: {broken}"
    for seat in spec.awaiting(state):
        assert spec.legal(state, seat), f"{spec.name}: seat {seat} is awaited in {what} but has no legal command"


def check_secrecy(spec, state, rng):
    awaiting = sorted(spec.awaiting(state))
    for seat in [None, *range(len(spec.view(state, None).names))]:
        view = spec.view(state, seat)
        first = rng.randrange(10**9)  # one draw of rng, so the playout's other choices stay as they were
        samples = [spec.sample(view, random.Random(first + k)) for k in range(SAMPLES)]
        for sampled in samples:
            assert spec.view(sampled, seat) == view, f"{spec.name}: seat {seat}'s view differs on a sample"
            assert sorted(spec.awaiting(sampled)) == awaiting
            assert spec.conserved(sampled) == spec.conserved(state), f"{spec.name}: a sample's cards or money differ"
            check_invariants(spec, sampled, f"a sample from seat {seat}'s view")
        sampled = samples[0]
        if seat is None:
            continue
        legal = spec.legal(state, seat)
        assert spec.legal(sampled, seat) == legal, f"{spec.name}: seat {seat}'s legal commands leak"
        for command in rng.sample(legal, min(3, len(legal))):
            real = told(spec, copy.deepcopy(state), seat, command, seat)
            assert told(spec, copy.deepcopy(sampled), seat, command, seat) == real, (
                f"{spec.name}: what {command!r} tells seat {seat} depends on what it cannot see")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout(game, seed):
    spec = rules.find_game(game)
    counts = player_counts(spec)
    n = counts[seed % len(counts)]
    match = Match(spec, [Seat(f"P{i + 1}", "random") for i in range(n)], seed=seed)
    rng = random.Random(seed)
    conserved = spec.conserved(match.state)
    partial = tuple(getattr(spec, "partial_legal", ()))
    for step in range(MAX_COMMANDS):
        if match.over:
            break
        state = match.state
        before = copy.deepcopy(state)
        assert round_trip(spec, state) == state, f"{game}: the JSON round trip changes the position"
        check_invariants(spec, state, f"the position at step {step}")
        awaiting = sorted(match.awaiting)
        assert awaiting, f"{game}: nobody is awaited at step {step} but the game is not over"
        seat = rng.choice(awaiting)
        legal = match.legal(seat)
        assert legal, f"{game}: seat {seat} is awaited at step {step} but has no legal command"
        for other in set(range(n)) - set(awaiting):
            assert spec.legal(state, other) == []
            with pytest.raises(IllegalCommand):
                spec.check(state, other, legal[0])
        view = match.view(seat)
        for wrong in other_positions(spec, rng) + near_misses(rng.choice(legal), view, rng):
            try:
                spec.check(state, seat, wrong)
            except RulesError:
                with pytest.raises(RulesError):
                    match.submit(seat, wrong)
                assert match.state == before, f"{game}: a refused {wrong!r} changed the position"
            else:
                if not isinstance(wrong, partial):
                    assert by_face(wrong) in {by_face(c) for c in legal}, (
                        f"{game}: check accepts {wrong!r}, which legal does not list")
        if step % SECRECY_EVERY == 0:
            check_secrecy(spec, state, rng)
        command = rng.choice(legal)
        text = match.format(command)
        assert match.parse(seat, text) == command, f"{game}: {text!r} does not read back"
        match.submit(seat, command)
        assert spec.conserved(match.state) == conserved, f"{game}: conservation broken by {text!r}"
        if match.can_undo(seat) and step % 7 == 0:
            after = copy.deepcopy(match.state)
            match.undo(seat)
            assert match.state == before
            match.submit(seat, text)
            assert match.state == after
    else:
        pytest.fail(f"{game} seed {seed}: no end after {MAX_COMMANDS} commands")
    outcome = match.outcome
    assert len(outcome.ranks) == n and 1 in outcome.ranks
    assert match.awaiting == frozenset() and all(match.legal(s) == [] for s in range(n))
    with pytest.raises(IllegalCommand):
        match.submit(0, legal[0])
    # replay from seed + commands (each with its seat) reaches the same position
    replayed = rules.load_match(json.loads(json.dumps(match.to_json())))
    assert replayed.state == match.state
    assert replayed.outcome == outcome
