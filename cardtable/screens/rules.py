"""The rules pages: one game's page as Markdown, or first a list of the games."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, MarkdownViewer, OptionList, Static
from textual.widgets.option_list import Option

import rules

from ..rulesdoc import rules_page


class RulesScreen(Screen):
    """The rules of ``game_name``; with None, a list of the games to choose from."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("t", "contents", "Contents"),
    ]

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        yield Header()
        if self.game_name is None:
            yield Static("Rules of which game?", classes="screen-title")
            yield OptionList(
                *(Option(Content.from_markup("[b]$title[/]  [dim]$blurb[/]", title=spec.title, blurb=spec.blurb), id=name)
                  for name, spec in rules.GAMES.items()),
                id="rules-games",
            )
        else:
            yield MarkdownViewer(rules_page(self.game_name), show_table_of_contents=False, id="rules-page")
        yield Footer()

    def on_mount(self) -> None:
        spec = rules.GAMES.get(self.game_name or "")
        self.sub_title = f"Rules of {spec.title}" if spec is not None else "Rules"
        if self.game_name is None:
            games = self.query_one("#rules-games", OptionList)
            games.highlighted = 0
            games.focus()
        else:
            self.query_one(MarkdownViewer).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.app.push_screen(RulesScreen(event.option.id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "contents":
            return self.game_name is not None
        return True

    def action_contents(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_back(self) -> None:
        self.dismiss()
