"""One random-playout test over EVERY registered game (OpenSpiel style).

For seeded games between random bots: only legal commands are accepted, and illegal ones are
refused with the state unchanged; the position survives a JSON round trip at every step; the
notation of every command reads back to the same command; replaying seed + commands gives the
same state; cards and money are conserved; undo restores the position; the game ends."""

from __future__ import annotations

import copy
import json
import random

import pytest

import rules
from rules.core import IllegalCommand, Match, RulesError, Seat, chance
from rules.core.bots import RandomBot

GAMES = sorted(rules.GAMES)
SEEDS = range(4)
MAX_COMMANDS = 20_000


def player_counts(spec):
    low, high = spec.players
    return sorted({low, high, (low + high) // 2})


def mutations(spec, state, legal, rng):
    """Commands that are probably illegal: legal commands of other positions and garbage."""
    other = spec.setup(["X", "Y", "Z", "W", "V", "U"][: spec.players[0]], None, rng.randrange(10**6))
    candidates = list(spec.legal(other))
    rng.shuffle(candidates)
    return [c for c in candidates[:5] if c not in legal]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout(game, seed):
    spec = rules.find_game(game)
    counts = player_counts(spec)
    n = counts[seed % len(counts)]
    seats = [Seat(f"P{i + 1}", "random") for i in range(n)]
    match = Match(spec, seats, seed=seed)
    rng = random.Random(seed)
    conserved = spec.conserved(match.state)
    bot = RandomBot()
    for step in range(MAX_COMMANDS):
        if match.over:
            break
        state_json = spec.to_json(match.state)
        # the position is plain JSON and reads back to the same position
        assert json.loads(json.dumps(state_json)) == state_json
        assert spec.to_json(spec.from_json(copy.deepcopy(state_json))) == state_json
        legal = match.legal()
        assert legal, f"{game}: no legal command at step {step} but the game is not over"
        # illegal commands are refused and change nothing
        for wrong in mutations(spec, match.state, legal, rng):
            try:
                spec.check(match.state, wrong)
            except RulesError:
                assert spec.to_json(match.state) == state_json
                with pytest.raises(RulesError):
                    match.submit(wrong)
                assert spec.to_json(match.state) == state_json
        command = bot.choose(spec, match.state, match.awaiting, chance(seed, step))
        assert command in legal
        text = match.format(command)
        assert match.parse(text) == command, f"{game}: {text!r} does not read back"
        match.submit(command)
        assert spec.conserved(match.state) == conserved, f"{game}: conservation broken by {text!r}"
        if match.can_undo and step % 7 == 0:
            after = spec.to_json(match.state)
            match.undo()
            assert spec.to_json(match.state) == state_json
            match.submit(text)
            assert spec.to_json(match.state) == after
    else:
        pytest.fail(f"{game} seed {seed}: no end after {MAX_COMMANDS} commands")
    outcome = match.outcome
    assert len(outcome.ranks) == n and 1 in outcome.ranks
    assert match.legal() == []
    with pytest.raises(IllegalCommand):
        match.submit(legal[0])
    # replay from seed + commands reaches the same position
    saved = json.loads(json.dumps(match.to_json()))
    replayed = Match.from_json(saved)
    assert spec.to_json(replayed.state) == spec.to_json(match.state)
    assert replayed.outcome == outcome
