"""A yes/no question over the current screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True for yes (Enter, y, the Yes button) and False for no (Escape, n)."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        & #confirm-box {
            width: auto;
            min-width: 30;
            max-width: 70;
            height: auto;
            padding: 1 2;
            border: thick $accent;
            background: $surface;
        }
        & #confirm-message { width: auto; max-width: 66; margin-bottom: 1; }
        & Horizontal { height: auto; width: auto; }
        & Button { margin: 0 1; }
    }
    """

    BINDINGS = [
        # Enter is the focused button's (Yes unless the player moved to No)
        Binding("enter", "answer(True)", "Yes", show=False),
        Binding("y", "answer(True)", "Yes"),
        Binding("escape,n", "answer(False)", "No"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.message, id="confirm-message")
            with Horizontal():
                yield Button("Yes (y)", variant="primary", id="confirm-yes")
                yield Button("No (n)", id="confirm-no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
