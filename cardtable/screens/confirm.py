"""A yes/no question over the current screen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..textual_fixes import on_top
from .closing import OpensWhileRunning


class ConfirmScreen(OpensWhileRunning, ModalScreen[bool]):
    """Dismisses with True for yes (y, the Yes button) and False for no (Escape, n, the No
    button); Enter answers with the focused button, which is ``default`` (Yes unless told)."""

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
        /* the box's 70 less its border (2) and padding (4): a longer line would be cut */
        & #confirm-message { width: auto; max-width: 64; margin-bottom: 1; }
        & Horizontal { height: auto; width: auto; }
        & Button { margin: 0 1; }
    }
    """

    BINDINGS = [
        # Enter is the focused button's (the default unless the player moved to the other)
        Binding("enter", "answer_default", "Default", show=False),
        Binding("y", "answer(True)", "Yes"),
        Binding("escape,n", "answer(False)", "No"),
    ]

    def __init__(self, message: str | Text, default: bool = True) -> None:
        super().__init__()
        self.message = message
        self.default = default
        self._answered = False

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.message, id="confirm-message", markup=False)
            with Horizontal():
                yield Button("Yes (y)", variant="primary" if self.default else "default", id="confirm-yes")
                yield Button("No (n)", variant="default" if self.default else "primary", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-yes" if self.default else "#confirm-no").focus()

    def action_answer_default(self) -> None:
        self._answer(self.default)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._answer(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self._answer(yes)

    def _answer(self, yes: bool) -> None:
        # the question is answered once: keys typed fast reach it until it has left the stack,
        # and a second answer ended the app (the first had resolved its future already); and
        # only from the top of the stack: an answer on its way as a screen opened over it is
        # not one (Screen.dismiss would not take it off), and the question waits for the next
        if not self._answered and on_top(self):
            self._answered = True
            self.dismiss(yes)
