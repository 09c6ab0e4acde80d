"""The hint panel: the expert's three best commands for the seat to act, with the seat's chance of
winning by each, improving while it is open.

The table gives it the seat's view and legal commands (never a state); ``cardtable.hints.think``
runs in a worker thread and posts each round's answer to the panel, so the panel shows something
at once and the screen never waits on the search. Closing the panel cancels the worker (its
answers after that go nowhere). ``1`` ``2`` ``3`` or Enter on the highlighted line closes it with
that command; the table checks and plays it as it does a typed one.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from rules.core import Command, View
from rules.core.words import plural

from ..hints import ROUNDS, SHOWN, Answer, Round, think
from .dialog import Dialog
from .words import plain, styled


class HintChoices(OptionList):
    """The lines of a hint. Enter with no line to play yet (still thinking) goes on to the panel,
    which says so, instead of doing nothing."""

    def action_select(self) -> None:
        if self.highlighted is None or self.get_option_at_index(self.highlighted).disabled:
            raise SkipAction()
        super().action_select()


class HintPanel(Dialog):
    """The hint for ``name``'s seat (the seat of ``view``); dismisses with the command chosen, or
    None."""

    DEFAULT_CSS = """
    HintPanel {
        & OptionList { height: auto; max-height: 5; }
        & #hint-progress { color: $text-muted; }
    }
    """

    BINDINGS = [
        # not a priority binding: the focused list's own Enter plays the line it highlights,
        # after a Down typed before it (a priority Enter acted at once, ahead of that Down)
        Binding("enter", "choose", "Play it", key_display="⏎"),
        Binding("1", "play(0)", "Play line 1", key_display="1-3"),
        Binding("2", "play(1)", "Play line 2", show=False),
        Binding("3", "play(2)", "Play line 3", show=False),
        Binding("escape", "cancel", "Close"),
    ]

    class Thought(Message):
        """A round's answer, posted from the worker thread."""

        def __init__(self, answer: Answer) -> None:
            super().__init__()
            self.answer = answer

    def __init__(self, name: str, spec: Any, view: View, legal: Sequence[Command],
                 format: Callable[[Command], str], seed: int | str, rounds: Sequence[Round] = ROUNDS,
                 four_colour: bool = False) -> None:
        super().__init__()
        self.four_colour = four_colour
        self.name_text = name
        self.spec = spec
        self.view_seen = view
        self.legal = list(legal)
        self.format = format
        self.seed = seed
        self.rounds = tuple(rounds)
        self.answer: Answer | None = None

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = plain(f"Hint for {self.name_text}")
            yield Static("The expert's best moves from what you can see, with your chance of winning by each.",
                         classes="dialog--note", markup=False)
            yield HintChoices(Option(Text("Thinking…"), disabled=True), id="hint-choices", compact=True)
            yield Static(Text("Thinking…"), id="hint-progress")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Play it (Enter)", variant="primary", id="hint-play", compact=True)
                yield Button("Close (Esc)", id="hint-close", compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(OptionList).focus()
        self._think()

    def action_hint(self) -> None:
        """The hint is open already (a dialog's ``i`` would close it to open it again)."""

    @work(thread=True, exclusive=True, group="hint")
    def _think(self) -> None:
        worker = get_current_worker()
        for answer in think(self.spec, self.view_seen, self.legal, self.format, self.seed, self.rounds):
            if worker.is_cancelled:  # closed: what it thought goes nowhere
                return
            self.post_message(self.Thought(answer))

    @on(Thought)
    def _thought(self, message: Thought) -> None:
        answer = message.answer
        self.answer = answer
        choices = self.query_one("#hint-choices", OptionList)
        kept = choices.highlighted
        choices.clear_options()
        choices.add_options([Option(line(number, self.words(choice.command), choice.text, choice.chance,
                                         self.four_colour))
                             for number, choice in enumerate(answer.choices, 1)])
        choices.highlighted = min(kept or 0, len(answer.choices) - 1)
        if answer.choices and answer.choices[0].deals == 0:
            progress = "Nothing to weigh: the rules allow this one move."
        elif answer.done:
            progress = f"Done: {plural(answer.deals, 'deal')} of the cards you cannot see."
        else:
            progress = f"Thinking… {plural(answer.deals, 'deal')} so far (round {answer.round} of {answer.rounds})."
        self.query_one("#hint-progress", Static).update(Text(progress))

    def words(self, command: Command) -> str:
        """The command as the log words it (the notation's ``display``: cards by their symbols,
        players by name), else its notation."""
        display = getattr(self.spec.notation, "display", None)
        if display is not None:
            try:
                return display(command, self.view_seen.names)
            except Exception:  # noqa: BLE001 — a hint's line falls back on the notation, never fails
                pass
        return self.format(command)

    def action_choose(self) -> None:
        highlighted = self.query_one("#hint-choices", OptionList).highlighted
        self.action_play(highlighted if highlighted is not None else 0)

    def action_play(self, index: int) -> None:
        if self.answer is None or not 0 <= index < len(self.answer.choices):
            self.notify("No such line yet: the hint is still thinking." if self.answer is None
                        else f"The hint shows {len(self.answer.choices)} line(s): press 1"
                        + (f" to {len(self.answer.choices)}." if len(self.answer.choices) > 1 else "."),
                        title="Hint", severity="warning", timeout=3, markup=False)
            return
        self.dismiss(self.answer.choices[index].command)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_play(event.option_index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._ok_or_cancel(event, "hint-play", self.action_choose)


def line(number: int, words: str, text: str, chance: float, four_colour: bool = False) -> Text:
    """A line of the hint: its number, the command in words (a rules' Sentence: cards in their
    colours, names as typed), the chance of winning by it, and the notation to type it in when
    it reads otherwise. Built from parts, never markup."""
    out = Text(f"{number}  ")
    out.append_text(styled(words, "bold", four_colour))
    out.append(f"   {chance:.0f}% chance of winning" if chance >= 0 else "   your only legal move")
    if str(words) != text:
        out.append(f"   ({text})", style="dim")
    return out


__all__ = ["HintPanel", "SHOWN", "line"]
