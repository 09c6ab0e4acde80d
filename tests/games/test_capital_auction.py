"""Capital Auction's rules, one test (or more) per rule of the issue, per Tool of the card set
and per ruling, on positions written as JSON by hand. Every refusal of ``check`` is submitted
here and shown to change nothing."""

from __future__ import annotations

import copy
import json
import random

import pytest

from rules.capital_auction import (
    CARDS, SPEC, Bid, Capital, Decline, DiscardCapital, DiscardTool, Flip, Investment, Pass, Play,
    React, Take, Tool, tool_uses, useful_bids,
)
from rules.capital_auction.cards import load_card_set
from rules.capital_auction.events import (
    AuctionOpened, AuctionWon, BidMade, Cancelled, CapitalDiscarded, CapitalTaken, Declined, Drew,
    Flipped, GameOver, LaidOut, Looked, LotFlipped, Moved, NobodyBid, Passed, Reacted, Reshuffled,
    Spied, Stole, ToolDiscarded, ToolPlayed, WrittenOff,
)
from rules.core import IllegalCommand, Match, NotationError, RulesError, Seat

from game_helpers import seat_helpers, seeded_positions

_seat = seat_helpers(SPEC)
to_move, check, legal, parse, apply, play = (
    _seat.to_move, _seat.check, _seat.legal, _seat.parse, _seat.apply, _seat.play)

NAMES = ["Ann", "Bob", "Cleo"]
ANN, BOB, CLEO = 0, 1, 2


def _rest(deck, used):
    return [card.key for card in deck if card.key not in used]


def _slot_keys(slots):
    return {slot if isinstance(slot, str) else slot["card"] for slot in slots}


def position(names=NAMES, capital=None, tools=None, portfolios=None, table=None, phase="bid",
             starter=0, **extra):
    """A position from hand-written JSON. By default Ann opens auction 1 of round 1; every card
    not named lies in its deck (so draws have something to draw)."""
    n = len(names)
    capital = capital if capital is not None else [["5", "3", "1"], ["4", "2"], ["6", "1.1"]][:n]
    tools = tools if tools is not None else [[] for _ in range(n)]
    portfolios = portfolios if portfolios is not None else [[] for _ in range(n)]
    table = table if table is not None else [
        [{"card": "steel-works", "up": True}, {"card": "brewery", "up": False}],
        [{"card": "start-up", "up": True}, {"card": "print-shop", "up": False}],
        [{"card": "railway-bonds", "up": False}, {"card": "failing-bank", "up": False}]]
    data = {"names": list(names), "seed": 5, "capital": capital, "tools": tools,
            "portfolios": portfolios, "table": table, "phase": phase, "starter": starter, **extra}
    if phase == "bid" and "bidding" not in extra:
        data["bidding"] = {"order": [(starter + i) % n for i in range(n)], "final_pass": True}
    if phase == "tool" and "tool_order" not in extra:
        winner = extra.get("winner", starter)
        data["winner"] = winner
        data["tool_order"] = [(winner + 1 + i) % n for i in range(n)]
    used_capital = {k for hand in capital for k in hand} | {k for bid in extra.get("bids", []) for k in bid}
    used_capital |= set(extra.get("capital_discard", []))
    used_tools = {k for hand in tools for k in hand} | set(extra.get("tool_discard", []))
    pending = extra.get("pending")
    if pending:
        used_tools |= {pending["tool"], *pending.get("connections", [])}
    used_investments = set().union(*(_slot_keys(p) for p in portfolios), *(_slot_keys(lot) for lot in table),
                                   _slot_keys(extra.get("removed", [])))
    data.setdefault("capital_deck", _rest(CARDS.capital_deck(), used_capital))
    data.setdefault("tool_deck", _rest(CARDS.tool_deck(), used_tools))
    data.setdefault("investment_deck", _rest(CARDS.investment_deck(), used_investments))
    return SPEC.from_json(json.loads(json.dumps(data)))


def tool_turn(seat=ANN, winner=None, names=NAMES, **extra):
    """A Tool phase in which ``seat`` plays next (the winner is the player before them)."""
    n = len(names)
    winner = (seat - 1) % n if winner is None else winner
    return position(names=names, phase="tool", winner=winner, starter=winner, **extra)


def values(cards):
    return sorted((card.value for card in cards), reverse=True)


def kinds(slots):
    return [(slot.card.kind, slot.up) for slot in slots]


def refused(state, command, message, seat=...):
    """``command`` is refused with ``message`` and the state does not change."""
    before = copy.deepcopy(state)
    seat = to_move(state) if seat is ... else seat
    with pytest.raises(IllegalCommand, match=message):
        SPEC.apply(state, seat, command)
    assert state == before


def everyone_declines(state):
    events = []
    while state.phase == "react":
        events += apply(state, Decline())
    return events


# -- the card set ------------------------------------------------------------------------------------

def test_the_card_set_has_the_counts_of_the_specification():
    capital = CARDS.capital_deck()
    assert len(capital) == 70 and sum(c.value for c in capital) == 206
    assert {v: sum(1 for c in capital if c.value == v) for v in range(1, 7)} == {1: 16, 2: 16, 3: 14, 4: 10, 5: 8, 6: 6}
    investments = CARDS.investment_deck()
    assert len(investments) == 24
    assert sorted(i.value for i in investments) == sorted(
        [9, 8, 7, 7, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 1, 1, -1, -1, -2, -2, -3, -4])
    tools = CARDS.tool_deck()
    assert len(tools) == 46
    counts = {kind.name: (kind.count, kind.cost) for kind in CARDS.tools}
    assert counts == {
        "Connection in the Government": (4, 1), "Insider Information": (4, 0), "Press Release": (4, 1),
        "Audit": (4, 1), "Cover-Up": (3, 0), "Hostile Takeover": (3, 4), "Merger": (3, 2),
        "Write-Off": (3, 2), "Bailout": (4, 0), "Tax Inspection": (3, 1), "Industrial Espionage": (3, 1),
        "Public Offering": (4, 0), "Venture Fund": (4, 1)}
    bonuses = {kind.name: (kind.bonus.capital, kind.bonus.tools, kind.bonus.steal)
               for kind in CARDS.investments if kind.bonus}
    assert bonuses == {"Corner Bakery": (2, 0, 0), "Start-up": (3, 0, 0), "Patent Dispute": (0, 2, 0),
                       "Failing Bank": (0, 0, 1), "Gold-Mine Swindle": (4, 1, 0)}


def test_a_publishers_list_replaces_the_data_file():
    text = """
[[capital]]
value = 10
count = 3
[[investment]]
key = "mine"
name = "Mine"
value = 12
count = 2
bonus = { tools = 1 }
[[tool]]
key = "veto"
name = "Veto"
effect = "connection"
cost = 2
count = 5
"""
    cards = load_card_set(text)
    assert [c.key for c in cards.capital_deck()] == ["10", "10.1", "10.2"]
    assert cards.investment("mine").value == 12 and cards.investment("mine").bonus.tools == 1
    assert cards.tool("veto").cost == 2 and len(cards.tool_deck()) == 5


@pytest.mark.parametrize("text, message", [
    ("[[capital", "not valid TOML"),
    ("capital = 3", "list of \\[\\[capital\\]\\]"),
    ("[[capital]]\nvalue = 1\ncount = 1\n[[investment]]\nkey = 'a'\nname = 'A'\nvalue = 1\ncount = 1\n"
     "[[tool]]\nkey = 'x'\nname = 'X'\neffect = 'teleport'\ncost = 0\ncount = 1", "effect 'teleport'"),
    ("[[capital]]\nvalue = 1\ncount = 1\n[[investment]]\nkey = 'a'\nname = 'A'\nvalue = 1\ncount = 1\n"
     "[[tool]]\nkey = 'x'\nname = 'X'\neffect = 'bailout'\ncost = 0\ncount = 1", "effect 'bailout'"),
    ("[[capital]]\nvalue = 1\ncount = 1\n[[investment]]\nkey = 'a'\nname = 'A'\nvalue = 1\ncount = 1\n"
     "[[tool]]\nkey = 'x'\nname = 'X'\neffect = 'audit'\ncost = 0\ncount = 1", "needs a Tool with the connection"),
    ("[[capital]]\nvalue = 0\ncount = 1", "value"),
])
def test_a_broken_card_set_is_refused_in_words(text, message):
    with pytest.raises(RulesError, match=message):
        load_card_set(text)


# -- set-up --------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 6))
def test_setup_deals_six_capital_and_three_tools_and_lays_out_a_round(players):
    state = SPEC.setup([f"P{i}" for i in range(players)], None, seed=players)
    assert [len(hand) for hand in state.capital] == [6] * players
    assert [len(hand) for hand in state.tools] == [3] * players
    assert len(state.capital_deck) == 70 - 6 * players and len(state.tool_deck) == 46 - 3 * players
    # six Investment cards: auction 1 up + down, auction 2 up + down, auction 3 down + down
    assert [[slot.up for slot in lot] for lot in state.table] == [[True, False], [True, False], [False, False]]
    assert len(state.investment_deck) == 18
    conserved = SPEC.conserved(state)
    assert len(conserved["capital"]) == 70 and len(conserved["tools"]) == 46 and len(conserved["investments"]) == 24
    assert state.round == 1 and state.auction == 1 and state.phase == "bid"
    assert to_move(state) == state.starter


def test_the_first_player_is_chosen_at_random_from_the_seed():
    starters = {SPEC.setup(NAMES, None, seed).starter for seed in range(30)}
    assert starters == {0, 1, 2}
    a = SPEC.to_json(SPEC.setup(NAMES, None, 7))
    assert a == SPEC.to_json(SPEC.setup(NAMES, None, 7))
    assert a != SPEC.to_json(SPEC.setup(NAMES, None, 8))


def test_the_decks_are_shuffled():
    first = {tuple(c.key for c in SPEC.setup(NAMES, None, seed).capital[0]) for seed in range(5)}
    assert len(first) == 5
    assert SPEC.setup(NAMES, None, 1).investment_deck != SPEC.setup(NAMES, None, 2).investment_deck


def test_setup_checks_players_and_options():
    with pytest.raises(RulesError, match="2–5 players"):
        SPEC.setup(["A"], None, 1)
    with pytest.raises(RulesError, match="2–5 players"):
        SPEC.setup(list("ABCDEF"), None, 1)
    with pytest.raises(RulesError, match="ask-only-holders"):
        SPEC.setup(["A", "B"], {"ask-only-holders": "perhaps"}, 1)
    assert SPEC.setup(["A", "B"], {"ask-only-holders": True}, 1).ask_only_holders


# -- the Investment phase -------------------------------------------------------------------------

def test_a_bid_lays_capital_cards_face_up():
    state = position()
    events = play(state, "bid 5 1")
    assert events == [BidMade(ANN, (5, 1))]
    assert values(state.bids[ANN]) == [5, 1] and values(state.capital[ANN]) == [3]
    view = SPEC.view(state, CLEO)
    assert [c.value for c in view.bids[ANN]] == [5, 1] and view.high == 6 and view.leader == ANN
    assert view.capital_sizes == (1, 2, 2)
    assert to_move(state) == BOB


def test_a_bid_must_beat_the_standing_bid():
    state = position()
    play(state, "bid 5 1")
    # Bob holds 4 and 2: a tie does not beat it, and he has nothing more
    refused(state, Bid((4, 2)), "A bid of 6 does not beat the standing bid of 6: bid more than 6")
    assert legal(state) == [Pass()]


def test_the_example_of_the_rule_text_raises_3_over_2_and_5_over_3():
    state = position(names=["P1", "P2", "P3", "P4"], capital=[["2"], ["3"], ["1"], ["5"]])
    play(state, "bid 2")
    play(state, "bid 3")
    play(state, "pass")
    events = play(state, "bid 5")
    assert events[0] == BidMade(3, (5,)) and state.bidding.high == 5
    assert sorted(state.bidding.out) == [2]


def test_a_raise_names_the_whole_new_bid_and_may_reuse_the_laid_cards():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    play(state, "bid 3")
    play(state, "bid 4")
    play(state, "bid 6")
    # Ann's 3 lies on the table: her new bid 5 3 keeps it and adds the 5
    play(state, "bid 5 3")
    assert values(state.bids[ANN]) == [5, 3] and values(state.capital[ANN]) == [1]
    play(state, "pass")  # Bob
    refused(state, Bid((6, 1)), "A bid of 7 does not beat the standing bid of 8")  # Cleo
    assert legal(state) == [Pass()]
    events = play(state, "pass")
    assert events[1].seat == ANN and events[1].paid == (5, 3)
    assert values(state.capital[ANN]) == [1] and values(state.capital[BOB]) == [4, 2]
    assert values(state.capital[CLEO]) == [6, 1]


def test_a_raise_may_give_back_laid_cards():
    state = position(capital=[["5", "1"], ["4"], ["2"]])
    play(state, "bid 1")
    play(state, "bid 4")
    play(state, "pass")
    play(state, "bid 5")  # the 1 goes back to Ann's hand
    assert values(state.bids[ANN]) == [5] and values(state.capital[ANN]) == [1]


def test_a_bid_names_cards_the_bidder_holds():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    refused(state, Bid((4,)), r"You have no Capital card of 4 to bid \(yours: 5 3 1\)")
    refused(state, Bid((5, 5)), "You have only 1 Capital card of 5 to bid")
    refused(state, Bid(()), "Name the Capital cards of your bid")
    refused(state, Take(3), "It is the bidding: bid Capital cards")
    refused(state, Bid((1,)), "It is not Bob's move: the game is waiting for Ann", seat=BOB)


def test_a_pass_is_final_for_the_auction():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    play(state, "pass")  # Ann
    play(state, "bid 2")  # Bob
    play(state, "bid 6")  # Cleo
    assert to_move(state) == BOB  # Ann is not asked again
    play(state, "pass")
    assert state.phase == "tool" and state.winner == CLEO


def test_the_winner_discards_the_bid_and_takes_both_cards_as_they_lie():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    play(state, "bid 3")
    play(state, "bid 4")
    play(state, "bid 6")
    play(state, "pass")  # Ann: out, her 3 goes back at the end
    events = play(state, "pass")  # Bob: Cleo wins
    assert events[0] == Passed(BOB, False)
    won = events[1]
    assert isinstance(won, AuctionWon) and won.seat == CLEO and won.paid == (6,)
    assert kinds(state.portfolios[CLEO]) == [("steel-works", True), ("brewery", False)]
    assert values(state.capital_discard) == [6]
    assert values(state.capital[ANN]) == [5, 3, 1] and values(state.capital[BOB]) == [4, 2]
    assert state.bids == [[], [], []] and state.table[0] == []
    # the winner sees the face-down card; the others read "a face-down card"
    assert "a face-down card (Brewery (3))" in won.describe(NAMES, CLEO)
    assert "Brewery" not in won.describe(NAMES, ANN)
    assert SPEC.view(state, CLEO).portfolios[CLEO][1].card == Investment("brewery")
    assert SPEC.view(state, ANN).portfolios[CLEO][1].card is None


def test_when_everyone_passes_the_cards_are_discarded_and_there_is_no_tool_phase():
    state = position(starter=BOB, tools=[["bailout"], ["bailout.1"], []])
    play(state, "pass")
    play(state, "pass")
    events = play(state, "pass")
    assert isinstance(events[1], NobodyBid)
    assert [slot.card.kind for slot in state.removed] == ["steel-works", "brewery"]
    assert not state.removed[1].up  # discarded as it lay
    # straight on to auction 2, opened by the player after the one who opened auction 1
    assert state.auction == 2 and state.phase == "bid" and state.starter == CLEO and to_move(state) == CLEO
    assert isinstance(events[2], AuctionOpened) and events[2].starter == CLEO


def test_the_next_auction_starts_with_the_winner():
    state = tool_turn(seat=CLEO, winner=BOB)  # Bob won auction 1; Cleo, Ann, Bob play Tools
    assert state.tool_order == [CLEO, ANN, BOB]
    play(state, "pass")
    play(state, "pass")
    events = play(state, "pass")
    assert events[0] == Passed(BOB, True)
    assert state.auction == 2 and state.starter == BOB and to_move(state) == BOB
    assert state.bidding.order == (BOB, CLEO, ANN)


def test_a_face_up_card_secured_gives_its_bonus_a_face_down_one_does_not():
    table = [[{"card": "start-up", "up": True}, {"card": "corner-bakery", "up": False}], [], []]
    state = position(table=table, capital=[["1"], [], []])
    play(state, "bid 1")
    play(state, "pass")
    events = play(state, "pass")
    drew = [e for e in events if isinstance(e, Drew)]
    assert len(drew) == 1 and len(drew[0].capital) == 3 and drew[0].why == "bonus of Start-up"
    assert len(state.capital[ANN]) == 3


@pytest.mark.parametrize("card, capital, tools", [
    ("corner-bakery", 2, 0), ("start-up", 3, 0), ("patent-dispute", 0, 2), ("gold-mine", 4, 1),
])
def test_each_drawing_bonus(card, capital, tools):
    table = [[{"card": card, "up": True}], [], []]
    state = position(table=table, capital=[["1"], [], []])
    play(state, "bid 1")
    play(state, "pass")
    play(state, "pass")
    assert len(state.capital[ANN]) == capital and len(state.tools[ANN]) == tools


def test_failing_banks_bonus_takes_a_random_capital_card_from_each_opponent():
    table = [[{"card": "failing-bank", "up": True}], [], []]
    state = position(table=table, capital=[["1"], ["4", "2"], []])
    play(state, "bid 1")
    play(state, "pass")
    events = play(state, "pass")
    stole = next(e for e in events if isinstance(e, Stole))
    assert [victim for victim, _ in stole.taken] == [BOB]  # Cleo has nothing to take
    taken = stole.taken[0][1]
    assert taken in state.capital[ANN] and len(state.capital[BOB]) == 1
    assert stole.describe(NAMES, ANN) == f"Ann takes a {taken.value} from Bob at random."
    assert stole.describe(NAMES, CLEO) == "Ann takes a Capital card from Bob at random."
    assert stole.reveals
    # chance, from the seed: another seed may take the other card
    taken_by_seed = set()
    for seed in range(12):
        other = position(table=table, capital=[["1"], ["4", "2"], []], counter=seed)
        for text in ("bid 1", "pass", "pass"):
            play(other, text)
        taken_by_seed.add(values(other.capital[ANN])[0])
    assert taken_by_seed == {4, 2}


def test_the_winner_of_auction_2_turns_one_of_auction_3s_cards():
    state = position(auction=2, table=[[], [{"card": "brewery", "up": True}, {"card": "print-shop", "up": False}],
                                       [{"card": "railway-bonds", "up": False}, {"card": "start-up.1", "up": False}]])
    play(state, "bid 1")
    play(state, "pass")
    play(state, "pass")
    assert state.phase == "flip" and to_move(state) == ANN and legal(state) == [Flip("3a"), Flip("3b")]
    refused(state, Pass(), "first turn one of auction 3's face-down cards")
    refused(state, Flip("2a"), "Only a card of auction 3")
    events = play(state, "flip 3b")
    assert events[0] == LotFlipped(ANN, "3b", Investment("start-up", 1))
    assert state.table[2][1].up and state.table[2][1].seen == {0, 1, 2}
    # no bonus for a card turned on the table
    assert values(state.capital[ANN]) == [5, 3] and state.phase == "tool"
    refused_state = position(auction=2, phase="flip", winner=ANN, table=[[], [], [
        {"card": "railway-bonds", "up": True}, {"card": "start-up.1", "up": False}]])
    refused(refused_state, Flip("3a"), "3a is already face up: turn the other one")


def test_after_auction_2_a_lone_face_down_card_is_turned_without_asking():
    state = position(auction=2, table=[[], [{"card": "brewery", "up": True}],
                                       [{"card": "railway-bonds", "up": True}, {"card": "start-up.1", "up": False}]])
    play(state, "bid 1")
    play(state, "pass")
    events = play(state, "pass")
    assert LotFlipped(ANN, "3b", Investment("start-up", 1)) in events
    assert state.phase == "tool"


def test_after_auction_2_nothing_is_turned_when_both_are_up_or_nobody_won():
    both_up = [[], [{"card": "brewery", "up": True}],
               [{"card": "railway-bonds", "up": True}, {"card": "start-up.1", "up": True}]]
    state = position(auction=2, table=both_up)
    for text in ("bid 1", "pass", "pass"):
        events = play(state, text)
    assert not any(isinstance(e, LotFlipped) for e in events) and state.phase == "tool"
    nobody = position(auction=2, table=[[], [{"card": "brewery", "up": True}],
                                        [{"card": "railway-bonds", "up": False}, {"card": "start-up.1", "up": False}]])
    for text in ("pass", "pass", "pass"):
        play(nobody, text)
    assert nobody.auction == 3 and nobody.phase == "bid"
    assert [slot.up for slot in nobody.table[2]] == [False, False]


def test_useful_bids_make_each_total_with_the_fewest_cards():
    counts = ((1, 2), (3, 1), (5, 1))
    assert useful_bids(counts, 0) == ((1,), (1, 1), (3,), (3, 1), (5,), (5, 1), (5, 1, 1), (5, 3), (5, 3, 1),
                                      (5, 3, 1, 1))
    assert useful_bids(counts, 8) == ((5, 3, 1), (5, 3, 1, 1))
    # one total, two bids of as many cards: the one with the higher cards, card by card
    assert useful_bids(((2, 1), (4, 2), (6, 1)), 7)[0] == (6, 2)  # not 4 + 4
    assert useful_bids(((2, 1), (3, 2), (5, 2), (6, 1)), 11)[0] == (6, 3, 3)  # not 5 + 5 + 2
    assert useful_bids(((1, 2), (4, 2), (6, 1)), 7)[0] == (4, 4)  # fewer cards first: not 6 + 1 + 1


def test_useful_bids_are_the_fewest_then_highest_cards_of_every_total_of_real_hands():
    """Against every sub-hand of seeded hands from the real Capital deck (copies make repeats)."""
    from itertools import product

    deck = [card.value for card in CARDS.capital_deck()]
    rng = random.Random(5)
    for _ in range(200):
        values = rng.sample(deck, rng.randint(1, 8))
        counts = tuple(sorted((v, values.count(v)) for v in set(values)))
        best: dict[int, tuple[int, ...]] = {}
        for ks in product(*(range(c + 1) for _, c in counts)):
            bid = tuple(sorted((v for (v, _), k in zip(counts, ks) for _ in range(k)), reverse=True))
            if bid:
                old = best.get(sum(bid))
                if old is None or len(bid) < len(old) or (len(bid) == len(old) and bid > old):
                    best[sum(bid)] = bid
        high = rng.randint(0, 10)
        assert useful_bids(counts, high) == tuple(best[t] for t in sorted(best) if t > high), counts
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    play(state, "bid 3")
    assert legal(state) == [Bid((4,)), Bid((4, 2)), Pass()]


# -- the Tool phase ----------------------------------------------------------------------------------

LATER = [[], [{"card": "start-up", "up": True}, {"card": "print-shop", "up": False}],
         [{"card": "railway-bonds", "up": False}, {"card": "failing-bank", "up": False}]]
BOBS = [{"card": "shipping-line", "up": True}, {"card": "patent-dispute", "up": False}]
CLEOS = [{"card": "textile-mill", "up": False}]
ANNS = [{"card": "gold-mine", "up": False}, {"card": "steel-works", "up": True}]


def tools_for(ann=(), bob=(), cleo=(), **extra):
    """Ann's Tool turn (Cleo won), with these Tools, everyone's portfolio and cards on the table."""
    extra.setdefault("portfolios", [ANNS, BOBS, CLEOS])
    extra.setdefault("table", LATER)
    extra.setdefault("capital", [["1", "2", "3", "4", "5"], ["4.1", "2.1", "1.1"], ["6", "1.2"]])
    return tool_turn(seat=ANN, winner=CLEO, tools=[list(ann), list(bob), list(cleo)], **extra)


def test_each_player_has_one_tool_turn_from_the_winners_left():
    state = tools_for()
    assert [to_move(state)] == [ANN] and state.tool_order == [ANN, BOB, CLEO]
    assert legal(state) == [Pass()]
    play(state, "pass")
    assert to_move(state) == BOB
    play(state, "pass")
    play(state, "pass")
    assert state.auction == 2 and state.phase == "bid"


def test_a_tool_is_paid_with_exactly_its_cost_in_capital_cards_of_any_value():
    state = tools_for(ann=["audit"])
    refused(state, Play("audit", BOB, 1, pay=()), "Audit costs exactly 1 Capital card \\(any values\\), not 0")
    refused(state, Play("audit", BOB, 1, pay=(1, 2)), "Audit costs exactly 1 Capital card")
    refused(state, Play("audit", BOB, 1, pay=(6,)), "You have no Capital card of 6 to pay with")
    events = apply(state, Play("audit", BOB, 1, pay=(5,)))  # any value will do
    assert events[0] == ToolPlayed(ANN, Tool("audit"), Play("audit", BOB, 1, pay=(5,)), (5,))
    assert events[0].describe(NAMES) == "Ann plays Audit on Bob's card 1 (paying 5)."
    assert values(state.capital[ANN]) == [4, 3, 2, 1] and values(state.capital_discard) == [5]
    # the legal list offers the cheapest payment
    other = tools_for(ann=["audit"])
    assert Play("audit", BOB, 1, pay=(1,)) in legal(other)


def test_a_free_tool_takes_no_payment():
    state = tools_for(ann=["bailout"])
    refused(state, Play("bailout", pay=(1,)), "Bailout costs nothing: pay no Capital cards")


def test_a_tool_needs_enough_capital_cards():
    state = tools_for(ann=["takeover"], capital=[["6", "5", "4"], ["4.1"], ["6.1"]])
    assert not any(isinstance(c, Play) for c in legal(state))
    refused(state, Play("takeover", BOB, 1, pay=(6, 5, 4)), "Hostile Takeover costs 4 Capital cards; you have only 3")


def test_only_a_held_tool_may_be_played():
    state = tools_for(ann=["audit"], bob=["bailout"])
    refused(state, Play("bailout"), "You hold no Bailout")
    refused(state, Play("jetpack"), "There is no Tool card called 'jetpack'")
    refused(state, Bid((1,)), "It is your Tool turn: play a Tool card or pass")


def test_a_connection_is_no_tool_turn_of_its_own():
    state = tools_for(ann=["connection"])
    assert legal(state) == [Pass()]
    refused(state, Play("connection", pay=(1,)), "Connection in the Government is a reaction")


def test_a_tool_takes_only_the_targets_it_names():
    state = tools_for(ann=["bailout", "audit", "press"])
    refused(state, Play("bailout", player=BOB), "Bailout does not take a player")
    refused(state, Play("audit", BOB, 1, own=2, pay=(1,)), "Audit does not take a card of yours")
    refused(state, Play("press", own=1, lot="3a", pay=(1,)), "Press Release does not take a lot")


def test_insider_information_shows_the_looker_a_card_and_they_remember_it():
    state = tools_for(ann=["insider"])
    # any face-down card: on the table, in another portfolio, in one's own (the card's text)
    assert legal(state) == [Play("insider", lot="2b"), Play("insider", lot="3a"), Play("insider", lot="3b"),
                            Play("insider", BOB, 2), Play("insider", CLEO, 1), Play("insider", ANN, 1), Pass()]
    apply(state, Play("insider", lot="3a"))
    events = everyone_declines(state)
    looked = next(e for e in events if isinstance(e, Looked))
    assert looked == Looked(ANN, Investment("railway-bonds"), lot="3a") and looked.reveals
    assert looked.describe(NAMES, ANN) == "Ann looks at 3a: Railway Bonds (9)."
    assert looked.describe(NAMES, BOB) == "Ann looks at 3a."
    assert SPEC.view(state, ANN).table[2][0].card == Investment("railway-bonds")
    assert SPEC.view(state, BOB).table[2][0].card is None
    assert SPEC.view(state, BOB).table[2][0].seen == (ANN,)  # who looked is public
    # Bob wins auction 3 later: Ann still knows the card in his portfolio
    state.portfolios[BOB].append(state.table[2].pop(0))
    assert SPEC.view(state, ANN).portfolios[BOB][-1].card == Investment("railway-bonds")
    assert SPEC.view(state, CLEO).portfolios[BOB][-1].card is None


def test_insider_information_looks_at_a_card_in_a_portfolio():
    state = tools_for(ann=["insider"])
    apply(state, Play("insider", BOB, 2))
    events = everyone_declines(state)
    looked = next(e for e in events if isinstance(e, Looked))
    assert looked == Looked(ANN, Investment("patent-dispute"), owner=BOB, position=2) and looked.reveals
    assert looked.describe(NAMES, ANN) == "Ann looks at Bob's card 2: Patent Dispute (-2)."
    assert looked.describe(NAMES, CLEO) == "Ann looks at Bob's card 2."
    assert SPEC.view(state, ANN).portfolios[BOB][1].card == Investment("patent-dispute")
    assert SPEC.view(state, CLEO).portfolios[BOB][1].card is None


def test_insider_information_may_look_at_ones_own_face_down_card_and_shows_nothing_new():
    match = Match(SPEC, [Seat(name) for name in NAMES], seed=1)
    match.state = tools_for(ann=["insider"])
    before = {seat: match.view(seat).portfolios for seat in (ANN, BOB, CLEO)}
    assert match.check(ANN, "tool insider Ann 1") == Play("insider", ANN, 1)
    match.submit(ANN, "tool insider 1 1")
    events = [event for seat in (BOB, CLEO) for event in match.submit(seat, Decline())]
    looked = next(e for e in events if isinstance(e, Looked))
    assert looked == Looked(ANN, Investment("gold-mine"), owner=ANN, position=1, news=False)
    assert looked.describe(NAMES, ANN) == "Ann looks at their own card 1: Gold-Mine Swindle (-4)."
    assert looked.describe(NAMES, BOB) == "Ann looks at their own card 1."
    # nobody learns anything: every view of every portfolio is as it was, and as nothing was
    # revealed the last answer may still be taken back
    assert {seat: match.view(seat).portfolios for seat in (ANN, BOB, CLEO)} == before
    assert not looked.reveals and match.state.portfolios[ANN][0].seen == {ANN} and match.can_undo(CLEO)


def test_insider_information_needs_a_face_down_card_on_the_table_or_in_a_portfolio():
    state = tools_for(ann=["insider"])
    refused(state, Play("insider", BOB, 1), "Bob's card 1 lies face up")
    refused(state, Play("insider", ANN, 2), "Your card 2 lies face up")
    refused(state, Play("insider", lot="2a"), "2a lies face up")
    refused(state, Play("insider", lot="1a"), "There is no card '1a' on the table")
    refused(state, Play("insider", BOB, 3), "Bob's portfolio has cards 1 to 2, not 3")
    refused(state, Play("insider", ANN, 3), "Your portfolio has cards 1 to 2, not 3")
    refused(state, Play("insider", 3, 1), "There is no player 4 at this table; the players are Ann, Bob and Cleo")
    refused(state, Play("insider", BOB, 2, lot="3a"), "looks at one card")
    refused(state, Play("insider"), "Insider Information needs a face-down card: one on the table")
    own_only = tools_for(ann=["insider"], table=[[], [], []], portfolios=[ANNS, [], []])
    assert legal(own_only) == [Play("insider", ANN, 1), Pass()]
    nothing = tools_for(ann=["insider"], table=[[], [], []], portfolios=[[ANNS[1]], [], []])
    assert legal(nothing) == [Pass()]
    refused(nothing, Play("insider", CLEO, 1), "Cleo's portfolio is empty")


def test_press_release_turns_an_own_card_up_and_its_bonus_applies():
    state = tools_for(ann=["press"])
    assert [c for c in legal(state) if isinstance(c, Play)] == [Play("press", own=1, pay=(1,))]
    apply(state, Play("press", own=1, pay=(1,)))
    events = everyone_declines(state)
    assert Flipped(ANN, ANN, 1, Investment("gold-mine"), True, frozenset({0, 1, 2})) in events
    drew = next(e for e in events if isinstance(e, Drew))
    assert drew.seat == ANN and len(drew.capital) == 4 and len(drew.tools) == 1
    assert state.portfolios[ANN][0].up
    refused(tools_for(ann=["press"]), Play("press", own=2, pay=(1,)), "Your card 2 is already face up")


def test_audit_turns_a_card_up_giving_its_owner_the_bonus():
    state = tools_for(ann=["audit"])
    apply(state, Play("audit", BOB, 2, pay=(1,)))
    events = everyone_declines(state)
    assert Flipped(ANN, BOB, 2, Investment("patent-dispute"), True, frozenset({0, 1, 2})) in events
    assert len(state.tools[BOB]) == 2  # Patent Dispute's bonus goes to its owner


def test_audit_turns_a_face_up_card_down():
    state = tools_for(ann=["audit"])
    apply(state, Play("audit", BOB, 1, pay=(1,)))
    events = everyone_declines(state)
    flipped = next(e for e in events if isinstance(e, Flipped))
    assert not flipped.up and not state.portfolios[BOB][0].up
    # everyone saw it face up: they all still know it
    assert SPEC.view(state, CLEO).portfolios[BOB][0].card == Investment("shipping-line")
    assert flipped.describe(NAMES, CLEO) == "Ann turns Bob's card 1 face down: a face-down card (Shipping Line (7))."


def test_audit_needs_another_players_card():
    state = tools_for(ann=["audit"])
    refused(state, Play("audit", ANN, 1, pay=(1,)), "Audit needs another player, not yourself")
    refused(state, Play("audit", pay=(1,)), "Audit needs another player: name them")
    refused(state, Play("audit", BOB, 0, pay=(1,)), "Bob's portfolio has cards 1 to 2, not 0")


def test_cover_up_turns_an_own_face_up_card_down():
    state = tools_for(ann=["cover-up"])
    assert [c for c in legal(state) if isinstance(c, Play)] == [Play("cover-up", own=2)]
    refused(state, Play("cover-up", own=1), "Your card 1 is already face down")
    apply(state, Play("cover-up", own=2))
    everyone_declines(state)
    assert not state.portfolios[ANN][1].up
    assert len(state.capital[ANN]) == 5  # no bonus turning a card down


def test_hostile_takeover_takes_a_card_as_it_lies_for_four_capital_cards():
    state = tools_for(ann=["takeover"])
    assert Play("takeover", BOB, 2, pay=(4, 3, 2, 1)) in legal(state)
    apply(state, Play("takeover", BOB, 2, pay=(4, 3, 2, 1)))
    events = everyone_declines(state)
    moved = next(e for e in events if isinstance(e, Moved))
    assert (moved.giver, moved.taker, moved.up, moved.news) == (BOB, ANN, False, True)
    assert moved.describe(NAMES, ANN) == "Ann takes a face-down card (Patent Dispute (-2)) from Bob."
    assert moved.describe(NAMES, CLEO) == "Ann takes a face-down card from Bob."
    assert kinds(state.portfolios[ANN])[-1] == ("patent-dispute", False) and len(state.portfolios[BOB]) == 1
    assert values(state.capital[ANN]) == [5]


def test_merger_gives_a_card_then_takes_one_orientations_kept():
    state = tools_for(ann=["merger"])
    apply(state, Play("merger", BOB, 1, own=1, pay=(2, 1)))
    events = everyone_declines(state)
    moves = [e for e in events if isinstance(e, Moved)]
    assert [(m.giver, m.taker, m.card.kind) for m in moves] == [(ANN, BOB, "gold-mine"), (BOB, ANN, "shipping-line")]
    assert kinds(state.portfolios[ANN]) == [("steel-works", True), ("shipping-line", True)]
    assert kinds(state.portfolios[BOB]) == [("patent-dispute", False), ("gold-mine", False)]
    assert BOB in state.portfolios[BOB][1].seen  # Bob now knows the card he was given


def test_merger_with_a_player_who_has_no_investments_only_gives():
    state = tools_for(ann=["merger"], portfolios=[ANNS, BOBS, []])
    assert Play("merger", CLEO, 0, own=1, pay=(2, 1)) in legal(state)
    refused(state, Play("merger", CLEO, 1, own=1, pay=(2, 1)), "Cleo holds no Investment card")
    apply(state, Play("merger", CLEO, own=1, pay=(2, 1)))
    everyone_declines(state)
    assert kinds(state.portfolios[CLEO]) == [("gold-mine", False)] and len(state.portfolios[ANN]) == 1


def test_merger_needs_its_first_part_a_card_of_ones_own():
    state = tools_for(ann=["merger"], portfolios=[[], BOBS, CLEOS])
    assert legal(state) == [Pass()]
    refused(state, Play("merger", BOB, 1, own=1, pay=(2, 1)), "Merger first gives one of your Investment cards")
    named = tools_for(ann=["merger"])
    refused(named, Play("merger", BOB, 0, own=1, pay=(2, 1)), "Name the card you take from Bob")
    refused(named, Play("merger", BOB, 1, own=3, pay=(2, 1)), "Your portfolio has cards 1 to 2, not 3")


def test_write_off_removes_an_own_card_from_the_game():
    state = tools_for(ann=["write-off"])
    apply(state, Play("write-off", own=1, pay=(2, 1)))
    events = everyone_declines(state)
    off = next(e for e in events if isinstance(e, WrittenOff))
    assert off.describe(NAMES, ANN) == "Ann removes a face-down card (Gold-Mine Swindle (-4)) from the game."
    assert off.describe(NAMES, BOB) == "Ann removes a face-down card from the game."
    assert kinds(state.portfolios[ANN]) == [("steel-works", True)]
    assert kinds(state.removed) == [("gold-mine", False)]
    refused(tools_for(ann=["write-off"], portfolios=[[], BOBS, CLEOS]), Play("write-off", own=1, pay=(2, 1)),
            "Your portfolio is empty")


def test_bailout_draws_three_capital_cards():
    state = tools_for(ann=["bailout"])
    apply(state, Play("bailout"))
    events = everyone_declines(state)
    drew = next(e for e in events if isinstance(e, Drew))
    assert len(drew.capital) == 3 and len(state.capital[ANN]) == 8
    assert drew.describe(NAMES, BOB) == "Ann draws 3 Capital cards (Bailout)."
    empty = tools_for(ann=["bailout"], capital_deck=[])
    assert legal(empty) == [Pass()]
    refused(empty, Play("bailout"), "There are no Capital cards left to draw")


def test_tax_inspection_makes_the_victim_choose_two_capital_cards_to_discard():
    state = tools_for(ann=["tax"])
    apply(state, Play("tax", BOB, pay=(1,)))
    everyone_declines(state)
    assert state.phase == "tax" and SPEC.awaiting(state) == {BOB}  # the victim chooses, alone
    assert legal(state) == [DiscardCapital((4, 2)), DiscardCapital((4, 1)), DiscardCapital((2, 1))]
    refused(state, DiscardCapital((4,)), "takes exactly 2 Capital cards, not 1")
    refused(state, DiscardCapital((4, 4)), "You have only 1 Capital card of 4 to discard")
    refused(state, Pass(), "Discard 2 Capital cards for the tax inspection first")
    events = apply(state, DiscardCapital((2, 1)))
    assert events[0] == CapitalDiscarded(BOB, (2, 1))
    assert values(state.capital[BOB]) == [4] and state.phase == "tool" and to_move(state) == BOB
    assert state.tool_discard[-1].kind == "tax"


def test_tax_inspection_takes_everything_from_a_victim_with_two_cards_or_fewer():
    state = tools_for(ann=["tax"])
    apply(state, Play("tax", CLEO, pay=(1,)))
    events = everyone_declines(state)
    assert CapitalDiscarded(CLEO, (6, 1)) in events and state.capital[CLEO] == []
    assert state.phase == "tool" and to_move(state) == BOB


def test_industrial_espionage_looks_at_a_hand_and_takes_a_card():
    state = tools_for(ann=["espionage"])
    apply(state, Play("espionage", BOB, pay=(1,)))
    events = everyone_declines(state)
    spied = next(e for e in events if isinstance(e, Spied))
    assert spied.describe(NAMES, ANN) == "Ann looks at Bob's Capital cards: 4, 2 and 1."
    assert spied.describe(NAMES, CLEO) == "Ann looks at Bob's Capital cards."
    assert state.phase == "pick" and to_move(state) == ANN
    assert [c.value for c in SPEC.view(state, ANN).zones["spied"]] == [4, 2, 1]
    assert "spied" not in SPEC.view(state, CLEO).zones
    assert legal(state) == [Take(4), Take(2), Take(1)]
    refused(state, Take(6), "Bob has no 6; they hold 4 2 1")
    refused(state, Pass(), "Take one of Bob's Capital cards first")
    assert Take.secret
    events = apply(state, Take(4))
    assert events[0] == CapitalTaken(ANN, BOB, Capital(4, 1))
    assert events[0].describe(NAMES, BOB) == "Ann takes a 4 from Bob."
    assert events[0].describe(NAMES, CLEO) == "Ann takes a Capital card from Bob."
    assert values(state.capital[ANN]) == [5, 4, 4, 3, 2] and values(state.capital[BOB]) == [2, 1]


def test_industrial_espionage_needs_a_player_with_capital():
    state = tools_for(ann=["espionage"], capital=[["1", "2"], [], ["6"]])
    assert [c for c in legal(state) if isinstance(c, Play)] == [Play("espionage", CLEO, pay=(1,))]
    refused(state, Play("espionage", BOB, pay=(1,)), "Bob holds no Capital cards")


def test_public_offering_turns_a_card_of_a_later_auction_up():
    state = tools_for(ann=["offering"])
    assert [c for c in legal(state) if isinstance(c, Play)] == [
        Play("offering", lot="2b"), Play("offering", lot="3a"), Play("offering", lot="3b")]
    refused(state, Play("offering", lot="2a"), "2a is already face up")
    refused(state, Play("offering"), "Public Offering needs a face-down card on the table")
    apply(state, Play("offering", lot="3b"))
    events = everyone_declines(state)
    assert LotFlipped(ANN, "3b", Investment("failing-bank")) in events
    assert state.table[2][1].up and len(state.capital[ANN]) == 5  # no bonus on the table


def test_venture_fund_draws_two_tools_then_discards_one():
    state = tools_for(ann=["venture", "audit"], tool_deck=["bailout", "tax"])
    apply(state, Play("venture", pay=(1,)))
    events = everyone_declines(state)
    drew = next(e for e in events if isinstance(e, Drew))
    assert [t.kind for t in drew.tools] == ["bailout", "tax"]  # the deck is listed top first
    assert state.phase == "venture" and to_move(state) == ANN
    assert legal(state) == [DiscardTool("audit"), DiscardTool("bailout"), DiscardTool("tax")]
    refused(state, DiscardTool("merger"), "You hold no Merger to discard")
    refused(state, Pass(), "Venture Fund: discard one Tool card")
    events = apply(state, DiscardTool("bailout"))
    assert events[0] == ToolDiscarded(ANN, Tool("bailout"))
    assert sorted(t.kind for t in state.tools[ANN]) == ["audit", "tax"]
    assert [t.kind for t in state.tool_discard] == ["bailout", "venture"]
    assert to_move(state) == BOB


def test_venture_fund_needs_tool_cards_to_draw():
    state = tools_for(ann=["venture"], tool_deck=[])
    assert legal(state) == [Pass()]
    refused(state, Play("venture", pay=(1,)), "There are no Tool cards left to draw")


def test_tool_uses_lists_what_each_tool_can_do_now():
    state = tools_for(ann=["cover-up", "bailout", "connection"])
    uses = tool_uses(legal(state))
    assert uses == {"cover-up": [Play("cover-up", own=2)], "bailout": [Play("bailout")]}


# -- reactions ---------------------------------------------------------------------------------------

def test_every_other_player_is_asked_in_turn_from_the_players_left_holder_or_not():
    names = ["Ann", "Bob", "Cleo", "Dan"]
    state = tool_turn(seat=BOB, names=names, tools=[[], ["bailout"], [], []],
                      capital=[["1"], ["2"], ["3"], ["4"]], table=LATER)
    events = play(state, "tool bailout")
    assert isinstance(events[0], ToolPlayed) and state.phase == "react"
    asked = []
    while state.phase == "react":
        asked.append(to_move(state))
        assert legal(state) == [Decline()]  # nobody holds a Connection, and each is asked anyway
        assert "may react with a Connection or decline" in SPEC.view(state, None).status
        apply(state, Decline())
    assert asked == [CLEO, 3, ANN]
    assert len(state.capital[BOB]) == 4  # the Bailout went ahead


def test_a_connection_cancels_a_tool_whose_cost_stays_paid_and_whose_turn_is_spent():
    state = tools_for(ann=["audit"], bob=["connection"])
    apply(state, Play("audit", BOB, 1, pay=(5,)))
    assert to_move(state) == BOB
    assert legal(state) == [React((4,)), React((2,)), React((1,)), Decline()]
    events = apply(state, React((1,)))
    assert events == [Reacted(BOB, ANN, (1,), False)]
    assert state.tools[BOB] == []  # the Connection is played: it leaves Bob's hand
    assert "Bob answers Ann's Tool with a Connection in the Government (paying 1)" in events[0].describe(NAMES)
    # the question opens again to everyone but Bob, Ann included, from Bob's left
    assert to_move(state) == CLEO
    apply(state, Decline())
    assert to_move(state) == ANN
    events = apply(state, Decline())
    assert events[1] == Cancelled(ANN, Tool("audit"), 1)
    assert state.portfolios[BOB][0].up  # Bob's card was not turned
    assert values(state.capital_discard) == [5, 1]  # both costs stay paid
    assert [t.kind for t in state.tool_discard] == ["connection", "audit"]
    assert state.phase == "tool" and to_move(state) == BOB  # Ann's Tool turn is spent


def test_a_connection_may_cancel_a_connection():
    state = tools_for(ann=["takeover", "connection"], bob=["connection.1"], cleo=["connection.2"],
                      capital=[["1", "2", "3", "4", "5", "1.3"], ["4.1", "2.1", "1.1"], ["6", "1.2"]])
    apply(state, Play("takeover", BOB, 1, pay=(4, 3, 2, 1)))
    apply(state, React((1,)))  # Bob cancels the takeover
    apply(state, React((1,)))  # Cleo cancels Bob's Connection
    assert state.pending.chain == (BOB, CLEO)
    assert to_move(state) == ANN  # asked about Cleo's Connection: Ann, then Bob
    apply(state, Decline())
    events = apply(state, Decline())
    moved = [e for e in events if isinstance(e, Moved)]
    assert len(moved) == 1 and moved[0].card == Investment("shipping-line")  # the takeover stands
    assert kinds(state.portfolios[ANN])[-1] == ("shipping-line", True)
    assert sorted(t.key for t in state.tool_discard) == ["connection.1", "connection.2", "takeover"]


def test_three_connections_cancel_the_tool():
    state = tools_for(ann=["audit", "connection"], bob=["connection.1"], cleo=["connection.2"],
                      capital=[["1", "2", "3", "4", "5"], ["4.1", "2.1", "1.1"], ["6", "1.2"]])
    apply(state, Play("audit", BOB, 2, pay=(1,)))
    apply(state, React((1,)))  # Bob
    apply(state, React((1,)))  # Cleo
    events = apply(state, React((2,)))  # Ann answers Cleo's Connection with her own
    assert events == [Reacted(ANN, CLEO, (2,), True)]
    assert [to_move(state)] == [BOB]
    apply(state, Decline())
    events = apply(state, Decline())
    assert Cancelled(ANN, Tool("audit"), 3) in events
    assert not state.portfolios[BOB][1].up


def test_a_reaction_needs_a_connection_and_a_card_to_pay_for_it():
    state = tools_for(ann=["audit"], bob=["bailout"], cleo=["connection"], capital=[["1", "2"], ["4"], []])
    apply(state, Play("audit", BOB, 1, pay=(1,)))
    refused(state, React((4,)), "You hold no Connection in the Government: decline")
    refused(state, Pass(), "Ann's card awaits your answer: 'react connection' or 'decline'")
    apply(state, Decline())
    assert to_move(state) == CLEO and legal(state) == [Decline()]  # a Connection, but nothing to pay with
    refused(state, React(()), "Connection in the Government costs 1 Capital card; you have only 0")


def test_ask_only_holders_skips_players_who_cannot_react():
    options = {"ask-only-holders": True}
    state = tools_for(ann=["audit"], cleo=["connection"], options=options)
    apply(state, Play("audit", BOB, 1, pay=(1,)))
    assert to_move(state) == CLEO  # Bob holds no Connection: he is not asked
    apply(state, Decline())
    assert state.phase == "tool" and to_move(state) == BOB
    nobody = tools_for(ann=["bailout"], options=options)
    events = apply(nobody, Play("bailout"))
    assert isinstance(events[1], Drew) and to_move(nobody) == BOB  # nobody to ask: it goes ahead at once


# -- the end -----------------------------------------------------------------------------------------

def test_the_game_ends_the_moment_a_portfolio_holds_five_cards():
    table = [[{"card": "steel-works.1", "up": True}, {"card": "brewery", "up": False}], [], []]
    state = position(portfolios=[ANNS + [{"card": "brewery.1", "up": True}], BOBS, CLEOS], tools=[["bailout"], [], []],
                     table=table)
    play(state, "bid 1")
    play(state, "pass")
    events = play(state, "pass")
    over = events[-1]
    assert isinstance(over, GameOver) and "Ann holds 5 or more Investment cards" in over.reason
    assert SPEC.awaiting(state) == frozenset() and state.phase == "over"
    assert legal(state) == []
    # every face-down card is turned up, with no bonus
    assert all(slot.up for p in state.portfolios for slot in p)
    assert values(state.capital[ANN]) == [5, 3]
    outcome = SPEC.outcome(state)
    assert outcome.scores == (-4 + 6 + 3 + 6 + 3, 7 - 2, 5)
    assert outcome.ranks == (1, 3, 2)  # Bob and Cleo tie on 5: Cleo holds more Capital (7 to 6)
    refused(state, Pass(), "The game is over", seat=ANN)


def test_a_takeover_that_fills_a_portfolio_ends_the_game_at_once():
    four = ANNS + [{"card": "brewery.1", "up": True}, {"card": "print-shop.1", "up": True}]
    state = tools_for(ann=["takeover"], portfolios=[four[:4], BOBS, CLEOS])
    apply(state, Play("takeover", BOB, 1, pay=(4, 3, 2, 1)))
    events = everyone_declines(state)
    assert isinstance(events[-1], GameOver) and state.phase == "over"
    assert SPEC.outcome(state).winners == (ANN,)


def test_the_game_ends_after_round_4():
    state = tool_turn(seat=CLEO, winner=BOB, round=4, auction=3, table=[[], [], []],
                      portfolios=[ANNS, BOBS, CLEOS])
    play(state, "pass")
    play(state, "pass")
    events = play(state, "pass")
    assert isinstance(events[-1], GameOver) and events[-1].reason == "Round 4 is over: the game ends."
    assert SPEC.outcome(state).scores == (2, 5, 5)


def test_a_tie_goes_to_the_greater_capital_in_hand_then_it_is_shared():
    state = position(phase="over", portfolios=[BOBS, [{"card": "textile-mill"}], [{"card": "brewery"}]],
                     capital=[["6", "1"], ["5", "3"], ["6.1"]], table=[[], [], []])
    outcome = SPEC.outcome(state)
    assert outcome.scores == (5, 5, 3) and outcome.ranks == (2, 1, 3)
    assert outcome.summary == "Bob wins: tied with Ann on 5, but with more Capital in hand (8)."
    assert outcome.breakdown[1] == {"investments": 5, "investment cards": 1, "capital in hand": 8}
    shared = position(phase="over", portfolios=[BOBS, [{"card": "textile-mill"}], []],
                      capital=[["6", "1"], ["5", "2"], []], table=[[], [], []])
    assert SPEC.outcome(shared).ranks == (1, 1, 3)
    assert SPEC.outcome(shared).summary == "Ann and Bob share the win with 5 each, and 7 in Capital each."
    assert SPEC.outcome(position()) is None


# -- rounds and decks ------------------------------------------------------------------------------

def test_a_new_round_draws_four_capital_plus_one_per_face_up_card_and_tools_up_to_three():
    state = tool_turn(seat=CLEO, winner=BOB, auction=3, table=[[], [], []],
                      portfolios=[ANNS, BOBS + [{"card": "brewery", "up": True}], CLEOS],
                      tools=[["audit"], ["bailout", "tax", "merger", "press"], []],
                      capital=[[], [], []])
    play(state, "pass")
    play(state, "pass")
    events = play(state, "pass")
    drew = {e.seat: e for e in events if isinstance(e, Drew)}
    assert [e.seat for e in events if isinstance(e, Drew)] == [BOB, CLEO, ANN]  # from the round's first bidder
    assert {s: len(d.capital) for s, d in drew.items()} == {ANN: 5, BOB: 6, CLEO: 4}
    assert {s: len(d.tools) for s, d in drew.items()} == {ANN: 2, BOB: 0, CLEO: 3}
    assert drew[ANN].why == "round 2"
    laid = next(e for e in events if isinstance(e, LaidOut))
    assert laid.round == 2 and [[up for _card, up in lot] for lot in laid.lots] == [[True, False], [True, False],
                                                                                     [False, False]]
    assert state.round == 2 and state.auction == 1 and state.starter == BOB and to_move(state) == BOB
    assert len(state.investment_deck) == 24 - 6 - 6


def test_an_empty_capital_deck_takes_its_shuffled_discard_pile():
    state = tools_for(ann=["bailout"], capital_deck=["6.5"], capital_discard=["1.9", "2.9", "3.9"])
    apply(state, Play("bailout"))
    events = everyone_declines(state)
    assert Reshuffled("Capital", 3) in events
    drew = next(e for e in events if isinstance(e, Drew))
    assert len(drew.capital) == 3 and drew.capital[0] == Capital(6, 5)
    assert state.capital_discard == [] and len(state.capital_deck) == 1


def test_an_empty_tool_deck_takes_its_shuffled_discard_pile():
    state = tools_for(ann=["venture"], tool_deck=[], tool_discard=["audit", "tax"])
    apply(state, Play("venture", pay=(1,)))
    events = everyone_declines(state)
    assert events.index(Reshuffled("Tool", 2)) < events.index(next(e for e in events if isinstance(e, Drew)))
    assert sorted(t.kind for t in state.tools[ANN]) == ["audit", "tax"]


def test_a_draw_stops_when_both_piles_are_empty():
    state = tools_for(ann=["bailout"], capital_deck=["6.5"])
    apply(state, Play("bailout"))
    events = everyone_declines(state)
    assert next(e for e in events if isinstance(e, Drew)).capital == (Capital(6, 5),)


# -- secrecy and views ---------------------------------------------------------------------------

def test_a_view_shows_the_seats_own_hands_and_only_the_sizes_of_others():
    state = tools_for(ann=["audit", "bailout"], bob=["tax"])
    view = SPEC.view(state, BOB)
    assert [c.value for c in view.capital] == [4, 2, 1] and [t.kind for t in view.tools] == ["tax"]
    assert view.capital_sizes == (5, 3, 2) and view.tool_sizes == (2, 1, 0)
    assert SPEC.view(state, None).zones == {}
    assert view.columns == ("Cards", "Value", "Cap.", "Tools", "Bid")
    assert view.rows[ANN] == ("2 (1▒)", "6", "5", "2", "")
    # face-down cards: the owner sees them, the others do not
    assert SPEC.view(state, ANN).portfolios[ANN][0].card == Investment("gold-mine")
    assert view.portfolios[ANN][0].card is None and view.portfolios[ANN][1].card == Investment("steel-works")
    text = json.dumps(SPEC.to_json(state))
    assert "gold-mine" in text  # the state has it; the view above did not


def test_the_bidding_shows_in_the_scoreboard():
    state = position()
    play(state, "pass")
    play(state, "bid 4")
    assert SPEC.view(state, None).rows[ANN][4] == "out" and SPEC.view(state, None).rows[BOB][4] == "4"
    assert SPEC.view(state, None).status == "Round 1, auction 1: Cleo to bid more than 4 or pass."


def test_a_sampled_state_looks_the_same_to_its_seat():
    state = tools_for(ann=["espionage"])
    apply(state, Play("espionage", BOB, pay=(1,)))
    everyone_declines(state)
    for seat in (None, ANN, BOB, CLEO):
        view = SPEC.view(state, seat)
        sample = SPEC.sample(view, random.Random(seat or 0))
        assert SPEC.view(sample, seat) == view
        assert SPEC.conserved(sample) == SPEC.conserved(state)
    sample = SPEC.sample(SPEC.view(state, ANN), random.Random(3))
    assert values(sample.capital[BOB]) == [4, 2, 1]  # what the spy is looking at is kept


def test_views_of_a_fresh_game_can_be_sampled():
    state = SPEC.setup(NAMES, None, 11)
    rng = random.Random(0)
    for seat in (0, 1, 2):
        view = SPEC.view(state, seat)
        assert SPEC.view(SPEC.sample(view, rng), seat) == view


def test_views_built_from_remembered_card_infos_are_the_views_built_afresh():
    """A view reuses the SlotInfo it made before for a card lying the same way and seen by the
    same seats: at every position of seeded games (cards turned, looked at, taken) and for every
    seat and the spectator, it equals the view made with nothing remembered."""
    from rules.capital_auction import rules as module

    looked_at = 0  # positions with a face-down card some seat knows
    for state, _seat, _view, _legal in seeded_positions(SPEC, range(4), 400, lambda seed: 2 + seed % 3):
        looked_at += any(slot.seen and not slot.up for p in state.portfolios for slot in p)
        for seat in (*range(state.players), None):
            for plain in (False, True):
                remembered = SPEC.view(state, seat, plain=plain)
                module._SLOT_INFOS.clear()
                assert SPEC.view(state, seat, plain=plain) == remembered
    assert looked_at


def test_the_remembered_card_infos_are_bounded():
    # a long-running server showing table after table keeps them small: past the bound they go
    from rules.capital_auction import rules as module

    module._SLOT_INFOS.clear()
    module._SLOT_INFOS.update({("filler", i): None for i in range(20_001)})
    view = SPEC.view(position(), ANN)
    assert len(module._SLOT_INFOS) <= sum(map(len, (*view.portfolios, *view.table, view.removed)))
    module._SLOT_INFOS.clear()


# -- JSON ----------------------------------------------------------------------------------------

def test_a_position_survives_its_json():
    match = Match(SPEC, [Seat(n, "random") for n in NAMES], seed=3)
    for step in range(40):
        if match.over:
            break
        seat = min(match.awaiting)
        match.submit(seat, random.Random(step).choice(match.legal(seat)))
        assert SPEC.from_json(json.loads(json.dumps(SPEC.to_json(match.state)))) == match.state


@pytest.mark.parametrize("change, message", [
    ({"names": ["Solo"]}, "2-5 players"),
    ({"capital": [["5"], ["5"], []]}, "a Capital card is in the position twice"),
    ({"capital": [["7"], [], []]}, "not a Capital card"),
    ({"capital": [["5.9"], [], []]}, "only 8 Capital cards of 5"),
    ({"tools": [["jetpack"], [], []]}, "'jetpack' is not a Tool card"),
    ({"phase": "dance"}, "not a Capital Auction phase"),
    ({"portfolios": [[{"up": True}], [], []]}, "a portfolio card has no 'card'"),
    ({"portfolios": [[{"card": "mine"}], [], []]}, "'mine' is not an Investment card"),
    ({"round": 5}, "round must be a whole number from 1 to 4"),
    ({"table": [[], []]}, "three lots"),
    ({"phase": "tool", "tool_order": []}, "Tool order"),
    ({"phase": "react"}, "needs the pending Tool"),
    ({"phase": "flip"}, "needs its winner"),
    ({"capital": [["5"], ["4"]]}, "capital for each of its 3 players"),
])
def test_a_bad_position_is_refused_in_words(change, message):
    data = SPEC.to_json(position())
    data.update(change)
    if change.get("phase") == "tool":
        data["tool_order"] = []
    if change.get("phase") in ("react", "flip"):
        data["pending"] = None
        data["winner"] = None
    with pytest.raises(RulesError, match=message):
        SPEC.from_json(data)


# -- notation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, command", [
    ("bid 5 3 1", Bid((5, 3, 1))),
    ("BID 1 3 5", Bid((5, 3, 1))),
    ("pass", Pass()),
    ("decline", Decline()),
    ("flip 3A", Flip("3a")),
    ("tool audit bob 2 pay 4", Play("audit", BOB, 2, pay=(4,))),
    ("tool audit Bob 2", Play("audit", BOB, 2, pay=(1,))),  # the lowest card pays
    ("tool hostile-takeover Cleo 1", Play("takeover", CLEO, 1, pay=(4, 3, 2, 1))),
    ("tool insider 3b", Play("insider", lot="3b")),
    ("tool insider-information Bob 2", Play("insider", BOB, 2)),
    ("tool press 1 pay 5", Play("press", own=1, pay=(5,))),
    ("tool merger 1 Bob 2", Play("merger", BOB, 2, own=1, pay=(2, 1))),
    ("tool merger 2 cleo", Play("merger", CLEO, own=2, pay=(2, 1))),
    ("tool tax Bob pay 2", Play("tax", BOB, pay=(2,))),
    ("tool bailout", Play("bailout")),
    ("tool venture", Play("venture", pay=(1,))),
    ("tool offering 2b", Play("offering", lot="2b")),
    ("react connection", React((1,))),
    ("react connection pay 5", React((5,))),
    ("react", React((1,))),
    ("take 4", Take(4)),
    ("discard 1 3", DiscardCapital((3, 1))),
    ("discard Audit", DiscardTool("audit")),
    ("discard venture-fund", DiscardTool("venture")),
])
def test_the_notation_reads_commands(text, command):
    state = tools_for()
    view = SPEC.view(state, ANN)
    assert SPEC.notation.parse(text, view) == command


def test_the_notation_writes_what_it_reads():
    state = tools_for()
    view = SPEC.view(state, ANN)
    for command in (Bid((5, 3, 1)), Pass(), Flip("3a"), Play("audit", BOB, 2, pay=(4,)), Play("insider", lot="3b"),
                    Play("merger", BOB, 2, own=1, pay=(2, 1)), Play("merger", CLEO, own=2, pay=(2, 1)),
                    Play("bailout"), React((1,)), Decline(), Take(4), DiscardCapital((3, 1)), DiscardTool("audit")):
        text = SPEC.notation.format(command)
        assert text.isascii() and SPEC.notation.parse(text, view) == command
    assert SPEC.notation.format(Play("audit", BOB, 2, pay=(4,))) == "tool audit 2 2 pay 4"
    assert SPEC.notation.format(React((1,))) == "react connection pay 1"
    with pytest.raises(NotationError):
        SPEC.notation.format("bid 5")


def test_names_with_spaces_are_read():
    state = tools_for(names=["Ann Lee", "Bob", "Cleo"])
    view = SPEC.view(state, ANN)
    assert SPEC.notation.parse("tool audit ann lee 1", view) == Play("audit", 0, 1, pay=(1,))


@pytest.mark.parametrize("text, message", [
    ("", "Type a command"),
    ("   ", "Type a command"),
    ("dance", "not a Capital Auction command"),
    ("bid", "name the cards of your bid"),
    ("bid five", "'five' is not a Capital value"),
    ("bid ²", "'²' is not a Capital value"),
    ("bid 99999999999999999999", "is not a Capital value"),
    ("pass now", "'pass' takes nothing after it"),
    ("take", "name one Capital value"),
    ("flip 4a", "name a card of the table"),
    ("tool", "name the Tool to play"),
    ("tool jetpack", "'jetpack' is not a Tool"),
    ("tool audit Dan 1", "name a player by number or by name .*; the players are 1 Ann, 2 Bob, 3 Cleo"),
    ("tool audit Bob", "write it as 'tool audit Bob 2'"),
    ("tool audit Bob x", "'x' is not a card of that portfolio"),
    ("tool press", "write it as 'tool press 1'"),
    ("tool bailout now", "Bailout takes no target"),
    ("tool offering Bob", "write it as 'tool offering 3a'"),
    ("tool merger 1", "as in 'tool merger 1 Bob 2'"),
    ("tool merger 1 Dan", "name a player by number or by name"),
    ("tool merger 1 Bob 2 3", "write it as"),
    ("tool tax Bob 2", "write it as 'tool tax Bob'"),
    ("tool audit Bob 2 pay", "name the Capital cards to pay with"),
    ("react connection now", "write it as 'react connection'"),
    ("discard", "name Capital values"),
    ("discard jetpack", "'jetpack' is not a Capital value"),
])
def test_the_notation_refuses_garbage_in_words(text, message):
    view = SPEC.view(tools_for(), ANN)
    with pytest.raises(NotationError, match=message):
        SPEC.notation.parse(text, view)


# -- the contract --------------------------------------------------------------------------------

def test_cards_are_conserved_and_turns_count():
    state = SPEC.setup(NAMES, None, 2)
    conserved = SPEC.conserved(state)
    rng = random.Random(2)
    while SPEC.outcome(state) is None:
        seat = min(SPEC.awaiting(state))
        SPEC.apply(state, seat, rng.choice(SPEC.legal(state, seat)))
        assert SPEC.conserved(state) == conserved
    assert SPEC.turn(state) == state.turns + 1 > 1


def test_only_the_awaited_seat_may_act():
    state = position()
    refused(state, Pass(), "It is not Cleo's move", seat=CLEO)
    refused(state, Pass(), "a spectator cannot", seat=None)
    assert SPEC.legal(state, BOB) == []


# -- details the rules above rely on --------------------------------------------------------------

def test_an_auction_opened_by_the_game_has_final_passes_and_a_fresh_table():
    state = tool_turn(seat=CLEO, winner=BOB)
    for _ in range(3):
        play(state, "pass")
    view = SPEC.view(state, ANN)
    assert state.bidding.final_pass and view.tool_order == () and view.tool_turn == 0
    assert view.bid_order == (BOB, CLEO, ANN) and view.high == 0 and view.spoken == 0
    play(state, "pass")  # Bob is out
    play(state, "bid 1")  # Cleo
    play(state, "bid 5")  # Ann
    assert to_move(state) == CLEO and SPEC.view(state, ANN).bid_position == 1


def test_winning_an_auction_starts_the_tool_phase_on_the_winners_left():
    names = ["Ann", "Bob", "Cleo", "Dan"]
    state = position(names=names, capital=[["1"], ["2"], ["3"], ["4"]], starter=BOB)
    play(state, "pass")
    play(state, "bid 3")
    play(state, "pass")
    play(state, "pass")
    assert state.phase == "tool" and state.winner == CLEO and state.tool_order == [3, ANN, BOB, CLEO]
    assert state.tool_turn == 0 and to_move(state) == 3
    view = SPEC.view(state, ANN)
    assert view.high == 0 and view.leader is None and view.bid_order == () and view.bid_position == 0
    assert view.spoken == 0 and view.winner == CLEO


def test_an_auction_without_cards_is_skipped():
    """A card set smaller than the project's may leave an auction without cards."""
    state = tool_turn(seat=CLEO, winner=BOB, table=[[], [], [{"card": "brewery", "up": True}]])
    for _ in range(3):
        play(state, "pass")
    assert state.auction == 3 and state.starter == CLEO and to_move(state) == CLEO


def test_turns_count_bids_passes_and_tool_turns_not_answers():
    state = position()
    assert SPEC.turn(state) == 1  # the turn being played, from 1 (a new game never says turn 0)
    play(state, "bid 1")
    play(state, "pass")
    assert SPEC.turn(state) == 3
    tools = tools_for(ann=["bailout"], bob=["connection"])
    play(tools, "tool bailout")
    play(tools, "decline")
    play(tools, "decline")
    play(tools, "pass")
    assert SPEC.turn(tools) == 3


def test_the_reshuffle_and_the_random_take_use_up_chance_draws():
    state = tools_for(ann=["bailout"], capital_deck=[], capital_discard=["1.9", "2.9", "3.9", "4.9"], counter=4)
    apply(state, Play("bailout"))
    everyone_declines(state)
    assert state.counter == 5
    table = [[{"card": "failing-bank", "up": True}], [], []]
    bank = position(table=table, capital=[["1"], ["4", "2"], ["6"]], counter=2)
    for text in ("bid 1", "pass", "pass"):
        play(bank, text)
    assert bank.counter == 4  # one random take from each of two opponents


def test_failing_bank_takes_clockwise_from_the_takers_left():
    names = ["Ann", "Bob", "Cleo", "Dan"]
    table = [[{"card": "failing-bank", "up": True}], [], []]
    state = position(names=names, table=table, capital=[["1"], ["4"], ["2"], ["3"]], starter=CLEO)
    for text in ("bid 2", "pass", "pass", "pass"):
        events = play(state, text)
    stole = next(e for e in events if isinstance(e, Stole))
    assert [v for v, _ in stole.taken] == [3, ANN, BOB]


def test_bailout_and_venture_fund_draw_from_a_discard_pile_when_the_deck_is_empty():
    state = tools_for(ann=["bailout", "venture"], capital_deck=[], capital_discard=["1.9"], tool_deck=[],
                      tool_discard=["audit.3"])
    assert Play("bailout") in legal(state) and Play("venture", pay=(1,)) in legal(state)
    apply(state, Play("venture", pay=(1,)))
    events = everyone_declines(state)
    drew = next(e for e in events if isinstance(e, Drew))
    assert drew.capital == () and [t.key for t in drew.tools] == ["audit.3"]
    assert len(state.capital[ANN]) == 4  # Venture Fund draws Tools only


def test_a_reaction_costs_one_card_even_the_last():
    state = tools_for(ann=["audit"], cleo=["connection"], capital=[["1", "2"], ["4"], ["6"]])
    apply(state, Play("audit", BOB, 1, pay=(1,)))
    apply(state, Decline())
    assert legal(state) == [React((6,)), Decline()]
    apply(state, React((6,)))
    assert state.capital[CLEO] == []


def test_a_connection_nobody_can_answer_settles_at_once_under_ask_only_holders():
    state = tools_for(ann=["audit"], bob=["connection"], options={"ask-only-holders": True})
    apply(state, Play("audit", BOB, 1, pay=(1,)))
    events = apply(state, React((1,)))
    assert isinstance(events[-1], Cancelled) and state.phase == "tool" and to_move(state) == BOB


def test_ask_only_holders_is_off_by_default():
    option = next(o for o in SPEC.options if o.key == "ask-only-holders")
    assert option.default is False
    assert not SPEC.setup(NAMES, None, 1).ask_only_holders
    assert set(SPEC.bots) == {"bot", "greedy"} and SPEC.best_bot == "bot"


def test_a_tool_costing_all_the_cards_held_may_be_played():
    state = tools_for(ann=["takeover"], capital=[["6", "5", "4", "3"], ["4.1"], ["6.1"]])
    assert Play("takeover", BOB, 1, pay=(6, 5, 4, 3)) in legal(state)
    refused(state, Play("takeover", BOB, 1, pay=(6, 5, 4)), "costs exactly 4 Capital cards \\(any values\\), not 3")


def test_the_legal_list_names_every_target_of_each_tool():
    state = tools_for(ann=["write-off", "takeover", "merger", "tax", "venture"],
                      capital=[["1", "2", "3", "4", "5"], ["4.1"], []], portfolios=[ANNS, BOBS, []])
    plays = [c for c in legal(state) if isinstance(c, Play)]
    assert plays == [
        Play("takeover", BOB, 1, pay=(4, 3, 2, 1)), Play("takeover", BOB, 2, pay=(4, 3, 2, 1)),
        Play("merger", BOB, 1, own=1, pay=(2, 1)), Play("merger", BOB, 2, own=1, pay=(2, 1)),
        Play("merger", CLEO, 0, own=1, pay=(2, 1)),
        Play("merger", BOB, 1, own=2, pay=(2, 1)), Play("merger", BOB, 2, own=2, pay=(2, 1)),
        Play("merger", CLEO, 0, own=2, pay=(2, 1)),
        Play("write-off", own=1, pay=(2, 1)), Play("write-off", own=2, pay=(2, 1)),
        Play("tax", BOB, pay=(1,)), Play("tax", CLEO, pay=(1,)),
        Play("venture", pay=(1,))]
    assert check(state, plays[0]) is None


@pytest.mark.parametrize("command, message", [
    (Play("insider", BOB, 2, own=1), "Insider Information does not take a card of yours"),
    (Play("insider", card=2, lot="3a"), "looks at one card"),
    (Play("merger", BOB, 1, own=1, lot="3a", pay=(2, 1)), "Merger does not take a lot"),
    (Play("tax", BOB, 1, pay=(1,)), "Tax Inspection does not take a card of theirs"),
    (Play("offering", BOB, lot="3a"), "Public Offering does not take a player"),
    (Play("insider", lot="1a"), r"There is no card '1a' on the table \(the cards there: 2a, 2b, 3a and 3b\)"),
    (Play("audit", BOB, True, pay=(1,)), "not a well-formed command: its card is True"),
    (Play(["audit"]), "not a well-formed command: its tool is"),
    (Bid(("5",)), "not a well-formed command: its values is"),
    (Bid([5]), r"not a well-formed command: its values is \[5\]"),  # a list, not a tuple
    (Bid(None), "not a well-formed command: its values is None"),
    (Play("audit", BOB, 1, pay=(1, True)), "not a well-formed command: its pay is"),
    ("tool audit Bob 1", "is not a Capital Auction command"),
])
def test_malformed_and_misdirected_plays_are_refused(command, message):
    state = tools_for(ann=["insider", "merger", "tax", "offering", "audit"])
    with pytest.raises(IllegalCommand, match=message):
        SPEC.check(state, ANN, command)
    refused(state, command, message)


def test_a_whole_number_of_a_subclass_of_int_is_a_whole_number_in_a_command():
    class Whole(int):
        pass

    class Values(tuple):
        pass

    state = tools_for(ann=["audit"])
    assert check(state, Play("audit", BOB, Whole(1), pay=(Whole(1),))) is None
    bidding = position()
    assert check(bidding, Bid((Whole(5),))) is None
    assert check(bidding, Bid(Values((5,)))) is None  # a tuple of its own kind is still a tuple


def test_the_message_names_the_value_that_is_short():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    refused(state, Bid((5, 5, 3)), "You have only 1 Capital card of 5 to bid")


def test_flip_names_a_card_that_is_there():
    state = position(auction=2, phase="flip", winner=ANN, table=[[], [], [{"card": "railway-bonds", "up": False}]])
    refused(state, Flip("3b"), "Only a card of auction 3")
    refused(state, Flip(""), "Only a card of auction 3")


def test_a_face_up_or_known_card_taken_reveals_nothing():
    state = tools_for(ann=["takeover"])
    apply(state, Play("takeover", BOB, 1, pay=(4, 3, 2, 1)))
    moved = next(e for e in everyone_declines(state) if isinstance(e, Moved))
    assert moved.up and not moved.news and not moved.reveals
    known = tools_for(ann=["takeover"], portfolios=[ANNS, [{"card": "start-up.1", "up": False, "seen": [0]}], CLEOS])
    apply(known, Play("takeover", BOB, 1, pay=(4, 3, 2, 1)))
    moved = next(e for e in everyone_declines(known) if isinstance(e, Moved))
    assert not moved.up and not moved.news  # Ann had looked at it


def test_espionage_on_a_hand_emptied_meanwhile_finds_nothing():
    state = tools_for(ann=["espionage"], bob=["connection"], cleo=["connection.1"],
                      capital=[["1", "2"], ["4.1"], ["6", "1.2"]])
    apply(state, Play("espionage", BOB, pay=(1,)))
    apply(state, React((4,)))  # Bob pays his last card to cancel it
    apply(state, React((1,)))  # Cleo cancels Bob's Connection
    apply(state, Decline())  # Ann
    events = apply(state, Decline())  # Bob
    assert Spied(ANN, BOB, ()) in events and state.phase == "tool" and to_move(state) == BOB


def test_tax_on_a_short_hand_discards_it_face_up():
    state = tools_for(ann=["tax"])
    apply(state, Play("tax", CLEO, pay=(1,)))
    everyone_declines(state)
    assert values(state.capital_discard) == [6, 1, 1]


def test_a_clear_win_is_told_plainly():
    state = position(phase="over", portfolios=[BOBS, [{"card": "brewery"}], []], table=[[], [], []])
    assert SPEC.outcome(state).summary == "Ann wins with 5."


def test_cards_in_a_view_are_named_as_the_command_line_names_them():
    view = SPEC.view(tools_for(), ANN)
    assert [info.name for info in view.portfolios[BOB]] == ["1", "2"]
    assert [[info.name for info in lot] for lot in view.table] == [[], ["2a", "2b"], ["3a", "3b"]]
    assert view.rows[BOB][0] == "2 (1▒)"
    down = tools_for(portfolios=[[{"card": "gold-mine", "up": False}, {"card": "brewery", "up": False},
                                  {"card": "steel-works"}], BOBS, CLEOS])
    assert SPEC.view(down, BOB).rows[ANN][:2] == ("3 (2▒)", "6")


def test_samples_deal_the_unseen_cards_afresh():
    state = SPEC.setup(NAMES, None, 4)
    view = SPEC.view(state, ANN)
    samples = [SPEC.sample(view, random.Random(i)) for i in range(4)]
    assert len({tuple(c.key for c in s.capital[BOB]) for s in samples}) > 1
    assert len({tuple(t.key for t in s.tools[BOB]) for s in samples}) > 1
    assert len({s.table[0][1].card for s in samples}) > 1
    assert all(s.bidding == state.bidding for s in samples)
    assert SPEC.sample(view, random.Random(0)).counter == 0


def test_setup_starts_the_chance_counter_at_zero():
    assert SPEC.setup(NAMES, None, 3).counter == 0


def test_cards_to_draw_count_both_the_deck_and_its_discard_pile():
    state = tools_for(ann=["bailout", "venture"], capital_deck=["1.9"], capital_discard=["2.9"],
                      tool_deck=["audit.3"], tool_discard=["tax.2"])
    assert Play("bailout") in legal(state) and Play("venture", pay=(1,)) in legal(state)


# -- the position's JSON and the notation, in detail -------------------------------------------------

def test_a_minimal_position_takes_its_defaults():
    state = SPEC.from_json({"names": ["Ann", "Bob"], "capital": [["5"], []],
                            "bidding": {"order": [0, 1], "final_pass": True}})
    assert (state.seed, state.counter, state.starter, state.round, state.auction) == (0, 1, 0, 1, 1)
    assert state.portfolios == [[], []] and state.tools == [[], []] and not state.ask_only_holders
    assert state.turns == 0 and state.tool_turn == 0 and to_move(state) == ANN
    five = SPEC.from_json({"names": list("ABCDE"), "capital": [[], [], [], [], []],
                           "bidding": {"order": [0, 1, 2, 3, 4], "final_pass": True}})
    assert five.players == 5


def test_a_fresh_game_has_counted_nothing_yet():
    state = SPEC.setup(NAMES, None, 9)
    assert state.turns == 0 and state.tool_turn == 0 and state.tool_order == [] and state.winner is None


def test_a_pending_tool_reads_back_from_its_json():
    state = SPEC.from_json({
        "names": NAMES, "capital": [[], [], []], "phase": "react", "portfolios": [ANNS, BOBS, CLEOS],
        "pending": {"seat": 0, "play": {"tool": "bailout"}, "tool": "bailout", "asking": [1, 2]}})
    assert state.pending.play == Play("bailout") and to_move(state) == BOB
    assert "Ann played Bailout: Bob may react" in SPEC.view(state, None).status


@pytest.mark.parametrize("change, message", [
    ({"names": list("ABCDEF"), "capital": [[]] * 6}, "2-5 players"),
    ({"starter": 3}, "starter must be a whole number from 0 to 2"),
    ({"portfolios": [[{"card": "brewery", "up": False, "seen": [3]}], [], []]}, "seen must be a whole number from 0 to 2"),
    ({"table": [[{"card": "brewery"}, {"card": "brewery.1"}, {"card": "print-shop"}], [], []]}, "three lots"),
    ({"bidding": {"order": [0, 1, 3], "final_pass": True}}, "names a seat that is not at the table"),
    ({"bidding": {"order": [0, 1, 2], "final_pass": True, "out": [1, 2], "leader": 0, "high": 3}},
     "someone still to bid"),
    ({"phase": "react", "tools": [["bailout"], [], []], "tool_deck": [],
      "pending": {"seat": 0, "play": {"tool": "bailout"}, "tool": "bailout", "asking": [1]}},
     "a Tool card is in the position twice"),
    ({"phase": "react", "pending": {"seat": 0, "play": {"tool": "jetpack"}, "tool": "bailout", "asking": [1]}},
     "'jetpack' is not a Tool card"),
    ({"phase": "react", "tool_deck": [],
      "pending": {"seat": 0, "play": {"tool": "bailout"}, "tool": "bailout", "asking": []}}, "someone to ask"),
    ({"phase": "tax", "tool_deck": [], "pending": {"seat": 0, "play": {"tool": "tax"}, "tool": "tax"}}, "victim"),
])
def test_a_bad_position_is_refused_in_words_too(change, message):
    data = SPEC.to_json(position())
    data.update(change)
    with pytest.raises(RulesError, match=message):
        SPEC.from_json(data)


def test_a_pending_tool_is_frozen_and_a_slot_knows_its_value():
    state = tools_for(ann=["bailout"], bob=["connection"])
    apply(state, Play("bailout"))
    view = SPEC.view(state, BOB)
    with pytest.raises(AttributeError):
        view.pending.seat = 2
    info = view.portfolios[ANN][0]
    with pytest.raises(AttributeError):
        info.up = True
    assert info.value is None and view.portfolios[ANN][1].value == 6


def test_the_status_says_who_must_choose_what():
    state = tools_for(ann=["espionage", "tax", "venture"])
    apply(state, Play("espionage", BOB, pay=(1,)))
    everyone_declines(state)
    assert SPEC.view(state, None).status == "Ann looks at Bob's Capital cards and takes one."
    taxed = tools_for(ann=["tax"])
    apply(taxed, Play("tax", BOB, pay=(1,)))
    everyone_declines(taxed)
    assert SPEC.view(taxed, None).status == "Bob must discard Capital cards for Ann's Tax Inspection."
    venture = tools_for(ann=["venture"])
    apply(venture, Play("venture", pay=(1,)))
    everyone_declines(venture)
    assert SPEC.view(venture, None).status == "Ann discards one Tool card for Venture Fund."
    flip = position(auction=2, phase="flip", winner=ANN)
    assert "Ann won and turns one of auction 3's face-down cards face up" in SPEC.view(flip, None).status
    assert SPEC.view(tools_for(), None).status == "Round 1, auction 1, Tool phase: Ann to play a Tool card or pass."
    answered = tools_for(ann=["audit"], bob=["connection"])
    apply(answered, Play("audit", BOB, 1, pay=(1,)))
    apply(answered, React((1,)))
    assert SPEC.view(answered, None).status.startswith("Bob's Connection answers Ann's Audit: Cleo may react")


def test_the_longest_matching_name_is_read_and_long_numbers_are_refused():
    state = tools_for(names=["Ann", "Ann Lee", "Cleo"], portfolios=[ANNS, BOBS, CLEOS])
    view = SPEC.view(state, ANN)
    assert SPEC.notation.parse("tool audit ann lee 2", view) == Play("audit", 1, 2, pay=(1,))
    assert SPEC.notation.parse("take 100", view) == Take(100)
    with pytest.raises(NotationError, match="'1000' is not a Capital value"):
        SPEC.notation.parse("bid 1000", view)
    with pytest.raises(NotationError, match=r"name the Tool to play \(insider, press"):
        SPEC.notation.parse("tool", view)
    from rules.capital_auction.notation import tool_key
    assert tool_key("writeoff") is None and tool_key("WRITE-OFF") == "write-off"


# -- the card set's file, in detail ------------------------------------------------------------------

CARD_SET = """
[[capital]]
value = 1
count = 2
[[investment]]
key = "mine"
name = "Mine"
value = 4
count = 1
{bonus}
[[tool]]
key = "{tool_key}"
name = "Veto"
effect = "connection"
cost = 1
count = 1
{tool_extra}
"""


def card_set(bonus="", tool_key="veto", tool_extra=""):
    return load_card_set(CARD_SET.format(bonus=bonus, tool_key=tool_key, tool_extra=tool_extra))


def test_the_card_set_reads_amounts_texts_and_bonuses():
    cards = card_set(bonus="bonus = { capital = 2, steal = 1 }", tool_extra='amount = 3\ntext = "No."')
    assert cards.tool("veto").amount == 3 and cards.tool("veto").text == "No."
    assert card_set().tool("veto").amount == 0 and card_set().tool("veto").text == ""
    bonus = cards.investment("mine").bonus
    assert (bonus.capital, bonus.tools, bonus.steal) == (2, 0, 1) and bonus
    assert bonus.describe() == "draw 2 Capital cards and take 1 random Capital card from each opponent"
    assert not card_set().investment("mine").bonus and card_set().investment("mine").bonus.describe() == "no bonus"
    assert CARDS.investment("gold-mine").bonus.describe() == "draw 4 Capital cards and draw 1 Tool card"
    assert CARDS.investment("patent-dispute").bonus.describe() == "draw 2 Tool cards"


@pytest.mark.parametrize("kwargs, message", [
    ({"bonus": "bonus = { gold = 1 }"}, "bonus may only name capital, tools and steal"),
    ({"bonus": "bonus = 3"}, "bonus may only name"),
    ({"bonus": "bonus = { capital = -1 }"}, "whole number 'capital' of at least 0"),
    ({"tool_key": "Veto"}, "must be lower-case letters"),
    ({"tool_key": "ve to"}, "must be lower-case letters"),
    ({"tool_key": "12"}, "must be lower-case letters"),
    ({"tool_extra": "text = 5"}, "needs a text 'text'"),
    ({"tool_extra": "amount = true"}, "needs a whole number 'amount' of at least 0, not True"),
])
def test_a_card_set_with_a_bad_card_is_refused(kwargs, message):
    with pytest.raises(RulesError, match=message):
        card_set(**kwargs)


def test_a_card_set_with_a_bad_value_says_so():
    with pytest.raises(RulesError, match="needs a whole number 'value', not 'x'"):
        load_card_set(CARD_SET.format(bonus="", tool_key="veto", tool_extra="").replace("value = 4", "value = 'x'"))


def test_cards_are_read_back_from_their_keys():
    assert CARDS.read_capital("5.7") == Capital(5, 7) and Capital(5).key == "5" and Capital(5, 2).key == "5.2"
    assert CARDS.read_tool("audit.3") == Tool("audit", 3) and Tool("audit").key == "audit"
    assert CARDS.read_investment("brewery.1") == Investment("brewery", 1) and Investment("brewery").key == "brewery"
    for text, message in [("5.8", "only 8 Capital cards of 5"), ("7", "not a Capital card"), ("x", "not a Capital card"),
                          ("5.x", "copy number"), ("5.1234", "copy number"), ("", "must be written as text"),
                          (5, "must be written as text"), ("  ", "must be written as text")]:
        with pytest.raises(RulesError, match=message):
            CARDS.read_capital(text)
    with pytest.raises(RulesError, match="only 4 Audit cards"):
        CARDS.read_tool("audit.4")
    with pytest.raises(RulesError, match="only 2 Brewery cards"):
        CARDS.read_investment("brewery.2")
    assert CARDS.read_capital(" 3.1 ") == Capital(3, 1)


def test_cards_are_values_that_cannot_change():
    for card in (Capital(5), Tool("audit"), Investment("brewery"), CARDS.investment("brewery"),
                 CARDS.tool("audit"), CARDS.investment("brewery").bonus, CARDS):
        with pytest.raises(AttributeError):
            card.key = "x"
    assert sorted([Capital(5), Capital(2, 1), Capital(2)]) == [Capital(2), Capital(2, 1), Capital(5)]
    assert sorted([Tool("tax"), Tool("audit")]) == [Tool("audit"), Tool("tax")]
    assert sorted([Investment("brewery", 1), Investment("brewery")]) == [Investment("brewery"), Investment("brewery", 1)]
    assert repr(Capital(5, 1)) == "Capital('5.1')" and Tool("audit").name == "Audit"
    assert Investment("brewery").label == "Brewery (3)" and Investment("brewery").name == "Brewery"


# -- the log -------------------------------------------------------------------------------------

def test_events_that_show_hidden_cards_or_chance_are_marked_as_revealing():
    brewery, bonds = Investment("brewery"), Investment("railway-bonds")
    revealing = [LaidOut(1, ()), Drew(ANN, (), (), ""), Reshuffled("Tool", 3), LotFlipped(ANN, "3a", brewery),
                 Stole(ANN, ()), Looked(ANN, "3a", brewery), Spied(ANN, BOB, ()), GameOver("", "", ()),
                 AuctionWon(ANN, 1, (3,), ((brewery, True), (bonds, False)), (frozenset(), frozenset())),
                 Flipped(ANN, BOB, 1, brewery, True, frozenset()),
                 Moved(ANN, BOB, ANN, brewery, False, frozenset(), True)]
    quiet = [AuctionOpened(1, 1, ANN), BidMade(ANN, (3,)), Passed(ANN, False), NobodyBid(1),
             AuctionWon(ANN, 1, (3,), ((brewery, True),), (frozenset(),)),
             Flipped(ANN, BOB, 1, brewery, False, frozenset()), Moved(ANN, BOB, ANN, brewery, True, frozenset(), False),
             ToolPlayed(ANN, Tool("audit"), "", ()), Reacted(BOB, ANN, (1,), False), Declined(BOB),
             Cancelled(ANN, Tool("audit"), 1), WrittenOff(ANN, brewery, False, frozenset()),
             CapitalTaken(ANN, BOB, Capital(3)), CapitalDiscarded(BOB, (3,)), ToolDiscarded(ANN, Tool("tax"))]
    assert all(event.reveals for event in revealing)
    assert not any(event.reveals for event in quiet)


def test_the_log_tells_each_player_what_they_may_know():
    laid = LaidOut(2, (((Investment("brewery"), True), (Investment("steel-works"), False)), (), ()))
    assert laid.describe(NAMES) == "Round 2 begins. On the table: auction 1: Brewery (3) and a face-down card."
    drew = Drew(ANN, (Capital(3), Capital(5)), (Tool("audit"),), "round 2")
    assert drew.describe(NAMES, ANN) == "Ann draws 5, 3 and Audit (round 2)."
    assert drew.describe(NAMES, BOB) == "Ann draws 2 Capital cards and 1 Tool card (round 2)."
    assert Drew(ANN, (), (), "").describe(NAMES, ANN) == "Ann draws nothing (the deck is empty)."
    assert Passed(ANN, True).describe(NAMES) == "Ann plays no Tool." and Passed(ANN, False).describe(NAMES) == "Ann passes."
    assert Reacted(CLEO, BOB, (1,), True).describe(NAMES) == (
        "Cleo answers Bob's Connection with a Connection in the Government (paying 1).")


TARGETS = {"insider": {"lot": "3a"}, "press": {"own": 1}, "audit": {"player": BOB, "card": 1},
           "cover-up": {"own": 2}, "takeover": {"player": BOB, "card": 1},
           "merger": {"own": 1, "player": BOB, "card": 1}, "write-off": {"own": 1}, "draw-capital": {},
           "tax": {"player": BOB}, "espionage": {"player": BOB}, "offering": {"lot": "3a"}, "venture": {}}


@pytest.mark.parametrize("kind", [kind for kind in CARDS.tools if kind.effect != "connection"], ids=lambda k: k.key)
def test_every_tool_costs_exactly_its_price(kind):
    fields = TARGETS[kind.effect]
    state = tools_for(ann=[kind.key])
    cheapest = tuple(range(kind.cost, 0, -1))  # Ann holds 1 2 3 4 5
    assert Play(kind.key, pay=cheapest, **fields) in legal(state)
    if kind.cost:
        refused(state, Play(kind.key, pay=cheapest[1:], **fields), f"costs exactly {kind.cost} Capital card")
    refused(state, Play(kind.key, pay=cheapest + (5,), **fields), "costs")
    apply(state, Play(kind.key, pay=cheapest, **fields))
    assert values(state.capital_discard) == sorted(cheapest, reverse=True)


def test_the_results_chart_follows_each_portfolios_face_up_value():
    from rules.core import Match, Seat
    match = Match(SPEC, [Seat("Ann"), Seat("Bob"), Seat("Cleo")], seed=3)
    while not any(slot.up for p in match.state.portfolios for slot in p) or not any(
            not slot.up for p in match.state.portfolios for slot in p):
        seat = min(match.awaiting)
        match.submit(seat, match.legal(seat)[0])
    state = match.state
    expected = tuple(sum(slot.card.value for slot in p if slot.up) for p in state.portfolios)
    assert SPEC.score_label == "Face-up value" and SPEC.scores(state) == expected


# -- Capital cards every seat saw go into a hand (issue 25) -------------------------------------
def known_values(state_or_view):
    return [values(cards) for cards in state_or_view.known]


def test_bid_cards_taken_back_stay_known_in_the_hand_until_they_leave_it_in_sight():
    state = position(capital=[["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    play(state, "bid 1")  # Ann
    play(state, "bid 2")  # Bob
    play(state, "bid 6")  # Cleo
    play(state, "bid 5 3")  # Ann raises: her 1 goes back into her hand, face up till now
    assert known_values(state) == [[1], [], []]
    play(state, "pass")  # Bob
    play(state, "pass")  # Cleo: Ann wins; Bob and Cleo take their bids back
    assert known_values(state) == [[1], [2], [6]]
    view = SPEC.view(state, BOB)
    assert known_values(view) == [[1], [2], [6]] == known_values(SPEC.view(state, None))
    for seed in range(5):  # Bob's samples keep them where they went
        sampled = SPEC.sample(view, random.Random(seed))
        assert sampled.known == state.known and all(
            set(cards) <= set(hand) for cards, hand in zip(state.known, sampled.capital))
        # each hand as big as it is (the view shows its size), the known cards among its cards
        assert list(map(len, sampled.capital)) == list(map(len, state.capital)) == [1, 2, 2]  # Ann paid 5 3


def test_known_capital_leaves_with_a_payment_a_tax_or_an_unseen_taking():
    state = tools_for(ann=["espionage"], bob=["tax"], known=[["1", "2"], ["4.1", "2.1"], ["6"]])
    apply(state, Play("espionage", BOB, pay=(1,)))  # Ann pays her known 1 face up
    assert known_values(state) == [[2], [4, 2], [6]]
    everyone_declines(state)
    apply(state, Take(2))  # only Ann and Bob see which: Bob's known cards may be the one taken
    assert known_values(state) == [[2], [], [6]]
    state = tools_for(ann=["tax"], known=[[], ["4.1", "2.1"], ["6"]])
    apply(state, Play("tax", BOB, pay=(1,)))
    everyone_declines(state)
    apply(state, DiscardCapital((2, 1)))  # face up: Bob's known 4 stays
    assert known_values(state) == [[], [4], [6]]
    state = tools_for(ann=["tax"], known=[[], [], ["6"]])
    apply(state, Play("tax", CLEO, pay=(1,)))
    everyone_declines(state)  # Cleo's two cards go, face up
    assert known_values(state) == [[], [], []]
    state = position(table=[[{"card": "failing-bank", "up": True}], [], []], capital=[["1"], ["4", "2"], []],
                     known=[[], ["4"], []])
    for text in ("bid 1", "pass", "pass"):  # Ann's Failing Bank takes one of Bob's cards at random
        play(state, text)
    assert known_values(state) == [[], [], []]


def test_known_capital_is_saved_and_a_position_saved_before_it_still_reads():
    state = tools_for(known=[["1"], [], ["6"]])
    data = SPEC.to_json(state)
    assert data["known"] == [["1"], [], ["6"]] and SPEC.from_json(copy.deepcopy(data)) == state
    del data["known"]
    assert SPEC.from_json(data).known == [[], [], []]
    with pytest.raises(RulesError, match="known to be in seat 1's Capital hand"):
        SPEC.from_json({**data, "known": [[], ["6"], []]})
    broken = copy.deepcopy(state)
    broken.known[1].append(Capital(6, 0))
    assert set(SPEC.invariants(broken)) - set(SPEC.invariants(state)) == {
        "6, known to be in seat 1's Capital hand, is not there"}


def test_a_save_from_before_known_capital_loads_and_its_replay_rebuilds_it():
    from game_helpers import loads_without, played_until

    # a bid taken back
    match = played_until(Match(SPEC, [Seat("Ann"), Seat("Bob"), Seat("Cleo")], seed=1), lambda m: any(m.state.known))
    loaded = loads_without(match, "known")  # no SnapshotMismatch: the moves rebuild what is missing
    assert loaded.state.known == match.state.known and loaded.state == match.state


# -- the expert's estimate ---------------------------------------------------------------------------
def test_the_experts_estimate_counts_face_down_cards_at_their_value_and_capital_as_a_claim():
    from rules.capital_auction.rules import capital_claims

    state = position(names=["Ann", "Bob"], capital=[["5", "3", "1"], ["4", "2"]],
                     portfolios=[[{"card": "oil-concession", "up": False}], [{"card": "corner-bakery", "up": False}]])
    ann, bob = SPEC.estimate(state)
    claims = capital_claims(state)
    # the portfolios at their real value, face down or not: 8 and 1; a point of claim counts as
    # five points of portfolio (what games of the bot against itself and the expert's play say)
    assert (ann, bob) == pytest.approx((8 + 5 * claims[0], 1 + 5 * claims[1]))
    # the richer hand claims more of what is still to be sold, in proportion to all the Capital
    # (the cards in hand and the four each draws every round to come)
    future = 3 * 4 * sum(c.value for c in CARDS.capital_deck()) / len(CARDS.capital_deck())
    assert claims[0] / claims[1] == pytest.approx((9 + future) / (6 + future))
    # a bid laid out is still its bidder's Capital until the auction is won
    laid = position(names=["Ann", "Bob"], capital=[["5"], ["4", "2"]], bids=[["3", "1"], []],
                    portfolios=[[{"card": "oil-concession", "up": False}], [{"card": "corner-bakery", "up": False}]])
    assert capital_claims(laid) == pytest.approx(claims)


def test_the_experts_estimate_values_a_face_up_card_for_the_capital_it_draws_each_round():
    from rules.capital_auction.rules import capital_claims

    up = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]],
                  portfolios=[[{"card": "shipping-line", "up": True}], [{"card": "textile-mill", "up": True}]])
    down = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]],
                    portfolios=[[{"card": "shipping-line", "up": True}], [{"card": "textile-mill", "up": False}]])
    assert capital_claims(up)[0] == pytest.approx(capital_claims(up)[1])
    assert capital_claims(down)[0] > capital_claims(down)[1]
    # in the last round no Capital is drawn any more: face up or down comes to the same
    last = [position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]], round=4, portfolios=p)
            for p in ([[{"card": "shipping-line", "up": True}], [{"card": "textile-mill", "up": True}]],
                      [[{"card": "shipping-line", "up": True}], [{"card": "textile-mill", "up": False}]])]
    assert capital_claims(last[0]) == pytest.approx(capital_claims(last[1]))


def test_the_experts_estimate_counts_only_the_lots_before_a_portfolio_fills():
    from rules.capital_auction.rules import capital_claims

    four = [{"card": c, "up": True} for c in ("shipping-line", "textile-mill", "department-store", "corner-bakery")]
    far = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]], removed=four)
    near = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]], portfolios=[four, []])
    # the same cards left to sell; far from the end, each may win two lots before the third
    # ends the game (five lots), while Ann's next lot ends it: Bob's two and that one
    assert sum(capital_claims(near)) == pytest.approx(3 / 5 * sum(capital_claims(far)))
    over = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]], round=4, auction=3, investment_deck=[],
                    table=[[], [], [{"card": "railway-bonds", "up": True}, {"card": "oil-concession", "up": False}]])
    # one lot left, worth the mean of its positive cards, twice: 17, shared as the Capital is
    assert sum(capital_claims(over)) == pytest.approx(17.0)


def test_the_experts_estimate_shares_every_card_still_to_sell_as_the_capital_is_shared():
    from rules.capital_auction.rules import capital_claims

    lots = [[{"card": "railway-bonds", "up": True}, {"card": "start-up", "up": False}],  # 9, -1
            [{"card": "oil-concession", "up": True}, {"card": "corner-bakery", "up": False}],  # 8, 1
            [{"card": "print-shop", "up": False}, {"card": "brewery", "up": False}]]  # 2, 3
    state = position(names=["Ann", "Bob"], capital=[["5"], ["3"]], round=4, table=lots,
                     investment_deck=["steel-works", "gold-mine"])  # 6, -4
    # the last round's first auction: its three lots are all that is left to sell (an empty
    # portfolio fills only after three lots), each worth two of the eight cards not yet sold,
    # the table's and the deck's, at their mean, the start-up and the gold mine as nothing
    value = 3 * 2 * (9 + 8 + 1 + 2 + 3 + 6) / 8
    # no Capital is drawn after the last round's: the hands are all the Capital, 5 and 3
    assert capital_claims(state) == pytest.approx([value * 5 / 8, value * 3 / 8])
    # the only Capital at the table claims all of it, whatever its size
    alone = position(names=["Ann", "Bob"], capital=[["1"], []], round=4, table=lots,
                     investment_deck=["steel-works", "gold-mine"])
    assert capital_claims(alone) == pytest.approx([value, 0.0])
    # nothing left to sell, or no Capital left to buy it with: nobody claims anything
    sold = position(names=["Ann", "Bob"], capital=[["5"], ["3"]], round=4, auction=3, table=[[], [], []],
                    investment_deck=[])
    penniless = position(names=["Ann", "Bob"], capital=[[], []], round=4, table=lots)
    assert capital_claims(sold) == capital_claims(penniless) == [0.0, 0.0]


def test_the_experts_estimate_counts_one_more_capital_card_a_round_for_each_face_up_investment():
    from rules.capital_auction.rules import capital_claims

    state = position(names=["Ann", "Bob"], capital=[["5"], ["5.1"]], round=3,
                     portfolios=[[{"card": "shipping-line", "up": True}], [{"card": "textile-mill", "up": False}]])
    # one round's draw still to come: 4 cards each, and Ann one more for her face-up card, at
    # the Capital deck's mean value
    mean = sum(c.value for c in CARDS.capital_deck()) / len(CARDS.capital_deck())
    ann, bob = capital_claims(state)
    assert ann / bob == pytest.approx((5 + 5 * mean) / (5 + 4 * mean))
