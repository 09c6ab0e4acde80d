"""The settings: theme, bot speed, four-colour deck. Every change is saved at once."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Label, Select, Static

from .closing import OpensWhileRunning
from ..widgets.header import Header

from ..settings import BOT_SPEEDS, FOUR_COLOUR_HELP

from ..widgets.toggles import Tick

CUSTOM = "custom"


class SettingsScreen(OpensWhileRunning, Screen):
    """Edit ``app.settings``; the app saves each change and tells the tables."""

    BINDINGS = [Binding("escape", "back", "Back")]

    def compose(self) -> ComposeResult:
        settings = self.app.settings
        speeds = [(f"{name} ({delay:g} s between bot moves)", name) for name, delay in BOT_SPEEDS.items()]
        if settings.bot_speed is None:  # a hand-edited delay stays until another is chosen
            speeds.append((f"custom ({settings.bot_delay:g} s)", CUSTOM))
        yield Header()
        with Vertical(id="settings"):
            yield Static("Settings", classes="screen-title")
            with Horizontal(classes="field"):
                yield Label("Theme", classes="field-label")
                yield Select([(name, name) for name in sorted(self.app.available_themes)], value=self.app.theme,
                             allow_blank=False, compact=True, id="settings-theme")
            with Horizontal(classes="field"):
                yield Label("Bot speed", classes="field-label")
                yield Select(speeds, value=settings.bot_speed or CUSTOM, allow_blank=False, compact=True,
                             id="settings-speed")
            with Horizontal(classes="field"):
                yield Label("Cards", classes="field-label")
                yield Tick("Four-colour deck", settings.four_colour, compact=True, id="settings-four-colour")
            yield Static(FOUR_COLOUR_HELP, classes="option-help")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Settings"
        self.query_one("#settings-theme").focus()

    @on(Select.Changed, "#settings-theme")
    def _theme(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.app.theme:
            self.app.theme = event.value  # the app's theme watcher saves it

    @on(Select.Changed, "#settings-speed")
    def _speed(self, event: Select.Changed) -> None:
        if event.value in BOT_SPEEDS and event.value != self.app.settings.bot_speed:
            self.app.set_bot_speed(event.value)

    @on(Checkbox.Changed, "#settings-four-colour")
    def _four_colour(self, event: Checkbox.Changed) -> None:
        if event.value != self.app.settings.four_colour:
            self.app.set_four_colour(event.value)

    def action_back(self) -> None:
        self.dismiss()
