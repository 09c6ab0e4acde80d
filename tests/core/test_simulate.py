"""Headless bot games (rules/core/simulate.py): a seed plays one game, whatever was played before."""

import pytest

import rules
from rules.core.errors import RulesError
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


def test_a_game_that_awaits_nobody_but_is_not_over_is_named():
    # the harness asks a game's outcome once, when it awaits nobody: a game breaking the contract
    # (nobody awaited, no outcome) is named rather than counted as ended
    spec = rules.GAMES["stock-market"]

    class Stuck:
        name, longest = "stuck", 10
        bots: dict = {}

        def __getattr__(self, attribute):
            return getattr(spec, attribute)

        def awaiting(self, state):
            return frozenset()

        def outcome(self, state):
            return None

    with pytest.raises(RulesError, match="^stuck seed 2 awaits nobody but is not over$"):
        play_game(Stuck(), ["random", "random"], 2)
