"""Piles: the shuffle every game deals from orders cards as the standard library's does."""

import random

from rules.core.engine import chance
from rules.core.piles import shuffle, shuffled


def test_shuffle_orders_a_pile_as_random_shuffle_does_from_the_same_draws():
    # saves replay from their seed: a shuffle of another order would deal them other cards
    for size in (0, 1, 2, 3, 7, 52, 64, 65, 104, 300):
        for seed in range(40):
            ours, theirs = list(range(size)), list(range(size))
            mine, stdlib = random.Random(seed), random.Random(seed)
            shuffle(ours, mine)
            stdlib.shuffle(theirs)
            assert ours == theirs, (size, seed)
            assert mine.random() == stdlib.random()  # as many draws taken


def test_shuffled_is_a_new_list_in_the_chance_draw_order():
    cards = list("ABCDEFGHIJKLMNOP")
    expected = cards.copy()
    chance(7, 3).shuffle(expected)
    assert shuffled(cards, 7, 3) == expected and cards == list("ABCDEFGHIJKLMNOP")
