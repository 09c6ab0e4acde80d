"""`cardtable serve` in a real browser: headless Chromium (Debian's, driven by Playwright for
Python) joins a seat at the join page with its code alone and plays a move that lands in the
store; a wrong code there gets its sentence; and the served menu's Join a game (j) opens a seat
too. Skipped, saying why, where Playwright or Chromium is missing."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

import rules
from cardtable.store import SaveStore
from rules.core import Match, Seat
from serve_helpers import children_of, running, serving

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Chromium is not installed (Debian: apt-get install chromium)")
# as root, without a sandbox; no connections of its own (this machine reaches no other)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser(tmp_path):
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def remote_game(folder: Path) -> tuple[str, str]:
    """A game of Property, Ann and Bob at other screens, and a bot: its id and Ann's code. (With
    a seat played elsewhere, Ann's table says in the store that it is open.)"""
    store = SaveStore(folder / "data")
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob"), Seat("Cleo", "random")], seed=1)
    game_id = store.create(match, [0, 1])
    code = store.codes(game_id)[0]
    store.close()
    return game_id, code


def wait(page, condition, seconds: float, what: str):
    """Let the page run until ``condition()`` gives something true; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds} s: {what}")
        page.wait_for_timeout(50)
    return found


def play_a_move(page, drawn: Drawn, store: SaveStore, game_id: str) -> str:
    """Once the seat's table is open (its screen says so in the store) and awaits Ann, type her
    first legal move in the command bar; the move, once it is in the store."""
    wait(page, lambda: 0 in store.present(game_id), 60, "the seat's table open")
    # the table plays the bot before Ann: her turn, once it is written
    match = wait(page, lambda: (match := store.open(game_id).match).awaiting == {0} and match, 60, "Ann's turn")
    text = match.format(match.legal(0)[0])
    before = len(match.history)
    page.locator("#terminal textarea").focus()  # (a click would land on the table)
    drawn.press(page, ":")  # the command bar opens: typing waits for it
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    wait(page, lambda: [0, text] in store.export(game_id)["commands"][before:], 60, f"{text!r} in the store")
    return text


class Drawn:
    """What the app behind the page's websocket has drawn, counted in bytes."""

    def __init__(self, page) -> None:
        self.bytes = 0
        page.on("websocket", lambda socket: socket.on("framereceived", self.count))

    def count(self, frame) -> None:
        self.bytes += len(frame)

    def press(self, page, key: str) -> None:
        """Press ``key`` and wait until the app has drawn what it does and then nothing more for
        a moment (a widget it opens takes the focus after its first frame)."""
        before = self.bytes
        page.keyboard.press(key)
        wait(page, lambda: self.bytes > before, 30, f"the app's answer to {key}")
        wait(page, lambda: self.quiet(page), 30, f"the app at rest after {key}")

    def quiet(self, page) -> bool:
        """Whether nothing came for the next 300 ms (the page runs meanwhile)."""
        seen = self.bytes
        page.wait_for_timeout(300)
        return self.bytes == seen


def test_the_join_page_opens_the_seat_of_a_code_and_a_move_lands_in_the_store(tmp_path, browser):
    game_id, code = remote_game(tmp_path)
    with serving(tmp_path) as server:
        assert f"{server.base}/join" in server.said
        page = browser.new_page()
        drawn = Drawn(page)
        page.goto(f"{server.base}/join")
        page.fill("input[name=code]", "0000-0000")
        page.click("button[type=submit]")
        assert "No game has the join code 0000-0000" in page.inner_text("main")
        page.fill("input[name=code]", code.lower())
        page.click("button[type=submit]")
        assert page.url == f"{server.base}/play"
        store = SaveStore(tmp_path / "data")
        play_a_move(page, drawn, store, game_id)
        page.screenshot(path=str(tmp_path / "joined.png"))
        # the ticket opens this seat's table, and no more: the token's pages stay shut
        response = page.goto(f"{server.base}/")
        assert response.status == 403
        store.close()


def test_the_served_menus_join_a_game_opens_a_seat(tmp_path, browser):
    game_id, code = remote_game(tmp_path)
    with serving(tmp_path) as server:
        page = browser.new_page()
        drawn = Drawn(page)
        page.goto(f"{server.base}/?token={server.token}")
        wait(page, lambda: drawn.bytes > 2000, 60, "the menu drawn")
        page.locator("#terminal textarea").focus()  # (a click would land on the table)
        drawn.press(page, "j")  # Join a game asks for the code
        page.keyboard.type(code)
        page.keyboard.press("Enter")
        store = SaveStore(tmp_path / "data")
        play_a_move(page, drawn, store, game_id)
        store.close()
        # Ctrl+C with the tab still playing stops the server and the tab's cardtable at once
        # (about 2 s on a busy machine; it took some 23 s while aiohttp closed the socket itself)
        apps = children_of(server.process.pid)
        assert apps
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=10) == 0
        assert not any(map(running, apps))
