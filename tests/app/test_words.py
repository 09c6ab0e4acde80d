"""Every word right: what the header, the hand and the help say (issue: what a new player
tripped on). Each test reads what a player would read."""

from __future__ import annotations

import random

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.cli import main
from cardtable.store import SaveStore
from cardtable.screens.replay import ReplayScreen
from cardtable.screens.results import ResultsScreen
from cardtable.settings import Settings
from rules.core import Match, Seat

from pilot_helpers import screen_text, settle


def finished(game: str, seed: int = 2) -> Match:
    match = Match(rules.find_game(game), [Seat("Ann", "random"), Seat("Bob", "random")], seed=seed)
    rng = random.Random(seed)
    while not match.over:
        seat = min(match.awaiting)
        match.submit(seat, rng.choice(match.legal(seat)))
    return match


async def shown(pilot) -> str:
    await pilot.pause()
    await pilot.pause()
    return screen_text(pilot.app)


async def replay_of(pilot) -> None:
    """From the menu, the saves list, then the replay of the game under the cursor."""
    await pilot.press("r")
    await pilot.pause()
    await pilot.press("r")
    await settle(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))


def saved_app(tmp_path, game: str) -> CardtableApp:
    store = SaveStore(tmp_path / "data")
    store.create(finished(game))
    return CardtableApp(store=store, settings=Settings(bot_delay=0))


@pytest.mark.parametrize("game", ["abundance", "capital-auction"])
async def test_a_game_without_a_hand_of_cards_shows_no_empty_hand_in_a_replay(tmp_path, game):
    app = saved_app(tmp_path, game)
    async with app.run_test(size=(120, 40)) as pilot:
        await replay_of(pilot)
        for key in ("1", "0"):  # Ann's view, then the public's
            await pilot.press(key)
            text = await shown(pilot)
            assert "hand ·" not in text and "No cards in hand" not in text and "Hands hidden" not in text


async def test_a_replay_of_a_game_with_hands_still_shows_the_hand(tmp_path):
    app = saved_app(tmp_path, "property")
    async with app.run_test(size=(120, 40)) as pilot:
        await replay_of(pilot)
        await pilot.press("1")
        assert "Ann's hand · " in await shown(pilot)


async def test_the_results_header_names_the_game_once(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = finished("abundance")
    app = CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
        header = (await shown(pilot)).splitlines()[0]
        assert "Abundance — Results" in header and header.count("Abundance") == 1


def test_the_help_says_2_players_not_2_2(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "Abundance, 2 players;" in out and "2-2" not in out and "2–2" not in out
    assert "Property, 2–6 players;" in out


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_a_new_game_is_at_turn_1_not_turn_0(game):
    spec = rules.find_game(game)
    match = Match(spec, [Seat(f"P{i}") for i in range(spec.players[0])], seed=1)
    assert match.turn == 1
