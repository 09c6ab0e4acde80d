"""The rules pages: each game's ``seeds/<game>.md``, as the in-app rules screen shows them.

In a source checkout the pages are read from the top-level ``seeds/`` folder; an installed
cardtable carries a copy in ``<prefix>/share/cardtable/seeds`` (see pyproject's data-files).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import rules

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def seed_folders() -> tuple[Path, ...]:
    """Where rules pages are looked for, in order."""
    return (
        Path(__file__).resolve().parents[1] / "seeds",
        Path(sys.prefix) / "share" / "cardtable" / "seeds",
    )


def rules_page(game_name: str) -> str:
    """The Markdown rules page of ``game_name``; when there is none, a short page saying so.
    Never raises: the rules screen always has something to show."""
    name = game_name.strip().lower().replace("_", "-")
    page = page_name(name)
    if _NAME.match(page):  # a registry name, never a path
        for folder in seed_folders():
            try:
                return (folder / f"{page}.md").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    return (
        f"# {_title(name) or game_name}\n\n"
        "The rules page for this game is missing from this installation.\n\n"
        f"It should be the file `seeds/{page}.md`.\n"
    )


def page_name(name: str) -> str:
    """The file name (without ``.md``) of a game's rules page: its registry name, unless the
    game names its page otherwise (``rules_page``: Card Stock Market's is card-stock-market)."""
    spec = rules.GAMES.get(name) if _NAME.match(name) else None
    return getattr(spec, "rules_page", None) or name


def _title(name: str) -> str:
    """The game's title from the registry, or "" if it is not a registered game."""
    spec = rules.GAMES.get(name)
    return spec.title if spec is not None else ""
