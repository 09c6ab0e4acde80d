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


def test_every_games_legal_list_answers_in_as_the_whole_list():
    """A legal list that answers ``in`` from what a command is made from (MadeWhenRead's
    made_from) answers as the list of its commands: for each command of the positions of seeded
    games, and for those of other positions (most of them not legal there)."""
    import rules
    from game_helpers import seeded_positions

    for name in sorted(rules.GAMES):
        spec = rules.GAMES[name]
        low, high = spec.players
        pool: list = []
        for _state, _seat, _view, legal in seeded_positions(spec, range(4), 150, lambda seed: low + seed % (high - low + 1)):
            whole = list(legal)
            pool = (pool + whole[:: max(1, len(whole) // 12)])[-120:]
            for command in [*whole[:40], *pool]:
                assert (command in legal) == (command in whole), (name, command)
