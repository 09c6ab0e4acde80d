"""Legal lists made when read (rules/core/listing.py) read as the lists they stand for."""

import random

import pytest

from rules.core.listing import Deferred, Listing, MadeWhenRead


def test_a_listing_reads_as_the_list_of_its_parts():
    made: list[int] = []

    def double(n):
        made.append(n)
        return 2 * n

    listing = Listing(["a"], [], MadeWhenRead([1, 2, 3], double), ("z",))
    assert made == []  # nothing is made until it is read
    assert len(listing) == 5
    assert listing[2] == 4 and made == [2]
    assert listing[-1] == "z" and listing[-5] == "a" and listing[0] == "a"
    assert listing[1:4] == [2, 4, 6] and listing[::-2] == ["z", 4, "a"]
    assert list(listing) == ["a", 2, 4, 6, "z"] and tuple(listing) == ("a", 2, 4, 6, "z")
    assert listing == ["a", 2, 4, 6, "z"] and ["a", 2, 4, 6, "z"] == listing
    assert listing != ["a", 2, 4, 6] and listing != ["a", 2, 4, 6, "y"] and listing != "a246z"
    assert repr(listing) == "['a', 2, 4, 6, 'z']"
    assert listing + ["!"] == ["a", 2, 4, 6, "z", "!"] and ("!",) + listing == ["!", "a", 2, 4, 6, "z"]
    assert isinstance(listing + [], list) and isinstance([] + listing, list)
    assert 6 in listing and 3 not in listing and listing.index(6) == 3
    for wrong in (5, -6):
        with pytest.raises(IndexError):
            listing[wrong]
    assert Listing() == [] and len(Listing([], ())) == 0
    assert random.Random(1).choice(listing) in listing
    assert sorted(random.Random(2).sample(listing, 5), key=str) == sorted(listing, key=str)


def test_made_reads_as_its_items_made():
    made = MadeWhenRead(range(4), lambda n: n * n)
    assert made == [0, 1, 4, 9] and made[-1] == 9 and made[1:3] == [1, 4] and list(made) == [0, 1, 4, 9]
    assert MadeWhenRead([], str) == [] and len(made) == 4


def test_made_answers_in_from_what_a_command_is_made_from_without_making_any():
    made: list[int] = []

    def double(n):
        made.append(n)
        return ("double", n)

    def halved(command):  # double's inverse; None for what double never makes
        return command[1] if isinstance(command, tuple) and command[0] == "double" else None

    listing = Listing(MadeWhenRead([1, 2, 3], double, halved), ["end"])
    assert ("double", 2) in listing and ("double", 4) not in listing and ("triple", 2) not in listing
    assert "end" in listing and "other" not in listing
    assert made == []  # every answer from the items alone
    assert ("double", 3) in MadeWhenRead([1, 2, 3], double) and made == [1, 2, 3]  # without: made one by one


def test_deferred_is_made_once_when_first_read_and_true_before():
    calls: list[int] = []

    def make():
        calls.append(1)
        return Listing(["ready"], MadeWhenRead([1, 2], lambda n: ("offer", n)))

    deferred = Deferred(make, nonempty=True)
    assert deferred and calls == []  # true without making it
    assert len(deferred) == 3 and calls == [1]
    assert deferred == ["ready", ("offer", 1), ("offer", 2)] and deferred[-1] == ("offer", 2)
    assert deferred[1:] == [("offer", 1), ("offer", 2)] and list(deferred) == ["ready", ("offer", 1), ("offer", 2)]
    assert ("offer", 2) in deferred and ("offer", 3) not in deferred and repr(deferred) == repr(list(deferred))
    assert calls == [1]  # made once
    for read in (list, len, lambda d: d[0], lambda d: "ready" in d):
        calls.clear()
        assert read(Deferred(make, nonempty=True)) is not None and calls == [1]


def test_a_deferred_list_is_made_once_when_read_whole_and_answers_in_and_truth_without_it():
    made: list[str] = []

    def make():
        made.append("made")
        return Listing(["a"], MadeWhenRead([1, 2], str))

    deferred = Deferred(make, lambda value: value in ("a", "1", "2"), nonempty=True)
    assert "1" in deferred and "3" not in deferred and bool(deferred)
    assert made == []  # neither ``in`` nor its truth made it
    assert len(deferred) == 3 and deferred[1] == "1" and deferred[-1] == "2" and deferred[0:2] == ["a", "1"]
    assert list(deferred) == ["a", "1", "2"] and deferred == ["a", "1", "2"] and repr(deferred) == "['a', '1', '2']"
    assert deferred + ["!"] == ["a", "1", "2", "!"] and random.Random(1).choice(deferred) in deferred
    assert made == ["made"]  # once, however often it is read
    empty = Deferred(list, lambda value: False)
    assert not empty and empty == [] and len(empty) == 0
