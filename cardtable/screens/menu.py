"""The main menu: new game, resume, join a game, stats, rules, settings, quit — by arrow keys, letter keys or mouse."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from ..widgets.header import Header
from textual.widgets.option_list import Option

from .closing import OpensWhileRunning


# option id (= the action it runs) → (key, label)
ENTRIES = {
    "new_game": ("n", "New game"),
    "resume": ("r", "Resume"),
    "join": ("j", "Join a game"),
    "stats": ("t", "Stats"),
    "rules": ("u", "Rules"),
    "settings": ("s", "Settings"),
    "quit": ("q", "Quit"),
}


def _prompt(action: str, note: str = "") -> str:
    key, label = ENTRIES[action]
    note = f"  [dim]{note}[/]" if note else ""
    return f"[b $accent]{key}[/]  {label}{note}"


def saves_note(count: int, damaged: int = 0) -> str:
    note = "no saved games" if count == 0 else "1 saved game" if count == 1 else f"{count} saved games"
    return note + (f", {damaged} damaged" if damaged else "")


class MenuScreen(OpensWhileRunning, Screen):
    """The first screen. Entering it (again) re-reads the saves list, so the Resume entry counts
    what is there now and any save the store could not bring in is reported."""

    # the menu's own lines name every key; at 80 columns the footer has room for all but one,
    # and Quit must stay there
    BINDINGS = [Binding(key, action, label, show=action != "join") for action, (key, label) in ENTRIES.items()]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="menu"):
            yield Static("♠ ♥  [b]cardtable[/b]  ♦ ♣", id="menu-title")
            yield Static("Economic card games: pass and play, or take on the bots.", id="menu-games")
            yield OptionList(*(Option(_prompt(action), id=action) for action in ENTRIES), id="menu-options")
        yield Footer()

    def on_screen_resume(self) -> None:
        # the saves are counted just after the menu is painted: reading them (and the games they
        # are of) must not hold up the first screen
        self.call_after_refresh(self.refresh_saves)
        self.query_one("#menu-options").focus()

    def refresh_saves(self) -> None:
        store = self.app.store
        saves = store.list()
        for problem in store.problems:
            self.notify(problem, title="Saved games", severity="warning", timeout=10, markup=False)
        report_store = getattr(self.app, "report_store", None)
        if callable(report_store):
            report_store()
        damaged = [info for info in saves if info.damaged]
        reported = getattr(self.app, "reported_saves", set())
        for info in damaged:  # once a session; the saves list shows them all the time
            if (info.id, info.reason) not in reported:
                reported.add((info.id, info.reason))
                self.notify(f"{info.file or info.id}: {info.reason}", title="A save cannot be opened",
                            severity="warning", timeout=10, markup=False)
        options = self.query_one("#menu-options", OptionList)
        options.replace_option_prompt("resume", _prompt("resume", saves_note(len(saves) - len(damaged), len(damaged))))

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self.run_action(event.option.id)

    def action_new_game(self) -> None:
        from .setup import SetupScreen

        self.app.push_screen(SetupScreen())

    def action_resume(self) -> None:
        from .resume import ResumeScreen

        self.app.push_screen(ResumeScreen())

    def action_join(self) -> None:
        from .join import JoinScreen

        self.app.push_screen(JoinScreen())

    def action_stats(self) -> None:
        self.app.action_stats()

    def action_rules(self) -> None:
        self.app.action_rules()

    def action_settings(self) -> None:
        self.app.action_settings()

    def action_quit(self) -> None:
        self.app.exit()
