"""Which table each game is played on: its own (imported only when needed) or the generic one."""

from __future__ import annotations

from importlib import import_module

from .table import TableScreen

# registry name → "module:class" of that game's table
GAME_TABLES = {
    "property": "cardtable.screens.property_table:PropertyTable",
    "portfolio": "cardtable.screens.portfolio_table:PortfolioTable",
}


def table_screen_for(game_name: str) -> type[TableScreen]:
    """The TableScreen subclass for ``game_name``; the generic TableScreen for a game without a
    table of its own (or whose table module is not there)."""
    target = GAME_TABLES.get(game_name.strip().lower().replace("_", "-"))
    if target is None:
        return TableScreen
    module_name, _, class_name = target.partition(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the table exists but something it imports does not: a real bug
        return TableScreen
    return getattr(module, class_name)
