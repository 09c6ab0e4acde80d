"""The game table every game is played on.

``TableScreen`` renders a Match through the view of the current viewer and the events that
viewer may see, and drives it: every move written to the store as it is made, the moves other
cardtables write into the same game, the bots' moves, the hand-off curtain between human
players, the results at the end. It never decides a rule and never reads a game's state: it
asks the match for ``view``, ``legal`` and ``check`` (all for the viewer's seat), plays with
``submit`` and shows a refusal in the words the rules gave.

A game's own table lives in ``cardtable/games/<game>/table.py`` (``TABLE``): it subclasses this
screen, overrides ``compose_board`` and ``refresh_board``, adds BINDINGS and actions, extends
``check_action`` (calling super), reacts to ``on_hand_widget_selection_changed`` and plays with
``submit`` and ``await confirm`` (in an action decorated with ``@work``).
"""

from __future__ import annotations

import secrets
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ClassVar, Iterable, TypeVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import UPDATE_PERIOD, Screen
from textual.widget import Widget
from textual.timer import Timer
from rich.text import Text
from textual.widgets import Static
from ..widgets.header import Header
from textual.worker import NoActiveWorker, get_current_worker

from .closing import OpensWhileRunning

from rules.core import Card, Command, Match, RulesError, Update, View
from rules.core.words import Sentence, join_names, player, players, say
from rules.core.bots import get_bot
from rules.core.engine import chance
from rules.core.search import EXPERT, settings_for

from ..frames import FrameTimer
from ..remote import bot_choice
from ..store import Diverged, GameChanged, MovedFirst, SaveError, SaveStore
from ..store.seats import PRESENCE_SECONDS
from ..widgets import CommandBar, GameLog, HandWidget, Scoreboard
from ..widgets.beside_board import Resized
from ..widgets.footer import TableFooter
from ..widgets.keys import bindings_for
from ..widgets.words import plain, styled
from .confirm import ConfirmScreen
from .handoff import HandoffScreen
from .hint import HintKey

if TYPE_CHECKING:
    from ..settings import Settings

T = TypeVar("T")

SETTLE = 0.05
"""Seconds the expert's answer waits past its budget, whatever it did. A search runs a little
past its budget (a few ms), and the app's thread, which it kept short of time, has work to catch
up on: answered at the budget, an answer after a search came some 25 ms later than one with
nothing to search (0.433 s against 0.408 s from asking to playing, medians of 16 Capital Auction
reaction windows each, with a Connection and without, on two busy cores). With this margin both
are answered from the same state — the search over, the worker idle in its wait — and came to
0.456 s against 0.458 s (20 each)."""


def answer_after(choose: Callable[[], T], deadline: float | None, clock: Callable[[], float],
                 wait: Callable[[float], object]) -> T:
    """``choose()``'s answer, no sooner than ``deadline`` by ``clock``: ``wait`` spends the time
    left after choosing (None: no deadline, no wait)."""
    answer = choose()
    if deadline is not None:
        left = deadline - clock()
        if left > 0:
            wait(left)
    return answer


POLL_SECONDS = 0.2
"""How often a table looks for moves other cardtables wrote into its game (one ``PRAGMA
data_version`` when nothing was written: no repaint, no read of the game)."""

NO_BOARD = (
    "This game has no board yet — press : and use the command bar; "
    "the hand, the scoreboard and the log show the rest."
)


# keys Textual itself answers (focus moves) and keys that are only held with others
_FOCUS_KEYS = frozenset({"tab", "shift+tab", "shift", "ctrl", "alt", "meta", "escape"})

class TableScreen(OpensWhileRunning, HintKey, Screen[None]):
    """The table of ``match`` (saved as ``game_id`` in ``store``).

    ``viewer`` is the seat whose private things are on screen: the only human at a table with
    one human; the human who last lifted the hand-off curtain when there are several (None while
    the curtain is up); None at a table of bots only. ``view`` is ``match.view(viewer)`` and
    ``legal`` the viewer's legal commands, both taken once per change.

    When several humans are awaited at once (sealed bids), the curtain calls them one by one in
    seat order; each enters their command behind it.

    ``here`` names the human seats played at this screen (None: every human seat); the others are
    played from other screens (``cardtable join``): never behind this screen's curtain, never
    acted for here, their turns shown as waiting for them "at another screen" (or away, when no
    screen of theirs has been seen for a while). ``watching``: a spectator's table, the public
    view, read-only (it plays no bot either)."""

    CSS_PATH = [Path(__file__).with_name("table.tcss")]
    clock: ClassVar[Callable[[], float]] = staticmethod(time.monotonic)
    """The expert's clock, for its time budget (tests give a fake one)."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    # below 30 lines the title bar gives its line to the game (the turn is in the scoreboard's title)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    AUTO_FOCUS = "#hand"

    BINDINGS = [
        Binding("colon", "command_bar", "Command", key_display=":"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("i", "hint", "Hint"),
        Binding("question_mark", "rules", "Rules & keys", key_display="?"),
        Binding("q", "leave", "Menu"),
        Binding("q", "leave_app", "Leave", show=True),  # a confined seat (SSH, the join page): no menu
        Binding("escape", "escape", "Close / leave", show=False),
    ]

    def __init__(self, match: Match, game_id: str | None, store: SaveStore | None,
                 settings: Settings, *, here: Iterable[int] | None = None, watching: bool = False,
                 hints: bool | None = None) -> None:
        super().__init__()
        self.match = match
        self.hints = self._hints_stored(store, game_id) if hints is None else hints
        """Whether the expert's hints are on for this game (a setting of the game, kept by the store)."""
        self.game_id = game_id
        self.store = store
        self.settings = settings
        self.watching = watching
        people = tuple(i for i, seat in enumerate(match.seats) if seat.is_human)
        at_screen = set(people if here is None else here) if not watching else set()
        self.humans: tuple[int, ...] = tuple(seat for seat in people if seat in at_screen)
        """The human seats played at this screen."""
        self.elsewhere: tuple[int, ...] = tuple(seat for seat in people if seat not in at_screen)
        """The human seats played from other screens."""
        self.away: frozenset[int] = frozenset()
        """Seats of ``elsewhere`` no screen has had open lately."""
        self.screen_id = secrets.token_hex(8)
        self._presence: Timer | None = None
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.view: View = match.view(self.viewer)
        self.legal: list[Command] = match.legal(self.viewer)
        self.title = match.spec.title
        self._unsubscribe: Callable[[], None] | None = None
        self._bot_pending = False
        self._thinking: int | None = None  # the seat whose expert thinks in a worker thread
        self._board_deferred = False  # a redraw put off once because a part of the board was missing
        self._bot_timer: Timer | None = None
        self._curtain_up = False
        self._results_shown = False
        # each human's hand just before their last command: what came since is marked new
        self._hand_before: dict[int, frozenset[Card]] = {}
        self.save_error: str | None = None
        """Why the latest moves are not saved (None while every move is): ``q`` asks first."""
        self._poll: Timer | None = None
        self._drawn_behind = False  # moves made while covered wait to be drawn (on_screen_resume)

    @property
    def _update_timer(self) -> Timer:
        """The timer that draws the screen: Textual's, paced from the last frame (cardtable.frames)."""
        timer = self.__dict__.get("_frame_timer")
        if timer is None:
            timer = FrameTimer(self, UPDATE_PERIOD, name="screen_update", callback=self._on_timer_update,
                               pause=True, settled=self._settled)
            timer._start()
            self._timers.add(timer)
            self.__dict__["_frame_timer"] = timer
        return timer

    def _settled(self) -> bool:
        """No message waits in the app's queue or this screen's (a frame drawn now is whole)."""
        return not self.app.message_queue_size and not any(
            node.message_queue_size for node in self.walk_children(with_self=True))

    async def _on_idle(self, event: events.Idle) -> None:
        # Screen runs its callbacks "after refresh" when it goes idle with nothing to draw. It
        # can go idle before the changes of a move have reached it (each widget reports its own
        # in a message), or while a frame settles (cardtable.frames): then a frame comes first,
        # and the callbacks after it (a bot at delay 0 would otherwise move before its last move
        # was drawn, and the next, a match played out on a screen left at its first position)
        timer = self._update_timer
        if timer.due or (self._callbacks and not self._settled()):
            timer.resume()
            event.prevent_default()

    # -- the hooks of a game's table -----------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        """The game's board widgets, shown above the hand. Override in a game's table."""
        yield Static(NO_BOARD, id="no-board")

    def refresh_board(self, view: View) -> None:
        """Show ``view`` (the viewer's current view) on the board; called after every change."""

    KEYS_WIDGET: str | None = None
    """A selector for the widget that takes the hand's place and its keys (compose it in
    ``compose_hand``); None: the hand. With one, the (hidden) hand never takes the focus."""

    def on_resize(self) -> None:
        # the -short/-narrow/-wide classes follow the size, and a board may draw to them (a
        # short layout at 80×24): redraw it once the classes are set
        self.call_after_refresh(self._draw_board)
        self.call_after_refresh(self._fit_board)

    def _draw_board(self) -> bool:
        """``refresh_board`` with the viewer's view; False if a part of the board was missing."""
        try:
            self.refresh_board(self.view)
        except NoMatches:
            # seen twice on a results screen refreshed as it mounted (Property's grid once in
            # CI, Abundance's tally once under a profiler; the cause not found): the table is
            # drawn again after the next frame, once, rather than an exception reaching the
            # player; missing again, the board waits for the next redraw
            if not self._board_deferred:
                self._board_deferred = True
                self.call_after_refresh(self.refresh_table)
            return False
        self._board_deferred = False
        return True

    def on_resized(self, message: Resized) -> None:
        message.stop()
        self.call_after_refresh(self._fit_board)

    def _fit_board(self) -> None:
        """Cap the board at the room the scoreboard, the hand and whatever else shares its
        column leave, so the board is as tall as its content up to that and then scrolls."""
        plays, boards = self.query("#play"), self.query("#board")
        # a screen being taken down (its parts gone) or a table in a hidden tab (no height to
        # measure: the results' first tab) has nothing to fit; showing it fits it again
        if not self.is_mounted or not plays or not boards or plays.first().content_size.height == 0:
            return
        play, board = plays.first(), boards.first()
        others = sum(child.outer_size.height for child in play.children if child is not board and child.display)
        room = max(3, play.content_size.height - others)
        if board.styles.max_height is None or board.styles.max_height.value != room:
            board.styles.max_height = room

    def compose_hand(self) -> ComposeResult:
        """What sits under the board: the hand. Override to put more there (Abundance's
        auction block), keeping the HandWidget with id ``hand``."""
        hand = HandWidget(self.settings.four_colour, id="hand")
        if self.KEYS_WIDGET:
            hand.can_focus = False
        yield hand

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_table()
        yield TableFooter()

    def compose_table(self) -> ComposeResult:
        """The table between the title bar and the footer: the status line, the scoreboard,
        board and hand beside the log, and the command bar (the results screen shows it in a
        tab of its own)."""
        yield Static(id="status")
        with Horizontal(id="main"):
            # the scoreboard sits with the board, not in the side column: at 80 columns a side
            # column cannot hold a scoreboard of four columns without cutting its headers
            with Vertical(id="play"):
                yield Scoreboard(id="scoreboard")
                with VerticalScroll(id="board"):
                    yield from self.compose_board()
                yield from self.compose_hand()
            with Vertical(id="side"):
                yield GameLog(id="log")
        yield CommandBar(id="command-bar")

    @property
    def hand(self) -> HandWidget:
        return self.query_one("#hand", HandWidget)

    @property
    def game_log(self) -> GameLog:
        return self.query_one("#log", GameLog)

    @property
    def command_bar(self) -> CommandBar:
        return self.query_one("#command-bar", CommandBar)

    @property
    def my_turn(self) -> bool:
        """True when the game awaits the seat whose hand is on screen."""
        return self.viewer is not None and self.viewer in self.match.awaiting

    def next_human(self) -> int | None:
        """The human the table waits for next: the first awaited human seat in seat order."""
        return next((seat for seat in sorted(self.match.awaiting) if seat in self.humans), None)

    def on_mount(self) -> None:
        self.game_log.notation = self.match.spec.notation
        self.game_log.four_colour = self.settings.four_colour
        self._unsubscribe = self.match.subscribe(self._on_match_update)
        self._watch_store()
        self._show_presence()
        settings_changed = getattr(self.app, "settings_changed_signal", None)
        if settings_changed is not None:
            settings_changed.subscribe(self, lambda _settings: self.refresh_table())
        self._rebuild_log()
        self.refresh_table()
        # a resumed game may await a bot, a hand-off or be over: decide once the table is shown
        self.call_after_refresh(self._what_next)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._bot_timer is not None:
            self._bot_timer.stop()
        if self._poll is not None:
            self._poll.stop()
            self._poll = None
        if self._presence is not None:
            self._presence.stop()
            self._presence = None
            try:
                self.store.gone(self.game_id, self.screen_id)
            except (OSError, LookupError):
                pass  # its row grows old and reads as away

    # -- showing the game ----------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw everything from a fresh view for the viewer."""
        match = self.match
        self.view = match.view(self.viewer)
        self.legal = match.legal(self.viewer)
        self.sub_title = f"Turn {match.turn}"
        self._show_status()
        self._refresh_hand()
        self._show_scores()
        self.game_log.border_title = "Log" if self.viewer is not None else "Log (public)"
        if not self._draw_board():
            return
        self.refresh_bindings()
        self.call_after_refresh(self._fit_board)  # the hand or the board may have grown

    def _show_scores(self) -> None:
        scoreboard = self.query_one(Scoreboard)
        scoreboard.border_title = f"Scores · turn {self.match.turn}"
        scoreboard.show(self.view, self.match.seats, self.seat_labels(), self._thinking)

    def _show_status(self) -> None:
        self.query_one("#status", Static).update(styled(self.status_text(), four_colour=self.settings.four_colour))

    def status_text(self) -> Sentence:
        """The view's sentence, then what the table is waiting for."""
        match = self.match
        text = Sentence(self.view.status)
        awaiting = sorted(match.awaiting)
        if not awaiting:
            return text
        names = match.names
        if self.viewer in awaiting:
            return say("{}  ▶ Your move, {}.", text, player(names, self.viewer))
        bots = [seat for seat in awaiting if match.seats[seat].bot is not None]
        if self._thinking is not None and self._thinking in awaiting:
            return say("{}  {} (bot: expert) thinking…", text, player(names, self._thinking))
        if bots and len(bots) == len(awaiting):
            if all(match.seats[seat].bot == EXPERT for seat in awaiting):
                return say("{}  {} (bot: expert) playing…", text, join_names(players(names, bots)))
            return say("{}  {} (bot{}) playing…", text, join_names(players(names, bots)), "s" * (len(bots) > 1))
        return say("{}  Waiting for {}.", text, join_names([self.whom(seat) for seat in awaiting]))

    def whom(self, seat: int) -> Sentence:
        """A seat's name, with "(at another screen)" or "(away)" for a seat played elsewhere."""
        name = player(self.match.names, seat)
        if seat in self.away:
            return say("{} (away: no screen of theirs is open)", name)
        if seat in self.elsewhere:
            return say("{} (at another screen)", name)
        return name

    def seat_labels(self) -> list[Text] | None:
        """How the scoreboard names each seat; a game's table may add colours or initials."""
        return None

    def _refresh_hand(self) -> None:
        hand = self.hand
        # a game without a hand of cards (Abundance; Capital Auction's chips take its place)
        # shows none, in play and in a replay alike, rather than an empty one
        hand.display = any("hand" in sizes for sizes in self.view.zone_sizes) or "hand" in self.view.zones
        if not hand.display:
            return
        if self.viewer is None:
            hand.border_title = "Hands hidden"
            placeholder = ("You are watching: every hand is hidden." if self.watching
                           else "Hands stay hidden until the next player is ready." if self.humans
                           else "Only bots are playing: every hand is hidden.")
        else:
            count = len(self.view.hand)
            hand.border_title = plain(f"{self.match.names[self.viewer]}'s hand · {count} card{'s' * (count != 1)}")
            placeholder = "No cards in hand."
        hand.show(self.view.hand, placeholder, four_colour=self.settings.four_colour, fresh=self.fresh_cards())

    def fresh_cards(self) -> set[str]:
        """The keys of the viewer's cards that came since their last move (drawn, or dealt to
        them in a deal): marked until their next move."""
        before = self._hand_before.get(self.viewer) if self.viewer is not None else None
        if before is None:
            return set()
        return {card.key for card in self.view.hand if isinstance(card, Card) and card not in before}

    def _rebuild_log(self) -> None:
        self.game_log.rebuild(self.match.history, self.match.names, self.viewer)

    # -- the bus -------------------------------------------------------------------------------
    def _on_match_update(self, match: Match, update: Update) -> None:
        self._close_hint()  # before a curtain can come over it
        if update.kind == "command" and match.over:
            self._record()
        viewer = self.viewer
        seat = update.played.seat
        if update.kind == "undo":
            self._hand_before.pop(seat, None)
        elif seat == viewer and seat is not None:
            self._hand_before[seat] = frozenset(self.view.hand)  # the view before this command
        if self._curtain_needed():
            # hide the last player's screen before anything else is drawn
            self.viewer = None
        if self.app.screen is not self:
            # covered (a dialog, a sheet, the curtain): drawn once when uncovered, where each move
            # drawn under the cover had the whole dimmed table composed again (a rubber's sales
            # sheet over a match between bots: half the match)
            self._drawn_behind = True
            self.view = match.view(self.viewer)
            self.legal = match.legal(self.viewer)
        elif update.kind == "command" and self.viewer == viewer:
            self.game_log.append(update.played, match.names, self.viewer)
            self.refresh_table()
        else:
            self._rebuild_log()
            self.refresh_table()
        self._what_next()

    # -- the store -----------------------------------------------------------------------------
    def make_move(self, seat: int, command: Command | str) -> None:
        """Make ``command`` ``seat``'s move: through the store, which first plays what other
        cardtables wrote meanwhile and checks the move against that (raising a RulesError, the
        reason in words, when it is refused: nothing is played); or, while the game has no place
        in the store, on the match, saving it when possible. A move the store cannot write is
        played all the same: the table says so and the next move tries again."""
        if self.store is None or self.game_id is None:
            self.match.submit(seat, command)
            self._autosave()
            return
        try:
            self.store.play(self.game_id, self.match, seat, command)
        except SaveError as error:
            self._not_saved(error)
        except GameChanged as change:
            self._reopen(change)
        else:
            self._saved()

    def _autosave(self) -> None:
        """Write what the store lacks of the game (its first save, moves it could not write)."""
        if self.store is None:
            return
        try:
            if self.game_id is None:  # its first save failed: keep trying
                self.game_id = self.store.create(self.match)
                self._watch_store()
            else:
                self.store.save(self.game_id, self.match)
        except (OSError, ValueError, TypeError) as error:
            # the game lives on in memory; the next command tries again
            self._not_saved(error)
        except GameChanged as change:
            self._reopen(change)
        else:
            self._saved()

    def _saved(self) -> None:
        if self.save_error is not None:
            self.save_error = None
            self.notify("The game is saved again.", title="Saved", timeout=5)

    def _watch_store(self) -> None:
        """Look for moves other cardtables write into this game, every POLL_SECONDS."""
        if self.store is not None and self.game_id is not None and self._poll is None:
            self._poll = self.set_interval(POLL_SECONDS, self.catch_up)

    def _show_presence(self) -> None:
        """Say every PRESENCE_SECONDS that this screen has the game open for its seats, and
        look which seats played elsewhere have no screen open (away). Only for a game played
        from several screens: a game at one screen writes nothing for it."""
        if self.store is None or self.game_id is None or not (self.elsewhere or self.watching):
            return
        self._be_here()
        if self._presence is None:
            self._presence = self.set_interval(PRESENCE_SECONDS, self._be_here)

    def _be_here(self) -> None:
        try:
            if self.humans:
                self.store.here(self.game_id, self.humans, self.screen_id)
            away = frozenset(self.elsewhere) - self.store.present(self.game_id)
        except (OSError, LookupError):
            return  # the store cannot be reached just now: the moves say why if it lasts
        if away != self.away:
            self.away = away
            if self.is_mounted:
                self._show_status()

    def catch_up(self) -> None:
        """Play on the table what other cardtables wrote into the game since it last looked."""
        if self.store is None or self.game_id is None or not self.is_attached:
            return
        try:
            self.store.sync(self.game_id, self.match)
        except Diverged as error:  # the moves here that could not be saved never will be
            self._not_saved(error)
        except SaveError:
            pass  # the store cannot be read just now: the next move says why, if it lasts
        except GameChanged as change:
            self._reopen(change)

    def _reopen(self, change: Exception) -> None:
        """The game changed elsewhere in a way this table cannot follow move by move: open it
        again as the store has it."""
        try:
            opened = self.store.open(self.game_id)
        except (SaveError, LookupError, RulesError) as error:
            self.notify(f"{change} The game could not be opened again: {error}", severity="error",
                        title="Game changed", timeout=15, markup=False)
            return
        self.notify(f"{change} The table shows the game as it is now.", severity="warning",
                    title="Game changed", timeout=10, markup=False)
        open_game = getattr(self.app, "open_game", None)
        if callable(open_game):
            open_game(opened.match, self.game_id, here=self.humans, watching=self.watching)

    def _record(self) -> None:
        """Add the game that just ended to the record of finished games (the app says in words
        if it cannot)."""
        record_game = getattr(self.app, "record_game", None)
        if callable(record_game):
            record_game(self.match, self.game_id, hints=self.hints)

    def _not_saved(self, error: Exception) -> None:
        """Warn at once (and again only when the reason changes) that moves are not saved."""
        if str(error) != self.save_error:
            self.notify(f"The game could not be saved: {error}", severity="error",
                        title="Not saved", timeout=15, markup=False)
        self.save_error = str(error)

    def _what_next(self) -> None:
        """After a change: the results, a bot's move, or the hand-off to another human."""
        if not self.is_attached:
            return
        match = self.match
        if match.over:
            self._show_results()
            return
        if not self.watching and any(match.seats[seat].bot is not None for seat in match.awaiting):
            self._schedule_bot()
        if self._curtain_needed():
            self._hand_over(self.next_human())

    def _show_results(self) -> None:
        if self._results_shown:
            return
        self._results_shown = True
        screen = self.app.results_of(self.match, self.settings, self.game_id)
        # once this change has been drawn, not from inside the bus's callback. The results take
        # the finished table's place (their "Final table" tab shows it), so that leaving them
        # goes on, never back to a table where nothing can be played
        self.call_after_refresh(self._give_way_to, screen)

    def _give_way_to(self, screen: Screen) -> None:
        if self.app.screen is self:
            self.app.switch_screen(screen)
        else:  # a dialog is open over the table: the results come over it
            self.app.push_screen(screen)

    def results_details(self) -> Widget | None:
        """What the results screen shows under the scores (a game's own record of the match,
        built from its views); None for nothing more. Override in a game's table."""
        return None

    # -- bots ----------------------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        if self._bot_pending:
            return
        self._bot_pending = True
        delay = self.settings.bot_delay
        if delay > 0:
            self._bot_timer = self.set_timer(delay, self._play_bot)
        else:
            # once the last move is on the screen: played at once (call_later), each move came
            # before the screen could draw the one before, and a match between bots ran to its
            # end with the screen (and the log) showing its first position
            self.call_after_refresh(self._play_bot)

    def _play_bot(self) -> None:
        self._bot_pending = False
        self._bot_timer = None
        match = self.match
        bots = [seat for seat in sorted(match.awaiting) if match.seats[seat].bot is not None]
        if not self.is_attached or not bots:
            return
        seat = bots[0]  # several awaited at once (sealed bids): one by one, in seat order
        if match.seats[seat].bot == EXPERT:
            self._think(seat)
            return
        try:
            command, mistake = bot_choice(match, seat)
        except RulesError as stuck:
            self.notify(str(stuck), severity="error", title="Bot stuck", timeout=10, markup=False)
            return
        if mistake is not None:  # it plays its first legal move instead, and the table says so
            self.notify(mistake, severity="warning", title="Bot", markup=False)
        self._play_for_bot(seat, command)

    def _play_for_bot(self, seat: int, command: Command) -> None:
        """A bot's move. When another cardtable moved first (it may drive the same bot), the
        table has caught up and its next turn decides again: nothing to say."""
        try:
            self.make_move(seat, command)
        except MovedFirst:
            pass

    def _think(self, seat: int) -> None:
        """The expert searches in a worker thread, from its seat's view and legal commands
        (taken here, on the app's thread); its answer is submitted back on the app's thread,
        and discarded if the game changed meanwhile (undo, another move, leaving the table).

        It answers after its whole time budget (and ``SETTLE``), never sooner: a search that
        ends early (one legal command, or candidates that come to the same thing) would
        otherwise tell the table what it holds — a reaction answered at once is a player with
        nothing to react with. (Headless simulations, which nobody watches, keep the early
        answers.)"""
        if self._thinking is not None:
            return
        match = self.match
        level = match.seats[seat].bot
        bot = get_bot(match.spec, level)
        view, legal = match.view(seat), match.legal(seat)
        rng = chance(match.seed, f"bot/{len(match.history)}/{seat}")
        stamp = (len(match.history), match.awaiting)
        self._thinking = seat
        self._show_status()
        self._show_scores()
        seconds = settings_for(match.spec).seconds  # the expert's budget: the game's, or the default
        deadline = None if seconds is None else self.clock() + seconds + SETTLE
        self._think_worker(bot, view, legal, rng, seat, stamp, deadline)

    @work(thread=True, exclusive=True, group="expert")
    def _think_worker(self, bot, view, legal, rng, seat, stamp, deadline: float | None) -> None:
        def choose() -> Command | Exception:
            try:
                return bot.choose(view, legal, rng)
            except Exception as error:  # noqa: BLE001 — a bot's bug must not end the game
                return error

        command = answer_after(choose, deadline, self.clock, self._wait_in_worker)
        if get_current_worker().is_cancelled:  # the table was left while it thought
            return
        self.app.call_from_thread(self._thought, seat, stamp, command)

    def _wait_in_worker(self, seconds: float) -> None:
        """Wait ``seconds`` in the expert's worker thread: leaving the table (which cancels the
        worker) ends the wait at once."""
        get_current_worker().cancelled_event.wait(seconds)

    def _thought(self, seat: int, stamp, command) -> None:
        self._thinking = None
        match = self.match
        if self.is_attached:
            self._show_scores()
        if not self.is_attached or (len(match.history), match.awaiting) != stamp:
            if self.is_attached:
                self._what_next()  # stale: the game moved on; think again if a bot is awaited
            return
        if isinstance(command, Exception) or command not in match.legal(seat):
            self.notify(f"{match.names[seat]} (bot: expert) made a mistake and played its first legal "
                        "move instead.", severity="warning", title="Bot", markup=False)
            command = match.legal(seat)[0]
        self._play_for_bot(seat, command)

    # -- the hand-off curtain ------------------------------------------------------------------
    def _curtain_needed(self) -> bool:
        """Whenever the seat to act changes between two humans at this screen, the curtain comes
        first: even where nothing on the table is private (Abundance's open auctions), the one
        who answers must know it is their turn, and the one who played must not be able to act
        for them (undo, a key pressed too late)."""
        seat = self.next_human()
        if len(self.humans) < 2 or self._curtain_up or seat is None:
            return False
        return seat != self.viewer

    def _hand_over(self, seat: int) -> None:
        """The next human is ``seat``: the curtain, then their screen."""
        self._raise_curtain(seat)

    def _raise_curtain(self, seat: int) -> None:
        self._curtain_up = True
        if self.viewer is not None:
            self.viewer = None
            self._rebuild_log()
            self.refresh_table()
        self.command_bar.close()
        self.app.clear_notifications()  # a refusal may have named the last player's cards
        curtain = HandoffScreen(self.match.names[seat], self.match.spec.title, f"Turn {self.match.turn}")
        self.app.push_screen(curtain, callback=partial(self._lift_curtain, seat))

    def _lift_curtain(self, seat: int, _result: object = None) -> None:
        self._curtain_up = False
        if self.next_human() == seat:
            self.viewer = seat
            self._rebuild_log()
            self.refresh_table()
            self.hand.focus()
        self._what_next()

    # -- playing -------------------------------------------------------------------------------
    def submit(self, command: Command | str) -> bool:
        """Play ``command`` (a Command or its notation) for the viewer. True if the rules took
        it; otherwise the reason is shown as an error notification and nothing changes."""
        if self.viewer is None:
            message = ("You are watching this game: a spectator cannot play." if self.watching else
                       "No player's hand is on the table: nobody can play from here now.")
            self.notify(message, severity="error", title="Not allowed", markup=False)
            return False
        try:
            self.make_move(self.viewer, command)
        except RulesError as error:
            self.notify(str(error), severity="error", title="Not allowed", markup=False)
            return False
        except Exception as error:  # noqa: BLE001 — a bug in a game must not close the table
            self.notify(f"That command could not be played ({type(error).__name__}: {error}). "
                        "Nothing changed; the game goes on.", severity="error", title="Not played",
                        markup=False)
            return False
        return True

    def refusal(self, command: Command | str) -> str | None:
        """The rules' reason for refusing ``command`` from the viewer now (the rules' Sentence,
        its parts kept), or None."""
        try:
            self.match.check(self.viewer, command)
        except RulesError as error:
            return error.sentence  # a Sentence: a table styles its cards and names from its parts
        except Exception as error:  # noqa: BLE001 — as in submit: say so, never crash
            return f"That command cannot be judged ({type(error).__name__}: {error})."
        return None

    async def confirm(self, message: str) -> bool:
        """Ask a yes/no question in a ConfirmScreen; True for yes.

        Await it in a worker: decorate the action with ``@work`` (``from textual import work``).
        Textual runs key-bound actions on the app's own message loop, so an action that waited
        there for the answer would stop the very keys that give it."""
        try:
            get_current_worker()
        except NoActiveWorker:
            raise RuntimeError(
                "TableScreen.confirm() must be awaited in a worker: decorate the action with @work"
            ) from None
        return bool(await self.app.push_screen_wait(ConfirmScreen(message)))

    def legal_texts(self) -> list[str]:
        """The legal commands now, in notation (empty unless it is the viewer's move)."""
        return [self.match.format(command) for command in self.legal]

    # -- actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("leave", "leave_app"):  # the footer names where q goes
            return getattr(self.app, "confined", False) == (action == "leave_app")
        if action == "undo":
            return True if self.match.can_undo(self.viewer) else None
        if action == "command_bar":
            return True if self.my_turn else None
        if action == "hint":
            return True if self.hints and self.my_turn and self.legal else None
        return True

    def why_not(self, action: str) -> str | None:
        """Why the key bound to ``action`` does nothing now, in a sentence (a key press is never
        ignored in silence: ``on_key`` shows it). A game's table adds its own actions' reasons,
        the rules' refusal where there is one, and calls super for the rest."""
        if action == "undo":
            return ("Nothing to take back: only your own latest moves can be, before anything "
                    "was drawn or revealed and before anyone else played.")
        if action == "command_bar":
            if self.viewer is None:
                return "No player's hand is on the table: nobody can type a move from here now."
            waiting = join_names(players(self.match.names, sorted(self.match.awaiting)))
            return str(say("It is not your move: the game is waiting for {}.", waiting)) if waiting else None
        if action == "hint":
            return self.why_no_hint()
        return None

    def on_key(self, event: events.Key) -> None:
        """A key bound here that would do nothing now says why, on the spot (the footer greys
        or hides it, but a player who presses it deserves a word). Bindings run after the key
        has passed through the screen, so this asks the same question they will."""
        bar = self.command_bar
        if bar.is_open and self.app.focused is not bar.input and event.is_printable and event.character:
            # typed before the just-opened bar took the focus: the letters are the command's
            event.stop()
            event.prevent_default()
            bar.input.insert_text_at_cursor(event.character)
            bar.input.focus()
            return
        bound = bindings_for(self, event.key)
        if not bound:
            if event.is_printable and event.character and not event.character.isspace():
                self.notify(f"{event.character} is not a key of this table: F1 lists them all.",
                            title="Keys", timeout=3, markup=False)
            elif not event.is_printable and event.key not in _FOCUS_KEYS:
                # Home, PgUp, an arrow where nothing scrolls or moves: a word, not silence
                shown = self.app.get_key_display(Binding(event.key, ""))
                self.notify(f"{shown} does nothing here: F1 lists the keys of this table.",
                            title="Keys", timeout=3, markup=False)
            return
        if any(self.app._check_action_state(binding.action, node) for node, binding in bound):
            return
        node, binding = bound[0]
        action = binding.action.removeprefix("screen.")
        reason = self.why_not(action)
        if reason is None:
            what = binding.description or action.replace("_", " ")
            reason = f"{what} is not possible now."
        self.notify(reason, title=binding.description or "Not now", severity="warning", timeout=4,
                    markup=False)

    def action_command_bar(self) -> None:
        self.command_bar.open(self.legal_texts())

    def action_undo(self) -> None:
        """Take back the viewer's own latest command: never another player's (each seat's undo
        is its own, in every game)."""
        try:
            if self.store is None or self.game_id is None:
                self.match.undo(self.viewer)
            else:
                self.store.undo(self.game_id, self.match, self.viewer)
        except RulesError as error:
            self.notify(str(error), severity="warning", title="Undo", markup=False)
        except SaveError as error:  # taken back here all the same
            self._not_saved(error)
        except GameChanged as change:
            self._reopen(change)

    def action_rules(self) -> None:
        from .rules import RulesScreen, keys_of

        self.app.push_screen(RulesScreen(self.match.spec.name, keys=keys_of(self)))

    def action_leave_app(self) -> None:
        self.action_leave()  # a confined app ends where another would show the menu

    def action_leave(self) -> None:
        """Back to the menu; the game is saved (it already was, after every move). When its
        latest moves could not be saved, ask first (No is the default)."""
        self._autosave()
        if self.save_error is None:
            self._leave()
            return
        question = (f"The latest moves of this game are not saved ({self.save_error.rstrip('.')}). "
                    "Leave the table and lose them?")
        self.app.push_screen(ConfirmScreen(question, default=False),
                             lambda yes: self._leave() if yes else None)

    def _leave(self) -> None:
        show_menu = getattr(self.app, "show_menu", None)
        if callable(show_menu):
            show_menu()
        else:
            self.app.pop_screen()

    @work(exclusive=True, group="leave")
    async def action_escape(self) -> None:
        if self.command_bar.is_open:
            self.command_bar.close()
        elif self.save_error is not None:
            self.action_leave()  # its own question says what would be lost
        elif await self.confirm("Leave the table? The game is saved; resume it from the menu."):
            self.action_leave()

    def on_command_bar_entered(self, message: CommandBar.Entered) -> None:
        message.stop()
        if self.submit(message.text):
            message.bar.close()

    def on_command_bar_closed(self, message: CommandBar.Closed) -> None:
        message.stop()
        self.keys_widget.focus()

    @property
    def keys_widget(self) -> Widget:
        """The widget that has the game's keys: the hand, or what a game put in its place
        (``KEYS_WIDGET``, a selector: Abundance's auction block, Capital Auction's chips)."""
        return self.query_one(self.KEYS_WIDGET) if self.KEYS_WIDGET else self.hand

    def on_screen_resume(self) -> None:
        # a settings screen may have changed the deck colours while this table was covered, and
        # moves made meanwhile were not drawn (see _on_match_update)
        if self.is_mounted:
            if self._drawn_behind:
                self._drawn_behind = False
                self._rebuild_log()
            self.refresh_table()
