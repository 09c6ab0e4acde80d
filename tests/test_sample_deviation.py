"""Does ``sample`` deal the hidden cards as the rules would have dealt them, given what the seat
saw? Measured against a brute-force reference on small positions: deal afresh with the rules'
own deal from random seeds, keep the deals whose view matches the seat's, and compare, for every
hidden card and every place it may lie (a hand, the stock), how often each puts it there.

Portfolio, Card Stock Market, Capital Auction and Abundance, after a short seeded game of random
commands: the reference (tests/sample_reference.py, which argues why it is exact) redeals the
cards the seat never saw, replays the real commands and keeps the deals that show the seat every
view and log line it saw; per (face, place) the mean number of copies there under ``sample`` and
under the reference may differ by at most 5 standard errors of that difference (among the few
hundred (face, place) pairs of a position the largest is some 3 when both deal alike).

Property, at the start of a game (every seat's view): its deal (draw until both colours) looks
at colours only, so relabelling cards within a colour maps deals to equally likely deals; the
reference keeps the deals that give the seat a hand of its hand's colours and every other hand
its size, and relabels them to give the seat its own cards. That makes the reference cheap
enough for a test without making it any less a count of the rules' deals.

A card every seat saw go into a hand (Portfolio's discard pile in an earlier turn, an offer's
cards, a deal's; Capital Auction's bid cards back in a hand) stays there in ``sample``: two of
the positions measure it (before the games kept those cards, their gaps were 0.84 and 0.86).

    .venv/bin/python tests/test_sample_deviation.py [--deals N] [--samples N]   (the report)
"""

from __future__ import annotations

import argparse
import copy
import random
from collections import Counter

import pytest

import rules
from rules.property.rules import PropertySpec, number_deck
from sample_reference import compare, play_position

SEED = 20240601  # fixed: the comparison never flakes
TOLERANCE = 0.06  # main's sample is off by 0.12-0.49 on the hands' colours here; these seeds give the new one 0.03 at most
Z_MOST = 5.0  # standard errors, for the other games

# (game, players, game seed, commands played, seat), chosen small enough to stay fast; the
# reference keeps every deal at these, so nothing in their rules ties one hidden card to another
POSITIONS = [
    ("portfolio", 2, 0, 3, 0), ("portfolio", 2, 3, 3, 1),
    ("portfolio", 2, 2, 3, 0),  # the first player took 4S from the discard pile and kept it
    ("stock_market", 3, 0, 12, 0),
    ("capital_auction", 3, 0, 2, 0),
    ("capital_auction", 3, 1, 8, 1),  # bid cards went back into hands when their bids were raised
    ("abundance", 2, 1, 16, 1),
]


def places(state) -> dict[str, str]:
    """Where each number card lies that a seat could not see: in a hand or the stock."""
    where = {card.key: f"hand {seat}" for seat, hand in enumerate(state.hands) for card in hand}
    where.update({card.key: "stock" for card in state.stock})
    return where


def frequencies(states, hidden) -> dict[tuple[str, str], float]:
    counts = Counter((key, place) for state in states for key, place in places(state).items() if key in hidden)
    return {pair: count / len(states) for pair, count in counts.items()}


def reference(real, seat: int, deals: int, rng: random.Random) -> list:
    """The rules' deals (PropertySpec._deal_hands from fresh seeds, the real cut and units kept)
    that show ``seat`` what it sees at the start, relabelled within colours to its own cards."""
    n = real.players
    mine = real.hands[seat]
    sizes = [len(hand) for hand in real.hands]
    kept = []
    for _ in range(deals):
        stock, hands, _ = PropertySpec._deal_hands(rng.randrange(10**12), 0, n, real.first)
        if [len(h) for h in hands] != sizes or sorted(c.is_red for c in hands[seat]) != sorted(c.is_red for c in mine):
            continue
        relabel = {}
        for red in (True, False):
            dealt = [c for c in hands[seat] if c.is_red is red]
            own = [c for c in mine if c.is_red is red]
            rest_from = [c for c in number_deck() if c.is_red is red and c not in dealt]
            rest_to = [c for c in number_deck() if c.is_red is red and c not in own]
            rng.shuffle(own)
            rng.shuffle(rest_to)
            relabel.update(zip(dealt + rest_from, own + rest_to))
        state = copy.deepcopy(real)
        state.hands = [[relabel[c] for c in hand] for hand in hands]
        state.stock = [relabel[c] for c in stock]
        kept.append(state)
    return kept


def make_ups(states, seat: int) -> dict[tuple[int, int], float]:
    """How often each other hand holds each number of red cards: the cards' places alone cannot
    tell a deal that ignores the colours from one that keeps them when the colours are even."""
    counts = Counter((s, sum(c.is_red for c in hand)) for state in states
                     for s, hand in enumerate(state.hands) if s != seat)
    return {pair: count / len(states) for pair, count in counts.items()}


def largest_gap(p: dict, q: dict) -> float:
    return max(abs(p.get(key, 0.0) - q.get(key, 0.0)) for key in set(p) | set(q))


def deviation(game_seed: int, players: int, seat: int, deals: int, samples: int, sample=None):
    """(the largest |p_sample - p_reference| over (card, place), the same over (hand, number of
    red cards), the reference's count of deals) at the start of a seeded game, from ``seat``."""
    spec = rules.find_game("property")
    real = spec.setup([f"P{i + 1}" for i in range(players)], None, game_seed)
    rng = random.Random(SEED + game_seed)
    ref = reference(real, seat, deals, rng)
    view = spec.view(real, seat)
    sample = sample or spec.sample
    dealt = [sample(view, random.Random(rng.randrange(10**12))) for _ in range(samples)]
    hidden = {key for key in places(real) if key not in {c.key for c in real.hands[seat]}}
    return (largest_gap(frequencies(dealt, hidden), frequencies(ref, hidden)),
            largest_gap(make_ups(dealt, seat), make_ups(ref, seat)), len(ref))


def test_property_samples_deal_as_the_rules_do():
    # a 2-player start where the other hand holds 3 cards (the old sample gave it one colour 1
    # time in 4), from both seats, and a 3-player start from every seat
    for game_seed, players in ((0, 2), (3, 3)):
        for seat in range(players):
            places_gap, make_up_gap, kept = deviation(game_seed, players, seat, deals=5000, samples=1500)
            assert kept >= 250, f"the reference kept only {kept} deals"
            assert places_gap < TOLERANCE and make_up_gap < TOLERANCE, (
                f"seed {game_seed}, seat {seat}: off by {places_gap:.3f} (places), {make_up_gap:.3f} "
                f"(hands' colours) against {kept} reference deals")


def measured(position: tuple, deals: int, samples: int) -> dict:
    game, players, game_seed, steps, seat = position
    return compare(play_position(game, players, game_seed, steps, seat), deals, samples, SEED + game_seed)


def said(position: tuple, r: dict) -> str:
    game, players, game_seed, steps, seat = position
    return (f"{game} seed {game_seed} players {players} after {steps} commands, seat {seat}: largest "
            f"|sample - reference| {r['gap']:.3f} at {r['where']} ({r['z']:.1f} standard errors; the "
            f"most anywhere {r['z_most']:.1f}); reference {r['kept']} of {r['deals']} deals kept, "
            f"sample {r['samples']}")


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: f"{p[0]}-{p[2]}")
def test_samples_deal_as_the_rules_do(position):
    r = measured(position, deals=800, samples=800)
    assert r["kept"] >= 400, said(position, r)
    assert r["z_most"] < Z_MOST, said(position, r)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=60000)
    parser.add_argument("--samples", type=int, default=20000)
    args = parser.parse_args()
    for game_seed in range(6):
        players = 2 + game_seed % 3
        for seat in range(players):
            places_gap, make_up_gap, kept = deviation(game_seed, players, seat, args.deals, args.samples)
            print(f"property seed {game_seed} players {players} seat {seat}: max |p_sample - p_reference| "
                  f"{places_gap:.4f} over (card, place), {make_up_gap:.4f} over (hand, reds); "
                  f"reference {kept} deals, sample {args.samples}")
    for position in POSITIONS:
        print(said(position, measured(position, args.deals // 10, args.samples // 10)))


if __name__ == "__main__":
    main()
