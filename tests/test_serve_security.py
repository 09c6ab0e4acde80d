"""`cardtable serve` lets in only its own page: the real server, started as a process on a free
loopback port, asked as a browser (and an attacker) would with aiohttp's client. Without the
token or its cookie, by a name the server did not give out, or from another site, it answers
403 with a page saying how to get in; past --max-tabs a tab is told the table is full; a
server killed outright leaves no app running; the page loads nothing from outside."""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import signal
import sys
import time
from html.parser import HTMLParser

import pytest

pytest.importorskip("textual_serve", reason="serving to a browser needs the serve extra (textual-serve)")
import aiohttp  # noqa: E402 — installed with textual-serve

from serve_helpers import children_of, running, serving  # noqa: E402

TOLD_HOW = "Open the address that cardtable serve printed"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, letting in one tab at a time."""
    with serving(tmp_path_factory.mktemp("serve"), "--max-tabs", "1") as served:
        yield served


def cookie_of(response: aiohttp.ClientResponse) -> str:
    """The ``name=value`` of the cookie ``response`` sets."""
    return response.headers["Set-Cookie"].split(";")[0]


async def let_in(session: aiohttp.ClientSession, server) -> dict[str, str]:
    """The headers of a browser that came by the printed address: its cookie."""
    async with session.get(f"{server.base}/?token={server.token}") as response:
        assert response.status in (200, 503)  # the page, or the full table's (the cookie all the same)
        return {"Cookie": cookie_of(response)}


async def a_free_place(session: aiohttp.ClientSession, server, browser: dict[str, str]) -> None:
    """Wait until the server has a place for another tab (the app of a tab just closed ends
    first); fail after a deadline."""
    deadline = time.monotonic() + 30
    while True:
        async with session.get(f"{server.base}/", headers=browser) as response:
            if response.status == 200:
                return
            assert response.status == 503, response.status
        assert time.monotonic() < deadline, "no place for a tab"
        await asyncio.sleep(0.05)  # polling a condition, with a deadline


async def painted(websocket: aiohttp.ClientWebSocketResponse, at_least: int = 2000) -> None:
    """Wait until the app behind ``websocket`` has drawn its first screen."""
    got = 0
    while got < at_least:
        message = await websocket.receive(timeout=60)
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        if message.type == aiohttp.WSMsgType.BINARY:
            got += len(message.data)


# -- the token and the cookie ------------------------------------------------------------------
async def test_without_the_token_the_page_is_refused_with_how_to_get_in(server):
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{server.base}/") as response:
            page = await response.text()
            assert response.status == 403 and "Set-Cookie" not in response.headers
        assert TOLD_HOW in page and "?token=" in page
        for path in ("/ws", "/download/x"):
            async with session.get(f"{server.base}{path}") as response:
                assert response.status == 403, path
        # what the join page loads is the same for everyone: no token, but only by this server's name
        for path in ("/static/js/textual.js", "/fonts/DejaVuSansMono.woff"):
            async with session.get(f"{server.base}{path}") as response:
                assert response.status == 200, path
            async with session.get(f"{server.base}{path}", headers={"Host": "evil.example"}) as response:
                assert response.status == 403, path


async def test_a_wrong_token_is_refused(server):
    wrong = "A" * len(server.token)
    async with aiohttp.ClientSession() as session:
        for token in (wrong, server.token[:-1], "", "é"):
            async with session.get(f"{server.base}/", params={"token": token}) as response:
                assert response.status == 403, token
                assert "Set-Cookie" not in response.headers
                assert "That token is not this server's" in html.unescape(await response.text())


async def test_the_printed_address_lets_in_and_sets_a_strict_http_only_cookie(server):
    assert f"cardtable is being served at {server.base}/?token={server.token}" in server.said
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{server.base}/?token={server.token}") as response:
            page = await response.text()
            assert response.status == 200
            attributes = [part.strip().lower() for part in response.headers["Set-Cookie"].split(";")]
        assert attributes[0].startswith(f"cardtable-{server.port}=")
        assert {"httponly", "samesite=strict", "path=/"} <= set(attributes[1:])
        assert "<title>cardtable</title>" in page
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_the_cookie_lets_in_the_page_its_files_and_the_websocket(server):
    async with aiohttp.ClientSession() as session:
        browser = await let_in(session, server)
        for path in ("/", "/static/js/textual.js", "/static/css/xterm.css", "/fonts/DejaVuSansMono.woff"):
            async with session.get(f"{server.base}{path}", headers=browser) as response:
                assert response.status == 200, path
        name = browser["Cookie"].split("=")[0]
        async with session.get(f"{server.base}/", headers={"Cookie": f"{name}=forged"}) as response:
            assert response.status == 403
            assert TOLD_HOW in await response.text()
        await a_free_place(session, server, browser)
        async with session.ws_connect(f"{server.base}/ws?width=100&height=30", headers=browser,
                                      origin=server.base) as websocket:
            await painted(websocket)
        await a_free_place(session, server, browser)  # its app has ended: the next test finds a place


async def test_a_websocket_without_the_cookie_or_from_another_site_is_refused(server):
    async with aiohttp.ClientSession() as session:
        browser = await let_in(session, server)
        attempts = [({}, None), (browser, "http://evil.example"), (browser, f"http://evil.example:{server.port}"),
                    (browser, f"https://127.0.0.1:{server.port}"), (browser, "null")]
        for headers, origin in attempts:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(f"{server.base}/ws", headers=headers, origin=origin)
            assert refused.value.status == 403, origin


async def test_a_name_the_server_did_not_give_out_is_refused_even_with_the_token(server):
    async with aiohttp.ClientSession() as session:
        for host in (f"evil.example:{server.port}", "evil.example", f"127.0.0.1:{server.port + 1}",
                     f"127.0.0.1.evil.example:{server.port}", f"127.0.0.1:{server.port}@evil.example"):
            async with session.get(f"{server.base}/?token={server.token}", headers={"Host": host}) as response:
                assert response.status == 403, host
                assert "Set-Cookie" not in response.headers
                assert "does not answer to the name" in await response.text()
        for host in (f"localhost:{server.port}", f"LOCALHOST:{server.port}", f"127.0.0.1:{server.port}"):
            async with session.get(f"{server.base}/?token={server.token}", headers={"Host": host}) as response:
                assert response.status == 200, host


# -- the page ------------------------------------------------------------------------------------
class References(HTMLParser):
    """Every address an HTML page names in an attribute, and its inline scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []
        self.inline = ""
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.addresses += [value for name, value in attrs if name in ("src", "href", "action", "data", "poster") and value]
        self._in = tag if tag in ("script", "style") else None

    def handle_data(self, data):
        if self._in:
            self.inline += data


async def test_the_page_loads_nothing_from_outside_the_server(server):
    async with aiohttp.ClientSession() as session:
        browser = await let_in(session, server)
        async with session.get(f"{server.base}/", headers=browser) as response:
            page = await response.text()
        found = References()
        found.feed(page)
        addresses = found.addresses + re.findall(r"url\(\s*[\"']?([^\"')]+)", found.inline)
        assert {"static/js/textual.js", "static/css/xterm.css", "fonts/DejaVuSansMono.woff"} <= set(addresses)
        for address in addresses:  # relative, to this server: and there
            if address.startswith("data:"):  # inline (the empty icon): nothing is fetched
                continue
            assert not re.match(r"^([a-z]+:|//)", address, re.I), address
            async with session.get(f"{server.base}/{address}", headers=browser) as response:
                assert response.status == 200, address
        assert not re.search(r"https?://|//[a-z0-9]", page, re.I), "an absolute address in the page"


# -- the cap on tabs -------------------------------------------------------------------------------
async def test_a_tab_over_the_cap_is_told_the_table_is_full(server):
    async with aiohttp.ClientSession() as session:
        browser = await let_in(session, server)
        await a_free_place(session, server, browser)
        websocket = await session.ws_connect(f"{server.base}/ws?width=100&height=30", headers=browser,
                                             origin=server.base)
        try:
            await painted(websocket)
            async with session.ws_connect(f"{server.base}/ws", headers=browser, origin=server.base) as second:
                told = [json.loads((await second.receive(timeout=30)).data) for _ in range(2)]
            assert told[1] == ["open_url", {"url": "full", "new_tab": False}]
            for path in ("/full", "/"):
                async with session.get(f"{server.base}{path}", headers=browser) as response:
                    page = await response.text()
                    assert response.status == 503, path
                assert "The table is full: 1 browser tab is playing" in page and "--max-tabs 1" in page
                assert '<a href="./">Try again</a>' in page
        finally:
            await websocket.close()
        await a_free_place(session, server, browser)  # the app ends, and its place is given back


# -- a server killed outright --------------------------------------------------------------------------
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the app processes in Linux's /proc")
async def test_kill_9_of_the_server_leaves_no_app_running(tmp_path):
    apps: list[int] = []
    try:
        with serving(tmp_path) as served:
            async with aiohttp.ClientSession() as session:
                browser = await let_in(session, served)
                async with session.ws_connect(f"{served.base}/ws?width=100&height=30", headers=browser,
                                              origin=served.base) as websocket:
                    await painted(websocket)
                    apps = children_of(served.process.pid)
                    assert len(apps) == 1 and running(apps[0])
                    served.process.send_signal(signal.SIGKILL)
                    served.process.wait(timeout=30)
                    deadline = time.monotonic() + 30
                    while any(running(app) for app in apps):
                        assert time.monotonic() < deadline, f"app processes {apps} outlived their server"
                        await asyncio.sleep(0.05)  # polling a condition, with a deadline
    finally:  # a failure leaves no orphan behind either
        for app in apps:
            if running(app):
                os.kill(app, signal.SIGKILL)


# -- the join page: a join code, no token ------------------------------------------------------
async def test_the_join_page_needs_no_token_but_its_table_needs_a_right_code(server):
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{server.base}/join") as response:
            assert response.status == 200 and 'name="code"' in await response.text()
            assert "Set-Cookie" not in response.headers
        for path in ("/play", "/join-ws"):  # no ticket: nothing opens
            async with session.get(f"{server.base}{path}") as response:
                assert response.status == 403, path
        async with session.post(f"{server.base}/join", data={"code": "0000-0000"}, allow_redirects=False) as response:
            assert response.status == 403 and "Set-Cookie" not in response.headers
            assert "No game has the join code 0000-0000" in html.unescape(await response.text())
        async with session.post(f"{server.base}/join", data={"code": "<b>x</b>"}, allow_redirects=False) as response:
            page = await response.text()
            assert response.status == 403 and "<b>x</b>" not in page and "is not a join code" in page
        # another site's page cannot post a code for its visitor
        async with session.post(f"{server.base}/join", data={"code": "0000-0000"}, allow_redirects=False,
                                headers={"Origin": "http://evil.example"}) as response:
            assert response.status == 403 and "another site" in await response.text()
        async with session.get(f"{server.base}/play", headers={"Cookie": f"cardtable-join-{server.port}=forged"}
                               ) as response:
            assert response.status == 403
