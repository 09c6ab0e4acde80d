"""The contract's promises that a random playout does not show by itself, over every game."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

import rules
from rules.core import Match, Seat

GAMES = sorted(rules.GAMES)
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_submitted_command_is_checked_exactly_once(game, monkeypatch):
    """Every game's check (and apply's own validation) starts with ``check_awaited``; counting
    its calls counts the checks of a command."""
    spec = rules.find_game(game)
    module = sys.modules[type(spec).__module__]
    assert hasattr(module, "check_awaited"), f"{game}: its check does not start with check_awaited"
    calls = []
    real = module.check_awaited
    monkeypatch.setattr(module, "check_awaited", lambda *args: calls.append(1) or real(*args))
    match = Match(spec, [Seat(f"P{i}") for i in range(spec.players[0])], seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if match.over:
            break
        seat = min(match.awaiting)
        command = rng.choice(match.legal(seat))
        calls.clear()
        match.submit(seat, command)
        assert len(calls) == 1, f"{game}: {command!r} was checked {len(calls)} times"


def test_one_registry_lists_every_game_once():
    names = [info.name for info in rules.CATALOGUE]
    assert len(names) == len(set(names)) and set(rules.GAMES) == set(names)
    for info in rules.CATALOGUE:
        spec = rules.find_game(info.name)
        assert (spec.name, spec.title, tuple(spec.players)) == (info.name, info.title, tuple(info.players))
        assert rules.find_game(info.name.replace("-", "_").upper()) is spec


def test_no_module_of_the_app_reads_a_game_state():
    """Statically too: no ``.state`` attribute is read anywhere in cardtable/ (the app tests
    catch it at run time: see tests/app/conftest.py)."""
    readers = []
    for path in sorted((ROOT / "cardtable").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "state":
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert readers == []


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_every_game_shows_its_commands_with_their_parts(game):
    """The log writes a command through the notation's ``display``: the words of ``format``,
    its cards as Card parts (in symbols) and its players by name, never found by searching
    the words. Checked here against the test's own reading of the notation (in_symbols)."""
    from game_helpers import in_symbols
    from rules.core import Card
    from rules.core.words import Sentence

    spec = rules.find_game(game)
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"][: spec.players[0]]
    match = Match(spec, [Seat(name) for name in names], seed=7)
    rng = random.Random(7)
    seen = 0
    while not match.over and seen < 150:
        seat = min(match.awaiting)
        command = rng.choice(match.legal(seat))
        shown = spec.notation.display(command, names)
        assert isinstance(shown, Sentence)
        cards = [part for part in shown.parts if isinstance(part, Card)]
        if cards and not any(name in str(shown) for name in names):
            assert str(shown) == in_symbols(match.format(command)), (game, command)
        match.submit(seat, command)
        seen += 1
