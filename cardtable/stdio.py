"""A program at a seat: ``cardtable join CODE --stdio`` speaks JSON lines instead of showing a table.

Out, one JSON object a line (ASCII: anything else is escaped, so no reader ever splits a line
inside a name): ``state`` each time what the seat can see changes, ``refused`` for a command the
notation or the rules refuse, ``over`` at the end, ``error`` when the process must stop. In, one
command a line in the game's notation. Every command gets an answer: ``refused``, or a ``state``
whose ``moves`` counts it. The README's "Programs at a seat" is the protocol's reference.

The process is one more screen of the game: it says it is there (presence, so the seat is not
away), plays the game's bots when it sees them awaited, and follows the other screens through
the store's polling (``SaveStore.sync``: one ``PRAGMA data_version`` when nothing changed),
blocking on its input for at most ``POLL_SECONDS`` at a time. Textual is never imported here.
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import signal
import sys
import time
from typing import IO, TYPE_CHECKING, Any, Callable

from rules.core.errors import RulesError
from rules.core.jsonio import to_plain

from .paths import shorten
from .remote import play_awaited_bots
from .store import CodeError, GameChanged, Joined, SaveError
from .store.seats import PRESENCE_SECONDS

if TYPE_CHECKING:
    from rules.core import Match, Played

    from .store import SaveStore

POLL_SECONDS = 0.1
"""How long the process blocks on its input before it looks at the store again."""
MAX_LINE = 64 * 1024
"""The longest command line read (bytes); a longer one is refused whole."""
SHOWN = 200
"""How much of a refused line the ``refused`` message repeats."""

OVER, STORE_FAILED, WRONG_CODE, INPUT_ENDED = 0, 1, 2, 3
"""The exit statuses: the game is over; the store could not be read or written (or the game
cannot go on); a wrong code; the input ended (or the reader left) before the game did."""

Write = Callable[[dict[str, Any]], None]


class Stop(Exception):
    """End the process with ``status`` (after an ``error`` line when ``reason`` is given)."""

    def __init__(self, status: int, reason: str | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class SeatSession:
    """One seat (or the spectators' view) of a stored game, played through messages: ``start``,
    then ``line`` for each input line and ``poll`` every ``POLL_SECONDS``; each calls ``write``
    with the messages it has. Raises Stop when the process must end."""

    def __init__(self, store: SaveStore, joined: Joined, write: Write, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.store, self.game_id, self.seat = store, joined.game_id, joined.seat
        self.write, self.clock = write, clock
        self.screen = secrets.token_hex(8)
        self.match = self._open()
        self._shown: tuple[int, Any, list[str]] | None = None  # (moves, view, legal) last written
        self._logged = 0  # history entries whose events the lines written carry
        self._last_logged: Played | None = None
        self._here_at: float | None = None
        self.over_written = False

    # -- the store -------------------------------------------------------------------------------
    def _open(self) -> Match:
        try:
            return self.store.open(self.game_id).match
        except (OSError, LookupError, RulesError) as error:
            raise Stop(STORE_FAILED, f"The game cannot be opened: {error}") from None

    def _reopen(self) -> None:
        """The game changed elsewhere beyond what the match can follow (moves taken back): open
        it again; the next state line carries the whole log."""
        self.match = self._open()

    def be_here(self, force: bool = False) -> None:
        """Say every PRESENCE_SECONDS that the seat's screen is open (spectators are not seats)."""
        if self.seat is None:
            return
        now = self.clock()
        if not force and self._here_at is not None and now - self._here_at < PRESENCE_SECONDS:
            return
        self._here_at = now
        try:
            self.store.here(self.game_id, [self.seat], self.screen)
        except (OSError, LookupError):
            pass  # the seat reads as away until the store can be written again

    def leave(self) -> None:
        if self.seat is not None and self._here_at is not None:
            try:
                self.store.gone(self.game_id, self.screen)
            except (OSError, LookupError):
                pass  # its row grows old and reads as away

    # -- the steps -------------------------------------------------------------------------------
    def start(self) -> None:
        self.be_here(force=True)
        self.poll()

    def poll(self) -> None:
        """Catch up with the other screens, play the bots awaited, write what changed."""
        try:
            self.store.sync(self.game_id, self.match)
        except GameChanged:
            self._reopen()
        except SaveError:
            pass  # cannot be read just now: the next poll tries again
        self.be_here()
        self._bots()
        self.show()

    def _bots(self) -> None:
        if self.seat is None or self.match.over:
            return  # spectators only watch, as a spectators' table does
        try:
            play_awaited_bots(self.store, self.game_id, self.match)
        except GameChanged:
            self._reopen()
        except SaveError as error:
            raise Stop(STORE_FAILED, f"A bot's move could not be saved: {error}") from None
        except RulesError as error:
            raise Stop(STORE_FAILED, str(error)) from None

    def line(self, raw: bytes) -> None:
        """One input line (without its newline): a command, refused or played."""
        if len(raw) > MAX_LINE:
            self.refuse(raw[:SHOWN].decode("utf-8", "replace"),
                        f"The line is too long: a command has at most {MAX_LINE:,} bytes.")
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.refuse(raw.decode("utf-8", "replace"), "The line is not UTF-8 text: write a command in the game's "
                                                         "notation, one a line.")
            return
        text = text.rstrip("\r")
        if not text.strip():
            return
        self.command(text.strip())

    def command(self, text: str) -> None:
        if self.seat is None:
            self.refuse(text, "You are watching with the spectators' code: a spectator cannot play.")
            return
        try:
            self.store.play(self.game_id, self.match, self.seat, text)
        except RulesError as refusal:  # the notation, the rules, or another screen first (MovedFirst)
            self.refuse(text, str(refusal))
        except GameChanged as change:
            self._reopen()
            self.refuse(text, f"{change} Look at the game as it is now.")
        except SaveError as error:
            raise Stop(STORE_FAILED, f"The move could not be saved: {error}") from None
        except Exception as error:  # noqa: BLE001 — odd text must never end the program's seat
            self.refuse(text, f"The command could not be read ({type(error).__name__}).")
        self.poll()

    def refuse(self, text: str, reason: str) -> None:
        self.write({"type": "refused", "command": shorten(text, SHOWN), "reason": reason})

    # -- the messages ----------------------------------------------------------------------------
    def show(self) -> None:
        """A state line when the moves, the view or the legal commands changed since the last;
        then, at the end, the ``over`` line."""
        match, seat = self.match, self.seat
        view = to_plain(match.view(seat))
        legal = [match.format(command) for command in match.legal(seat)]
        shown = (len(match.history), view, legal)
        if shown != self._shown:
            whole, log = self._log(first=self._shown is None)
            self._shown = shown
            self.write({"type": "state", "seat": seat, "name": None if seat is None else match.names[seat],
                        "moves": len(match.history), "awaiting": seat in match.awaiting, "view": view,
                        "legal": legal, "log": log, "whole_log": whole})
        if match.over and not self.over_written:
            self.over_written = True
            outcome = match.outcome
            self.write({"type": "over", "outcome": {**to_plain(outcome), "winners": list(outcome.winners)}})

    def _log(self, first: bool) -> tuple[bool, list[str]]:
        """The sentences of the events the seat may see since the last state line, or all of
        them (True) in the first line and after moves were taken back elsewhere (the entries
        logged are no longer the history's: undo pops them, catching up plays new ones)."""
        history, n = self.match.history, self._logged
        whole = first or n > len(history) or (n > 0 and history[n - 1] is not self._last_logged)
        names = self.match.names
        log = [str(event.describe(names, self.seat)) for played in history[0 if whole else n:]
               for event in played.events if event.visible_to(self.seat)]
        self._logged = len(history)
        self._last_logged = history[-1] if history else None
        return whole, log


class Lines:
    """Bytes in, whole lines out; a line longer than MAX_LINE is given as its first MAX_LINE + 1
    bytes (so it is refused as too long) and the rest of it is dropped."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.dropping = False

    def feed(self, data: bytes) -> list[bytes]:
        self.buffer += data
        lines: list[bytes] = []
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                if len(self.buffer) > MAX_LINE:
                    if not self.dropping:
                        lines.append(bytes(self.buffer[: MAX_LINE + 1]))
                    self.dropping = True
                    self.buffer.clear()
                return lines
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            if self.dropping:
                self.dropping = False  # the end of the line too long, already refused
                continue
            lines.append(line)

    def end(self) -> list[bytes]:
        """The last line, when the input ended without a newline."""
        rest, dropping = bytes(self.buffer), self.dropping
        self.buffer.clear()
        return [rest] if rest and not dropping else []


def json_writer(out: IO[str]) -> Write:
    def write(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, ensure_ascii=True, allow_nan=False) + "\n")
        out.flush()
    return write


def run(store: SaveStore, code: str, *, stdin: int | None = None, stdout: IO[str] | None = None) -> int:
    """``cardtable join CODE --stdio``: play the seat ``code`` opens through JSON lines on the
    standard input and output until the game is over; the exit status (see OVER…INPUT_ENDED)."""
    fd = sys.stdin.fileno() if stdin is None else stdin
    write = json_writer(sys.stdout if stdout is None else stdout)
    try:
        joined = store.join(code)
    except CodeError as error:
        write({"type": "error", "reason": str(error)})
        return WRONG_CODE
    except OSError as error:
        write({"type": "error", "reason": str(error)})
        return STORE_FAILED
    _end_on_sigterm()
    session: SeatSession | None = None
    try:
        session = SeatSession(store, joined, write)
        session.start()
        return _loop(session, fd)
    except Stop as stop:
        if stop.reason is not None:
            try:
                write({"type": "error", "reason": stop.reason})
            except OSError:
                pass
        return stop.status
    except (BrokenPipeError, ConnectionResetError):  # the reader has gone: say nothing more
        if stdout is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return INPUT_ENDED
    finally:
        if session is not None:
            session.leave()


def _loop(session: SeatSession, fd: int) -> int:
    lines = Lines()
    # select(), not epoll: the input may be a regular file or /dev/null, which epoll refuses
    with selectors.SelectSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not session.over_written:
            if selector.select(POLL_SECONDS):
                data = os.read(fd, 65536)
                for raw in lines.feed(data) if data else lines.end():
                    session.line(raw)
                    if session.over_written:
                        return OVER
                if not data:
                    return INPUT_ENDED
            session.poll()
    return OVER


def _end_on_sigterm() -> None:
    """A ``kill`` ends the process as the end of its input does: the seat's screen says it has
    gone (SQLite's transactions need nothing more)."""
    def stop(number: int, _frame: Any) -> None:
        raise Stop(128 + number)

    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, stop)
