"""Headless bot games (rules/core/simulate.py): a seed plays one game, whatever was played before."""

import pytest

import rules
from rules.core.simulate import play_game, simulate


@pytest.mark.parametrize("game", ["stock-market", "capital-auction"])
def test_a_seed_plays_the_same_game_alone_or_after_others(game):
    # the random players draw from one generator per game, seeded from the game's own seed:
    # the fourth game of a run is the game its seed plays alone
    spec = rules.GAMES[game]
    levels = ["random"] * spec.players[0]
    alone = play_game(spec, levels, 3)
    again = play_game(spec, levels, 3)
    assert (again.outcome, again.commands, again.moves) == (alone.outcome, alone.commands, alone.moves)
    after = simulate(spec, levels, 4, seed=0)
    first_three = simulate(spec, levels, 3, seed=0)
    assert after.commands - first_three.commands == alone.commands
    assert after.turns - first_three.turns == alone.turns
