"""Each game's own table: ``cardtable.games.<package>.table`` defines ``TABLE``, the game's
TableScreen subclass, beside its widgets, dialogs and .tcss. The package is the one the rules
registry names (``rules.INFO[name].package``); a game without a table of its own is played on
the generic TableScreen."""

from __future__ import annotations

from importlib import import_module

import rules

from ..screens.table import TableScreen


def table_screen_for(game_name: str) -> type[TableScreen]:
    """The TableScreen subclass for ``game_name`` (by convention, not by a second list)."""
    info = rules.INFO.get(rules.game_key(game_name))
    if info is None:
        return TableScreen
    module_name = f"{__name__}.{info.package}.table"
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name not in (module_name, f"{__name__}.{info.package}"):
            raise  # the table exists but something it imports does not: a real bug
        return TableScreen
    return getattr(module, "TABLE", TableScreen)
