"""A checkbox, a radio button and a list of checkboxes whose on and off differ in shape, not
only in colour: ``[✔]`` and ``[ ]``, ``(●)`` and ``( )`` — readable on any theme and without
colour."""

from __future__ import annotations

from rich.segment import Segment
from textual.content import Content
from textual.strip import Strip
from textual.widgets import Checkbox, RadioButton, SelectionList
from textual.widgets.option_list import OptionDoesNotExist


class Tick(Checkbox):
    """A Checkbox drawn ``[✔] label`` when on and ``[ ] label`` when off."""

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble("[", ("✔" if self.value else " ", style), "] ")


class Dot(RadioButton):
    """A RadioButton drawn ``(●) label`` when chosen and ``( ) label`` when not."""

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble("(", ("●" if self.value else " ", style), ") ")


class TickList(SelectionList):
    """A SelectionList whose boxes read ``[✔]`` when chosen and ``[ ]`` when not."""

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        segments = list(line)
        _x, scroll_y = self.scroll_offset
        try:
            selection = self.get_option_at_index(scroll_y + y)
        except OptionDoesNotExist:
            return line
        if len(segments) < 4:
            return line
        inner, text = segments[1], segments[3]  # the box's middle, and the prompt's own style
        chosen = selection.value in self._selected
        segments[:3] = [Segment("[", text.style), Segment("✔" if chosen else " ", inner.style),
                        Segment("]", text.style)]
        return Strip(segments, line.cell_length)
