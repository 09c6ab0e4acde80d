"""The bus, undo policy and save/replay of Match, on Pile, a tiny game made for the purpose
(tests/tiny_game.py)."""

from __future__ import annotations

import json
import pytest

import rules
from rules.core import IllegalCommand, Match, NotationError, ReplayError, SaveFormatError, Seat, SnapshotMismatch
from rules.core import chance
from rules.core.match import FORMAT_VERSION, KEPT_EVERY

from tiny_game import Guess, Mark, Pile, Take, pile  # noqa: F401  (pile is a fixture)


SIMULATED = {"portfolio": 3, "capital-auction": 3}


def new_match(spec):
    return Match(spec, [Seat("Ann"), Seat("Bob")], seed=3)


def played(spec, *moves: tuple[int, str]) -> tuple[Match, dict]:
    """A match of Ann and Bob after ``moves`` (seat, notation), and its save."""
    match = new_match(spec)
    for seat, text in moves:
        match.submit(seat, text)
    return match, match.to_json()


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
    assert data["format"] == FORMAT_VERSION == 3 and data["commands"][2] == [1, "guess 2"]
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
    # a resumed game may take back what could be taken back before it was saved
    live = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    for seat, text in [(0, "mark"), (0, "take 1"), (1, "take 1")]:
        live.submit(seat, text)
    assert [match.can_undo(seat) for seat in (0, 1)] == [live.can_undo(seat) for seat in (0, 1)]


def test_undo_keeps_no_record_from_before_another_seat_acted(pile):
    # each undo record is a copy of the state: a game that reveals little (Abundance) kept one
    # for every move of the match, though none before another seat's move can be taken back
    match = new_match(pile)
    match.submit(0, "take 1")
    match.submit(1, "mark")
    match.submit(1, "take 2")
    match.submit(0, "mark")
    match.undo(0)
    assert not match.can_undo(1)  # Ann acted after Bob's moves, even if she took it back
    assert len(match._undo) == 0


def test_undo_survives_saving_and_resuming_until_something_is_revealed(pile):
    match = Match(pile, [Seat("Ann"), Seat("Bob")], seed=3)
    match.submit(0, "take 1")
    assert match.can_undo(0)
    loaded = rules.load_match(json.loads(json.dumps(match.to_json())))
    assert loaded.can_undo(0) and not loaded.can_undo(1)
    loaded.undo(0)
    assert loaded.history == [] and pile.to_json(loaded.state) == pile.to_json(Match(pile, match.seats, seed=3).state)
    match.submit(1, "peek")  # a reveal: nothing before it can be taken back, saved or not
    loaded = rules.load_match(json.loads(json.dumps(match.to_json())))
    assert not loaded.can_undo(0) and not loaded.can_undo(1)


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
    ],
)
def test_damaged_saves_raise_save_format_error(pile, damage, says):
    _match, data = played(pile, (0, "take 1"), (1, "take 1"))
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


def test_a_move_that_no_longer_replays_says_which(pile):
    match = new_match(pile)
    match.submit(0, "take 1")
    match.submit(1, "take 1")
    data = match.to_json()
    data["commands"].append([0, "take 9"])
    with pytest.raises(ReplayError, match="move 3 .* does not replay") as raised:
        rules.load_match(data)
    assert (raised.value.move, raised.value.text) == (3, "take 9")
    # everything before it replays: the game can resume there
    data["commands"] = data["commands"][: raised.value.move - 1]
    del data["snapshot"]
    assert [p.text for p in rules.load_match(data).history] == ["take 1", "take 1"]


def test_an_exception_deep_inside_a_game_during_replay_is_that_moves_replay_error(pile, monkeypatch):
    match = new_match(pile)
    match.submit(0, "take 1")
    data = match.to_json()

    def broken(*args):
        raise KeyError("3D")

    monkeypatch.setattr(pile.notation, "parse", broken)
    with pytest.raises(ReplayError, match=r"move 1 \('take 1'\) does not replay: KeyError") as raised:
        rules.load_match(data)
    assert raised.value.move == 1


@pytest.mark.parametrize("entry, text", [
    ([2, "take 1"], "take 1"),  # a seat the game does not have
    ([-1, "take 1"], "take 1"),
    ([True, "take 1"], "take 1"),
    ("take 1", "take 1"),  # the notation without its seat
    ([0, "take 1", "extra"], "[0, 'take 1', 'extra']"),
    ({"seat": 0}, "{'seat': 0}"),
    (None, "None"),
])
def test_a_malformed_move_is_a_replay_error_naming_it(pile, entry, text):
    _match, data = played(pile, (0, "take 1"), (1, "take 1"))
    data["commands"][1:1] = [entry]  # move 2 of 3
    with pytest.raises(ReplayError, match=r"move 2 is not \[seat") as raised:
        rules.load_match(data)
    assert (raised.value.move, raised.value.text) == (2, text)
    # a format-1 save's move that is not notation is named the same way
    data = {"format": 1, "game": "pile", "seats": data["seats"], "seed": 3, "commands": ["take 1", 7]}
    with pytest.raises(ReplayError, match="move 2 is not a command in notation") as raised:
        rules.load_match(data)
    assert (raised.value.move, raised.value.text) == (2, "7")


@pytest.mark.parametrize("damage, where", [
    (lambda d: d["snapshot"].update(marks=7), "marks"),
    (lambda d: d["snapshot"].update(names=["Ann", "Bo"]), "names[1]"),
    (lambda d: d["snapshot"].update(names=["Ann"]), "names[1]"),
    (lambda d: d["snapshot"].pop("pile"), "pile"),
    (lambda d: d["snapshot"].update({"new key": 1}), "['new key']"),
    (lambda d: d.update(snapshot=[1, 2]), ""),
])
def test_moves_that_do_not_reach_the_saved_position_say_where_it_differs(pile, damage, where):
    match, data = played(pile, (0, "take 1"), (1, "mark"))
    damage(data)
    with pytest.raises(SnapshotMismatch, match=r"^the moves replay but do not reach the saved position \(it (differs at|is not a position)") as raised:
        rules.load_match(data)
    assert (raised.value.moves, raised.value.where) == (2, where)
    # the moves are the truth: without the check they give the game as it was played
    del data["snapshot"]
    assert pile.to_json(rules.load_match(data).state) == pile.to_json(match.state)


def test_a_long_run_of_moves_is_taken_back_one_by_one_to_each_position_it_passed(pile):
    # the positions are rebuilt from copies kept every KEPT_EVERY moves, not copied at each
    match = new_match(pile)
    seen = []
    for _ in range(3 * KEPT_EVERY + 2):
        seen.append(pile.to_json(match.state))
        match.submit(0, "mark")
    while seen:
        match.undo(0)
        assert pile.to_json(match.state) == seen.pop()
    assert not match.can_undo(0) and match.history == []
    match.submit(0, "take 2")
    assert match.state.pile == 3 and [p.text for p in match.history] == ["take 2"]


def test_a_failing_apply_far_from_a_kept_copy_leaves_the_state_as_it_was(pile, monkeypatch):
    match = new_match(pile)
    for _ in range(KEPT_EVERY + 5):
        match.submit(0, "mark")
    before = pile.to_json(match.state)
    apply = pile.apply

    def broken(state, seat, command):
        if isinstance(command, Take):
            state.pile = 0
            raise RuntimeError("a bug half-way")
        return apply(state, seat, command)

    monkeypatch.setattr(pile, "apply", broken)
    with pytest.raises(RuntimeError):
        match.submit(0, "take 1")
    assert pile.to_json(match.state) == before and len(match.history) == KEPT_EVERY + 5
    match.undo(0)
    assert match.state.marks == KEPT_EVERY + 4


def test_the_state_is_copied_once_every_so_many_moves_not_before_each(pile, monkeypatch):
    # a copy before every command cost an Abundance move more as the state grew with the match
    import copy as copying

    from rules.core import match as match_module

    copies = []
    deepcopy = copying.deepcopy
    monkeypatch.setattr(match_module.copy, "deepcopy", lambda value: copies.append(value) or deepcopy(value))
    match = new_match(pile)
    for _ in range(4 * KEPT_EVERY):
        match.submit(0, "mark")
    assert len(copies) == 4


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_every_move_taken_back_leaves_the_position_before_it_in_every_game(game):
    spec = rules.find_game(game)
    count = max(spec.players[0], SIMULATED.get(game, 0))
    undone = 0
    for seed in range(30):  # games of random play, as many as it takes to take 30 moves back
        match = Match(spec, [Seat(name) for name in ["Ann", "Bob", "Cleo", "Dan"][:count]], seed=seed)
        for step in range(300):
            if match.over or undone >= 30:
                break
            seat = min(match.awaiting)
            before = spec.to_json(match.state)
            command = chance(seed, f"undo/{step}").choice(match.legal(seat))
            match.submit(seat, command)
            if match.can_undo(seat) and step % 3:
                match.undo(seat)
                assert spec.to_json(match.state) == before
                match.submit(seat, command)
                undone += 1
    assert undone >= 30


def test_a_position_set_from_outside_stays_after_a_refusal_and_nothing_before_it_is_taken_back(pile):
    match = new_match(pile)
    for _ in range(3):
        match.submit(0, "mark")
    state = pile.from_json(dict(pile.to_json(match.state), marks=40))
    match.state = state
    assert not match.can_undo(0)
    with pytest.raises(IllegalCommand):
        match.submit(0, "take 3")
    assert match.state.marks == 40
    match.submit(0, "mark")
    match.undo(0)
    assert pile.to_json(match.state) == pile.to_json(state)
