"""The footer, the keys page (F1) and the README agree key for key on every table, and a key
has one meaning at a time: what a player reads in one place is what the key does."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.rules import keys_of
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from cardtable.widgets.footer import TableFooter
from rules.core import Match, Seat

from pilot_helpers import settle

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
# how the README writes a key that Textual names otherwise
WRITTEN = {"question_mark": "?", "colon": ":", "left": "←", "right": "→", "up": "↑", "down": "↓",
           "pageup": "PgUp", "pagedown": "PgDn", "ctrl+z": "ctrl+z", "enter": "enter", "escape": "escape",
           "space": "space", "backspace": "backspace", "plus": "+", "minus": "-", "equals_sign": "=",
           "underscore": "_"}


def paragraph(title: str) -> str:
    """The README's paragraph on one game's keys ("**Property** — …"), and the common table."""
    start = README.index(f"**{title}** —", README.index("## How to play"))
    end = README.index("\n\n", start)
    common = README[README.index("Everywhere at the table:"):README.index(f"**{rules.CATALOGUE[0].title}** —",
                                                                           README.index("## How to play"))]
    return README[start:end] + common


def written(key: str) -> str:
    return WRITTEN.get(key, key)


async def a_table(tmp_path, game: str):
    spec = rules.find_game(game)
    seats = [Seat("Ann"), *[Seat(f"Bot{i}", "bot") for i in range(1, spec.players[0])]]
    match = Match(spec, seats, seed=4)
    store = SaveStore(tmp_path / "data")
    return CardtableApp(store=store, settings=Settings(bot_delay=0), match=match, game_id=store.create(match)), match


@pytest.mark.parametrize("game", sorted(rules.GAMES))
async def test_the_footer_the_keys_page_and_the_readme_agree(tmp_path, game):
    app, match = await a_table(tmp_path, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: 0 in match.awaiting)
        for _ in range(3):  # a game's own dialog (a draw) may open first
            await pilot.pause()
            if isinstance(app.screen, TableScreen):
                break
            await pilot.press("escape")
        table = app.screen
        assert isinstance(table, TableScreen)
        rows = keys_of(table)
        page = {(description, key) for keys, description, _note in rows for key in keys.split()}
        text = paragraph(match.spec.title)
        for binding, _enabled, _tooltip in TableFooter._entries(table):
            shown = app.get_key_display(binding)
            assert (binding.description, shown) in page, (
                f"{game}: the footer's {shown} {binding.description!r} is not on the keys page")
            keys = [key.strip() for key in binding.key.split(",")]
            assert any(f"`{written(key)}`" in text for key in keys), (
                f"{game}: the README does not name {binding.key!r} ({binding.description})")
        enabled: dict[str, str] = {}
        for keys, description, note in rows:
            if note:
                continue
            for key in keys.split():
                assert key not in enabled or enabled[key] == description, (
                    f"{game}: {key} means both {enabled[key]!r} and {description!r} on the keys page")
                enabled[key] = description


def test_no_table_loses_a_key_of_every_table():
    """A class's bindings of a key replace its bases' of that key (Textual): a game's table that
    binds escape for itself must list the table's again, or escape no
    longer leaves there."""
    from cardtable.games import table_screen_for

    tables = {table_screen_for(name) for name in rules.GAMES}
    assert len(tables) == len(rules.GAMES), tables
    base: dict[str, list] = {}
    for binding in TableScreen.BINDINGS:  # the table's own (some tables leave the screen's out)
        for key in binding.key.split(","):
            base.setdefault(key, []).append(binding)
    for table in tables:
        own = table._merge_bindings().key_to_bindings
        for key, bindings in base.items():
            actions = {binding.action for binding in own.get(key, [])}
            missing = [binding.action for binding in bindings if binding.action not in actions]
            assert not missing, f"{table.__name__}: {key} no longer does {missing}"
