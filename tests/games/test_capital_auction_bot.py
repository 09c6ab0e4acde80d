"""Capital Auction's bots: the strong bot against random and greedy play (its speed:
tests/benchmark.py), and the choice it makes in set positions; the greedy bot does what the
issue says it does."""

from __future__ import annotations

import json
import random

import pytest

from rules.capital_auction import (
    CARDS, SPEC, Bid, CapitalAuctionBot, Decline, DiscardCapital, DiscardTool, Flip, LookAheadBot, Pass, Play,
    React, Take,
)
from rules.core.simulate import simulate

BOT = SPEC.bots["bot"]
GREEDY = SPEC.bots["greedy"]
NAMES = ["Ann", "Bob", "Cleo"]
ANN, BOB, CLEO = 0, 1, 2


def _rest(deck, used):
    return [card.key for card in deck if card.key not in used]


def _keys(slots):
    return {slot if isinstance(slot, str) else slot["card"] for slot in slots}


def position(capital, portfolios=([], [], []), table=None, tools=([], [], []), phase="bid", **extra):
    """A position written by hand; Ann (seat 0) is to act unless ``extra`` says otherwise."""
    n = len(capital)
    table = table if table is not None else [
        [{"card": "railway-bonds", "up": True}, {"card": "brewery", "up": False}],
        [{"card": "start-up", "up": True}, {"card": "print-shop", "up": False}],
        [{"card": "steel-works", "up": False}, {"card": "failing-bank", "up": False}]]
    data = {"names": NAMES[:n], "capital": [list(h) for h in capital], "tools": [list(t) for t in tools],
            "portfolios": [list(p) for p in portfolios], "table": table, "phase": phase, **extra}
    if phase == "bid":
        data.setdefault("bidding", {"order": list(range(n)), "final_pass": True})
    if phase == "tool":
        data.setdefault("winner", n - 1)
        data.setdefault("tool_order", list(range(n)))
    used = {k for h in capital for k in h} | {k for b in extra.get("bids", []) for k in b}
    pending = extra.get("pending") or {}
    used_tools = {k for t in tools for k in t} | ({pending["tool"], *pending.get("connections", [])} if pending else set())
    slots = set().union(*(_keys(p) for p in portfolios), *(_keys(lot) for lot in table))
    data.setdefault("capital_deck", _rest(CARDS.capital_deck(), used))
    data.setdefault("tool_deck", _rest(CARDS.tool_deck(), used_tools))
    data.setdefault("investment_deck", _rest(CARDS.investment_deck(), slots))
    return SPEC.from_json(json.loads(json.dumps(data)))


def choose(bot, state, seat=None):
    seat = min(SPEC.awaiting(state)) if seat is None else seat
    command = bot.choose(SPEC.view(state, seat), SPEC.legal(state, seat), random.Random(0))
    SPEC.check(state, seat, command)  # whatever a bot returns is legal
    return command


def up(*keys):
    return [{"card": key, "up": True} for key in keys]


# -- registration and figures ----------------------------------------------------------------------

def test_both_bots_are_registered():
    assert SPEC.best_bot == "bot" and set(SPEC.bots) == {"bot", "greedy"}
    assert isinstance(BOT, LookAheadBot) and isinstance(BOT.playout, CapitalAuctionBot)


# -- the bot's look-ahead: its bids checked by a search of its own view ------------------------------

def _decisions(games, bot=BOT):
    """(state, seat, view, legal, rng seed) at every decision with a choice of bot games, the
    state a copy."""
    for game in range(games):
        state = SPEC.setup(NAMES[:2], None, 700 + game)
        step = 0
        while SPEC.outcome(state) is None:
            seat = min(SPEC.awaiting(state))
            view, legal = SPEC.view(state, seat), SPEC.legal(state, seat)
            if len(legal) > 1:
                yield SPEC.from_json(SPEC.to_json(state)), seat, view, legal, f"{game}/{step}"
            SPEC.apply(state, seat, bot.choose(view, legal, random.Random(f"{game}/{step}")))
            step += 1


def test_outside_the_bidding_and_the_tool_phase_the_bot_plays_as_its_reading_alone():
    seen = set()
    for _state, _seat, view, legal, key in _decisions(10, BOT.playout):  # (games of the reading: quick)
        if view.phase not in ("bid", "tool"):
            seen.add(view.phase)
            assert BOT.choose(view, legal, random.Random(key)) == BOT.playout.choose(view, legal, random.Random(key))
    assert seen == {"react", "flip", "pick", "tax", "venture"}


def _many_tools():
    """A Tool phase with more commands than the search weighs: Ann may take over, merge or write off."""
    mine = [{"card": "failing-bank", "up": True}, {"card": "steel-works", "up": True}]
    return tool_position(["takeover", "merger", "write-off"],
                         (mine, up("print-shop", "railway-bonds"), up("brewery", "corner-bakery")), round=3)


def _a_bid():
    return position([["5", "3", "1"], ["4", "2"], ["6", "1.1"]])


@pytest.mark.parametrize("phase", ["bid", "tool"])
def test_a_bid_and_a_tool_are_searched_and_the_search_plays_out_with_the_bots_reading(monkeypatch, phase):
    calls = {"reading": 0, "bot": 0}
    offered = []  # how many commands the reading was asked to choose from, each time
    reading, looking = CapitalAuctionBot.choose, LookAheadBot.choose

    def count(name, choose):
        def counted(self, view, legal, rng):
            calls[name] += 1
            offered.append(len(legal))
            return choose(self, view, legal, rng)
        return counted

    state = _a_bid() if phase == "bid" else _many_tools()
    search, (iterations, candidates, doubt) = BOT.searches[phase], LookAheadBot.SEARCHED[phase]
    view, legal = SPEC.view(state, ANN), SPEC.legal(state, ANN)
    assert len(legal) > candidates
    monkeypatch.setattr(CapitalAuctionBot, "choose", count("reading", reading))
    monkeypatch.setattr(LookAheadBot, "choose", count("bot", looking))
    assert BOT.choose(view, legal, random.Random(0)) in legal
    assert 0 < search.last.iterations <= iterations + doubt  # (a race may be decided before its budget)
    assert search.last.playout_commands > 0 and len(search.last.choices) == candidates
    # once itself (no search inside the search); the reading at its own choice and in the playouts
    assert calls["bot"] == 1 and calls["reading"] > search.last.iterations
    assert min(offered) > 1  # a forced command is played without asking (``plays_forced``)


def test_the_bot_plays_a_forced_command_without_a_view():
    # the search skips building the reading's view where it has one command (``plays_forced``):
    # the reading must then play it, whatever it is given, and draw nothing from its randomness
    rng = random.Random(5)
    for command in (Pass(), Decline(), Bid((9,))):
        assert BOT.playout.choose(None, [command], rng) == command
    assert rng.random() == random.Random(5).random()


def test_the_bots_search_depends_on_its_view_alone():
    # the same view over other hidden cards: the same command after the same work (so the same
    # time), at its bids and in the Tool phase
    tried = {"bid": 0, "tool": 0}
    for state, seat, view, legal, key in _decisions(3, BOT.playout):
        if tried.get(view.phase, 6) >= 6:
            continue
        tried[view.phase] += 1
        search = BOT.searches[view.phase]
        other = SPEC.sample(view, random.Random(key))
        assert other.investment_deck != state.investment_deck or other.tools != state.tools
        chosen = BOT.choose(view, legal, random.Random(key))
        work = search.last.playout_commands
        assert BOT.choose(SPEC.view(other, seat), SPEC.legal(other, seat), random.Random(key)) == chosen
        assert search.last.playout_commands == work
    assert tried == {"bid": 6, "tool": 6}


def _reading_game(seed: int, steps: int):
    """Two-player game ``seed`` after ``steps`` commands of the reading in every seat (the
    randomness of step ``n`` of game ``g`` keyed ``g/n``, as ``_decisions`` keys it)."""
    state = SPEC.setup(NAMES[:2], None, seed)
    for step in range(steps):
        seat = min(SPEC.awaiting(state))
        view, legal = SPEC.view(state, seat), SPEC.legal(state, seat)
        SPEC.apply(state, seat, BOT.playout.choose(view, legal, random.Random(f"{seed}/{step}")))
    return state


# Where the search overrules its reading, and the reading's command is clearly the worse: each
# judged by 200 deals of the hidden cards from the mover's view, both commands played on every
# deal to the game's end by the reading in both seats (its chance of winning after each, in
# brackets). In reading games 3-22 the bot overruled its reading at 154 decisions, by +0.8
# points on average: clearly better (by more than 5 points) at 23, clearly worse at 11. The
# bot against its reading alone in whole games: `tests/benchmark.py --parts searched` (123 of
# 200 two-player games, seats rotated; its bids alone searched: 113.5).
@pytest.mark.parametrize("seed, steps, reading, searched", [
    # round 1's first auction, Ann leading at 9: the reading raises Bob's bid to 10 (20%), the
    # bot to 11 (82%)
    (0, 9, Bid((6, 4)), Bid((6, 4, 1))),
    # round 1's first lot (a 7 and a card face down): the reading would bid every Capital card
    # Bob has, 14 (61%); the bot lets Ann have it at 13 (87%)
    (20, 12, Bid((4, 3, 3, 2, 2)), Pass()),
    # a Tool turn: the reading takes over Bob's 7 for 15 of Ann's Capital (61%); the bot plays
    # its Public Offering on lot 2b (91%)
    (22, 13, Play("takeover", player=BOB, card=1, pay=(6, 4, 3, 2)), Play("offering", lot="2b")),
])
def test_the_search_overrules_its_reading_where_the_reading_plays_clearly_worse(seed, steps, reading, searched):
    state = _reading_game(seed, steps)
    seat = min(SPEC.awaiting(state))
    view, legal = SPEC.view(state, seat), SPEC.legal(state, seat)
    key = f"{seed}/{steps}"
    assert BOT.playout.choose(view, legal, random.Random(key)) == reading
    assert BOT.choose(view, legal, random.Random(key)) == searched


# The bot's standard for this game (RULINGS.md; the deck's luck caps every bot: one that sees
# every hidden card wins about 78% against two random players): at least 75% of wins against
# two random players in three-player games, 85% against one in two-player games and 60%
# against the greedy level, each over at least 300 games, seats rotated.

def test_the_bot_beats_two_random_players_in_300_three_player_games():
    # its reading alone won about 77% (771 of seeds 0-999), so 300 games (±2.5% at one standard
    # error) fell on either side of the standard by the seeds' luck, and this test played 1,000;
    # with its bids searched it won about 80% (797.5 of seeds 0-999), with its Tools too 247 of
    # seeds 0-299, and looking longer where its choice is in doubt 240 (482 of seeds 300-899,
    # 483 before): clear of it in 300, where 1,000 games would cost some 160 s of the suite (a
    # search at every bid and Tool)
    summary = simulate(SPEC, ["bot", "random", "random"], 300, seed=0)
    assert summary.games == 300
    assert summary.shares[0] >= 0.75, summary.shares  # 240 of 300


def test_the_bot_beats_one_random_player_in_300_two_player_games():
    summary = simulate(SPEC, ["bot", "random"], 300, seed=0)
    assert summary.games == 300
    assert summary.shares[0] >= 0.85, summary.shares  # 270 of 300 (a shared win counts half)


def test_the_bot_beats_the_greedy_bot_in_300_two_player_games():
    summary = simulate(SPEC, ["bot", "greedy"], 300, seed=0)
    assert summary.games == 300
    assert summary.shares[0] >= 0.60, summary.shares
    assert summary.shares[0] >= 0.90  # it wins about 94% (283 of 300)


def test_the_greedy_bot_beats_random_bidding_less_often_than_the_bot(monkeypatch):
    # against the bot's reading alone, which the bot beats (above): its search would cost here
    # what a test of the standard costs
    monkeypatch.setitem(SPEC.bots, "reading", BOT.playout)
    greedy = simulate(SPEC, ["greedy", "random", "random"], 150, seed=0).shares[0]
    best = simulate(SPEC, ["reading", "random", "random"], 150, seed=0).shares[0]
    assert best > greedy + 0.2


# -- bidding -------------------------------------------------------------------------------------

def test_the_bot_opens_a_good_lot_with_its_cheapest_bid_and_raises_by_little():
    state = position([["5", "3", "1"], ["4", "2"], ["6", "1.1"]])
    assert choose(BOT, state) == Bid((1,))
    state = position([["5", "3", "1"], [], ["6", "1.1"]], bids=[[], ["4", "2"], []],
                     bidding={"order": [1, 2, 0], "final_pass": True, "high": 6, "leader": 1, "position": 2,
                              "spoken": 2, "out": [2]})
    assert choose(BOT, state) == Bid((5, 3))


def test_the_bot_leaves_a_lot_to_a_rival_who_bids_close_to_its_whole_worth():
    # Railway Bonds face up and the Brewery face down are worth about 18.4 to Ann; she pays at
    # most nine tenths of that (16.6) for a lot that does not decide the game: a rival raising
    # by ones to the same worth makes whoever wins it pay all of it, and that one loses more
    # often than not (the bot paying up to the whole worth won 415.5 of 1,000 games against this)
    def bob_bids(*cards):
        return position([["6", "5", "5.1", "4", "3"], [], ["1"]], bids=[[], list(cards), []],
                        bidding={"order": [1, 2, 0], "final_pass": True, "high": sum(int(c[0]) for c in cards),
                                 "leader": 1, "position": 2, "spoken": 2, "out": [2]})

    assert choose(BOT, bob_bids("6.1", "6.2", "3.1")) == Bid((6, 5, 5))  # 16 is under the ceiling
    assert choose(BOT, bob_bids("6.1", "6.2", "4.1")) == Pass()  # 17 is not (it bid 17 paying all)


def test_the_bot_passes_on_a_lot_worth_less_than_nothing():
    table = [[{"card": "failing-bank", "up": True}, {"card": "start-up", "up": False, "seen": [0]}], [], []]
    state = position([["5", "3", "1"], ["4", "2"], ["6", "1.1"]], table=table, round=4)
    assert choose(BOT, state) == Pass()


def test_the_bot_bids_everything_when_winning_ends_the_game_with_it_ahead():
    mine = up("railway-bonds", "oil-concession", "shipping-line", "steel-works")
    table = [[{"card": "print-shop", "up": True}, {"card": "brewery", "up": False}], [], []]
    state = position([["6", "6.1", "5", "4", "2"], [], ["1"]], table=table,
                     portfolios=(mine, up("corner-bakery"), []), bids=[[], ["6.2", "6.3", "5.1", "3"], []],
                     bidding={"order": [1, 2, 0], "final_pass": True, "high": 20, "leader": 1, "position": 2,
                              "spoken": 2, "out": [2]})
    assert choose(BOT, state) == Bid((6, 6, 5, 4))


def test_the_bot_does_not_end_the_game_behind():
    mine = up("print-shop", "corner-bakery", "start-up", "brewery")
    theirs = up("railway-bonds", "oil-concession", "shipping-line", "shipping-line.1")
    table = [[{"card": "textile-mill", "up": True}, {"card": "department-store", "up": False}], [], []]
    state = position([["6", "6.1", "5", "4"], ["2"], ["1"]], portfolios=(mine, theirs, []), table=table)
    assert choose(BOT, state) == Pass()


def test_the_bot_stops_a_rival_who_would_end_the_game_ahead():
    theirs = up("oil-concession", "shipping-line", "shipping-line.1", "steel-works")
    table = [[{"card": "print-shop", "up": True}, {"card": "brewery", "up": False}], [], []]
    state = position([["6", "6.1", "5", "5.1", "4"], [], ["1"]], table=table,
                     portfolios=(up("railway-bonds"), theirs, []), bids=[[], ["6.2", "6.3", "5.2", "3"], []],
                     bidding={"order": [1, 2, 0], "final_pass": True, "high": 20, "leader": 1, "position": 2,
                              "spoken": 2, "out": [2]})
    assert sum(choose(BOT, state).values) == 21  # far more than a Print Shop is worth to it



def test_the_bot_denies_a_rival_the_lot_that_brings_it_within_a_card_of_the_end():
    # Bob has three cards; a two-card lot would leave him one short of ending the game at once,
    # so the bot outbids him with all it has, though the lot is worth far less than 21 to it
    theirs = up("corner-bakery", "print-shop", "brewery")
    table = [[{"card": "start-up", "up": True}, {"card": "textile-mill", "up": False}], [], []]
    state = position([["6", "6.1", "5", "5.1", "4"], [], ["1"]], table=table,
                     portfolios=(up("railway-bonds"), theirs, []), bids=[[], ["6.2", "6.3", "5.2", "3"], []],
                     bidding={"order": [1, 2, 0], "final_pass": True, "high": 20, "leader": 1, "position": 2,
                              "spoken": 2, "out": [2]})
    assert sum(choose(BOT, state).values) == 21

# -- Tools ---------------------------------------------------------------------------------------

TOOL_TABLE = [[], [{"card": "textile-mill", "up": True}, {"card": "department-store", "up": False}],
              [{"card": "patent-dispute", "up": False}, {"card": "department-store.1", "up": False}]]


def tool_position(ann_tools, portfolios, **extra):
    return position([["1", "1.1", "2", "2.1", "3"], ["4"], ["6"]], tools=(ann_tools, [], []),
                    portfolios=portfolios, table=TOOL_TABLE, phase="tool", **extra)


def test_the_bot_takes_over_the_best_card_of_its_strongest_rival():
    state = tool_position(["takeover", "bailout"],
                          (up("print-shop"), up("railway-bonds", "corner-bakery"), up("shipping-line")))
    assert choose(BOT, state) == Play("takeover", BOB, 1, pay=(2, 2, 1, 1))


def test_the_bot_writes_off_its_own_worst_card():
    mine = [{"card": "gold-mine", "up": False}, {"card": "steel-works", "up": True}]
    state = tool_position(["write-off", "cover-up"], (mine, up("brewery"), up("print-shop")), round=4)
    assert choose(BOT, state) == Play("write-off", own=1, pay=(1, 1))


def test_the_bot_merges_its_worst_card_for_a_rivals_best():
    mine = [{"card": "failing-bank", "up": True}, {"card": "steel-works", "up": True}]
    state = tool_position(["merger"], (mine, up("print-shop", "railway-bonds"), up("brewery")), round=4)
    assert choose(BOT, state) == Play("merger", BOB, 2, own=1, pay=(1, 1))


def test_the_bot_passes_with_nothing_worth_playing():
    state = tool_position(["connection", "cover-up"], (up("brewery"), up("print-shop"), []), round=4)
    assert choose(BOT, state) == Pass()


def react_position(ann_tools, play, chain=(), asking=(0, 2), seat=1, connections=()):
    pending = {"seat": seat, "play": play, "tool": play["tool"], "chain": list(chain), "asking": list(asking),
               "connections": list(connections)}
    return position([["1", "2"], ["4"], ["6"]], tools=(ann_tools, [], []), phase="react", pending=pending,
                    portfolios=(up("railway-bonds", "brewery"), up("print-shop"), up("corner-bakery")),
                    table=TOOL_TABLE)


def test_the_bot_cancels_a_takeover_of_its_best_card():
    state = react_position(["connection"], {"tool": "takeover", "player": "Ann", "card": 1, "pay": [1, 1, 1, 1]})
    assert choose(BOT, state) == React((1,))


def test_the_bot_keeps_its_last_connection_for_something_heavier_than_a_tax():
    state = react_position(["connection"], {"tool": "tax", "player": "Ann", "pay": [1]})
    assert choose(BOT, state) == Decline()
    plain = react_position(["bailout"], {"tool": "takeover", "player": "Ann", "card": 1, "pay": [1, 1, 1, 1]})
    assert choose(BOT, plain) == Decline()  # nothing to answer with


def test_the_bot_answers_a_connection_that_cancels_its_own_takeover():
    state = react_position(["connection"], {"tool": "takeover", "player": "Bob", "card": 1, "pay": [3, 3, 2, 2]},
                           chain=(1,), asking=(0, 2), seat=0, connections=("connection.1",))
    state.portfolios[BOB][0] = state.portfolios[ANN].pop(0)  # Bob holds the Railway Bonds now
    assert choose(BOT, state) == React((1,))


def test_the_bot_makes_the_forced_choices_sensibly():
    pick = position([["1"], ["6", "2", "1.1"], ["3"]], phase="pick", table=TOOL_TABLE,
                    pending={"seat": 0, "play": {"tool": "espionage", "player": "Bob", "pay": [1]},
                             "tool": "espionage", "victim": 1})
    assert choose(BOT, pick) == Take(6)
    tax = position([["1"], ["6", "2", "1.1"], ["3"]], phase="tax", table=TOOL_TABLE,
                   pending={"seat": 0, "play": {"tool": "tax", "player": "Bob", "pay": [1]}, "tool": "tax",
                            "victim": 1})
    assert choose(BOT, tax) == DiscardCapital((2, 1))
    venture = position([["1"], ["6"], ["3"]], phase="venture", tools=(["takeover", "cover-up", "connection"], [], []),
                       table=TOOL_TABLE,
                       pending={"seat": 0, "play": {"tool": "venture", "pay": [1]}, "tool": "venture"})
    assert choose(BOT, venture) == DiscardTool("cover-up")
    flip = position([["1"], ["6"], ["3"]], phase="flip", winner=0, auction=2,
                    table=[[], [], [{"card": "brewery", "up": False, "seen": [0]}, {"card": "failing-bank", "up": False}]])
    assert choose(BOT, flip) == Flip("3b")  # the card it has not seen


# -- the greedy bot ------------------------------------------------------------------------------

def test_the_greedy_bot_bids_its_lowest_cards_while_under_the_face_value():
    table = [[{"card": "steel-works", "up": True}, {"card": "brewery", "up": True}], [], []]
    state = position([["5", "3", "1", "1.1"], ["4"], ["6"]], table=table)
    assert choose(GREEDY, state) == Bid((1,))
    raised = position([["5", "3", "1", "1.1"], [], ["6"]], table=table, bids=[[], ["4"], []],
                      bidding={"order": [1, 2, 0], "final_pass": True, "high": 4, "leader": 1, "position": 2,
                               "spoken": 2, "out": [2]})
    assert choose(GREEDY, raised) == Bid((3, 1, 1))
    dear = position([["5", "3", "1", "1.1"], [], ["6"]], table=table, bids=[[], ["6.1", "4"], []],
                    bidding={"order": [1, 2, 0], "final_pass": True, "high": 10, "leader": 1, "position": 2,
                             "spoken": 2, "out": [2]})
    assert choose(GREEDY, dear) == Pass()  # 6 + 3 = 9: the bid is no longer under the face value


def test_the_greedy_bot_plays_no_tools_and_never_reacts():
    state = tool_position(["takeover", "bailout"], (up("print-shop"), up("railway-bonds"), up("shipping-line")))
    assert choose(GREEDY, state) == Pass()
    asked = react_position(["connection"], {"tool": "takeover", "player": "Ann", "card": 1, "pay": [1, 1, 1, 1]})
    assert choose(GREEDY, asked) == Decline()


def test_the_bot_looks_only_at_a_card_it_does_not_know():
    # Insider Information may look at the bot's own face-down card: legal, and worth nothing to it
    # (in round 4, when a card played is no longer drawn back)
    mine = [{"card": "gold-mine", "up": False}]
    known = [[], [], [{"card": "patent-dispute", "up": False, "seen": [0]}]]
    own_only = position([["1", "2"], ["4"], ["6"]], tools=(["insider"], [], []), phase="tool", table=known, round=4,
                        portfolios=(mine, up("brewery"), up("print-shop")))
    assert Play("insider", ANN, 1) in SPEC.legal(own_only, ANN)
    assert choose(BOT, own_only) == Pass()
    unknown = [[], [], [{"card": "patent-dispute", "up": False}]]
    state = position([["1", "2"], ["4"], ["6"]], tools=(["insider"], [], []), phase="tool", table=unknown, round=4,
                     portfolios=(mine, up("brewery"), up("print-shop")))
    assert choose(BOT, state) == Play("insider", lot="3a")
