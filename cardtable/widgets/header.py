"""Textual's Header, whose title can be set while its screen is being taken down."""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widgets import Header as TextualHeader
from textual.widgets._header import HeaderTitle


class Header(TextualHeader):
    """Textual's Header; its title watcher also stands a screen whose parts are already gone
    (Textual's allows only for no screen): a table the results replace at once raised NoMatches
    from a title set in that moment, and the app ended."""

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # Textual's own handler registers the unguarded watcher

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoScreen, NoMatches):
                pass

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
