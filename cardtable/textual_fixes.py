"""Mends for Textual's own bugs that cost a long game, applied once when the app is imported.

- StylesCache.get_inner_outer (textual/_styles_cache.py) is an ``lru_cache`` on a method, so
  its 1,024 keys hold the StylesCache of every widget drawn lately, each with that widget's
  rendered lines, long after the widget was removed (Textualize/textual#6665, open). A table
  replaces widgets at every move (the footer's keys): an Abundance match between bots kept
  about a thousand dead widgets' lines, several MiB more at its end than at its start. The two
  styles depend on the colours only: cached by them, the widgets go when they are removed.
"""

from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.style import Style


@lru_cache(1024)
def inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    """The inner and outer background styles, as StylesCache.get_inner_outer makes them."""
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> tuple[Style, Style]:
    return inner_outer(base_background, background)


def apply() -> None:
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign, assignment]
