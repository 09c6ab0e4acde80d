"""Who `cardtable serve` lets in, as Jupyter does: the holder of a secret token made at start
(in the address the server prints), then, by the cookie that first visit sets, the same
browser; asking by a name the server gave out (against DNS rebinding); and, when the browser
says where a request comes from (Origin), from the server's own pages (against other sites
driving a websocket). Pure standard library, so it is tested without a server.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from typing import Iterable
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
DEFAULT_PORTS = {"http": 80, "https": 443}


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` means every address of this machine (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def in_url(host: str) -> str:
    """``host`` as a URL writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def _host_port(value: str) -> tuple[str, int | None] | None:
    """A Host header's name (lower case, an IPv6 address without brackets) and port (None when
    not written); None when it is not one."""
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number, a bracket left open
        return None
    if not name or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return name, port


def _origin(value: str) -> tuple[str, str, int] | None:
    """An Origin (or URL) as (scheme, name, port), the port filled in for the scheme."""
    try:
        parts = urlsplit(value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not name or "@" in parts.netloc:
        return None
    return parts.scheme, name, port or DEFAULT_PORTS[parts.scheme]


class Gate:
    """The token, the cookie and the names of one server listening on ``port`` by ``names``
    (each a host name or an address), and reached, if given, at ``public_url`` (behind a
    proxy, say). Each server start makes a new token: an address printed by an earlier start
    no longer lets anyone in."""

    def __init__(self, port: int, names: Iterable[str], public_url: str | None = None) -> None:
        self.token = secrets.token_urlsafe(32)
        # the cookie is a secret of its own rather than the token: the token is in the address,
        # and an address is shown, shared and kept in histories where a cookie is not
        self._cookie_value = secrets.token_urlsafe(32)
        # cookies are not kept apart by port: two servers on one machine each need their own
        self.cookie_name = f"cardtable-{port}"
        self._hosts: set[tuple[str, int | None]] = set()
        self._origins: set[tuple[str, str, int]] = set()
        for name in names:
            name = name.strip("[]").lower()
            self._hosts.add((name, port))
            if port == 80:  # a browser leaves the default port out of the Host header
                self._hosts.add((name, None))
            self._origins.add(("http", name, port))
        self._public = _origin(public_url) if public_url else None
        if self._public is not None:
            scheme, name, public_port = self._public
            self._hosts.add((name, public_port))
            self._hosts.add((name, None))  # what a proxy in front passes on
            self._origins.add(self._public)

    def cookie_ok(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self._cookie_value.encode())

    def token_ok(self, value: str) -> bool:
        return hmac.compare_digest(value.encode(), self.token.encode())

    def host_ok(self, value: str | None) -> bool:
        host = _host_port(value) if value else None
        return host is not None and host in self._hosts

    def origin_ok(self, value: str) -> bool:
        return _origin(value) in self._origins

    def refusal(self, host: str | None, origin: str | None, token: str | None, cookie: str | None) -> str | None:
        """Why a request with these headers, ``?token=`` and cookie is refused, in words; None
        to let it in (with the right token: the caller then sets the cookie)."""
        refused = self.place_refusal(host, origin)
        if refused is not None:
            return refused
        if token is not None:
            return None if self.token_ok(token) else (
                "That token is not this server's: open the address that cardtable serve printed when it "
                "started. Each start makes a new token, so an address from an earlier start no longer works.")
        if self.cookie_ok(cookie):
            return None
        return ("This cardtable is private. Open the address that cardtable serve printed when it started "
                "(it ends in ?token=…); each start makes a new one.")

    def place_refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these headers is refused whoever makes it (asked by a name not
        this server's, or from another site's page), in words; None when it may go on: the
        join page and what it loads need no token (the join code is their key)."""
        if not self.host_ok(host):
            return (f"This cardtable does not answer to the name {(host or '(none)')[:100]}. Open the address "
                    "that cardtable serve printed when it started (behind a proxy, start it with --public-url).")
        if origin is not None and not self.origin_ok(origin):
            return "This cardtable answers only its own pages, not another site's."
        return None

    def cookie(self) -> tuple[str, str]:
        """The cookie to set for a browser that came with the right token: (name, value)."""
        return self.cookie_name, self._cookie_value

    def secure(self, host: str | None) -> bool:
        """Whether the cookie for a request to ``host`` is for https only: when it is the public
        URL's name and that URL is https (a proxy in front speaks https to the browser)."""
        found = _host_port(host) if host else None
        return (self._public is not None and self._public[0] == "https" and found is not None
                and found[0] == self._public[1])
