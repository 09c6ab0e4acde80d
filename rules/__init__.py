"""Pure game logic for cardtable, and the one registry of its games. Never imports textual,
rich or platformdirs (tests/test_purity.py proves it).

Each game is listed once, here: its registry name, the package under ``rules/`` that holds its
rules (and, by the same name under ``cardtable/games/``, its table), its title, player count and
one-line blurb. The package is imported only when the game is first asked for, so listing the
games (and painting the menu) does not pay for every game's rules and bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Iterator, Mapping

from .core.errors import RulesError, SaveFormatError


@dataclass(frozen=True)
class GameInfo:
    """What the menus show of a game without importing it."""

    name: str  # registry name, as typed: "stock-market"
    package: str  # rules.<package> and cardtable.games.<package>
    title: str
    players: tuple[int, int]
    blurb: str


CATALOGUE: tuple[GameInfo, ...] = (  # in the order the menus list them
    GameInfo("portfolio", "portfolio", "Portfolio", (2, 5),
             "Build runs of cards that pay income; neutralise or take over your rivals' portfolios."),
    GameInfo("stock-market", "stock_market", "Card Stock Market", (2, 6),
             "Buy shares in the four suits, push their prices up or crash them, and end the richest."),
    GameInfo("property", "property", "Property", (2, 6),
             "Claim cells of an 8×8 grid with a red and a black card; rent grows with your groups."),
    GameInfo("capital-auction", "capital_auction", "Capital Auction", (2, 5),
             "Bid Capital cards for face-up and face-down Investments; play Tools, cancel them with Connections."),
    GameInfo("abundance", "abundance", "Abundance", (2, 2),
             "Bid for trinkets at open, sealed and one-bid auctions; sell the rarest suits dear."),
)
INFO: Mapping[str, GameInfo] = {info.name: info for info in CATALOGUE}


class _Registry(Mapping[str, Any]):
    """Game name → GameSpec, imported the first time it is asked for."""

    def __init__(self) -> None:
        self._specs: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._specs:
            info = INFO[name]  # KeyError for an unknown game, as a dict would
            self._specs[name] = import_module(f"rules.{info.package}").SPEC
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(INFO)

    def __len__(self) -> int:
        return len(INFO)

    def __repr__(self) -> str:
        return f"<games: {', '.join(INFO)}>"


GAMES: Mapping[str, Any] = _Registry()


def game_key(name: str) -> str:
    """The registry name ``name`` means: case, spaces and underscores are forgiven."""
    return str(name).strip().lower().replace("_", "-").replace(" ", "-")


def find_game(name: str) -> Any:
    """The GameSpec registered as ``name`` (underscores and case are forgiven)."""
    key = game_key(name)
    if key not in INFO:
        raise RulesError(f"unknown game {name!r}; the games are: {', '.join(INFO)}")
    return GAMES[key]


def load_match(data: Mapping[str, Any]) -> Any:
    """The one way in from a saved game's JSON: find its game, replay its commands. Raises
    SaveFormatError, in words, for anything that is not a save this version can play on."""
    from .core.match import Match, _format_version

    _format_version(data)
    game = data.get("game")
    if not isinstance(game, str) or game_key(game) not in INFO:
        raise SaveFormatError(f"a game this version does not have ({game!r})")
    return Match.from_json(data, find_game(game))


def load_replay(data: Mapping[str, Any]) -> Any:
    """A saved game's JSON as a Replay (``rules.core.replay``): its positions move by move, up
    to the first move that no longer replays (``stopped`` says which). Raises SaveFormatError,
    in words, for anything that is not a save of a game this version has."""
    from .core.match import _format_version
    from .core.replay import Replay

    _format_version(data)
    game = data.get("game")
    if not isinstance(game, str) or game_key(game) not in INFO:
        raise SaveFormatError(f"a game this version does not have ({game!r})")
    return Replay.from_json(data, find_game(game))
