"""Portfolio's rules, one test (or more) per rule, with the rule text's own examples.

Positions are written as JSON (``SPEC.from_json``) with the ``table`` helper; commands are
written in the game's notation and go through ``check`` and ``apply`` like a player's."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from rules.core import Card, IllegalCommand, NotationError, Outcome, RulesError, parse_card
from rules.core.bots import RandomBot
from rules.portfolio import SPEC
from rules.core.offers import Side
from rules.portfolio.commands import (
    Accept, Acquire, Cap, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer, Pauper,
)
from rules.portfolio.events import StockFinished, StockReshuffled, TurnStarted
from rules.portfolio.rules import card_uses, draw_cost, income, max_draw, portfolio_value
from rules.portfolio.state import Portfolio, PortfolioInfo

from game_helpers import seat_helpers

_seat = seat_helpers(SPEC)
to_move, check, legal, parse, apply = _seat.to_move, _seat.check, _seat.legal, _seat.parse, _seat.apply

NAMES = ("Ann", "Bob", "Cat")
STOCK = "2H.1 3H.1 4H.1 5H.1 6H.1 7H.1 8H.1 9H.1 10H.1 JH.1 QH.1 KH.1"


def pf(pid, owner, cards, low=None, high=None):
    return {"pid": pid, "owner": owner, "cards": cards.split(), "low_cap": low, "high_cap": high}


def table(hands, *, names=NAMES, money=None, portfolios=(), stock=STOCK, discard="KC", phase="act",
          current=0, **extra):
    """A hand-written position: hands as text, portfolios from ``pf``."""
    data = {"names": list(names), "hands": [h.split() for h in hands],
            "money": list(money or [6] * len(names)), "stock": stock.split(),
            "discard": discard.split(), "portfolios": list(portfolios), "phase": phase,
            "current": current, **extra}
    return SPEC.from_json(data)


def play(state, text):
    """Parse ``text`` for the awaited player, check and apply it; return the events."""
    return apply(state, parse(text, state))


def refused(state, text, words):
    """``text`` is refused with a message containing ``words`` and changes nothing."""
    before = SPEC.to_json(state)
    with pytest.raises(IllegalCommand, match=words):
        play(state, text)
    assert SPEC.to_json(state) == before


def keys(cards):
    return [card.key for card in cards]


def owner_of(state, pid):
    found = state.find(pid)
    return None if found is None else found.owner


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players, decks", [(2, 2), (3, 2), (4, 3), (5, 3)])
def test_setup_deals_thirteen_each_from_the_right_number_of_decks(players, decks):
    state = SPEC.setup([f"N{i}" for i in range(players)], None, seed=11)
    every = SPEC.conserved(state)["cards"]
    assert len(every) == 52 * decks and len(set(every)) == len(every)  # each physical card unique
    assert [len(h) for h in state.hands] == [13] * players
    assert len(state.discard) == 1 and len(state.stock) == 52 * decks - 13 * players - 1
    assert state.money == [6] * players
    assert state.current == 0 and to_move(state) == 0 and state.phase == "draw"
    assert state.dealer == players - 1 and SPEC.view(state, 0).dealer == players - 1
    assert SPEC.turn(state) == 1


def test_setup_is_seeded_and_refuses_bad_player_counts():
    a = SPEC.setup(["A", "B", "C"], None, seed=5)
    b = SPEC.setup(["A", "B", "C"], None, seed=5)
    c = SPEC.setup(["A", "B", "C"], None, seed=6)
    assert SPEC.to_json(a) == SPEC.to_json(b) != SPEC.to_json(c)
    with pytest.raises(RulesError):
        SPEC.setup(["A"], None, seed=1)
    with pytest.raises(RulesError):
        SPEC.setup(list("ABCDEF"), None, seed=1)


# -- values and income -------------------------------------------------------------------------
def test_portfolio_value_drops_the_two_lowest_cards():
    assert portfolio_value([parse_card(c) for c in "4S 5S 6S 7S".split()]) == 5
    assert portfolio_value([parse_card(c) for c in "3H 4H 5H 6H 7H".split()]) == 7
    assert portfolio_value([parse_card(c) for c in "JC QC KC".split()]) == 4
    every = [Card(rank, parse_card("AS").suit) for rank in range(1, 14)]
    assert portfolio_value(every) == 2 * 4 + 3 * 4 + 4 * 3  # 3–6, 7–10, J–K


def test_draw_cost_table():
    assert [draw_cost(n) for n in range(1, 9)] == [0, 2, 5, 9, 14, 20, 27, 35]
    assert [max_draw(income) for income in (0, 1, 2, 4, 5, 10)] == [1, 1, 2, 2, 3, 4]


def test_income_is_collected_at_the_start_of_the_turn():
    # Cat ends her turn; Ann owns two portfolios worth $5 each (caps count nothing)
    state = table(["AS", "2C", "9D"], current=2, portfolios=[
        pf("P1", 0, "4S 5S 6S 7S", high="7C"), pf("P2", 0, "4H 5H 6H 7H"), pf("P3", 1, "8D 9D 10D")])
    assert income(state, 0) == 10 and income(state, 1) == 3
    events = play(state, "discard 9D")
    assert TurnStarted(0, 10) in events
    assert state.current == 0 and state.phase == "draw" and state.turn_income == 10
    assert state.money == [16, 6, 6] and SPEC.turn(state) == 2


@pytest.mark.parametrize("count, kept", [(1, 10), (2, 8), (3, 5), (4, 1)])
def test_income_of_ten_buys_up_to_four_cards(count, kept):
    state = table(["AS", "2C", "9D"], current=2,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 0, "4H 5H 6H 7H")])
    play(state, "discard 9D")
    play(state, f"draw {count}")
    assert state.money[0] - 6 == kept
    assert len(state.hands[0]) == 1 + count and state.phase == "act"


def test_draws_are_paid_from_this_turns_income_only():
    state = table(["AS", "2C", "3D"], money=[100, 6, 6], phase="draw", turn_income=10)
    refused(state, "draw 5", r"costs \$14.*income is \$10")
    state = table(["AS", "2C", "3D"], money=[100, 6, 6], phase="draw", turn_income=2)
    refused(state, "draw 3", r"savings cannot pay")
    assert Draw(3) not in legal(state) and Draw(2) in legal(state)
    refused(state, "draw 0", "at least one")


# -- pauper's rule ---------------------------------------------------------------------------
def test_pauper_rule_applies_without_portfolios_and_under_thirteen_cards():
    twelve = " ".join(f"{r}S" for r in "A 2 3 4 5 6 7 8 9 10 J Q".split())
    state = table([twelve, "2C", "9D"], current=2)
    play(state, "discard 9D")
    assert state.pauper and legal(state) == [Pauper(), Pauper(True)] and SPEC.view(state, 0).pauper
    refused(state, "draw 1", "draws exactly two cards")
    play(state, "pauper")
    assert len(state.hands[0]) == 14 and state.money[0] == 6


def test_pauper_takes_two_cards_for_nothing_and_may_start_with_the_discard():
    state = table(["AS 2S", "2C", "3D"], phase="draw", pauper=True, discard="KC QD")
    play(state, "pauper +discard")
    assert keys(state.hands[0]) == ["AS", "2S", "QD", "KH.1"] and state.money[0] == 6
    assert keys(state.discard) == ["KC"]


def test_no_pauper_with_thirteen_cards_or_a_portfolio():
    thirteen = " ".join(f"{r}S" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    state = table([thirteen, "2C", "9D"], current=2)
    play(state, "discard 9D")
    assert not state.pauper
    refused(state, "pauper", "Pauper's rule is only for")
    state = table(["AS", "2C", "9D"], current=2, portfolios=[pf("P1", 0, "AC 2C 3C")])
    play(state, "discard 9D")
    assert not state.pauper and not any(isinstance(c, Pauper) for c in legal(state))


# -- the discard pile ------------------------------------------------------------------------
def test_top_discard_is_the_first_draw_and_counts_as_one():
    state = table(["AS", "2C", "3D"], money=[11, 6, 6], phase="draw", turn_income=5,
                  discard="9C 7S", stock="4D 5D 6D")
    play(state, "draw 3 +discard")
    assert keys(state.hands[0]) == ["AS", "7S", "6D", "5D"]  # the discard first, then the stock
    assert keys(state.discard) == ["9C"] and keys(state.stock) == ["4D"]  # one discard only
    assert state.money[0] == 6 and state.taken_discard == parse_card("7S")


@pytest.mark.parametrize("hand, rival, command", [
    ("2C 9D", "3C 4C 5C 6C", "neutralise P1 2C"),  # swept to the discard pile with the portfolio
    ("AS 9D", "JC QC KC", "acquire P1 AS"),  # an Ace acquiring a King is discarded
])
def test_the_card_taken_from_the_discard_pile_may_go_back_to_it_by_a_play(hand, rival, command):
    """Only a discard at the turn's end is barred for the taken card: played on a rival's
    portfolio it goes to the discard pile at once, a position the invariants allow (they once
    called it unreachable); back in the stock it would not be."""
    state = SPEC.from_json({**SPEC.to_json(SPEC.setup(list(NAMES), None, seed=4)), "phase": "act",
                            "current": 0})
    taken = parse_card(hand.split()[0])
    rival_cards = [parse_card(key) for key in rival.split()]
    for card in [taken, parse_card("9D"), *rival_cards]:  # the hands, the rival's portfolio
        for pile in (*state.hands, state.stock, state.discard):
            if card in pile:
                pile.remove(card)
    state.stock += state.hands[0]
    state.hands[0] = [taken, parse_card("9D")]
    state.portfolios.append(Portfolio("P1", 1, rival_cards))
    state.next_pid, state.taken_discard, state.money[0] = 2, taken, 30
    state.bank -= 24
    assert SPEC.invariants(state) == []
    play(state, command)
    assert taken in state.discard and SPEC.invariants(state) == []
    state.discard.remove(taken)
    state.stock.append(taken)
    assert SPEC.invariants(state) == [f"{taken.key}, taken from the discard pile this turn, is in the stock"]


def test_the_discard_cannot_be_taken_from_an_empty_pile_nor_after_drawing():
    state = table(["AS", "2C", "3D"], phase="draw", discard="")
    refused(state, "draw 1 +discard", "discard pile is empty")
    assert all(not c.discard for c in legal(state))
    state = table(["AS", "2C", "3D"], phase="act")
    refused(state, "draw 1 +discard", "already drawn")


def test_the_card_taken_from_the_discard_pile_stays_unless_it_is_the_last():
    state = table(["AS 2C", "2C", "3D"], phase="draw", discard="9C 7S")
    play(state, "draw 1 +discard")
    refused(state, "discard 7S", "only as your last card")
    assert Discard(parse_card("7S")) not in legal(state)
    state.hands[0] = [parse_card("7S")]
    assert legal(state)[-1] == Discard(parse_card("7S"))
    play(state, "discard 7S")
    assert state.current == 1


def test_discarding_a_face_picks_a_copy_that_was_not_taken():
    state = table(["7S.1 AS", "2C", "3D"], phase="draw", discard="9C 7S")
    play(state, "draw 1 +discard")
    assert parse("discard 7S", state) == Discard(parse_card("7S.1"))
    play(state, "discard 7S")
    assert keys(state.discard) == ["9C", "7S.1"]


def test_end_only_with_an_empty_hand():
    state = table(["4S 5S 6S", "2C", "3D"])
    refused(state, "end", "still hold cards")
    play(state, "make 4S 5S 6S")
    assert legal(state)[-1] == End() and not any(isinstance(c, Discard) for c in legal(state))
    play(state, "end")
    assert state.current == 1 and keys(state.discard) == ["KC"]


# -- making portfolios ---------------------------------------------------------------------------
def test_make_lays_a_run_and_numbers_portfolios_in_order():
    state = table(["4S 5S 6S 7S 9H 10H JH 3C", "2C", "3D"])
    play(state, "make 7S 5S 4S 6S")
    play(state, "make 9H 10H JH")
    assert [(p.pid, keys(p.cards)) for p in state.portfolios] == [
        ("P1", ["4S", "5S", "6S", "7S"]), ("P2", ["9H", "10H", "JH"])]
    assert keys(state.hands[0]) == ["3C"] and income(state, 0) == 5 + 4


def test_a_make_in_any_order_is_the_make_legal_lists():
    state = table(["4S 5S 6S 7S", "2C", "3D"])
    shuffled = Make(tuple(parse_card(key) for key in ("7S", "5S", "4S", "6S")))
    SPEC.check(state, 0, shuffled)
    assert shuffled in legal(state) and SPEC.notation.format(shuffled) == "make 4S 5S 6S 7S"


def test_make_needs_three_in_sequence_of_one_suit_without_wrapping():
    state = table(["4S 5S 7S QH KH AH 2H 5D 6D 6H", "2C", "3D"])
    refused(state, "make 4S 5S", "at least three")
    refused(state, "make 4S 5S 7S", "not a sequence")
    refused(state, "make QH KH AH", "not a sequence")
    refused(state, "make KH AH 2H", "not a sequence")
    refused(state, "make 5D 6D 7D", "no 7♦")
    refused(state, "make 5D 6D 6H", "same suit")


def test_legal_offers_every_run_and_sub_run_in_hand():
    state = table(["3C 4C 5C 6C 9D 10D", "2C", "3D"])
    makes = [c for c in legal(state) if isinstance(c, Make)]
    assert [SPEC.notation.format(c) for c in makes] == [
        "make 3C 4C 5C", "make 3C 4C 5C 6C", "make 4C 5C 6C"]


def test_portfolio_ids_are_never_reused():
    state = table(["4S 5S 6S 7H 8C 9C 10C", "8H 9H 10H 3S", "3D"], money=[10, 6, 6])
    play(state, "make 4S 5S 6S")
    state.current = 1
    play(state, "make 8H 9H 10H")
    play(state, "neutralise P1 3S")
    state.current = 0
    play(state, "neutralise P2 7H")
    assert state.portfolios == []
    play(state, "make 8C 9C 10C")
    assert [p.pid for p in state.portfolios] == ["P3"]


# -- extending -----------------------------------------------------------------------------------
def test_extend_either_end_one_card_at_a_time():
    state = table(["9C 8C QC 7C", "2C", "3D"], portfolios=[pf("P1", 0, "9C 10C JC")])
    refused(state, "extend P1 9C", "does not fit")
    play(state, "extend P1 8C")
    play(state, "extend P1 QC")
    play(state, "extend P1 7C")
    assert keys(state.find("P1").cards) == ["7C", "8C", "9C", "10C", "JC", "QC"]


def test_a_card_fitting_two_portfolios_goes_to_the_one_named_and_never_joins_them():
    state = table(["10S 2D", "2C", "3D"], portfolios=[pf("P1", 0, "6S 7S 8S 9S"), pf("P2", 0, "JS QS KS")])
    options = legal(state)
    assert Extend("P1", parse_card("10S")) in options and Extend("P2", parse_card("10S")) in options
    play(state, "extend P2 10S")
    assert keys(state.find("P1").cards) == ["6S", "7S", "8S", "9S"]
    assert keys(state.find("P2").cards) == ["10S", "JS", "QS", "KS"]
    assert len(state.portfolios) == 2


def test_only_your_own_portfolios_are_extended_and_capped():
    state = table(["7S 6D", "2C", "3D"], portfolios=[pf("P1", 1, "4S 5S 6S")])
    refused(state, "extend P1 7S", "belongs to Bob")
    refused(state, "cap P1 high 6D", "belongs to Bob")
    refused(state, "extend P9 7S", "no portfolio P9")


# -- caps --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["cap P1 low 6D", "cap P1 low 6H.1", "cap P1 high 10D", "cap P1 high 10H.1"])
def test_caps_take_the_end_cards_rank_and_colour(text):
    state = table(["6D 6H.1 10D 10H.1 6S 10C", "2C", "3D"], portfolios=[pf("P1", 0, "6H 7H 8H 9H 10H")])
    play(state, text)
    portfolio = state.find("P1")
    end = text.split()[2]
    assert (portfolio.low_cap if end == "low" else portfolio.high_cap) == parse_card(text.split()[3])
    assert portfolio_value(portfolio.cards) == 9  # the cap adds nothing


def test_caps_of_the_other_colour_or_rank_are_refused():
    state = table(["6S 10C 7D", "2C", "3D"], portfolios=[pf("P1", 0, "6H 7H 8H 9H 10H")])
    refused(state, "cap P1 low 6S", "rank and colour")
    refused(state, "cap P1 high 10C", "rank and colour")
    refused(state, "cap P1 low 7D", "rank and colour")


def test_a_capped_end_cannot_be_extended_but_the_other_can():
    state = table(["6D 5H JH 10D 10H.1", "2C", "3D"], portfolios=[pf("P1", 0, "6H 7H 8H 9H 10H")])
    play(state, "cap P1 low 6D")
    refused(state, "extend P1 5H", "low end of P1 is capped")
    refused(state, "cap P1 low 6D", "already capped")
    play(state, "extend P1 JH")
    refused(state, "cap P1 high 10D", "rank and colour of the end card J♥")


def test_an_ace_low_end_needs_no_cap():
    state = table(["AD", "2C", "3D"], portfolios=[pf("P1", 0, "AH 2H 3H")])
    refused(state, "cap P1 low AD", "An Ace low end cannot be neutralised; it needs no cap.")
    assert not any(isinstance(c, Cap) for c in legal(state))


def test_caps_protect_against_neutralising_and_acquiring():
    state = table(["5H JH", "2C", "3D"], money=[50, 6, 6],
                  portfolios=[pf("P1", 1, "6H 7H 8H 9H 10H", low="6D", high="10D")])
    refused(state, "neutralise P1 5H", "low end of P1 is capped")
    refused(state, "acquire P1 JH", "high end of P1 is capped")
    info = SPEC.view(state, 0).portfolios[0]
    assert info.neutralise_cost is None and info.acquire_cost is None
    assert info.neutralise_card is None and info.acquire_card is None


# -- neutralising and acquiring ------------------------------------------------------------------
def test_neutralise_3_to_6_of_clubs_with_the_two_for_four_dollars():
    state = table(["2C AS", "9D", "3D"], money=[4, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    info = SPEC.view(state, 0).portfolios[0]
    assert (info.value, info.neutralise_cost, info.neutralise_card) == (4, 4, "2C")
    before = SPEC.conserved(state)
    play(state, "neutralise P1 2C")
    assert state.portfolios == [] and state.money == [0, 6, 6]
    assert keys(state.discard) == ["KC", "2C", "3C", "4C", "5C", "6C"]
    assert SPEC.conserved(state) == before


def test_neutralising_needs_the_money_and_an_opponents_portfolio():
    state = table(["2C 2D", "9D", "3D"], money=[3, 6, 6],
                  portfolios=[pf("P1", 1, "3C 4C 5C 6C"), pf("P2", 0, "3D 4D 5D")])
    refused(state, "neutralise P1 2C", r"You need \$4 to neutralise P1; you have \$3.")
    refused(state, "neutralise P2 2D", "your own portfolio")
    refused(state, "neutralise P1 2D", "Only 2♣ neutralises")
    assert not any(isinstance(c, Neutralise) for c in legal(state))


def test_an_ace_low_portfolio_cannot_be_neutralised():
    state = table(["KS", "9D", "3D"], money=[50, 6, 6], portfolios=[pf("P1", 1, "AS 2S 3S")])
    refused(state, "neutralise P1 KS", "starts with an Ace")


def test_acquire_3_to_6_of_clubs_with_the_seven_for_eight_dollars():
    state = table(["7C AS", "9D", "3D"], money=[8, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    info = SPEC.view(state, 0).portfolios[0]
    assert (info.acquire_cost, info.acquire_card) == (8, "7C")
    refused(state, "acquire P1 AS", "Only 7♣ acquires")
    play(state, "acquire P1 7C")
    portfolio = state.find("P1")
    assert portfolio.owner == 0 and keys(portfolio.cards) == ["3C", "4C", "5C", "6C", "7C"]
    assert portfolio_value(portfolio.cards) == 7 and state.money == [0, 6, 6]
    assert income(state, 0) == 7 and income(state, 1) == 0


def test_acquiring_needs_twice_the_value():
    state = table(["7C", "9D", "3D"], money=[7, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    refused(state, "acquire P1 7C", r"You need \$8 to acquire P1; you have \$7.")
    assert not any(isinstance(c, Acquire) for c in legal(state))


@pytest.mark.parametrize("ace", ["AD", "AH"])
def test_an_uncapped_king_is_acquired_with_an_ace_of_its_colour_which_is_discarded(ace):
    state = table([f"{ace} AS AC", "9D", "3D"], money=[9, 6, 6], portfolios=[pf("P1", 1, "JH QH KH")])
    info = SPEC.view(state, 0).portfolios[0]
    assert (info.acquire_card, info.acquire_cost) == ("AH/AD", 8)
    refused(state, "acquire P1 AS", "Only A♥ or A♦ acquires")
    play(state, f"acquire P1 {ace}")
    assert owner_of(state, "P1") == 0 and keys(state.find("P1").cards) == ["JH", "QH", "KH"]
    assert state.discard[-1] == parse_card(ace) and state.money[0] == 1


def test_a_capped_king_cannot_be_taken_by_an_ace():
    state = table(["AD", "9D", "3D"], money=[50, 6, 6], portfolios=[pf("P1", 1, "JH QH KH", high="KD")])
    refused(state, "acquire P1 AD", "high end of P1 is capped")


def test_money_never_goes_below_zero():
    state = table(["7C 2C", "9D", "3D"], money=[0, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    assert not any(isinstance(c, (Acquire, Neutralise)) for c in legal(state))
    refused(state, "acquire P1 7C", "you have \\$0")
    refused(state, "offer Bob: give $1 take 9D", "only \\$0")


# -- the end of the stock ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 5])
def test_first_stock_end_reshuffles_the_discard_pile_in_3_and_5_player_games(players):
    names = NAMES + ("Dan", "Eve")[: players - 3]
    state = table(["AS"] + ["2C"] * (players - 1), names=names, money=[15] + [6] * (players - 1),
                  phase="draw", turn_income=9, stock="2D 3D", discard="4C 5C 6C 7C 8C")
    events = play(state, "draw 4")
    assert StockReshuffled(5) in events
    assert keys(state.hands[0])[:3] == ["AS", "3D", "2D"] and len(state.hands[0]) == 5
    assert len(state.stock) == 3 and state.discard == [] and state.reshuffled and not state.last_round
    assert state.money[0] == 6  # four cards paid in full
    assert sorted(keys(state.hands[0][3:] + state.stock)) == sorted("4C 5C 6C 7C 8C".split())


def test_the_second_stock_end_finishes_the_stock_and_charges_only_cards_drawn():
    state = table(["AS", "2C", "3D"], money=[8, 6, 6], phase="draw", turn_income=2,
                  stock="2D", discard="4C 5C", reshuffled=True)
    events = play(state, "draw 2")
    assert StockFinished(0, 2) in events and state.last_round
    assert keys(state.hands[0]) == ["AS", "2D"] and state.money[0] == 8
    assert keys(state.discard) == ["4C", "5C"]


@pytest.mark.parametrize("players", [2, 4])
def test_no_reshuffle_in_2_and_4_player_games(players):
    names = ("Ann", "Bob", "Cat", "Dan")[:players]
    state = table(["AS"] + ["2C"] * (players - 1), names=names, money=[11] + [6] * (players - 1),
                  phase="draw", turn_income=5, stock="2D", discard="4C 5C")
    play(state, "draw 3 +discard")
    assert keys(state.hands[0]) == ["AS", "5C", "2D"] and state.stock == []
    assert state.last_round and not state.reshuffled and keys(state.discard) == ["4C"]
    assert state.money[0] == 11 - draw_cost(2)  # two cards came, two are paid for
    assert Draw(1) not in legal(state)


def test_an_empty_stock_in_a_written_position_finishes_at_the_first_draw():
    state = table(["AS", "2C"], names=("Ann", "Bob"), phase="draw", stock="")
    play(state, "draw 1")
    assert state.last_round and keys(state.hands[0]) == ["AS"]


def test_after_the_last_card_the_players_up_to_the_dealer_play_without_drawing():
    state = table(["AS 9S", "2C 3C", "3D 4D"], money=[6, 6, 6], phase="draw", stock="2D",
                  discard="4C", reshuffled=True, portfolios=[pf("P1", 1, "4H 5H 6H")])
    play(state, "draw 1")
    assert state.last_round
    play(state, "discard AS")
    assert state.current == 1 and state.phase == "act" and state.money[1] == 8  # income, no draw
    assert not any(isinstance(c, (Draw, Pauper)) for c in legal(state))
    refused(state, "draw 1", "stock is finished")
    assert "last round" in SPEC.view(state, 1).status
    play(state, "discard 2C")
    assert state.current == 2 and state.phase == "act"
    play(state, "discard 3D")  # the dealer's last turn ends the game
    assert state.phase == "over" and to_move(state) is None and legal(state) == []
    assert SPEC.view(state, 0).status == "The game is over."
    assert state.money == [6, 10, 6]  # Bob: $2 at his last turn, $2 final income
    with pytest.raises(IllegalCommand, match="over"):
        check(state, Discard(parse_card("9S")))


def test_the_game_ends_after_the_dealers_turn_when_the_dealer_drew_the_last_card():
    state = table(["AS 9S", "2C 3C", "3D 4D"], phase="draw", stock="2D", discard="4C", current=2,
                  reshuffled=True)
    play(state, "draw 1")
    play(state, "discard 3D")
    assert state.phase == "over" and SPEC.outcome(state) is not None


def test_the_estimate_counts_each_portfolios_income_over_its_owners_collections_to_come():
    """The expert's estimate before the last round: money plus each portfolio's income times
    its owner's collections to come, the turns the stock (and at three or five players the
    discard pile still to be shuffled in) lasts at 1.5 cards a turn."""
    runs = [pf("P1", 0, "5S 6S 7S 8S"), pf("P2", 1, "9H 10H JH QH")]  # worth $6 and $8
    # three players, 12 + 1 cards: 8⅔ turns; seats 0, 1, 2 collect 3, 4 and 4 more times
    state = table(["AS", "2C", "9C"], portfolios=[*runs, pf("P3", 2, "2D 3D 4D 5D")])  # (P3: $4)
    assert SPEC.estimate(state) == (6 + 6 * 3, 6 + 8 * 4, 6 + 4 * 4)
    # two players, 10 cards (nothing to shuffle in): 6⅔ turns; both collect 4 more times
    state = table(["AS", "2C"], names=("Ann", "Bob"), portfolios=runs,
                  stock="2H.1 3H.1 4H.1 5H.1 6H.1 7H.1 8H.1 9H.1 10H.1 JH.1")
    assert SPEC.estimate(state) == (6 + 6 * 4, 6 + 8 * 4)


def test_final_income_and_the_score_breakdown():
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[20, 9], current=1, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "JD QD KD", low="JH")])
    # the expert's estimate: money plus each portfolio's income once more (the final income)
    assert SPEC.estimate(state) == (25.0, 13.0)
    play(state, "discard 2C")
    outcome = SPEC.outcome(state)
    assert SPEC.estimate(state) == (25.0, 13.0)  # a finished game: its money, nothing to come
    assert outcome.scores == (25, 13) and outcome.ranks == (1, 2) and outcome.winners == (0,)
    assert outcome.breakdown[0] == {"money before final income": 20, "final income": 5,
                                    "money": 25, "portfolio value": 5}
    assert outcome.summary == "Ann wins with $25." and state.sheet[0][-1] == 25


def test_a_money_tie_goes_to_the_greater_portfolio_value():
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[10, 12], current=1, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "3D 4D 5D 6D")])
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[10, 11], current=1, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "3D 4D 5D 6D")])
    play(state, "discard 2C")
    outcome = SPEC.outcome(state)
    assert state.money == [15, 15] and outcome.ranks == (1, 2)
    assert "greater portfolio value" in outcome.summary


def test_a_tie_on_money_and_value_is_a_shared_win():
    state = table(["AS", "2C", "3D"], money=[10, 10, 3], current=2, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "4D 5D 6D 7D")])
    play(state, "discard 3D")
    outcome = SPEC.outcome(state)
    assert outcome.ranks == (1, 1, 3) and outcome.winners == (0, 1)
    assert outcome.ranks == Outcome.rank_by([(15, 5), (15, 5), (3, 0)])
    assert "share the win" in outcome.summary


def test_hand_cards_count_nothing_at_the_end():
    state = table(["AS KS QS JS", "2C"], names=("Ann", "Bob"), money=[6, 7], current=1, last_round=True)
    play(state, "discard 2C")
    assert SPEC.outcome(state).winners == (1,)


# -- deals ---------------------------------------------------------------------------------------
def deal_table():
    return table(["5H 9S 2D", "8C 8C.1", "3D"], money=[10, 6, 6],
                 portfolios=[pf("P1", 0, "2S 3S 4S"), pf("P2", 1, "JD QD KD"), pf("P3", 1, "3C 4C 5C")])


def test_an_accepted_deal_is_applied_at_once_and_the_proposer_goes_on():
    state = deal_table()
    before = SPEC.conserved(state)
    play(state, "offer Bob: give 5H,$4 take P3")
    assert state.phase == "respond" and to_move(state) == 1
    assert legal(state) == [Accept(), Decline()]
    assert SPEC.view(state, 1).status == "Bob: Ann offers a deal — accept or decline."
    refused(state, "discard 8C", "must first accept or decline")
    play(state, "accept")
    assert keys(state.hands[0]) == ["9S", "2D"] and keys(state.hands[1]) == ["8C", "8C.1", "5H"]
    assert owner_of(state, "P3") == 0 and state.money == [6, 10, 6]
    assert state.phase == "act" and to_move(state) == 0 and SPEC.conserved(state) == before


def test_a_deal_may_move_cards_both_ways():
    state = deal_table()
    play(state, "offer 2: give P1 take 8C,8C,$1")
    play(state, "accept")
    assert keys(state.hands[0]) == ["5H", "9S", "2D", "8C", "8C.1"] and state.hands[1] == []
    assert owner_of(state, "P1") == 1 and state.money == [11, 5, 6]


def test_a_declined_deal_changes_nothing_and_only_one_offer_is_allowed_per_turn():
    state = deal_table()
    before = SPEC.to_json(state)
    play(state, "offer Bob: give $4 take P2")
    play(state, "decline")
    after = SPEC.to_json(state)
    assert after.pop("offered") is True and before.pop("offered") is False
    assert after == before
    refused(state, "offer Cat: give $1 take 3D", "already made an offer this turn")
    assert not any(isinstance(c, Offer) for c in legal(state))


def test_accept_is_refused_when_the_responder_lacks_a_named_card():
    state = deal_table()
    play(state, "offer Bob: give $1 take 9C")  # allowed: Ann cannot see Bob's hand
    with pytest.raises(IllegalCommand, match="do not hold the 9♣"):
        check(state, Accept())
    assert legal(state) == [Decline()]
    play(state, "decline")
    assert state.phase == "act"


def test_offers_check_the_proposers_side_and_the_responders_public_side():
    state = deal_table()
    refused(state, "offer Bob: give 7H take P3", "no 7♥")
    refused(state, "offer Bob: give P2 take $1", "P2 does not belong to you")
    refused(state, "offer Bob: give $11 take P3", r"You have only \$10")
    refused(state, "offer Bob: take P1", "P1 does not belong to Bob")
    refused(state, "offer Bob: take $7", r"Bob has only \$6")
    refused(state, "offer Ann: take $1", "yourself")
    refused(state, "offer Bob:", "must give or take something")
    for seat in (3, -1, "Bob", None):  # a seat that is not at this table of three, or none
        with pytest.raises(IllegalCommand, match="no player 3|no player -1|no player 'Bob'|which player"):
            check(state, Offer(seat, take=Side(money=1)))
    state.phase = "draw"
    refused(state, "offer Bob: take P3", "choose how many cards to draw")
    refused(deal_table(), "accept", "no offer to answer")


def test_the_offer_is_shown_to_the_responder_in_full():
    state = deal_table()
    play(state, "offer Bob: give 5H,$4 take P3,8C")
    offer = SPEC.view(state, 1).offer
    assert (offer.proposer, offer.responder) == (0, 1)
    assert keys(offer.give.cards) == ["5H"] and offer.give.money == 4 and offer.take.holdings == ("P3",)
    assert keys(offer.take.cards) == ["8C"] and offer.take.money == 0


# -- notation --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, canonical", [
    ("draw 3 +discard", "draw 3 +discard"),
    ("DRAW 2", "draw 2"),
    ("pauper +discard", "pauper +discard"),
    ("make 4s 5s 6s", "make 4S 5S 6S"),
    ("extend p1 7S", "extend P1 7S"),
    ("cap P1 HIGH 10d", "cap P1 high 10D"),
    ("neutralize P2 2c", "neutralise P2 2C"),
    ("acquire P2 7♣", "acquire P2 7C"),
    ("offer bob: give 5H, $4 take P3", "offer 2: give 5H,$4 take P3"),
    ("offer 2: give nothing take P3", "offer 2: take P3"),
    ("offer Cat: give 5H", "offer 3: give 5H"),
    ('offer "cat": give 5H', "offer 3: give 5H"),
    ("accept", "accept"),
    ("discard qd", "discard QD"),
    ("end", "end"),
])
def test_notation_reads_and_writes_canonically(text, canonical):
    state = table(["4S 5S 6S 7S 10D 2C 7C 5H QD", "2C", "3D"])
    command = parse(text, state)
    assert SPEC.notation.format(command) == canonical
    assert parse(canonical, state) == command


def test_notation_names_the_physical_copy_when_it_matters():
    state = table(["7S.1 7S.2", "2C", "3D"])
    command = parse("discard 7S", state)
    assert command == Discard(parse_card("7S.1")) and SPEC.notation.format(command) == "discard 7S.1"
    assert parse("discard 7S.2", state) == Discard(parse_card("7S.2"))


def test_a_player_name_with_spaces_reads_back():
    state = table(["5H", "2C", "3D"], names=("random 1", "random 2", "random 3"))
    command = parse("offer RANDOM 2: give 5H", state)
    assert command == Offer(1, Side(cards=(parse_card("5H"),)))
    assert SPEC.notation.format(command) == "offer 2: give 5H"
    assert parse('offer "random 3": give 5H', state) == Offer(2, Side(cards=(parse_card("5H"),)))


@pytest.mark.parametrize("text, words", [
    ("", "Type a command"),
    ("fly away", "not a Portfolio command"),
    ("draw", "draw 3"),
    ("draw x", "whole number"),
    ("draw 2 3", "draw 3"),
    ("make", "name the cards"),
    ("make 4S 5X 6S", "not a suit"),
    ("extend 7S P1", "not a portfolio"),
    ("cap P1 middle 10D", "low or high"),
    ("offer Bob give 5H", "colon"),
    ("offer Zed: take P1", "not a player"),
    ("offer 9: take P1", "not a player"),
    ("offer Bob: 5H", "after 'give' or 'take'"),
    ("offer Bob: give $x", "not a sum of money"),
    ("offer Bob: give $1 $2", "one sum of money"),
    ("offer Bob: give 5H give 6H", "only once"),
    ("accept now", "accept"),
])
def test_notation_errors_name_the_text(text, words):
    state = table(["4S 5S 6S", "2C", "3D"])
    with pytest.raises(NotationError, match=words):
        parse(text, state)


def test_every_legal_command_reads_back_and_passes_check_in_played_positions():
    rng = random.Random(3)
    for seed, players in ((1, 2), (2, 3), (3, 5)):
        state = SPEC.setup([f"P{i}" for i in range(players)], None, seed)
        for _ in range(400):
            if SPEC.outcome(state):
                break
            options = legal(state)
            for command in options:
                check(state, command)
                assert parse(SPEC.notation.format(command), state) == command
            apply(state, rng.choice(options))


# -- views -----------------------------------------------------------------------------------
def cards_in(value):
    """Every Card inside a view (dataclasses, tuples, dicts)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from cards_in(item)


def test_a_view_shows_only_its_own_hand_and_the_public_table():
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, seed=4)
    public = set(state.discard[-1:])
    for seat in (0, 1, 2, None):
        view = SPEC.view(state, seat)
        own = set(state.hands[seat]) if seat is not None else set()
        assert set(view.hand) == own
        assert set(cards_in(view)) <= own | public
        assert view.hand_sizes == (13, 13, 13) and view.stock_size == len(state.stock)
    assert SPEC.view(state, None).hand == ()


def test_the_view_carries_the_public_table():
    state = table(["AS", "2C", "9D"], current=2, money=[6, 7, 8], portfolios=[
        pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "AH 2H 3H", high="3D")])
    play(state, "discard 9D")
    view = SPEC.view(state, 0)
    assert view.columns == ("Money", "Income", "Portfolios", "Hand")
    assert view.rows[0] == ("$11", "$5", "1", "1") and view.money == (11, 7, 8)
    assert view.income == (5, 2, 0) and view.turn_income == 5 and view.draw_costs == (0, 2, 5)
    assert income(view, 0) == 5 and income(view, 1) == 2  # the helper reads views too
    assert view.phase == "draw" and view.discard_top == parse_card("9D") and view.discard_size == 2
    assert view.status == "Ann: income $5 — choose how many cards to draw."
    assert view.portfolios[1] == PortfolioInfo("P2", 1, tuple(map(parse_card, "AH 2H 3H".split())),
                                               None, parse_card("3D"), 2, None, None, None, None)
    play(state, "draw 2")
    view = SPEC.view(state, 0)
    assert view.status == "Ann may act, then discard." and view.draw_costs == ()
    assert view.score_sheet == ((6,), (7,), (8,))  # a new total is written when a turn ends
    play(state, "discard AS")
    assert SPEC.view(state, 0).score_sheet == ((6, 9), (7,), (8,))


def test_playable_marks_what_each_hand_card_can_do():
    state = table(["7S 3S 7D 2C 9C 10C JC KD 4C.1 6S.1", "2C", "3D"], money=[10, 6, 6],
                  portfolios=[pf("P1", 0, "4S 5S 6S"), pf("P2", 1, "3C 4C 5C 6C")])
    marks = card_uses(state.hands[0], legal(state))
    assert marks["7S"] == ["extend P1"] and marks["3S"] == ["extend P1"]
    assert marks["2C"] == ["neutralise P2"] and marks["9C"] == ["make"]
    assert marks["4C.1"] == ["cap P1 low"] and marks["6S.1"] == ["cap P1 high"]
    assert marks["KD"] == [] and marks["7D"] == []
    state.money[0] = 3  # too poor to neutralise P2 for $4
    assert card_uses(state.hands[0], legal(state))["2C"] == []


def test_json_round_trip_keeps_every_detail():
    state = deal_table()
    play(state, "offer Bob: give 5H,$4 take P3,8C")
    data = SPEC.to_json(state)
    assert SPEC.to_json(SPEC.from_json(copy.deepcopy(data))) == data
    with pytest.raises(RulesError, match="Portfolio position"):
        SPEC.from_json({"names": ["A", "B"]})
    with pytest.raises(RulesError, match="unknown phase"):
        SPEC.from_json({**data, "phase": "lunch"})


def test_a_position_written_by_hand_may_leave_out_what_has_a_default():
    """Two decks and an empty bank unless said (a hand-written position, as this file's tables)."""
    state = SPEC.setup(["Ann", "Bob"], None, 1)
    data = SPEC.to_json(state)
    assert (data["decks"], data["bank"]) == (2, 0)
    short = {key: value for key, value in data.items() if key not in ("decks", "bank")}
    assert SPEC.from_json(short) == state
    with pytest.raises(RulesError, match="pid is P1, P2"):
        SPEC.from_json({**data, "portfolios": [{"pid": "Q1", "owner": 0, "cards": ["2H", "3H", "4H"]}]})


def test_turn_counts_turns_begun_and_conserved_holds_through_a_game():
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, seed=9)
    conserved = SPEC.conserved(state)
    rng = random.Random(9)
    starts = 1
    while SPEC.outcome(state) is None:
        command = RandomBot().choose(None, legal(state), rng)
        events = apply(state, command)
        starts += sum(isinstance(e, TurnStarted) for e in events)
        assert SPEC.conserved(state) == conserved
        assert SPEC.turn(state) == starts
    assert sum(state.money) + state.bank == 18


# -- what mutation testing showed untested ------------------------------------------------------

def test_a_cards_worth_by_rank():
    from rules.portfolio.rules import card_value
    worth = [card_value(parse_card(f"{rank}S")) for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    assert worth == [2] * 6 + [3] * 4 + [4] * 3


@pytest.mark.parametrize("ranks, value", [
    ("4 5 6", 2), ("5 6 7", 3), ("9 10 J", 4), ("A 2 3 4", 4), ("6 7 8 9 10 J", 13), ("J Q K", 4),
])
def test_a_portfolio_pays_for_every_card_but_its_two_lowest(ranks, value):
    assert portfolio_value([parse_card(f"{rank}D") for rank in ranks.split()]) == value


def test_drawing_costs_two_plus_three_and_so_on_the_first_card_free():
    assert [draw_cost(n) for n in range(1, 6)] == [0, 2, 5, 9, 14]
    assert [max_draw(income) for income in (0, 1, 2, 4, 5, 9, 14)] == [1, 1, 2, 2, 3, 4, 5]


def test_the_ends_of_a_run_as_far_as_ace_and_king():
    from rules.portfolio.rules import acquirers, extension, neutraliser
    from rules.portfolio.state import HIGH, LOW
    low = PortfolioInfo("P1", 0, tuple(map(parse_card, "2H 3H 4H".split())), None, None, 2, 0, 0, None, None)
    assert neutraliser(low) == parse_card("AH") and extension(low, LOW) == parse_card("AH")
    assert extension(low, HIGH) == parse_card("5H") and acquirers(low) == (parse_card("5H"),)
    ace = PortfolioInfo("P2", 0, tuple(map(parse_card, "AS 2S 3S".split())), None, None, 2, 0, 0, None, None)
    assert neutraliser(ace) is None
    king = PortfolioInfo("P3", 0, tuple(map(parse_card, "JC QC KC".split())), None, None, 4, 0, 0, None, None)
    assert extension(king, HIGH) is None and acquirers(king) == (parse_card("AC"), parse_card("AS"))


def test_every_card_command_needs_the_card_in_hand():
    state = table(["5S 9H", "2C", "3D"], portfolios=[pf("P1", 0, "2S 3S 4S"), pf("P2", 1, "6D 7D 8D")])
    before = SPEC.to_json(state)
    for command in (Extend("P1", parse_card("5S.1")), Extend("P1", parse_card("AS")),
                    Cap("P1", "high", parse_card("4C")), Neutralise("P2", parse_card("5D")),
                    Acquire("P2", parse_card("9D")), Discard(parse_card("2C"))):
        with pytest.raises(IllegalCommand, match="in your hand"):
            check(state, command)
    assert SPEC.to_json(state) == before


def test_a_deal_may_ask_for_all_the_responders_money():
    state = deal_table()
    play(state, "offer Bob: give 5H take $6")  # Bob has exactly $6
    play(state, "accept")
    assert state.money == [16, 0, 6]


def test_the_discard_taken_stays_with_two_cards_in_hand_too():
    state = table(["AS", "2C", "3D"], phase="draw", discard="9C 7S")
    play(state, "draw 1 +discard")
    assert len(state.hands[0]) == 2
    refused(state, "discard 7S", "only as your last card")


@pytest.mark.parametrize("offer, words", [
    ({"give_cards": ["7H"]}, "no 7♥"),  # the proposer no longer holds the card
    ({"give_portfolios": ["P3"]}, "P3 does not belong to Ann"),
    ({"give_money": 11}, r"only \$10"),
    ({"take_portfolios": ["P1"]}, "P1 does not belong to you"),
])
def test_accepting_checks_the_deal_again_against_the_table(offer, words):
    """A deal is checked again when it is accepted: a position read back with a pending offer
    the table no longer allows (a hand-edited save) is refused, not carried out."""
    pending = {"proposer": 0, "responder": 1, "give_cards": [], "give_portfolios": [], "give_money": 0,
               "take_cards": [], "take_portfolios": [], "take_money": 1, **offer}
    state = table(["5H 9S 2D", "8C 8C.1", "3D"], money=[10, 6, 6], phase="respond", offered=True,
                  offer=pending, portfolios=[pf("P1", 0, "2S 3S 4S"), pf("P3", 1, "3C 4C 5C")])
    with pytest.raises(IllegalCommand, match=words):
        check(state, Accept())


def test_legal_lists_a_neutralise_and_an_acquire_at_exactly_their_price():
    state = table(["2C 7C", "9D", "3D"], money=[4, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    assert Neutralise("P1", parse_card("2C")) in legal(state)  # $4 of $4
    assert not any(isinstance(c, Acquire) for c in legal(state))  # $8 needed
    state.money[0] = 8
    assert Acquire("P1", parse_card("7C")) in legal(state)  # $8 of $8
    play(state, "acquire P1 7C")
    assert keys(state.hands[0]) == ["2C"] and state.find("P1").owner == 0  # the 7♣ left the hand


def test_legal_offers_buy_a_portfolio_at_its_price_or_sell_a_card_to_the_next_player_for_a_dollar():
    state = table(["9S 2D", "8C", "3D"], money=[8, 1, 0],
                  portfolios=[pf("P1", 1, "3C 4C 5C 6C"), pf("P2", 2, "9D 10D JD QD KD")])
    offers = [c for c in legal(state) if isinstance(c, Offer)]
    assert Offer(1, Side(money=8), Side(holdings=("P1",))) in offers  # twice its $4, all Ann has
    assert not any(o.take.holdings == ("P2",) for o in offers)  # worth $12: $24 is more than Ann has
    assert {o for o in offers if o.give.cards} == {
        Offer(1, Side(cards=(parse_card("9S"),)), Side(money=1)),
        Offer(1, Side(cards=(parse_card("2D"),)), Side(money=1))}  # to the next player only
    state.money[1] = 0
    assert not any(o.give.cards for o in legal(state) if isinstance(o, Offer))  # Bob has no $1



def test_the_last_turn_pays_the_final_income_and_ends_the_game():
    from rules.portfolio.events import FinalIncome, GameOver
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[20, 9], current=1, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 1, "JD QD KD", low="JH")])
    events = play(state, "discard 2C")
    assert [(e.seat, e.income, e.money) for e in events if isinstance(e, FinalIncome)] == [(0, 5, 25), (1, 4, 13)]
    assert isinstance(events[-1], GameOver) and events[-1].summary == "Ann wins with $25."



def test_a_sampled_state_keeps_what_the_viewer_has_seen():
    import random
    from rules.core import Match, Seat
    from rules.portfolio.rules import infos_of
    match = Match(SPEC, [Seat("Ann"), Seat("Bob"), Seat("Cat")], seed=4)
    while not match.state.portfolios or len(match.history) < 30 or not (match.state.known[0] or match.state.known[2]):
        seat = min(match.awaiting)
        match.submit(seat, SPEC.bots["bot"].choose(match.view(seat), match.legal(seat), random.Random(len(match.history))))
    state, view = match.state, match.view(1)  # (cards the others are known to hold among what is seen)
    on_table = {card for info in view.portfolios for card in info.cards}
    deals = set()
    for seed in range(8):
        sampled = SPEC.sample(view, random.Random(seed))
        # the portfolios' views read once, for every copy the expert makes of the deal
        assert infos_of(SPEC.copy(sampled)) is infos_of(sampled)
        assert SPEC.view(sampled, 1) == view
        assert sorted(c.key for c in sampled.hands[1]) == sorted(c.key for c in state.hands[1])
        assert not on_table & {card for hand in sampled.hands for card in hand}
        assert SPEC.conserved(sampled) == SPEC.conserved(state)
        deals.add(tuple(sampled.hands[0]))
    assert len(deals) > 1  # the hidden hands are dealt at random


@pytest.mark.parametrize("change, words", [
    ({"portfolios": [pf("Q1", 0, "2S 3S 4S")]}, "pid is P1"),
    ({"portfolios": [pf("P", 0, "2S 3S 4S")]}, "pid is P1"),
    ({"portfolios": [pf("Px", 0, "2S 3S 4S")]}, "pid is P1"),
    ({"portfolios": [pf("P1234567", 0, "2S 3S 4S")]}, "pid is P1"),
    ({"portfolios": [pf("P1", 0, "")]}, "P1 has no cards"),
    ({"phase": "bidding"}, "unknown phase"),
    ({"sheet": [[6], [6]]}, "score sheet needs a column"),
    ({"sheet": [[6], [], [6]]}, "score sheet needs a column"),
    ({"phase": "respond"}, "needs the offer"),
])
def test_a_hand_written_position_that_cannot_be_is_refused_in_words(change, words):
    with pytest.raises(RulesError, match=words):
        table(["5H", "8C", "3D"], **change)


def test_an_answer_in_the_draw_phase_is_refused_as_no_offer_to_answer():
    refused(table(["5H", "8C", "3D"], phase="draw"), "accept", "There is no offer to answer")
    refused(table(["5H", "8C", "3D"], phase="draw"), "decline", "There is no offer to answer")


def test_a_hand_written_position_numbers_new_portfolios_after_its_highest():
    state = table(["5H 6H 7H", "8C", "3D"], portfolios=[pf("P7", 1, "2S 3S 4S")])
    play(state, "make 5H 6H 7H")
    assert [p.pid for p in state.portfolios] == ["P7", "P8"]


@pytest.mark.parametrize("change", [
    {"portfolios": [pf("P12345", 0, "2S 3S 4S")]}, {"decks": 1}, {"decks": 9}, {"counter": 0},
    {"turns": 0}, {"turn_income": 0}, {"current": 2}, {"portfolios": [pf("P1", 2, "2S 3S 4S")]},
])
def test_a_hand_written_position_at_the_edge_of_what_can_be_is_read(change):
    state = table(["5H", "8C", "3D"], **change)
    data = SPEC.to_json(state)
    for key, value in change.items():
        if key != "portfolios":
            assert data[key] == value


@pytest.mark.parametrize("change, words", [
    ({"portfolios": [pf("P123456", 0, "2S 3S 4S")]}, "pid is P1"),
    ({"decks": 0}, "decks"), ({"decks": 10}, "decks"), ({"counter": -1}, "counter"),
    ({"turns": -1}, "turns"), ({"turn_income": -1}, "turn_income"), ({"current": 3}, "current"),
    ({"portfolios": [pf("P1", 3, "2S 3S 4S")]}, "owner"),
])
def test_a_hand_written_position_past_the_edge_is_refused(change, words):
    with pytest.raises(RulesError, match=words):
        table(["5H", "8C", "3D"], **change)


def test_a_hand_written_position_starts_with_the_first_player_by_default():
    data = SPEC.to_json(table(["5H", "8C", "3D"]))
    del data["current"]
    assert SPEC.from_json(data).current == 0


# -- names: whatever the players are called (issue 20) -------------------------------------------
# seat 1 is called "3" and seat 2 "Bob 2": the saved "offer 3:" is seat 3 (Bob 2), never "3"
ODD_NAMES = ("Bob", "3", "Bob 2", "give", "[/]")


def odd_table(current=4):
    return table(["5H 9S", "8C", "3D", "4D", "KS"], names=ODD_NAMES, current=current)


@pytest.mark.parametrize("seat", range(4))
def test_an_offer_is_saved_with_the_seat_number_and_reads_back(seat):
    state = odd_table()
    command = Offer(seat, Side(cards=(parse_card("5H"),)), Side(money=1))
    text = SPEC.notation.format(command)
    assert text == f"offer {seat + 1}: give 5H take $1"
    assert parse(text, state) == command


@pytest.mark.parametrize("typed, seat", [
    ("offer 2: give 5H", 1),                 # a number is a seat...
    ("offer 3: give 5H", 2),                 # ...even beside a player called "3"
    ('offer "3": give 5H', 1),               # that name, quoted
    ("offer bob: give 5H", 0),               # a name in any case
    ("offer BOB 2: give 5H", 2),             # the longer name, not its prefix
    ('offer "bob 2": give 5H', 2),           # quoted, with a space
    ("offer “Bob 2”: give 5H", 2),           # typographic quotes
    ("offer give: give 5H", 3),              # a name that is a word of the notation
    ("offer [/]: take 5H", 4),               # brackets are only characters
])
def test_an_offer_reads_the_player_by_number_or_by_name(typed, seat):
    state = odd_table(current=0 if seat == 4 else 4)
    command = parse(typed, state)
    assert command.to == seat
    assert SPEC.notation.format(command).startswith(f"offer {seat + 1}:")


@pytest.mark.parametrize("typed", ["offer Zed: give 5H", "offer 6: give 5H", "offer 0: give 5H",
                                   'offer "Bob 3": give 5H'])
def test_an_unknown_player_is_a_notation_error_naming_the_players(typed):
    with pytest.raises(NotationError, match=r"1 Bob, 2 3, 3 Bob 2, 4 give, 5 \[/\]"):
        parse(typed, odd_table())


def test_at_a_table_of_two_the_offer_may_leave_the_player_out():
    state = table(["5H", "8C"], names=("Ann", "Bob"))
    command = parse("offer: give 5H", state)
    assert command == Offer(1, Side(cards=(parse_card("5H"),)))
    assert SPEC.notation.format(command) == "offer 2: give 5H"


def test_display_writes_cards_in_symbols_and_players_by_name():
    from rules.core.words import Money, Player
    state = odd_table()
    names = state.names
    display = SPEC.notation.display
    offer = parse("offer 3: give 5H,$4 take P3,8C", table(
        ["5H", "8C", "3D", "4D", "KS"], names=ODD_NAMES, current=4,
        portfolios=[pf("P3", 2, "3C 4C 5C")], money=[6, 6, 6, 6, 6]))
    shown = display(offer, names)
    assert shown == "offer Bob 2: give 5♥, $4 take 8♣, P3"
    assert Player(2, "Bob 2") in shown.parts and parse_card("5H") in shown.parts and Money(4) in shown.parts
    seven = parse_card("7S.1")
    assert display(Discard(seven), names) == "discard 7♠" and seven in display(Discard(seven), names).parts
    assert display(Make(tuple(map(parse_card, "4S 5S 6S".split()))), names) == "make 4♠ 5♠ 6♠"
    assert display(Cap("P2", "high", parse_card("10D")), names) == "cap P2 high 10♦"
    assert display(Acquire("P5", parse_card("7C.2")), names) == "acquire P5 7♣"
    assert display(Draw(3, True), names) == "draw 3 +discard"


def parts_of(sentence, kind):
    return [part for part in sentence.parts if isinstance(part, kind)]


def test_sentences_carry_their_players_cards_and_money_as_parts():
    from rules.core.words import Money, Player
    from rules.portfolio.events import Acquired, Drew, Made, Neutralised
    names = ODD_NAMES
    seven = parse_card("7C")
    acquired = Acquired(4, "P2", 1, seven, 8).describe(names, 0)
    assert acquired == "[/] acquires P2 from 3 with 7♣ for $8."
    assert parts_of(acquired, Player) == [Player(4, "[/]"), Player(1, "3")]
    assert parts_of(acquired, Card) == [seven] and parts_of(acquired, Money) == [Money(8)]
    run = tuple(map(parse_card, "4S 5S 6S".split()))
    made = Made(2, "P1", run, 2).describe(names, None)
    assert made == "Bob 2 makes P1: 4♠ 5♠ 6♠, worth $2." and parts_of(made, Card) == list(run)
    drew = Drew(3, 3, parse_card("KC"), 5, cards=(parse_card("2H"), parse_card("3H")))
    assert parts_of(drew.describe(names, 3), Card) == [parse_card("KC"), parse_card("2H"), parse_card("3H")]
    assert drew.describe(names, 0) == "give takes K♣ from the discard pile and draws 2 more for $5."
    neutralised = Neutralised(0, "P2", 1, seven, 4).describe(names)
    assert parts_of(neutralised, Player) == [Player(0, "Bob"), Player(1, "3")]


def test_a_refusal_and_the_status_carry_their_parts():
    from rules.core.words import Money, Player
    state = table(["2C 7S", "9D", "3D"], names=ODD_NAMES[:3], money=[3, 6, 6],
                  portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    with pytest.raises(IllegalCommand) as refused_:
        check(state, Neutralise("P1", parse_card("7S")))
    assert str(refused_.value) == "Only 2♣ neutralises P1 (3♣–6♣), not 7♠."
    assert parts_of(refused_.value.sentence, Card) == [parse_card("2C"), parse_card("3C"), parse_card("6C"),
                                                       parse_card("7S")]
    with pytest.raises(IllegalCommand) as refused_:
        check(state, Neutralise("P1", parse_card("2C")))
    assert parts_of(refused_.value.sentence, Money) == [Money(4), Money(3)]
    with pytest.raises(IllegalCommand) as refused_:
        check(state, Offer(1, take=Side(money=7)))
    assert str(refused_.value) == "3 has only $6, not $7." and Player(1, "3") in refused_.value.sentence.parts
    status = SPEC.view(state, 1).status
    assert status == "Bob may act, then discard." and parts_of(status, Player) == [Player(0, "Bob")]


def test_the_summary_names_the_winner_as_a_part():
    from rules.core.words import Money, Player
    state = table(["AS", "2C"], names=("[/]", "Bob [kid]"), money=[20, 9], current=1, last_round=True,
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S")])
    play(state, "discard 2C")
    summary = SPEC.outcome(state).summary
    assert summary == "[/] wins with $25."
    assert parts_of(summary, Player) == [Player(0, "[/]")] and parts_of(summary, Money) == [Money(25)]


# every player count, with names that are words of the notation, cards, prefixes of one another,
# quotes, markup, other scripts and 40 characters; the first player is called by the last seat's
# number, so an offer to that seat is saved as "offer N:", which must not be read as that name
HOSTILE = [
    ("2", "[@click=app.quit]"),
    ("3", "Bob [kid]", "[/]"),
    ("4", "Bob", "Bob 2", "offer"),
    ("4", "李雷", "Ибрагим", "give"),
    ("5", 'Say "hi"', "QD", "x" * 40, "Zoë"),
    ("5", "O'Neil", "P1", "nothing", "accept"),
]


@pytest.mark.parametrize("names", HOSTILE, ids=lambda names: f"{len(names)}-{names[-1][:8]}")
def test_a_game_between_hostile_names_saves_and_loads_to_the_same_state(names):
    """A seeded random game between players called like commands, numbers, cards, markup and
    one another: saved and loaded at several points and at its end, it is the same game."""
    from rules import load_match
    from rules.core import Match, Seat
    from game_helpers import play_random

    players = len(names)
    match = Match(SPEC, [Seat(name) for name in names], seed=40 + HOSTILE.index(names))
    checked = 0
    while not match.over:
        play_random(match)
        if len(match.history) % 50 == 0 or match.over:
            loaded = load_match(match.to_json())
            assert loaded.state == match.state and loaded.names == match.names
            checked += 1
    assert checked >= 3 and match.over
    offers = [played for played in match.history if isinstance(played.command, Offer)]
    assert offers and all(played.text.startswith(f"offer {played.command.to + 1}:") for played in offers)
    if players > 2:  # offers went to more than one other player
        assert len({(p.seat, p.command.to) for p in offers}) > 1


# -- cards every seat saw go into a hand (issue 25) ----------------------------------------------
def known_keys(view_or_state):
    return [keys(cards) for cards in view_or_state.known]


def test_a_card_taken_from_the_discard_pile_stays_known_in_that_hand_until_it_is_played():
    owned = [pf("P1", 0, "JS QS KS"), pf("P2", 1, "JC QC KC"), pf("P3", 2, "JD QD KD")]
    state = table(["5H 6H 9C", "8C", "3D"], phase="draw", discard="QS.1 7H", portfolios=owned)
    play(state, "draw 1 +discard")
    play(state, "discard 9C")  # Ann's turn ends with 7H still in her hand
    for _ in range(2):  # Bob's turn and Cat's: the card taken a turn ago is still known
        play(state, "draw 1")
        play(state, f"discard {state.hands[state.current][0].key}")
    assert state.taken_discard is None and known_keys(state) == [["7H"], [], []]
    view = SPEC.view(state, 1)
    assert known_keys(view) == [["7H"], [], []] and known_keys(SPEC.view(state, None)) == [["7H"], [], []]
    for seed in range(5):  # Bob's samples keep it in Ann's hand
        sampled = SPEC.sample(view, random.Random(seed))
        assert parse_card("7H") in sampled.hands[0] and sampled.known == state.known
        assert [len(hand) for hand in sampled.hands] == [len(hand) for hand in state.hands]  # not one more
    play(state, "draw 1")
    play(state, "make 5H 6H 7H")
    assert known_keys(state) == [[], [], []]


def test_a_declined_offers_cards_and_a_deals_cards_stay_known_where_they_went():
    state = deal_table()
    play(state, "offer Bob: give 5H take 8C")
    play(state, "decline")
    assert known_keys(state) == [["5H"], [], []]  # shown in the offer, still in Ann's hand
    state.offered = False  # (a hand-written second offer this turn)
    play(state, "offer Bob: give 5H,9S take 8C")
    play(state, "accept")
    assert known_keys(state) == [["8C"], ["5H", "9S"], []]
    view = SPEC.view(state, 2)  # Cat saw the deal: her samples keep its cards where they went
    for seed in range(5):
        sampled = SPEC.sample(view, random.Random(seed))
        assert {"5H", "9S"} <= set(keys(sampled.hands[1])) and "8C" in keys(sampled.hands[0])
    play(state, "discard 8C")
    assert known_keys(state) == [[], ["5H", "9S"], []]


def test_known_cards_are_saved_and_a_position_saved_before_them_still_reads():
    state = deal_table()
    play(state, "offer Bob: give 5H take 8C")
    data = SPEC.to_json(state)
    assert data["known"] == [["5H"], [], []] and SPEC.from_json(copy.deepcopy(data)).known == state.known
    del data["known"]  # written before hands kept their known cards: the offer's are shown
    assert known_keys(SPEC.from_json(data)) == [["5H"], [], []]
    with pytest.raises(RulesError, match="known to be in seat 1's hand"):
        SPEC.from_json({**data, "known": [[], ["5H"], []]})
    with pytest.raises(RulesError, match="'known' needs a list"):
        SPEC.from_json({**data, "known": [[]]})
    broken = copy.deepcopy(state)
    broken.known[2].append(parse_card("KS"))
    assert set(SPEC.invariants(broken)) - set(SPEC.invariants(state)) == {
        "KS, known to be in seat 2's hand, is not there"}


def test_a_save_from_before_known_cards_loads_and_its_replay_rebuilds_them():
    from rules.core import Match, Seat
    from game_helpers import loads_without, played_until

    # seed 2: Ann takes the discard and keeps it
    match = played_until(Match(SPEC, [Seat("Ann"), Seat("Bob")], seed=2), lambda m: any(m.state.known))
    loaded = loads_without(match, "known")  # no SnapshotMismatch: the moves rebuild what is missing
    assert loaded.state.known == match.state.known and loaded.state == match.state


def test_playable_marks_the_cards_that_neutralise_and_acquire_an_opponents_portfolio():
    state = table(["2C 7C", "9D", "3D"], money=[8, 6, 6], portfolios=[pf("P1", 1, "3C 4C 5C 6C")])
    marks = card_uses(state.hands[0], legal(state))
    assert marks == {"2C": ["neutralise P1"], "7C": ["acquire P1"]}


def test_the_views_rows_count_each_players_own_portfolios():
    state = table(["AS", "2C", "9D"], money=[6, 7, 8], portfolios=[
        pf("P1", 0, "4S 5S 6S 7S"), pf("P2", 0, "9H 10H JH"), pf("P3", 1, "AH 2H 3H")])
    rows = SPEC.view(state, 2).rows
    assert [(money, income_, owned) for money, income_, owned, _ in rows] == [
        ("$6", "$9", "2"), ("$7", "$2", "1"), ("$8", "$0", "0")]


def test_legal_lists_every_draw_the_cards_left_can_serve():
    # two players: no reshuffle, so two stock cards (and the top discard) are all there is
    state = table(["AS", "2C"], names=("Ann", "Bob"), phase="draw", turn_income=20, stock="2D 3D",
                  discard="4C 5C")
    assert legal(state) == [Draw(1), Draw(2), Draw(1, True), Draw(2, True), Draw(3, True)]
    # three players before the reshuffle: the discard pile will come round as a new stock
    state = table(["AS", "2C", "3S"], phase="draw", turn_income=20, stock="2D", discard="4C 5C 6C")
    assert legal(state) == [*(Draw(n) for n in range(1, 5)), *(Draw(n, True) for n in range(1, 5))]


@pytest.mark.parametrize("pid", ["P²", "Px1", "P1x"])
def test_a_portfolio_id_is_p_and_ascii_digits(pid):
    with pytest.raises(RulesError, match="pid is P1"):
        table(["5H", "8C", "3D"], portfolios=[pf(pid, 0, "2S 3S 4S")])


def test_a_finished_position_written_without_its_final_income_shows_none():
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[12, 9], phase="over",
                  portfolios=[pf("P1", 0, "4S 5S 6S 7S")])
    outcome = SPEC.outcome(state)
    assert outcome.breakdown[0] == {"money before final income": 12, "final income": 0,
                                    "money": 12, "portfolio value": 5}
    assert outcome.winners == (0,)


def test_chance_draws_are_counted_the_deal_first_then_the_reshuffle():
    """All chance is drawn from ``chance(seed, counter)`` (rules/core/engine.py): the deal is
    draw 0, so a new game's counter is 1; the reshuffle is the counter's draw and counts one more,
    so no later draw repeats it."""
    from rules.core import build_deck
    from rules.core.piles import shuffled as shuffled_with

    state = SPEC.setup(["Ann", "Bob", "Cat"], None, seed=7)
    deck = shuffled_with(build_deck(2), 7, 0)
    assert state.counter == 1 and state.hands[0] == deck[0::3][:13]
    state = table(["AS", "2C", "3D"], money=[15, 6, 6], phase="draw", turn_income=9, stock="2D",
                  discard="4C 5C 6C 7C 8C", seed=3, counter=5)
    play(state, "draw 1")
    assert state.stock == shuffled_with(map(parse_card, "4C 5C 6C 7C 8C".split()), 3, 5)
    assert state.counter == 6


def test_legal_offers_each_run_of_exactly_three_wherever_it_falls_in_the_hand():
    state = table(["3C 4C 5C 9D 10D JD KS", "2C", "3D"])
    makes = [SPEC.notation.format(c) for c in legal(state) if isinstance(c, Make)]
    assert sorted(makes) == ["make 3C 4C 5C", "make 9D 10D JD"]


@pytest.mark.parametrize("text, played", [("make 7S 8S 9S", "7S 8S 9S"), ("extend P1 6H", "6H"),
                                          ("cap P1 low 2D", "2D"), ("cap P1 high 5H.1", "5H.1")])
def test_a_card_played_to_the_table_leaves_the_hand(text, played):
    state = table(["7S 8S 9S 6H 2D 5H.1 KC", "2C", "3D"], portfolios=[pf("P1", 0, "2H 3H 4H 5H")])
    before = SPEC.conserved(state)
    play(state, text)
    assert sorted(keys(state.hands[0])) == sorted(set("7S 8S 9S 6H 2D 5H.1 KC".split()) - set(played.split()))
    assert SPEC.conserved(state) == before


def test_the_discards_legal_lists_take_the_other_copy_of_a_face_taken_from_the_pile():
    state = table(["7S.1 AS", "2C", "3D"], phase="draw", discard="9C 7S")
    play(state, "draw 1 +discard")
    assert [c for c in legal(state) if isinstance(c, Discard)] == [Discard(parse_card("AS")),
                                                                   Discard(parse_card("7S.1"))]


def test_a_position_saved_without_known_cards_knows_the_discard_taken_while_it_is_in_the_hand():
    state = table(["7S AS", "2C", "3D"], taken_discard="7S")
    assert known_keys(state) == [["7S"], [], []]
    # taken this turn and already laid down in a portfolio: no longer in the hand
    state = table(["AS", "2C", "3D"], taken_discard="7S", portfolios=[pf("P1", 0, "5S 6S 7S")])
    assert known_keys(state) == [[], [], []]


def test_a_capped_high_end_cannot_be_extended_but_the_low_end_can():
    state = table(["10D JH 5H", "2C", "3D"], portfolios=[pf("P1", 0, "6H 7H 8H 9H 10H")])
    play(state, "cap P1 high 10D")
    refused(state, "extend P1 JH", "high end of P1 is capped")
    play(state, "extend P1 5H")
    assert keys(state.find("P1").cards) == ["5H", "6H", "7H", "8H", "9H", "10H"]


def test_a_draw_that_finds_no_card_costs_nothing():
    state = table(["AS", "2C"], names=("Ann", "Bob"), money=[6, 6], phase="draw", turn_income=5,
                  stock="", discard="")
    play(state, "draw 1")  # an empty discard pile does not stop a draw from the stock
    assert state.last_round and keys(state.hands[0]) == ["AS"] and state.money[0] == 6


def test_the_card_taken_from_the_pile_is_not_listed_as_a_discard_while_another_card_is_held():
    state = table(["AS", "2C", "3D"], phase="draw", discard="9C 7S")
    play(state, "draw 1 +discard")
    assert [c for c in legal(state) if isinstance(c, Discard)] == [Discard(parse_card("AS"))]


def test_a_view_for_a_seat_not_at_the_table_shows_no_hand():
    state = table(["AS", "2C", "3D"])
    for seat in (3, -1):
        view = SPEC.view(state, seat)
        assert view.hand == () and view.hand_sizes == (1, 1, 1)


def test_legal_lists_answer_in_as_their_commands_for_near_misses_of_a_sale_for_one_dollar():
    """A legal list answers ``in`` from what a command is made from (a bot asks it at every
    command of the expert's playouts): a card offered to a rival for $1 is in the list exactly
    when the whole list holds it, and so is every near miss — another seat, another price, two
    cards, money given with the card, a portfolio or a discard of other cards."""
    from game_helpers import seeded_positions

    sales = 0
    for _state, seat, _view, legal in seeded_positions(SPEC, range(6), 120, lambda seed: 3):
        whole = list(legal)
        asked = list(whole)
        for command in whole:
            if type(command) is Offer and command.take == Side(money=1) and len(command.give.cards) == 1:
                sales += 1
                card = command.give.cards[0]
                others = [c for c in (x.give.cards[0] for x in whole if type(x) is Offer
                                      and x.take == Side(money=1) and len(x.give.cards) == 1) if c != card][:1]
                asked += [Offer(to, command.give, command.take) for to in (0, 1, 2, None) if to != command.to]
                asked += [Offer(command.to, command.give, Side(money=money)) for money in (0, 2)]
                asked += [Offer(command.to, command.give, Side(cards=(card,), money=1)),
                          Offer(command.to, Side(cards=(card,), money=1), command.take),
                          Offer(command.to, Side(cards=(card, *others)), command.take)]
            elif type(command) is Make:
                asked += [Make(command.cards[:-1]), Make(command.cards[1:] + command.cards[:1])]
            elif type(command) is Discard:
                asked.append(Discard(Card(command.card.rank, command.card.suit, command.card.copy + 1)))
        for command in asked:
            assert (command in legal) == (command in whole), command
    assert sales > 20  # the sale for $1 came up often enough to be asked about


def test_the_searchs_copy_of_a_state_is_equal_and_shares_nothing_apply_changes():
    """PortfolioGame.copy (the expert copies a deal for every command it tries) gives an equal
    state whose lists and portfolios are its own: only cards, numbers, strings and the frozen
    offer are shared with the original."""
    from game_helpers import seeded_positions

    def mutable(value, found):
        if isinstance(value, list):
            found.add(id(value))
            for item in value:
                mutable(item, found)
        elif dataclasses.is_dataclass(value) and not value.__dataclass_params__.frozen:
            found.add(id(value))
            for item in vars(value).values():
                mutable(item, found)
        return found

    checked = 0
    for state, _seat, _view, _legal in seeded_positions(SPEC, range(3), 60, lambda seed: 2 + seed % 3):
        state = dataclasses.replace(state, final_income=[1] * len(state.names))  # a list there too
        copied = SPEC.copy(state)
        assert copied == state and SPEC.to_json(copied) == SPEC.to_json(state)
        assert vars(copied).keys() == vars(state).keys()
        assert not mutable(copied, set()) & mutable(state, set())
        checked += 1
    assert checked > 100


def test_the_collections_left_are_worked_out_as_before_and_kept_in_a_bounded_cache():
    """collections_left (asked by the bot at every decision) keeps its tables in a bounded
    cache, and hands each caller a list of its own."""
    from rules.portfolio import estimate

    assert estimate.collection_counts.cache_info().maxsize == 4096
    first = estimate.collections_left(3, 1, 2, False, 30)
    assert first == [8, 7, 8]  # (the values main's uncached one gave)
    first.append(0)
    assert estimate.collections_left(3, 1, 2, False, 30) == [8, 7, 8]
    assert estimate.collections_left(3, 0, 2, True, 0) == [1, 2, 2]
    assert estimate.collections_left(4, 2, 3, False, 10) == [3, 2, 2, 3]


def test_the_made_sales_and_discards_are_kept_in_bounded_caches_and_equal_new_ones():
    """The sales for $1 and the discards a legal list makes are kept (the expert's tree reads
    the lists whole), in caches bounded above the 780 sales and 156 discards there can be."""
    from rules.portfolio import rules as portfolio_rules

    for cached in (portfolio_rules._sell_one, portfolio_rules._discard):
        assert cached.cache_info().maxsize == 1024
    card = parse_card("7H.1")
    assert portfolio_rules._sell_one(2, card) == Offer(2, Side(cards=(card,)), Side(money=1))
    assert portfolio_rules._discard(card) == Discard(card)


def test_a_view_sets_every_field_its_class_has_as_its_init_would():
    """view() sets a PortfolioView's fields at once, without its __init__: every field is set,
    each as the class's own __init__ sets it from the same values, plain or not."""
    from game_helpers import seeded_positions
    from rules.portfolio.state import PortfolioView

    names = {f.name for f in dataclasses.fields(PortfolioView)}
    checked = 0
    for state, seat, view, _legal in seeded_positions(SPEC, range(2), 40, lambda seed: 2 + seed):
        for made in (view, SPEC.view(state, seat, plain=True), SPEC.view(state, None)):
            assert vars(made).keys() == names
            again = PortfolioView(**vars(made))
            assert vars(again) == vars(made) and again == made
            checked += 1
    assert checked > 100


def test_the_portfolios_views_are_kept_in_a_bounded_memo_that_an_equal_portfolio_shares():
    """Each portfolio's view (PortfolioInfo) is made once while it is unchanged and kept in a
    memo found by its cards' ids, cleared past 4,096 entries; a portfolio of other but equal
    card objects gets an equal view."""
    from rules.portfolio import rules as portfolio_rules

    data = {"names": ["A", "B"], "hands": [["2C"], ["3C"]], "money": [6, 6], "stock": ["9S"], "discard": [],
            "portfolios": [{"pid": "P1", "owner": 0, "cards": ["2H", "3H", "4H"]},
                           {"pid": "P2", "owner": 1, "cards": ["7D", "8D", "9D", "10D"], "high_cap": "10H"}]}
    first = SPEC.view(SPEC.from_json(data), 0).portfolios
    again = SPEC.view(SPEC.from_json(data), 0).portfolios  # other card objects, equal
    assert again == first and [i.value for i in first] == [2, 6] and first[1].acquire_card is None
    memo = portfolio_rules._INFOS
    memo.update({("filler", i): None for i in range(portfolio_rules.INFOS_KEPT)})
    assert SPEC.view(SPEC.from_json(data), 0).portfolios == first
    assert len(memo) <= 2  # cleared when full: the last portfolio's view stays
    memo.clear()


def test_a_states_portfolio_views_are_kept_until_a_command_changes_a_portfolio():
    """The portfolios' views are kept with the state (rules.infos_of) and shared by its copies:
    a command that leaves the portfolios as they were keeps them; one that makes, extends,
    neutralises or acquires a portfolio makes them anew, and every view and legal list shows
    the table as it is; the invariants check what is kept."""
    from rules.portfolio.rules import infos_of

    def kept_wrong(state):
        return "the portfolios kept for the views are not the table's" in SPEC.invariants(state)

    state = table(["5S 4S 3S 6S 2D 9C 10H", "9D 6D", "2C"], money=[30, 6, 6],
                  portfolios=[pf("P1", 1, "3D 4D 5D"), pf("P2", 2, "6H 7H 8H 9H")])
    kept = SPEC.view(state, 0).portfolios
    assert infos_of(state) is kept and infos_of(SPEC.copy(state)) is kept
    runs = {"P1": "3D 4D 5D", "P2": "6H 7H 8H 9H"}
    for text, pid, cards in [("make 3S 4S 5S", "P3", "3S 4S 5S"), ("extend P3 6S", "P3", "3S 4S 5S 6S"),
                             ("neutralise P1 2D", "P1", None), ("acquire P2 10H", "P2", "6H 7H 8H 9H 10H")]:
        if cards is None:
            del runs[pid]
        else:
            runs[pid] = cards
        play(state, text)
        assert {i.pid: " ".join(c.key for c in i.cards) for i in SPEC.view(state, 0).portfolios} == runs
        assert SPEC.legal(state, 0) == SPEC.legal(SPEC.from_json(SPEC.to_json(state)), 0)
        assert infos_of(state)[-1].owner == 0 and not kept_wrong(state)
    kept = infos_of(state)
    play(state, "discard 9C")  # the turn passes: the portfolios are as they were
    assert infos_of(state) is kept and SPEC.view(state, 1).portfolios is kept
    state.__dict__["_infos"] = kept[1:]  # what no command does: the invariants tell
    assert kept_wrong(state)


def test_an_act_phase_legal_list_answers_in_as_its_whole_list_for_every_near_command():
    """``in`` on the act phase's list (answered without making it: _Actions.contains) says what
    the whole list says, for every command a bot could make of a hand card and a portfolio:
    each copy of each card, own portfolios and rivals', either end, with money and without."""
    from game_helpers import seeded_positions
    from rules.core import build_deck
    from rules.portfolio.bot import PortfolioBot

    asked, found = 0, set()
    for state, seat, _view, legal in seeded_positions(SPEC, range(4), 300, lambda seed: 2 + seed % 4,
                                                      bot=PortfolioBot()):
        if state.phase != "act":
            continue
        whole = list(SPEC.legal(state, seat))
        hand_faces = {card.face for card in state.hands[seat]}
        cards = [c for c in build_deck(state.decks) if c.face in hand_faces] + [parse_card("AS.2")]
        near = [Discard(card) for card in cards]
        for p in state.portfolios:
            for card in cards:
                near += [Extend(p.pid, card), Neutralise(p.pid, card), Acquire(p.pid, card),
                         *(Cap(p.pid, end, card) for end in ("low", "high", "middle"))]
        near += [Extend("P999", card) for card in cards[:2]]
        for command in near:
            assert (command in legal) == (command in whole), command
            if command in whole:
                found.add(type(command))
        asked += 1
    assert asked > 100 and found == {Discard, Extend, Cap, Neutralise, Acquire}


def test_an_act_phase_list_read_through_is_its_whole_list_kept_for_the_same_table_at_most_read_kept():
    """Read through (the expert's tree does), the act phase's list is the list read by index,
    made once for a table (the same hand, portfolios and money: a copy of the state) and kept,
    at most READ_KEPT of them; a table of other but equal cards gets an equal list."""
    from game_helpers import seeded_positions
    from rules.portfolio import rules as portfolio_rules

    kept = portfolio_rules._READ
    kept.clear()
    read = 0
    for state, seat, _view, legal in seeded_positions(SPEC, range(3), 120, lambda seed: 2 + seed):
        if state.phase != "act":
            continue
        through = list(iter(legal))
        assert through == [legal[i] for i in range(len(legal))] and list(iter(legal)) == through
        again = list(iter(SPEC.legal(SPEC.copy(state), seat)))  # the same table: the list kept
        assert again == through and all(a is b for a, b in zip(again, through))
        equal = SPEC.from_json(SPEC.to_json(state))  # other card objects
        assert list(iter(SPEC.legal(equal, seat))) == through
        assert len(kept) <= portfolio_rules.READ_KEPT
        read += 1
    assert read > 30 and portfolio_rules.READ_KEPT == 64
    kept.update({("filler", i): None for i in range(portfolio_rules.READ_KEPT)})
    state = table(["5S 4S 3S 9C", "9D", "2C"])
    assert Discard(parse_card("9C")) in list(iter(SPEC.legal(state, 0))) and len(kept) == 1  # cleared when full
    kept.clear()


def test_a_draws_costs_are_the_views_and_kept_for_at_most_256_incomes():
    """The draw costs a view lists are made once per income (rules._draw_costs), for at most
    256 incomes: a position written by hand may give any income."""
    from rules.portfolio import rules as portfolio_rules

    assert SPEC.view(table(["5H", "8C", "3D"], phase="draw", turn_income=9), 0).draw_costs == (0, 2, 5, 9)
    for income in range(300):
        assert portfolio_rules._draw_costs(income) == tuple(draw_cost(k) for k in range(1, max_draw(income) + 1))
    assert portfolio_rules._draw_costs.cache_info().currsize == 256


def test_an_act_phase_legal_list_is_true_and_answers_in_without_being_made():
    """The act phase's legal list (a snapshot, rules.core.listing's Deferred) is true and
    answers ``in`` without making its commands: the bot asks both at every command of the
    expert's playouts; reading it whole makes it once."""
    from game_helpers import seeded_positions

    asked = 0
    for state, seat, _view, legal in seeded_positions(SPEC, range(2), 80, lambda seed: 2 + seed):
        if state.phase != "act":
            continue
        assert legal
        assert (End() in legal) == (not state.hands[seat]) and Discard(parse_card("AS.2")) not in legal
        assert legal._made is None  # neither made it
        whole = list(legal)
        assert legal._made is not None and list(legal) == whole and all(command in legal for command in whole)
        asked += 1
    assert asked > 20


def test_a_listed_command_applied_unchecked_does_what_the_checked_apply_does():
    """``apply(..., listed=True)`` (the expert's search, for commands ``legal`` lists) skips
    the check of the kinds whose check hands nothing on: for every command of every legal list
    of seeded games it leaves the same position and tells the same events as ``apply``, and a
    command legal does not list is still refused without ``listed``."""
    from game_helpers import seeded_positions
    from rules.portfolio.rules import _SETTLED_BY_LEGAL

    kinds = set()
    for state, seat, _view, legal in seeded_positions(SPEC, range(6), 120, lambda seed: 2 + seed % 3,
                                                        bot=SPEC.bots["bot"]):
        for command in list(legal):
            checked, unchecked = SPEC.copy(state), SPEC.copy(state)
            events = SPEC.apply(checked, seat, command)
            assert SPEC.apply(unchecked, seat, command, listed=True) == events
            assert SPEC.to_json(unchecked) == SPEC.to_json(checked)
            kinds.add(type(command))
    assert _SETTLED_BY_LEGAL - {End} <= kinds  # every kind applied unchecked was met (End: seldom)
    state = table(["2S 3S 4S 9D", "5C", "6C"])
    with pytest.raises(IllegalCommand):
        SPEC.apply(state, 0, Discard(parse_card("KH")))  # not in the hand: apply checks as ever


def test_an_act_phase_legal_list_answers_in_as_its_made_list_does():
    """Unmade, the act phase's list answers ``in`` by its own reckoning (``_Actions.contains``);
    the expert's search then applies the bot's choice unchecked (``listed``), so a command it
    wrongly said was there would corrupt a playout. Every near-legal variant of the moves on
    the table (each hand card, every copy, discarded and played on every portfolio at either
    end) is in the unmade list exactly when it is in the made one."""
    from game_helpers import seeded_positions

    met = set()
    for state, seat, _view, legal in seeded_positions(SPEC, range(4), 120, lambda seed: 2 + seed % 3,
                                                        bot=SPEC.bots["bot"]):
        if state.phase != "act":
            continue
        made = list(legal)
        hand = state.hands[seat]
        cards = [*hand, *(dataclasses.replace(card, copy=copy) for card in hand for copy in range(3)
                          if copy != card.copy)]  # (every copy of a face in play, held or not)
        variants = [End(), *map(Discard, cards)]
        for portfolio in state.portfolios:
            for card in cards:
                variants += [Extend(portfolio.pid, card), Neutralise(portfolio.pid, card),
                             Acquire(portfolio.pid, card), Cap(portfolio.pid, "low", card),
                             Cap(portfolio.pid, "high", card)]
        for command in variants:
            unmade = SPEC.legal(state, seat)
            assert (command in unmade) == (command in made), command
            met.add((type(command), command in made))
    assert {(kind, True) for kind in (Discard, Extend, Neutralise, Cap)} <= met
