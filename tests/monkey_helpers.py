"""The monkey: a seeded stream of keys, pastes and resizes thrown at the whole app, with the
app's health checked after every burst (tests/app/test_monkey.py runs a few seeds, the script
tests/monkey.py as many as asked).

Every key is delivered as a terminal's would be: a Key event with the key's name and the
character it types (as Textual's ``Pilot.press`` builds it), posted to the app, without the
pilot's idle waits between keys (a burst arrives as fast as a player can type or paste).

Quitting: ``App.exit`` is replaced by a recorder. A key that would close the app (``q`` on the
menu, ctrl+q, the command palette's Quit) is counted and the app stays open on the screen it
was on, so the keys that follow go on testing it (the exit itself is covered by the app's own
tests; a monkey that stopped at its first ``q`` would test little).

The stream is a seeded ``random.Random``, not Hypothesis: one example is a whole app run of
seconds, and shrinking one by Hypothesis would take hundreds of them; a failure names its seed
and the throws of its burst, and replaying the seed's throws reproduces it (each fix's test is
the shortest sequence found so).
"""

from __future__ import annotations

import random
import re
import string
import time
import unicodedata
import warnings
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from textual import events
from textual.keys import _character_to_key, _get_unicode_name_from_key

import rules
from rules.core import Match, Seat

from pilot_helpers import settle, until

GAMES = sorted(rules.GAMES)
SIZES = [(80, 24), (120, 40)]
TINY = (40, 12)
BURST = 20
# the words of an exception the app caught broadly and put in a notification (a table's "That
# command could not be played (TypeError: ...)"): a bug that reached the player all the same
SWALLOWED = re.compile(r"\b[A-Z]\w*(Error|Exception)\b:|Traceback")

NAMED_KEYS = [
    "up", "down", "left", "right", "enter", "escape", "tab", "shift+tab", "space", "backspace",
    "delete", "home", "end", "pageup", "pagedown", "f1", "ctrl+z", "ctrl+s", "ctrl+p", "ctrl+q",
    "ctrl+c", "ctrl+a", "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+l",
    ":", "?", "[", "]", "+", "-", ",", ".", "/", "$", "=",
]
# the characters a terminal sends with these keys
CONTROL = {"enter": "\r", "tab": "\t", "escape": "\x1b", "backspace": "\x7f"}
CHARACTERS = string.ascii_lowercase + string.digits + "AQXYZ$[]/:.,-+=!@#%&*()'\""
ODD_TEXT = [
    "[bold]x[/", "[/]", "$var", "$accent", "[b $accent]n[/]", "\\[", "%s%d{0}", "é♠♥ü漢字🂡",
    "\u200b\u202eRTL", "x" * 300, "take 10♠ 5♥", "pass", "bid 99999999999999999999", "sell -3",
    "undo", ":help", "q", "   ", "\t", "ｑ", "Ⅻ", "\U0001f600" * 20, "🂡🂱🃁🃑",
]


def press_event(key: str) -> events.Key:
    """The Key event a terminal sends for ``key`` (a key's name or a character)."""
    if key == "\r":
        return events.Key("enter", "\r")
    if key in CONTROL:
        return events.Key(key, CONTROL[key])
    if len(key) == 1:  # a character: the terminal sends it with its key's name
        return events.Key(_character_to_key(key) if not key.isalnum() else key, key)
    try:
        character = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        character = None
    if key.startswith("ctrl+") and len(key) == 6:  # a control character: what the terminal sends
        character = chr(ord(key[-1]) - ord("a") + 1)
    return events.Key(key, character)


@dataclass
class Monkey:
    """What a seed throws at the app, and a record of what it threw (to replay a failure)."""

    seed: int
    rng: random.Random = field(init=False)
    thrown: list[tuple[str, object]] = field(default_factory=list)
    quits: int = 0
    screens: set[str] = field(default_factory=set)
    """The screens the throws reached (by class name): proof the monkey got around."""
    notes: list[str] = field(default_factory=list)
    """Every notification the app raised."""
    moves: int = 0
    """The most moves a match on the table reached."""
    warnings: list = field(default_factory=list)
    """The RuntimeWarnings raised meanwhile (a coroutine never awaited: an action that never ran)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def one(self, app) -> tuple[str, object]:
        """The next thing to throw: a key (most often), a typed or pasted text, a resize."""
        rng = self.rng
        roll = rng.random()
        legal_texts = getattr(app.screen, "legal_texts", None)
        if roll < 0.08 and callable(legal_texts):
            # a legal move typed in the command bar, so the game moves on under the keys
            legal = legal_texts()
            if legal:
                return ("command", rng.choice(legal))
        if roll < 0.30:
            bound = sorted({key for key in active_keys(app)})
            if bound:
                return ("key", rng.choice(bound))
        if roll < 0.65:
            return ("key", rng.choice(NAMED_KEYS))
        if roll < 0.90:
            return ("key", rng.choice(CHARACTERS))
        if roll < 0.93:
            return ("type", rng.choice(ODD_TEXT))
        if roll < 0.95 and callable(legal_texts):
            return ("command", rng.choice(ODD_TEXT))
        if roll < 0.98:
            return ("paste", rng.choice(ODD_TEXT))
        return ("resize", rng.choice(SIZES + [TINY]))


def active_keys(app) -> list[str]:
    """The keys the current screen binds (its footer's and the rest); none while it is being
    set up (whether a key acts asks its parts, not there yet; the app holds keys till then)."""
    if not app.screen.is_mounted:
        return []
    keys: list[str] = []
    for key, active in app.screen.active_bindings.items():
        keys.append(key)
    return keys


async def throw(pilot, what: tuple[str, object]) -> None:
    app = pilot.app
    kind, value = what
    if kind == "key":
        app.post_message(press_event(value))
    elif kind == "type":
        for character in value:
            app.post_message(press_event(character))
    elif kind == "command":  # the command bar opened, then a line typed in it and entered
        from textual.widgets import Input

        app.post_message(press_event("colon"))
        for _ in range(20):
            await pilot.pause(0)
            if isinstance(app.focused, Input):
                break
        for character in f"{value}\r":
            app.post_message(press_event(character))
    elif kind == "paste":
        app.post_message(events.Paste(value))
    elif kind == "resize":
        await pilot.resize_terminal(*value)
    await pilot.pause(0)


def quiet(app) -> bool:
    """Nothing waits in the app's queues and no thread works (an expert thinking): the burst's
    effects are done (keys held for a screen being set up are still to come). (A worker of the
    event loop may wait for a dialog's answer: the dialog is on the screen, for the keys to
    come.)"""
    if app.message_queue_size or app.screen.message_queue_size or app.holds_keys:
        return False
    return not any(worker.is_running and worker._thread_worker for worker in app.workers)


def check_sane(app, monkey: Monkey) -> None:
    """The app is running, has raised nothing, and its screens make a stack a player can use."""
    from cardtable.screens.menu import MenuScreen

    where = f"seed {monkey.seed}, after {len(monkey.thrown)} throws: {monkey.thrown[-BURST:]}"
    assert app._exception is None, f"{app._exception!r} ({where})"
    assert app.is_running, f"the app stopped ({where})"
    stack = app.screen_stack
    assert stack, where
    assert isinstance(stack[0], MenuScreen), f"the menu is not at the bottom: {stack} ({where})"
    assert len({id(screen) for screen in stack}) == len(stack), f"a screen twice: {stack} ({where})"
    assert all(screen.is_attached for screen in stack), f"a screen taken down: {stack} ({where})"
    warned = [str(caught.message) for caught in monkey.warnings if issubclass(caught.category, RuntimeWarning)]
    assert not warned, f"{warned} ({where})"
    swallowed = [note for note in monkey.notes if SWALLOWED.search(note)]
    assert not swallowed, f"an exception told to the player: {swallowed} ({where})"
    assert len(stack) < 12, f"screens pile up: {stack} ({where})"


def seats_for(game: str, rng: random.Random) -> list[Seat]:
    """Two or three seats (three where the game allows it), the first human, the others a mix
    of humans and bots."""
    spec = rules.find_game(game)
    count = rng.choice([n for n in (2, 3) if spec.players[0] <= n <= spec.players[1]])
    names = ["Ann", "Bob [b]", "Cleo $x"]
    seats = [Seat(names[0])]
    for name in names[1:count]:
        seats.append(Seat(name, rng.choice([None, "bot"])))
    return seats


def make_app(tmp_path, game: str | None, seed: int):
    """The app on a fresh store in ``tmp_path``, bots at no delay: at the main menu, or at a new
    game of ``game``."""
    from cardtable.app import CardtableApp
    from cardtable.settings import Settings
    from cardtable.store import SaveStore

    store = SaveStore(tmp_path / f"data-{game}-{seed}")
    match = None
    if game is not None:
        match = Match(rules.find_game(game), seats_for(game, random.Random(seed)), seed=seed)
    return CardtableApp(store=store, settings=Settings(theme="textual-dark", bot_delay=0), match=match)


def in_one_read(app, keys) -> None:
    """``keys`` as a terminal delivers keys typed fast (or over a slow link): in one read, each
    posted before the app has handled the one before."""
    for key in keys:
        app.post_message(press_event(key))


@asynccontextmanager
async def at_the_table(tmp_path, match: Match, size=(80, 24), seed: int = 0):
    """The whole app (bots at no delay) on ``match``, once its table and whatever it opened at
    once are set up: (app, pilot, table)."""
    from cardtable.screens.table import TableScreen

    app = make_app(tmp_path, None, seed)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, lambda: quiet(app))
        app.open_table(match, None)
        await settle(pilot, lambda: quiet(app) and any(isinstance(s, TableScreen) for s in app.screen_stack))
        yield app, pilot, next(s for s in app.screen_stack if isinstance(s, TableScreen))


async def run_monkey(tmp_path, game: str | None, seed: int, bursts: int, size=(80, 24),
                     limit: int = 4000) -> Monkey:
    """``bursts`` bursts of the seed's throws at the app (at ``size`` to begin with), the app's
    health checked after each; the Monkey, for its record."""
    monkey = Monkey(seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        monkey.warnings = caught
        try:
            await _run(tmp_path, game, size, bursts, limit, monkey)
        except BaseException as error:  # which throws led there, for the report (pytest.fail too)
            error.add_note(f"the last throws: {monkey.thrown[-2 * BURST:]}")
            raise
    return monkey


async def _run(tmp_path, game, size, bursts, limit, monkey: Monkey) -> None:
    seed = monkey.seed
    app = make_app(tmp_path, game, seed)

    def exit_recorded(*args, **kwargs) -> None:
        monkey.quits += 1

    async with app.run_test(size=size) as pilot:
        app.exit = exit_recorded  # type: ignore[method-assign]
        notify = app.notify

        def notify_recorded(message, *args, **kwargs):
            monkey.notes.append(str(message))
            return notify(message, *args, **kwargs)

        app.notify = notify_recorded  # type: ignore[method-assign]

        async def settled() -> None:
            try:
                await until(pilot, lambda: quiet(app), limit=limit, step=0.005)
            except BaseException as error:  # what kept the app busy, asked while it is there
                held = f"keys held: {len(app._held_keys)}"
                if app._held_keys:
                    held += f", the first for {time.monotonic() - app._held_since:.1f} s"
                error.add_note(f"the screens: {app.screen_stack} (the top one mounted: {app.screen.is_mounted}); "
                               f"at work: {[worker.name for worker in app.workers if worker.is_running]}; "
                               f"{held}, a release armed: {app._release_armed}; messages waiting at the app: "
                               f"{app.message_queue_size}, at the screen: {app.screen.message_queue_size}")
                raise

        await settled()
        for _ in range(bursts):
            for _ in range(BURST):
                what = monkey.one(app)
                monkey.thrown.append(what)
                await throw(pilot, what)
                monkey.screens.add(type(app.screen).__name__)
            await settled()
            check_sane(app, monkey)
            for screen in app.screen_stack:
                match = getattr(screen, "match", None)
                if isinstance(match, Match):
                    monkey.moves = max(monkey.moves, len(match.history))
        # a tiny terminal hides everything; back at a playable size the screen is all there again
        await pilot.resize_terminal(*size)
        await settled()
        check_sane(app, monkey)
        assert not app.has_class("-too-small")
