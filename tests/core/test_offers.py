"""The shared deal of rules.core.offers: an offer's hash, kept once worked out."""

from __future__ import annotations

import copy
import pickle

from rules.core import parse_card
from rules.core.offers import Offer, Side


def test_an_offer_hashes_as_its_fields_and_keeps_the_hash_in_this_process_only():
    """An offer's hash is its fields' (as the dataclass's own), the same when asked again and
    for an equal offer; a pickled or copied offer works its hash out afresh (a string's hash is
    salted per process), and equal offers stay equal."""
    offer = Offer(1, Side(cards=(parse_card("5H"),)), Side(holdings=("P2",), money=1))
    assert hash(offer) == hash((1, offer.give, offer.take)) == hash(offer)
    assert hash(Offer(1, Side(cards=(parse_card("5H"),)), Side(holdings=("P2",), money=1))) == hash(offer)
    for again in (pickle.loads(pickle.dumps(offer)), copy.copy(offer), copy.deepcopy(offer)):
        assert again == offer and "_hash" not in vars(again) and hash(again) == hash(offer)
    assert {offer: 1}[Offer(1, Side(cards=(parse_card("5H"),)), Side(holdings=("P2",), money=1))] == 1
