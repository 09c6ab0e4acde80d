"""`cardtable serve`: the same app in web browsers, through textual-serve.

Each browser that opens the page gets its own cardtable (a process running ``python -m
cardtable`` with the same data folder), so a tablet passed around the table, or a second
screen, plays pass-and-play with the saves, the record and the locks of this machine. It
listens on 127.0.0.1 unless told otherwise, says plainly that anyone who can reach the port
can play, and refuses a port already in use with a sentence, before starting anything.

textual-serve is an optional extra (``pip install 'cardtable[serve]'``); it is imported only
here, only by this command.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import shlex
import signal
import socket
import sys
from pathlib import Path


class ServeError(Exception):
    """The app cannot be served as asked; the message says why, in words."""


def port_problem(host: str, port: int) -> str | None:
    """Why ``host``:``port`` cannot be listened on (in use, not an address of this machine),
    or None when it is free. Checked the way the server binds (SO_REUSEADDR), so a port left
    in TIME_WAIT by a server just stopped counts as free and one with a listener as in use."""
    if not 0 < port < 65536:
        return f"{port} is not a port number (1-65535)"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"cannot listen on {host!r}: {error.strerror or error}"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return (f"port {port} on {host} is already in use (another program, or another "
                        f"cardtable serve, is listening there); choose another with --port")
            if error.errno == errno.EACCES:
                return f"port {port} needs special permission; choose one above 1023 with --port"
            if error.errno == errno.EADDRNOTAVAIL:
                return f"{host} is not an address of this machine"
            return f"cannot listen on {host} port {port}: {error.strerror or error}"
    return None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def greeting(url: str, host: str, root: Path) -> str:
    """What `cardtable serve` says once it listens: where, who can play, and how to stop."""
    if is_loopback(host):
        who = ("Anyone who can reach this port can play: on this machine that is every user and "
               "program, so do not forward the port to a network you do not trust.")
    else:
        who = (f"Listening on {host}: ANYONE WHO CAN REACH THIS PORT ON YOUR NETWORK CAN PLAY, start "
               "games and open or delete the saved games. There is no password.")
    return (f"cardtable is being served at {url} — open it in a web browser.\n"
            f"{who}\n"
            f"Games are saved in {root}. Press Ctrl+C to stop.")


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, public_url: str | None = None) -> int:
    """Serve the app until Ctrl+C (or SIGTERM); the exit status. Raises ServeError in words."""
    problem = port_problem(host, port)
    if problem is not None:
        raise ServeError(problem)
    try:
        from aiohttp import web
        from textual_serve.server import Server
    except ImportError:
        raise ServeError("serving to a browser needs textual-serve: pip install 'cardtable[serve]' "
                         "(in a checkout: pip install -e '.[serve]')") from None

    command = shlex.join([sys.executable, "-m", "cardtable", "--data-dir", str(root)])
    shown = public_url or f"http://{'[' + host + ']' if ':' in host else host}:{port}"

    class CardtableServer(Server):
        """textual-serve's Server, saying cardtable's own words once it really listens."""

        async def on_startup(self, app: web.Application) -> None:
            pass  # (textual-serve prints its banner here, before the port is open)

        def serve(self, debug: bool = False) -> None:
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            for number in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.add_signal_handler(number, self.request_exit)
                except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
                    pass
            web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False,
                        loop=loop, print=lambda *_args: print(greeting(shown, host, root), flush=True))

    server = CardtableServer(command, host=host, port=port, title="cardtable", public_url=public_url or shown)
    try:
        server.serve()
    except OSError as error:  # taken between the check and the start
        raise ServeError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    except KeyboardInterrupt:
        pass
    return 0
