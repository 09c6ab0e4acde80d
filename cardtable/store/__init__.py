"""Where the games live: one SQLite database that many cardtables may write at once.

``SaveStore`` (``games.py``) keeps every game — its setup and its moves, numbered, each written
in one transaction after it is checked against every move before it — and the summary the saves
list reads. ``files.py`` is the border with JSON files: the saves of earlier versions (brought in
once, left where they are), exports and imports. ``info.py`` holds what callers get back.
``seats.py`` the seats played from other screens: join codes, and which screens are open;
``analyses.py`` the analyses of finished games, kept.

The names below are imported from their modules when first used (PEP 562): the menu is drawn
before the store (SQLite and all) is imported, and opened.
"""

from __future__ import annotations

from pathlib import Path

from rules.core.lazy import lazy_names

from ..paths import UnusablePath, default_data_dir, user_path

FILE = "games.sqlite3"
SAVES = "saves"
"""The database, and the folder of the saves of earlier versions, in the data folder."""

__getattr__, __dir__, _lazy = lazy_names(__name__, globals(), {
    "errors": ("Diverged", "GameChanged", "MovedFirst", "SaveError"),
    "games": ("SaveStore",),
    "seats": ("AWAY_SECONDS", "CodeError", "Joined", "Throttle"),
    "info": ("Opened", "Replayed", "SaveInfo", "is_valid_id", "result_text", "seat_label"),
})
__all__ = sorted([*_lazy, "FILE", "SAVES", "UnusablePath", "default_data_dir", "nothing_to_bring_in", "user_path"])


def nothing_to_bring_in(root: Path) -> bool:
    """Whether the store in ``root`` surely has no saves of an earlier version waiting to come
    in (it has its database, or no such saves), known without importing or opening it."""
    return (root / FILE).exists() or not (root / SAVES).exists()
