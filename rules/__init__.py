"""Pure game logic for cardtable: the registry of games. Never imports textual, rich or
platformdirs (tests/test_purity.py proves it)."""

from __future__ import annotations

from importlib import import_module
from typing import Any, Iterator, Mapping

from .core.errors import RulesError

# registry name → package under rules/ (each package exposes SPEC)
_PACKAGES = {
    "portfolio": "portfolio",
    "property": "property",
}


class _Registry(Mapping[str, Any]):
    """Game name → GameSpec. A game's package is imported the first time it is asked for, so
    listing the names (and starting the app) does not pay for every game's rules and bots."""

    def __init__(self, packages: Mapping[str, str]) -> None:
        self._packages = dict(packages)
        self._specs: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._specs:
            package = self._packages[name]  # KeyError for an unknown game, as a dict would
            self._specs[name] = import_module(f"rules.{package}").SPEC
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def __repr__(self) -> str:
        return f"<games: {', '.join(self._packages)}>"


GAMES: Mapping[str, Any] = _Registry(_PACKAGES)


def find_game(name: str) -> Any:
    """The GameSpec registered as ``name`` (underscores and case are forgiven)."""
    key = name.strip().lower().replace("_", "-")
    try:
        return GAMES[key]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None
