"""A new game: the game, the seats (names, human or bot), the game's options and a seed.

The screen only gathers choices; the rules judge them (``Match`` raises ``RulesError`` for a bad
player count, name or option) and the screen shows their sentence, keeping what was typed.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Select, Static
from ..widgets.header import Header
from textual.widgets.option_list import Option

from .closing import OpensWhileRunning

import rules
from rules.core import Match, RulesError, Seat, bot_levels
from rules.core.bots import RANDOM
from rules.core.search import EXPERT, settings_for
from rules.core.words import player_count

from ..store.hints import hints_by_default
from ..widgets.toggles import Tick

HUMAN = "human"
REMOTE = "remote"
NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Fay")
HINTS_HELP = ("i at the table shows the expert's three best moves and your chance of winning with each. "
              "On by default with one person playing, off with several.")


def kind_label(spec: Any, level: str) -> str:
    """A bot level as the seat list names it: the kinds every game offers said plainly, with the
    expert's own time a move in this game."""
    if level == spec.best_bot:
        return "Bot"
    if level == RANDOM:
        return "Bot: random (plays any legal move)"
    if level == EXPERT:
        return f"Bot: expert (searches ~{settings_for(spec).seconds:g} s a move)"
    return f"Bot: {level}"


def default_name(index: int) -> str:
    return NAMES[index] if index < len(NAMES) else f"Player {index + 1}"


def player_range(spec: Any) -> str:
    return player_count(spec.players)


def sentence(message: str) -> str:
    """A rules message as a sentence: capital first letter, full stop."""
    message = message.strip()
    if not message:
        return message
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."


class SeatRow(Horizontal):
    """One seat: its number, the player's name, and who plays it (a human or a bot level)."""

    def __init__(self, index: int, seat: Seat, levels: Sequence[tuple[str, str]]) -> None:
        super().__init__(classes="seat")
        self.index = index
        self._seat = seat
        self._levels = levels  # (label, level)

    def compose(self) -> ComposeResult:
        yield Label(f"{self.index + 1}.", classes="seat-number")
        yield Input(self._seat.name, placeholder=f"Name of player {self.index + 1}",
                    max_length=20, compact=True, classes="seat-name")
        kinds = [("Human", HUMAN), ("Human at another screen", REMOTE), *self._levels]
        yield Select(kinds, value=self._seat.bot or HUMAN, allow_blank=False, compact=True,
                     classes="seat-kind")

    @property
    def seat(self) -> Seat:
        kind = self.query_one(".seat-kind", Select).value
        return Seat(self.query_one(".seat-name", Input).value.strip(), None if kind in (HUMAN, REMOTE) else kind)

    @property
    def remote(self) -> bool:
        """Whether the seat is played from another screen (to the rules, a human seat)."""
        return self.query_one(".seat-kind", Select).value == REMOTE


class SetupScreen(OpensWhileRunning, Screen):
    """Set up and start a new game. ``game_name`` and ``seats`` preselect a game and its players
    (a rematch from the results screen)."""

    # ctrl+s is not a priority binding: it comes to the screen after the keys typed before it
    # have reached the focused field (a priority one started the game at once, before the last
    # letters of a name typed with it in one read from the terminal)
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start game"),
    ]

    def __init__(self, game_name: str | None = None, seats: Sequence[Seat] = ()) -> None:
        super().__init__()
        names = list(rules.GAMES)
        self.game_name = game_name if game_name in rules.GAMES else (names[0] if names else None)
        # what each seat row held, so a changed count or game keeps what was typed
        self._seats: dict[int, Seat] = dict(enumerate(seats))
        self._count = len(seats) or None
        self._options: dict[str, Widget] = {}
        self._hints_chosen = False  # the player ticked Hints themselves: the seats no longer decide it

    @property
    def spec(self) -> Any:
        return rules.GAMES[self.game_name]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="setup"):
            games = OptionList(
                *(Option(Content.from_markup("[b]$title[/]\n[dim]$count[/]", title=spec.title,
                                             count=player_range(spec)), id=name)
                  for name, spec in rules.GAMES.items()),
                id="setup-games",
            )
            games.border_title = "Game"
            yield games
            with VerticalScroll(id="setup-form"):
                yield Static(id="setup-blurb")
                with Horizontal(classes="field", id="setup-count-field"):
                    yield Label("Players", classes="field-label")
                    yield Select([], allow_blank=True, compact=True, id="setup-count")
                yield Vertical(id="setup-seats")
                yield Vertical(id="setup-options")
                with Horizontal(classes="field", id="setup-seed-field"):
                    yield Label("Seed", classes="field-label")
                    yield Input(placeholder="blank = random", type="integer", compact=True, id="setup-seed")
                    # beside the seed, not under it: at 80×24 a line more hides the Start button
                    hints = Tick("Hints", True, compact=True, id="setup-hints")
                    hints.tooltip = HINTS_HELP
                    yield hints
                yield Static(id="setup-error", markup=False)
                with Horizontal(id="setup-buttons"):
                    yield Button("Start game", variant="primary", compact=True, id="setup-start")
                    yield Button("Back", compact=True, id="setup-back")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = "New game"
        games = self.query_one("#setup-games", OptionList)
        if self.game_name is None:
            self.query_one("#setup-blurb", Static).update("No games are installed.")
            return
        games.highlighted = games.get_option_index(self.game_name)
        await self._show_game()
        games.focus()

    # -- choosing ------------------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#setup-games")
    async def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id != self.game_name:
            self._remember_seats()
            self.game_name = event.option.id
            await self._show_game()

    @on(OptionList.OptionSelected, "#setup-games")
    def _game_chosen(self) -> None:
        # Enter on a game: on to its first name
        rows = self.query(SeatRow)
        if rows:
            rows.first().query_one(Input).focus()

    @on(Select.Changed, "#setup-count")
    async def _count_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self._count:
            self._remember_seats()
            self._count = event.value
            await self._show_seats()

    @on(Select.Changed, ".seat-kind")
    def _kind_changed(self) -> None:
        self._default_hints()

    @on(Checkbox.Changed, "#setup-hints")
    def _hints_changed(self, event: Checkbox.Changed) -> None:
        if event.value != self._hints_default():
            self._hints_chosen = True

    def _hints_default(self) -> bool:
        """Hints are on by default at a table of one person, off where several play."""
        return hints_by_default(sum(1 for row in self.query(SeatRow) if row.seat.is_human))

    def _default_hints(self) -> None:
        if not self._hints_chosen:
            tick = self.query_one("#setup-hints", Tick)
            with tick.prevent(Checkbox.Changed):
                tick.value = self._hints_default()

    async def _show_game(self) -> None:
        spec = self.spec
        low, high = spec.players
        self.query_one("#setup-blurb", Static).update(Content.from_markup(
            "[b]$title[/]  [dim]$count[/]\n$blurb", title=spec.title, count=player_range(spec),
            blurb=spec.blurb,
        ))
        self._count = min(max(self._count or max(2, low), low), high)
        count = self.query_one("#setup-count", Select)
        with count.prevent(Select.Changed):
            count.set_options([(f"{n} players", n) for n in range(low, high + 1)])
            count.value = self._count
        await self._show_seats()
        await self._show_options()
        self._set_error("")

    async def _show_seats(self) -> None:
        levels = list(bot_levels(self.spec))
        labelled = [(kind_label(self.spec, level), level) for level in levels]
        rows = []
        for index in range(self._count):
            seat = self._seats.get(index)
            if seat is None or (seat.bot is not None and seat.bot not in levels):
                # a fresh seat: the first is the player at the keyboard, the others the best bot
                name = default_name(index) if seat is None else seat.name
                seat = Seat(name, None if index == 0 else self.spec.best_bot)
            rows.append(SeatRow(index, seat, labelled))
        box = self.query_one("#setup-seats", Vertical)
        await box.remove_children()
        await box.mount(*rows)
        self._default_hints()

    async def _show_options(self) -> None:
        box = self.query_one("#setup-options", Vertical)
        await box.remove_children()
        self._options = {}
        widgets: list[Widget] = []
        for option in self.spec.options:
            widget = _option_widget(option)
            self._options[option.key] = widget
            if not isinstance(widget, Checkbox):  # a checkbox carries its own label
                widget = Horizontal(Label(option.label, classes="field-label"), widget, classes="field")
            help_text = [Static(option.help, classes="option-help")] if option.help else []
            widgets.append(Vertical(widget, *help_text, classes="option"))
        box.display = bool(widgets)
        if widgets:
            await box.mount(Static("Options", classes="section-title"), *widgets)

    def _remember_seats(self) -> None:
        for row in self.query(SeatRow):
            self._seats[row.index] = row.seat

    # -- starting ------------------------------------------------------------------------------
    @on(Button.Pressed, "#setup-start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#setup-back")
    def _back_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        self.dismiss()

    def action_start(self) -> None:
        if self.game_name is None:
            return
        seats = [row.seat for row in self.query(SeatRow)]
        options = {key: widget.value for key, widget in self._options.items()}
        seed_text = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self._set_error(f"The seed must be a whole number, like 42, not {seed_text!r}.")
            return
        try:
            match = Match(self.spec, seats, options, seed)
        except RulesError as error:
            self._set_error(sentence(str(error)))
            return
        remote = [row.index for row in self.query(SeatRow) if row.remote]
        hints = self.query_one("#setup-hints", Tick).value
        try:
            game_id = self.app.store.create(match, remote, hints=hints)
        except OSError as error:  # play on, unsaved: the table keeps trying after every move
            if remote:  # the other screens meet in the store: without it nobody can join
                self._set_error(f"{sentence(str(error))} A game with players at other screens needs "
                                "the store: it was not begun.")
                return
            self.app.notify_not_saved(error)
            self.app.open_table(match, None, error, hints=hints)
            return
        if not remote:
            self.app.open_table(match, game_id)
            return
        from .join import CodesScreen

        # the codes first (the players at other screens need them to sit down), then the table
        # for the seats here; with nobody here, the menu (the others open it with their codes)
        here = any(seat.is_human and place not in remote for place, seat in enumerate(match.seats))
        app = self.app
        info = next((info for info in app.store.list() if info.id == game_id), None)
        if not here:
            app.show_menu()
        if info is None:  # listed a moment ago, so only a vanished store: the table says so
            app.open_table(match, game_id) if here else None
        else:
            app.push_screen(CodesScreen(info), lambda _: app.open_table(match, game_id) if here else None)

    def _set_error(self, message: str) -> None:
        error = self.query_one("#setup-error", Static)
        error.update(Text(message))
        error.display = bool(message)
        if message:
            self.notify(message, title="Cannot start", severity="error", markup=False)


def _option_widget(option: Any) -> Widget:
    """The control for a game option: a checkbox, a list of choices, or a number field."""
    if option.kind == "bool":
        return Tick(option.label, bool(option.default), compact=True)
    if option.choices:
        return Select([(str(choice), choice) for choice in option.choices], value=option.default,
                      allow_blank=False, compact=True)
    return Input(str(option.default), type="integer", compact=True)
