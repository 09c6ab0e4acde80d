"""The web server of `cardtable serve`: textual-serve's Server (aiohttp), behind the gate (see
``gate``), with a cap on the browser tabs playing at once and a page of our own that loads
nothing from outside this machine.

Each browser tab's websocket starts its own cardtable process (some 45 MiB), so past
``max_tabs`` a tab is sent to a page saying the table is full instead of starting another.
Needs the serve extra (textual-serve, aiohttp); only `cardtable serve` imports this module.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from pathlib import Path
from typing import Awaitable, Callable

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from textual_serve.server import Server, to_int

from .gate import Gate

WEB = Path(__file__).parent
# textual-serve's own page script and style sheet, served as installed so that the script
# always speaks the protocol of the installed server
TEXTUAL_STATIC = Path(textual_serve.__file__).parent / "static"
TURNED_AWAY_WAIT = 10.0
"""Seconds a tab turned away has to leave for the full page before its websocket is closed."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
log = logging.getLogger("textual-serve")


class CardtableServer(Server):
    """Serves ``command`` (one process for each browser tab) on ``host``:``port`` to those
    ``gate`` lets in, ``max_tabs`` tabs at a time; ``greeting`` is printed once it listens."""

    def __init__(self, command: str, host: str, port: int, gate: Gate, max_tabs: int, greeting: str) -> None:
        super().__init__(command, host=host, port=port, title="cardtable",
                         templates_path=WEB / "templates", statics_path=WEB / "static")
        self.gate = gate
        self.max_tabs = max_tabs
        self.tabs = 0
        """Browser tabs with a cardtable running (or starting) for them."""
        self.greeting = greeting

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index),
            web.get("/ws", self.handle_websocket),
            web.get("/full", self.handle_full),
            web.get("/download/{key}", self.handle_download),
            web.static("/static/js", TEXTUAL_STATIC / "js"),
            web.static("/static/css", TEXTUAL_STATIC / "css"),
            web.static("/fonts", self.statics_path / "fonts"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request, the websocket's too, passes the gate first; the right token sets the
        cookie that lets the same browser in from then on."""
        token = request.query.get("token")
        refusal = self.gate.refusal(request.headers.get("Host"), request.headers.get("Origin"),
                                    token, request.cookies.get(self.gate.cookie_name))
        if refusal is not None:
            return self.notice(request, "cardtable: not let in", refusal, status=403)
        response = await handler(request)
        if token is not None and not response.prepared:
            name, value = self.gate.cookie()
            response.set_cookie(name, value, path="/", httponly=True, samesite="Strict",
                                secure=self.gate.secure(request.headers.get("Host")))
        return response

    def notice(self, request: web.Request, title: str, text: str, status: int,
               again: bool = False) -> web.Response:
        """A page of ours saying ``text``; with ``again``, a link to try the table again."""
        response = aiohttp_jinja2.render_template(
            "notice.html", request, {"title": title, "text": text, "again": again}, status=status)
        return with_safe_headers(response)

    async def handle_index(self, request: web.Request) -> web.Response:
        if self.tabs >= self.max_tabs:
            return self.full(request)
        font_size = to_int(request.query.get("fontsize", "16"), 16)  # textual-serve's ?fontsize=
        return with_safe_headers(aiohttp_jinja2.render_template(
            "app_index.html", request, {"font_size": min(max(font_size, 6), 72)}))

    async def handle_full(self, request: web.Request) -> web.Response:
        return self.full(request)

    def full(self, request: web.Request) -> web.Response:
        playing = f"{self.tabs} browser tab{'s are' if self.tabs != 1 else ' is'} playing"
        text = (f"The table is full: {playing} cardtable already, the most this cardtable serve lets in "
                f"at once (it was started with --max-tabs {self.max_tabs}). Quit cardtable in another "
                "tab, or close that tab, then try again.")
        return self.notice(request, "cardtable: the table is full", text, status=503, again=True)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if self.tabs >= self.max_tabs:
            return await self.turn_away(request)
        self.tabs += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.tabs -= 1

    async def turn_away(self, request: web.Request) -> web.WebSocketResponse:
        """Tell a tab over the cap why no cardtable starts for it: the page (textual.js) goes
        to the full page on textual-serve's ``open_url`` message, rather than showing "Session
        ended" with no reason."""
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        log.info("Turned a browser tab away: %d tabs are playing (--max-tabs %d)", self.tabs, self.max_tabs)
        await websocket.send_str(json.dumps(["log", "The table is full: see the page it opens."]))
        await websocket.send_str(json.dumps(["open_url", {"url": "full", "new_tab": False}]))
        try:  # leaving for the full page closes the socket; one that stays is closed after a while
            await asyncio.wait_for(drain(websocket), TURNED_AWAY_WAIT)
        except asyncio.TimeoutError:
            pass
        await websocket.close()
        return websocket

    async def on_startup(self, app: web.Application) -> None:
        pass  # (textual-serve prints its banner here, before the port is open)

    def serve(self, debug: bool = False) -> None:
        """textual-serve's serve, printing cardtable's greeting once the port really listens."""
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
                    loop=loop, print=lambda *_args: print(self.greeting, flush=True))


async def drain(websocket: web.WebSocketResponse) -> None:
    async for _message in websocket:
        pass


def with_safe_headers(response: web.Response) -> web.Response:
    """Our pages are never cached (the first one came by the token's address), never framed by
    another site, and never name their address to another (the Referer would carry the token)."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
