"""Card Stock Market's rules, one test (or more) per numbered rule of the English reading and per
ruling, with the rule text's own examples; every refusal ``check`` makes is submitted once.

Positions are written as JSON (``SPEC.from_json``) by the ``position`` helper; commands are
written in the game's notation and go through ``check`` and ``apply`` like a player's."""

from __future__ import annotations

import collections
import copy
import json
import random
import re

import pytest

import rules
from rules.core import (
    Card, IllegalCommand, Match, NotationError, RulesError, Seat, Suit, build_deck, get_bot, parse_card, sort_cards,
)
from rules.core.words import Money, Player
from rules.stock_market import (
    SPEC, Buy, Discard, End, Lay, Sell, card_uses, lay_effect, lay_range, range_of, worth,
)
from rules.stock_market.events import (
    Bankruptcy, Bought, Discarded, Drew, GameOver, JokerDrawn, Levied, PriceChanged, Sold,
    StockRebuilt, TurnEnded,
)
from rules.stock_market.rules import discard_choices, held_shares, status_sentence
from rules.stock_market.state import ALL_CARDS, COMPANIES, is_court, shares

from game_helpers import seat_helpers

_seat = seat_helpers(SPEC)
to_move, check, legal, parse, apply = _seat.to_move, _seat.check, _seat.legal, _seat.parse, _seat.apply

C = parse_card
NAMES = ("Ann", "Bob")
PILES = {"D": ["8D"], "S": ["5S"], "H": ["6H"], "C": ["3C"]}
D, S, H, CL = Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS, Suit.CLUBS


def position(hands, *, names=NAMES, piles=None, money=None, holdings=None, stock=None, discard="",
             **extra):
    """A hand-written position. Hands, holdings, stock (top first) and discard are text; the
    stock defaults to every other card but the jokers, in deck order."""
    piles = {k: list(v) for k, v in (piles or PILES).items()}
    hands = [h.split() for h in hands]
    holdings = [h.split() for h in (holdings or [""] * len(names))]
    discard = discard.split()
    used = {k for group in (*hands, *holdings, discard, *piles.values()) for k in group}
    if stock is None:
        stock_keys = [c.key for c in ALL_CARDS if not c.is_joker and c.key not in used]
    else:
        stock_keys = stock.split()
    data = {"names": list(names), "piles": piles, "hands": hands, "holdings": holdings,
            "money": list(money or [200] * len(names)), "stock": stock_keys, "discard": discard,
            **extra}
    return SPEC.from_json(json.loads(json.dumps(data)))


def play(state, text):
    """Parse ``text`` for the awaited player, check and apply it; return the events."""
    return apply(state, parse(text, state))


def refused(state, command, words):
    """``command`` (text or a command) is refused with a message containing ``words`` and
    changes nothing."""
    before = SPEC.to_json(state)
    if isinstance(command, str):
        command = parse(command, state)
    with pytest.raises(IllegalCommand, match=re.escape(words)):
        apply(state, command)
    assert SPEC.to_json(state) == before
    assert command not in legal(state)


def keys(cards):
    return [card.key for card in cards]


def price(state, suit):
    return state.prices[suit]


# -- set-up (rules 1-6 and the set-up rulings) --------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_price_cards_are_found_by_turning_up_one_deck(seed):
    """Rule 4: one deck turned up card by card; the first A-10 of each suit is its price card,
    court cards and later cards of a suit already found are set aside."""
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, seed)
    turned = state.turned_up
    assert all(card.copy == 0 and not card.is_joker for card in turned)
    assert len(set(turned)) == len(turned)
    found = {}
    for card in turned:
        if card.rank <= 10 and card.suit not in found:
            found[card.suit] = card
    assert len(found) == 4 and turned[-1] in found.values()  # the draw stops at the fourth
    for suit in COMPANIES:
        assert state.piles[suit] == [found[suit]]  # a price card, not laid on anything
        assert state.prices[suit] == found[suit].rank  # rule 5: the card is the price
        assert state.history[suit] == [(0, found[suit].rank)]
    assert SPEC.view(state, None).turned_up == tuple(turned)


def test_the_set_up_draw_sets_courts_and_repeats_aside():
    seen_court = seen_repeat = False
    for seed in range(40):
        turned = SPEC.setup(["Ann", "Bob"], None, seed).turned_up
        suits = set()
        for card in turned:
            seen_court |= is_court(card)
            seen_repeat |= card.rank <= 10 and card.suit in suits
            if card.rank <= 10:
                suits.add(card.suit)
    assert seen_court and seen_repeat


@pytest.mark.parametrize("players", range(2, 7))
def test_everything_but_the_price_cards_is_shuffled_and_dealt_eight_each(players):
    """Rule 6 and the set-up ruling: both decks without jokers, less the four price cards."""
    state = SPEC.setup([f"P{i}" for i in range(players)], None, seed=players)
    every = SPEC.conserved(state)["cards"]
    assert len(every) == 106 and len(set(every)) == 106  # two decks and two jokers, each unique
    assert [len(hand) for hand in state.hands] == [8] * players
    assert len(state.stock) == 100 - 8 * players
    assert keys(state.aside) == ["JK", "JK.1"]  # the jokers only come in with a new stock
    assert not any(card.is_joker for card in state.stock + [c for h in state.hands for c in h])
    price_cards = {state.piles[suit][0] for suit in COMPANIES}
    assert not price_cards & set(state.stock + [c for h in state.hands for c in h])
    assert state.holdings == [[]] * players and state.discard == []


@pytest.mark.parametrize("players", range(2, 7))
def test_two_hundred_each_and_a_finite_bank(players):
    """Rule 2 and the bank ruling: $200 each; the bank holds $2,925 less the players' money."""
    state = SPEC.setup([f"P{i}" for i in range(players)], None, seed=1)
    assert state.money == [200] * players and state.debt == [0] * players and SPEC.turn(state) == 1
    assert state.bank == 2925 - 200 * players
    assert SPEC.conserved(state)["money"] == 2925
    assert not SPEC.view(state, 0).bank_unlimited
    assert SPEC.view(SPEC.setup(["A", "B"], {"unlimited-bank": True}, 1), 0).bank_unlimited


def test_the_first_player_is_chosen_at_random_and_play_goes_clockwise():
    firsts = collections.Counter(SPEC.setup(list("ABCD"), None, seed).first for seed in range(40))
    assert sorted(firsts) == [0, 1, 2, 3]
    state = SPEC.setup(list("ABCD"), None, seed=7)
    first = state.current
    assert state.first == first and to_move(state) == first
    order = []
    for _ in range(5):
        order.append(to_move(state))
        play(state, "end")
    assert order == [(first + k) % 4 for k in range(5)]


def test_a_seeds_set_up_never_changes():
    """A saved game is replayed from its seed, so the set-up a seed gives is fixed for good."""
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, 11)
    assert keys(state.turned_up) == ["8S", "10H", "6H", "10S", "KS", "9D", "AS", "3S", "2D", "7S",
                                     "5H", "5S", "9H", "7H", "5C"]
    assert state.prices == {D: 9, S: 8, H: 10, CL: 5} and state.first == 1
    assert keys(state.hands[1]) == ["8H.1", "9D.1", "6H", "2S.1", "7D.1", "6C", "2H", "7S.1"]
    assert keys(state.stock[-3:]) == ["5D.1", "9H", "7H.1"]
    assert state.counter == 3  # set-up drew on chance 0, 1 and 2; the first new stock uses 3
    assert [SPEC.setup(list("ABCD"), None, seed).first for seed in range(8)] == [2, 0, 0, 3, 0, 1, 2, 2]


def test_the_deal_is_two_cards_at_a_time_from_the_first_player():
    from rules.core.cards import build_deck
    from rules.core.piles import shuffled

    state = SPEC.setup(["Ann", "Bob", "Cat"], None, 11)
    price_cards = {state.piles[suit][0] for suit in COMPANIES}
    deck = shuffled([c for c in build_deck(2) if c not in price_cards], 11, 1)
    order = [deck.pop() for _ in range(24)]  # from the top
    for rnd in range(4):
        for step in range(3):
            seat = (state.first + step) % 3
            start = 6 * rnd + 2 * step
            assert state.hands[seat][2 * rnd: 2 * rnd + 2] == order[start: start + 2]


def test_the_spec():
    assert (SPEC.name, SPEC.title, SPEC.players, SPEC.best_bot) == (
        "stock-market", "Card Stock Market", (2, 6), "bot")
    assert {o.key: o.default for o in SPEC.options} == {"unlimited-bank": False, "sell-same-turn": False}
    assert SPEC.setup(["A", "B"], None, 1).options == {"unlimited-bank": False, "sell-same-turn": False}
    assert set(SPEC.bots) == {"bot", "greedy"} and SPEC.partial_legal == ()


def test_setup_is_seeded_and_checks_players_and_options():
    a, b, c = (SPEC.to_json(SPEC.setup(["A", "B", "C"], None, seed)) for seed in (5, 5, 6))
    assert a == b != c
    with pytest.raises(RulesError, match="2–6 players"):
        SPEC.setup(["A"], None, 1)
    with pytest.raises(RulesError, match="2–6 players"):
        SPEC.setup(list("ABCDEFG"), None, 1)
    with pytest.raises(RulesError, match="unknown option"):
        SPEC.setup(["A", "B"], {"jokers": 3}, 1)
    assert SPEC.setup(["A", "B"], {"sell-same-turn": "yes"}, 1).options["sell-same-turn"] is True


# -- a turn (rules 7-9) ---------------------------------------------------------------------------
def test_trade_then_change_prices():
    state = position(["3H 9H 2C", "4D"])
    play(state, "buy 3H")
    play(state, "lay 9H")
    assert state.phases == ["trade", "price"]
    refused(state, "buy 2C", "your trading phase is over")
    refused(state, Sell(C("3H")), "your trading phase is over")


def test_change_prices_then_trade():
    state = position(["3H 9H 2C 5C", "4D"])
    play(state, "lay 9H")
    play(state, "buy 3H")
    assert state.phases == ["price", "trade"] and price(state, H) == 9 and state.money[0] == 200 - 27
    refused(state, "lay 5C", "your price phase is over")


def test_selling_opens_the_trading_phase_too():
    state = position(["9H 2C", "4D"], holdings=["3H", ""])
    play(state, "sell 3H")
    play(state, "lay 9H")
    assert state.phases == ["trade", "price"]
    refused(state, "buy 2C", "your trading phase is over")


def test_either_or_both_phases_may_be_skipped():
    state = position(["3H 9H 2C", "4D"])
    assert legal(state)[-1] == End()
    events = play(state, "end")
    assert isinstance(events[0], TurnEnded) and state.holdings == [[], []] and state.laid == []
    assert to_move(state) == 1 and len(state.hands[0]) == 8


def test_the_hand_is_refilled_to_eight_at_the_end_of_every_turn():
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D"], stock="AS 2S 3S 4S 6S")
    play(state, "buy 3H")
    play(state, "buy 2C")
    play(state, "lay 9H")
    play(state, "lay 7C")
    events = play(state, "end")
    drew = next(e for e in events if isinstance(e, Drew))
    assert keys(drew.cards) == ["AS", "2S", "3S", "4S"] and drew.reveals
    assert len(state.hands[0]) == 8 and keys(state.stock) == ["6S"]
    assert drew.describe(NAMES, 0) == "Ann draws A♠ 2♠ 3♠ 4♠."
    assert drew.describe(NAMES, 1) == "Ann draws 4 cards."
    assert state.phases == [] and state.bought == [] and state.laid == [] and state.turn == 2


def test_a_full_hand_draws_nothing():
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D"])
    events = play(state, "end")
    assert events == [TurnEnded(0)] and len(state.hands[0]) == 8


def test_a_player_who_did_neither_may_discard_one_to_four_cards():
    """Rule 8: discarding ends the turn; the hand is refilled."""
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D"], stock="AS 2S 3S 4S 6S")
    assert Discard((C("2C"), C("3H"))) in legal(state)
    events = play(state, "discard 3H 2C")
    assert isinstance(events[0], Discarded) and keys(events[0].cards) == ["3H", "2C"]
    assert events[0].describe(NAMES) == "Ann discards 3♥ 2♣."
    assert isinstance(events[1], TurnEnded) and isinstance(events[2], Drew)
    assert keys(state.discard) == ["3H", "2C"] and len(state.hands[0]) == 8
    assert to_move(state) == 1


def test_discards_are_listed_once_per_set_of_faces():
    hand = [C(k) for k in "3H 3H.1 4C".split()]
    choices = discard_choices(hand)
    assert [keys(c.cards) for c in choices] == [
        ["3H"], ["4C"], ["3H", "3H.1"], ["3H", "4C"], ["3H", "3H.1", "4C"]]
    eight = [C(k) for k in "AS 2S 3S 4S 5S 6S 7S 8S".split()]
    assert len(discard_choices(eight)) == 8 + 28 + 56 + 70
    assert Discard((C("4C"), C("3H"))) == Discard((C("3H"), C("4C")))  # order does not matter


def test_discard_refusals():
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D"])
    refused(state, Discard(()), "Discard 1 to 4 cards, not 0")
    refused(state, "discard 3H 2C 4C 5C 6C", "Discard 1 to 4 cards, not 5")
    refused(state, Discard((C("3H"), C("3H"))), "3♥ is named twice")
    refused(state, "discard 10H", "You have no 10♥ in your hand")
    play(state, "buy 2C")
    refused(state, "discard 3H", "only a player who did neither may discard")
    state = position(["3H 9H 2C", "4D"])
    play(state, "lay 9H")
    refused(state, "discard 3H", "only a player who did neither may discard")
    assert not any(isinstance(c, Discard) for c in legal(state))



def test_a_discard_of_the_hands_own_cards_is_checked_as_one_read_from_notation():
    """check asks a discard made of the hand's own card objects (as legal lists them) by
    identity: the same card object named twice is still refused, and the cards still leave
    the hand."""
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D"], stock="AS 2S 3S 4S 6S")
    three = next(card for card in state.hands[0] if card.key == "3H")
    refused(state, Discard((three, three)), "3♥ is named twice")
    listed = next(c for c in legal(state) if isinstance(c, Discard) and keys(c.cards) == ["3H"])
    assert listed == Discard((C("3H"),)) and listed.cards[0] is three
    apply(state, listed)
    assert keys(state.discard) == ["3H"] and C("3H") not in state.hands[0]

# -- buying (rules 10-14) ---------------------------------------------------------------------------
@pytest.mark.parametrize("card, count", [("AH", 1), ("7H", 7), ("10H", 10), ("JH", 5), ("QH", 5), ("KH", 5)])
def test_a_card_buys_its_number_of_shares_and_a_court_card_five(card, count):
    state = position([card, "4D"])
    events = play(state, f"buy {card}")
    assert shares(C(card)) == count
    assert events == [Bought(0, C(card), count, 6, 6 * count)]
    assert state.money == [200 - 6 * count, 200] and state.bank == 2925 - 400 + 6 * count
    assert keys(state.holdings[0]) == [card] and state.hands[0] == []  # rule 12: a certificate


def test_the_rule_texts_king_at_six_costs_thirty():
    state = position(["KC", "4D"], piles={**PILES, "C": ["6C"]})
    events = play(state, "buy KC")
    assert events[0].cost == 30 and events[0].describe(NAMES) == "Ann buys 5 shares of ♣ with K♣ at $6: $30."
    assert state.money[0] == 170


def test_a_player_who_cannot_pay_cannot_buy():
    state = position(["10H 9H", "4D"], money=[59, 200])
    refused(state, "buy 10H", "10♥ buys 10 shares of ♥ at $6: $60; you have $59")
    assert Buy(C("9H")) in legal(state)
    state = position(["10H", "4D"], money=[60, 200])
    play(state, "buy 10H")
    assert state.money[0] == 0


@pytest.mark.parametrize("held, money, buys", [
    ("2H", 60, True),  # 2 + 10 shares: the cap, with the last dollar
    ("3H", 60, False),  # 13 shares would pass the cap
    ("2H", 59, False),  # a dollar short
])
def test_legal_lists_a_purchase_exactly_at_the_share_cap_and_the_last_dollar(held, money, buys):
    state = position(["10H 4C", "4D"], money=[money, 200], holdings=[held, ""])
    assert (Buy(C("10H")) in legal(state)) is buys
    if buys:
        play(state, "buy 10H")
        assert held_shares(state.holdings[0], Suit.HEARTS) == 12 and state.money[0] == 0
    else:
        refused(state, "buy 10H", "10♥")


def test_at_most_two_certificates_a_turn():
    state = position(["AH 2H 3H 4C", "4D"])
    play(state, "buy AH")
    play(state, "buy 2H")
    refused(state, "buy 3H", "You have already bought 2 certificates this turn")
    assert not any(isinstance(c, Buy) for c in legal(state))
    play(state, "end")
    play(state, "end")
    play(state, "buy 3H")  # a new turn, a new allowance
    assert keys(state.holdings[0]) == ["AH", "2H", "3H"]


def test_nobody_holds_more_than_twelve_shares_of_one_company():
    state = position(["4H 5H 4C", "4D"], holdings=["8H", ""])
    refused(state, "buy 5H", "You hold 8 shares of ♥; 5♥ would make 13, and nobody may hold more than 12")
    play(state, "buy 4H")
    assert held_shares(state.holdings[0], H) == 12
    play(state, "buy 4C")  # the limit is per company


def test_buying_from_a_hand_card_only():
    state = position(["4H", "4D"])
    refused(state, "buy 5H", "You have no 5♥ in your hand")
    refused(state, Buy("5H"), "'5H' is not a card")


def test_a_bankrupt_company_cannot_be_bought_until_a_number_card_revives_it():
    state = position(["4H 5H", "4D"], piles={**PILES, "H": ["6H", "KH"]}, prices={"H": 0})
    refused(state, "buy 4H", "♥ is bankrupt: its shares cannot be bought until a number card is laid")
    play(state, "lay 5H")
    assert price(state, H) == 5
    play(state, "buy 4H")
    assert state.money[0] == 180


# -- selling (rules 15-17) ----------------------------------------------------------------------------
def test_selling_at_the_current_price_to_the_discard_pile():
    state = position(["4D"] * 1 + ["5C"], holdings=["7H QS", ""], discard="2C")
    events = play(state, "sell 7H")
    assert events == [Sold(0, C("7H"), 7, 6, 42)]
    assert events[0].describe(NAMES) == "Ann sells 7♥ (7 shares of ♥ at $6) for $42."
    assert state.money[0] == 242 and state.bank == 2925 - 400 - 42
    assert keys(state.discard) == ["2C", "7H"] and keys(state.holdings[0]) == ["QS"]


def test_any_number_of_certificates_may_be_sold():
    state = position(["4D", "5C"], holdings=["7H QS AD 2D 3C.1", ""])
    for text in ("sell 7H", "sell QS", "sell AD", "sell 2D", "sell 3C"):
        play(state, text)
    assert state.holdings[0] == [] and state.money[0] == 200 + 42 + 25 + 8 + 16 + 9


def test_buying_and_selling_mix_freely_in_the_trading_phase():
    state = position(["4D 9C", "5C"], holdings=["7H", ""])
    play(state, "buy 4D")
    play(state, "sell 7H")
    play(state, "buy 9C")
    assert state.phases == ["trade"] and keys(state.holdings[0]) == ["4D", "9C"]
    refused(state, "sell 4C", "You hold no 4♣ certificate")


def test_a_certificate_bought_this_turn_cannot_be_sold_this_turn():
    state = position(["3H", "5C"], holdings=["3H.1", ""])
    play(state, "buy 3H")
    # "sell 3H" picks the copy that may be sold
    assert parse("sell 3H", state) == Sell(C("3H.1"))
    refused(state, Sell(C("3H")), "You bought 3♥ this turn; a certificate cannot be sold in the turn it was bought")
    assert [c for c in legal(state) if isinstance(c, Sell)] == [Sell(C("3H.1"))]
    play(state, "end")
    play(state, "end")
    play(state, "sell 3H.1")
    play(state, "sell 3H")  # a turn later it may
    assert state.holdings[0] == []


def test_the_option_allows_selling_in_the_same_turn():
    state = position(["7H", "5C"], options={"sell-same-turn": True})
    play(state, "buy 7H")
    assert Sell(C("7H")) in legal(state)
    play(state, "sell 7H")
    assert state.money[0] == 200 and keys(state.discard) == ["7H"]
    assert keys(state.bought) == ["7H"]  # it still counts as one of the two a turn
    assert SPEC.from_json(SPEC.to_json(state)) == state


# -- changing prices (rules 18-22) ----------------------------------------------------------------------
def test_a_card_is_laid_on_its_own_companys_pile():
    state = position(["9D QS", "5C"])
    events = play(state, "lay 9D")
    assert events == [PriceChanged(0, C("9D"), 8, 9)]
    assert events[0].describe(NAMES) == "Ann lays 9♦ on ♦: $8 → $9."
    assert keys(state.piles[D]) == ["8D", "9D"] and price(state, D) == 9
    assert [price(state, s) for s in (S, H, CL)] == [5, 6, 3]  # the others are untouched
    assert state.history[D] == [(0, 8), (1, 9)]


@pytest.mark.parametrize("card, value", [("JS", 11), ("QS", 12), ("KS", 13)])
def test_a_court_card_is_laid_at_its_value(card, value):
    state = position([card, "5C"], piles={**PILES, "S": ["9S"]})
    play(state, f"lay {card} {value}")
    assert price(state, S) == value


@pytest.mark.parametrize("suit, up, down", [("D", 3, 2), ("S", 4, 3), ("H", 5, 4), ("C", 6, 5)])
def test_each_companys_limits(suit, up, down):
    """Rule 3: ♦ +3/−2, ♠ +4/−3, ♥ +5/−4, ♣ +6/−5, checked from a price of $6 at each edge: a
    card just inside and just outside each limit (a court card at its value above $10, a court
    card as $0 below $1)."""
    company = C(f"A{suit}").suit
    edges = [(6 - down - 1, False), (6 - down, True), (6 + up, True), (6 + up + 1, False)]
    edges = [(value, fits) for value, fits in edges if 0 <= value <= 13]
    cards = [(Card(value or 11, company), value, fits) for value, fits in edges]
    hand = " ".join(card.key for card, _, _ in cards)
    state = position([hand, "5C" if suit != "C" else "5D"], piles={**PILES, suit: [f"6{suit}"]})
    for card, value, fits in cards:
        if fits:
            check(state, Lay(card, value))
            assert Lay(card, value) in legal(state)
        else:
            refused(state, Lay(card, value), "is out of range")
    assert range_of(state, company).text() == f"${6 - down}–${6 + up}"


def test_the_rule_texts_hearts_example():
    """Hearts at $6 accepts 2 ($2) up to J ($11); not A, Q, K, nor J, Q, K as $0."""
    hand = "AH 2H 3H 4H 5H 6H.1 7H 8H"
    state = position([hand, "5C"])
    lays = [(c.card.code, c.price) for c in legal(state) if isinstance(c, Lay)]
    assert lays == [("2H", 2), ("3H", 3), ("4H", 4), ("5H", 5), ("6H", 6), ("7H", 7), ("8H", 8)]
    state = position(["9H 10H JH QH KH AH", "5C"])
    lays = [(c.card.code, c.price) for c in legal(state) if isinstance(c, Lay)]
    assert lays == [("9H", 9), ("10H", 10), ("JH", 11)]
    refused(state, "lay AH", "♥ stands at $6 and may move only from $2 to $11: A♥ ($1) is out of range")
    refused(state, "lay QH 12", "Q♥ ($12) is out of range")
    refused(state, "lay KH 13", "K♥ ($13) is out of range")
    for court in ("JH", "QH", "KH"):
        refused(state, f"lay {court} 0", f"{C(court).symbol} as $0 is out of range")
    assert range_of(state, H).text() == "$2–$11"


def test_laying_the_same_value_as_the_price_is_allowed():
    state = position(["6H.1", "5C"])
    play(state, "lay 6H")
    assert price(state, H) == 6 and keys(state.piles[H]) == ["6H", "6H.1"]


@pytest.mark.parametrize("suit, low, high", [("D", 2, 3), ("S", 3, 4), ("H", 4, 5), ("C", 5, 6)])
def test_a_court_card_as_zero_needs_zero_within_the_down_limit(suit, low, high):
    """The ruling: ♦ at ≤ $2, ♠ ≤ $3, ♥ ≤ $4, ♣ ≤ $5 may be laid a court card as $0."""
    other = "5C" if suit != "C" else "5D"
    state = position([f"K{suit}", other], piles={**PILES, suit: [f"{low}{suit}"]})
    check(state, Lay(C(f"K{suit}"), 0))
    assert range_of(state, C(f"K{suit}").suit).zero
    state = position([f"K{suit}", other], piles={**PILES, suit: [f"{high}{suit}"]})
    refused(state, f"lay K{suit} 0", "as $0 is out of range")


def test_a_number_card_sets_its_number_and_a_court_card_its_value_or_zero():
    state = position(["7H QH", "5C"])
    refused(state, Lay(C("7H"), 8), "7♥ sets the price to $7, not $8; only a court card can be laid as $0")
    refused(state, Lay(C("7H"), 0), "7♥ sets the price to $7, not $0")
    refused(state, Lay(C("QH"), 11), "Q♥ is laid as $12 or as $0, not $11")
    refused(state, Lay(C("7H"), "7"), "A price is a whole number of dollars")
    refused(state, "lay 8H", "You have no 8♥ in your hand")
    refused(state, Lay(None, 7), "None is not a card")


@pytest.mark.parametrize("declared", [11, 0])
def test_on_a_court_price_card_any_number_card_and_no_court_card(declared):
    """Rule 21: whether the court card stands for its value or for $0."""
    piles = {**PILES, "H": ["6H", "JH"]}
    state = position(["AH 10H QH KH", "5C"], piles=piles, prices={"H": declared})
    lays = [(c.card.code, c.price) for c in legal(state) if isinstance(c, Lay)]
    assert lays == [("AH", 1), ("10H", 10)]
    refused(state, "lay QH 12", "The ♥ price card is J♥, a court card: no court card may be laid on it")
    refused(state, "lay KH 0", "no court card may be laid on it")
    assert range_of(state, H).text() == "any number card (A–10), no court card"
    play(state, "lay AH")  # 11 → 1 would be far out of range on a number card
    assert price(state, H) == 1


def test_at_most_two_cards_laid_a_turn_on_one_company_or_two():
    state = position(["7H 8H 9H 4C", "5C"])
    play(state, "lay 7H")
    play(state, "lay 8H")
    assert price(state, H) == 8 and keys(state.laid) == ["7H", "8H"]
    refused(state, "lay 9H", "You have already laid 2 cards on price piles this turn")
    state = position(["7H 4C 5D", "5C"])
    play(state, "lay 7H")
    play(state, "lay 4C")
    refused(state, "lay 5D", "You have already laid 2 cards")


# -- bankruptcy (rules 23-24) --------------------------------------------------------------------------
def test_a_court_card_as_zero_bankrupts_the_company():
    state = position(["KH 2C", "5C", "6D"], names=("Ann", "Bob", "Cat"),
                     piles={**PILES, "H": ["4H"]}, holdings=["3H 5D", "QH 7H.1", "9C"],
                     discard="2S")
    events = play(state, "lay KH 0")
    assert events[0] == PriceChanged(0, C("KH"), 4, 0)
    assert events[0].describe(state.names) == "Ann lays K♥ on ♥: $4 → $0; ♥ goes bankrupt."
    crash = events[1]
    assert crash == Bankruptcy(H, 4, ((0, (C("3H"),), 3, 12), (1, (C("QH"), C("7H.1")), 12, 48)))
    assert crash.describe(state.names) == "Ann loses 3♥ (3 shares, $12) and Bob loses Q♥ 7♥ (12 shares, $48)."
    assert keys(state.holdings[0]) == ["5D"] and state.holdings[1] == [] and keys(state.holdings[2]) == ["9C"]
    assert keys(state.discard) == ["2S", "3H", "QH", "7H.1"]
    assert price(state, H) == 0 and SPEC.view(state, 0).company(H).bankrupt


def test_a_crash_nobody_holds_is_told_too():
    state = position(["KD", "5C"], piles={**PILES, "D": ["2D"]})
    events = play(state, "lay KD 0")
    assert events[1].describe(NAMES) == "Nobody held ♦ certificates."


def test_bankrupt_and_revived_in_one_turn():
    """The ruling: two price cards, the second a number card on the court price card."""
    state = position(["KH 5H 3H", "5C"], piles={**PILES, "H": ["4H"]}, holdings=["", "8H"])
    play(state, "lay KH 0")
    events = play(state, "lay 5H")
    assert events == [PriceChanged(0, C("5H"), 0, 5, revived=True)]
    assert events[0].describe(NAMES) == "Ann lays 5♥ on ♥: $0 → $5; ♥ is back in business."
    play(state, "buy 3H")  # price, then trade: the revived company can be bought
    assert state.money[0] == 185 and state.history[H] == [(0, 4), (1, 0), (1, 5)]


# -- a new stock and the end (rules 25-27) ---------------------------------------------------------------
def short_stock_position(**extra):
    """Ann needs 3 cards; the stock holds 2. Price piles have cards under their tops."""
    piles = {"D": ["8D", "9D"], "S": ["5S"], "H": ["6H", "7H", "QH"], "C": ["3C"]}
    hands = ["2C 3D 4D 5D 6D", "4S 5S.1 6S 7S 8S 9S 10S JS"]
    return position(hands, piles=piles, stock="AC 2S", discard="10C KD", prices={"H": 12}, **extra)


def test_a_short_stock_is_rebuilt_with_the_jokers_and_the_refill_goes_on():
    state = short_stock_position()
    before = SPEC.conserved(state)
    events = play(state, "end")
    rebuilt = next(e for e in events if isinstance(e, StockRebuilt))
    assert rebuilt.reveals and rebuilt.jokers_added == 2
    # the rest of the stock (2), the discard pile (2), the piles under their tops (8D, 6H, 7H), 2 jokers
    assert rebuilt.size == 9 and rebuilt.jokers_in_stock == 2
    assert {k: keys(v) for k, v in state.piles.items()} == {D: ["9D"], S: ["5S"], H: ["QH"], CL: ["3C"]}
    assert state.discard == [] and state.aside == [] and state.rebuilds == 1
    assert price(state, H) == 12  # a rebuild changes no price
    assert state.counter == 1  # the shuffle used the next chance draw
    drawn = [c for e in events if isinstance(e, Drew) for c in e.cards]
    pool = {"AC", "2S", "10C", "KD", "8D", "6H", "7H", "JK", "JK.1"}
    assert set(keys(drawn)) <= pool and set(keys(state.stock + drawn)) | (
        {state.joker.key} if state.joker else set()) == pool
    assert SPEC.conserved(state) == before
    view = SPEC.view(state, 1)
    assert view.rebuilds == 1 and view.aside == ()


def test_the_rebuilt_stock_is_shuffled_from_the_seed():
    stocks = set()
    for seed in range(8):
        state = short_stock_position(seed=seed)
        play(state, "end")
        stocks.add(tuple(keys(state.stock)) + tuple(keys(state.hands[0])))
        again = short_stock_position(seed=seed)
        play(again, "end")
        assert keys(again.stock) == keys(state.stock)
    assert len(stocks) > 1


def test_a_stock_that_holds_just_enough_is_not_rebuilt():
    """The ruling: "not enough" means fewer than the player needs to reach 8."""
    state = position(["2C 3D 4D 5D 6D 7D", "4S"], stock="AC 2S", discard="9C")
    events = play(state, "end")
    assert not any(isinstance(e, StockRebuilt) for e in events)
    assert state.stock == [] and len(state.hands[0]) == 8 and keys(state.discard) == ["9C"]
    assert state.rebuilds == 0 and keys(state.aside) == ["JK", "JK.1"]


def test_a_second_rebuild_adds_no_joker_twice():
    """The ruling: jokers still in the old stock stay in it; there are only two."""
    piles = {"D": ["8D", "9D"], "S": ["5S"], "H": ["6H"], "C": ["3C"]}
    state = position(["2C 3D 4D 5D 6D", "4S"], piles=piles, stock="JK JK.1", discard="10C", rebuilds=1)
    assert keys(state.aside) == [] and SPEC.view(state, 0).jokers_in_stock == 2
    events = play(state, "end")
    rebuilt = next(e for e in events if isinstance(e, StockRebuilt))
    assert rebuilt.jokers_added == 0 and rebuilt.jokers_in_stock == 2 and state.rebuilds == 2
    cards = keys(state.stock) + keys(state.hands[0]) + ([state.joker.key] if state.joker else [])
    assert sorted(k for k in cards if k.startswith("JK")) == ["JK", "JK.1"]


def test_a_joker_drawn_ends_the_game_at_once():
    state = position(["2C 3D 4D 5D 6D", "4S 5S.1"], stock="7C JK 8C 9C", aside=["JK.1"],
                     holdings=["", "7H"], money=[100, 150])
    events = play(state, "end")
    assert [type(e) for e in events] == [TurnEnded, Drew, JokerDrawn, GameOver]
    assert keys(events[1].cards) == ["7C"]  # the drawer draws no further
    assert keys(state.hands[0]) == ["2C", "3D", "4D", "5D", "6D", "7C"]
    assert keys(state.stock) == ["9C", "8C"] and state.joker == C("JK") and state.ended_by == 0
    assert events[2].describe(NAMES, 1) == "Ann draws a joker: the game ends at once."
    assert SPEC.awaiting(state) == frozenset() and legal(state) == [] and SPEC.legal(state, 0) == []
    refused(state, End(), "The game is over")
    outcome = SPEC.outcome(state)
    assert outcome.scores == (100, 192) and outcome.ranks == (2, 1)
    assert outcome.summary == "Bob wins with $192." and events[3].summary == outcome.summary
    assert outcome.breakdown[1] == {"Money": 150, "Certificates": 42, "Worth": 192}
    assert SPEC.view(state, 0).status == "The game is over: Ann drew a joker."
    assert SPEC.conserved(state)["cards"] == sorted(keys(
        state.hands[0] + state.hands[1] + state.stock + state.holdings[1]
        + [state.joker] + state.aside + [c for s in COMPANIES for c in state.piles[s]]))


def test_a_joker_as_the_first_card_ends_the_game_with_nothing_drawn():
    state = position(["2C 3D 4D 5D 6D 7D 9D", "4S"], stock="JK 8C", aside=["JK.1"])
    events = play(state, "end")
    assert [type(e) for e in events] == [TurnEnded, JokerDrawn, GameOver]


def test_the_game_is_not_over_until_a_joker_is_drawn():
    state = position(["2C", "4S"])
    assert SPEC.outcome(state) is None and to_move(state) == 0


def test_final_worth_counts_certificates_at_current_prices_and_equal_totals_draw():
    state = position(["2C", "4S", "6S"], names=("Ann", "Bob", "Cat"), money=[100, 148, 130],
                     holdings=["7H 2D", "AS", "KC"], joker="JK", ended_by=0, aside=["JK.1"])
    # Ann: 100 + 7×6 + 2×8 = 158; Bob: 148 + 1×5 = 153; Cat: 130 + 5×3 = 145
    assert [worth(state, s) for s in range(3)] == [158, 153, 145]
    state.money[1] = 153
    outcome = SPEC.outcome(state)
    assert outcome.ranks == (1, 1, 3) and outcome.winners == (0, 1)
    assert outcome.summary == "Ann and Bob share the win with $158 each."
    assert SPEC.view(state, None).status == "The game is over: Ann drew a joker."


# -- the bank (rule 28 and its rulings) --------------------------------------------------------------------
def test_the_bank_levies_a_hundred_from_everyone_when_it_cannot_pay():
    state = position(["4D", "5C", "6D"], names=("Ann", "Bob", "Cat"), holdings=["10H", "", ""],
                     money=[200, 30, 120], bank=20)
    events = play(state, "sell 10H")
    levy = events[0]
    assert levy == Levied(60, 20, (100, 30, 100), (0, 70, 0))
    assert levy.describe(state.names) == ("The bank holds $20 and cannot pay $60: every player pays it "
                                          "$100 (Bob pays $30 and owes $70).")
    assert events[1] == Sold(0, C("10H"), 10, 6, 60)
    assert state.money == [160, 0, 20] and state.debt == [0, 70, 0]
    assert state.bank == 20 + 230 - 60
    view = SPEC.view(state, 0)
    assert view.debt == (0, 70, 0) and view.rows[1][0] == "$0, owes $70"


def test_debt_is_paid_first_from_the_next_income():
    state = position(["4D", "5C"], holdings=["", "7H 2C"], money=[200, 0], debt=[0, 70], current=1)
    events = play(state, "sell 7H")  # $42, all of it to the debt
    assert events == [Sold(1, C("7H"), 7, 6, 42, 42)]
    assert events[0].describe(NAMES) == "Bob sells 7♥ (7 shares of ♥ at $6) for $42; $42 of it pays off debt."
    assert state.money[1] == 0 and state.debt[1] == 28
    play(state, "sell 2C")  # $6: the rest of the debt is $28
    assert state.money[1] == 0 and state.debt[1] == 22
    state.holdings[1].append(C("QD"))
    play(state, "sell QD")  # $40: $22 to the debt, $18 kept
    assert state.money[1] == 18 and state.debt[1] == 0


def test_the_levy_repeats_until_the_bank_can_pay():
    state = position(["4D", "5C"], holdings=["10C", ""], money=[0, 150], bank=5,
                     piles={**PILES, "C": ["6C", "KC"]}, prices={"C": 13})
    events = play(state, "sell 10C")  # $130: the bank has $5
    levies = [e for e in events if isinstance(e, Levied)]
    assert [(e.bank, e.paid, e.owed) for e in levies] == [(5, (0, 100), (100, 0)), (105, (0, 50), (100, 50))]
    # Ann owed $200 from the two levies; the $130 she is paid goes to it first
    assert state.debt == [70, 50] and state.money == [0, 0] and state.bank == 155


def test_unpaid_debt_is_subtracted_from_worth_at_the_end():
    state = position(["2C", "4S"], money=[0, 50], debt=[80, 0], holdings=["10H", ""],
                     joker="JK", ended_by=1, aside=["JK.1"])
    outcome = SPEC.outcome(state)
    assert outcome.scores == (60 - 80, 50)
    assert outcome.breakdown[0] == {"Money": 0, "Certificates": 60, "Debt": -80, "Worth": -20}
    assert outcome.summary == "Bob wins with $50."


def test_an_unlimited_bank_never_levies():
    state = position(["4D", "5C"], holdings=["10H", ""], bank=20, options={"unlimited-bank": True})
    events = play(state, "sell 10H")
    assert events == [Sold(0, C("10H"), 10, 6, 60)]
    assert state.bank == -40 and state.money == [260, 200]


def test_a_bank_holding_just_the_price_pays_without_a_levy():
    state = position(["4D", "5C"], holdings=["10H", ""], bank=60)
    assert play(state, "sell 10H") == [Sold(0, C("10H"), 10, 6, 60)]
    assert state.bank == 0 and state.money == [260, 200]


def test_a_sale_all_the_money_can_just_pay_goes_through():
    state = position(["4D", "5C"], holdings=["10H", ""], money=[0, 40], bank=20)
    events = play(state, "sell 10H")
    assert isinstance(events[0], Levied) and state.money == [60 - 60, 0]
    assert state.debt == [40, 60]  # Ann's $100 levy owed, $60 paid from the sale; Bob's $60


def test_a_sale_nobody_could_pay_for_is_refused():
    """Only a hand-made position can hold less money in all than one sale."""
    state = position(["4D", "5C"], holdings=["10H", ""], money=[0, 10], bank=20)
    refused(state, "sell 10H", "The bank and the players together hold only $30: nobody can pay $60 for 10♥")


# -- seats, commands, the view ------------------------------------------------------------------------------
def test_only_the_player_whose_turn_it_is_plays():
    state = position(["4D", "5C"])
    with pytest.raises(IllegalCommand, match="It is not Bob's move: the game is waiting for Ann"):
        SPEC.check(state, 1, End())
    with pytest.raises(IllegalCommand, match="a spectator cannot"):
        SPEC.check(state, None, End())
    assert SPEC.legal(state, 1) == []
    refused(state, object(), "is not a Card Stock Market command")


def test_view_hides_the_other_hands_and_the_stock():
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, 8)
    hidden = set(keys(state.stock))
    for seat in range(3):
        view = SPEC.view(state, seat)
        assert list(view.hand) == sorted(state.hands[seat], key=Card.sort_key)
        others = {k for s, hand in enumerate(state.hands) if s != seat for k in keys(hand)}
        text = repr(view)
        leaked = [k for k in hidden | others if re.search(rf"Card.parse\('{re.escape(k)}'\)", text)
                  and C(k) not in state.turned_up]
        assert leaked == []
        assert view.hand_sizes == (8, 8, 8) and view.stock_size == len(state.stock)
    assert SPEC.view(state, None).hand == () and SPEC.view(state, None).zones == {}
    view = SPEC.view(state, 0)
    assert view.columns == ("Money", "♦", "♠", "♥", "♣", "Worth")
    assert view.rows[0] == ("$200", "", "", "", "", "$200")
    assert view.bank == 2325 and view.jokers_in_stock == 0 and len(view.aside) == 2
    assert [c.suit for c in view.companies] == [D, S, H, CL]


def test_a_seat_that_is_not_at_the_table_sees_no_hand():
    state = position(["4D", "5C"])
    assert SPEC.view(state, 2).zones == {} and SPEC.view(state, -1).zones == {}


def test_sample_deals_the_unseen_cards_and_keeps_what_is_known():
    state = SPEC.setup(["Ann", "Bob", "Cat"], None, 2)
    rng = random.Random(2)
    while not state.rebuilds:  # into the game: certificates, price piles, discards, a new stock
        kinds = collections.defaultdict(list)
        for command in legal(state):
            kinds[type(command)].append(command)
        apply(state, rng.choice(kinds[rng.choice(sorted(kinds, key=str))]))
    assert state.rebuilds == 1 and any(state.holdings) and not state.over
    everything = SPEC.conserved(state)["cards"]
    for seat in (0, 1, None):
        view = SPEC.view(state, seat)
        samples = [SPEC.sample(view, random.Random(k)) for k in range(4)]
        for sampled in samples:
            assert SPEC.view(sampled, seat) == view
            assert SPEC.conserved(sampled)["cards"] == everything  # every card once
            assert all(not c.is_joker for hand in sampled.hands for c in hand)
            assert sum(c.is_joker for c in sampled.stock) == view.jokers_in_stock == 2
            if seat is not None:
                assert sampled.hands[seat] == list(view.hand)
        others = {tuple(keys(s.hands[2])) for s in samples}
        stocks = {tuple(keys(s.stock)) for s in samples}
        assert len(others) > 1 and len(stocks) > 1 and len({s.seed for s in samples}) > 1
        jokers_at = {tuple(i for i, c in enumerate(s.stock) if c.is_joker) for s in samples}
        assert len(jokers_at) > 1  # the jokers may be anywhere in the stock


def test_sample_of_a_position_with_an_empty_stock_and_a_drawn_joker():
    state = position(["2C 3D", "4S"], stock="", joker="JK", ended_by=1, aside=[])
    view = SPEC.view(state, 0)
    sampled = SPEC.sample(view, random.Random(1))
    assert sampled.stock == [] and sampled.joker == C("JK") and SPEC.view(sampled, 0) == view


def test_sample_after_a_joker_keeps_the_other_joker_in_the_stock():
    state = SPEC.setup(["Ann", "Bob"], None, 3)
    while not state.over:  # discard four cards a turn until a joker comes up
        apply(state, legal(state)[-2])
    before = SPEC.conserved(state)["cards"]
    view = SPEC.view(state, 0)
    assert view.jokers_in_stock == 1 and view.joker is not None
    for k in range(3):
        sampled = SPEC.sample(view, random.Random(k))
        assert SPEC.conserved(sampled)["cards"] == before and SPEC.view(sampled, 0) == view


@pytest.mark.parametrize("drawn, left", [("JK", "JK.1"), ("JK.1", "JK")])
def test_sample_never_deals_the_drawn_joker_again(drawn, left):
    state = position(["2C 3D", "4S"], stock=f"6C {left} 7C", joker=drawn, ended_by=1, aside=[])
    sampled = SPEC.sample(SPEC.view(state, 0), random.Random(0))
    assert sampled.joker == C(drawn) and C(left) in sampled.stock and C(drawn) not in sampled.stock


def test_sample_of_a_hand_made_position_fills_only_the_stock_it_shows():
    state = position(["2C 3D", "4S 5C"], stock="JK 6C 7C", aside=["JK.1"])  # the rest is nowhere
    view = SPEC.view(state, 0)
    sampled = SPEC.sample(view, random.Random(4))
    assert len(sampled.stock) == 3 and sum(c.is_joker for c in sampled.stock) == 1
    assert len(sampled.hands[1]) == 2 and SPEC.view(sampled, 0) == view


def test_view_shows_the_turns_phase_track_and_price_history():
    state = position(["3H 9H 2C 4C", "4D"])
    play(state, "buy 3H")
    play(state, "lay 9H")
    view = SPEC.view(state, 1)
    assert view.phases == ("trade", "price") and view.bought == (C("3H"),) and view.laid == (C("9H"),)
    company = view.company(H)
    assert company.price == 9 and company.top == C("9H") and company.history == ((0, 6), (1, 9))
    assert (company.up, company.down, company.bankrupt, company.court_on_top) == (5, 4, False, False)
    assert view.rows[0] == ("$182", "", "", "3", "", "$209")
    assert view.prices[H] == 9 and view.piles[H] == (C("6H"), C("9H"))
    assert hash(company) == hash(SPEC.view(state, 0).company(H))  # a value, usable as a key
    assert view.discard_top is None
    play(state, "end")
    play(state, "discard 4D")
    assert SPEC.view(state, 0).discard_top == C("4D")


def test_status_sentences_follow_the_phases():
    state = position(["3H 9H 2C 4C 5C", "4D"])
    assert SPEC.view(state, 1).status == ("Ann's turn: trade and change prices, in either order, or "
                                          "discard 1–4 cards; then end the turn.")
    play(state, "buy 3H")
    assert SPEC.view(state, 1).status == "Ann is trading (bought 1/2); then change prices or end the turn."
    play(state, "lay 9H")
    assert SPEC.view(state, 1).status == "Ann is changing prices (laid 1/2) after trading; then end the turn."
    state = position(["3H 9H 2C 4C 5C", "4D"])
    play(state, "lay 9H")
    assert SPEC.view(state, 1).status == "Ann is changing prices (laid 1/2); then trade or end the turn."
    play(state, "buy 2C")
    assert SPEC.view(state, 1).status == "Ann is trading (bought 1/2) after changing prices; then end the turn."
    state.joker, state.ended_by = C("JK"), None
    assert status_sentence(state) == "The game is over."


def test_after_a_turn_that_drew_no_card_the_status_says_how_the_game_ends():
    """Ending turns without playing is within the rules; two players who only do that never
    reach the joker, so the table says what ends the game and what draws towards it."""
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D 5D 6D 7D 9D 10D AD 2D"])
    play(state, "end")
    said = ("Bob's turn. Ann drew no card: the game ends when a joker is drawn, and only playing or "
            "discarding draws cards.")
    assert SPEC.view(state, 1).status == said and SPEC.view(state, None).status == said
    play(state, "end")
    assert SPEC.view(state, 0).status.startswith("Ann's turn. The last 2 turns drew no card: ")
    play(state, "buy 3H")  # a turn under way: the usual sentence
    assert SPEC.view(state, 0).status == "Ann is trading (bought 1/2); then change prices or end the turn."
    play(state, "end")
    assert SPEC.view(state, 1).status == ("Bob's turn: trade and change prices, in either order, or "
                                          "discard 1–4 cards; then end the turn.")
    play(state, "discard 4D")
    assert SPEC.view(state, 0).status.startswith("Ann's turn: trade")
    # a sale alone draws no card either
    state = position(["3H 9H 2C 4C 5C 6C 7C 8C", "4D 5D 6D 7D 9D 10D AD 2D"], holdings=["7C.1", ""])
    play(state, "sell 7C.1")
    play(state, "end")
    assert SPEC.view(state, 1).status.startswith("Bob's turn. Ann drew no card: ")


def test_card_uses_say_what_each_hand_card_can_do_now():
    state = position(["7H KH 2S", "4D"], names=("Ann", "Bob"), piles={**PILES, "H": ["4H"]},
                     holdings=["3H", "QH 2D"], money=[19, 200])
    uses = card_uses(SPEC.view(state, 0))
    assert uses["7H"] == ["lay: ♥ $4 → $7"]  # 7 shares at $4 = $28 is more than $19
    assert uses["KH"] == ["lay as $0: bankrupts ♥: Ann loses 3 shares ($12) and Bob loses 5 shares ($20)"]
    assert uses["2S"] == ["buy 2 shares of ♠ for $10", "lay: ♠ $5 → $2"]
    assert card_uses(SPEC.view(state, 1)) == {"4D": []}  # not Bob's turn
    assert lay_effect(state, C("KD"), 0) == "bankrupts ♦: Bob loses 2 shares ($16)"
    state.prices[D] = 0
    state.piles[D].append(C("KD"))
    state.holdings[1].remove(C("2D"))
    assert lay_effect(state, C("5D"), 5) == "♦ $0 → $5 (back in business)"
    assert lay_effect(state, C("KD"), 0) == "bankrupts ♦: nobody holds any"


def test_out_of_range_messages_start_at_zero_for_a_low_price():
    state = position(["KD 6D", "5C"], piles={**PILES, "D": ["2D"]})
    refused(state, "lay KD 13", "♦ stands at $2 and may move only from $0 to $5: K♦ ($13) is out of range")
    refused(state, "lay 6D", "6♦ ($6) is out of range")
    assert Lay(C("KD"), 0) in legal(state)


def test_lay_range_in_words():
    court_top = lay_range(12, C("QS"), S)
    assert (court_top.low, court_top.high, court_top.court_values, court_top.zero) == (1, 10, (), False)
    assert lay_range(9, C("9C"), CL).high == 10 and lay_range(7, C("7D"), D).high == 10
    assert lay_range(2, C("2D"), D).high == 5
    assert hash(court_top) == hash(lay_range(12, C("QS"), S))  # a value, usable as a key
    assert lay_range(2, C("2D"), D).text() == "$1–$5 or $0 (a court card: bankruptcy)"
    assert lay_range(9, C("9C"), CL).text() == "$4–$13"
    assert lay_range(9, C("9C"), CL).court_values == (11, 12, 13)
    assert lay_range(8, C("8D"), D).court_values == (11,)
    assert lay_range(7, C("7D"), D).court_values == ()
    assert lay_range(1, C("AS"), S).low == 1 and lay_range(1, C("AS"), S).zero
    assert lay_range(10, C("10D"), D).text() == "$8–$13"
    assert lay_range(3, C("3D"), D).text() == "$1–$6"


# -- notation --------------------------------------------------------------------------------------------
def test_notation_round_trips_every_legal_command():
    state = position(["AH 7H QS KD 2C 2C.1 9D", "4D"], holdings=["5C 5C.1", ""],
                     piles={**PILES, "D": ["2D"]})
    commands = legal(state)
    assert {type(c) for c in commands} == {Buy, Sell, Lay, Discard, End}
    for command in commands:
        assert parse(SPEC.notation.format(command), state) == command
    fmt = SPEC.notation.format
    assert fmt(Buy(C("7H"))) == "buy 7H" and fmt(Sell(C("5C.1"))) == "sell 5C.1"
    assert fmt(Lay(C("9D"), 9)) == "lay 9D" and fmt(Lay(C("QS"), 12)) == "lay QS 12"
    assert fmt(Lay(C("KD"), 0)) == "lay KD 0" and fmt(Lay(C("9D"), 4)) == "lay 9D 4"
    assert fmt(Discard((C("2C.1"), C("AH")))) == "discard AH 2C.1" and fmt(End()) == "end"


@pytest.mark.parametrize("text, expected", [
    ("buy 7h", Buy(C("7H"))),
    ("  BUY   7♥ ", Buy(C("7H"))),
    ("lay QS", Lay(C("QS"), 12)),
    ("lay qs $0", Lay(C("QS"), 0)),
    ("lay 9d 9", Lay(C("9D"), 9)),
    ("lay QS 012", Lay(C("QS"), 12)),
    ("lay QS 100", Lay(C("QS"), 100)),  # read, and refused by check
    ("discard 2c,2c", Discard((C("2C"), C("2C.1")))),
    ("discard 2C.1", Discard((C("2C.1"),))),
    ("discard 2C.1 2C", Discard((C("2C"), C("2C.1")))),
    ("discard 7H.1 7H", Discard((C("7H"), C("7H.1")))),  # 7H.1 is not held: check refuses it
    ("sell 5C", Sell(C("5C"))),
    ("done", End()),
    ("pass", End()),
])
def test_parse_forgives_case_symbols_and_spacing(text, expected):
    state = position(["7H QS 9D 2C 2C.1", "4D"], holdings=["5C", ""])
    assert parse(text, state) == expected


@pytest.mark.parametrize("text, message", [
    ("", "Type a command"),
    ("   ", "Type a command"),
    ("bid 12", "is not a Card Stock Market command"),
    ("buy", "write it as 'buy 7H'"),
    ("buy 7H 8H", "write it as 'buy 7H'"),
    ("sell", "write it as 'sell 7H'"),
    ("lay", "write it as 'lay 9D"),
    ("lay QS 1 2", "write it as 'lay 9D"),
    ("lay QS twelve", "'twelve' is not a price"),
    ("lay QS ¹²", "is not a price"),
    ("lay QS 99999", "is not a price"),
    ("lay QS 1000", "is not a price"),
    ("lay QS -1", "is not a price"),
    ("discard", "name the cards"),
    ("discard , ,", "name the cards"),
    ("end now", "write it as 'end'"),
    ("buy 7Z", "'Z' is not a suit"),
    ("buy ²H", "is not a rank"),
])
def test_notation_errors_say_what_was_wrong(text, message):
    state = position(["7H QS", "4D"])
    with pytest.raises(NotationError, match=re.escape(message)):
        parse(text, state)


def test_notation_refuses_what_is_not_a_command():
    with pytest.raises(NotationError):
        SPEC.notation.format(object())
    with pytest.raises(NotationError):
        SPEC.notation.parse(None, SPEC.view(position(["7H", "4D"]), 0))


def test_a_spectator_can_read_notation_but_holds_nothing():
    state = position(["7H", "4D"], holdings=["5C.1", ""])
    for seat in (None, 2):  # a spectator, a seat not at the table
        view = SPEC.view(state, seat)
        assert SPEC.notation.parse("buy 7H", view) == Buy(C("7H"))
        assert SPEC.notation.parse("sell 5C", view) == Sell(C("5C"))
    assert SPEC.notation.parse("sell 5C", SPEC.view(state, 0)) == Sell(C("5C.1"))  # the copy Ann holds
    assert SPEC.notation.parse("sell 5C", SPEC.view(state, 1)) == Sell(C("5C"))  # Bob holds none


# -- JSON --------------------------------------------------------------------------------------------------
def test_json_round_trip_of_a_game_in_progress():
    state = SPEC.setup(["Ann", "Bob", "Cat"], {"sell-same-turn": True}, 4)
    rng = random.Random(4)
    for _ in range(60):
        if SPEC.outcome(state):
            break
        data = SPEC.to_json(state)
        assert SPEC.from_json(json.loads(json.dumps(data))) == state
        options = [c for c in legal(state) if not isinstance(c, Discard)]
        apply(state, rng.choice(options))
    assert SPEC.from_json(copy.deepcopy(SPEC.to_json(state))) == state


def test_json_defaults_for_a_hand_written_position():
    state = SPEC.from_json({"names": ["Ann", "Bob"], "piles": PILES, "hands": [["7H"], ["4D"]],
                            "money": [150, 175], "stock": ["2C", "4C"]})
    assert state.bank == 2925 - 325 and state.debt == [0, 0] and state.holdings == [[], []]
    assert keys(state.aside) == ["JK", "JK.1"] and state.stock == [C("4C"), C("2C")]  # listed top first
    assert state.history[H] == [(0, 6)] and state.options == {"unlimited-bank": False, "sell-same-turn": False}
    assert state.prices == {D: 8, S: 5, H: 6, CL: 3} and state.turn == 1 and state.current == 0
    assert state.first == 0 and state.seed == 0 and state.counter == 0 and state.rebuilds == 0
    six = SPEC.from_json({"names": list("ABCDEF"), "piles": PILES, "hands": [[]] * 6,
                          "money": [0] * 6, "stock": [], "bank": 0})
    assert six.players == 6 and six.bank == 0  # a finite bank may be empty


@pytest.mark.parametrize("change, message", [
    ({"names": ["Ann"]}, "2-6 players"),
    ({"names": list("ABCDEFG")}, "2-6 players"),
    ({"names": ["Ann", "ann"]}, "a name of their own"),
    ({"piles": {"D": ["8D"], "S": ["5S"], "H": ["6H"]}}, "no C"),
    ({"piles": {**PILES, "X": ["2C"]}}, "'X' is not a company"),
    ({"piles": {**PILES, "C": []}}, "is empty"),
    ({"piles": {**PILES, "C": ["3D"]}}, "not of its suit"),
    ({"prices": {"D": 9}}, "must be $8"),
    ({"piles": {**PILES, "S": ["QS"]}, "prices": {"S": 11}}, "stands for $12 or $0"),
    ({"hands": [["7H"]]}, "one entry for each of the 2 players"),
    ({"hands": [["7H"], ["7H"]]}, "7H is in two places"),
    ({"hands": [["7H.2"], []]}, "not a card of this game"),
    ({"hands": [["JK"], []]}, "a joker is only ever"),
    ({"aside": ["7C"]}, "only the jokers are set aside"),
    ({"joker": "7C"}, "7C is not a joker"),
    ({"holdings": [["7C"], []], "prices": {"C": 0}, "piles": {**PILES, "C": ["3C", "KC"]}}, "is bankrupt"),
    ({"holdings": [["10C", "3C.1"], []]}, "more than 12 shares"),
    ({"money": [-1, 200]}, "money must be a whole number from 0"),
    ({"bank": -5}, "a finite bank cannot hold $-5"),
    ({"phases": ["trade", "trade"]}, "at most once each"),
    ({"phases": ["deal"]}, "at most once each"),
    ({"bought": ["7H"]}, "must be among the current player's holdings"),
    ({"laid": ["AS", "2S", "3S"], "phases": ["price"]}, "at most 2 certificates are bought and 2 cards laid"),
    ({"laid": ["AS"]}, "has begun that phase"),
    ({"history": {"D": []}}, "needs at least its set-up price"),
    ({"history": {"D": [[0]]}}, "[turn, price]"),
    ({"history": {"D": [[0, 14]]}}, "a history price must be a whole number from 0 to 13"),
    ({"options": {"jokers": True}}, "unknown option"),
    ({"current": 2}, "current must be a whole number from 0 to 1"),
])
def test_json_errors_are_told_in_words(change, message):
    data = {"names": ["Ann", "Bob"], "piles": PILES, "hands": [["7H"], ["4D"]], "money": [200, 200],
            "stock": ["2C"], **change}
    with pytest.raises(RulesError, match=re.escape(message)):
        SPEC.from_json(data)


# -- a balanced random playout (random play mostly discards; this one picks a kind of command first)
def balanced_choice(match: Match, rng: random.Random):
    """(seat, command): a random kind of legal command for the awaited seat, then one of that kind."""
    seat = min(match.awaiting)
    kinds = collections.defaultdict(list)
    for command in match.legal(seat):
        kinds[type(command).__name__].append(command)
    return seat, rng.choice(kinds[rng.choice(sorted(kinds))])


def test_balanced_random_playouts_keep_every_invariant():
    for seed in range(6):
        n = 2 + seed % 5
        options = {"unlimited-bank": seed % 3 == 0, "sell-same-turn": seed % 2 == 1}
        match = Match(SPEC, [Seat(f"P{i}") for i in range(n)], options, seed=seed)
        rng = random.Random(seed)
        conserved = SPEC.conserved(match.state)
        seen = collections.Counter()
        while not match.over:
            seat, command = balanced_choice(match, rng)
            text = match.format(command)
            assert match.parse(seat, text) == command
            for event in match.submit(seat, command):
                seen[type(event).__name__] += 1
            state = match.state
            assert SPEC.conserved(state) == conserved
            assert all(m >= 0 for m in state.money) and (state.unlimited or state.bank >= 0)
            assert all(held_shares(held, suit) <= 12 for held in state.holdings for suit in COMPANIES)
            assert len(state.bought) <= 2 and len(state.laid) <= 2
            assert all(len(hand) <= 8 for hand in state.hands)
            assert not any(c.suit is s and state.prices[s] == 0 for held in state.holdings for c in held
                           for s in COMPANIES)
        assert seen["Bought"] and seen["Sold"] and seen["PriceChanged"] and seen["StockRebuilt"]
        assert seen["JokerDrawn"] == 1 and match.outcome is not None



def test_the_results_chart_follows_each_players_worth():
    match = Match(SPEC, [Seat("Ann"), Seat("Bob"), Seat("Cleo")], seed=3)
    bot = get_bot(SPEC, "bot")
    while len(match.history) < 40 or not any(match.state.holdings):
        seat = min(match.awaiting)
        match.submit(seat, bot.choose(match.view(seat), match.legal(seat), random.Random(len(match.history))))
    state = match.state
    expected = tuple(state.money[s] - state.debt[s] + sum(state.prices[card.suit] * shares(card)
                                                         for card in state.holdings[s]) for s in range(3))
    assert SPEC.score_label == "Worth" and SPEC.scores(state) == expected
    assert SPEC.scores(state) != tuple(state.money)  # the certificates count too


# -- names: sentences carry their parts, and no command names a player ---------------------------------------
# names a player might type: the game's command words, numbers, card codes, prefixes of one
# another, quotes, brackets (markup), other scripts, the longest name allowed
HOSTILE = ("buy", "3", "QD", "Bob", "Bob 2", "[/]", "Bob [kid]", "[@click=app.quit]", '"Cleo"',
           "end", "Zoë", "李雷", "Ибрагим", "lay QS 0", "7H", "x" * 40, "'pass'", "sell 7H", "discard",
           "12")


def hostile_names(players: int, seed: int) -> list[str]:
    return random.Random(seed).sample(HOSTILE, players)


def assert_parts_name_the_players(sentence: str, names) -> None:
    """Every player a sentence names is a Player part with that seat's own name."""
    for part in getattr(sentence, "parts", ()):  # a sentence naming nothing may be a plain str
        if isinstance(part, Player):
            assert part.name == names[part.seat], sentence


@pytest.mark.parametrize("players", range(2, 7))
def test_a_game_with_hostile_names_saves_and_loads_to_the_same_state(players):
    names = hostile_names(players, players)
    match = Match(SPEC, [Seat(name) for name in names], seed=players)
    rng = random.Random(players)
    checked = 0
    while not match.over:
        match.submit(*balanced_choice(match, rng))
        if len(match.history) % 25 == 0 or match.over:
            loaded = rules.load_match(json.loads(json.dumps(match.to_json())))
            assert list(loaded.names) == names and loaded.state == match.state
            assert len(loaded.history) == len(match.history)
            checked += 1
    assert checked >= 3
    # every sentence of the game names its players by their Player parts, each as typed
    for played in match.history:
        for event in played.events:
            sentence = event.describe(names, played.seat)
            assert_parts_name_the_players(sentence, names)
            seat = getattr(event, "seat", None)
            if seat is not None:
                assert Player(seat, names[seat]) in sentence.parts, sentence
    status = SPEC.view(match.state, 0).status
    assert Player(match.state.ended_by, names[match.state.ended_by]) in status.parts
    assert_parts_name_the_players(match.outcome.summary, names)
    winner = match.outcome.winners[0]
    assert Player(winner, names[winner]) in match.outcome.summary.parts


def test_events_statuses_refusals_and_results_carry_players_cards_and_money_as_parts():
    names = ("[/]", "Bob [kid]", "3")
    state = position(["KC QS 7H", "4D", "5D"], names=names, holdings=["4S", "7S QS.1", ""],
                     piles={**PILES, "S": ["3S"]})
    status = SPEC.view(state, 1).status
    assert status.startswith("[/]'s turn") and status.parts[0] == Player(0, "[/]")
    bought = play(state, "buy KC")[0].describe(names)
    assert bought == "[/] buys 5 shares of ♣ with K♣ at $3: $15."
    assert bought.parts == (Player(0, "[/]"), " buys 5 shares of ♣ with ", C("KC"), " at ", Money(3), ": ",
                            Money(15), ".")
    assert Player(0, "[/]") in SPEC.view(state, 2).status.parts
    # a refusal's sentence holds the card, which reads in symbols
    with pytest.raises(IllegalCommand) as refusal:
        SPEC.check(state, 0, Sell(C("KC")))
    assert str(refusal.value) == ("You bought K♣ this turn; a certificate cannot be sold in the turn it was "
                                  "bought.")
    assert C("KC") in refusal.value.sentence.parts
    with pytest.raises(IllegalCommand) as refusal:
        SPEC.check(state, 1, End())
    assert {Player(1, "Bob [kid]"), Player(0, "[/]")} <= set(refusal.value.sentence.parts)
    # what a crash would do, and what it did, name the holders and their losses
    effect = lay_effect(SPEC.view(state, 0), C("QS"), 0)
    assert effect == "bankrupts ♠: [/] loses 4 shares ($12) and Bob [kid] loses 12 shares ($36)"
    assert {Player(0, "[/]"), Player(1, "Bob [kid]"), Money(12), Money(36)} <= set(effect.parts)
    assert Player(0, "[/]") in card_uses(SPEC.view(state, 0))["QS"][-1].parts
    laid, crash = play(state, "lay QS 0")
    assert C("QS") in laid.describe(names).parts and Money(0) in laid.describe(names).parts
    lost = crash.describe(names)
    assert lost == "[/] loses 4♠ (4 shares, $12) and Bob [kid] loses 7♠ Q♠ (12 shares, $36)."
    assert [part for part in lost.parts if not isinstance(part, str)] == [
        Player(0, "[/]"), C("4S"), Money(12), Player(1, "Bob [kid]"), C("7S"), C("QS.1"), Money(36)]
    play(state, "end")
    # a levy names each player who could not pay
    state = position(["4D", "5C", "6D"], names=names, holdings=["10H", "", ""], money=[200, 30, 120], bank=20)
    levy = play(state, "sell 10H")[0].describe(names)
    assert {Player(1, "Bob [kid]"), Money(70), Money(100)} <= set(levy.parts)
    # the result names the winner and the worth
    state = position(["2C", "4S", "6S"], names=names, money=[100, 148, 130], joker="JK", ended_by=2,
                     aside=["JK.1"])
    summary = SPEC.outcome(state).summary
    assert summary == "Bob [kid] wins with $148." and summary.parts[0] == Player(1, "Bob [kid]")
    assert Money(148) in summary.parts
    assert SPEC.view(state, 0).status.parts == ("The game is over: ", Player(2, "3"), " drew a joker.")


def test_the_log_shows_a_command_in_the_notations_words_with_its_cards_as_parts():
    display, fmt = SPEC.notation.display, SPEC.notation.format
    names = ["buy", "[/]"]
    assert display(Lay(C("QS.1"), 12), names).parts == ("lay ", C("QS.1"), " 12")
    assert display(Lay(C("QS.1"), 12), names) == "lay Q♠ 12"  # no copy number
    assert display(Lay(C("9D"), 9), names) == "lay 9♦"
    assert display(Discard((C("2C.1"), C("AH"))), names).parts == ("discard ", C("AH"), " ", C("2C.1"))
    assert display(End(), names) == "end" and display(Sell(C("5C.1")), names) == "sell 5♣"
    with pytest.raises(NotationError):
        display(object(), names)
    # every legal command: the words format writes, each card in symbols
    state = position(["AH 7H QS KD 2C 2C.1 9D", "4D"], names=names, holdings=["5C 5C.1", ""],
                     piles={**PILES, "D": ["2D"]})
    for command in legal(state):
        words = fmt(command).split()
        expected = [word if i == 0 or word.isdigit() else parse_card(word).symbol
                    for i, word in enumerate(words)]
        assert display(command, names).split() == expected
        # no command names a player: the names change nothing in what is saved or read
        assert parse(fmt(command), state) == command


def test_discard_choices_are_every_set_of_faces_of_any_hand():
    """The discards made when read are those of every 1–4 cards of the sorted hand, the first
    of each set of faces, in that order, whatever copies the hand holds."""
    from itertools import combinations

    rng = random.Random(5)
    deck = build_deck(1)
    for size in (0, 1, 3, 5, 8, 9):
        for _ in range(20):
            hand = rng.sample(deck, size)
            hand += [Card(c.rank, c.suit, 1) for c in hand[: rng.randrange(size + 1)]]  # pairs
            ordered = sort_cards(hand)
            expected, seen = [], set()
            for count in range(1, min(4, len(ordered)) + 1):
                for chosen in combinations(ordered, count):
                    faces = tuple(card.face for card in chosen)
                    if faces not in seen:
                        seen.add(faces)
                        expected.append(Discard(chosen))
            assert list(discard_choices(hand)) == expected
            assert discard_choices(hand) == expected and len(discard_choices(hand)) == len(expected)
