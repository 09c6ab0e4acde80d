"""The hand-off curtain of pass-and-play: an opaque screen that hides the table until the next
player says they alone are looking."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from .closing import OpensWhileRunning


def handoff_text(player: str) -> str:
    return f"Pass to {player} — press Enter when only {player} is looking"


def keys_note(player: str) -> str:
    return (f"q and Esc do nothing here: the table behind this screen is {player}'s, and leaving "
            f"would show it. {player} can leave the table after pressing Enter.")


class HandoffScreen(OpensWhileRunning, ModalScreen[None]):
    """Covers the whole terminal (an opaque background, so nothing of the table shows through)
    and shows only who is next, the game and the turn. Enter (or the button) dismisses it."""

    DEFAULT_CSS = """
    HandoffScreen {
        background: $background;
        align: center middle;
        & #handoff-box {
            width: 68;
            max-width: 100%;
            height: auto;
            padding: 1 3;
            border: double $accent;
            background: $surface;
        }
        & .handoff--game { color: $text-muted; width: 100%; text-align: center; }
        & .handoff--pass { text-style: bold; width: 100%; text-align: center; margin: 1 0; }
        & .handoff--keys { color: $text-muted; width: 100%; text-align: center; }
        & Button { margin-top: 1; }
    }
    """

    BINDINGS = [
        Binding("enter", "ready", "I am looking"),
        Binding("q,escape", "why", "Why not leave?", show=False),
    ]

    def __init__(self, player: str, game: str = "", detail: str = "") -> None:
        super().__init__()
        self.player = player
        self.game = game
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            heading = " · ".join(part for part in (self.game, self.detail) if part)
            if heading:
                yield Static(heading, classes="handoff--game", markup=False)
            yield Static(handoff_text(self.player), classes="handoff--pass", id="handoff-message", markup=False)
            yield Static(keys_note(self.player), classes="handoff--keys", id="handoff-keys", markup=False)
            with Center():
                yield Button(Text(f"I am {self.player}"), variant="primary", id="handoff-ready")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_why(self) -> None:
        self.notify(keys_note(self.player), title="Hand-off", markup=False)

    def on_key(self, event: events.Key) -> None:
        """Any other key says what this screen waits for (F1, ctrl+z, a game's key: none acts
        behind the curtain, and none is ignored in silence)."""
        if event.key in ("enter", "q", "escape", "ctrl+q", "ctrl+p", "tab", "shift+tab"):
            return
        event.stop()
        self.notify(f"Press Enter when only {self.player} is looking: the table's keys work after that.",
                    title="Hand-off", timeout=4, markup=False)
