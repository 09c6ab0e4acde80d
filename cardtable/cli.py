"""The `cardtable` command: play (the menu, a new game, a resumed game), list saves, export and
import a game as JSON, simulate, replay a game, the stats of the record of finished games, and
serve the app to a browser.

This module is what every start runs, so it holds only the way to the menu: a bare `cardtable`
opens it without reading a command line (the app itself is opened by cardtable.launch), and
the commands and their parser (cardtable.commands) load when the command line has a word. A
mistake on the command line is reported as one line on stderr with exit status 2; nothing found
to resume exits with 1.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

from rules.core.errors import RulesError, SaveFormatError

from .launch import UsageError, fail, open_menu
from .paths import UnusablePath, default_data_dir
from .settings import config_dir


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
