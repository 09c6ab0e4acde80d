"""The saved games: resume one, or delete one after a confirmation.

A save that cannot be read is reported in words and set aside by the store; the list simply
shows what is left. A finished game opens its results rather than a table.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.core import SaveFormatError

from ..saves import SaveInfo


def state_text(info: SaveInfo) -> str:
    if not info.finished:
        return f"in play, turn {info.turn}"
    return f"finished — {info.result}" if info.result else "finished"


def when_text(info: SaveInfo) -> str:
    """The last-played time in the local time zone."""
    return info.updated.astimezone().strftime("%Y-%m-%d %H:%M")


def save_prompt(info: SaveInfo) -> Content:
    """Two lines: the game, how far it got and when; then the players (bots marked)."""
    return Content.from_markup(
        "[b]$title[/b]  $state  [dim]· last played $when[/]\n  $players",
        title=info.title, state=state_text(info), when=when_text(info), players=info.players,
    )


class SavesList(OptionList):
    """The saves, newest first, one option per save (its id is the game id)."""

    BINDINGS = [Binding("enter", "select", "Resume")]


class ResumeScreen(Screen):
    """The saves list. Entering the screen re-reads the saves folder."""

    BINDINGS = [
        Binding("d,delete", "delete", "Delete"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.infos: dict[str, SaveInfo] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Saved games", classes="screen-title")
        yield SavesList(id="saves")
        yield Static("No saved games yet. Start one with [b]New game[/b] in the menu.", id="saves-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Saved games"

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Read the saves again, keeping the cursor near where it was."""
        store = self.app.store
        infos = store.list()
        for problem in store.problems:
            self.notify(problem, title="Saved games", severity="warning", timeout=10, markup=False)
        self.infos = {info.id: info for info in infos}
        saves = self.query_one(SavesList)
        cursor = saves.highlighted or 0
        saves.set_options(Option(save_prompt(info), id=info.id) for info in infos)
        saves.display = bool(infos)
        self.query_one("#saves-empty").display = not infos
        if infos:
            saves.highlighted = min(cursor, len(infos) - 1)
            saves.focus()

    def selected(self) -> SaveInfo | None:
        option = self.query_one(SavesList).highlighted_option
        return None if option is None else self.infos.get(option.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        info = self.infos.get(event.option.id)
        if info is not None:
            self.resume(info)

    def resume(self, info: SaveInfo) -> None:
        try:
            match = self.app.store.load(info.id)
        except SaveFormatError as error:
            self.notify(str(error), title=f"Cannot open this {info.title} game", severity="error",
                        timeout=10, markup=False)
            self.reload()
            return
        except (LookupError, OSError) as error:
            self.notify(str(error), title="Cannot open this game", severity="error", markup=False)
            self.reload()
            return
        if match.over:
            from .results import ResultsScreen

            self.app.push_screen(ResultsScreen(match))
        else:
            self.app.open_table(match, info.id)

    def action_delete(self) -> None:
        from .confirm import ConfirmScreen

        info = self.selected()
        if info is None:
            return
        names = ", ".join(seat.name for seat in info.seats)

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.app.store.delete(info.id)
            except (LookupError, OSError) as error:
                self.notify(str(error), title="Cannot delete", severity="error", markup=False)
            else:
                self.notify(f"Deleted the {info.title} game of {names}.", markup=False)
            self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete the {info.title} game of {names}?"), answered)

    def action_back(self) -> None:
        self.dismiss()
