"""Helpers the app tests share (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import html
import re
import sys

import pytest
from rich.cells import cell_len
from rich.segment import ControlType
from textual.app import App
from textual.screen import Screen
from rules.core.match import Match


def guarded_state() -> property:
    """A ``Match.state`` that no module of cardtable/ may read (tests/app/conftest.py puts it on
    every app test): the table renders views and the events each seat may see, and asks
    legal/check; reading the state from the app raises (rules code and tests still may)."""

    def get(match: Match):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller == "cardtable" or caller.startswith("cardtable."):
            raise AssertionError(f"{caller} read a game's state: the app may only use views")
        return match.__dict__["_guarded_state"]

    def set_(match: Match, value) -> None:
        match.__dict__["_guarded_state"] = value

    return property(get, set_)


def screen_text(app: App) -> str:
    """What is on screen, as the SVG screenshot draws it: proof of what a player could see."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")


async def settle(pilot, done, limit: int = 400) -> None:
    """Let the app run (bots move through call_later) until ``done()``; fail after ``limit``."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause()
    pytest.fail("the table did not get there")


def count_frames(app: App) -> list[int]:
    """A list that grows by one for every frame the app renders for its terminal."""
    frames: list[int] = []
    display = app._display

    def counted(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append(1)

    app._display = counted  # type: ignore[method-assign]
    return frames


class Terminal:
    """What the app's terminal shows, cell by cell (character and style): every frame the app
    sends it, applied as a terminal applies one (its cursor moves, then its text). A frame
    that leaves out a changed line leaves the old line on this screen too."""

    def __init__(self, app: App) -> None:
        self.cells: dict[tuple[int, int], tuple[str, object]] = {}
        self.frames = 0
        self._app = app
        display = app._display

        def shown(screen, renderable) -> None:
            display(screen, renderable)
            if renderable is not None:
                self._apply(renderable)
                self.frames += 1

        app._display = shown  # type: ignore[method-assign]

    def _apply(self, renderable) -> None:
        console = self._app.console
        x = y = 0
        for segment in console.render(renderable, console.options):
            if segment.control:
                for control in segment.control:
                    if control[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = control[1], control[2]
                continue
            for character in segment.text:
                if character == "\n":
                    x, y = 0, y + 1
                    continue
                self.cells[(x, y)] = (character, segment.style)
                x += cell_len(character)

    def region(self, region) -> dict[tuple[int, int], tuple[str, object]]:
        """The cells shown in ``region`` (a Textual Region of the screen)."""
        return {(x, y): self.cells.get((x, y)) for y in region.line_range for x in range(region.x, region.right)}

    async def still(self, pilot, steps: int = 5, limit: int = 400) -> None:
        """Let the app run until it has sent no frame for ``steps`` steps."""
        quiet = 0
        for _ in range(limit):
            frames = self.frames
            await pilot.pause()
            quiet = quiet + 1 if self.frames == frames else 0
            if quiet == steps:
                return
        pytest.fail("the screen did not come to rest")


class TableApp(App[None]):
    """Just enough app to hold one table above an empty default screen."""

    def __init__(self, table: Screen) -> None:
        super().__init__()
        self.table = table

    def on_mount(self) -> None:
        self.push_screen(self.table)


class LogApp(App[None]):
    """The game log on its own."""

    def compose(self):
        from cardtable.widgets import GameLog

        yield GameLog(id="log")


def bot_played(game: str, seats, seed: int, done) -> "Match":
    """A match of ``game`` whose every move, the humans' too, is the game's bot's, played until
    ``done(match)``: a fixed position for a snapshot, reached as play would reach it. A bot
    that searches (Capital Auction's) plays by its reading alone (``playout``), which is quick
    and keeps the positions its search would move."""
    import rules
    from rules.core import Match, chance, get_bot
    from rules.core.baseline import played_out
    from game_helpers import bot_choice

    spec = rules.find_game(game)
    bot = played_out(get_bot(spec, "bot"))
    match = Match(spec, seats, seed=seed)
    while not done(match):
        match.submit(*bot_choice(match, bot, chance(seed, len(match.history))))
    return match


def snapshot_app(tmp_path, match) -> App:
    """The app on ``match``, saved in ``tmp_path``, with a fixed theme and no bot delay."""
    from cardtable.app import CardtableApp
    from cardtable.store import SaveStore
    from cardtable.settings import Settings

    store = SaveStore(tmp_path / "data")
    return CardtableApp(store=store, settings=Settings(theme="textual-dark", bot_delay=0), match=match,
                        game_id=store.create(match))


def table_of(app: App, kind: type) -> Screen:
    """The table screen of ``kind`` in ``app``'s stack (under any dialog or curtain)."""
    return next(screen for screen in app.screen_stack if isinstance(screen, kind))


def board_fits(app: App, kind: type) -> None:
    """The board of the table shows whole, without a scrollbar."""
    assert table_of(app, kind).query_one("#board").max_scroll_y == 0


async def keys(pilot, *names: str) -> None:
    """Press keys the way a player's keystrokes arrive (``App.simulate_key``), without Pilot's
    idle waits after each one: a whole game is hundreds of keys."""
    for name in names:
        pilot.app.simulate_key(name)
    await pilot.pause(0)


async def until(pilot, done, limit: int = 3000, step: float = 0) -> None:
    """Let the app run until ``done()``, in short steps (of ``step`` seconds: for work in a
    thread); fail after ``limit`` of them."""
    for _ in range(limit):
        if done():
            return
        await pilot.pause(step)
    pytest.fail("the table did not get there")


def record_notes(screen: Screen, severity: bool = False) -> list:
    """The notifications ``screen`` shows from now on, as they are raised: each message, or
    (message, severity) pairs with ``severity``."""
    notes: list = []
    original = screen.notify

    def notify(message, *args, **kwargs):
        note = str(message)
        notes.append((note, kwargs.get("severity", "information")) if severity else note)
        return original(message, *args, **kwargs)

    screen.notify = notify  # type: ignore[method-assign]
    return notes


def one_bot_move_from_the_end(game: str) -> "Match":
    """Ann (human) against Bob (bot), every move so far the bot's choice, stopped where Bob's
    own next move ends the game: opened on the table, the bot finishes it and the results come
    up over the live table, as at the end of a game played through (the first seed from 1 where
    Bob makes the last move)."""
    import rules
    from rules.core import Match, Seat

    spec = rules.find_game(game)
    for seed in range(1, 51):
        rehearsal = Match(spec, [Seat("Ann", "bot"), Seat("Bob", "bot")], seed=seed)
        moves = []
        while not rehearsal.over:
            seat = min(rehearsal.awaiting)
            moves.append((seat, rehearsal.bot_move(seat)))
            rehearsal.submit(*moves[-1])
        if moves[-1][0] == 1:
            match = Match(spec, [Seat("Ann"), Seat("Bob", "bot")], seed=seed)
            for seat, command in moves[:-1]:
                match.submit(seat, command)
            return match
    raise AssertionError(f"no seed where the bot makes the last move of {game}")


def drawn(screen) -> bool:
    """No frame of ``screen``'s is on its way (cardtable.frames): what it shows is what it holds.
    A snapshot taken while a frame is due would catch a layout half-way."""
    timer = screen.__dict__.get("_frame_timer")
    # nor a callback "after refresh" waiting (a board fitted to its room once drawn)
    return (timer is None or not timer.due) and not getattr(screen, "_callbacks", None)


def property_position(board, ann, seed=5, money=None, names=("Ann", "Cleo")) -> Match:
    """A two-player game of Property (Ann to play, Cleo a bot, unless ``names`` calls them
    otherwise) on ``board`` (eight strings, row 8 first; "A" Ann's, "B" Cleo's, lower case
    mortgaged) with Ann holding ``ann`` (card keys)."""
    import rules
    from rules.core import Seat, parse_card

    spec = rules.find_game("property")
    match = Match(spec, [Seat(names[0]), Seat(names[1], "bot")], seed=seed)
    data = spec.to_json(match.state)
    cards = data["hands"][0] + data["hands"][1] + data["stock"]
    for key in ann:
        cards.remove(key)
    red = next(k for k in cards if parse_card(k).is_red)
    black = next(k for k in cards if parse_card(k).is_black)
    cleo = [red, black]
    stock = [k for k in cards if k not in cleo]
    data.update(board=list(board), hands=[list(ann), cleo], stock=stock, current=0, pending=None)
    if money is not None:
        data["money"] = list(money)
    # a position from JSON, as a user could write one: the match starts from it
    match.state = spec.from_json(data)
    return match
