"""The choice dialog: the moves the rules allow the viewer now, of one kind (a Tool and its
targets, a reaction, an effect's choice), each in words; Enter or a click plays the one
highlighted. The list comes from the viewer's legal commands, so it never offers a move the
rules would refuse."""

from __future__ import annotations

from typing import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from rules.core import Command

from ...widgets.dialog import Dialog
from ...widgets.words import plain, styled


class ChoiceDialog(Dialog):
    """``choices``: (words, command) pairs; dismisses with the command chosen, or None. The
    words and the note may be rules' Sentences: their players are styled, nothing is markup."""

    DEFAULT_CSS = """
    ChoiceDialog {
        & OptionList { height: auto; max-height: 14; }
    }
    """

    # not a priority binding: Enter reaches the focused list, which plays what it chooses,
    # after a Down typed before it (a priority Enter acted at once, ahead of that Down)
    BINDINGS = [Binding("enter", "choose", "Play it")]

    def __init__(self, title: str, note: str, choices: Sequence[tuple[str, Command]]) -> None:
        super().__init__()
        self.title_text = title
        self.note = note
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = plain(self.title_text)
            if self.note:
                yield Static(styled(self.note), classes="dialog--note")
            yield OptionList(*[Option(styled(words), id=str(index)) for index, (words, _) in enumerate(self.choices)],
                             id="choices", compact=True)
            yield Static(classes="dialog--error")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Play it (Enter)", variant="primary", id="choice-ok", compact=True)
                yield Button("Cancel (Esc)", id="choice-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_choose(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None and 0 <= index < len(self.choices):
            self.dismiss(self.choices[index][1])

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index][1])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._ok_or_cancel(event, "choice-ok", self.action_choose)
