"""Game over: who won, the ranks and scores, and how each score was made up."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Header, Static

from rules.core import Match

from ..saves import result_text


class ResultsScreen(Screen):
    """The results of a finished ``match``; ``details`` (a game table's ``results_details``),
    if any, is shown under the scores and scrolls."""

    BINDINGS = [
        Binding("m", "menu", "Main menu"),
        Binding("n", "new_game", "New game"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, match: Match, details: Widget | None = None) -> None:
        super().__init__()
        self.match = match
        self.details = details

    def compose(self) -> ComposeResult:
        outcome = self.match.outcome
        names = self.match.names
        yield Header()
        with Vertical(id="results"):
            yield Static("Game over", classes="screen-title")
            if outcome is None:
                yield Static("This game is not over yet.", id="results-winners")
            else:
                yield Static(Content.from_markup("[b]$result.[/b]", result=result_text(outcome, names)), id="results-winners")
                if outcome.summary:
                    yield Static(outcome.summary, id="results-summary", markup=False)
                yield DataTable(cursor_type="none", zebra_stripes=True, id="results-scores")
                if self.details is not None:
                    with VerticalScroll(id="results-details"):
                        yield self.details
            with Horizontal(id="results-buttons"):
                yield Button("Main menu", variant="primary", compact=True, action="screen.menu")
                yield Button("New game", compact=True, action="screen.new_game")
                yield Button("Quit", compact=True, action="screen.quit")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.match.spec.title
        outcome = self.match.outcome
        if outcome is None:
            return
        # a score sheet: one column per player, best first; one row per line of the breakdown
        seats = sorted(range(len(self.match.seats)), key=lambda seat: (outcome.ranks[seat], seat))
        parts = [outcome.breakdown[seat] if seat < len(outcome.breakdown) else {} for seat in seats]
        labels = list(dict.fromkeys(label for part in parts for label in part))
        table = self.query_one("#results-scores", DataTable)
        table.add_column("")
        for seat in seats:
            # Text, not str: a name is never read as markup
            table.add_column(Text(self.match.names[seat] + (" (bot)" if self.match.seats[seat].bot else "")))
        table.add_row("Rank", *(str(outcome.ranks[seat]) for seat in seats))
        for label in labels:
            table.add_row(Text(label), *(str(part.get(label, "")) for part in parts))
        scores = [outcome.scores[seat] for seat in seats]
        if not any([part.get(label) for part in parts] == scores for label in labels):
            table.add_row("Score", *map(str, scores))  # unless a breakdown line already says it
        self.query_one(Button).focus()

    def action_menu(self) -> None:
        self.app.show_menu()

    def action_new_game(self) -> None:
        from .setup import SetupScreen

        self.app.show_menu()
        self.app.push_screen(SetupScreen(self.match.spec.name, self.match.seats))

    def action_quit(self) -> None:
        self.app.exit()

    def action_back(self) -> None:
        self.dismiss()
