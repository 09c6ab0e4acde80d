"""The `cardtable` command: play (the menu, a new game, a resumed game), list saves, export and
import a game as JSON, simulate, replay a game, the stats of the record of finished games, and
serve the app to a browser.

This module is what every start runs, so it holds only the way to the menu: a bare `cardtable`
opens it without reading a command line, and the commands and their parser (cardtable.commands,
whose names this module also answers for) load when the command line has a word. A mistake on
the command line is reported as one line on stderr with exit status 2; nothing found to resume
exits with 1.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Sequence

from rules.core.errors import RulesError, SaveFormatError

from .paths import UnusablePath, default_data_dir, finish_writes_before_dying
from .settings import config_dir
from .store import nothing_to_bring_in

if TYPE_CHECKING:
    from pathlib import Path

    from rules.core import Match, Replay

    from .store import Joined, SaveStore

PROG = "cardtable"


class UsageError(Exception):
    """A command line that cannot be run; the message is the one line to print."""


def __getattr__(name: str) -> Any:
    """The commands' names (parse_players, build_parser, CODE_VARIABLE...), as before they
    moved to cardtable.commands, which is imported only when one of them is asked for."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import commands

    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def launch_app(store: SaveStore | None, match: Match | None = None, game_id: str | None = None,
               notice: str | None = None, replay: Replay | None = None, joined: Joined | None = None,
               confined: bool = False, data_dir: Path | None = None) -> int:
    """Run the Textual app (the menu, the table of ``match`` — as the seat ``joined`` names, if
    given —, or the replay of a game) until the player quits; ``notice`` is shown as it opens.
    ``confined``: no way to the menu (see CardtableApp). Without a ``store`` the app opens the
    one in ``data_dir`` when it first needs it (the menu: once it is on the screen)."""
    from .app import CardtableApp  # here, so the other commands never import Textual

    finish_writes_before_dying()
    app = CardtableApp(store=store, match=match, game_id=game_id, notice=notice, replay=replay, joined=joined,
                       confined=confined, data_dir=data_dir)
    try:
        app.run()
    finally:
        app.close_store()
    return app.return_code or 0


def open_menu(data_dir: Path) -> int:
    """The menu, its store opened by the app once the menu is on the screen; unless saves of an
    earlier cardtable wait to come in, which is said first (see bring_in_earlier_saves)."""
    if nothing_to_bring_in(data_dir):
        return launch_app(None, data_dir=data_dir)
    from .commands import bring_in_earlier_saves
    from .store import SaveStore

    store = SaveStore(data_dir)
    bring_in_earlier_saves(store)
    return launch_app(store)


def fail(message: str, status: int) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `cardtable` command; return the exit status."""
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        if not argv:  # the menu, as most starts are: nothing to parse (commands.run reads the rest)
            data_dir = default_data_dir()
            config_dir()  # where the app keeps its settings: a value that cannot be used is said now
            return open_menu(data_dir)
        from .commands import run

        return run(argv)
    except (UsageError, UnusablePath) as error:
        return fail(str(error), 2)
    except SaveFormatError as error:
        return fail(str(error), 1)
    except RulesError as error:
        return fail(str(error), 2)
    except BrokenPipeError:  # `cardtable saves | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:  # the store says where and why in its own words
        return fail(str(error), 1)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
