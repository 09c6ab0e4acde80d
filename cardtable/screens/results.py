"""Game over: who won, the ranks and scores and how each score was made up, a chart of each
player's money or score over the game, the final table as the public saw it, and the analysis.

The screen is the game's own table, read-only (``ReadOnlyTable``), at the game's last move in
the public view: the "Final table" tab shows it whole; the "Results" tab (shown first) holds the
score sheet and the chart; the "Analysis" tab (a) judges every decision
(``rules.core.analysis``) in a worker, with a progress bar and the time left, stopped by s, kept
in the store: it shows each player's chance of winning over the game (from their own view),
accuracy, skill and luck, and the turning points. ``results_screen(match, settings, game_id)``
makes one for any game.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, DataTable, ProgressBar, Static, Tab, Tabs
from ..widgets.header import Header
from textual.worker import Worker

from rules.core.words import say
from rules.core import Match
from rules.core.replay import Replay, ScoreSeries

from ..store import result_text
from ..widgets.footer import TableFooter
from ..widgets.score_chart import ScoreChart
from .replay import ReadOnlyTable, read_only

if TYPE_CHECKING:
    from ..settings import Settings


class ResultsScreen(ReadOnlyTable):
    """The results of a finished game (see the module docstring)."""

    ACTIONS = ReadOnlyTable.ACTIONS | {"menu", "leave_app", "new_game", "replay", "switch", "quit", "back",
                                       "analysis", "stop_analysis"}
    # The body scrolls (by the keys too, once focused) when it holds more than the screen: at
    # 80×24, one column (app.tcss) with the details whole (Abundance's every sale) and the chart
    # under them; side by side when wide. (CSS, not DEFAULT_CSS, to outweigh app.tcss; not
    # scoped, since the class is mixed with each game's table under another name.)
    SCOPED_CSS = False
    CSS = """
    ResultsScreen #results-body { layout: horizontal; }
    ResultsScreen.-narrow #results-details { height: auto; }
    ResultsScreen.-narrow #results-chart { min-height: 10; }
    ResultsScreen #analysis-pane { height: 1fr; display: none; padding: 0 1; }
    ResultsScreen #analysis-chart { height: 16; border: round $primary-muted; }
    ResultsScreen #analysis-text { height: auto; }
    """
    BINDINGS = [
        Binding("m,q", "menu", "Main menu"),  # q goes to the menu here as on every table
        Binding("q", "leave_app", "Leave"),  # a confined seat (SSH, the join page): no menu
        Binding("n", "new_game", "New game"),
        Binding("r", "replay", "Replay"),
        Binding("t", "switch", "Table/results"),
        Binding("a", "analysis", "Analysis"),
        Binding("x", "stop_analysis", "Stop analysis"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, replay: Replay, settings: Settings, game_id: str | None = None) -> None:
        super().__init__(replay, settings)
        replay.goto(replay.moves)
        self.view = replay.view(None)
        self.game_id = game_id
        self.analysis_first = False
        """Whether the Analysis tab is shown first (the saves screen's a)."""
        self.analysis = None
        """The analysis once made or read (rules.core.analysis.Analysis)."""
        self._analysing: Worker | None = None
        self._stop = threading.Event()

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
        yield Tabs(Tab("Results", id="results-tab"), Tab("Final table", id="final-tab"),
                   Tab("Analysis", id="analysis-tab"), id="results-tabs")
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
                        if self.confined:
                            yield Button("Replay", variant="primary", compact=True, action="screen.replay")
                            yield Button("Leave", compact=True, action="screen.leave_app")
                        else:
                            yield Button("Main menu", variant="primary", compact=True, action="screen.menu")
                            yield Button("Replay", compact=True, action="screen.replay")
                            yield Button("New game", compact=True, action="screen.new_game")
                            yield Button("Quit", compact=True, action="screen.quit")
                series = self.replay.scores()
                chart = ScoreChart(series, names, id="results-chart")
                chart.border_title = f"{series.label or 'Score'} over the game"
                yield chart
        with VerticalScroll(id="analysis-pane"):
            yield Static("", id="analysis-status", markup=False)
            yield ProgressBar(total=None, show_eta=True, id="analysis-progress")
            chart = ScoreChart(ScoreSeries("", (), ()), names, id="analysis-chart")
            chart.border_title = "Chance of winning (%), each from their own view"
            chart.display = False  # until there are chances to chart: an empty frame said "nothing"
            yield chart
            yield Static("", id="analysis-text", markup=False)
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
        self.show("analysis" if self.analysis_first else "results")

    def refresh_table(self) -> None:
        super().refresh_table()
        self.sub_title = "Results"  # the title already names the game

    def status_text(self) -> str:
        return say("The final table, as everyone saw it — {}", self.view.status)

    def public_hand_note(self) -> str:
        return "The public view: every hand is hidden (r replays the game as any player saw it)."

    @property
    def showing_table(self) -> bool:
        """Whether the final table is shown (else the score sheet and the chart, or the analysis)."""
        return self.showing == "final"

    @property
    def showing(self) -> str:
        """The tab shown: "results", "final" or "analysis"."""
        if self.query_one("#results-pane").display:
            return "results"
        return "analysis" if self.query_one("#analysis-pane").display else "final"

    def show_table(self, table: bool) -> None:
        self.show("final" if table else "results")

    def show(self, tab: str) -> None:
        for part in self.query("#status, #main"):
            part.display = tab == "final"
        self.query_one("#results-pane").display = tab == "results"
        self.query_one("#analysis-pane").display = tab == "analysis"
        self.query_one("#results-tabs", Tabs).active = f"{tab}-tab"
        if tab == "final":
            self.game_log.focus()  # ↑ ↓ scroll the log
            self.call_after_refresh(self._fit_board)  # measured while hidden, it had no room
        elif tab == "results":
            self.query_one("#results-buttons Button").focus()
        else:
            self.query_one("#analysis-pane").focus()
            self.start_analysis()
        self.refresh_bindings()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        event.stop()
        tab = (event.tab.id or "results-tab").removesuffix("-tab") if event.tab is not None else "results"
        if tab != self.showing:
            self.show(tab)

    def action_switch(self) -> None:
        self.show_table(not self.showing_table)

    # -- the analysis --------------------------------------------------------------------------
    def action_analysis(self) -> None:
        self.show("analysis")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_analysis":
            return self.analysing  # shown only while an analysis runs
        if action in ("menu", "new_game", "leave_app"):
            # a confined seat's player has no menu and starts no game on this machine: q leaves
            return self.confined == (action == "leave_app")
        return super().check_action(action, parameters)

    @property
    def confined(self) -> bool:
        return bool(getattr(self.app, "confined", False))

    @property
    def analysing(self) -> bool:
        return self._analysing is not None and not self._analysing.is_finished

    def start_analysis(self) -> None:
        """Show the analysis: at once when kept, else made in a worker (the screen stays live)."""
        if self.analysis is not None or self.analysing or self.outcome is None:
            if self.outcome is None:
                self._say("This game is not over: only a finished game can be analysed.")
            return
        self._stop.clear()
        self.query_one("#analysis-progress").display = True
        self._say("Analysing every decision from the mover's own view… (x stops)")
        self._analysing = self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis",
                                         exit_on_error=False)

    def _analyse(self):
        from ..store.analyses import analysis_of

        store = getattr(self.app, "store", None)
        replay = Replay.of(self.replay)  # its own: the worker moves it from position to position
        return analysis_of(store, self.game_id, replay, progress=self._progress, stop=self._stop.is_set)

    def _progress(self, done: int, total: int) -> None:
        self.app.call_from_thread(self.query_one("#analysis-progress", ProgressBar).update,
                                  total=total, progress=done)

    def action_stop_analysis(self) -> None:
        if self.analysing:
            self._stop.set()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._analysing:
            return
        from rules.core.analysis import Stopped

        # the worker's own flags: the app never asks for any game's position
        worker = event.worker
        if worker.is_finished and worker.error is None and not worker.is_cancelled:
            analysis, _kept, problem = worker.result
            self.show_analysis(analysis)
            if problem:
                self.notify(problem, severity="warning", timeout=10, markup=False)
        elif worker.error is not None:
            error = worker.error
            if isinstance(error, Stopped):
                self._say("The analysis was stopped: nothing was kept (a starts it again).")
            else:
                self._say(f"The analysis failed: {error}")
            self.query_one("#analysis-progress").display = False
        self.refresh_bindings()

    def show_analysis(self, analysis) -> None:
        self.analysis = analysis
        self.query_one("#analysis-progress").display = False
        self._say(f"{len(analysis.decisions)} decisions judged at {analysis.seconds:g} s each, from the "
                  "mover's view (losing 5 points of winning chance is an inaccuracy, 10 a mistake, 20 a blunder).")
        values = tuple(tuple(round(row[k]) for row in analysis.series) for k in range(len(analysis.turns)))
        chart = self.query_one("#analysis-chart", ScoreChart)
        chart.series = ScoreSeries("Chance of winning (%)", values, analysis.turns)
        chart.display = True
        chart.refresh()
        lines = analysis.summary()
        points = analysis.turning_points()
        if points:
            lines += ["", "Turning points:", *(f"  {sentence}" for _move, sentence in points)]
        self.query_one("#analysis-text", Static).update(Text("\n".join(lines)))

    def _say(self, text: str) -> None:
        self.query_one("#analysis-status", Static).update(Text(text))

    def on_unmount(self) -> None:
        self._stop.set()  # a worker still running stops at its next decision

    def action_menu(self) -> None:
        self.app.show_menu()

    def action_new_game(self) -> None:
        from .setup import SetupScreen

        self.app.show_menu()
        self.app.push_screen(SetupScreen(self.replay.spec.name, self.replay.seats))

    def action_leave_app(self) -> None:
        self.app.exit()

    def action_replay(self) -> None:
        from .replay import replay_screen

        self.app.push_screen(replay_screen(Replay.of(self.replay), self.settings))

    def action_quit(self) -> None:
        self.app.exit()

    def action_back(self) -> None:
        self.dismiss()


def results_screen(match: Match, settings: Settings, game_id: str | None = None,
                   analysis: bool = False) -> ResultsScreen:
    """The results of ``match`` (a finished game, saved as ``game_id``: its analysis is kept
    there) on its game's own table; ``analysis``: the Analysis tab first."""
    replay = match if isinstance(match, Replay) else Replay.of(match)
    screen = read_only(ResultsScreen, replay.spec.name)(replay, settings, game_id)
    screen.analysis_first = analysis and replay.over
    return screen
