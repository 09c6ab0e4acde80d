"""Every game ends (issue 20): its bot levels — random, greedy and its own bot — play one another
at every player count (the fewest, the middle, the most) over many seeds, and every game ends
within twice the longest game measured for it (``spec.longest``, in commands).

Each game's ``longest`` is the longest game of a sweep of 300 seeds × every pairing of levels ×
every player count (``python tests/benchmark.py --parts ending``, which plays the same table of
games as ``games`` below over more seeds, and prints the longest per player count). A game past
twice it fails, naming the game and the seed. The test plays a slice of that table on other seeds:
every player count and pairing, three seeds each, and prints the longest it saw.

The expert searches for every decision: too slow for the sweep. Each game but Abundance plays
one short game of a capped expert (a few playouts a decision) against its bot; Abundance is
left out, a match being some 1,200 commands (half a minute even so)."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Iterator

import pytest

import rules
from rules.core.bots import RANDOM
from rules.core.search import EXPERT, ExpertBot
from rules.core.simulate import NeverEnds, limit_of, play_game

GAMES = sorted(rules.GAMES)
# seeds the sweep did not play (it played 0–299), so that each run is fresh evidence that twice
# the longest leaves room; every (player count, pairing) cell three times at 3 counts × 6 pairings
SEEDS = range(300, 354)


def player_counts(spec: Any) -> list[int]:
    low, high = spec.players
    return sorted({low, (low + high) // 2, high})


def pairings(spec: Any) -> list[tuple[str, str]]:
    """Every pair of the game's levels but the expert, a level with itself too."""
    levels = [*spec.bots, RANDOM]
    return list(combinations_with_replacement(levels, 2))


def seating(pair: tuple[str, str], players: int, time: int) -> list[str]:
    """The two levels of ``pair`` in alternate seats; each takes the first seat every other time."""
    first, second = pair if time % 2 == 0 else pair[::-1]
    return [first if seat % 2 == 0 else second for seat in range(players)]


def cells(spec: Any) -> list[tuple[int, tuple[str, str]]]:
    """Every (player count, pairing) the sweep plays."""
    return [(n, pair) for n in player_counts(spec) for pair in pairings(spec)]


def games(spec: Any, seeds: range) -> Iterator[tuple[int, list[str]]]:
    """(seed, the seats' levels) for each seed: seed by seed the games go round every player
    count and pairing, so a few dozen seeds cover them all."""
    table = cells(spec)
    for seed in seeds:
        players, pair = table[seed % len(table)]
        yield seed, seating(pair, players, seed // len(table))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ends(game, record_property):
    spec = rules.GAMES[game]
    longest: tuple[int, int, list[str]] = (0, -1, [])
    for seed, levels in games(spec, SEEDS):
        try:
            result = play_game(spec, levels, seed)
        except NeverEnds as error:
            pytest.fail(f"{error}; seats {', '.join(levels)}")
        assert len(result.outcome.ranks) == len(levels)
        longest = max(longest, (result.commands, seed, levels))
    commands, seed, levels = longest
    record_property("longest", commands)
    print(f"{game}: the longest of {len(SEEDS)} games took {commands} commands (seed {seed}, "
          f"seats {', '.join(levels)}); the longest measured is {spec.longest}, the limit {limit_of(spec)}")


@pytest.mark.parametrize("game", [g for g in GAMES if g != "abundance"])
def test_a_short_expert_game_ends(game, monkeypatch):
    import rules.core.bots as bots

    spec = rules.GAMES[game]
    monkeypatch.setitem(bots._EXPERTS, spec, ExpertBot(spec, seconds=None, iterations=8))
    try:
        result = play_game(spec, [EXPERT, spec.best_bot], 1)
    except NeverEnds as error:
        pytest.fail(f"{error}; seats {EXPERT}, {spec.best_bot}")
    assert result.outcome is not None and result.moves[0] > 0


def test_a_game_past_twice_the_longest_stops_at_once_naming_game_and_seed(monkeypatch):
    spec = rules.GAMES["stock-market"]
    monkeypatch.setattr(type(spec), "longest", 5)
    with pytest.raises(NeverEnds, match=r"^stock-market seed 3 ran past 2×longest \(10 commands\)$") as raised:
        play_game(spec, [RANDOM, RANDOM], 3)
    assert raised.value.levels == (RANDOM, RANDOM)
