"""Capital Auction: no name breaks anything (issue 20). A player named inside a Tool command is
saved by seat number and typed by number or name (quoted where need be); a saved game replays to
the same state whatever the players are called; the rules' sentences carry their players as
parts, never as text to be searched."""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules.capital_auction import SPEC, Pass, Play, React
from rules.capital_auction.events import Looked, ToolPlayed
from rules.core import IllegalCommand, Match, NotationError, Seat, chance, get_bot
from rules.core.words import Player

BOT = get_bot(SPEC, "bot").playout  # the moves here are the bot's reading of the table, without its search
# each table mixes names the notation's words could swallow ("pay" ends a Tool's targets),
# prefixes of one another, numbers, markup, quotes, other scripts and the longest name allowed
HOSTILE = {
    2: ["pay", "李雷"],
    3: ["Bob", "Bob 2", "Bob [kid]"],
    4: ["[@click=app.quit]", "3", "[/]", "[/] 2"],
    5: ['"Quoted"', "QD", "Zoë", "Ибрагим", "pay day " + "x" * 32],
}
TOOLS_ON_PLAYERS = ("insider", "audit", "takeover", "merger", "tax", "espionage")


def view_for(names, seat=0):
    """A fresh game's view for ``seat``: enough for the notation, which reads only names and hand."""
    return SPEC.view(SPEC.setup(names, None, 1), seat)


def played_to(names, seed, target, limit=400):
    """A match of ``names`` (every move the game's bot's) played until some seat may play a
    command ``target(command, seat)`` accepts; that seat and command."""
    match = Match(SPEC, [Seat(name) for name in names], seed=seed)
    for _ in range(limit):
        assert not match.over, "the game ended before the move came up: pick another seed"
        seat = min(match.awaiting)
        legal = match.legal(seat)
        hit = next((command for command in legal if target(command, seat)), None)
        if hit is not None:
            return match, seat, hit
        match.submit(seat, BOT.choose(match.view(seat), legal, chance(seed, len(match.history))))
    pytest.fail("the move never came up")


def replayed(match):
    """The match saved and opened again (JSON text, as on disk)."""
    return rules.load_match(json.loads(json.dumps(match.to_json())))


# -- the two moves of the issue ------------------------------------------------------------------

def test_tool_insider_pay_1_is_saved_by_number_and_replays():
    # players "Pay", "pay day" and "Bob": "tool insider Pay 1" was saved as typed, and its "Pay"
    # read as the word pay; the seed is pinned to a game of the bot's in which Bob may look at
    # Pay's first card (a change to the bot may call for another)
    names = ["Pay", "pay day", "Bob"]
    match, seat, _ = played_to(names, 2, lambda c, s: isinstance(c, Play) and c.tool == "insider"
                               and c.player == 0 and c.card == 1 and s != 0)
    command = match.parse(seat, "tool insider Pay 1")
    assert command == Play("insider", 0, 1)
    match.submit(seat, command)
    assert match.history[-1].text == "tool insider 1 1"
    assert match.spec.notation.display(command, names) == "tool insider Pay 1"
    while not match.over and len(match.history) < 80:
        s = min(match.awaiting)
        match.submit(s, BOT.choose(match.view(s), match.legal(s), chance(1, len(match.history))))
    again = replayed(match)
    assert again.state == match.state
    assert [p.command for p in again.history] == [p.command for p in match.history]


def test_tool_merger_with_bob_beside_bob_2_is_saved_by_number_and_replays():
    # "Bob 2" beside "Bob": "tool merger 3 Bob 2 pay 2 1" (give card 3 to Bob, take his card 2)
    # was saved so, and read back as a merger with "Bob 2" (pinned seed, as above)
    names = ["Bob 2", "Bob", "Cleo"]
    match, seat, _ = played_to(names, 23, lambda c, s: isinstance(c, Play) and c.tool == "merger"
                               and c.player == 1 and c.card == 2 and c.own == 3)
    assert seat == 0  # Bob 2 merges with Bob
    command = match.parse(seat, 'tool merger 3 "Bob" 2 pay 2 1')
    assert command == Play("merger", 1, 2, own=3, pay=(2, 1))
    assert match.parse(seat, "tool merger 3 2 2 pay 2 1") == command
    match.submit(seat, command)
    assert match.history[-1].text == "tool merger 3 2 2 pay 2 1"
    again = replayed(match)
    assert again.state == match.state and again.history[-1].command == command


def test_a_save_of_format_2_that_named_players_still_opens():
    names = ["Pay", "pay day", "Bob"]
    match, seat, _ = played_to(names, 2, lambda c, s: isinstance(c, Play) and c.tool == "insider"
                               and c.player == 0 and c.card == 1 and s != 0)
    match.submit(seat, Play("insider", 0, 1))  # asked of the others now: the play is pending
    assert match.state.pending is not None
    data = json.loads(json.dumps(match.to_json()))
    assert data["snapshot"]["pending"]["play"]["player"] == "Pay"  # as format 2 wrote it
    data["format"] = 2
    data["commands"][-1] = [seat, "tool insider Pay 1"]  # as format 2 saved it
    assert rules.load_match(data).state == match.state


# -- the notation --------------------------------------------------------------------------------

@pytest.mark.parametrize("command, text", [
    (Play("insider", 1, 2), "tool insider 2 2"),
    (Play("audit", 2, 1, pay=(4,)), "tool audit 3 1 pay 4"),
    (Play("takeover", 0, 1, pay=(4, 3, 2, 1)), "tool takeover 1 1 pay 4 3 2 1"),
    (Play("merger", 1, 2, own=3, pay=(2, 1)), "tool merger 3 2 2 pay 2 1"),
    (Play("merger", 2, own=1, pay=(2, 1)), "tool merger 1 3 pay 2 1"),
    (Play("tax", 1, pay=(1,)), "tool tax 2 pay 1"),
    (Play("espionage", 2, pay=(1,)), "tool espionage 3 pay 1"),
])
def test_a_player_is_written_by_number_whatever_the_names(command, text):
    assert SPEC.notation.format(command) == text
    for names in (["Ann", "Bob", "Cleo"], ["pay", "3", "[/]"], ["Bob 2", "Bob", "tool"]):
        assert SPEC.notation.parse(text, view_for(names)) == command


@pytest.mark.parametrize("names, text, seat", [
    (["Ann", "Bob", "Cleo"], "tool tax 2", 1),  # a number
    (["Ann", "Bob", "Cleo"], "tool tax bOB", 1),  # a name, in any case
    (["Ann", "Bob Lee", "Cleo"], "tool tax bob lee", 1),  # a name with a space
    (["Ann", "Bob Lee", "Cleo"], 'tool tax "Bob Lee"', 1),  # … quoted
    (["Ann", "Bob", "Bob 2"], "tool tax Bob", 1),  # a name that begins another
    (["Ann", "Bob", "Bob 2"], 'tool tax "Bob 2"', 2),
    (["Ann", "Bob", "Bob 2"], "tool tax 3", 2),
    (["Ann", "3", "Cleo"], 'tool tax "3"', 1),  # a name that is a number, quoted
    (["Ann", "3", "Cleo"], "tool tax 3", 2),  # … and the number itself
    (["Ann", "pay", "Cleo"], "tool tax pay", 1),  # a command word
    (["Ann", "pay", "Cleo"], "tool tax pay pay 5", 1),
    (["Ann", "tool", "pass"], "tool tax PASS", 2),
    (["Ann", "[/]", "Cleo"], "tool tax [/]", 1),  # markup
    (["Ann", "[/]", "Cleo"], 'tool tax "[/]"', 1),
    (["Ann", "李雷", "Cleo"], "tool tax 李雷", 1),
])
def test_a_player_is_read_from_a_number_or_a_name(names, text, seat):
    command = SPEC.notation.parse(text, view_for(names))
    assert isinstance(command, Play) and command.tool == "tax" and command.player == seat


@pytest.mark.parametrize("names, text, command", [
    (["Ann", "Bob", "Bob 2"], "tool audit Bob 1", Play("audit", 1, 1, pay=(1,))),
    (["Ann", "Bob", "Bob 2"], 'tool audit "Bob 2" 1', Play("audit", 2, 1, pay=(1,))),
    (["Ann", "Bob", "Bob 2"], "tool audit bob 2 1 pay 3", Play("audit", 2, 1, pay=(3,))),
    (["Ann", "Pay", "pay day"], "tool insider Pay 1", Play("insider", 1, 1)),
    (["Ann", "Pay", "pay day"], "tool insider pay day 2", Play("insider", 2, 2)),
    (["Ann", "Pay", "pay day"], "tool merger 1 pay pay 2 1", Play("merger", 1, own=1, pay=(2, 1))),
    (["Ann", "Pay", "pay day"], "tool merger 1 PAY 2 pay 2 1", Play("merger", 1, 2, own=1, pay=(2, 1))),
    (["Ann", "1a", "Cleo"], "tool insider 1a", Play("insider", lot="1a")),  # a lot, when it can be one
    (["Ann", "1a", "Cleo"], "tool insider 1a 2", Play("insider", 1, 2)),
    (["Ann", "audit", "Cleo"], "tool audit audit 1", Play("audit", 1, 1, pay=(1,))),
])
def test_names_that_look_like_the_notation_are_read_as_names(names, text, command):
    view = view_for(names)
    read = SPEC.notation.parse(text, view)
    if read.pay and not command.pay:
        command = Play(**{**command.__dict__, "pay": read.pay})
    assert read == command
    assert SPEC.notation.parse(SPEC.notation.format(read), view) == read


@pytest.mark.parametrize("text", ["tool tax Dan", "tool audit Dan 1", "tool merger 1 Dan 2", "tool tax 4",
                                  'tool tax "Bo"', "tool insider Bob"])
def test_an_unknown_player_is_refused_naming_the_players(text):
    with pytest.raises(NotationError, match=r"1 Ann, 2 Bob, 3 Cleo"):
        SPEC.notation.parse(text, view_for(["Ann", "Bob", "Cleo"]))


def test_the_log_shows_the_players_by_name_as_parts():
    names = ["[/]", "Bob 2", "Bob [kid]"]
    shown = SPEC.notation.display(Play("merger", 1, 2, own=3, pay=(2, 1)), names)
    assert shown == "tool merger 3 Bob 2 2 pay 2 1"
    assert Player(1, "Bob 2") in shown.parts
    assert SPEC.notation.display(Pass(), names) == "pass"
    assert SPEC.notation.display(React((1,)), names) == "react connection pay 1"


# -- whole games with hostile names --------------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_game_with_hostile_names_saves_and_replays_to_the_same_state(count, seed):
    rng = random.Random(seed)
    names = HOSTILE[count]
    match = Match(SPEC, [Seat(name) for name in names], seed=100 * count + seed)
    plays = 0
    while not match.over:
        seat = min(match.awaiting)
        legal = match.legal(seat)
        # a Tool on a player whenever there is one: the moves that name players
        on_players = [c for c in legal if isinstance(c, Play) and c.player is not None]
        command = rng.choice(on_players if on_players and rng.random() < 0.9 else legal)
        plays += command in on_players
        match.submit(seat, match.format(command))  # as saved: the text must read back the same
        assert match.history[-1].command == command
        if len(match.history) % 17 == 0:
            assert replayed(match).state == match.state
    again = replayed(match)
    assert again.state == match.state and again.over
    assert plays, "the game should name players in its moves"


# -- sentences carry their parts -----------------------------------------------------------------

def test_events_statuses_refusals_and_the_result_carry_players_as_parts():
    names = ["[/]", "Bob [kid]", "[@click=app.quit]"]
    match, seat, command = played_to(names, 1, lambda c, s: isinstance(c, Play) and c.player is not None
                                     and c.card)
    status = match.view(None).status
    assert Player(seat, names[seat]) in status.parts
    events = match.submit(seat, command)
    played = next(e for e in events if isinstance(e, ToolPlayed))
    sentence = played.describe(names, None)
    assert Player(seat, names[seat]) in sentence.parts and Player(command.player, names[command.player]) in sentence.parts
    # a refusal that names a player keeps the player as a part
    other = next(s for s in range(3) if s not in match.awaiting)
    with pytest.raises(IllegalCommand) as refusal:
        match.submit(other, Pass())
    assert Player(other, names[other]) in refusal.value.sentence.parts
    while not match.over:
        s = min(match.awaiting)
        looked = [e for e in match.submit(s, BOT.choose(match.view(s), match.legal(s), chance(1, len(match.history))))
                  if isinstance(e, Looked)]
        for event in looked:
            assert any(isinstance(part, Player) for part in event.describe(names, s).parts)
    summary = match.outcome.summary
    assert any(isinstance(part, Player) for part in summary.parts)
    end = match.history[-1].events[-1].describe(names, None)
    assert {part.seat for part in end.parts if isinstance(part, Player)} == {0, 1, 2}
