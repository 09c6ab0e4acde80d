"""The shape every game's dialog shares: a box in the middle of the screen, Escape to close, a
line for the rules' objection, buttons at the bottom right. A dialog returns a Command (or
None): it never builds notation text, and it asks the rules before it closes."""

from __future__ import annotations

from typing import Callable

from textual import events
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from ..screens.closing import OpensWhileRunning

from .keys import bindings_for
from .words import styled
from rules.core import Command


class Dialog(OpensWhileRunning, ModalScreen):
    """A game's dialog. Compose a ``Vertical`` box holding a ``Static`` with class
    ``dialog--error`` and a ``Horizontal`` of buttons with class ``dialog--buttons``."""

    DEFAULT_CSS = """
    Dialog {
        align: center middle;
        & > Vertical {
            width: 76;
            max-width: 100%;
            height: auto;
            max-height: 100%;
            padding: 0 1;
            border: thick $accent;
            border-title-style: bold;
            background: $surface;
        }
        & .dialog--note { color: $text-muted; }
        & .dialog--error { color: $error; text-style: bold; height: auto; display: none; }
        & .dialog--error.-shown { display: block; }
        & .dialog--buttons { height: auto; margin-top: 1; align-horizontal: right; }
        & .dialog--buttons Button { margin-left: 2; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Close"), Binding("i", "hint", "Hint", show=False)]

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False  # the keys named on them do the same; Enter is the dialog's

    def on_key(self, event: events.Key) -> None:
        """A letter the dialog has no use for says so, as the table does, instead of nothing:
        a field or list that uses the key stops it before it gets here, and a bound key is let
        through to its binding."""
        if not (event.is_printable and event.character and not event.character.isspace()):
            return
        if bindings_for(self, event.key):
            return
        if event.key in getattr(self._screen_below(), "active_bindings", {}):
            # the table's footer, under the dialog, still shows the key
            message = f"{event.character} is a key of the table under this dialog: Esc closes the dialog first."
        else:
            message = f"{event.character} is not a key of this dialog: its buttons name its keys, and Esc closes it."
        self.notify(message, title="Keys", timeout=3, markup=False)

    def _screen_below(self) -> Screen | None:
        stack = self.app.screen_stack
        return stack[-2] if len(stack) > 1 and stack[-1] is self else None

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_hint(self) -> None:
        """``i``, which the table's footer still shows under the dialog: the table's hint opens
        over the dialog, which closes only if a move of the hint's is played (it may well be the
        dialog's own choice); closing the hint comes back to the dialog as it was left, anything
        typed in it kept. Where the table has no hint to give, it says why."""
        table = self._screen_below()
        why = getattr(table, "why_not", None)
        if table is None or why is None:
            return
        if table.check_action("hint", ()) is not True:
            self.notify(why("hint") or "No hint now.", title="Hint", timeout=4, markup=False)
            return
        table.action_hint(over=self)

    four_colour = False
    """The deck's colours for the cards a message names (a game's dialog sets it)."""

    def _error(self, message: str | None) -> None:
        error = self.query_one(".dialog--error", Static)
        # styled: the rules' Sentence with its cards in colour; never markup, so a name in the
        # message shows as typed
        error.update(styled(message or "", four_colour=self.four_colour))
        error.set_class(bool(message), "-shown")

    def _submit(self, command: Command | None, problem: str | None) -> None:
        """Close with ``command``, or keep the dialog open showing the rules' objection."""
        if problem:
            self._error(problem)
        else:
            self.dismiss(command)

    def _ok_or_cancel(self, event: Button.Pressed, ok_id: str, ok: Callable[[], None]) -> None:
        event.stop()
        if event.button.id == ok_id:
            ok()
        else:
            self.action_cancel()
