"""Portfolio's bot: its strength against random play, and that each of its habits is real.

The strength test plays the full 300 seeded 3-player games (bot against two random players):
about 21 s on the development machine (35 s under load), within the ~40 s budget for it."""

from __future__ import annotations

import random
import time

import pytest

from rules.core import parse_card
from rules.core.simulate import play_game, simulate
from rules.portfolio import SPEC
from rules.portfolio.bot import PortfolioBot, horizons
from rules.portfolio.commands import (
    Accept, Acquire, Cap, Decline, Discard, Draw, Extend, Make, Neutralise, Pauper,
)

from game_helpers import seat_helpers

_seat = seat_helpers(SPEC)
to_move, legal, parse, apply = _seat.to_move, _seat.legal, _seat.parse, _seat.apply

GAMES, THRESHOLD = 300, 0.90
BOT = PortfolioBot()
NAMES = ["Ann", "Bob", "Cat"]
LONG_STOCK = " ".join(f"{r}{s}.1" for s in "SHDC" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())


def position(hands, *, money=(6, 6, 6), portfolios=(), stock=LONG_STOCK, discard="KC.1", **extra):
    """A hand-written position; portfolios as (pid, owner, cards, low cap, high cap)."""
    return SPEC.from_json({
        "names": NAMES, "hands": [h.split() for h in hands], "money": list(money),
        "stock": stock.split(), "discard": discard.split(), "phase": extra.pop("phase", "act"),
        "portfolios": [{"pid": pid, "owner": owner, "cards": cards.split(), "low_cap": low,
                        "high_cap": high} for pid, owner, cards, low, high in portfolios],
        **extra})


def choice(state):
    seat = to_move(state)
    return BOT.choose(SPEC.view(state, seat), SPEC.legal(state, seat), random.Random(0))


def test_bot_beats_two_random_players_nine_times_in_ten():
    start = time.perf_counter()
    summary = simulate(SPEC, ["bot", "random", "random"], GAMES, seed=0)
    seconds = time.perf_counter() - start
    print(f"bot share {summary.shares[0]:.3f} over {GAMES} games in {seconds:.1f}s")
    assert summary.shares[0] >= THRESHOLD


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_games_end_with_every_bot_command_legal_as_chosen(players):
    """The bot never needs its fallback: every command it plans is one ``legal`` lists."""
    planned = PlanOnly()
    for seed in range(3):
        state = SPEC.setup([f"B{i}" for i in range(players)], None, seed)
        while SPEC.outcome(state) is None:
            seat = to_move(state)
            view, options = SPEC.view(state, seat), SPEC.legal(state, seat)
            command = BOT.choose(view, options, random.Random(seed))
            assert planned.choose(view, options, random.Random(seed)) == command
            apply(state, command)


class PlanOnly(PortfolioBot):
    """The bot with its fallback made an error: a planned command not in ``legal`` fails."""

    def choose(self, view, legal, rng):
        chosen = super().choose(view, legal + [_Marker()], random.Random(0))
        assert not isinstance(chosen, _Marker)
        return chosen


class _Marker:
    """Never a command the plan makes; the fallback would pick it sometimes."""


def test_the_bot_keeps_a_bounded_number_of_readings_of_the_table_and_chooses_as_a_fresh_bot(monkeypatch):
    """The bot keeps its readings of a table (PortfolioBot.tables), at most TABLES_KEPT of them:
    a bot that kept them chooses as a bot that never read a table before, game after game."""
    import rules.portfolio.bot as bot_module

    monkeypatch.setattr(bot_module, "TABLES_KEPT", 6)
    keeper = PortfolioBot()
    most = moves = 0
    for seed in range(3):
        state = SPEC.setup(["A", "B", "C"], None, seed)
        while SPEC.outcome(state) is None:
            seat = to_move(state)
            view, options = SPEC.view(state, seat), SPEC.legal(state, seat)
            command = keeper.choose(view, options, random.Random(seed))
            assert PortfolioBot().choose(view, options, random.Random(seed)) == command
            most = max(most, len(keeper.tables))
            moves += 1
            apply(state, command)
    assert most == 6 and moves > 200  # filled up, and never past the bound


def test_the_bot_reads_a_table_from_each_portfolios_reading_kept_at_most_readings_kept(monkeypatch):
    """A table is read from each portfolio's own reading (bot._reading), kept by the
    portfolio's view at most READINGS_KEPT of them: a bot reading with them full or emptied
    reads every table as one that read each portfolio afresh."""
    import rules.portfolio.bot as bot_module

    monkeypatch.setattr(bot_module, "READINGS_KEPT", 5)
    kept = bot_module._READINGS
    kept.clear()
    most = tables = 0
    for seed in range(2):
        state = SPEC.setup(["A", "B", "C"], None, seed)
        while SPEC.outcome(state) is None:
            seat = to_move(state)
            view = SPEC.view(state, seat)
            table = bot_module._Table(view.portfolios, seat, 3)
            saved = dict(kept)
            kept.clear()
            fresh = bot_module._Table(view.portfolios, seat, 3)
            kept.update(saved)
            assert [getattr(table, name) for name in table.__slots__] == [getattr(fresh, name) for name in fresh.__slots__]
            most = max(most, len(kept))
            tables += bool(view.portfolios)
            apply(state, PortfolioBot().choose(view, SPEC.legal(state, seat), random.Random(seed)))
    assert most == 5 and tables > 50
    monkeypatch.undo()
    kept.clear()
    kept.update({("filler", i): None for i in range(512)})  # full at 512 readings: cleared
    bot_module._Table(view.portfolios, 0, 3)
    assert view.portfolios and len(kept) == len(view.portfolios)
    kept.clear()


def test_the_bot_weighs_hurting_the_rival_with_the_most_money_and_income_to_come_most():
    """The top rival is the one with the most money plus income over its collections to come:
    Cat's $6 and $10 a turn for 13 more collections beat Bob's $30 and $2 a turn."""
    from rules.portfolio.bot import OTHER_RIVAL, TOP_RIVAL, _Plan

    state = position(["2C 2D 9H", "AH", "AD"], money=(30, 30, 6),
                     portfolios=[("P1", 2, "3C 4C 5C 6C 7C 8C", None, None), ("P2", 1, "3D 4D 5D", None, None)])
    view = SPEC.view(state, 0)
    assert horizons(view) == [12, 13, 13] and view.income == (0, 2, 10)
    plan = _Plan(view, 0)
    assert (plan.weight(1), plan.weight(2), plan.weight(2)) == (OTHER_RIVAL, TOP_RIVAL, TOP_RIVAL)


def test_a_cards_use_counts_its_worth_a_second_copy_and_its_neighbours_in_the_hand():
    """A card's use to the bot: a quarter of its worth, $1 less when the hand holds another copy
    of its face, $3 for each neighbour in its suit one rank away and $1.50 two away (no
    portfolios on the table here)."""
    from rules.portfolio.bot import _Plan

    state = position(["5H 5H.1 7H 8H KS", "AH", "AD"])
    plan = _Plan(SPEC.view(state, 0), 0)
    card = {c.key: c for c in plan.hand}
    assert plan.use(card["5H"]) == plan.use(card["5H.1"]) == 0.5 - 1.0 + 1.5
    assert plan.use(card["7H"]) == 0.75 + 3.0 + 1.5 and plan.use(card["8H"]) == 0.75 + 3.0
    assert plan.use(card["KS"]) == 1.0
    six = parse_card("6H")
    assert plan.use(six, plan.hand + [six]) == 0.5 + 3.0 + 3.0 + 1.5  # (no 4H)
    assert plan.use(card["KS"], [card["KS"], parse_card("KS.1")]) == 1.0 - 1.0


def test_the_bot_keeps_the_card_it_took_from_the_pile_this_turn_while_it_holds_others():
    """The card taken from the discard pile this turn goes only as the last card: the bot
    discards its next least useful card instead (and the taken one when it is all it holds)."""
    from rules.portfolio.bot import _Plan

    state = position(["2S 5H 6H 9C", "AH", "AD"], taken_discard="2S")
    assert _Plan(SPEC.view(state, 0), 0).finish() == Discard(parse_card("9C"))
    assert choice(state) == Discard(parse_card("9C"))
    state.taken_discard = None
    assert _Plan(SPEC.view(state, 0), 0).finish() == Discard(parse_card("2S"))
    alone = position(["2S", "AH", "AD"], taken_discard="2S")
    assert choice(alone) == Discard(parse_card("2S"))


def test_the_bots_reading_of_a_table_prices_each_face_that_would_extend_cap_or_attack_a_portfolio():
    """What each face is worth on the table to Ann (extending her run: $6 and its worth; capping
    it: $1 and 0.3 of its value; neutralising a rival's: the same; acquiring one: $2 and half its
    value) and how much it would hurt in Bob's hands (he plays next: attacking her run, $4 and
    its value; extending his own, $3 and its worth; Cat's run is no danger), with the faces
    that attack, extend and cap each portfolio."""
    from rules.portfolio.bot import _Table

    state = position(["AC", "AH", "AD"], portfolios=[
        ("P1", 0, "5S 6S 7S", None, None), ("P2", 1, "3H 4H 5H 6H", None, None), ("P3", 2, "9D 10D JD", None, None)])
    view = SPEC.view(state, 0)
    table = _Table(view.portfolios, 0, 3)
    face = {code: parse_card(code).face for code in "4S 8S 5S 5C 7S 7C 2H 7H 8D QD".split()}
    assert table.use == {face["4S"]: 6 + 2, face["8S"]: 6 + 3, face["5S"]: 1 + 0.3 * 3, face["5C"]: 1 + 0.3 * 3,
                         face["7S"]: 1 + 0.3 * 3, face["7C"]: 1 + 0.3 * 3, face["2H"]: 1 + 0.3 * 4,
                         face["7H"]: 2 + 0.5 * 4, face["8D"]: 1 + 0.3 * 4, face["QD"]: 2 + 0.5 * 4}
    assert table.danger == {face["4S"]: 4 + 3, face["8S"]: 4 + 3, face["2H"]: 3 + 2, face["7H"]: 3 + 3}
    mine, bobs, cats = view.portfolios
    assert [(p.pid, [f.code for f in low], [f.code for f in acquiring]) for p, low, acquiring in table.rivals] == [
        ("P2", ["2H"], ["7H"]), ("P3", ["8D"], ["QD"])]
    assert table.extensions == [(mine, [[parse_card("8S")], [parse_card("4S")]])]
    assert [(p.pid, [(end, [f.code for f in faces]) for end, faces in caps]) for p, caps in table.caps] == [
        ("P1", [("high", ["7S", "7C"]), ("low", ["5S", "5C"])])]
    # from Cat's seat: what attacks her own run, and Ann (who plays next) extending hers; not Bob's
    assert _Table(view.portfolios, 2, 3).danger == {face["4S"]: 3 + 2, face["8S"]: 3 + 3,
                                                     face["8D"]: 4 + 4, face["QD"]: 4 + 4}


def test_bot_makes_the_longest_run_then_extends_it():
    state = position(["4S 5S 6S 7S 9D 10D JD 2C", "AH", "AD"])
    assert choice(state) == Make(tuple(parse_card(c) for c in "4S 5S 6S 7S".split()))
    state = position(["8S 2C 9H", "AH", "AD"], portfolios=[("P1", 0, "5S 6S 7S", None, None)])
    assert choice(state) == Extend("P1", parse_card("8S"))


def test_bot_acquires_and_neutralises_when_it_pays():
    rivals = [("P1", 1, "3C 4C 5C 6C 7C 8C", None, None)]
    state = position(["9C 2D 5H", "AH", "AD"], money=(30, 6, 6), portfolios=rivals)
    assert choice(state) == Acquire("P1", parse_card("9C"))
    state = position(["2C 2D 5H", "AH", "AD"], money=(30, 6, 6), portfolios=rivals)
    assert choice(state) == Neutralise("P1", parse_card("2C"))


def test_bot_acquires_a_king_it_cannot_neutralise_for_the_hurt_to_its_top_rival_alone():
    """In the last round an Ace taking Bob's King pays only by what Bob loses: Ann's one more
    income (4) is less than the price (8), and Bob (the top rival) would collect $4 twice more,
    weighed in full: 4 + 4·2 − 8 = 4 gained. Without the hurt (or with less of it) no."""
    state = position(["AH 9C", "2S", "3S"], money=(10, 6, 6), current=0, last_round=True, stock="",
                     portfolios=[("P1", 1, "JH QH KH", None, None)])
    assert horizons(SPEC.view(state, 0)) == [1, 2, 2]
    assert choice(state) == Acquire("P1", parse_card("AH"))
    state.money[1] = 0
    state.money[2] = 40  # Cat is the top rival now: Bob's loss weighs 0.4, 4·0.4·2 + 4 − 8 < 1
    assert choice(state) == Discard(parse_card("9C"))


def test_the_bot_discards_the_lowest_in_sort_order_of_the_cards_tied_for_least_use_in_any_order():
    """Two Twos of no use and no danger tie for the discard: the one first in sort order goes
    (2♥ before 2♦), whichever order the view lists the hand in."""
    import dataclasses

    from rules.portfolio.bot import _Plan

    state = position(["2D 9C 2H KS", "AH", "AD"])
    view = SPEC.view(state, 0)
    assert [card.key for card in view.hand] == ["KS", "2H", "2D", "9C"]
    assert _Plan(view, 0).finish() == Discard(parse_card("2H"))
    backwards = dataclasses.replace(view, zones={"hand": tuple(reversed(view.hand))})
    assert _Plan(backwards, 0).finish() == Discard(parse_card("2H"))


def test_bot_does_not_neutralise_when_the_game_is_ending():
    # Cat, the dealer, plays the very last turn: Bob's $4 would cost $4 to take away for one income
    state = position(["AH", "AD", "2C 9H"], money=(6, 6, 30), current=2, last_round=True, stock="",
                     portfolios=[("P1", 1, "3C 4C 5C 6C", None, None)])
    assert horizons(SPEC.view(state, 2)) == [1, 1, 1]
    assert not isinstance(choice(state), Neutralise)
    state.last_round, state.stock = False, [parse_card(c) for c in LONG_STOCK.split()]
    assert choice(state) == Neutralise("P1", parse_card("2C"))


def test_bot_caps_a_valuable_exposed_portfolio():
    state = position(["10D 2C", "AH", "AD"], portfolios=[("P1", 0, "6H 7H 8H 9H 10H", None, None)])
    assert choice(state) == Cap("P1", "high", parse_card("10D"))


def test_bot_discards_what_neither_it_nor_the_next_player_wants():
    # 8D would extend Bob's run and AD would take the bot's King-headed run: the KS goes
    state = position(["8D AD KS", "AH", "2D"], money=(0, 6, 6),
                     portfolios=[("P1", 0, "JH QH KH", None, None), ("P2", 1, "5D 6D 7D", None, None)])
    assert choice(state) == Discard(parse_card("KS"))


def test_bot_sizes_its_draws_by_income_and_time_left():
    state = position(["2C 9H", "AH", "AD"], phase="draw", turn_income=20, money=(26, 6, 6))
    assert isinstance(choice(state), Draw) and choice(state).count >= 3
    late = position(["2C 9H", "AH", "AD"], phase="draw", turn_income=20, money=(26, 6, 6),
                    stock="2D 3D", reshuffled=True)
    assert choice(late) == Draw(1)
    pauper = position(["2C 9H", "AH", "AD"], phase="draw", pauper=True)
    assert isinstance(choice(pauper), Pauper)


def test_bot_takes_a_useful_discard():
    state = position(["2C 9H", "AH", "AD"], phase="draw", discard="KC.1 8S",
                     portfolios=[("P1", 0, "5S 6S 7S", None, None)])
    assert choice(state) == Draw(1, True)
    state = position(["2C 9H", "AH", "AD"], phase="draw", discard="KC.1 KD",
                     portfolios=[("P1", 0, "5S 6S 7S", None, None)])
    assert choice(state) == Draw(1, False)


def test_a_lone_draw_takes_the_discard_only_to_play_it_this_turn():
    """A single draw of the discard top leaves the stock as it was; a bot that took a card it
    could only keep for later would, against a player doing the same, never end the game."""
    near = position(["2C 9H", "AH", "AD"], phase="draw", discard="KC.1 10H")
    assert choice(near) == Draw(1, False)  # beside the 9♥, but no run of three yet
    run = position(["8H 9H", "AH", "AD"], phase="draw", discard="KC.1 10H")
    assert choice(run) == Draw(1, True)  # 8♥ 9♥ 10♥ can be laid this turn
    paid = position(["2C 9H", "AH", "AD"], phase="draw", discard="KC.1 10H", turn_income=20,
                    money=(26, 6, 6))
    assert choice(paid).discard and choice(paid).count >= 2  # with stock cards too, it keeps it


def test_a_lone_draw_takes_no_card_it_would_not_lay_on_the_table_at_once():
    # the Ace could only acquire Bob's King-headed run, and an Ace on a King is discarded at once
    ace = position(["", "2D 9S", "AD"], phase="draw", discard="KC.1 AH", money=(40, 6, 6),
                   portfolios=[("P1", 1, "JH QH KH", None, None)])
    assert choice(ace) == Draw(1, False)
    # the King would cap Ann's own run, but with one card left in the stock she would not cap
    # it: she would discard it again
    king = position(["", "2D 9S", "AD"], phase="draw", discard="KC.1 KD", money=(40, 6, 6), stock="5C",
                    portfolios=[("P1", 0, "JH QH KH", None, None)])
    assert choice(king) == Draw(1, False)


@pytest.mark.parametrize("seed", [200, 230, 241])
def test_two_bots_end_the_games_they_once_passed_a_card_back_and_forth_in(seed):
    result = play_game(SPEC, ["bot", "bot"], seed)
    assert len(result.outcome.ranks) == 2


def test_the_expert_races_its_candidates_to_the_end_of_its_time():
    from rules.core.search import settings_for

    assert settings_for(SPEC).indifference == 0.0  # see the comment on PortfolioGame.expert


def answer(offer_text, **kwargs):
    """Bob (the bot) answers Ann's offer in a position with his portfolio P2 worth $2 (3H–5H)."""
    kwargs.setdefault("portfolios", [("P2", 1, "3H 4H 5H", None, None)])
    state = position(["6H 9S", "KS 2D", "AD"], money=(40, 6, 6), **kwargs)
    apply(state, parse(offer_text, state))
    return choice(state)


def test_bot_refuses_bad_deals_and_accepts_good_ones():
    assert answer("offer Bob: give $3 take P2") == Decline()  # early: P2 pays far more than $3
    assert answer("offer Bob: give $20 take P2", stock="2D", reshuffled=True) == Accept()  # late
    assert answer("offer Bob: give 6H take $1") == Accept()  # 6H extends his P2
    assert answer("offer Bob: give 9S take $1") == Decline()  # 9S is of no use to him
    assert answer("offer Bob: give $5 take 9C") == Decline()  # he does not hold a 9C


# -- the greedy yardstick ------------------------------------------------------------------------

GREEDY = SPEC.bots["greedy"]


def greedy(state):
    seat = to_move(state)
    return GREEDY.choose(SPEC.view(state, seat), SPEC.legal(state, seat), random.Random(0))


def test_the_greedy_bot_draws_one_card_makes_and_extends_and_discards_low():
    rich = position(["2C 9H", "AH", "AD"], phase="draw", turn_income=20, money=(26, 6, 6))
    assert greedy(rich) == Draw(1)
    state = position(["4S 5S 6S 9D 2C", "AH", "AD"])
    assert isinstance(greedy(state), Make)
    state = position(["8S 2C 9H", "AH", "AD"], portfolios=[("P1", 0, "5S 6S 7S", None, None)])
    assert greedy(state) == Extend("P1", parse_card("8S"))
    state = position(["KC 2C 9H", "AH", "AD"])
    assert greedy(state) == Discard(parse_card("2C"))


def test_the_greedy_bot_never_trades():
    state = position(["6H 9S", "KS 2D", "AD"], money=(40, 6, 6), portfolios=[("P2", 1, "3H 4H 5H", None, None)])
    apply(state, parse("offer Bob: give $20 take 9C", state))
    assert greedy(state) == Decline()


def test_the_bot_beats_the_greedy_bot_in_300_two_player_games():
    """It wins 300 of 300 (seats alternated)."""
    summary = simulate(SPEC, ["bot", "greedy"], 300, seed=0)
    assert summary.shares[0] >= 0.95, summary.shares
