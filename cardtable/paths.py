"""Where cardtable keeps things, and writing a whole file safely.

The data folder (``$CARDTABLE_DATA_DIR`` or the platform's user data folder) holds the games
(``cardtable.store``) and the record of finished games; the settings live in the config folder
(``cardtable.settings``). A folder the player names may start with ``~`` or ``~user``; one that
cannot be found is an ``UnusablePath`` in words. ``write_atomically`` writes the small files
that are still files (the settings, an exported game): a temporary file beside the target,
synced, then swapped in, so the previous file survives any failure half-way.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import socket
import threading
from pathlib import Path
from typing import Any, Callable

import platformdirs

APP_NAME = "cardtable"
DATA_DIR_ENV = "CARDTABLE_DATA_DIR"


class UnusablePath(ValueError):
    """A folder the player named (a flag, an environment variable) that cannot be used as
    written; the message names where it came from and says why."""


def user_path(text: str | Path, source: str) -> Path:
    """``text`` as a path, a leading ``~`` or ``~user`` expanded. Raises UnusablePath, naming
    ``source`` ("--data-dir", "CARDTABLE_DATA_DIR"), when that home folder cannot be found (an
    unknown user: pathlib raises a bare RuntimeError)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        head = str(text).replace("\\", "/").split("/", 1)[0]
        why = (f"there is no user {head[1:]!r} on this computer, so {head!r} names no home folder"
               if len(head) > 1 else "your home folder ('~') cannot be found")
        raise UnusablePath(f"{source} {str(text)!r} cannot be used: {why}") from None


def folder_from(variable: str, platform_folder: Callable[[str], Path]) -> Path:
    """``$variable`` if set, else ``platform_folder(APP_NAME)`` (a platformdirs function).
    Raises UnusablePath for a value naming a home folder that cannot be found."""
    override = os.environ.get(variable, "").strip()
    if override:
        return user_path(override, variable)
    return platform_folder(APP_NAME)


def default_data_dir() -> Path:
    """``$CARDTABLE_DATA_DIR`` if set, else the platform's user data folder for cardtable."""
    return folder_from(DATA_DIR_ENV, platformdirs.user_data_path)


# -- words for OS errors ---------------------------------------------------------------------
def why(error: OSError, folder: Path | None = None) -> str:
    """Why an OSError happened, in words a player understands (``folder``: where something was
    to be written, so a file standing where a folder should be can be named)."""
    code = error.errno
    if code in (errno.ENOTDIR, errno.EEXIST) and folder is not None:
        blocker = file_in_the_way(folder)
        if blocker is not None:
            return f"{blocker} is a file, not a folder"
    if code in (errno.EACCES, errno.EPERM):
        return "there is no permission to write there" if folder is not None else "permission denied"
    if code == errno.ENOSPC:
        return "the disk is full"
    if code == getattr(errno, "EDQUOT", -1):
        return "the disk quota is used up"
    if code == errno.EROFS:
        return "the disk is read-only"
    if code == errno.ENAMETOOLONG:
        return "the path is too long"
    if code == errno.ENOTDIR:
        return "part of the path is a file, not a folder"
    return shorten(error.strerror or str(error) or type(error).__name__, 200).rstrip(".")


def file_in_the_way(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that exists but is not a folder."""
    for candidate in (folder, *folder.parents):
        try:
            if candidate.exists():
                return None if candidate.is_dir() else candidate
        except OSError:
            return None
    return None


def shorten(text: object, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut): a file may hold anything."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def free_name(folder: Path, name: str) -> Path:
    """``folder/name``, or ``folder/<stem>.1<suffix>``, ``.2``… if that is taken."""
    target = folder / name
    stem, suffix = os.path.splitext(name)
    number = 1
    while target.exists():
        target = folder / f"{stem}.{number}{suffix}"
        number += 1
    return target


# -- writing files ---------------------------------------------------------------------------
def _host() -> str:
    host = re.sub(r"[^A-Za-z0-9-]+", "-", socket.gethostname()).strip("-")[:40]
    return host or "host"


_HOST = _host()
# the temporary files this process is writing right now
_IN_FLIGHT: set[str] = set()


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` to a temporary file beside ``path``, make it durable, then swap it in.

    The temporary file is named after this process and host (``.<name>.<host>-<pid>.<random>.tmp``)
    and removed on any failure Python sees; a SIGTERM or SIGHUP that arrives meanwhile waits for
    the write to finish (see ``finish_writes_before_dying``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    temp = path.parent / f".{path.name}.{_HOST}-{os.getpid()}.{os.urandom(4).hex()}.tmp"
    _IN_FLIGHT.add(temp.name)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, path)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        _sync_folder(path.parent)
    finally:
        _IN_FLIGHT.discard(temp.name)
        if _PENDING_SIGNALS and not _IN_FLIGHT:
            _die(_PENDING_SIGNALS[0])


_PENDING_SIGNALS: list[int] = []


def finish_writes_before_dying() -> None:
    """Make SIGTERM and SIGHUP (a ``kill``, a closed terminal) wait for a file being written,
    so that none is left half-way with its temporary file; the process then ends as it would
    have. Only where those signals still have their default action, and from the main thread.
    (The games need none of this: SQLite's transactions survive any kill.)"""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, _deferred)


def _deferred(number: int, _frame: Any) -> None:
    if _IN_FLIGHT:
        _PENDING_SIGNALS.append(number)
    else:
        _die(number)


def _die(number: int) -> None:
    """End the process by signal ``number``, as its default action would have."""
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)


def _sync_folder(folder: Path) -> None:
    # the rename is durable only once the folder itself is synced (POSIX; not possible on Windows)
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
