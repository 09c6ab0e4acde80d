"""Opening the app: the way from a command line to the Textual app (the menu, a table, a
replay) that a bare `cardtable` and every command take, and the one line a mistake prints.
Apart from cardtable.cli and cardtable.commands so that each uses it without importing the
other: a bare start loads no command, and no command needs the bare start's code."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .paths import finish_writes_before_dying
from .store import nothing_to_bring_in

if TYPE_CHECKING:
    from pathlib import Path

    from rules.core import Match, Replay

    from .store import Joined, SaveStore


PROG = "cardtable"


class UsageError(Exception):
    """A command line that cannot be run; the message is the one line to print."""


def launch_app(store: SaveStore | None, match: Match | None = None, game_id: str | None = None,
               notice: str | None = None, replay: Replay | None = None, joined: Joined | None = None,
               confined: bool = False, data_dir: Path | None = None) -> int:
    """Run the Textual app (the menu, the table of ``match`` — as the seat ``joined`` names, if
    given —, or the replay of a game) until the player quits; ``notice`` is shown as it opens.
    ``confined``: no way to the menu (see CardtableApp). Without a ``store`` the app opens the
    one in ``data_dir`` when it first needs it (the menu: once it is on the screen)."""
    refuse_without_a_terminal(game_id, joined is not None)
    from .app import CardtableApp  # here, so the other commands never import Textual

    finish_writes_before_dying()
    app = CardtableApp(store=store, match=match, game_id=game_id, notice=notice, replay=replay, joined=joined,
                       confined=confined, data_dir=data_dir)
    try:
        app.run()
    finally:
        app.close_store()
    return app.return_code or 0


def refuse_without_a_terminal(game_id: str | None, joined: bool) -> None:
    """Textual reads keys from standard input and draws on standard error: where either is not a
    terminal (`cardtable < file`, `cardtable 2> log`, a script with no terminal) the table would
    wait for keys nobody can give, or draw where nobody sees it, and never end. A browser's
    table (``TEXTUAL_DRIVER``, set by textual-serve) brings its own input and output."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return
    for stream, name in ((sys.__stdin__, "input"), (sys.__stderr__, "error")):
        if stream is None or not stream.isatty():
            if joined:
                kept = "join again in a terminal: the seat is kept"
            elif game_id:
                kept = "the game is saved: resume it in a terminal"
            else:
                kept = f"run {PROG} in a terminal"
            raise UsageError(f"the table needs a terminal, and standard {name} is not one ({kept}; a program "
                             f"plays a seat with `{PROG} join CODE --stdio`)")


def open_menu(data_dir: Path) -> int:
    """The menu, its store opened by the app once the menu is on the screen; unless saves of an
    earlier cardtable wait to come in, which is said first (see bring_in_earlier_saves)."""
    if nothing_to_bring_in(data_dir):
        return launch_app(None, data_dir=data_dir)
    from .store import SaveStore

    store = SaveStore(data_dir)
    bring_in_earlier_saves(store)
    return launch_app(store)


def fail(message: str, status: int) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return status


def bring_in_earlier_saves(store: SaveStore) -> None:
    """The first start after the JSON store brings its saves into the database, replaying each
    once; with many, say so before the screen is taken (it may take some seconds)."""
    count = store.waiting_to_come_in()
    if count >= 20:
        print(f"{PROG}: bringing the {count} saved games of an earlier cardtable into {store.path} "
              "(once; the files are left as they are)…", file=sys.stderr, flush=True)
        store.list()
