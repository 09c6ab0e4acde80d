"""The command bar: type any command in notation, with completion from the legal commands
(the ghost text shows the first one that fits; → or Tab takes it, and Tab alone completes as far
as every fitting command agrees). This is the one place cards are written with letters (``3D``):
it is where they are typed; everywhere else the screen writes them with symbols."""

from __future__ import annotations

import os
from typing import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input, Label, Static

EXAMPLES = 3
LONGEST = 160
"""The most characters the bar takes. The longest command of any game is about 40; a longer
line is a slip (a paste gone wrong), and a refusal quotes what was typed, so it would fill the
screen with it."""


def hint_text(legal: Sequence[str]) -> str:
    """How many commands are legal now, a few of them, and the keys."""
    if not legal:
        return "No command is open to you now · Esc closes"
    count = "1 legal command" if len(legal) == 1 else f"{len(legal)} legal commands"
    examples = ", ".join(legal[:EXAMPLES]) + (", …" if len(legal) > EXAMPLES else "")
    return f"{count}: {examples} · Tab completes · Enter plays · Esc closes"


def completion(value: str, legal: Sequence[str]) -> tuple[str, list[str]]:
    """What Tab makes of ``value``: the longest text every legal command starting with it
    shares, and those commands (case is forgiven)."""
    typed = value.lower()
    matches = [text for text in legal if text.lower().startswith(typed)]
    if not matches:
        return value, []
    shared = os.path.commonprefix([text.lower() for text in matches])
    return (matches[0][: len(shared)] if len(shared) > len(value) else value), matches


class CommandInput(Input):
    """The bar's input: Tab completes from the legal commands instead of leaving the bar."""

    # not a priority binding: the bar's own Tab comes before the app's (focus the next widget)
    # anyway, and a priority Tab completed at once, ahead of letters typed before it but still
    # on their way to the bar ("dr" and Tab in one read made "draw 1dr")
    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    legal: Sequence[str] = ()

    def restricted(self) -> None:
        """Textual rings the bell when a key or a paste would pass ``max_length``: say why."""
        self.notify(f"A command is at most {LONGEST} characters: that was not typed, and the bar "
                    "keeps what it had.", severity="warning", title="Too long", markup=False)

    def action_complete(self) -> None:
        if self._suggestion and len(self._suggestion) > len(self.value):
            self.value = self._suggestion
        else:
            self.value, matches = completion(self.value, self.legal)
            if len(matches) > 1:
                self.post_message(CommandBar.Choices(matches))
        self.cursor_position = len(self.value)


class CommandBar(Widget):
    """Hidden until ``open(legal)``. Enter posts ``CommandBar.Entered`` with the text; the
    table submits it and calls ``close()`` if it was accepted, so a rejected command stays
    on the bar to be fixed. Escape closes the bar."""

    DEFAULT_CSS = """
    CommandBar {
        display: none;
        height: auto;
        background: $boost;
        &.-open { display: block; }
        & > Horizontal { height: 1; }
        & #command-prompt { width: 2; color: $accent; text-style: bold; }
        & Input, & Input:focus {
            border: none;
            height: 1;
            padding: 0;
            width: 1fr;
            background: $boost;
        }
        & #command-hint { color: $text-muted; height: auto; }
    }
    """

    BINDINGS = [Binding("escape", "close", "Close", show=False)]

    class Entered(Message):
        """The player pressed Enter on ``text``."""

        def __init__(self, bar: CommandBar, text: str) -> None:
            super().__init__()
            self.bar = bar
            self.text = text

        @property
        def control(self) -> CommandBar:
            return self.bar

    class Closed(Message):
        """The bar was closed (Escape or after an accepted command)."""

    class Choices(Message):
        """Tab found several commands that start with what is typed."""

        def __init__(self, matches: Sequence[str]) -> None:
            super().__init__()
            self.matches = list(matches)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Label(":", id="command-prompt")
            yield CommandInput(id="command-input", select_on_focus=False, max_length=LONGEST)  # letters typed as it opens are kept
        yield Static(id="command-hint")

    @property
    def input(self) -> CommandInput:
        return self.query_one("#command-input", CommandInput)

    def on_command_bar_choices(self, message: CommandBar.Choices) -> None:
        message.stop()
        shown = ", ".join(message.matches[:EXAMPLES]) + (", …" if len(message.matches) > EXAMPLES else "")
        self.query_one("#command-hint", Static).update(
            f"{len(message.matches)} commands start so: {shown} · type more, Tab again")

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def open(self, legal: Sequence[str]) -> None:
        """Show the bar with completion from ``legal`` (the commands in notation) and focus it."""
        self.input.suggester = SuggestFromList(legal, case_sensitive=False)
        self.input.legal = list(legal)
        self.input.placeholder = f"e.g. {legal[0]}" if legal else ""
        self.query_one("#command-hint", Static).update(hint_text(legal))
        self.add_class("-open")
        self.input.focus()

    def close(self) -> None:
        if self.is_open:
            self.input.value = ""
            self.remove_class("-open")
            self.post_message(self.Closed())

    def action_close(self) -> None:
        self.close()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text:
            self.post_message(self.Entered(self, text))
