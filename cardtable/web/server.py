"""The web server of `cardtable serve`: textual-serve's Server (aiohttp), behind the gate (see
``gate``), with a cap on the browser tabs playing at once and a page of our own that loads
nothing from outside this machine.

Each browser tab's websocket starts its own cardtable process (some 45 MiB), so past
``max_tabs`` a tab is sent to a page saying the table is full instead of starting another.
Needs the serve extra (textual-serve, aiohttp); only `cardtable serve` imports this module.

The join page (``/join``) needs no token: a player who holds only a join code types it there.
The code is checked here, in the server, at the ``Door`` (wrong ones from an address are slowed
down, by the address the request came from), and a right one gives the browser a ticket (a
cookie) for ``/play``: a page whose websocket (``/join-ws``) runs ``cardtable join --no-menu``
for that code, the table of that seat and nothing else. The page's script, style sheet and fonts
need no token either (they are the same for everyone).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from ..serving import CODE_VARIABLE
from ..door import CodeError, Door
from ..store.seats import EXAMPLE
from .gate import Gate

WEB = Path(__file__).parent
# textual-serve's own page script and style sheet, served as installed so that the script
# always speaks the protocol of the installed server
TEXTUAL_STATIC = Path(textual_serve.__file__).parent / "static"
TURNED_AWAY_WAIT = 10.0
"""Seconds a tab turned away has to leave for the full page before its websocket is closed."""

TICKETS = 1000
"""Join tickets remembered at once (the oldest are forgotten first: their browsers join again)."""
OPEN_PATHS = ("/join", "/play", "/join-ws", "/full", "/static/", "/fonts/")
"""What a browser without the token may ask for (the join page, its table and what they load)."""
JOIN_COMMAND = " join --no-menu"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Hook = Callable[[web.Application], Awaitable[None]]
log = logging.getLogger("textual-serve")


class CardtableServer(Server):
    """Serves ``command`` (one process for each browser tab) on ``host``:``port`` to those
    ``gate`` lets in, ``max_tabs`` tabs at a time; ``greeting`` is printed once it listens."""

    def __init__(self, command: str, host: str, port: int, gate: Gate, max_tabs: int, greeting: str,
                 door: Door) -> None:
        super().__init__(command, host=host, port=port, title="cardtable",
                         templates_path=WEB / "templates", statics_path=WEB / "static")
        self.gate = gate
        self.door = door
        self.tickets: dict[str, str] = {}
        """The join tickets given out: ticket → the join code it plays."""
        self.ticket_cookie = f"cardtable-join-{port}"
        self.hooks: list[tuple[Hook, Hook]] = []
        self.max_tabs = max_tabs
        self.tabs = 0
        """Browser tabs with a cardtable running (or starting) for them."""
        self.playing: set[asyncio.Task[Any]] = set()
        """The handlers of those tabs' websockets: ended at once when the server stops."""
        self.greeting = greeting

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index),
            web.get("/ws", self.handle_websocket),
            web.get("/join", self.handle_join_page),
            web.post("/join", self.handle_join),
            web.get("/play", self.handle_play),
            web.get("/join-ws", self.handle_join_websocket),
            web.get("/full", self.handle_full),
            web.get("/download/{key}", self.handle_download),
            web.static("/static/js", TEXTUAL_STATIC / "js"),
            web.static("/static/css", TEXTUAL_STATIC / "css"),
            web.static("/fonts", self.statics_path / "fonts"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        for start, stop in self.hooks:
            app.on_startup.append(start)
            app.on_cleanup.append(stop)
        return app

    def also_run(self, start: Hook, stop: Hook) -> None:
        """Start something else on this server's loop before it listens, and stop it after."""
        self.hooks.append((start, stop))

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request, the websocket's too, passes the gate first; the right token sets the
        cookie that lets the same browser in from then on."""
        if request.path.startswith(OPEN_PATHS):
            refusal = self.gate.place_refusal(request.headers.get("Host"), request.headers.get("Origin"))
            if refusal is not None:
                return self.notice(request, "cardtable: not let in", refusal, status=403)
            return await handler(request)
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
               again: bool = False, form: bool = False) -> web.Response:
        """A page of ours saying ``text``; with ``again``, a link to try the table again; with
        ``form``, the join code's field."""
        response = aiohttp_jinja2.render_template(
            "notice.html", request, {"title": title, "text": text, "again": again, "form": form,
                                     "example": EXAMPLE}, status=status)
        return with_safe_headers(response)

    async def handle_index(self, request: web.Request) -> web.Response:
        return self.table_page(request, "ws")

    def table_page(self, request: web.Request, websocket: str) -> web.Response:
        if self.tabs >= self.max_tabs:
            return self.full(request)
        font_size = to_int(request.query.get("fontsize", "16"), 16)  # textual-serve's ?fontsize=
        return with_safe_headers(aiohttp_jinja2.render_template(
            "app_index.html", request, {"font_size": min(max(font_size, 6), 72), "websocket": websocket}))

    # -- the join page ---------------------------------------------------------------------------
    async def handle_join_page(self, request: web.Request) -> web.Response:
        return self.join_form(request, "Type the join code you were given (8 letters and digits) to open your "
                                       "seat's table.")

    def join_form(self, request: web.Request, text: str, status: int = 200) -> web.Response:
        response = self.notice(request, "cardtable: join a game", text, status=status, form=True)
        # with no-referrer a browser says its form comes from Origin "null", which the gate
        # refuses; this page's address holds no secret
        response.headers["Referrer-Policy"] = "same-origin"
        return response

    async def handle_join(self, request: web.Request) -> web.StreamResponse:
        """The code typed on the join page: checked at the door, by the address the request came
        from; a right one gives this browser a ticket and sends it to its table."""
        form = await request.post()
        code = form.get("code")
        try:
            await self.door.check(code if isinstance(code, str) else None, request.remote)
        except CodeError as refused:
            return self.join_form(request, str(refused.args[0]), status=403)
        except OSError as error:
            return self.join_form(request, f"The games cannot be read here: {error}", status=503)
        assert isinstance(code, str)
        ticket = secrets.token_urlsafe(32)
        while len(self.tickets) >= TICKETS:
            self.tickets.pop(next(iter(self.tickets)))
        self.tickets[ticket] = code
        response = web.HTTPSeeOther("play")
        response.set_cookie(self.ticket_cookie, ticket, path="/", httponly=True, samesite="Strict",
                            secure=self.gate.secure(request.headers.get("Host")))
        with_safe_headers(response)
        return response

    def ticket_code(self, request: web.Request) -> str | None:
        """The join code this browser's ticket plays, or None."""
        return self.tickets.get(request.cookies.get(self.ticket_cookie, ""))

    async def handle_play(self, request: web.Request) -> web.StreamResponse:
        if self.ticket_code(request) is None:
            return self.join_form(request, "Type your join code first: it opens your seat's table.", status=403)
        return self.table_page(request, "join-ws")

    async def handle_join_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket, with the app of the ticket's seat (its code in the app's
        environment, out of the process list)."""
        code = self.ticket_code(request)
        if code is None:
            raise web.HTTPForbidden(text="Type your join code on the join page first.")
        if self.tabs >= self.max_tabs:
            return await self.turn_away(request)
        with self.a_tab():
            return await self._seat_websocket(request, code)

    async def _seat_websocket(self, request: web.Request, code: str) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = SeatService(self.command + JOIN_COMMAND, code, write_bytes=websocket.send_bytes,
                                  write_str=websocket.send_str, close=websocket.close,
                                  download_manager=self.download_manager, debug=self.debug)
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 — as textual-serve's own: one tab's failure is logged
            log.exception(error)
        finally:
            if service is not None:
                await service.stop()
        return websocket

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
        with self.a_tab():
            return await super().handle_websocket(request)

    @contextmanager
    def a_tab(self) -> Iterator[None]:
        """Count a tab's websocket handler among those playing while it runs."""
        task = asyncio.current_task()
        assert task is not None
        self.tabs += 1
        self.playing.add(task)
        try:
            yield
        finally:
            self.tabs -= 1
            self.playing.discard(task)

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every tab's cardtable before the server goes. Left to aiohttp, an open websocket
        held Ctrl+C up for some 23 seconds (each handler, cancelled, closes its socket and quits
        its app: every move was written as it was made)."""
        tasks = list(self.playing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

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


class SeatService(AppService):
    """textual-serve's app process, with a join code in its environment."""

    def __init__(self, command: str, code: str, **options: Any) -> None:
        super().__init__(command, **options)
        self.code = code

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), CODE_VARIABLE: self.code}
