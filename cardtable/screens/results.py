"""Game over: who won, the ranks and scores and how each score was made up, a chart of each
player's money or score over the game, and the final table as the public saw it.

The screen is the game's own table, read-only (``ReadOnlyTable``), at the game's last move in
the public view: the "Final table" tab shows it whole; the "Results" tab (shown first) holds the
score sheet and the chart. ``results_screen(match, settings)`` makes one for any game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, DataTable, Header, Static, Tab, Tabs

from rules.core.words import say
from rules.core import Match
from rules.core.replay import Replay

from ..store import result_text
from ..widgets.footer import TableFooter
from ..widgets.score_chart import ScoreChart
from .replay import ReadOnlyTable, read_only

if TYPE_CHECKING:
    from ..settings import Settings


class ResultsScreen(ReadOnlyTable):
    """The results of a finished game (see the module docstring)."""

    ACTIONS = ReadOnlyTable.ACTIONS | {"menu", "new_game", "replay", "switch", "quit", "back"}
    # The body scrolls (by the keys too, once focused) when it holds more than the screen: at
    # 80×24, one column (app.tcss) with the details whole (Abundance's every sale) and the chart
    # under them; side by side when wide. (CSS, not DEFAULT_CSS, to outweigh app.tcss; not
    # scoped, since the class is mixed with each game's table under another name.)
    SCOPED_CSS = False
    CSS = """
    ResultsScreen #results-body { layout: horizontal; }
    ResultsScreen.-narrow #results-details { height: auto; }
    ResultsScreen.-narrow #results-chart { min-height: 10; }
    """
    BINDINGS = [
        Binding("m,q", "menu", "Main menu"),  # q goes to the menu here as on every table
        Binding("n", "new_game", "New game"),
        Binding("r", "replay", "Replay"),
        Binding("t", "switch", "Table/results"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, replay: Replay, settings: Settings) -> None:
        super().__init__(replay, settings)
        replay.goto(replay.moves)
        self.view = replay.view(None)

    @property
    def outcome(self):
        return self.replay.outcome

    def compose(self) -> ComposeResult:
        outcome = self.outcome
        names = self.replay.names
        yield Header()
        if outcome is None:
            yield Static("This game is not over yet.", id="results-winners")
        else:
            yield Static(Content.from_markup("[b]Game over — $result.[/b]", result=result_text(outcome, names)),
                         id="results-winners")
        # two tabs; their panes are plain containers shown one at a time (so the table's widgets
        # are there as soon as the screen is mounted, as on any table)
        yield Tabs(Tab("Results", id="results-tab"), Tab("Final table", id="final-tab"), id="results-tabs")
        with Vertical(id="results-pane"):
            if outcome is not None and outcome.summary:
                yield Static(outcome.summary, id="results-summary", markup=False)
            with VerticalScroll(id="results-body"):
                with Vertical(id="results-sheet"):
                    if outcome is not None:
                        yield DataTable(cursor_type="none", zebra_stripes=True, id="results-scores")
                        details = self.results_details()
                        if details is not None:
                            with VerticalScroll(id="results-details"):
                                yield details
                    with Horizontal(id="results-buttons"):
                        yield Button("Main menu", variant="primary", compact=True, action="screen.menu")
                        yield Button("Replay", compact=True, action="screen.replay")
                        yield Button("New game", compact=True, action="screen.new_game")
                        yield Button("Quit", compact=True, action="screen.quit")
                series = self.replay.scores()
                chart = ScoreChart(series, names, id="results-chart")
                chart.border_title = f"{series.label or 'Score'} over the game"
                yield chart
        # the final table: the table's own parts, straight on the screen as on any table
        yield from self.compose_table()
        yield TableFooter()

    def on_mount(self) -> None:
        self.sub_title = "Results"  # the title already names the game
        # the score sheet sits three containers deep: fill it once they are all mounted
        self.call_after_refresh(self._fill_sheet)

    def _fill_sheet(self) -> None:
        outcome = self.outcome
        if outcome is None:
            self.show_table(False)
            return
        # a score sheet: one column per player, best first; one row per line of the breakdown
        seats = sorted(range(len(self.replay.seats)), key=lambda seat: (outcome.ranks[seat], seat))
        parts = [outcome.breakdown[seat] if seat < len(outcome.breakdown) else {} for seat in seats]
        labels = list(dict.fromkeys(label for part in parts for label in part))
        table = self.query_one("#results-scores", DataTable)
        table.add_column("")
        for seat in seats:
            # Text, not str: a name is never read as markup
            table.add_column(Text(self.replay.names[seat] + (" (bot)" if self.replay.seats[seat].bot else "")))
        table.add_row("Rank", *(str(outcome.ranks[seat]) for seat in seats))
        for label in labels:
            table.add_row(Text(label), *(str(part.get(label, "")) for part in parts))
        scores = [outcome.scores[seat] for seat in seats]
        if not any([part.get(label) for part in parts] == scores for label in labels):
            table.add_row("Score", *map(str, scores))  # unless a breakdown line already says it
        self.show_table(False)

    def refresh_table(self) -> None:
        super().refresh_table()
        self.sub_title = "Results"  # the title already names the game

    def status_text(self) -> str:
        return say("The final table, as everyone saw it — {}", self.view.status)

    def public_hand_note(self) -> str:
        return "The public view: every hand is hidden (r replays the game as any player saw it)."

    @property
    def showing_table(self) -> bool:
        """Whether the final table is shown (else the score sheet and the chart)."""
        return not self.query_one("#results-pane").display

    def show_table(self, table: bool) -> None:
        for part in self.query("#status, #main"):
            part.display = table
        self.query_one("#results-pane").display = not table
        self.query_one("#results-tabs", Tabs).active = "final-tab" if table else "results-tab"
        if table:
            self.game_log.focus()  # ↑ ↓ scroll the log
            self.call_after_refresh(self._fit_board)  # measured while hidden, it had no room
        else:
            self.query_one("#results-buttons Button").focus()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        event.stop()
        table = event.tab is not None and event.tab.id == "final-tab"
        if table != self.showing_table:
            self.show_table(table)

    def action_switch(self) -> None:
        self.show_table(not self.showing_table)

    def action_menu(self) -> None:
        self.app.show_menu()

    def action_new_game(self) -> None:
        from .setup import SetupScreen

        if getattr(self.app, "confined", False):  # its player starts no game on this machine
            self.app.exit()
            return
        self.app.show_menu()
        self.app.push_screen(SetupScreen(self.replay.spec.name, self.replay.seats))

    def action_replay(self) -> None:
        from .replay import replay_screen

        self.app.push_screen(replay_screen(Replay.of(self.replay), self.settings))

    def action_quit(self) -> None:
        self.app.exit()

    def action_back(self) -> None:
        self.dismiss()


def results_screen(match: Match, settings: Settings) -> ResultsScreen:
    """The results of ``match`` (a finished game) on its game's own table."""
    replay = match if isinstance(match, Replay) else Replay.of(match)
    return read_only(ResultsScreen, replay.spec.name)(replay, settings)
