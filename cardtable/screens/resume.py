"""The saved games: resume one, replay one (r), delete one to the trash (after a question whose
default is No), show the trash and restore a game from it, export one to a JSON file (x) or
import one (i), show its join codes and renew one (c).

The list shows every game, and the saves of earlier versions that could not be brought into the
store, with the reason in words (their files are left where they are). A game may be open in
another cardtable at the same time: both play it, each seeing the other's moves. A finished game
opens its results rather than a table.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from ..widgets.header import Header
from textual.widgets.option_list import Option

from .closing import OpensWhileRunning

from rules.core import SaveFormatError

from ..paths import UnusablePath, user_path
from ..store import SaveInfo


def state_text(info: SaveInfo) -> str:
    """Where the game stands: "turn 12 · Bob to play", "finished — Ann won", "damaged — …"."""
    if info.damaged or info.finished:
        return info.status
    return f"turn {info.turn} · {info.status}"


def when_text(info: SaveInfo) -> str:
    """The last-played time in the local time zone."""
    return info.updated.astimezone().strftime("%Y-%m-%d %H:%M")


def save_prompt(info: SaveInfo) -> Content:
    """Two lines: the game, how far it got and when; then the players (bots marked). A damaged
    save says why on its second line."""
    if info.damaged:
        return Content.from_markup(
            "[b]$title[/b]  [$error]$state[/]  [dim]· $when[/]\n  [dim]$file[/]",
            title=info.title, state="damaged" if info.set_aside else "cannot open here",
            when=when_text(info), file=f"{info.file or info.id}: {info.reason}",
        )
    return Content.from_markup(
        "[b]$title[/b]  $state  [dim]· last played $when[/]\n  $players",
        title=info.title, state=state_text(info), when=when_text(info), players=info.players,
    )


class SavesList(OptionList):
    """The saves, newest first, one option per save (its id is the game id)."""

    # in the trash the same key restores (the screen's u names it in the footer)
    BINDINGS = [Binding("enter", "select", "Resume"), Binding("enter", "restore_selected", "Restore", show=False)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        trash = getattr(self.screen, "showing_trash", False)
        if action == "select":
            return not trash
        if action == "restore_selected":
            return trash
        return True

    def action_restore_selected(self) -> None:
        self.action_select()


class ImportScreen(OpensWhileRunning, ModalScreen[Path | None]):
    """Asks for the path of a game file to import; dismisses with it (None: Escape)."""

    DEFAULT_CSS = """
    ImportScreen {
        align: center middle;
        & #import-box {
            width: 70;
            height: auto;
            padding: 1 2;
            border: thick $accent;
            background: $surface;
        }
        & #import-error { color: $error; height: auto; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="import-box"):
            yield Static("Import a game from a JSON file (an exported game, or a save of an earlier "
                         "cardtable). Its path:", id="import-message")
            yield Input(placeholder="~/Downloads/game.json", id="import-path")
            yield Static("", id="import-error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip().strip("'\"")
        if not text:
            self.query_one("#import-error", Static).update("Type the path of a file, or press Escape.")
            return
        try:
            self.dismiss(user_path(text, "the path"))
        except UnusablePath as error:
            self.query_one("#import-error", Static).update(str(error))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResumeScreen(OpensWhileRunning, Screen):
    """The saves list, or (``t``) the trash. Entering the screen re-reads the store."""

    BINDINGS = [
        Binding("r", "replay", "Replay"),
        Binding("a", "analysis", "Analysis"),
        Binding("d,delete", "delete", "Delete"),
        Binding("u", "restore", "Restore"),
        Binding("t", "trash", "Trash"),
        Binding("t", "saves", "Saved games"),  # the same key, named for where it goes back to
        Binding("x", "export", "Export"),
        Binding("i", "import_game", "Import"),
        Binding("c", "codes", "Codes"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.infos: dict[str, SaveInfo] = {}
        self.showing_trash = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Saved games", classes="screen-title", id="saves-title")
        yield SavesList(id="saves")
        yield Static("No saved games yet. Start one with [b]New game[/b] in the menu.", id="saves-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Saved games"

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self, select: str | None = None) -> None:
        """Read the saves (or the trash) again, keeping the cursor near where it was (on
        ``select`` when it is given)."""
        store = self.app.store
        if self.showing_trash:
            infos = store.trash()
        else:
            infos = store.list()
            for problem in store.problems:
                self.notify(problem, title="Saved games", severity="warning", timeout=10, markup=False)
        report_store = getattr(self.app, "report_store", None)
        if callable(report_store):
            report_store()
        self.infos = {info.id: info for info in infos}
        saves = self.query_one(SavesList)
        cursor = saves.highlighted or 0
        saves.set_options(Option(save_prompt(info), id=info.id) for info in infos)
        saves.display = bool(infos)
        title = "Trash — deleted games (u or Enter restores, t goes back)" if self.showing_trash else "Saved games"
        self.query_one("#saves-title", Static).update(title)
        self.sub_title = "Trash" if self.showing_trash else "Saved games"
        empty = self.query_one("#saves-empty", Static)
        empty.update("The trash is empty." if self.showing_trash
                     else "No saved games yet. Start one with [b]New game[/b] in the menu.")
        empty.display = not infos
        if infos:
            ids = [info.id for info in infos]
            saves.highlighted = ids.index(select) if select in ids else min(cursor, len(infos) - 1)
            saves.focus()
        self.refresh_bindings()

    def selected(self) -> SaveInfo | None:
        option = self.query_one(SavesList).highlighted_option
        return None if option is None else self.infos.get(option.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            return not self.showing_trash
        if action == "restore":
            return self.showing_trash
        if action == "analysis":  # greyed unless the game under the cursor is finished
            info = self.selected() if self.is_mounted else None
            return False if self.showing_trash else (True if info is not None and info.finished else None)
        if action in ("replay", "export"):
            info = self.selected() if self.is_mounted else None
            return False if self.showing_trash else (True if info is not None and not info.damaged else None)
        if action in ("import_game", "trash"):
            return not self.showing_trash
        if action == "saves":
            return self.showing_trash
        if action == "codes":
            info = self.selected() if self.is_mounted else None
            return False if self.showing_trash else (True if info is not None and not info.damaged else None)
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        info = self.infos.get(event.option.id)
        if info is None:
            return
        if self.showing_trash:
            self.restore(info)
        else:
            self.resume(info)

    def resume(self, info: SaveInfo, analysis: bool = False) -> None:
        store = self.app.store
        try:
            opened = store.open(info.id)
        except SaveFormatError as error:
            self.notify(str(error), title=f"Cannot open this {info.title} game", severity="error",
                        timeout=15, markup=False)
            self.reload()
            return
        except (LookupError, OSError) as error:
            self.notify(error.args[0] if isinstance(error, LookupError) else str(error),
                        title="Cannot open this game", severity="error", timeout=15, markup=False)
            self.reload()
            return
        match = opened.match
        if match.over:
            from .results import results_screen

            self.app.push_screen(results_screen(match, self.app.settings, info.id, analysis))
        else:
            self.app.open_table(match, info.id)
        if opened.notice:
            self.notify(opened.notice, title="Resumed at its last good move",
                        severity="warning", timeout=20, markup=False)

    def action_analysis(self) -> None:
        """The analysis of the finished game under the cursor (its results screen's Analysis tab)."""
        info = self.selected()
        if info is None or self.showing_trash or info.damaged or not info.finished:
            self.notify("Only a finished game can be analysed: choose one marked finished.", markup=False)
            return
        self.resume(info, analysis=True)

    def action_replay(self) -> None:
        """Step through the game under the cursor (read only: it stays as it is)."""
        info = self.selected()
        if info is None or self.showing_trash:
            return
        try:
            replayed = self.app.store.replay(info.id)
        except (SaveFormatError, LookupError, OSError) as error:
            self.notify(str(error) if not isinstance(error, LookupError) else error.args[0],
                        title=f"Cannot replay this {info.title} game", severity="error", timeout=15, markup=False)
            self.reload()
            return
        self.app.open_replay(replayed.replay, replayed.notice)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.refresh_bindings()  # Replay and Export are greyed on a damaged save

    def action_export(self) -> None:
        """Write the game under the cursor to a JSON file in the data folder's exports/."""
        info = self.selected()
        if info is None or self.showing_trash or info.damaged:
            return
        try:
            path = self.app.store.export_to(info.id)
        except (LookupError, OSError) as error:
            self.notify(error.args[0] if isinstance(error, LookupError) else str(error),
                        title="Cannot export", severity="error", timeout=15, markup=False)
            return
        self.notify(f"Exported the {info.title} game to {path}.", title="Exported", timeout=15, markup=False)

    def action_codes(self) -> None:
        """The join codes of the game under the cursor (n in them renews one)."""
        from .join import CodesScreen

        info = self.selected()
        if info is not None and not self.showing_trash and not info.damaged:
            self.app.push_screen(CodesScreen(info))

    def action_import_game(self) -> None:
        if not self.showing_trash:
            self.app.push_screen(ImportScreen(), self.import_from)

    def import_from(self, path: Path | None) -> None:
        """Add the game in the file at ``path`` to the store and put the cursor on it."""
        if path is None:
            return
        try:
            game_id, notice = self.app.store.import_file(path)
        except (SaveFormatError, OSError) as error:
            self.notify(str(error), title="Cannot import", severity="error", timeout=15, markup=False)
            return
        self.notify(f"Imported {path.name} as {game_id}.", title="Imported", timeout=10, markup=False)
        if notice:
            self.notify(notice, title="Imported at its last good move", severity="warning", timeout=20,
                        markup=False)
        self.reload(select=game_id)

    def action_delete(self) -> None:
        from .confirm import ConfirmScreen

        info = self.selected()
        if info is None or self.showing_trash:
            return
        names = ", ".join(seat.name for seat in info.seats)
        what = f"the {info.title} game of {names}" if names else (info.file or info.id)

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.app.store.delete(info.id)
            except (LookupError, OSError) as error:
                self.notify(str(error), title="Cannot delete", severity="error", markup=False)
            else:
                self.notify(f"Moved {what} to the trash (t shows it; u restores).", markup=False)
            self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete {what}? It goes to the trash.", default=False), answered)

    def action_trash(self) -> None:
        self.showing_trash = not self.showing_trash
        self.query_one(SavesList).highlighted = 0
        self.reload()

    def action_saves(self) -> None:
        self.action_trash()

    def action_restore(self) -> None:
        info = self.selected()
        if info is not None and self.showing_trash:
            self.restore(info)

    def restore(self, info: SaveInfo) -> None:
        try:
            game_id = self.app.store.restore(info.id)
        except (LookupError, OSError) as error:
            self.notify(str(error), title="Cannot restore", severity="error", markup=False)
        else:
            names = ", ".join(seat.name for seat in info.seats) or info.id
            self.notify(f"Restored the {info.title} game of {names} as {game_id}.", markup=False)
        self.reload()

    def action_back(self) -> None:
        if self.showing_trash:
            self.action_trash()
        else:
            self.dismiss()
