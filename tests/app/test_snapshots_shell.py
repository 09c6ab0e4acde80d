"""Snapshots of the main menu and the new-game screen at the smallest supported size and a
larger one. Deterministic: an empty store (no dates on screen), a fixed theme, no seed typed.
Regenerate after a deliberate change with ``pytest tests/app/test_snapshots_shell.py
--snapshot-update`` and look at the SVGs before keeping them."""

from __future__ import annotations

import pytest

from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.settings import Settings

SIZES = [(80, 24), (120, 40)]


def shell(tmp_path) -> CardtableApp:
    return CardtableApp(store=SaveStore(tmp_path / "data"), settings=Settings(theme="textual-dark", bot_delay=0))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_main_menu(snap_compare, tmp_path, size):
    assert snap_compare(shell(tmp_path), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_new_game_setup(snap_compare, tmp_path, size):
    async def open_property(pilot):
        await pilot.press("n")
        await pilot.pause()
        # Property: the game with options, so the snapshot shows every kind of field
        games = pilot.app.screen.query_one("#setup-games")
        games.highlighted = games.get_option_index("property")
        await pilot.pause()

    assert snap_compare(shell(tmp_path), terminal_size=size, run_before=open_property)
