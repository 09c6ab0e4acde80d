"""Replays: a game's own table, read-only, stepped through move by move.

``replay_screen(replay, settings)`` builds the replay of any registered game from that game's
TableScreen subclass (``cardtable/games/<game>/table.py``, or the generic table), mixed with
``ReadOnlyTable``: the same board, scoreboard, hand and log, showing ``replay.view(viewer)`` at
the position chosen and the log as that viewer read it — the public (spectator) view, or one
seat's, whose secrets show only then, and only once the game is over (the replay refuses a
player's view of a game that can still be played; the keys say so). Nothing is ever played,
saved or recorded from here.

Keys: ← → a move, [ ] a turn, Home End the deal and the end, g go to a turn or a move, v the
next view (0 the public view, 1–9 a player's), q or Escape back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.dom import DOMNode
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from .closing import OpensWhileRunning

from rules.core import Command, RulesError
from rules.core.replay import READ_ONLY, Replay

from .table import TableScreen

if TYPE_CHECKING:
    from ..settings import Settings


class ReadOnlyTable(TableScreen):
    """A game's table that only shows a Replay (mixed in before the game's table class).

    Nothing is submitted, saved or recorded; no bot moves and no curtain falls. The game's own
    keys give way to ``ACTIONS``, the screen's, except the game's ``VIEW_ACTIONS``: keys that
    only change what is shown (Portfolio's score sheet and portfolio cursor)."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"rules"})

    @classmethod
    def _css_bases(cls, base: type) -> list[type]:
        """Every DOM class the screen is made of, in method order: Textual follows only the first
        base of each class, and a replay's second base is the game's table, whose CSS type
        names (``AbundanceTable #trinkets``) must reach it as they reach the live table."""
        bases = []
        for klass in base.__mro__:
            if isinstance(klass, type) and issubclass(klass, DOMNode):
                bases.append(klass)
                if not klass.__dict__.get("_inherit_css", True):
                    break
        return bases
    AUTO_FOCUS = "#log"  # nothing to pick in the hand; the log scrolls with ↑ ↓

    def __init__(self, replay: Replay, settings: Settings) -> None:
        super().__init__(replay, None, None, settings)
        self.replay = replay
        self.viewer = None  # the public view until a player's is chosen
        self.view = replay.view(None)
        self.legal = []

    @property
    def viewer(self) -> int | None:  # type: ignore[override]
        """The seat whose view is shown (None: the public's)."""
        return self._viewer

    @viewer.setter
    def viewer(self, seat: int | None) -> None:
        # The table's own first choice of viewer (its only human) gives way to the public view
        # where the replay refuses a player's (a game not over): it is asked only here.
        self._viewer = seat if seat is None or self.match.private_views else None

    def on_mount(self) -> None:
        # (the game's table's on_mount runs too) nothing in the hand is there to be picked
        self.hand.disabled = True

    @property
    def my_turn(self) -> bool:
        return False

    def submit(self, command: Command | str) -> bool:
        self.notify(READ_ONLY, severity="warning", title="Replay")
        return False

    def refusal(self, command: Command | str) -> str | None:
        return READ_ONLY

    # nothing moves by itself, and nothing is written
    def _what_next(self) -> None:
        pass

    def _autosave(self) -> None:
        pass

    def _watch_store(self) -> None:
        pass

    def _record(self) -> None:
        pass

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.ACTIONS:
            return self.can(action, parameters)
        if action in getattr(self, "VIEW_ACTIONS", ()):
            return super().check_action(action, parameters)
        return False

    def can(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether one of this screen's own keys can act now (None greys it)."""
        return True

    def why_not(self, action: str) -> str | None:
        if action not in self.ACTIONS and action not in getattr(self, "VIEW_ACTIONS", ()):
            return READ_ONLY  # a game's key: nothing is played here
        return super().why_not(action)

    def _refresh_hand(self) -> None:
        if self.viewer is not None:
            super()._refresh_hand()
            return
        hand = self.hand
        hand.display = any("hand" in sizes for sizes in self.view.zone_sizes)
        hand.border_title = "Hands hidden"
        hand.show((), self.public_hand_note(), four_colour=self.settings.four_colour)

    def public_hand_note(self) -> str:
        return "The public view: every hand is hidden."

    def viewer_name(self) -> str:
        return "the public" if self.viewer is None else self.replay.names[self.viewer]


class ReplayScreen(ReadOnlyTable):
    """The replay of a game (see the module docstring); it opens at ``position`` (the deal by
    default) in the public view."""

    ACTIONS = ReadOnlyTable.ACTIONS | {"step", "turn", "start", "end", "go_to", "next_view", "view", "back"}
    BINDINGS = [
        Binding("left,h", "step(-1)", "Previous", key_display="←", priority=True),
        Binding("right,l", "step(1)", "Next", key_display="→", priority=True),
        Binding("left_square_bracket", "turn(-1)", "Turn back", key_display="["),
        Binding("right_square_bracket", "turn(1)", "Next turn", key_display="]"),
        Binding("home", "start", "The deal", show=False, priority=True),
        Binding("end", "end", "The end", show=False, priority=True),
        Binding("g", "go_to", "Go to"),
        Binding("v", "next_view", "View"),
        Binding("0", "view(0)", "The public view", show=False),
        *(Binding(str(n), f"view({n})", f"Player {n}'s view", show=False) for n in range(1, 10)),
        Binding("q,escape", "back", "Close"),
    ]

    def __init__(self, replay: Replay, settings: Settings, position: int = 0) -> None:
        super().__init__(replay, settings)
        replay.goto(position)
        self.view = replay.view(None)

    def public_hand_note(self) -> str:
        if not self.replay.private_views:
            return "The public view: every hand is hidden until the game is over."
        return "The public view: every hand is hidden. v (or 1, 2, …) shows a player's view."

    # -- showing ---------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        super().refresh_table()
        replay = self.replay
        self.sub_title = f"Replay · move {replay.position} of {replay.moves}"
        self.game_log.border_title = Text(f"Log as {self.viewer_name()} read it")

    def status_text(self) -> str:
        replay = self.replay
        who = "public view" if self.viewer is None else f"{replay.names[self.viewer]}'s view"
        return f"Move {replay.position}/{replay.moves} · turn {replay.turn} · {who} — {self.view.status}"

    def show_position(self, position: int) -> None:
        """Move the replay to ``position`` and show it (the log grows by one entry on a step
        forward and loses the entries after the position going back; otherwise it is written
        again up to the position)."""
        replay = self.replay
        before = replay.position
        position = replay.goto(position)
        log = self.game_log
        if position == before + 1:
            log.append(replay.history[-1], replay.names, self.viewer)
        elif position < before and log.drop(before - position):
            pass  # the entries after the position taken off the end
        elif position != before:
            self._rebuild_log()
        self.refresh_table()

    def show_viewer(self, seat: int | None) -> None:
        """Show ``seat``'s view, if the replay may show it; else say why not."""
        try:
            self.replay.check_view(seat)
        except RulesError as refusal:
            self.notify(str(refusal), title="Replay", severity="warning", markup=False)
            return
        if seat == self.viewer:
            return
        self.viewer = seat
        self._rebuild_log()
        self.refresh_table()
        name = "the public view (every hand hidden)" if seat is None else f"{self.replay.names[seat]}'s view"
        self.notify(f"Showing {name}.", title="Replay", timeout=2, markup=False)

    # -- keys ------------------------------------------------------------------------------------
    def can(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        replay = self.replay
        forward = bool(parameters) and isinstance(parameters[0], int) and parameters[0] > 0
        if action in ("step", "turn"):
            if not parameters:
                return True
            return True if (replay.position < replay.moves if forward else replay.position > 0) else None
        if action == "start":
            return True if replay.position > 0 else None
        if action == "end":
            return True if replay.position < replay.moves else None
        if action == "view" and parameters:
            seat = parameters[0]
            return True if isinstance(seat, int) and 0 <= seat <= len(replay.seats) else False
        return True

    def action_step(self, step: int) -> None:
        self.show_position(self.replay.position + step)

    def action_turn(self, step: int) -> None:
        self.show_position(self.replay.next_turn(self.replay.position, step))

    def action_start(self) -> None:
        self.show_position(0)

    def action_end(self) -> None:
        self.show_position(self.replay.moves)

    def action_next_view(self) -> None:
        seats = len(self.replay.seats)
        self.show_viewer(0 if self.viewer is None else None if self.viewer + 1 >= seats else self.viewer + 1)

    def action_view(self, number: int) -> None:
        """0: the public view; n: the n-th player's."""
        if 0 <= number <= len(self.replay.seats):
            self.show_viewer(None if number == 0 else number - 1)

    def action_go_to(self) -> None:
        def chosen(position: int | None) -> None:
            if position is not None:
                self.show_position(position)

        self.app.push_screen(GoToScreen(self.replay), chosen)

    def action_back(self) -> None:
        self.dismiss()

    def action_escape(self) -> None:  # (the table's Escape asks before leaving: nothing to lose here)
        self.dismiss()


def position_for(replay: Replay, text: str) -> int:
    """Where ``text`` asks to go: a turn ("12", "turn 12") or a move ("#57", "m57", "move 57").
    Raises ValueError with a sentence."""
    words = text.strip().lower().replace("#", "move ", 1).split()
    if len(words) == 1 and words[0][:1] in ("m", "t") and words[0][1:].isdigit():
        words = ["move" if words[0][0] == "m" else "turn", words[0][1:]]
    if len(words) == 1:
        words = ["turn", *words]
    kind, number = (words + [""])[:2] if len(words) == 2 else ("", "")
    first, last = replay.turns
    if kind not in ("move", "turn") or not number.isdigit():
        raise ValueError("Type a turn (12) or a move (#57).")
    value = int(number)
    if kind == "move":
        if value > replay.moves:
            raise ValueError(f"This game has {replay.moves} moves (0 is the deal).")
        return value
    if not first <= value <= last:
        raise ValueError(f"This game's turns go from {first} to {last}.")
    return replay.start_of_turn(value)


class GoToScreen(OpensWhileRunning, ModalScreen[int | None]):
    """Asks where to go in a replay: a turn, or a move by its number. Enter goes; Escape not."""

    DEFAULT_CSS = """
    GoToScreen {
        align: center middle;
        & #goto-box {
            width: 50;
            max-width: 100%;
            height: auto;
            padding: 1 2;
            border: thick $accent;
            background: $surface;
        }
        & #goto-title { text-style: bold; }
        & #goto-hint { color: $text-muted; }
        & #goto-error { color: $text-error; height: auto; }
    }
    """
    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        first, last = self.replay.turns
        with Vertical(id="goto-box"):
            yield Static("Go to a turn, or a move", id="goto-title")
            yield Static(f"Turns {first}–{last}: type 12. Moves 0–{self.replay.moves}: type #57.", id="goto-hint")
            yield Input(placeholder="12 or #57", id="goto-input")
            yield Static("", id="goto-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            position = position_for(self.replay, event.value)
        except ValueError as error:
            self.query_one("#goto-error", Static).update(Text(str(error)))
            return
        self.dismiss(position)

    def action_cancel(self) -> None:
        self.dismiss(None)


_CLASSES: dict[tuple[type, type], type] = {}


def read_only(mixin: type, game_name: str) -> type:
    """``mixin`` (ReplayScreen, ResultsScreen) on the table class of ``game_name``."""
    from ..games import table_screen_for

    table = table_screen_for(game_name)
    key = (mixin, table)
    if key not in _CLASSES:
        name = f"{table.__name__}{mixin.__name__.removesuffix('Screen')}" if table is not TableScreen else mixin.__name__
        # the game's own stylesheet too (the mixin alone carries only the shared table's)
        paths = list(dict.fromkeys([*mixin.CSS_PATH, *table.CSS_PATH]))
        _CLASSES[key] = mixin if table is TableScreen else type(
            name, (mixin, table), {"__module__": mixin.__module__, "CSS_PATH": paths})
    return _CLASSES[key]


def replay_screen(replay: Replay, settings: Settings, position: int = 0) -> ReplayScreen:
    """The replay of ``replay``'s game on that game's own table, opening at ``position``."""
    return read_only(ReplayScreen, replay.spec.name)(replay, settings, position)
