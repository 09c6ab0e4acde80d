"""Abundance's rules, one test (or more) per rule and ruling, on positions written as JSON by hand.

Unless a test says otherwise Ann is seat 0 and Bob seat 1, and Bob deals the first rubber
(``first_dealer`` 1), so Ann is the non-dealer: she chooses the piles of rounds 1 and 3 and bids
first in rounds 1 and 3; Bob chooses round 2's pile and bids first in round 4 and after a tie.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from rules.core import IllegalCommand, Match, NotationError, RulesError, Seat, build_deck, parse_card
from rules.core.offers import Deal, Side
from rules.abundance import SPEC, pays, rarity, round_values, sale_by_suit, sale_value, suit_counts
from rules.abundance.commands import (
    Accept, Bid, ChoosePile, Decline, Offer, Pass, Ready, SealedBid,
)
from rules.abundance.events import (
    BidMade, CardTurned, DealDeclined, DealDone, LastPile, MatchOver, NewRubber, Offered, Passed,
    PileChosen, ReadyToGo, RubberOver, SealedBidIn, SealedRevealed, Sold, Won,
)
from rules.abundance.market import CORNER, expected_pays, is_corner, suit_sale
from rules.abundance.state import TRINKET_CARDS
from rules.core.cards import Suit

C = parse_card
S, H, D, CL = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
NAMES = ["Ann", "Bob"]
ANN, BOB = 0, 1
DECK = [card.key for card in TRINKET_CARDS]


def position(**fields):
    """A position from its hand-written JSON (Ann and Bob; Bob deals unless told otherwise)."""
    data = {"names": NAMES, **fields}
    return SPEC.from_json(json.loads(json.dumps(data)))


def act(state, seat, text):
    """``seat`` types ``text``; the events."""
    return SPEC.apply(state, seat, SPEC.notation.parse(text, SPEC.view(state, seat)))


def refused(state, seat, command, words):
    """``command`` (or its text) is refused for ``seat`` with a message containing ``words``
    and changes nothing."""
    before = copy.deepcopy(state)
    if isinstance(command, str):
        command = SPEC.notation.parse(command, SPEC.view(state, seat))
    with pytest.raises(IllegalCommand, match=words):
        SPEC.check(state, seat, command)
    with pytest.raises(IllegalCommand, match=words):
        SPEC.apply(state, seat, command)
    assert state == before


def keys(cards):
    return [card.key for card in cards]


def awaiting(state):
    return sorted(SPEC.awaiting(state))


def trade(round=1, **fields):
    """A trade window after an auction (defaults: nothing held, round 1)."""
    return position(phase="trade", round=round, **fields)


def auction(card="7H", round=1, **fields):
    return position(phase="auction", round=round, card=card, **fields)


def sealed(card="7H", sold=None, **fields):
    """Round 2's sealed auction of ``card`` (round 1's cards sold: ``ROUND_ONE``)."""
    return position(phase="sealed", round=2, card=card, sold=ROUND_ONE if sold is None else sold, **fields)


# -- setting up --------------------------------------------------------------------------------

def test_the_deal_lays_out_the_aces_and_four_face_down_piles_of_twelve():
    state = SPEC.setup(NAMES, None, seed=5)
    assert [len(pile) for pile in state.piles] == [12, 12, 12, 12]
    dealt = sorted(card.key for pile in state.piles for card in pile)
    assert dealt == sorted(DECK) and len(DECK) == 48 and not any(key.startswith("A") for key in dealt)
    assert len(SPEC.conserved(state)["cards"]) == 52  # the aces keep the tally
    assert state.money == [50, 50] and state.trinkets == [[], []]
    data = SPEC.to_json(state)
    assert {key: data[key] for key in ("rubber", "round", "phase", "bank", "chosen", "card", "sold",
                                       "auction", "sealed", "calls", "revealed", "ready", "offered",
                                       "offer", "rubbers", "sales", "auctions")} == {
        "rubber": 1, "round": 1, "phase": "choose", "bank": 0, "chosen": [], "card": None, "sold": [],
        "auction": None, "sealed": None, "calls": [], "revealed": None, "ready": [False, False],
        "offered": [False, False], "offer": None, "rubbers": [], "sales": [], "auctions": 0}
    assert SPEC.conserved(state) == {"cards": sorted(card.key for card in build_deck()), "money": 100}
    view = SPEC.view(state, None)
    assert view.counts == (0, 0, 0, 0) and view.piles == (12, 12, 12, 12)
    assert view.rarity == (S, H, D, CL)  # nothing up yet: the suit order decides
    assert view.rows == (("$50", "0", "$0", "–"), ("$50", "0", "$0", "–"))
    assert view.columns == ("Money", "Trinkets", "Sells for", "Match")


def test_the_first_dealer_is_drawn_from_the_seed_and_the_non_dealer_chooses_first():
    dealers = set()
    for seed in range(20):
        state = SPEC.setup(NAMES, None, seed)
        assert state.dealer == state.first_dealer and state.non_dealer == 1 - state.dealer
        assert SPEC.awaiting(state) == {state.non_dealer}
        assert SPEC.legal(state, state.non_dealer) == [ChoosePile(n) for n in (1, 2, 3, 4)]
        assert SPEC.legal(state, state.dealer) == []
        dealers.add(state.dealer)
    assert dealers == {0, 1}


def test_setup_is_deterministic_for_a_seed():
    a = SPEC.to_json(SPEC.setup(NAMES, None, 42))
    assert a == SPEC.to_json(SPEC.setup(NAMES, None, 42))
    assert a != SPEC.to_json(SPEC.setup(NAMES, None, 43))
    assert a["counter"] == 1  # one shuffle so far


def test_abundance_is_for_two_players():
    with pytest.raises(RulesError, match="Abundance is for 2 players, not 3"):
        SPEC.setup(["Ann", "Bob", "Cat"], None, 1)
    with pytest.raises(RulesError, match="no options|unknown option"):
        SPEC.setup(NAMES, {"fast": True}, 1)
    assert SPEC.players == (2, 2) and SPEC.options == () and SPEC.best_bot == "bot"
    assert set(SPEC.bots) == {"bot", "greedy"}


# -- the market ----------------------------------------------------------------------------------

def test_the_rule_texts_example_two_hearts_three_spades_three_clubs_four_diamonds():
    counts = suit_counts(C(k) for k in "2H 3H 3S 4S 5S 3C 4C 5C 4D 5D 6D 7D".split())
    assert counts == (3, 2, 4, 3)
    assert rarity(counts) == (H, S, CL, D)  # spades and clubs tie: spades count as rarer
    assert pays(counts, 1) == (4, 20, 0, 2)  # hearts 20, spades 4, clubs 2, diamonds nothing
    assert sale_value([C("3S"), C("4S"), C("5S")], counts, 1) == 36  # a corner: 3 × 4 × 3
    assert sale_value([C("4D"), C("5D"), C("6D")], counts, 1) == 0  # three worthless diamonds
    assert sale_value([C("4D"), C("5D"), C("6D"), C("7D")], counts, 1) == 0
    assert sale_value([C("3C"), C("4C"), C("5C")], counts, 1) == 18
    assert sale_value([C("2H"), C("3S"), C("3C")], counts, 1) == 26


def test_the_market_values_double_every_round():
    assert [round_values(n) for n in (1, 2, 3, 4)] == [(20, 4, 2), (40, 8, 4), (80, 16, 8), (160, 32, 16)]
    assert pays((3, 2, 4, 3), 4) == (32, 160, 0, 16)


def test_ties_in_rarity_break_in_suit_order_spades_hearts_diamonds_clubs():
    assert rarity((3, 3, 3, 3)) == (S, H, D, CL)
    assert pays((3, 3, 3, 3), 1) == (20, 4, 2, 0)
    assert rarity((5, 2, 2, 5)) == (H, D, S, CL)
    assert pays((9, 1, 2, 3), 1) == (0, 20, 4, 2)  # the most abundant suit pays nothing
    assert pays((1, 9, 2, 3), 1) == (20, 0, 4, 2)
    assert pays((1, 4, 4, 4), 2) == (40, 8, 4, 0)


def test_an_absent_suit_is_the_rarest():
    assert rarity((2, 4, 6, 0))[0] is CL and pays((2, 4, 6, 0), 1) == (4, 2, 0, 20)
    assert pays((0, 0, 1, 0), 1) == (20, 4, 0, 2)  # absent suits tie: suit order again


def test_a_corner_is_three_or_more_of_a_suit_and_pays_triple():
    assert CORNER == 3 and not is_corner(2) and is_corner(3) and is_corner(5)
    assert [suit_sale(n, 4) for n in range(5)] == [0, 4, 8, 36, 48]
    assert sale_by_suit([C(k) for k in "2S 3S 2H 3H 4H 2D".split()], (0, 0, 0, 12), 1) == (40, 36, 2, 0)


def test_a_corner_in_a_worthless_suit_pays_nothing():
    assert sale_by_suit([C(k) for k in "2C 3C 4C 5C".split()], (1, 1, 1, 9), 3) == (0, 0, 0, 0)


# -- choosing the piles --------------------------------------------------------------------------

def test_the_non_dealer_chooses_round_one_and_the_first_card_is_turned_up():
    state = position()
    assert awaiting(state) == [ANN] and SPEC.view(state, ANN).chooser == ANN
    assert SPEC.view(state, ANN).status == "Rubber 1, round 1: Ann chooses the pile (open auctions)."
    top = state.piles[2][-1]
    events = act(state, ANN, "choose pile 3")
    assert events[0] == PileChosen(ANN, 3, 1)
    turned = events[1]
    assert isinstance(turned, CardTurned) and turned.reveals and turned.card == top
    assert (turned.number, turned.round, turned.kind, turned.opener) == (1, 1, "open", ANN)
    assert state.card == top and state.chosen == [3] and len(state.piles[2]) == 11
    assert state.phase == "auction" and awaiting(state) == [ANN]  # the non-dealer opens
    assert SPEC.view(state, BOB).counts[top.suit.order] == 1  # the card up is in the tally
    assert SPEC.turn(state) == 1


def test_a_pile_is_chosen_once_per_rubber_and_numbered_one_to_four():
    state = position(round=3, phase="choose", chosen=[2, 4], sold=DECK[:24])
    assert awaiting(state) == [ANN]
    assert SPEC.legal(state, ANN) == [ChoosePile(1), ChoosePile(3)]
    refused(state, ANN, ChoosePile(2), "Pile 2 has already been played this rubber; choose pile 1 or 3")
    refused(state, ANN, ChoosePile(5), "numbered 1 to 4; choose pile 1 or 3")
    refused(state, ANN, ChoosePile(0), "numbered 1 to 4")
    refused(state, ANN, ChoosePile("1"), "numbered 1 to 4")
    refused(state, BOB, ChoosePile(1), "not Bob's move: the game is waiting for Ann")
    refused(state, ANN, Bid(3), "First choose the pile for round 3, as in 'choose pile 1'")
    refused(state, ANN, Ready(), "First choose the pile")


def test_the_dealer_chooses_round_two():
    state = position(round=2, phase="choose", sold=DECK[:12])
    assert awaiting(state) == [BOB]
    act(state, BOB, "choose pile 4")
    assert state.phase == "sealed" and awaiting(state) == [ANN, BOB]


def test_no_pile_is_chosen_during_an_auction():
    refused(auction(), ANN, ChoosePile(2), "No pile is being chosen now")


# -- open auctions (rounds 1 and 4) --------------------------------------------------------------

def test_an_open_auction_bids_and_raises_until_one_passes_and_the_winner_pays_the_bank():
    state = auction("7H")
    assert SPEC.legal(state, ANN) == [*(Bid(n) for n in range(1, 51)), Pass()]
    # nothing private in an open auction: no seat's view holds a zone (no curtain between humans)
    assert all(SPEC.view(state, seat).zones == {} for seat in (ANN, BOB, None))
    assert act(state, ANN, "bid 3") == [BidMade(ANN, 3)]
    assert awaiting(state) == [BOB]
    assert SPEC.legal(state, BOB)[0] == Bid(4)
    act(state, BOB, "bid 5")
    act(state, ANN, "bid 9")
    assert SPEC.view(state, BOB).status == "Bob: bid on 7♥ (at least $10) or pass; Ann bids $9."
    events = act(state, BOB, "pass")
    assert events == [Passed(BOB), Won(ANN, C("7H"), 9)]
    assert events[1].describe(NAMES) == "Ann wins 7♥ for $9."
    assert state.money == [41, 50] and state.bank == 9 and keys(state.trinkets[ANN]) == ["7H"]
    assert state.card is None and state.phase == "trade" and awaiting(state) == [ANN, BOB]
    assert SPEC.view(state, None).calls == ((ANN, 3), (BOB, 5), (ANN, 9), (BOB, None))


def test_a_pass_holds_only_until_the_next_bid():
    state = auction("7H")
    act(state, ANN, "pass")
    assert awaiting(state) == [BOB] and state.phase == "auction"
    act(state, BOB, "bid 2")
    assert awaiting(state) == [ANN]  # Ann may come back in
    act(state, ANN, "bid 3")
    act(state, BOB, "bid 4")
    act(state, ANN, "pass")
    assert keys(state.trinkets[BOB]) == ["7H"] and state.money == [50, 46]


def test_when_both_decline_the_opener_takes_the_card_free():
    state = auction("7H")
    act(state, ANN, "pass")
    events = act(state, BOB, "pass")
    assert events == [Passed(BOB), Won(ANN, C("7H"), 0, free=True)]
    assert events[1].describe(NAMES) == "Both players pass: Ann, who bid first, takes 7♥ for nothing."
    assert keys(state.trinkets[ANN]) == ["7H"] and state.money == [50, 50] and state.bank == 0


def test_the_dealer_opens_round_four():
    state = auction("7C", round=4, sold=DECK[:36])
    assert awaiting(state) == [BOB]
    act(state, BOB, "pass")
    act(state, ANN, "pass")
    assert keys(state.trinkets[BOB]) == ["7C"]


def test_bids_are_whole_units_beating_the_standing_bid_and_at_most_ones_money():
    state = auction("7H", money=[12, 50])
    refused(state, ANN, Bid(0), r"Bid at least \$1, or pass")
    refused(state, ANN, Bid(13), r"You have only \$12: you cannot bid \$13")
    refused(state, ANN, Bid(2.5), "whole number of units")
    refused(state, ANN, Bid(True), "whole number of units")
    assert SPEC.legal(state, ANN)[-2:] == [Bid(12), Pass()]
    act(state, ANN, "bid 12")
    act(state, BOB, "bid 20")
    refused(state, ANN, Bid(20), r"beat the standing bid of \$20: bid at least \$21, or pass")
    refused(state, ANN, Bid(21), r"You have only \$12")
    assert SPEC.legal(state, ANN) == [Pass()]  # nothing she can afford beats 20
    refused(state, BOB, Bid(25), "not Bob's move")


def test_a_player_with_no_money_can_only_pass():
    state = auction("7H", money=[0, 0])
    assert SPEC.legal(state, ANN) == [Pass()]
    act(state, ANN, "pass")
    act(state, BOB, "pass")
    assert keys(state.trinkets[ANN]) == ["7H"]


def test_no_bids_outside_an_auction():
    state = trade()
    refused(state, ANN, Bid(3), "There is no auction now: make an offer or say ready")
    refused(state, ANN, Pass(), "There is no auction now")
    refused(state, ANN, SealedBid(3), "No sealed bid is asked for now")
    refused(auction(), ANN, SealedBid(3), "No sealed bid is asked for now")


def test_no_trading_during_an_auction():
    state = auction("7H")
    refused(state, ANN, Ready(), "7♥ is up for auction: bid or pass")
    refused(state, ANN, Offer("Bob", Side(money=1)), "7♥ is up for auction")
    refused(state, ANN, Accept(), "7♥ is up for auction")


# -- the sealed round (round 2) ------------------------------------------------------------------

def test_sealed_bids_are_asked_of_both_players_at_once_and_kept_secret():
    state = sealed("7H")
    assert awaiting(state) == [ANN, BOB]
    assert SPEC.legal(state, ANN) == [SealedBid(n) for n in range(51)]
    assert SealedBid.secret and not Bid.secret
    assert SPEC.notation.parse("bid 12", SPEC.view(state, ANN)) == SealedBid(12)
    assert SPEC.notation.parse("pass", SPEC.view(state, ANN)) == SealedBid(0)
    events = act(state, ANN, "bid 37")
    assert events == [SealedBidIn(ANN, 37)] and not events[0].reveals
    assert events[0].describe(NAMES, ANN) == "Ann bids $37 in secret."
    assert events[0].describe(NAMES, BOB) == "Ann has bid."
    assert events[0].describe(NAMES, None) == "Ann has bid."
    assert awaiting(state) == [BOB] and state.money == [50, 50]
    mine, theirs, public = (SPEC.view(state, s) for s in (ANN, BOB, None))
    assert mine.zones == {"bid": (37,)} and mine.my_bid == 37
    assert theirs.zones == {} and theirs.my_bid is None and public.zones == {}
    assert mine.zone_sizes == theirs.zone_sizes == ({"bid": 1}, {"bid": 0})
    assert theirs.sealed_in == (ANN,) and "37" not in repr(theirs) and "37" not in repr(public)
    assert theirs.status == "Sealed bids on 7♥: waiting for Bob."
    refused(state, ANN, SealedBid(20), "not Ann's move: the game is waiting for Bob")


def test_the_higher_sealed_bid_wins_and_pays_its_bid():
    state = sealed("7H")
    act(state, BOB, "bid 8")
    assert SPEC.view(state, ANN).zone_sizes == ({"bid": 0}, {"bid": 1})
    assert SPEC.view(state, BOB).zones == {"bid": (8,)} and SPEC.view(state, ANN).zones == {}
    events = act(state, ANN, "bid 12")
    revealed = events[-1]
    assert revealed == SealedRevealed(C("7H"), (12, 8), ANN, 12, BOB) and revealed.reveals
    assert revealed.describe(NAMES, BOB) == "The sealed bids for 7♥: Ann $12 and Bob $8. Ann wins 7♥ for $12."
    assert state.money == [38, 50] and keys(state.trinkets[ANN]) == ["7H"]
    assert state.phase == "trade" and SPEC.view(state, BOB).revealed == (12, 8)
    assert SPEC.view(state, ANN).number == 0
    assert SPEC.view(state, BOB).zone_sizes == ({"bid": 0}, {"bid": 0})


def test_a_sealed_tie_goes_to_an_open_auction_opened_by_the_dealer():
    state = sealed("7H")
    act(state, ANN, "bid 8")
    events = act(state, BOB, "bid 8")
    assert events[-1] == SealedRevealed(C("7H"), (8, 8), None, 8, BOB)
    assert events[-1].describe(NAMES) == ("The sealed bids for 7♥: Ann $8 and Bob $8. A tie: 7♥ goes to "
                                          "an open auction, and Bob (the dealer) bids first.")
    assert state.phase == "auction" and state.card == C("7H") and awaiting(state) == [BOB]
    view = SPEC.view(state, ANN)
    assert (view.kind, view.auction_kind, view.revealed) == ("sealed", "open", (8, 8))
    assert state.money == [50, 50]
    assert SPEC.notation.parse("bid 3", view) == Bid(3)  # open again
    act(state, BOB, "bid 3")
    act(state, ANN, "bid 4")
    act(state, BOB, "pass")
    assert keys(state.trinkets[ANN]) == ["7H"] and state.money == [46, 50]


def test_both_sealed_bids_at_zero_tie_and_both_passing_then_gives_the_dealer_the_card_free():
    state = sealed("7H")
    act(state, ANN, "pass")  # declines: bid 0
    act(state, BOB, "bid 0")
    assert state.phase == "auction" and awaiting(state) == [BOB]
    act(state, BOB, "pass")
    events = act(state, ANN, "pass")
    assert events[-1] == Won(BOB, C("7H"), 0, free=True)
    assert keys(state.trinkets[BOB]) == ["7H"] and state.money == [50, 50]


def test_sealed_bids_are_whole_units_from_zero_to_ones_money():
    state = sealed("7H", money=[10, 50])
    refused(state, ANN, SealedBid(11), r"You have only \$10: you cannot bid \$11")
    refused(state, ANN, SealedBid(-1), "cannot be negative; bid 0 to decline")
    refused(state, ANN, SealedBid("5"), "whole number of units")
    refused(state, ANN, Bid(5), "sealed: bid a number of units, 0 to decline")
    refused(state, ANN, Pass(), "sealed")
    assert SPEC.legal(state, ANN)[-1] == SealedBid(10)


# -- the one-bid round (round 3) -----------------------------------------------------------------

def one_bid():
    return auction("7H", round=3, sold=DECK[24:])


def test_one_bid_the_non_dealer_bids_and_the_dealer_may_outbid():
    state = one_bid()
    assert awaiting(state) == [ANN] and SPEC.view(state, ANN).auction_kind == "one bid"
    act(state, ANN, "bid 5")
    assert awaiting(state) == [BOB]
    refused(state, BOB, Bid(5), r"beat the standing bid of \$5")
    events = act(state, BOB, "bid 6")
    assert events[-1] == Won(BOB, C("7H"), 6)  # Ann does not speak again
    assert state.money == [50, 44]


def test_one_bid_the_dealer_passes_and_the_non_dealer_wins():
    state = one_bid()
    act(state, ANN, "bid 5")
    act(state, BOB, "pass")
    assert keys(state.trinkets[ANN]) == ["7H"] and state.money == [45, 50]


def test_one_bid_the_non_dealer_passes_and_the_dealer_bids():
    state = one_bid()
    act(state, ANN, "pass")
    events = act(state, BOB, "bid 1")
    assert events[-1] == Won(BOB, C("7H"), 1)


def test_one_bid_both_pass_and_the_non_dealer_takes_it_free():
    state = one_bid()
    act(state, ANN, "pass")
    events = act(state, BOB, "pass")
    assert events[-1] == Won(ANN, C("7H"), 0, free=True)


# -- trading between auctions --------------------------------------------------------------------

def holding():
    """A trade window: Ann holds 3♠ 5♠, Bob 9♠ 2♥; Ann $30, Bob $20."""
    return trade(trinkets=[["3S", "5S"], ["9S", "2H"]], money=[30, 20])


def test_a_trade_window_awaits_both_and_both_ready_turns_the_next_card():
    state = holding()
    assert awaiting(state) == [ANN, BOB]
    assert SPEC.legal(state, ANN)[0] == Ready()
    assert SPEC.view(state, BOB).status == "Trading before the next card: Ann and Bob may make an offer or say ready."
    assert act(state, BOB, "ready") == [ReadyToGo(BOB)]
    assert awaiting(state) == [ANN] and SPEC.legal(state, BOB) == []
    refused(state, BOB, Ready(), "not Bob's move")
    events = act(state, ANN, "ready")
    assert events[0] == ReadyToGo(ANN) and isinstance(events[1], CardTurned)
    assert events[1].card == C("2S") and events[1].number == 5  # 4 cards were up this round
    assert state.phase == "auction" and state.card == C("2S")


def test_an_accepted_offer_moves_trinkets_and_money_at_once():
    state = holding()
    before = SPEC.conserved(state)
    events = act(state, ANN, "offer: give $6 take 9S")
    assert events == [Offered(ANN, BOB, Side(money=6), Side(cards=(C("9S"),)))]
    assert events[0].describe(NAMES) == "Ann offers Bob a deal: $6 for 9♠."
    assert awaiting(state) == [BOB] and SPEC.legal(state, BOB) == [Accept(), Decline()]
    assert SPEC.view(state, BOB).status == "Bob: Ann offers a trade — accept or decline."
    refused(state, ANN, Ready(), "not Ann's move")
    refused(state, BOB, Ready(), "First accept or decline Ann's offer")
    refused(state, BOB, Offer(None, Side(money=1)), "First accept or decline Ann's offer")
    events = act(state, BOB, "accept")
    assert events == [DealDone(ANN, BOB, Side(money=6), Side(cards=(C("9S"),)))]
    assert keys(state.trinkets[ANN]) == ["3S", "5S", "9S"] and keys(state.trinkets[BOB]) == ["2H"]
    assert state.money == [24, 26] and SPEC.conserved(state) == before
    assert SPEC.view(state, ANN).corners == ((S,), ())
    assert awaiting(state) == [ANN, BOB]  # Ann still to say ready; Bob may make his own offer
    assert SPEC.legal(state, ANN) == [Ready()]  # her one offer of this window is made
    refused(state, ANN, Offer(BOB, Side(money=1), Side(cards=(C("2H"),))), "already made your offer in this trade window")


def test_trinkets_may_go_both_ways_with_money():
    state = holding()
    act(state, BOB, "offer Ann: give 9S,$4 take 3S,5S")
    act(state, ANN, "accept")
    assert keys(state.trinkets[ANN]) == ["9S"] and keys(state.trinkets[BOB]) == ["2H", "3S", "5S"]
    assert state.money == [34, 16]


def test_a_declined_offer_changes_nothing_and_brings_a_ready_responder_back():
    state = holding()
    act(state, ANN, "ready")
    assert awaiting(state) == [BOB]
    act(state, BOB, "offer: give 2H take $5")
    assert awaiting(state) == [ANN]
    events = act(state, ANN, "decline")
    assert events == [DealDeclined(BOB, ANN)] and events[0].describe(NAMES) == "Ann declines Bob's offer."
    assert keys(state.trinkets[ANN]) == ["3S", "5S"] and state.money == [30, 20]
    assert awaiting(state) == [ANN, BOB] and state.ready == [False, False]
    act(state, ANN, "offer: give $1 take 2H")  # Ann may still make her own offer
    act(state, BOB, "decline")
    act(state, BOB, "ready")
    assert awaiting(state) == [ANN] and SPEC.legal(state, ANN) == [Ready()]
    act(state, ANN, "ready")
    assert state.phase == "auction"
    act(state, ANN, "pass")
    act(state, BOB, "pass")
    assert state.offered == [False, False] and state.ready == [False, False]  # a new window
    assert any(isinstance(c, Offer) for c in SPEC.legal(state, ANN))
    assert any(isinstance(c, Offer) for c in SPEC.legal(state, BOB))


def test_suggested_offers_buy_sell_or_swap_one_trinket():
    state = holding()
    offers = SPEC.legal(state, ANN)[1:]
    counts = SPEC.view(state, ANN).counts
    assert counts == (3, 1, 0, 0)
    # now ♦ and ♣ are rarest, then ♥ ($2): ♠ pays nothing, so a spade is offered at $1
    assert offers == [
        Offer(None, Side(money=1), Side(cards=(C("9S"),))),
        Offer(None, Side(money=2), Side(cards=(C("2H"),))),
        Offer(None, Side(cards=(C("3S"),)), Side(money=1)),
        Offer(None, Side(cards=(C("5S"),)), Side(money=1)),
        Offer(None, Side(cards=(C("3S"),)), Side(cards=(C("2H"),))),
        Offer(None, Side(cards=(C("5S"),)), Side(cards=(C("2H"),))),
    ]
    for offer in offers:
        SPEC.check(state, ANN, offer)
    # ♦ and ♣ are absent (rarest), then ♠ ($2), then ♥ (nothing: $1)
    poor = trade(trinkets=[["3S"], ["2H"]], money=[1, 1])
    assert SPEC.legal(poor, ANN)[1:] == [Offer(None, Side(money=1), Side(cards=(C("2H"),))),
                                         Offer(None, Side(cards=(C("3S"),)), Side(cards=(C("2H"),)))]
    enough = trade(trinkets=[["3S"], ["2H"]], money=[0, 2])
    assert SPEC.legal(enough, ANN)[1:] == [Offer(None, Side(cards=(C("3S"),)), Side(money=2)),
                                           Offer(None, Side(cards=(C("3S"),)), Side(cards=(C("2H"),)))]


def test_suggested_offers_are_those_of_the_position_they_were_listed_at():
    """The list is made when first read: from what the position held when it was listed, not
    from what it holds by then (the expert's search plays on after listing)."""
    state = holding()
    listed, unread = list(SPEC.legal(copy.deepcopy(state), ANN)), SPEC.legal(state, ANN)
    act(state, BOB, "offer Ann: give 2H take 3S,$5")
    act(state, ANN, "accept")
    assert keys(state.trinkets[ANN]) == ["5S", "2H"] and state.money == [25, 25]
    assert unread == listed and list(SPEC.legal(state, ANN)) != listed


def test_offers_name_only_what_each_side_holds_and_can_pay():
    state = holding()
    refused(state, ANN, "offer: give 7H take 9S", "You have no trinket 7♥")
    refused(state, ANN, "offer: take 7H", "Bob has no trinket 7♥")
    refused(state, ANN, "offer: give 3S,3S take 9S", "3♠ is named twice")
    refused(state, ANN, "offer: give $31 take 9S", r"You have only \$30, not \$31")
    refused(state, ANN, "offer: take 2H,$21", r"Bob has only \$20, not \$21")
    refused(state, ANN, "offer:", "must give or take something")
    refused(state, ANN, "offer Ann: take $1", "cannot trade with yourself")
    refused(state, ANN, "offer 1: take $1", "cannot trade with yourself")
    refused(state, ANN, Offer(ANN, take=Side(money=1)), "cannot trade with yourself")
    refused(state, ANN, Offer(2, take=Side(money=1)), "There is no player 2 at this table")
    refused(state, ANN, Offer("Bob", take=Side(money=1)), "There is no player 'Bob' at this table")
    refused(state, ANN, Offer(None, Side(holdings=("P1",))), "Only trinkets and money")
    refused(state, ANN, Offer(None, take=Side(holdings=("P1",))), "Only trinkets and money")
    refused(state, ANN, Offer(None, Side(money=-3), Side(cards=(C("9S"),))), "not negative")
    refused(state, ANN, Offer(None, Side(money=1.5)), "whole number")
    refused(state, ANN, Offer(None, "3S", Side()), "lists what is given and what is taken")
    refused(state, ANN, Offer(None, Side(), None), "lists what is given and what is taken")
    refused(state, ANN, Offer(None, Side(cards=("3S",))), "You have no trinket '3S'")
    refused(state, ANN, Offer(None, Side(cards=5)), "lists the trinkets each side hands over")
    refused(state, ANN, Offer(None, Side(money=1), Side(cards=None)), "lists the trinkets")
    assert SPEC.apply(state, ANN, Offer(BOB, take=Side(money=1)))  # Bob by his seat
    assert state.offer == Deal(ANN, BOB, Side(), Side(money=1))


def test_an_answer_needs_an_offer():
    state = holding()
    refused(state, ANN, Accept(), "There is no offer to answer")
    refused(state, ANN, Decline(), "There is no offer to answer")


def test_an_offer_that_can_no_longer_be_carried_out_can_only_be_declined():
    offer = {"proposer": 0, "responder": 1, "give_cards": [], "give_money": 0,
             "take_cards": ["KD"], "take_money": 0}
    state = trade(trinkets=[["3S"], ["9S"]], offer=offer)
    assert awaiting(state) == [BOB] and SPEC.legal(state, BOB) == [Decline()]
    refused(state, BOB, Accept(), r"cannot be carried out \(Bob has no trinket K♦\); decline it")
    act(state, BOB, "decline")
    assert state.offer is None


def test_the_reason_an_offer_cannot_be_carried_out_loses_only_its_own_full_stop():
    # a saved offer naming one trinket twice: the reason's words all kept, its stop dropped once
    # it sits in brackets inside the sentence
    offer = {"proposer": 0, "responder": 1, "give_cards": [], "give_money": 0,
             "take_cards": ["9S", "9S"], "take_money": 0}
    state = trade(trinkets=[["3S"], ["9S"]], offer=offer)
    with pytest.raises(IllegalCommand) as refusal:
        SPEC.check(state, BOB, Accept())
    assert refusal.value.sentence == "That offer cannot be carried out (9♠ is named twice); decline it."


def test_the_last_window_of_a_round_comes_before_the_sale():
    state = trade(trinkets=[DECK[:6], DECK[6:12]])
    assert SPEC.view(state, ANN).status == "Trading before the sale: Ann and Bob may make an offer or say ready."
    act(state, ANN, "ready")
    events = act(state, BOB, "ready")
    assert isinstance(events[1], Sold) and state.phase == "choose" and state.round == 2


# -- selling to the market -----------------------------------------------------------------------

def text_example(**fields):
    """Round 1 is over: 2♥, 3♠, 3♣ and 4♦ came up. Ann holds the three spades, the four diamonds
    and a club; Bob the two hearts and two clubs."""
    return trade(trinkets=[["3S", "4S", "5S", "4D", "5D", "6D", "7D", "3C"], ["2H", "3H", "4C", "5C"]],
                 **fields)


def test_the_sale_ends_the_round_and_pays_the_text_example():
    state = text_example()
    view = SPEC.view(state, None)
    assert view.pays == (4, 20, 0, 2) and view.rarity == (H, S, CL, D)
    assert view.sells == (38, 44) and view.corners == ((S, D), ())
    assert view.rows[0] == ("$50", "8", "$38", "–")
    act(state, BOB, "ready")
    events = act(state, ANN, "ready")
    sold = events[1]
    assert sold == Sold(1, 1, (3, 2, 4, 3), (H, S, CL, D), (4, 20, 0, 2),
                        ((C("3S"), C("4S"), C("5S"), C("4D"), C("5D"), C("6D"), C("7D"), C("3C")),
                         (C("2H"), C("3H"), C("4C"), C("5C"))), (38, 44))
    assert sold.describe(NAMES) == (
        "Round 1 sale: ♥ pays $20, ♠ pays $4, ♣ pays $2, ♦ nothing. Ann sells 3♠ 4♠ 5♠ 4♦ 5♦ 6♦ 7♦ 3♣ "
        "(corner in ♠ ♦) for $38; Bob sells 2♥ 3♥ 4♣ 5♣ for $44.")
    assert state.money == [88, 94] and state.bank == -82
    assert state.trinkets == [[], []] and len(state.sold) == 12  # back to the bank, still in the tally
    assert state.sales[-1].pays == (4, 20, 0, 2) and state.sales[-1].amounts == (38, 44)
    assert state.round == 2 and state.phase == "choose" and awaiting(state) == [BOB]
    view = SPEC.view(state, None)
    assert view.counts == (3, 2, 4, 3) and view.chooser == BOB
    assert view.pile is None and view.pile_left == 0 and view.available == (2, 3, 4)


def test_a_player_with_nothing_to_sell():
    state = trade(trinkets=[DECK[:12], []])
    act(state, ANN, "ready")
    events = act(state, BOB, "ready")
    assert events[1].describe(NAMES).endswith("; Bob has nothing to sell.")
    assert events[1].amounts == (sale_value([C(k) for k in DECK[:12]], (12, 0, 0, 0), 1), 0) == (0, 0)


ROUND_ONE = "2H 3H 2S 3S 4S 2C 3C 4C 2D 3D 4D 5D".split()


def test_rarity_counts_are_cumulative_over_the_rubber():
    # round 2 alone (5♠ 1♥ 3♦ 3♣) would rank ♥ ♦ ♣ ♠; with round 1 it is ♥ 3, ♣ 6, ♦ 7, ♠ 8
    state = trade(round=2, sold=ROUND_ONE, trinkets=[["4H", "6D", "7D", "8D"],
                                                    ["5C", "6C", "7C", "5S", "6S", "7S", "8S", "9S"]])
    assert SPEC.view(state, None).counts == (8, 3, 7, 6)
    assert SPEC.view(state, None).pays == (0, 40, 4, 8)
    act(state, ANN, "ready")
    act(state, BOB, "ready")
    assert state.sales[-1].amounts == (40 + 36, 72) and state.money == [126, 122]
    assert state.round == 3 and awaiting(state) == [ANN]  # the non-dealer chooses round 3


@pytest.mark.parametrize("chosen, last", [([4, 1, 2], 3), ([2, 3, 4], 1), ([1, 2, 3], 4)])
def test_round_four_takes_the_last_pile_without_a_choice(chosen, last):
    state = trade(round=3, chosen=chosen, sold=DECK[:24], trinkets=[DECK[24:30], DECK[30:36]])
    top = state.piles[last - 1][-1]
    act(state, ANN, "ready")
    events = act(state, BOB, "ready")
    assert [type(e) for e in events] == [ReadyToGo, Sold, LastPile, CardTurned]
    assert events[2] == LastPile(last, 4)
    assert events[2].describe(NAMES) == f"Round 4 is played with the last pile, pile {last}."
    assert state.chosen == [*chosen, last] and state.round == 4 and state.phase == "auction"
    assert events[3].card == top
    assert awaiting(state) == [BOB] and events[3].opener == BOB  # the dealer opens round 4


# -- rubbers and the match -----------------------------------------------------------------------

def last_window(rubber=1, money=(50, 50), rubbers=(), **fields):
    """Round 4's last trade window: the spades, hearts and diamonds were sold; Ann holds six
    clubs (the most abundant suit: worth nothing) and Bob the other six."""
    return trade(round=4, rubber=rubber, money=list(money), sold=DECK[:36],
                 trinkets=[DECK[36:42], DECK[42:]], rubbers=[list(r) for r in rubbers], **fields)


def test_the_second_rubber_passes_the_deal_and_both_start_again_at_fifty():
    state = last_window(money=(230, 180), auctions=48, bank=-310)
    conserved = SPEC.conserved(state)
    act(state, ANN, "ready")
    events = act(state, BOB, "ready")
    assert [type(e) for e in events] == [ReadyToGo, Sold, RubberOver, NewRubber]
    assert events[2].describe(NAMES) == "Rubber 1 is over: Ann $230 and Bob $180."
    assert events[3].describe(NAMES) == "Rubber 2: Ann deals four new piles, and both players start again with $50."
    assert not events[3].reveals
    assert state.rubbers == [(230, 180)] and state.money == [50, 50] and state.rubber == 2
    assert state.dealer == ANN and state.non_dealer == BOB
    assert awaiting(state) == [BOB]  # the new non-dealer chooses first
    assert [len(pile) for pile in state.piles] == [12] * 4 and state.sold == [] and state.chosen == []
    assert SPEC.conserved(state) == conserved and SPEC.outcome(state) is None
    assert SPEC.view(state, None).number == 0 and SPEC.view(state, None).card is None
    assert state.counter == 2  # a fresh shuffle
    assert SPEC.view(state, ANN).rows[0][3] == "$230"
    assert SPEC.scores(state) == (280, 230)  # the match so far: rubber 1 banked, $50 each in play
    act(state, BOB, "choose pile 2")
    assert SPEC.turn(state) == 49  # the turn keeps growing through the second rubber


def test_the_match_goes_to_the_higher_total_over_both_rubbers():
    state = last_window(rubber=2, money=(100, 240), rubbers=[(230, 80)])
    conserved = SPEC.conserved(state)
    act(state, ANN, "ready")
    events = act(state, BOB, "ready")
    assert [type(e) for e in events] == [ReadyToGo, Sold, RubberOver, MatchOver]
    outcome = SPEC.outcome(state)
    assert outcome.scores == (330, 320) and outcome.ranks == (1, 2) and outcome.winners == (0,)
    assert outcome.breakdown == ({"rubber 1": 230, "rubber 2": 100, "total": 330},
                                 {"rubber 1": 80, "rubber 2": 240, "total": 320})
    assert outcome.summary == "Ann wins with $330 to $320 over the two rubbers."
    assert events[-1].describe(NAMES) == outcome.summary
    assert SPEC.conserved(state) == conserved  # the last rubber's money stays where it is
    assert awaiting(state) == [] and SPEC.legal(state, ANN) == [] and state.phase == "over"
    assert SPEC.view(state, BOB).status == "The match is over: " + outcome.summary
    assert SPEC.estimate(state) == (330.0, 320.0)  # the expert judges the end by its totals
    assert SPEC.scores(state) == outcome.scores  # the results' chart ends at the match totals
    refused(state, ANN, Ready(), "The game is over")


def test_equal_totals_share_the_match():
    state = last_window(rubber=2, money=(100, 150), rubbers=[(230, 180)])
    act(state, ANN, "ready")
    act(state, BOB, "ready")
    outcome = SPEC.outcome(state)
    assert outcome.ranks == (1, 1) and outcome.summary == "Ann and Bob share the win with $330 each over the two rubbers."


def test_turn_counts_the_auctions_of_the_match():
    state = position()
    assert SPEC.turn(state) == 1
    act(state, ANN, "choose pile 1")
    act(state, ANN, "pass")
    act(state, BOB, "pass")
    act(state, ANN, "ready")
    act(state, BOB, "ready")
    assert SPEC.turn(state) == 2


def test_a_whole_seeded_match_replays_and_ends():
    match = Match(SPEC, [Seat("Ann", "random"), Seat("Bob", "greedy")], seed=9)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat))
    assert len(match.state.rubbers) == 2 and len(match.state.sales) == 8
    assert SPEC.turn(match.state) == 96
    assert SPEC.outcome(match.state).scores == tuple(sum(r[s] for r in match.state.rubbers) for s in (0, 1))


# -- views ---------------------------------------------------------------------------------------

def test_the_view_shows_the_market_tally_and_the_auction_block():
    state = auction("9S", round=1, sold=[], trinkets=[["3S", "4S"], ["2H"]], money=[40, 45])
    act(state, ANN, "bid 2")
    view = SPEC.view(state, BOB)
    assert (view.phase, view.rubber, view.round, view.dealer, view.kind, view.auction_kind) == (
        "auction", 1, 1, BOB, "open", "open")
    assert view.values == (20, 4, 2) and view.counts == (3, 1, 0, 0)
    assert view.pays == (0, 2, 20, 4) and view.card == C("9S") and view.number == 4
    assert view.auction.to_speak == BOB and view.auction.minimum == 3 and view.auction.opener == ANN
    assert view.auction.high == 2 and view.auction.leader == ANN
    assert view.calls == ((ANN, 2),) and view.pile == 1 and view.pile_left == 8
    assert view.piles == (8, 12, 12, 12) and view.chosen == (1,) and view.available == (2, 3, 4)
    assert view.trinkets == ((C("3S"), C("4S")), (C("2H"),)) and view.money == (40, 45)
    assert view.held == ((2, 0, 0, 0), (0, 1, 0, 0))  # of each suit, as the trinkets
    assert view.sells == (0, 2) and view.awaiting == {BOB} and view.my_turn
    assert view.status == "Bob: bid on 9♠ (at least $3) or pass; Ann bids $2."
    fresh = auction("9S")
    assert SPEC.view(fresh, ANN).status == "Ann: bid on 9♠ or pass (no bid yet)."


def test_a_sample_keeps_what_a_seat_knows_and_deals_the_rest():
    state = sealed("7H", trinkets=[["5S"], []], money=[30, 40])
    act(state, BOB, "bid 17")
    for seat in (ANN, BOB, None):
        view = SPEC.view(state, seat)
        sampled = SPEC.sample(view, random.Random(4))
        assert SPEC.view(sampled, seat) == view
        assert SPEC.conserved(sampled) == SPEC.conserved(state)
    bids = {SPEC.sample(SPEC.view(state, ANN), random.Random(n)).sealed.bids[BOB] for n in range(30)}
    assert len(bids) > 1 and all(0 <= bid <= 40 for bid in bids)  # Bob's bid is a guess for Ann
    assert SPEC.sample(SPEC.view(state, BOB), random.Random(1)).sealed.bids == {BOB: 17}
    piles = {tuple(SPEC.sample(SPEC.view(state, ANN), random.Random(n)).piles[1]) for n in range(5)}
    assert len(piles) > 1  # the face-down piles are dealt afresh


def test_a_sampled_sealed_bid_is_within_the_bidders_money():
    state = sealed("7H", money=[30, 0])
    act(state, BOB, "bid 0")
    assert SPEC.sample(SPEC.view(state, ANN), random.Random(2)).sealed.bids == {BOB: 0}


def test_an_open_auction_survives_a_sample():
    state = auction("7H")
    act(state, ANN, "pass")
    act(state, BOB, "bid 4")
    sampled = SPEC.sample(SPEC.view(state, ANN), random.Random(0))
    assert sampled.auction == state.auction and sampled.calls == state.calls


# -- JSON ----------------------------------------------------------------------------------------

def test_a_position_survives_its_json():
    state = sealed("7H", trinkets=[["6S"], ["9D"]], rubbers=[[230, 180]], rubber=2,
                   sales=[{"rubber": 1, "round": 1, "pays": [4, 20, 0, 2], "amounts": [38, 44]}])
    act(state, ANN, "bid 3")
    data = json.loads(json.dumps(SPEC.to_json(state)))
    assert SPEC.from_json(data) == state
    assert data["sealed"] == {"bidders": [0, 1], "bids": {"0": 3}} and data["piles"][1][0] == "5S"
    window = holding()
    act(window, ANN, "offer: give 3S take $2")
    assert SPEC.from_json(json.loads(json.dumps(SPEC.to_json(window)))) == window


def test_hand_written_positions_get_sensible_defaults():
    state = position()
    assert state.phase == "choose" and state.first_dealer == 1 and state.money == [50, 50]
    assert (state.seed, state.counter, state.rubber, state.round, state.bank) == (0, 1, 1, 1, 0)
    assert position(first_dealer=0).dealer == ANN and position(counter=0).counter == 0
    assert position(calls=[[1, 1]]).calls == [(1, 1)]
    assert [len(p) for p in state.piles] == [12] * 4 and keys(state.piles[0][::-1]) == DECK[:12]
    state = auction("7C", round=4, sold=DECK[:36], chosen=[2, 3, 4, 1])
    assert [len(p) for p in state.piles] == [11, 0, 0, 0] and state.auction.order == (BOB, ANN)
    assert state.auctions == 37


@pytest.mark.parametrize("data, words", [
    ({"names": ["Ann"]}, "for 2 players"),
    ({"names": NAMES, "phase": "bidding"}, "phase must be one of"),
    ({"names": NAMES, "round": 5}, "round must be"),
    ({"names": NAMES, "rubber": 3}, "rubber must be"),
    ({"names": NAMES, "first_dealer": 2}, "first_dealer must be"),
    ({"names": NAMES, "counter": -1}, "counter must be"),
    ({"names": NAMES, "calls": [[2, 3]]}, "a call's seat must be"),
    ({"names": NAMES, "calls": [[0, 0]]}, "a bid must be a whole number from 1"),
    ({"names": NAMES, "sales": [{"rubber": 3, "round": 1, "pays": [0, 0, 0, 0], "amounts": [0, 0]}]},
     "a sale's rubber must be"),
    ({"names": NAMES, "phase": "trade", "offer": {"proposer": 2, "responder": 1}}, "proposer must be"),
    ({"names": NAMES, "round": 4, "phase": "choose"}, "nobody chooses the pile of round 4"),
    ({"names": NAMES, "phase": "trade", "card": "7H"}, "a card is up for auction in the auction"),
    ({"names": NAMES, "phase": "auction"}, "a card is up for auction"),
    ({"names": NAMES, "trinkets": [["AS"], []], "phase": "trade"}, "must hold the 48 cards"),
    ({"names": NAMES, "trinkets": [["2S"]], "phase": "trade"}, "trinkets must list both players"),
    ({"names": NAMES, "phase": "trade", "trinkets": [["2S", "2S"], []]}, "must hold the 48 cards"),
    ({"names": NAMES, "chosen": [1, 1], "round": 3}, "a pile is chosen only once"),
    ({"names": NAMES, "piles": [[], [], []]}, "there are 4 piles"),
    ({"names": NAMES, "phase": "trade", "sold": DECK[:20]}, "round 1 cannot have 20 cards up"),
    ({"names": NAMES, "money": [-1, 50]}, "cannot be negative"),
    ({"names": NAMES, "phase": "sealed", "card": "7H"}, "sealed bids are made only in round 2"),
    ({"names": NAMES, "phase": "auction", "card": "7H", "auction": {"order": [0, 2]}}, "names both players"),
    ({"names": NAMES, "phase": "sealed", "round": 2, "sold": DECK[:12], "card": "7H",
      "sealed": {"bidders": [0]}}, "both players, seats 0 and 1"),
    ({"names": NAMES, "phase": "trade", "auction": {"order": [0, 1]}}, "belongs to the auction phase"),
    ({"names": NAMES, "phase": "auction", "card": "7H", "auction": {"order": [0, 1], "passed": [0, 1]}},
     "that auction is over"),
    ({"names": NAMES, "phase": "sealed", "round": 2, "sold": DECK[:12], "card": "7H",
      "sealed": {"bidders": [0, 1], "bids": {"0": 1, "1": 2}}}, "both sealed bids are in"),
    ({"names": NAMES, "phase": "choose", "offer": {"proposer": 0, "responder": 1}}, "only in a trade window"),
    ({"names": NAMES, "phase": "trade", "offer": {"proposer": 1, "responder": 1}}, "from one player to the other"),
    ({"names": NAMES, "calls": [[0]]}, "a call is"),
    ({"names": NAMES, "sales": [{"rubber": 1, "round": 1, "pays": [1], "amounts": [0, 0]}]}, "four suits"),
    ({"names": NAMES, "rubber": 2, "rubbers": [[1, 2, 3]]}, "must list both players"),
    ({"names": NAMES, "rubber": 2}, "rubbers lists the money of each finished rubber"),
    ({"names": NAMES, "rubbers": [[50, 50]]}, "rubbers lists the money"),
    ({"names": NAMES, "phase": "over", "rubber": 2, "sold": DECK, "rubbers": [[50, 50]]}, "two when the match is over"),
    ({"names": NAMES, "phase": "trade", "ready": [True, True]}, "that trade window is closed"),
    ("not an object", "must be a JSON object"),
])
def test_a_bad_position_is_refused_in_words(data, words):
    with pytest.raises(RulesError, match=words):
        SPEC.from_json(data)


def test_views_hand_out_frozen_values():
    state = auction("7H")
    act(state, ANN, "bid 2")
    view = SPEC.view(state, BOB)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.auction.high = 9
    sale = position(phase="choose", round=2, sold=DECK[:12],
                    sales=[{"rubber": 1, "round": 1, "pays": [20, 4, 2, 0], "amounts": [0, 0]}]).sales[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sale.amounts = (1, 1)
    assert hash(view.auction) == hash(SPEC.view(state, ANN).auction)


def test_json_keeps_calls_sales_and_the_revealed_bids():
    over = position(phase="over", rubber=2, round=4, sold=DECK, rubbers=[[90, 120], [300, 200]])
    assert SPEC.outcome(over).scores == (390, 320) and awaiting(over) == []
    window = position(phase="trade", ready=[True, True], offer={"proposer": 0, "responder": 1, "take_money": 1})
    assert awaiting(window) == [BOB]
    state = position(phase="auction", round=2, sold=DECK[:12], card="7H", revealed=[8, 8],
                     calls=[[1, 3], [0, None]], auction={"order": [1, 0], "high": 3, "leader": 1,
                                                        "position": 1, "spoken": 2},
                     sales=[{"rubber": 1, "round": 1, "pays": [4, 20, 0, 2], "amounts": [38, 44]}])
    assert state.revealed == (8, 8) and state.calls == [(1, 3), (0, None)]
    assert state.sales[0].amounts == (38, 44) and awaiting(state) == [ANN]
    assert SPEC.from_json(SPEC.to_json(state)) == state


# -- notation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, command, canonical", [
    ("choose pile 3", ChoosePile(3), "choose pile 3"),
    ("Choose 2", ChoosePile(2), "choose pile 2"),
    ("pile 4", ChoosePile(4), "choose pile 4"),
    ("bid 12", Bid(12), "bid 12"),
    ("BID $7", Bid(7), "bid 7"),
    ("bid 123456789", Bid(123456789), "bid 123456789"),
    ("pass", Pass(), "pass"),
    ("offer: give 7H,$5 take 2S", Offer(None, Side((C("7H"),), money=5), Side((C("2S"),))),
     "offer: give 7H,$5 take 2S"),
    ("offer bob: take 2s, $3", Offer(None, Side(), Side((C("2S"),), money=3)), "offer: take 2S,$3"),
    ("offer 2: give nothing take $3", Offer(None, Side(), Side(money=3)), "offer: take $3"),
    ("accept", Accept(), "accept"),
    ("decline", Decline(), "decline"),
    ("ready", Ready(), "ready"),
    ("done", Ready(), "ready"),
])
def test_notation_reads_and_writes_commands(text, command, canonical):
    view = SPEC.view(position(), ANN)
    assert SPEC.notation.parse(text, view) == command
    assert SPEC.notation.format(command) == canonical
    assert SPEC.notation.parse(canonical, view) == command


def test_a_sealed_bid_is_written_like_an_open_one():
    view = SPEC.view(sealed(), BOB)
    assert SPEC.notation.format(SealedBid(9)) == "bid 9"
    assert SPEC.notation.parse("bid 9", view) == SealedBid(9)


@pytest.mark.parametrize("text, words", [
    ("", "Type a command"),
    ("   ", "Type a command"),
    ("bid", "write it as 'bid 12'"),
    ("bid 1 2", "write it as 'bid 12'"),
    ("bid ²", "not a whole number"),
    ("bid -3", "not a whole number"),
    ("bid 1234567890", "not a whole number"),
    ("choose pile x", "write it as 'choose pile 3'|not a whole number"),
    ("choose", "choose pile 3"),
    ("pass now", "'pass' takes nothing after it"),
    ("ready 2", "takes nothing after it"),
    ("buy 7H", "not an Abundance command"),
    ("offer Zed: take $1", "not a player"),
    ("offer take $1", "colon"),
    ("offer: give 7X", "not a suit"),
    ("offer: give $x", "not a sum of money"),
    ("offer: 7H", "after 'give' or 'take'"),
])
def test_notation_refuses_what_is_not_a_command(text, words):
    with pytest.raises(NotationError, match=words):
        SPEC.notation.parse(text, SPEC.view(position(), ANN))


def test_only_abundance_commands_are_formatted_or_checked():
    with pytest.raises(NotationError, match="not an Abundance command"):
        SPEC.notation.format(object())
    with pytest.raises(NotationError, match="a command is text"):
        SPEC.notation.parse(None, SPEC.view(position(), ANN))
    refused(holding(), ANN, object(), "is not an Abundance command")


def test_events_describe_themselves():
    assert PileChosen(ANN, 3, 1).describe(NAMES) == "Ann chooses pile 3 for round 1."
    assert CardTurned(C("7H"), 3, 1, "open", BOB).describe(NAMES) == (
        "7♥ is turned up: auction 3 of 12 in round 1 (open); Bob bids first.")
    assert CardTurned(C("7H"), 1, 2, "sealed", None).describe(NAMES) == (
        "7♥ is turned up: auction 1 of 12 in round 2; both players bid in secret.")
    assert BidMade(BOB, 7).describe(NAMES) == "Bob bids $7." and Passed(ANN).describe(NAMES) == "Ann passes."
    assert ReadyToGo(BOB).describe(NAMES) == "Bob is ready."
    assert MatchOver("Ann wins.").describe(NAMES) == "Ann wins."
    assert not any(cls.reveals for cls in (PileChosen, BidMade, Passed, SealedBidIn, Won, Sold, NewRubber))


def test_the_experts_estimate_is_the_match_money_with_trinkets_at_the_sale_once_the_pile_is_out():
    # the rule text's tally (3 spades, 2 hearts, 4 diamonds, 3 clubs): spades pay 4, hearts 20;
    # the round's twelve cards are up, so the sale is known
    state = position(rubber=2, round=1, phase="trade", money=[60, 40], rubbers=[[230, 180]],
                     trinkets=[["3S", "4S", "5S"], ["2H", "3H"]],
                     sold=["3C", "4C", "5C", "4D", "5D", "6D", "7D"])
    assert state.pile_left == 0
    assert SPEC.estimate(state) == (230 + 60 + 36.0, 180 + 40 + 2 * 20.0)


def test_the_experts_estimate_values_trinkets_at_the_sale_expected_with_the_pile_still_to_come():
    # nine cards up (3 spades, 2 of each other suit), three still face down: each suit at what it
    # should pay then, from the public tally alone (as the bot values them), corners tripled
    state = position(rubber=2, round=1, phase="trade", money=[60, 40], rubbers=[[230, 180]],
                     trinkets=[["3S", "4S", "5S"], ["2H", "3H"]], sold=["3C", "4C", "4D", "5D"])
    assert state.pile_left == 3
    spades, hearts, _, _ = expected_pays((3, 2, 2, 2), 1, 3)
    assert 0 < spades < hearts
    assert SPEC.estimate(state) == pytest.approx((230 + 60 + 3 * 3 * spades, 180 + 40 + 2 * hearts))


def test_early_in_a_round_a_trinket_of_the_commonest_suit_is_worth_more_than_a_dollar_to_the_estimate():
    """The first card of a round is the commonest suit so far (it pays nothing at today's
    tally), but eleven cards are still to come: selling it to the other player for $1 must not
    look like a gain (at the tally so far it did, and the analysis called keeping it a mistake)."""
    state = position(round=1, phase="trade", trinkets=[["5D"], []])
    assert state.pile_left == 11 and pays((0, 0, 1, 0), 1)[2] == 0
    before = SPEC.estimate(state)
    state.trinkets = [[], [parse_card("5D")]]
    state.money = [51, 49]
    after = SPEC.estimate(state)
    assert after[0] - after[1] < before[0] - before[1]


def test_the_last_unseen_card_of_any_suit_is_known_to_come_and_counts_in_its_suit():
    # one card of the round still face down and one card unseen: it is that card, whatever its
    # suit, so every suit ends on 12 and the tie goes to suit order (♠ rarest, ♣ most abundant)
    for suit in range(4):
        counts = tuple(11 if i == suit else 12 for i in range(4))
        assert expected_pays(counts, 2, 1) == (40, 8, 4, 0)


def test_a_corner_of_any_suit_triples_its_expected_sale_from_three_trinkets():
    from rules.abundance.market import expected_sale

    expected = (20.0, 4.0, 2.0, 1.0)
    for suit in range(4):
        for held, times in ((1, 1), (2, 2), (3, 9), (4, 12)):  # a corner pays triple
            counts = tuple(held if i == suit else 0 for i in range(4))
            assert expected_sale(counts, expected) == times * expected[suit], (suit, held)
    assert expected_sale((3, 2, 3, 1), expected) == 9 * 20 + 2 * 4 + 9 * 2 + 1


def test_the_expert_thinks_half_the_other_games_time_a_move():
    from rules.core.search import Settings, settings_for

    # see the comment on AbundanceGame.expert: the figures in the README were measured at 0.2 s
    assert settings_for(SPEC).seconds == 0.2 < Settings().seconds


def test_the_view_reads_the_market_as_its_tally_and_sales_say():
    """The view counts each hand once for its tally, sales and corners: over the positions of
    seeded games its market is the one counts(), sale_value() and the corners' definition give."""
    from game_helpers import seeded_positions
    from rules.abundance.rules import counts
    from rules.core import SUITS

    for state, seat, view, _legal in seeded_positions(SPEC, range(6), 400, lambda seed: 2,
                                                      bot=SPEC.bots["bot"]):
        tally = counts(state)
        assert view.counts == tally and view.rarity == rarity(tally) and view.pays == pays(tally, state.round)
        assert view.sells == tuple(sale_value(state.trinkets[s], tally, state.round) for s in (0, 1))
        held = [suit_counts(state.trinkets[s]) for s in (0, 1)]
        assert view.corners == tuple(tuple(suit for i, suit in enumerate(SUITS) if is_corner(held[s][i])) for s in (0, 1))
        assert SPEC.view(state, seat, plain=True).counts == tally


def test_the_markets_caches_are_bounded():
    """The market's caches (asked at every view and every bot decision) keep a bounded number
    of tallies and hands, so that they cannot grow with the games played."""
    from rules.abundance import market, rules as abundance_rules

    for cached in (market._pays, market._rarity, market.expected_pays, abundance_rules._corners):
        assert cached.cache_info().maxsize is not None and cached.cache_info().maxsize <= 65536


@pytest.mark.parametrize("cls, args, kwargs", [
    (BidMade, (0, 5), {}), (Passed, (1,), {}), (SealedBidIn, (0, 7), {}), (ReadyToGo, (1,), {}),
    (Won, (1, C("7H"), 3), {}), (Won, (0,), {"card": C("2S"), "price": 0, "free": True}),
    (CardTurned, (C("KD"), 4, 2), {"kind": "open", "opener": None}), (Bid, (12,), {}), (SealedBid, (), {"amount": 0}),
])
def test_the_events_and_commands_made_at_every_command_are_made_as_their_dataclasses_would(cls, args, kwargs):
    """Those made at almost every command of the expert's playouts have ``quick_init``: the same
    instance, field for field and with its defaults, as the frozen dataclass's own ``__init__``."""
    plain = dataclasses.dataclass(frozen=True)(type("Plain", (cls,), {}))
    assert "update" in cls.__init__.__code__.co_names  # quick_init's
    quick = cls(*args, **kwargs)
    assert vars(quick) == vars(plain(*args, **kwargs)) and quick == cls(*args, **kwargs)
    with pytest.raises(TypeError):
        cls(*args, no_such_field=1, **kwargs)
