"""The cardtable that `cardtable serve` starts for one browser tab, which ends when the server
does: ``python -m cardtable.serve_child SERVER_PID [cardtable's arguments]``.

A server killed outright (``kill -9``, a crash) cannot stop its apps; an app left running with
nobody to see it would go on playing its game's bots into the store, which every other
cardtable would then see. So each app asks the kernel for a SIGTERM when the server goes
(Linux's PR_SET_PDEATHSIG), or elsewhere watches for it to go. A SIGTERM ends the app as a
``kill`` would: Textual's web driver quits the app (every move was written as it was made).

The SSH server starts its apps the same way, each in a session of its own on a pseudo-terminal
(its stdin): the app takes that terminal as its controlling one, so a change of the player's
window size reaches it (SIGWINCH), and the end of the connection hangs it up (SIGHUP).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WATCH_EVERY = 1.0
"""Seconds between two looks at the parent where the kernel cannot be asked."""


def end_with_server(server: int) -> None:
    """End this process (by SIGTERM) when process ``server``, its parent, ends."""
    if not _ask_the_kernel():
        threading.Thread(target=_watch, args=(server,), name="server-watch", daemon=True).start()
    if os.getppid() != server:  # it ended before the kernel was asked
        os.kill(os.getpid(), signal.SIGTERM)


def _ask_the_kernel() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(server: int) -> None:
    while os.getppid() == server:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGTERM)


def take_the_terminal() -> None:
    """Make stdin, a terminal, the controlling terminal of this process when it leads a session
    of its own (as the SSH server starts it); otherwise nothing."""
    if os.name != "posix":
        return
    import fcntl
    import termios

    if os.isatty(0) and os.getsid(0) == os.getpid():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def main(argv: list[str] | None = None) -> int:
    server, *arguments = sys.argv[1:] if argv is None else argv
    end_with_server(int(server))
    take_the_terminal()
    from .cli import main as cardtable

    return cardtable(arguments)


if __name__ == "__main__":
    sys.exit(main())
