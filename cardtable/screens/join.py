"""Playing from several screens, in the app: "Join a game" (the menu's dialog asking for a join
code) and a game's codes (the saves screen's ``c``: shown, and renewed one at a time)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from .closing import OpensWhileRunning

from ..store import CodeError, SaveInfo
from ..store.seats import EXAMPLE

BOX_CSS = """
    align: center middle;
    & > Vertical {
        width: 72;
        max-width: 100%;
        height: auto;
        padding: 1 2;
        border: thick $accent;
        background: $surface;
    }
    & .join--error { color: $error; height: auto; }
    & .join--note { color: $text-muted; height: auto; }
"""


class JoinScreen(OpensWhileRunning, ModalScreen[None]):
    """Asks for a join code and opens the game as its seat (or the spectators' view). A code
    that opens nothing gets a sentence and the dialog stays."""

    DEFAULT_CSS = "JoinScreen {" + BOX_CSS + "}"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Join a game played from several screens: type the code its host gave you "
                         f"(8 letters and digits, like {EXAMPLE}).", markup=False)
            yield Input(placeholder=EXAMPLE, id="join-code", max_length=40)
            yield Static("", id="join-error", classes="join--error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.query_one("#join-error", Static)
        try:
            joined = self.app.store.join(event.value)
        except (CodeError, OSError) as refused:
            error.update(str(refused.args[0]) if isinstance(refused, CodeError) else str(refused))
            return
        self.dismiss(None)
        failure = self.app.join_game(joined)
        if failure is not None:
            self.app.notify(failure, title="Cannot join", severity="error", timeout=15, markup=False)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CodesScreen(OpensWhileRunning, ModalScreen[None]):
    """The join codes of one game, for the machine that holds it: one line per seat played from
    another screen and one for spectators. ``n`` renews the code under the cursor (the old one
    stops working at once)."""

    DEFAULT_CSS = "CodesScreen {" + BOX_CSS + "& OptionList { height: auto; max-height: 12; } }"
    BINDINGS = [Binding("n", "renew", "New code"), Binding("escape", "cancel", "Close")]

    def __init__(self, info: SaveInfo) -> None:
        super().__init__()
        self.info = info
        self.codes: dict[int | None, str] = {}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.from_markup("[b]Join codes[/b] · $title", title=self.info.title))
            yield OptionList(id="codes")
            yield Static("Each player types 'cardtable join CODE' (or Join a game in the menu). n gives the "
                         "seat under the cursor a new code: the old one stops working.", classes="join--note",
                         markup=False)
            yield Static("", id="codes-error", classes="join--error", markup=False)

    def on_mount(self) -> None:
        self.show()

    def show(self, keep: int | None = None) -> None:
        try:
            self.codes = self.app.store.codes(self.info.id)
        except (LookupError, OSError) as error:
            self.query_one("#codes-error", Static).update(str(error.args[0] if isinstance(error, LookupError)
                                                              else error))
            return
        seats = self.info.seats
        options = self.query_one("#codes", OptionList)
        options.set_options(
            Option(Content.from_markup("$who: [b]$code[/b]", code=code,
                                       who="Spectators" if seat is None
                                       else seats[seat].name if seat < len(seats) else f"Seat {seat + 1}"),
                   id="spectators" if seat is None else str(seat))
            for seat, code in self.codes.items())
        options.highlighted = keep or 0
        options.focus()

    def action_renew(self) -> None:
        options = self.query_one("#codes", OptionList)
        option = options.highlighted_option
        if option is None:
            return
        seat = None if option.id == "spectators" else int(option.id)
        try:
            code = self.app.store.renew(self.info.id, seat)
        except (LookupError, OSError) as error:
            self.query_one("#codes-error", Static).update(str(error.args[0] if isinstance(error, LookupError)
                                                              else error))
            return
        self.notify(f"New code {code}: the old one no longer opens the game.", title="Join codes", markup=False)
        self.show(keep=options.highlighted)

    def action_cancel(self) -> None:
        self.dismiss(None)
