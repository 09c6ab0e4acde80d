"""`cardtable serve`: the same app in web browsers, through textual-serve.

Each browser tab that opens the page gets its own cardtable (a process running ``python -m
cardtable.serve_child``, which ends with the server, on the same data folder), so a tablet
passed around the table, or a second screen, plays pass-and-play with the games and the record
of this machine (two tabs on one game both play it, each seeing the other's moves). Only a browser that came by the address the server prints,
with its secret token, is let in (see ``web.gate``); at most ``max_tabs`` tabs play at once.
It listens on 127.0.0.1 unless told otherwise, and refuses a port already in use with a
sentence, before starting anything.

textual-serve is an optional extra (``pip install 'cardtable[serve]'``); it is imported only
by this command (``web.server``).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import shlex
import signal
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .door import Door
from .store import SaveStore
from .serving import announced
from .web.gate import LOOPBACK_NAMES, Gate, in_url, is_loopback, is_wildcard

MAX_TABS = 8
"""Browser tabs playing at once by default: each runs its own cardtable, some 40 MiB."""
# "Somewhere on the networks": documentation addresses (RFC 5737, RFC 3849). Connecting a UDP
# socket towards one sends nothing; it only asks the kernel which address of this machine a
# packet that way would leave from.
PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


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


def machine_addresses(host: str) -> list[str]:
    """The addresses of this machine that other devices can reach a server listening on
    ``host`` (0.0.0.0: the IPv4 ones, ::, the IPv6 ones) by: those of its host name, and the
    one its route to the networks leaves from. Loopback and link-local addresses are left out.
    Nothing is sent anywhere."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    found: list[str] = []
    for name in dict.fromkeys([socket.gethostname(), socket.getfqdn()]):
        try:
            found += [info[4][0] for info in socket.getaddrinfo(name, None, family, socket.SOCK_STREAM)]
        except (socket.gaierror, UnicodeError):
            pass
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBES[family], 9))
            found.append(probe.getsockname()[0])
    except OSError:  # no route to any network
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in usable:
            usable.append(address)
    return usable


def served_names(host: str, addresses: list[str]) -> list[str]:
    """The names a browser may ask for a server listening on ``host`` by: ``host``; for a
    loopback one the loopback names; for 0.0.0.0 or :: those too, this machine's names and
    ``addresses``. Any other name is refused (a DNS rebinding attack asks by its own)."""
    names = [host]
    if is_loopback(host) or is_wildcard(host):
        names += LOOPBACK_NAMES
    if is_wildcard(host):
        names += [socket.gethostname(), socket.getfqdn(), *addresses]
    return list(dict.fromkeys(names))


def public_address(url: str) -> str:
    """``--public-url`` checked, its path ending in / (the page's addresses are relative)."""
    parts = urlsplit(url)
    try:
        parts.port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ServeError(f"--public-url must be an http:// or https:// address, such as "
                         f"https://cards.example.org/ (not {url!r})")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/", "", ""))


def greeting(host: str, port: int, token: str, root: Path, max_tabs: int,
             public_url: str | None = None, addresses: list[str] | None = None) -> str:
    """What `cardtable serve` says once it listens: the addresses to open (each with the
    token), who can reach them, and how to stop."""
    def url(name: str) -> str:
        return f"http://{in_url(name)}:{port}/?token={token}"

    if public_url:
        lines = [f"cardtable is being served at {public_url}?token={token} — open it in a web browser "
                 f"(it listens on {in_url(host)}:{port})."]
    elif is_wildcard(host):
        lines = [f"cardtable is being served at {url('::1' if ':' in host else '127.0.0.1')} on this machine; "
                 "from other devices, open one of:"]
        lines += [f"  {url(address)}" for address in addresses or []] or [
            "  (no network address of this machine was found: say how others reach it with --public-url)"]
    else:
        lines = [f"cardtable is being served at {url(host)} — open it in a web browser."]
    join_at = join_page(host, port, public_url, addresses)
    lines.append(f"A player who holds a join code opens {join_at} and types it: it opens that seat's table "
                 "and nothing else (no token needed).")
    if is_loopback(host):
        lines.append("Only this machine can reach it, and only a browser that opens that address: its token "
                     "is the key. Whoever has the address can play, and open or delete the saved games.")
    else:
        lines.append(f"Listening on {host}: ANYONE ON YOUR NETWORK WHO HAS THE ADDRESS (its token is the key) CAN "
                     "PLAY, start games and open or delete the saved games. Give it only to the players.")
    lines.append(f"At most {max_tabs} browser tab{'s' * (max_tabs != 1)} can play at once (--max-tabs). "
                 f"Games are saved in {root}. Press Ctrl+C to stop.")
    return "\n".join(lines)


def join_page(host: str, port: int, public_url: str | None, addresses: list[str] | None) -> str:
    """The address of the join page, as players elsewhere open it."""
    if public_url:
        return f"{public_url}join"
    if is_wildcard(host):
        return f"http://{in_url((addresses or ['THIS-MACHINE'])[0])}:{port}/join"
    return f"http://{in_url(host)}:{port}/join"


def ssh_forms(host: str, port: int, addresses: list[str]) -> list[str]:
    """`ssh -p PORT CODE@NAME` for each name players may reach this machine by."""
    names = (addresses or ["THIS-MACHINE"]) if is_wildcard(host) else [host]
    return [f"ssh -p {port} CODE@{name}" for name in names]


def ssh_lines(host: str, port: int, fingerprint: str, addresses: list[str]) -> list[str]:
    """What `cardtable serve --ssh-port` says of its SSH server: how players join, and the key."""
    lines = ["Players join over SSH with their join code as the user name, no password:"]
    lines += [f"  {form}" for form in ssh_forms(host, port, addresses)]
    lines.append(f"  (this server's host key: {fingerprint}; it lets in a seat's table and nothing else)")
    return lines


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, public_url: str | None = None,
          max_tabs: int = MAX_TABS, ssh_port: int | None = None, ssh_only: bool = False) -> int:
    """Serve the app until Ctrl+C (or SIGTERM); the exit status. Raises ServeError in words.
    ``ssh_port``: an SSH server too (see ``ssh``); ``ssh_only``: that alone, no web server."""
    if max_tabs < 1:
        raise ServeError(f"--max-tabs must be 1 or more (not {max_tabs})")
    if ssh_only and ssh_port is None:
        raise ServeError("--ssh-only needs --ssh-port PORT: the port of the SSH server")
    if ssh_port is not None and not ssh_only and ssh_port == port:
        raise ServeError(f"--ssh-port and --port are both {port}: the SSH server and the web server need a port each")
    public = public_address(public_url) if public_url else None
    problem = port_problem(host, port) if not ssh_only else None
    if problem is None and ssh_port is not None:
        problem = port_problem(host, ssh_port)
        if problem is not None:
            problem = problem.replace("--port", "--ssh-port")
    if problem is not None:
        raise ServeError(problem)
    ssh = _ssh_module() if ssh_port is not None else None
    addresses = machine_addresses(host) if is_wildcard(host) else []
    # `cardtable new` names this server's ways in beside each join code while it runs
    with announced(root, None if ssh_only else join_page(host, port, public, addresses),
                   ssh_forms(host, ssh_port, addresses) if ssh_port is not None else []):
        return _serve(root, host, port, public, max_tabs, ssh_port, ssh_only, ssh, addresses)


def _serve(root: Path, host: str, port: int, public: str | None, max_tabs: int, ssh_port: int | None,
           ssh_only: bool, ssh: Any, addresses: list[str]) -> int:
    door = Door(SaveStore(root))
    if ssh_only:
        assert ssh is not None and ssh_port is not None
        return _serve_ssh_alone(ssh, door, root, host, ssh_port, max_tabs, addresses)
    try:
        from .web.server import CardtableServer
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2"):
            raise
        raise ServeError("serving to a browser needs textual-serve: pip install 'cardtable[serve]' "
                         "(in a checkout: pip install -e '.[serve]')" + (
                             "; or serve SSH alone with --ssh-only" if ssh_port is not None else "")) from None

    gate = Gate(port, served_names(host, addresses), public)
    # exec: the app is the server's own child (not a shell's), so it learns when the server ends
    command = "exec " + shlex.join([sys.executable, "-m", "cardtable.serve_child", str(os.getpid()),
                                    "--data-dir", str(root)])
    text = greeting(host, port, gate.token, root, max_tabs, public, addresses)
    server = CardtableServer(command, host, port, gate, max_tabs, text, door)
    if ssh is not None:
        assert ssh_port is not None
        ssh_server = SSHRunner(ssh, door, root, host, ssh_port, max_tabs)

        async def start_ssh(_app: object) -> None:
            fingerprint = await ssh_server.start()
            lines = ssh_lines(host, ssh_port, fingerprint, addresses)
            server.greeting = "\n".join([*text.splitlines()[:-1], *lines, text.splitlines()[-1]])

        async def stop_ssh(_app: object) -> None:
            await ssh_server.stop()

        server.also_run(start_ssh, stop_ssh)
    try:
        server.serve()
    except OSError as error:  # taken between the check and the start
        raise ServeError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    except SSHFailed as error:
        raise ServeError(str(error)) from None
    except KeyboardInterrupt:
        pass
    return 0


class SSHFailed(Exception):
    """The SSH server could not start (its message in words)."""


def _ssh_module() -> Any:
    try:
        from . import ssh
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("asyncssh", "cryptography"):
            raise
        raise ServeError("serving over SSH needs asyncssh: pip install 'cardtable[ssh]' "
                         "(in a checkout: pip install -e '.[ssh]')") from None
    return ssh


class SSHRunner:
    """The SSH server of one `cardtable serve`, started and stopped on the web server's loop
    (or a loop of its own with --ssh-only)."""

    def __init__(self, ssh: Any, door: Door, root: Path, host: str, port: int, max_sessions: int) -> None:
        self.ssh, self.door, self.root, self.host, self.port, self.max_sessions = ssh, door, root, host, port, max_sessions
        self.listener: Any = None
        self.sessions: Any = None

    async def start(self) -> str:
        """Listen; the host key's fingerprint. SSHFailed in words."""
        try:
            self.listener, self.sessions, fingerprint = await self.ssh.start(
                self.door, self.root, self.host, self.port, self.max_sessions)
        except self.ssh.SSHError as error:
            raise SSHFailed(str(error)) from None
        return fingerprint

    async def stop(self) -> None:
        """Stop listening and end every app it started."""
        if self.listener is not None:
            self.listener.close()
            await self.sessions.end_all()


def _serve_ssh_alone(ssh: Any, door: Door, root: Path, host: str, port: int, max_sessions: int,
                     addresses: list[str]) -> int:
    runner = SSHRunner(ssh, door, root, host, port, max_sessions)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        fingerprint = await runner.start()
        lines = ["cardtable is being served over SSH only (no web server).",
                 *ssh_lines(host, port, fingerprint, addresses),
                 f"At most {max_sessions} SSH player{'s' * (max_sessions != 1)} can play at once (--max-tabs). "
                 f"Games are saved in {root}. Press Ctrl+C to stop."]
        print("\n".join(lines), flush=True)
        try:
            await stop.wait()
        finally:
            await runner.stop()

    try:
        asyncio.run(run())
    except SSHFailed as error:
        raise ServeError(str(error)) from None
    return 0
