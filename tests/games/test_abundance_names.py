"""No name breaks Abundance (issue 20): a saved move holds no name (an offer is saved as
``offer: …``, to the only other player), the command bar reads the other player by number or
by name however it is written, and every sentence the rules write carries its players, cards and
money as parts, whatever the players are called."""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules.abundance import SPEC, rarity
from rules.abundance.commands import Accept, Offer, Ready, Side
from rules.abundance.events import (
    BidMade, CardTurned, MatchOver, NewRubber, PileChosen, RubberOver, SealedRevealed, Sold, Won,
)
from rules.abundance.state import TRINKET_CARDS
from rules.core import IllegalCommand, Match, NotationError, Seat, parse_card
from rules.core.words import Money, Player

C = parse_card
ANN, BOB = 0, 1

HOSTILE = [
    ("offer", "pass"),  # the game's command words
    ("3", "QD"),  # a number, a card code
    ("Bob", "Bob 2"),  # one a prefix of the other
    ("[/]", "Bob [kid]"),  # markup
    ("[@click=app.quit]", "O\"Brien 'x'"),  # markup that acts; quotes
    ("Zoë", "李雷"),
    ("Ибрагим", "W" * 40),  # other scripts; forty characters
]


def trade_window(names, **fields):
    """A trade window of round 1: the first player holds 3♠ 5♠, the second 9♠ 2♥."""
    data = {"names": list(names), "phase": "trade", "trinkets": [["3S", "5S"], ["9S", "2H"]],
            "money": [30, 20], **fields}
    return SPEC.from_json(json.loads(json.dumps(data)))


def parse(names, seat, text):
    return SPEC.notation.parse(text, SPEC.view(trade_window(names), seat))


# -- notation -------------------------------------------------------------------------------------

@pytest.mark.parametrize("names, seat, text", [
    (("Ann", "Bob"), ANN, "offer 2: take $1"),  # a seat number from 1
    (("Ann", "Bob"), ANN, "offer BOB: take $1"),  # a name in any case
    (("Ann", "Bob Smith"), ANN, 'offer "bob smith": take $1'),  # quoted, with a space
    (("Ann", "Bob Smith"), ANN, "offer Bob Smith: take $1"),
    (("Bob", "Bob 2"), BOB, "offer bob: take $1"),  # "Bob" beside "Bob 2"
    (("Bob", "Bob 2"), ANN, "offer Bob 2: take $1"),
    (("Bob", "Bob 2"), ANN, 'offer "Bob 2": take $1'),
    (("3", "Ann"), BOB, 'offer "3": take $1'),  # a name that is a number
    (("3", "Ann"), BOB, "offer 3: take $1"),
    (("offer", "pass"), BOB, "offer offer: take $1"),  # a name that is a command word
    (("offer", "pass"), ANN, "offer pass: take $1"),
    (("[/]", "Bob [kid]"), ANN, "offer bob [kid]: take $1"),
    (("[/]", "Bob [kid]"), BOB, "offer [/]: take $1"),
    (("Zoë", "李雷"), ANN, "offer 李雷: take $1"),
])
def test_an_offer_to_the_other_player_is_typed_by_number_or_name_and_saved_without_either(names, seat, text):
    command = parse(names, seat, text)
    assert command == Offer(None, Side(), Side(money=1))
    assert SPEC.notation.format(command) == "offer: take $1"  # what is saved: no name, no seat
    SPEC.check(trade_window(names), seat, command)


@pytest.mark.parametrize("names, seat, text", [
    (("Ann", "Bob"), ANN, "offer 1: take $1"),
    (("Ann", "Bob"), ANN, "offer ann: take $1"),
    (("Bob", "Bob 2"), ANN, "offer bob: take $1"),  # the longer name is not taken for "Bob"
    (("3", "Ann"), ANN, 'offer "3": take $1'),
    (("offer", "pass"), BOB, "offer PASS: take $1"),
    (("[/]", "Bob [kid]"), ANN, "offer [/]: take $1"),
])
def test_an_offer_to_oneself_is_read_as_such_and_refused(names, seat, text):
    command = parse(names, seat, text)
    assert command == Offer(seat, Side(), Side(money=1))
    with pytest.raises(IllegalCommand, match="cannot trade with yourself"):
        SPEC.check(trade_window(names), seat, command)


def test_an_unknown_player_is_refused_naming_the_players():
    with pytest.raises(NotationError, match=r"'Zed' is not a player here; the players are 1 \[/\], 2 Bob \[kid\]"):
        parse(("[/]", "Bob [kid]"), ANN, "offer Zed: take $1")
    with pytest.raises(NotationError, match="not a player here"):
        parse(("Ann", "Bob"), ANN, "offer 3: take $1")


def test_command_words_as_names_leave_the_commands_as_they_were():
    names = ("pass", "ready")
    state = trade_window(names)
    assert SPEC.notation.parse("ready", SPEC.view(state, ANN)) == Ready()
    assert SPEC.notation.parse("offer ready: give 3S", SPEC.view(state, ANN)) == Offer(None, Side((C("3S"),)))


def test_the_log_shows_an_offer_with_its_cards_and_money_as_parts():
    offer = Offer(None, Side((C("7H"),), money=5), Side((C("2S"),)))
    shown = SPEC.notation.display(offer, ["[/]", "Bob [kid]"])
    assert shown == "offer: give 7♥, $5 take 2♠"
    assert C("7H") in shown.parts and C("2S") in shown.parts and Money(5) in shown.parts
    assert SPEC.notation.display(Offer(BOB, Side(money=1)), ["Ann", "Bob"]) == "offer: give $1"
    assert SPEC.notation.display(Accept(), ["Ann", "Bob"]) == "accept"


# -- a whole match, saved and loaded at every stage -------------------------------------------------

def typed_offer(match: Match, seat: int, rng: random.Random) -> str | None:
    """An offer as a person might type it, naming the other player by a quoted name, the
    name as it is, or the seat number (None when it could not be played now)."""
    state = match.state
    other = 1 - seat
    if state.phase != "trade" or state.offer is not None or state.offered[seat] or seat not in match.awaiting:
        return None
    if state.money[seat] < 1:
        return None
    name = match.names[other]
    who = rng.choice([f'"{name}"', name, str(other + 1)])
    return f"offer {who}: give $1"


@pytest.mark.parametrize("names", HOSTILE, ids=lambda names: "+".join(names))
def test_a_match_with_hostile_names_saves_and_loads_to_the_same_state(names):
    seed = 20 + HOSTILE.index(names)
    match = Match(SPEC, [Seat(name, "random") for name in names], seed=seed)
    rng = random.Random(seed)
    typed = 0
    checkpoints = {40, 150, 300}
    step = 0
    while not match.over:
        seat = min(match.awaiting)
        text = typed_offer(match, seat, rng) if rng.random() < 0.3 else None
        if text is not None:
            match.submit(seat, text)
            typed += 1
        else:
            legal = match.legal(seat)
            # random play, but bids kept small so the match lasts its two rubbers of trading
            choices = [c for c in legal if getattr(c, "amount", 0) <= 6] or legal
            match.submit(seat, rng.choice(choices))
        step += 1
        if step in checkpoints:
            same_after_loading(match)
    assert typed > 10 and match.over and len(match.history) > 400
    same_after_loading(match)
    saved = json.dumps(match.to_json())
    assert not any(f"offer {name}" in saved for name in names)


def same_after_loading(match: Match) -> None:
    data = json.loads(json.dumps(match.to_json()))
    loaded = rules.load_match(data)
    assert loaded.state == match.state
    assert loaded.names == match.names and loaded.outcome == match.outcome
    for seat in (0, 1):
        assert loaded.view(seat).status == match.view(seat).status


# -- sentences carry their parts --------------------------------------------------------------------

NAMES = ["[/]", "Bob [kid]"]


def test_events_name_players_cards_and_money_as_parts():
    players = {Player(0, "[/]"), Player(1, "Bob [kid]")}
    for event, want in [
        (PileChosen(ANN, 3, 1), {Player(0, "[/]")}),
        (CardTurned(C("7H"), 3, 1, "open", BOB), {C("7H"), Player(1, "Bob [kid]")}),
        (BidMade(BOB, 7), {Player(1, "Bob [kid]")}),
        (Won(ANN, C("QD"), 9), {Player(0, "[/]"), C("QD"), Money(9)}),
        (SealedRevealed(C("7H"), (8, 8), None, 8, BOB), players | {C("7H")}),
        (SealedRevealed(C("7H"), (12, 8), ANN, 12, BOB), players | {C("7H"), Money(12)}),
        (RubberOver(1, (230, 180)), players | {Money(230), Money(180)}),
        (NewRubber(2, ANN, 50), {Player(0, "[/]"), Money(50)}),
    ]:
        parts = set(event.describe(NAMES, None).parts)
        assert want <= parts, event
    sold = Sold(1, 1, (3, 1, 0, 0), rarity((3, 1, 0, 0)), (0, 2, 20, 4), ((C("3S"), C("4S"), C("5S")), ()), (36, 0))
    text = sold.describe(NAMES, None)
    assert {C("3S"), C("4S"), C("5S"), Money(36), Money(20)} <= set(text.parts)
    assert players <= set(text.parts) and "[/] sells 3♠ 4♠ 5♠ (corner in ♠) for $36" in text


def test_the_status_names_players_and_the_card_as_parts():
    state = SPEC.from_json({"names": NAMES, "phase": "auction", "card": "QD"})
    status = SPEC.view(state, BOB).status
    assert status == "[/]: bid on Q♦ or pass (no bid yet)."
    assert Player(0, "[/]") in status.parts and C("QD") in status.parts
    status = SPEC.view(trade_window(NAMES), BOB).status
    assert {Player(0, "[/]"), Player(1, "Bob [kid]")} <= set(status.parts)


def test_refusals_name_cards_money_and_players_as_parts():
    state = trade_window(NAMES)
    for text, want, words in [
        ("offer: give QD", C("QD"), "You have no trinket Q♦."),
        ("offer: take 7H", C("7H"), "Bob [kid] has no trinket 7♥."),
        ("offer: take $21", Money(21), "Bob [kid] has only $20, not $21."),
    ]:
        with pytest.raises(IllegalCommand) as refused:
            SPEC.check(state, ANN, SPEC.notation.parse(text, SPEC.view(state, ANN)))
        assert refused.value.sentence == words and want in refused.value.sentence.parts
    stale = trade_window(NAMES, offer={"proposer": 0, "responder": 1, "take_cards": ["KD"]})
    with pytest.raises(IllegalCommand) as refused:
        SPEC.check(stale, BOB, Accept())
    assert refused.value.sentence == "That offer cannot be carried out (Bob [kid] has no trinket K♦); decline it."
    assert {C("KD"), Player(1, "Bob [kid]")} <= set(refused.value.sentence.parts)
    auction = SPEC.from_json({"names": NAMES, "phase": "auction", "card": "QD"})
    with pytest.raises(IllegalCommand) as refused:
        SPEC.check(auction, ANN, Ready())
    assert refused.value.sentence == "Q♦ is up for auction: bid or pass." and C("QD") in refused.value.sentence.parts


def test_the_outcome_names_the_winner_and_the_money_as_parts():
    over = SPEC.from_json({"names": NAMES, "phase": "over", "rubber": 2, "round": 4,
                           "sold": [card.key for card in TRINKET_CARDS], "rubbers": [[90, 120], [300, 200]]})
    summary = SPEC.outcome(over).summary
    assert summary == "[/] wins with $390 to $320 over the two rubbers."
    assert {Player(0, "[/]"), Money(390), Money(320)} <= set(summary.parts)
    assert set(MatchOver(summary).describe(NAMES).parts) == set(summary.parts)
