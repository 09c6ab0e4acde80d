"""Abundance's bots: the strong bot's strength against random play and the greedy bot, and that
each of its habits is real; the greedy bot does what the issue says.

The issue asks for 300 seeded matches against each, seats alternated. Against random play the
test plays all 300 (about 12 s on the development machine); against the greedy bot, whose
matches are longer, it plays 100 (about 6 s; the full 300 take 17 s: 297 wins, measured with
``rules.core.simulate`` for the report)."""

from __future__ import annotations

import json
import random

import pytest

from rules.abundance import SPEC
from rules.abundance.bot import AbundanceBot, GreedyBot
from rules.abundance.commands import Accept, Bid, ChoosePile, Decline, Offer, Pass, Ready, SealedBid
from rules.abundance.market import expected_pays, pays
from rules.abundance.state import TRINKET_CARDS
from rules.core import Match, Seat, parse_card
from rules.core.offers import Side
from rules.core.simulate import simulate

C = parse_card
BOT, GREEDY = AbundanceBot(), GreedyBot()
NAMES = ["Ann", "Bob"]
ANN, BOB = 0, 1
DECK = [card.key for card in TRINKET_CARDS]
ROUND_ONE = "2H 3H 2S 3S 4S 2C 3C 4C 2D 3D 4D 5D".split()
RANDOM_GAMES, GREEDY_GAMES = 300, 100


def position(**fields):
    return SPEC.from_json(json.loads(json.dumps({"names": NAMES, **fields})))


def choose(bot, state, seat):
    return bot.choose(SPEC.view(state, seat), SPEC.legal(state, seat), random.Random(0))


def test_the_bots_are_registered():
    assert SPEC.best_bot == "bot" and isinstance(SPEC.bots["bot"], AbundanceBot)
    assert isinstance(SPEC.bots["greedy"], GreedyBot)


def test_bot_wins_nine_matches_in_ten_against_random_play():
    summary = simulate(SPEC, ["bot", "random"], RANDOM_GAMES, seed=0)
    assert summary.games == RANDOM_GAMES and summary.shares[0] >= 0.90, summary.shares


def test_bot_beats_the_greedy_bot_in_six_matches_of_ten():
    summary = simulate(SPEC, ["bot", "greedy"], GREEDY_GAMES, seed=1000)
    assert summary.shares[0] >= 0.60, summary.shares


# -- what a trinket is worth -----------------------------------------------------------------------

def test_expected_pays_are_the_market_when_nothing_is_to_come():
    assert expected_pays((3, 2, 4, 3), 1, 0) == pays((3, 2, 4, 3), 1)
    # every outcome pays the three values once, so the expectations add up to them
    for counts, round_number, to_come in [((0, 0, 1, 0), 1, 11), ((5, 3, 4, 2), 2, 6), ((9, 8, 7, 12), 3, 4)]:
        assert sum(expected_pays(counts, round_number, to_come)) == pytest.approx(sum(pays(counts, round_number)))


def test_expected_pays_look_at_the_cards_still_to_come():
    # round 4 with one card left: every unseen card but one is gone, so the last is known
    counts = (12, 12, 11, 12)  # the only unseen card is a diamond
    assert expected_pays(counts, 4, 1) == pays((12, 12, 12, 12), 4)
    # early in a round the rarest suit now is far from sure to stay the rarest
    assert expected_pays((0, 1, 1, 1), 1, 9)[0] < 20


# -- bidding -----------------------------------------------------------------------------------------

def test_the_opener_passes_first_for_a_free_card_if_the_other_passes_too():
    state = position(phase="auction", card="7H")
    assert choose(BOT, state, ANN) == Pass()


def last_spade(trinkets):
    """Round 4's last auction: K♠. Every other card is up, so spades are sure to be the rarest
    (all suits at 12: the suit order decides) and to pay 160."""
    held = {key for cards in trinkets for key in cards}
    sold = [key for key in DECK if key not in held and key != "KS"]
    state = position(phase="auction", round=4, card="KS", sold=sold, trinkets=trinkets,
                     chosen=[1, 2, 3, 4], money=[1000, 1000])
    SPEC.apply(state, BOB, Pass())  # Bob (the dealer) opens round 4 and passes
    return state


def highest_bid(state, seat=ANN, step=10):
    """The standing bid (in steps) at which the bot stops raising."""
    high = 0
    while isinstance(choose(BOT, state, seat), Bid):
        high += step
        state.auction.high, state.auction.leader = high, 1 - seat
    return high


def test_bot_bids_for_what_a_card_adds_to_its_corner_or_keeps_from_the_others():
    assert SPEC.view(last_spade([[], []]), ANN).pays == (160, 32, 16, 0)
    assert highest_bid(last_spade([[], []])) == 160  # a plain spade: worth its 160
    # the king makes Ann's corner (2×160 → 9×160: +1,120), or would make Bob's: either way it is
    # worth (1,120 + 160) / 2 against the other player
    assert highest_bid(last_spade([["2S", "3S"], []])) == 640
    assert highest_bid(last_spade([[], ["2S", "3S"]])) == 640


def test_bot_does_not_bid_for_a_worthless_card():
    # round 4, the last card is a club: clubs are the most abundant suit and pay nothing
    state = position(phase="auction", round=4, card="KC", sold=DECK[:36],
                     trinkets=[DECK[36:42], DECK[42:47]], chosen=[1, 2, 3, 4])
    assert state.piles[3] == []
    SPEC.apply(state, BOB, Bid(1))
    assert choose(BOT, state, ANN) == Pass()


def test_sealed_bids_are_shaded_and_within_money():
    state = position(phase="sealed", round=2, card="7H", sold=ROUND_ONE, money=[3, 50])
    bid = choose(BOT, state, ANN)
    assert isinstance(bid, SealedBid) and 0 <= bid.amount <= 3
    rich = position(phase="sealed", round=2, card="7H", sold=ROUND_ONE, money=[500, 500])
    amount = choose(BOT, rich, ANN).amount
    value = SPEC.view(rich, ANN).pays[1]
    assert 0 < amount < 2 * value


def test_one_bid_opener_bids_and_the_dealer_outbids_only_below_the_cards_worth():
    state = position(phase="auction", round=3, card="7H", sold=DECK[24:], money=[200, 200])
    first = choose(BOT, state, ANN)
    assert isinstance(first, Bid) and first.amount > 0
    SPEC.apply(state, ANN, first)
    answer = choose(BOT, state, BOB)
    assert answer == Pass() or (isinstance(answer, Bid) and answer.amount == first.amount + 1)


# -- trading -----------------------------------------------------------------------------------------

def corner_window(**fields):
    """Round 4's trade window before the last card (5♠): spades will pay 160. Ann holds two
    spades, Bob one and a heart."""
    held = {"2S", "3S", "4S", "5H", "5S"}
    return position(phase="trade", round=4, sold=[key for key in DECK if key not in held],
                    trinkets=[["2S", "3S"], ["4S", "5H"]], chosen=[1, 2, 3, 4], money=[400, 100], **fields)


def test_bot_offers_to_buy_the_trinket_that_completes_its_corner():
    state = corner_window()
    offer = choose(BOT, state, ANN)
    assert isinstance(offer, Offer) and offer.take == Side(cards=(C("4S"),))
    assert 160 < offer.give.money <= 400  # more than the spade fetches Bob, less than it makes Ann
    SPEC.check(state, ANN, offer)


def test_bot_offers_to_sell_the_trinket_that_completes_the_others_corner_for_most_of_its_worth():
    held = {"2S", "3S", "4S", "5H", "5S"}  # corner_window's, Ann richer
    state = position(phase="trade", round=4, sold=[key for key in DECK if key not in held],
                     trinkets=[["2S", "3S"], ["4S", "5H"]], chosen=[1, 2, 3, 4], money=[1000, 100])
    offer = choose(BOT, state, BOB)  # Ann's corner makes her 1,120 more; the spade fetches Bob 160
    assert offer == Offer(None, Side(cards=(C("4S"),)), Side(money=880))
    SPEC.check(state, BOB, offer)


def test_bot_weighs_a_suits_offer_once_a_hand(monkeypatch):
    """An offer's price and worth depend on the card's suit alone (and a later card must be
    worth more to win): the bot weighs the first card of each suit in each hand, no other."""
    from rules.abundance import bot as bot_module

    weighed = []
    gain = bot_module._Market.gain
    monkeypatch.setattr(bot_module._Market, "gain", lambda market, seat, card: weighed.append(card) or gain(market, seat, card))
    held = {"2S", "3S", "4S", "6S", "5H", "7H", "5S"}
    state = position(phase="trade", round=4, sold=[key for key in DECK if key not in held],
                     trinkets=[["2S", "3S", "5H"], ["4S", "6S", "7H"]], chosen=[1, 2, 3, 4], money=[400, 100])
    offer = choose(BOT, state, ANN)
    assert isinstance(offer, Offer) and offer.take == Side(cards=(C("4S"),))  # the first spade of two
    assert weighed == [C("4S"), C("7H"), C("2S"), C("5H")]


def test_bot_refuses_an_offer_that_helps_the_other_player_more():
    state = corner_window()
    SPEC.apply(state, ANN, Offer(None, Side(money=170), Side(cards=(C("4S"),))))
    assert choose(BOT, state, BOB) == Decline()  # it would hand Ann a corner worth 1,120 more


def test_bot_accepts_an_offer_that_leaves_it_better_off():
    state = corner_window()
    SPEC.apply(state, ANN, Offer(None, Side(money=400), Side(cards=(C("5H"),))))
    assert choose(BOT, state, BOB) == Accept()


def test_bot_says_ready_when_no_trade_is_worth_offering():
    state = position(phase="trade", trinkets=[["2S"], ["3H"]])
    assert choose(BOT, state, ANN) == Ready()
    SPEC.apply(state, ANN, Offer(None, Side(money=1)))
    SPEC.apply(state, BOB, Decline())
    assert choose(BOT, state, ANN) == Ready()  # one offer a window


# -- the greedy bot ------------------------------------------------------------------------------------

def test_greedy_bids_up_to_the_suits_value_under_the_current_rarity_order():
    state = position(phase="auction", card="7H", trinkets=[["2S", "3S", "4S"], []])
    view = SPEC.view(state, ANN)
    assert view.pays[1] == 2  # ♦ and ♣ not yet up: hearts are third rarest
    assert choose(GREEDY, state, ANN) == Bid(1)
    SPEC.apply(state, ANN, Bid(1))
    assert choose(GREEDY, state, BOB) == Bid(2)
    SPEC.apply(state, BOB, Bid(2))
    assert choose(GREEDY, state, ANN) == Pass()


def test_greedy_never_trades():
    state = position(phase="trade", trinkets=[["2S"], ["3H"]])
    assert choose(GREEDY, state, ANN) == Ready()
    SPEC.apply(state, ANN, Offer(None, Side(money=50)))
    assert choose(GREEDY, state, BOB) == Decline()


def test_greedy_sealed_and_one_bid():
    state = position(phase="sealed", round=2, card="7H", sold=ROUND_ONE, money=[5, 50])
    assert SPEC.view(state, ANN).pays[1] == 8  # ♠ ♥ ♣ 3 each (with 7♥), ♦ 4: hearts second
    assert choose(GREEDY, state, ANN) == SealedBid(5)
    assert choose(GREEDY, position(phase="sealed", round=2, card="7H", sold=ROUND_ONE), BOB) == SealedBid(8)
    one = position(phase="auction", round=3, card="7H", sold=DECK[24:], money=[200, 200])
    assert SPEC.view(one, ANN).pays[1] == 16
    assert choose(GREEDY, one, ANN) == Bid(16)
    assert choose(GREEDY, position(), ANN) == ChoosePile(1)


# -- playing -----------------------------------------------------------------------------------------

def test_bots_play_only_legal_commands():
    for seed in range(6):
        match = Match(SPEC, [Seat("Ann", "bot"), Seat("Bob", "bot" if seed % 2 else "greedy")], seed=seed)
        while not match.over:
            for seat in sorted(match.awaiting):
                command = match.bot_move(seat)
                assert command in match.legal(seat) or isinstance(command, Offer)
                match.submit(seat, command)
                break
