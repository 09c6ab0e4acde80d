"""The table's widgets: cards, the hand, the scoreboard, the game log and the command bar.

The names below are imported from their modules when first used (PEP 562): the menu's Header
lives in this package too, and the first screen must not pay for the table's widgets (the log
alone brings in the rules engine and its bots)."""

from __future__ import annotations

from rules.core.lazy import lazy_names

__getattr__, __dir__, __all__ = lazy_names(__name__, globals(), {
    "card": ("CardWidget", "card_text"),
    "command_bar": ("CommandBar",),
    "game_log": ("GameLog",),
    "hand": ("HandWidget",),
    "scoreboard": ("Scoreboard",),
})
