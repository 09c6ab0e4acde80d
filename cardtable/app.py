"""The cardtable app: the main menu and the screens around the game tables.

The app owns what every screen shares — the save store, the settings, the theme — and the
ways between screens: ``open_table`` puts a game on the table above the menu, ``show_menu``
goes back to it. The tables themselves live in ``cardtable.screens.table`` and below.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from textual import events
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.content import Content
from textual.geometry import Size
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.signal import Signal
from textual.timer import Timer
from textual.widget import Widget


from . import textual_fixes
from .screens.confirm import ConfirmScreen
from .screens.menu import MenuScreen
from .settings import BOT_SPEEDS, FOUR_COLOUR_HELP, Settings, read_settings
from .settings import save_settings as write_settings

textual_fixes.apply()

if TYPE_CHECKING:
    from rules.core import Match, Replay
    from .record import Record
    from .store import Joined, SaveStore

MIN_WIDTH, MIN_HEIGHT = 80, 24
KEY_HOLD_STEP = 0.002
"""Seconds between looks at the keys before a waiting key, and at a screen still being set up
(``on_event``)."""
KEY_HOLD_MOST = 0.5
"""Seconds a key waits at most for the keys typed before it."""


_UPKEEP = ("textual.events", "textual.messages")


def _a_keys_doing(message: object) -> bool:
    """A key or a paste, or a message a widget posts on its own account (a key's doing, as a
    rule), not Textual's upkeep (``_keys_in_flight``)."""
    return isinstance(message, (events.Key, events.Paste)) or not type(message).__module__.startswith(_UPKEEP)


def _waiting(node: MessagePump) -> Iterable[object]:
    """The messages queued at ``node`` (Textual's own queue keeps them in ``values``)."""
    return getattr(getattr(node, "_message_queue", None), "values", ())


class SizeGuard(Widget):
    """Covers a screen while the terminal is smaller than the app's minimum. The screen's
    other widgets are only hidden (see app.tcss), so a game in progress keeps running."""

    def render(self) -> Content:
        width, height = self.app.size
        return Content.from_markup(
            f"[b]The terminal is too small ({width}×{height}).[/b]\n\n"
            f"Make the terminal at least {MIN_WIDTH}×{MIN_HEIGHT} to play cardtable. Until then "
            "no key acts on what cannot be seen (ctrl+q still quits)."
        )


class QuitQuestion(ConfirmScreen):
    """ctrl+q's question in a browser (No being the default)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, default=False)


class CardtableApp(App[None]):
    """The terminal card table. With ``match`` (and its save ``game_id``) the game's table opens
    at once, over the main menu; with ``joined`` too, as the seat a join code opened (or the
    spectators' view); with ``replay``, the replay of a game. A ``confined`` app (a seat joined
    through `cardtable serve`, by a player who holds only its code) has no way to the menu, the
    saved games or the settings file: leaving the table ends it. Without a ``store`` the app
    opens the one in ``data_dir`` (by default the user's) when it is first needed: the menu asks
    for it once it is on the screen."""

    TITLE = "cardtable"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("f1", "keys", "Keys", show=False)]

    def __init__(
        self,
        store: SaveStore | None = None,
        settings: Settings | None = None,
        match: Match | None = None,
        game_id: str | None = None,
        notice: str | None = None,
        replay: Replay | None = None,
        joined: Joined | None = None,
        confined: bool = False,
        data_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.confined = confined
        self._store = store
        self._data_dir = data_dir
        self._problems: list[str] = []
        if settings is None:
            settings, self._problems = read_settings()
        self.settings = settings
        self._start = (match, game_id, notice)
        self._joined = joined
        self._replay = replay
        self._record: Record | None = None
        self._focus_before_small: Widget | None = None
        self._held_keys: list[events.Key | events.Paste] = []
        """Keys waiting, in order, for a screen being set up or for the key before them
        (``on_event``)."""
        self._in_flight: list[MessagePump] = []
        """Where the last key went that no priority binding took: the focused widget and its
        ancestors up to the screen (the keys after it wait until none has messages left)."""
        self._held_since = 0.0
        self._release_armed = False
        self._release_timer: Timer | None = None
        self.reported_saves: set[tuple[str, str]] = set()
        """Damaged saves already reported this session (id, reason): said once, not on every
        return to the menu."""
        self.settings_changed_signal: Signal[Settings] = Signal(self, "settings-changed")
        """Published after every settings change (tables redraw cards on four_colour)."""

    def get_default_screen(self) -> Screen:
        return Screen() if self.confined else MenuScreen()

    def on_mount(self) -> None:
        for problem in self._problems:
            self.notify(problem, title="Settings", severity="warning", timeout=10, markup=False)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:
            self.notify(
                f"There is no theme called {self.settings.theme!r}; using {self.theme}.",
                title="Settings", severity="warning", timeout=10, markup=False,
            )
        self.screen_change_signal.subscribe(self, self._on_screen_change)
        self._check_size()
        match, game_id, notice = self._start
        if match is not None:
            failure = None
            if game_id is None:
                try:
                    game_id = self.store.create(match)
                except OSError as error:  # play on unsaved rather than not at all
                    failure = error
                    self.notify_not_saved(error)
            self.open_game(match, game_id, failure, **self.seating(self._joined))
            if notice:
                self.notify(notice, title="Resumed at its last good move",
                            severity="warning", timeout=20, markup=False)
        if self._replay is not None:
            self.open_replay(self._replay, notice)
        self.report_store()

    @property
    def store(self) -> SaveStore:
        """The save store (made on first use: importing it, SQLite and all, waits for the menu)."""
        if self._store is None:
            from .store import SaveStore

            self._store = SaveStore(self._data_dir)
        return self._store

    def close_store(self) -> None:
        if self._store is not None:
            self._store.close()

    def report_store(self) -> None:
        """Say what the store had to do (a damaged database set aside, earlier saves brought
        in), once. (A store not yet opened has nothing to say.)"""
        if self._store is None:
            return
        for notice in self._store.notices:
            self.notify(notice, title="Saved games", severity="warning", timeout=20, markup=False)
        self._store.notices.clear()

    def notify_not_saved(self, error: Exception) -> None:
        """Say at once that the game on the table is not being saved, and why."""
        self.notify(f"{error} You can play on; the table keeps trying after every move.",
                    title="This game is not being saved", severity="error", timeout=20, markup=False)

    # -- the ways between screens --------------------------------------------------------------
    def open_table(self, match: Match, game_id: str | None, not_saved: Exception | None = None, *,
                   here: Iterable[int] | None = None, watching: bool = False, hints: bool | None = None) -> None:
        """Put ``match`` on its game's table, directly above the main menu. ``not_saved`` is why
        its first save failed (the player was told; the table keeps trying and asks before
        leaving). ``here``: the seats played at this screen (by default every human seat the
        store does not know as played from another screen); ``watching``: a spectator's
        table."""
        from .games import table_screen_for

        if here is None and not watching:
            here = self.seats_here(match, game_id)
        self.show_menu()
        table = table_screen_for(match.spec.name)(match, game_id, self.store, self.settings, here=here,
                                                  watching=watching, hints=hints)
        if not_saved is not None:
            table.save_error = str(not_saved)
        self.push_screen(table)

    def seats_here(self, match: Match, game_id: str | None) -> tuple[int, ...]:
        """The human seats of a game this screen plays: all but those with a join code."""
        try:
            elsewhere = self.store.remote_seats(game_id) if game_id is not None else frozenset()
        except OSError:
            elsewhere = frozenset()  # the store cannot be read: the moves will say so
        return tuple(seat for seat, player in enumerate(match.seats) if player.is_human and seat not in elsewhere)

    @staticmethod
    def seating(joined: Joined | None) -> dict[str, Any]:
        """``open_game``'s seating for a game a join code opened (nothing for any other)."""
        if joined is None:
            return {}
        if joined.seat is None:
            return {"watching": True}
        return {"here": (joined.seat,)}

    def join_game(self, joined: Joined) -> str | None:
        """Open the game a join code opened, as its seat (or the spectators' view); a sentence
        saying why when it cannot be opened."""
        from rules.core.errors import RulesError

        try:
            opened = self.store.open(joined.game_id)
        except (OSError, LookupError, RulesError) as error:
            return f"The game of this code cannot be opened: {error}"
        self.open_game(opened.match, joined.game_id, **self.seating(joined))
        return None

    def open_game(self, match: Match, game_id: str | None, not_saved: Exception | None = None, *,
                  here: Iterable[int] | None = None, watching: bool = False) -> None:
        """The table of a game in play; the results of a finished one."""
        if match.over:
            self.show_menu()
            self.push_screen(self.results_of(match, self.settings, game_id))
        else:
            self.open_table(match, game_id, not_saved, here=here, watching=watching)

    def results_of(self, match: Match, settings: Settings, game_id: str | None) -> Screen:
        """The results of a finished game. Tables ask the app for them: the results show the
        final table on that game's own table class, so the screens' package of tables cannot
        import them without importing itself."""
        from .screens.results import results_screen

        return results_screen(match, settings, game_id)

    def open_replay(self, replay: Replay, notice: str | None = None) -> None:
        """The replay of a game, above the screens already open."""
        from .screens.replay import replay_screen

        self.push_screen(replay_screen(replay, self.settings))
        if notice:
            self.notify(notice, title="The replay ends early", severity="warning", timeout=20, markup=False)

    async def action_quit(self) -> None:
        """ctrl+q. In a browser, quitting ends the tab's cardtable ("Session ended"), and ctrl+q
        is easily pressed there by habit: it asks first, No being the default. In a terminal it
        quits at once, as a terminal program should — unless a game's latest moves could not be
        saved: then it asks, as ``q`` at the table does."""
        if isinstance(self.screen, QuitQuestion):
            return
        unsaved = any(getattr(screen, "save_error", None) for screen in self.screen_stack)
        if not self.is_web and not unsaved:
            self.exit()
            return
        if self.is_web:
            saved = "the latest moves on the table are NOT saved" if unsaved else "every game is already saved"
            question = f"Quit cardtable? It ends in this browser tab; {saved}."
        else:
            question = "The latest moves of the game on the table are NOT saved. Quit cardtable and lose them?"
        self.push_screen(QuitQuestion(question), lambda yes: self.exit() if yes else None)

    def action_stats(self) -> None:
        from .screens.stats import StatsScreen

        self.push_screen(StatsScreen())

    # -- the record of finished games ----------------------------------------------------------
    @property
    def record(self) -> Record:
        """The record of finished games, beside the saves (opened on first use)."""
        if self._record is None:
            from .record import Record

            self._record = Record(self.store.root)
        return self._record

    def record_game(self, match: Match, game_id: str | None, *, hints: bool = False) -> None:
        """Add a game that has just ended to the record (``hints``: played with hints on); say
        in words if it cannot be."""
        from .record import GameRecord, RecordError

        try:
            self.record.add(GameRecord.of(match, game_id, hints=hints))
        except (RecordError, ValueError) as error:
            self.notify(f"{error} The game is saved all the same.", title="Not added to the record",
                        severity="warning", timeout=15, markup=False)
        self.report_record()

    def report_record(self) -> None:
        """Say what the record had to do (a damaged file set aside), once."""
        if self._record is None:
            return
        for notice in self._record.notices:
            self.notify(notice, title="The record of finished games", severity="warning", timeout=20, markup=False)
        self._record.notices.clear()

    def on_unmount(self) -> None:
        if self._record is not None:
            self._record.close()
        self.close_store()

    def show_menu(self) -> None:
        """Back to the main menu, closing every screen above it; a confined app ends instead
        (once it has a screen to leave: opening its table starts here too)."""
        if self.confined and len(self.screen_stack) > 1:
            self.exit()
            return
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_command_palette(self) -> None:
        # one palette at a time: Textual asks only whether the top screen is one, and a palette
        # under a dialog the table opened over it (or one closing, not yet gone) still holds the
        # palette's id, so a second ended the app with DuplicateIds (found by the monkey)
        # (the app's own nodes are every screen it holds: ``children`` is the top one only)
        if not any(isinstance(node, CommandPalette) for node in self._nodes):
            super().action_command_palette()

    def action_settings(self) -> None:
        from .screens.settings import SettingsScreen

        self.push_screen(SettingsScreen())

    def action_rules(self, game_name: str | None = None) -> None:
        from .screens.rules import RulesScreen

        self.push_screen(RulesScreen(game_name))

    def action_keys(self) -> None:
        """The keys page of the current screen, beside the rules of its game (if any)."""
        from .screens.rules import RulesScreen, keys_of

        screen = self.screen
        if isinstance(screen, RulesScreen):
            return
        match = getattr(screen, "match", None)
        from rules.core.match import Match

        game = match.spec.name if isinstance(match, Match) else None
        self.push_screen(RulesScreen(game, keys=keys_of(screen), start="keys"))

    # -- settings ------------------------------------------------------------------------------
    def save_settings(self) -> None:
        """Keep the current settings for next time, and tell the screens they changed. A
        confined app's player is not the machine's: their changes last while they play."""
        try:
            if not self.confined:
                write_settings(self.settings)
        except OSError as error:
            self.notify(f"Could not save the settings: {error}", severity="error", markup=False)
        self.settings_changed_signal.publish(self.settings)

    def watch_theme(self, theme: str) -> None:
        # the command palette's theme picker sets App.theme directly: remember its choice
        if theme != self.settings.theme:
            self.settings.theme = theme
            self.save_settings()

    def set_bot_speed(self, speed: str) -> None:
        self.settings.bot_delay = BOT_SPEEDS[speed]
        self.save_settings()
        self.notify(f"Bot speed: {speed}.")

    def set_four_colour(self, on: bool) -> None:
        self.settings.four_colour = on
        self.save_settings()
        self.notify("Four-colour deck on." if on else "Four-colour deck off.")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own: the theme stays; its quit is ours (it asks when moves are unsaved, or
        # in a browser); its key panel, maximize and screenshot say nothing a player needs here
        for command in super().get_system_commands(screen):
            if command.title == "Theme":
                yield command
        yield SystemCommand("Quit", "Quit cardtable (every game in play is already saved)", self.action_quit)
        yield SystemCommand("Keys", "Every key of this screen (F1)", self.action_keys)
        for speed, delay in BOT_SPEEDS.items():
            current = " (current)" if self.settings.bot_speed == speed else ""
            yield SystemCommand(
                f"Bot speed: {speed}", f"Bots wait {delay:g} s between moves{current}",
                partial(self.set_bot_speed, speed),
            )
        on = self.settings.four_colour
        yield SystemCommand(
            f"Four-colour deck: {'off' if on else 'on'}",
            "Back to red and black suits" if on else FOUR_COLOUR_HELP,
            partial(self.set_four_colour, not on),
        )
        match = getattr(screen, "match", None)
        from rules.core.match import Match

        if isinstance(match, Match):
            yield SystemCommand(
                "Rules", f"The rules of {match.spec.title}", partial(self.action_rules, match.spec.name)
            )
        else:
            yield SystemCommand("Rules", "The rules of the games", self.action_rules)
        yield SystemCommand("Settings", "Theme, bot speed and the four-colour deck", self.action_settings)

    # -- a terminal too small to play in; keys typed as a screen opens -----------------------
    async def on_event(self, event: events.Event) -> None:
        # behind the too-small notice the table is hidden: a key must not play a move, lift a
        # curtain or open a save nobody can see (ctrl+q still quits)
        if (isinstance(event, events.Key) and self.has_class("-too-small")
                and event.key not in ("ctrl+q", "ctrl+c")):
            event.stop()
            self.bell()
            return
        # keys act in the order typed, even when they come in one read from the terminal.
        # Textual sends a key on to the focused widget at once and runs the bindings when it
        # comes back up to the app, so the keys behind it reached the widget first: a name,
        # Tab and the next name in one read went all into the first field; a priority
        # binding, which acts at once, overtook the keys before it (s then ↓ sold the
        # certificate ↓ moved to); and a screen pushed a moment ago has no parts yet while its
        # bindings would already act (Enter as the draw dialog opened read its list before
        # there was one: NoMatches ended the app, found by the monkey). So a key waits until
        # the one before it has gone all the way, and until the screen is set up; the keys
        # after it wait too. A paste as well: it goes to what has the focus as it comes, and
        # behind ':' that is the bar the ':' opens
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if self._held_keys or not self._key_can_go():
                self._hold(event)
                return
            self._sending(event)
        await super().on_event(event)

    def _key_can_go(self) -> bool:
        """Whether a key may go now: the screen is set up and the key before it went all the way."""
        if not self._screen_ready():
            return False
        if self._in_flight and self._keys_in_flight():
            return False
        self._in_flight = []
        return True

    def _sending(self, key: events.Key | events.Paste) -> None:
        if not isinstance(key, events.Key) or not self._is_priority(key.key):
            self._note_in_flight()

    def _hold(self, key: events.Key | events.Paste) -> None:
        self._held_keys.append(key)
        if len(self._held_keys) == 1:
            self._held_since = time.monotonic()
        self._arm_release()

    def _arm_release(self) -> None:
        if not self._release_armed:
            self._release_armed = True
            # a timer's callback runs in the timer's own task, beside whatever the app is
            # handling (a key back up for its bindings): the held keys go from the app's own
            # queue, one message among the others, never halfway through another
            timer = self._release_timer = self.set_timer(KEY_HOLD_STEP, self._release_soon)
            task = getattr(timer, "_task", None)  # private to Textual: without it, no mend
            if task is not None:
                task.add_done_callback(lambda _task: self._after_release_timer(timer))

    def _after_release_timer(self, timer: Timer) -> None:
        # set_timer's timer skips a tick it is late for, and a timer of one tick that starts
        # late (the process stalled a moment as it began: a busy machine) ends without it:
        # the keys were held for good, and every key after them
        if timer is self._release_timer and self._release_armed:
            self._release_soon()

    def _release_soon(self) -> None:
        self._release_timer = None  # its tick came
        if not self.call_later(self._release_keys):
            self._release_armed = False  # the app is closing: the next key arms it again

    def _screen_ready(self) -> bool:
        try:
            return self.screen.is_mounted
        except ScreenStackError:  # no screen yet, or none left: Textual's own way with a key
            return True

    def _is_priority(self, key: str) -> bool:
        """Whether a priority binding of the screen's chain (the app's, the screen's, the
        focused widget's and its ancestors') takes ``key``: what Textual's own look at a key
        goes through first."""
        try:
            # private parts of Textual: on a Textual without them keys go as Textual sends
            # them (the one-read tests fail there), never an error at every key
            chain = getattr(self.screen, "_binding_chain", ())
        except ScreenStackError:
            return False
        return any(binding.priority for _node, bindings in chain
                   for binding in bindings.key_to_bindings.get(key, ()))

    def _note_in_flight(self) -> None:
        """The key about to be forwarded goes to the focused widget (else the screen) and
        bubbles up from there."""
        try:
            node: Any = self.focused or self.screen
        except ScreenStackError:
            return
        self._in_flight = []
        while node is not None and node is not self:
            self._in_flight.append(node)
            node = node._parent

    def _keys_in_flight(self) -> bool:
        """Whether a key is still on its way: waiting at a widget the last key went to, or back
        at the app for its bindings; or what a key set off (a list's choice, a line entered)
        waits at one of those widgets. Textual's own upkeep there (refreshes, layouts, calls
        after a refresh) is no key's: a key waiting on it waited for the next frame."""
        waiting = [message for node in self._in_flight for message in _waiting(node)]
        return (any(map(_a_keys_doing, waiting))
                or any(isinstance(message, events.Key) and message.is_forwarded for message in _waiting(self)))

    async def _release_keys(self) -> None:
        """The held keys go, in order, each once it may (``_key_can_go``; a key that waited
        ``KEY_HOLD_MOST`` for the one before goes anyway). Handled here, not posted again: a
        key posted again would queue behind keys that came meanwhile and were not yet held."""
        self._release_armed = False
        while self._held_keys:
            waited = time.monotonic() - self._held_since
            if not self._key_can_go() and not (self._screen_ready() and waited >= KEY_HOLD_MOST):
                self._arm_release()
                return
            key = self._held_keys.pop(0)
            self._held_since = time.monotonic()
            self._sending(key)
            await super().on_event(key)

    @property
    def holds_keys(self) -> bool:
        """Whether typed keys still wait for a screen being set up or for the keys before them
        (tests wait on it too)."""
        return bool(self._held_keys)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)

    def _check_size(self, size: Size | None = None) -> None:
        width, height = size or self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = self.has_class("-too-small")
        if small and not was_small:
            # the hidden widgets lose the focus: remember who had it
            self._focus_before_small = self.screen.focused
        self.set_class(small, "-too-small")
        if small:
            self._guard(self.screen)
        elif was_small:
            self.call_after_refresh(self._refocus)

    def _refocus(self) -> None:
        """Give the focus back to the widget that had it before the terminal got too small (or
        to the screen's first choice if that widget has gone)."""
        widget = getattr(self, "_focus_before_small", None)
        self._focus_before_small = None
        if widget is not None and widget.is_attached and widget.screen is self.screen and widget.focusable:
            widget.focus()
        elif self.screen.focused is None:
            auto = [w for w in self.screen.query(self.screen.AUTO_FOCUS or "*") if w.focusable]
            if auto:
                auto[0].focus()

    def _on_screen_change(self, screen: Screen) -> None:
        if self.has_class("-too-small"):
            self._guard(screen)

    def _guard(self, screen: Screen) -> None:
        guards = screen.query(SizeGuard)
        if guards:
            guards.refresh()
        elif screen.is_attached:
            screen.mount(SizeGuard())
