"""Stats: every player in the record of finished games — games, wins, win rate, best score,
winning streaks — and, for the player under the cursor, how they did against each opponent.

``g`` goes through the games (all games together, then each game recorded); the list and the
head-to-head follow. Entering the screen reads the record again.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from .closing import OpensWhileRunning
from ..widgets.header import Header

import rules

from ..record import PlayerStats, RecordError

PLAYER_COLUMNS = ("Player", "Games", "Wins", "Win rate", "Best", "Streak", "Longest")
OPPONENT_COLUMNS = ("Against", "Games", "Ahead", "Behind", "Tied")


def _right(value: object) -> Text:
    return Text(str(value), justify="right")


def game_title(game: str | None) -> str:
    if game is None:
        return "All games"
    info = rules.INFO.get(game)
    return info.title if info else game


class StatsScreen(OpensWhileRunning, Screen):
    """The record's stats (see the module docstring)."""

    BINDINGS = [
        Binding("g", "next_game", "Game"),
        Binding("escape,q", "back", "Back"),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[str | None] = [None]
        self.game: str | None = None
        self.stats: list[PlayerStats] = []
        self.shown: list[PlayerStats] = []
        self.total = 0
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="stats-title")
        with Horizontal(id="stats-body"):
            with Vertical(id="stats-left"):
                table = DataTable(cursor_type="row", zebra_stripes=True, id="stats-players")
                table.border_title = "Players"
                yield table
            with Vertical(id="stats-detail"):
                yield Static(id="stats-player")
                opponents = DataTable(cursor_type="none", zebra_stripes=True, id="stats-opponents")
                opponents.border_title = "Head to head"
                yield opponents
        yield Static(id="stats-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Stats"
        players = self.query_one("#stats-players", DataTable)
        players.add_column(PLAYER_COLUMNS[0])
        for label in PLAYER_COLUMNS[1:]:
            players.add_column(_right(label))
        opponents = self.query_one("#stats-opponents", DataTable)
        opponents.add_column(OPPONENT_COLUMNS[0])
        for label in OPPONENT_COLUMNS[1:]:
            opponents.add_column(_right(label))

    def on_screen_resume(self) -> None:
        self.reload()

    # -- reading -----------------------------------------------------------------------------
    def reload(self) -> None:
        record = self.app.record
        try:
            self.stats = record.players()
            self.total = record.count()
            self.hinted = record.count(hints=True)
            self.games = [None, *record.games()]
            self.problem = None
        except RecordError as error:
            self.stats, self.total, self.hinted, self.games, self.problem = [], 0, 0, [None], str(error)
        self.app.report_record()
        if self.game not in self.games:
            self.game = None
        self.show()

    def show(self) -> None:
        """Fill the players list for the game chosen, keeping the cursor on the same player."""
        table = self.query_one("#stats-players", DataTable)
        before = self._player_under_cursor()
        self.shown = [s for s in self.stats if s.game == self.game]
        table.clear()
        for s in self.shown:
            numbers = (s.games, s.wins, f"{s.win_rate:.0%}", "–" if s.best is None else s.best, s.streak, s.longest)
            table.add_row(Text(s.label), *(_right(n) for n in numbers), key=f"{s.name.casefold()}|{s.bot or ''}")
        table.border_title = Text(f"Players · {game_title(self.game)}")
        games = f"{self.total} finished game{'s' * (self.total != 1)}"
        if self.hinted:
            games += f" ({self.hinted} with hints)"
        self.query_one("#stats-title", Static).update(
            Text.assemble(("Stats", "bold"), f" · {games} in the record · ", (game_title(self.game), "bold"),
                          (" (g: another game)" if len(self.games) > 1 else "", "dim")))
        empty = self.query_one("#stats-empty", Static)
        if self.problem is not None:
            empty.update(Text(self.problem))
        elif not self.shown:
            empty.update("No finished games yet: the record fills as games end. "
                         "Every game played to its end here is in it, with its players and scores.")
        empty.display = not self.shown
        self.query_one("#stats-body").display = bool(self.shown)
        if self.shown:
            keys = [f"{s.name.casefold()}|{s.bot or ''}" for s in self.shown]
            table.move_cursor(row=keys.index(before) if before in keys else 0)
            table.focus()
        self.show_player()
        self.refresh_bindings()

    def _player_under_cursor(self) -> str | None:
        table = self.query_one("#stats-players", DataTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return None
        s = self.shown[table.cursor_row]
        return f"{s.name.casefold()}|{s.bot or ''}"

    def show_player(self) -> None:
        """The player under the cursor: a line about them, and their head-to-head."""
        table = self.query_one("#stats-players", DataTable)
        opponents = self.query_one("#stats-opponents", DataTable)
        opponents.clear()
        line = self.query_one("#stats-player", Static)
        if not self.shown:
            line.update("")
            return
        s = self.shown[min(max(table.cursor_row, 0), len(self.shown) - 1)]
        best = "" if s.best is None else f"; best score {s.best}"
        line.update(Text.assemble(
            (s.label, "bold"), f" at {'all games' if s.game is None else game_title(s.game)}: {s.games} game{'s' * (s.games != 1)}, "
            f"{s.wins} win{'s' * (s.wins != 1)} ({s.win_rate:.0%}){best}; "
            f"winning streak {s.streak} now, longest {s.longest}; last played "
            f"{s.last.astimezone().strftime('%Y-%m-%d')}."))
        try:
            against = self.app.record.opponents(s.name, self.game, s.bot)
        except RecordError as error:
            line.update(Text(str(error)))
            return
        for h in against:
            opponents.add_row(Text(h.second), *(_right(n) for n in (h.games, h.first_ahead, h.second_ahead, h.tied)))
        opponents.border_title = Text(f"{s.label} head to head")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "stats-players":
            self.show_player()

    # -- keys --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_game":
            return True if len(self.games) > 1 else None
        return True

    def action_next_game(self) -> None:
        index = self.games.index(self.game) if self.game in self.games else 0
        self.game = self.games[(index + 1) % len(self.games)]
        self.show()

    def action_back(self) -> None:
        self.dismiss()
