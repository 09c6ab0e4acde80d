"""A line chart of each player's money or score over a game, drawn with box characters.

One line per seat on shared axes (so the players compare at a glance), in the seat's colour,
each ending in the seat's initial (so the lines read without colour too), the values at the
top and bottom of the axis, the first and last turn below, and a legend with each final value.
It draws what it is given — a ``ScoreSeries`` from a replay — at whatever size it has.
"""

from __future__ import annotations

from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from rules.core.replay import ScoreSeries

SEAT_CLASSES = tuple(f"score-chart--seat-{seat}" for seat in range(6))
_UP = ("╯", "╭")  # (at the earlier row, at the later row) when the line rises
_DOWN = ("╮", "╰")


def initials(names: Sequence[str]) -> list[str]:
    """One letter per seat, different where the names allow: "A", "B", or "A", "N" for Ann, Anna."""
    taken: list[str] = []
    for name in names:
        letters = [c.upper() for c in name if c.isalnum()] or ["?"]
        choice = next((c for c in letters if c not in taken), letters[0])
        taken.append(choice)
    return taken


def _number(value: int) -> str:
    return f"{value:,}"


def chart_lines(series: ScoreSeries, names: Sequence[str], width: int, height: int,
                styles: Sequence[Style] = ()) -> list[Text]:
    """The chart as ``height`` lines of at most ``width`` cells (fewer lines when the series
    is empty: a sentence instead)."""
    values = series.values
    seats = len(names)
    if not values or seats == 0:
        return [Text("Nothing to chart for this game.", style="dim")]
    style_of = (lambda seat: styles[seat % len(styles)]) if styles else (lambda seat: Style())
    marks = initials(names)
    # the legend: every seat's colour, initial, name and final value, wrapped to the width
    legend: list[Text] = [Text()]
    for seat, name in enumerate(names):
        entry = Text.assemble(("━━", style_of(seat)), (f" {marks[seat]} ", style_of(seat) + Style(bold=True)),
                              f"{name} {_number(values[-1][seat])}")
        if legend[-1].cell_len and legend[-1].cell_len + 3 + entry.cell_len > width:
            legend.append(Text())
        if legend[-1].cell_len:
            legend[-1].append("   ")
        legend[-1].append_text(entry)
    low = min(min(row) for row in values)
    high = max(max(row) for row in values)
    labels = [_number(high), _number(low)]
    label_width = max(map(len, labels))
    plot_width = width - label_width - 2 - 2  # the axis and a space; the initials and a space
    plot_height = height - 1 - len(legend)  # the turns line and the legend
    if plot_width < 8 or plot_height < 3:
        return legend[: max(1, height)]
    span = max(1, high - low)

    def row_of(value: int) -> int:  # 0 is the bottom row
        return round((value - low) * (plot_height - 1) / span)

    last = len(values) - 1
    columns = [round(c * last / (plot_width - 1)) if last else 0 for c in range(plot_width)]
    grid: list[list[tuple[str, Style] | None]] = [[None] * (plot_width + 2) for _ in range(plot_height)]

    def put(row: int, col: int, char: str, style: Style) -> None:
        grid[plot_height - 1 - row][col] = (char, style)

    ends: dict[int, int] = {}
    for seat in range(seats):
        style = style_of(seat)
        previous = None
        for col, position in enumerate(columns):
            now = row_of(values[position][seat])
            if previous is None or previous == now:
                put(now, col, "─", style)
            else:
                before, after = _UP if now > previous else _DOWN
                put(previous, col, before, style)
                for between in range(min(previous, now) + 1, max(previous, now)):
                    put(between, col, "│", style)
                put(now, col, after, style)
            previous = now
        # the seat's initial just after its line's end, moved up or down to a free row
        row = previous if previous is not None else 0
        for offset in (0, 1, -1, 2, -2, 3, -3):
            if 0 <= row + offset < plot_height and (row + offset) not in ends.values():
                row += offset
                break
        ends[seat] = row
        put(row, plot_width + 1, marks[seat], style + Style(bold=True))

    lines: list[Text] = []
    for index, cells in enumerate(grid):
        row = plot_height - 1 - index
        label = labels[0] if index == 0 else labels[1] if row == 0 else ""
        axis = "┤" if label else "│"
        line = Text(f"{label:>{label_width}} {axis}", style="dim")
        for cell in cells:
            line.append(" ") if cell is None else line.append(cell[0], cell[1])
        lines.append(line)
    first_turn, last_turn = series.turns[0], series.turns[-1]
    left, right = f"turn {first_turn}", f"turn {last_turn}"
    gap = max(1, plot_width - len(left) - len(right))
    lines.append(Text(" " * (label_width + 2) + left + " " * gap + right, style="dim"))
    return lines + legend


class ScoreChart(Widget):
    """``series`` of ``names`` as a line chart filling the widget (see the module docstring)."""

    DEFAULT_CSS = """
    ScoreChart {
        height: 1fr;
        min-height: 6;
        & > .score-chart--seat-0 { color: $text-primary; }
        & > .score-chart--seat-1 { color: $text-success; }
        & > .score-chart--seat-2 { color: #b36be0; }
        & > .score-chart--seat-3 { color: $text-error; }
        & > .score-chart--seat-4 { color: #2aa1b3; }
        & > .score-chart--seat-5 { color: $text-warning; }
    }
    """
    COMPONENT_CLASSES = set(SEAT_CLASSES)

    def __init__(self, series: ScoreSeries, names: Sequence[str], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.series = series
        self.names = tuple(names)

    def render(self) -> Text:
        width, height = self.content_size
        styles = [self.get_component_rich_style(name, partial=True) for name in SEAT_CLASSES]
        return Text("\n").join(chart_lines(self.series, self.names, width, height, styles))
