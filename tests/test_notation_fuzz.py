"""Every game's notation parser, fuzzed: whatever a player types into the command bar — odd
unicode digits, symbols, huge numbers, half a command — reading it either gives a command or
raises NotationError with a sentence. Nothing else may come out (the table would show any
other exception as a crash)."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rules
from rules.core import Match, NotationError, RulesError, Seat

GAMES = sorted(rules.GAMES)

# what players (and their keyboards) type: notation's own letters and marks, digits of other
# scripts, superscripts, full-width forms, suit symbols, and controls
ODD = "²³¹⁰٣١１００.,:;$@+-−·/\\\t\n ♠♥♦♣♤♡♢♧🂡é"
ALPHABET = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + ODD)


@lru_cache(maxsize=None)
def positions(game: str) -> tuple:
    """(view, legal texts) at a few points of a seeded random game, for each awaited seat."""
    spec = rules.find_game(game)
    match = Match(spec, [Seat(f"P{i} X") for i in range(spec.players[0])], seed=3)
    rng = random.Random(3)
    found = []
    for step in range(120):
        if match.over:
            break
        seat = min(match.awaiting)
        legal = match.legal(seat)
        if step % 10 == 0:
            found.append((match.view(seat), tuple(match.format(c) for c in legal[:40])))
        match.submit(seat, rng.choice(legal))
    return tuple(found)


def read(game: str, index: int, text: str) -> None:
    spec = rules.find_game(game)
    spots = positions(game)
    view, _ = spots[index % len(spots)]
    try:
        command = spec.notation.parse(text, view)
    except NotationError as error:
        assert str(error).strip(), "a NotationError must say what was wrong"
        return
    # what reads as a command formats back to text that reads as the same command
    assert spec.notation.parse(spec.notation.format(command), view) == command


@st.composite
def near_commands(draw, game: str):
    """A legal command's text with a few characters changed, dropped or added."""
    spots = positions(game)
    index = draw(st.integers(0, len(spots) - 1))
    texts = spots[index][1] or ("pass",)
    text = list(draw(st.sampled_from(texts)))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(("insert", "replace", "delete")))
        char = draw(ALPHABET)
        if action == "insert" or not text:
            text.insert(where, char)
        elif action == "replace":
            text[min(where, len(text) - 1)] = char
        else:
            del text[min(where, len(text) - 1)]
    return index, "".join(text)


FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(index=st.integers(0, 20), text=st.text(ALPHABET, max_size=40))
def test_any_text_reads_as_a_command_or_a_notation_error(game, index, text):
    read(game, index, text)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_near_misses_of_legal_commands_read_or_fail_in_words(game, data):
    index, text = data.draw(near_commands(game))
    read(game, index, text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["buy 3D", "draw ²", "play 3D 5C at ²,³", "discard 6H.²", "bid ١٢",
                                  "offer P1 X: give $9999999999999999999", "make 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                                  "", " ", ":", "$", "play", "10", "JK.1", "lay QS 99999999999999999999"])
def test_known_troublemakers(game, text):
    """Inputs that once reached int() or a dict lookup and closed the app."""
    read(game, 0, text)
    spec = rules.find_game(game)
    view, _ = positions(game)[0]
    try:
        command = spec.notation.parse(text, view)
    except NotationError:
        return
    seat = view.seat
    match = Match(spec, [Seat(f"P{i} X") for i in range(spec.players[0])], seed=3)
    try:  # a command that reads must be judged by check in words too
        match.check(seat, command)
    except RulesError:
        pass
