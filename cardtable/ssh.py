"""`cardtable serve --ssh-port PORT`: seats played over SSH, the join code as the user name.

``ssh -p PORT K7QX-M2PD@HOST`` opens the table of the seat that code opens (or the spectators'
view), in the player's own terminal and at its size. The server (asyncssh, the ``ssh`` extra)
asks no password: the code is the key, so a connection is let in exactly when its user name is a
code that opens something, checked at the ``Door`` (slowed per address after wrong ones). A
wrong code is refused before anything starts, with the sentence saying why as the login banner.

Nothing else is served: no shell (the app is the only program), no command (``ssh ... id`` gets
a sentence and exit status 1), no subsystem (sftp), no forwarding of ports, sockets, the agent or
X11. Each connection runs ``cardtable join --no-menu`` (the code in its environment, out of the
process list) in its own process, on a pseudo-terminal of its own (see ``serve_child``: it ends
with the server, and is hung up when its connection ends), at most ``max_sessions`` at once. What
the client asks to set in the environment is not passed on (only the name of its terminal, TERM).

The host key is made once, on the first start, and kept in the data folder (``HOST_KEY``, mode
0600), so players' ssh knows the server again from one start to the next.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import logging
import os
import re
import signal
import struct
import sys
import termios
from pathlib import Path
from typing import Any, Callable

import asyncssh

from .serving import CODE_VARIABLE
from .door import CodeError, Door

HOST_KEY = "ssh_host_ed25519_key"
"""The server's host key, in the data folder."""
LOGIN_SECONDS = 30
"""A connection that has not logged in by then is closed."""
HANG_UP_SECONDS = 5.0
"""How long an app is given to end after its connection did, before it is killed."""
DEFAULT_TERM = "xterm-256color"


class SSHError(Exception):
    """The SSH server cannot start: the message says why, in words."""


def host_key(root: Path) -> asyncssh.SSHKey:
    """The server's key, made and kept in ``root`` on the first start (readable by its owner
    only). SSHError when the file there cannot be used."""
    path = root / HOST_KEY
    try:
        root.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as error:
        raise SSHError(f"cannot make the SSH host key {path}: {error.strerror or error}") from None
    else:
        key = asyncssh.generate_private_key("ssh-ed25519", comment="cardtable serve")
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
        return key
    try:
        if path.stat().st_mode & 0o077:  # someone widened it: a host key is its owner's alone
            path.chmod(0o600)
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        raise SSHError(f"the SSH host key {path} cannot be read ({error}); move it away and a new one is made "
                       "(players' ssh will then warn that the server's key changed)") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


class Sessions:
    """The apps running for SSH connections: at most ``most`` at once."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.running: set[AppSession] = set()

    def full(self) -> bool:
        return len(self.running) >= self.most

    async def end_all(self) -> None:
        await asyncio.gather(*(session.end() for session in list(self.running)))


class Server(asyncssh.SSHServer):
    """One connection: its user name is checked at the door; it may open sessions, nothing else
    (asyncssh's defaults refuse every kind of forwarding; agent and X11 are turned off)."""

    def __init__(self, door: Door, sessions: Sessions, command: list[str]) -> None:
        self.door, self.sessions, self.command = door, sessions, command
        self.connection: asyncssh.SSHServerConnection | None = None
        self.code: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn

    async def begin_auth(self, username: str) -> bool:
        """False (no password: let in) for a code that opens something; True, with no way to
        authenticate offered, for any other user name, the sentence saying why as the banner."""
        assert self.connection is not None
        peer = self.connection.get_extra_info("peername")
        try:
            await self.door.check(username, peer[0] if peer else None)
        except CodeError as refused:
            self.connection.send_auth_banner(f"cardtable: {refused.args[0]}\r\n")
            return True
        except OSError as error:
            self.connection.send_auth_banner(f"cardtable: the games cannot be read here: {error}\r\n")
            return True
        self.code = username
        return False

    def session_requested(self) -> AppSession:
        return AppSession(self)


class AppSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """The app of one connection, on a pseudo-terminal whose master end is relayed to the
    channel (bytes both ways); the client's window size follows to the terminal."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.channel: Any = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.master: int | None = None
        self.process: asyncio.subprocess.Process | None = None
        self.pending = bytearray()
        self.ended = False

    def connection_made(self, chan: Any) -> None:
        self.channel = chan

    # -- what the client asks for ------------------------------------------------------------
    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        # the client names its terminal: only a plain name reaches the app's environment
        self.term = term_type if re.fullmatch(r"[\w.+-]{1,64}", term_type or "") else DEFAULT_TERM
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted only to say that nothing is run
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        port = self.channel.get_extra_info("sockname")[1]
        how = f"ssh -t -p {port} CODE@HOST"
        if self.command is not None:
            self.refuse(f"cardtable runs no commands: connect without one ({how}) to open your seat's table.")
        elif self.term is None:
            self.refuse(f"cardtable needs a terminal: connect with {how} (-t asks for one).")
        elif self.server.sessions.full():
            self.refuse(f"The table is full: {self.server.sessions.most} SSH players are playing already, the most "
                        "this cardtable serve lets in at once (--max-tabs). Try again later.")
        else:
            self.server.sessions.running.add(self)
            asyncio.ensure_future(self.run())

    def refuse(self, sentence: str) -> None:
        self.channel.write_stderr(f"cardtable: {sentence}\r\n".encode())
        self.channel.exit(1)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.master is not None:
                set_size(self.master, width, height)

    # -- the app -----------------------------------------------------------------------------
    async def run(self) -> None:
        """Start the app on a terminal of its own, relay it, and end the channel with its exit
        status."""
        loop = asyncio.get_running_loop()
        master, slave = os.openpty()
        self.master = master
        set_size(master, *self.size)
        os.set_blocking(master, False)
        environment = {**os.environ, "TERM": self.term or DEFAULT_TERM, CODE_VARIABLE: self.server.code or ""}
        for name in ("COLUMNS", "LINES", "TEXTUAL_DRIVER", "COLORTERM"):
            environment.pop(name, None)
        try:
            self.process = await asyncio.create_subprocess_exec(
                *self.server.command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                env=environment)
        except OSError as error:
            os.close(slave)
            self.refuse(f"the table could not be started here: {error.strerror or error}")
            self.close_master()
            self.server.sessions.running.discard(self)
            return
        os.close(slave)
        loop.add_reader(master, self.from_app)
        status = await self.process.wait()
        self.close_master()
        self.server.sessions.running.discard(self)
        if not self.ended:
            self.ended = True
            self.channel.exit(status if status >= 0 else 128 - status)

    def from_app(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every holder of the terminal has gone (the app ended)
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.channel.write(data)

    def pause_writing(self) -> None:  # the client reads slowly: stop reading the app meanwhile
        if self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_writing(self) -> None:
        if self.master is not None:
            asyncio.get_running_loop().add_reader(self.master, self.from_app)

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.master is None:
            return
        self.pending += data
        self.to_app()

    def to_app(self) -> None:
        """Write what the player typed to the app; what the terminal cannot take yet waits,
        and the channel stops reading until it has."""
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        try:
            written = os.write(self.master, self.pending)
        except BlockingIOError:
            written = 0
        except OSError:
            self.pending.clear()
            return
        del self.pending[:written]
        if self.pending:
            self.channel.pause_reading()
            loop.add_writer(self.master, self.to_app)
        else:
            loop.remove_writer(self.master)
            self.channel.resume_reading()

    def eof_received(self) -> bool:
        return False  # the client has no more input: the connection closes, and the app with it

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        if self.process is not None and self.process.returncode is None:
            asyncio.ensure_future(self.end())

    async def end(self) -> None:
        """End the app: SIGTERM, then after ``HANG_UP_SECONDS`` SIGKILL (every move was written as
        it was made)."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with _gone():
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), HANG_UP_SECONDS)
        except asyncio.TimeoutError:
            with _gone():
                process.kill()
            await process.wait()

    def close_master(self) -> None:
        if self.master is not None:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None


class _gone:
    """Ignore a process that has ended already."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, error: BaseException | None, trace: Any) -> bool:
        return kind is ProcessLookupError


def set_size(terminal: int, width: int, height: int) -> None:
    """Size the pseudo-terminal: the kernel tells the app (SIGWINCH)."""
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


async def start(door: Door, root: Path, host: str, port: int, max_sessions: int) -> tuple[Any, Sessions, str]:
    """Listen on ``host``:``port``; the asyncssh server, the running sessions and the host key's
    fingerprint. SSHError in words."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # not a line per connection on the server's screen
    key = host_key(root)
    sessions = Sessions(max_sessions)
    # exec: the app is the server's own child, so it learns when the server ends (serve_child)
    command = [sys.executable, "-m", "cardtable.serve_child", str(os.getpid()), "--data-dir", str(root),
               "join", "--no-menu"]
    factory: Callable[[], Server] = lambda: Server(door, sessions, command)  # noqa: E731
    try:
        listener = await asyncssh.create_server(
            factory, host, port, server_host_keys=[key], encoding=None, login_timeout=LOGIN_SECONDS,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            password_auth=False, kbdint_auth=False, public_key_auth=False, gss_host=None,
            host_based_auth=False, reuse_address=True)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise SSHError(f"port {port} on {host} is already in use; choose another with --ssh-port") from None
        raise SSHError(f"cannot listen for SSH on {host} port {port}: {error.strerror or error}") from None
    return listener, sessions, fingerprint(key)
