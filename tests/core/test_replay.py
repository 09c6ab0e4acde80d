"""Replays (rules/core/replay.py): every registered game's positions rebuilt from seed and
commands, each seat's view and log at any move, read-only, a move that no longer replays, and
the chart's series; plus the fallback chart from the public scoreboard, on Pile."""

from __future__ import annotations

import gc
import json
import random
import types

import pytest

import rules
from rules.core import IllegalCommand, Match, Replay, ReplayError, RulesError, SaveFormatError, Seat

from game_helpers import play_bot
from tiny_game import Pile, pile  # noqa: F401  (pile is a fixture)

GAMES = sorted(rules.GAMES)


def finished(game: str, players: int | None = None, seed: int = 4) -> Match:
    spec = rules.find_game(game)
    count = players or spec.players[0]
    match = Match(spec, [Seat(f"P{i}", spec.best_bot) for i in range(count)], seed=seed)
    while not match.over:
        play_bot(match)
    return match


@pytest.mark.parametrize("game", GAMES)
def test_every_position_is_the_games_own_for_every_seat(game):
    match = finished(game, rules.find_game(game).players[1])
    replay = Replay.of(match)
    assert replay.moves == len(match.history) and replay.position == replay.moves
    assert replay.over and replay.outcome == match.outcome
    seats = [None, *range(len(match.seats))]
    # the same game played again move by move: every position the replay shows is that game's
    again = Match(match.spec, match.seats, match.options, match.seed)
    checked = sorted({0, 1, 2, replay.moves // 3, replay.moves // 2, replay.moves - 1, replay.moves})
    for step, played in enumerate([None, *match.history]):
        if played is not None:
            again.submit(played.seat, played.text)
        if step not in checked:
            continue
        assert replay.goto(step) == step
        assert replay.turn == again.turn == replay.turn_at(step)
        assert replay.awaiting == again.awaiting
        assert [p.text for p in replay.history] == [p.text for p in again.history]
        for seat in seats:  # a seat's secrets only in that seat's view
            assert replay.view(seat) == again.view(seat)


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_is_never_played(game):
    replay = Replay.of(finished(game))
    replay.goto(0)
    seat = min(replay.awaiting)
    assert replay.legal(seat) == [] and not replay.can_undo(seat)
    for attempt in (lambda: replay.submit(seat, "anything"), lambda: replay.undo(seat),
                    lambda: replay.check(seat, "anything")):
        with pytest.raises(IllegalCommand, match="replay"):
            attempt()
    with pytest.raises(RulesError):
        replay.bot_move(seat)
    assert replay.position == 0 and replay.history == []


@pytest.mark.parametrize("game", GAMES)
def test_a_save_replays_and_a_move_that_no_longer_does_ends_the_replay_there(game):
    match = finished(game)
    data = json.loads(json.dumps(match.to_json()))
    replay = rules.load_replay(data)
    assert replay.stopped is None and replay.moves == len(match.history)
    assert replay.view(None) == match.view(None)
    data["commands"][5][1] = "not a move at all"
    cut = rules.load_replay(data)
    assert cut.moves == 5 and isinstance(cut.stopped, ReplayError) and cut.stopped.move == 6
    assert "move 6 ('not a move at all') does not replay" in str(cut.stopped)
    assert cut.view(None) == _after(match, 5).view(None)


@pytest.mark.parametrize("entry", [[9, "take 1"], "take 1", {"seat": 0}])
def test_a_malformed_move_ends_the_replay_before_it(entry):
    match = finished(GAMES[0])
    data = json.loads(json.dumps(match.to_json()))
    data["commands"][4] = entry
    cut = rules.load_replay(data)
    assert cut.moves == 4 and cut.stopped.move == 5 and "move 5 is not [seat" in str(cut.stopped)
    assert cut.view(None) == _after(match, 4).view(None) and cut.differs is None


def test_moves_that_do_not_reach_the_saved_position_replay_all_and_say_where():
    match = finished(GAMES[0])
    data = json.loads(json.dumps(match.to_json()))
    assert rules.load_replay(data).differs is None
    data["snapshot"] = {**data["snapshot"], "turn": -5}
    replay = rules.load_replay(data)
    assert replay.stopped is None and replay.moves == len(match.history)
    assert replay.differs == "turn" and replay.view(None) == match.view(None)


@pytest.mark.parametrize("game", GAMES)
def test_only_the_public_view_of_a_game_not_over_is_replayed(game):
    match = finished(game)
    replay = Replay.of(match)
    assert replay.private_views
    replay.goto(3)
    assert all(replay.view(seat) == _after(match, 3).view(seat) for seat in range(len(match.seats)))
    unfinished = Replay.of(_after(match, len(match.history) - 1))  # one move from the end
    assert not unfinished.private_views
    for position in (0, 3, unfinished.moves):
        unfinished.goto(position)
        assert unfinished.view(None) == _after(match, position).view(None)
        for seat in range(len(match.seats)):
            with pytest.raises(IllegalCommand, match="The game is not over: only the public view"):
                unfinished.check_view(seat)
            with pytest.raises(IllegalCommand, match="The game is not over"):
                unfinished.view(seat)


def _after(match: Match, moves: int) -> Match:
    again = Match(match.spec, match.seats, match.options, match.seed)
    for played in match.history[:moves]:
        again.submit(played.seat, played.text)
    return again


@pytest.mark.parametrize("damage, words", [
    ({"seats": "Ann"}, "the save is damaged"),
    ({"seed": None}, "the save is damaged"),
    ({"format": 99}, "newer cardtable"),
    ({"game": "chess"}, "a game this version does not have"),
])
def test_a_damaged_save_is_refused_in_words(damage, words):
    data = json.loads(json.dumps(finished(GAMES[0]).to_json()))
    data.update(damage)
    with pytest.raises(SaveFormatError, match=words.replace("[", r"\[")):
        rules.load_replay(data)


def test_format_1_saves_replay_too(pile):
    match = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    for text in ("take 1", "take 1"):
        match.submit(min(match.awaiting), text)
    data = match.to_json()
    data["format"] = 1
    data["commands"] = [text for _seat, text in data["commands"]]
    replay = rules.load_replay(data)
    assert replay.moves == 2 and [p.seat for p in replay.history] == [0, 1]


@pytest.mark.parametrize("game", GAMES)
def test_turns_are_found_forward_and_back(game):
    replay = Replay.of(finished(game))
    first, last = replay.turns
    assert replay.start_of_turn(first) == 0
    assert replay.start_of_turn(last + 10) == replay.start_of_turn(last)
    position, seen = 0, [replay.turn_at(0)]
    while position < replay.moves:
        position = replay.next_turn(position, 1)
        seen.append(replay.turn_at(position))
    # each step a later turn; the last step, from the last turn's start, goes to the game's end
    assert position == replay.moves and seen[-1] == last
    assert seen[:-1] == sorted(set(seen[:-1]))
    # back from the middle of a turn goes to its start; from its start, to the turn before
    middle = replay.start_of_turn(first + 1) + 1
    if replay.turn_at(middle) == first + 1:
        assert replay.next_turn(middle, -1) == replay.start_of_turn(first + 1)
    assert replay.next_turn(replay.start_of_turn(first + 1), -1) == 0
    assert replay.next_turn(0, -1) == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_chart_follows_each_seats_public_score_to_the_result(game):
    players = min(3, rules.find_game(game).players[1])
    match = finished(game, players)
    series = Replay.of(match).scores()
    assert series.label
    assert len(series.values) == len(match.history) + 1 == len(series.turns)
    assert all(len(values) == players for values in series.values)
    if match.spec.name in ("property", "portfolio"):  # both score by money alone
        assert series.values[-1] == match.outcome.scores
    assert len(set(series.values)) > 1  # the money moved during the game


def test_a_game_without_scores_is_charted_from_its_public_scoreboard(pile):
    assert not hasattr(pile, "scores")
    match = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    for text in ("take 1", "take 1", "guess 1", "guess 2", "take 2", "take 1"):
        match.submit(min(match.awaiting), text)
    series = Replay.of(match).scores()
    assert series.label == "Pile"
    assert [values[0] for values in series.values] == [5, 4, 3, 3, 3, 1, 0]


def _reachable(root, spec) -> int:
    """How many objects ``root`` holds (the game's spec, classes, functions and modules aside:
    shared by every match)."""
    seen, todo = {id(spec)}, [root]
    count = 0
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType,
                                                 types.BuiltinFunctionType, types.MethodType)):
            continue
        seen.add(id(item))
        count += 1
        todo.extend(gc.get_referents(item))
    return count


def test_a_replay_keeps_a_position_every_few_moves_not_every_move():
    """A long game's replay holds little more than the game: a copy of the state every move
    (an Abundance match's thousand and more) held a replay at seven times the game's objects."""
    match = finished("abundance", seed=1)
    assert len(match.history) > 500
    replay = Replay.of(match)
    assert _reachable(replay, match.spec) < 2 * _reachable(match, match.spec)


@pytest.mark.parametrize("game", GAMES)
def test_every_position_is_rebuilt_alike_in_any_order(game):
    """Positions rebuilt from the copies kept (forward, back, jumps, the same one twice) are the
    game's own, and a view taken earlier is not changed by going elsewhere."""
    match = finished(game)
    again = Match(match.spec, match.seats, match.options, match.seed)
    views = [again.view(None)]
    for played in match.history:
        again.submit(played.seat, played.text)
        views.append(again.view(None))
    replay = Replay.of(match)
    order = list(range(replay.moves + 1))
    random.Random(7).shuffle(order)
    order += [0, 1, 2, 1, 1, replay.moves, 17, 16, 15, 33]
    kept = []
    for position in order:
        position = min(position, replay.moves)
        assert replay.goto(position) == position
        assert replay.view(None) == views[position]
        kept.append((position, replay.view(None)))
    assert all(view == views[position] for position, view in kept[-40:])
