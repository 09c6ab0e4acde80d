"""rules.core.listing: legal lists read as the list of their commands."""

from __future__ import annotations

from rules.core.listing import Listing, MadeWhenRead


def test_a_listing_holds_what_its_list_holds():
    """``in`` asks each part (a bot asks it at every command of the expert's playouts): the
    answer is the whole list's, for what is in any part and for what is in none."""
    listing = Listing([("a", 1), ("a", 2)], MadeWhenRead([3, 4], lambda n: ("made", n)), [], [("end", 0)])
    whole = list(listing)
    assert whole == [("a", 1), ("a", 2), ("made", 3), ("made", 4), ("end", 0)]
    for value in [*whole, ("a", 3), ("made", 5), ("end", 1), None, "a", ()]:
        assert (value in listing) == (value in whole)
