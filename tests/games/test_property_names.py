"""No name breaks Property: players called like its command words, its cards, numbers, markup
or anything else play, save and load as any others. Property's commands name no player, so what
the players are called never reaches what is saved."""

from __future__ import annotations

import json

import pytest

import rules
from rules.core import Match, NotationError, Seat

from game_helpers import play_random

SPEC = rules.find_game("property")

# the game's own words, numbers, cards, names that are prefixes of one another, quotes,
# brackets, other scripts and a long name
HOSTILE = [
    "[/]", "Bob [kid]", "[@click=app.quit]", "Bob", "Bob 2", "play", "decline", "pass", "buy KS",
    "3", "QD", "3D 5C", "at 4 5", '"Ann"', "'", "Zoë", "李雷", "Ибрагим", "Łukasz-Ñandú " * 3 + "e",
]
assert len(HOSTILE[-1]) == 40
CHECKPOINTS = (1, 10, 50, 150, 400)


def tables(players: int) -> list[list[str]]:
    """Tables of ``players`` seats that between them seat every hostile name."""
    return [[HOSTILE[(start + k) % len(HOSTILE)] for k in range(players)]
            for start in range(0, len(HOSTILE), players)]


def reloaded(match: Match) -> Match:
    """The match saved as a file holds it and loaded again, from its commands."""
    return rules.load_match(json.loads(json.dumps(match.to_json(), ensure_ascii=False)))


def same(loaded: Match, match: Match) -> None:
    assert loaded.names == match.names
    assert loaded.state == match.state
    assert loaded.history == match.history


@pytest.mark.parametrize("players", range(2, 7))
def test_a_random_game_with_hostile_names_saves_and_loads_at_every_point(players):
    for number, names in enumerate(tables(players)):
        options = {"bankruptcies": 3, "count-property": True} if number % 2 else {}
        seed = 100 * players + number
        match = Match(SPEC, [Seat(name) for name in names], options, seed=seed)
        while not match.over:
            play_random(match)
            if len(match.history) in CHECKPOINTS:
                same(reloaded(match), match)
        same(reloaded(match), match)
        # the names never reach the saved commands: the same game with other names saves the
        # same words, and every one of them reads back as the command it was
        plain = Match(SPEC, [Seat(f"P{seat}") for seat in range(players)], options, seed=seed)
        for played in match.history:
            assert plain.parse(played.seat, played.text) == played.command
            plain.submit(played.seat, played.text)
        assert [p.text for p in plain.history] == [p.text for p in match.history]
        assert plain.state.owners == match.state.owners and plain.state.money == match.state.money


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_typed_as_a_command_is_read_as_the_command_it_spells(name):
    # a command names no player: "play", "Bob" or "[/]" typed alone mean what they mean
    # whoever sits at the table, and the players' names play no part in reading them
    plain = Match(SPEC, [Seat("Ann"), Seat("Cleo")], seed=3)
    hostile = Match(SPEC, [Seat(name), Seat("Cleo")], seed=3)
    seat = min(plain.awaiting)
    try:
        expected = plain.parse(seat, name)
    except NotationError as error:
        with pytest.raises(NotationError) as again:
            hostile.parse(seat, name)
        assert str(again.value) == str(error)
    else:
        assert hostile.parse(seat, name) == expected
