"""Mends for Textual's own bugs that cost a long game, applied once when the app is imported.

- StylesCache.get_inner_outer (textual/_styles_cache.py) is an ``lru_cache`` on a method, so
  its 1,024 keys hold the StylesCache of every widget drawn lately, each with that widget's
  rendered lines, long after the widget was removed (Textualize/textual#6665, open). A table
  replaces widgets at every move (the footer's keys): an Abundance match between bots kept
  about a thousand dead widgets' lines, several MiB more at its end than at its start. The two
  styles depend on the colours only: cached by them, the widgets go when they are removed.
- OptionList._move_page (PageUp/PageDown) looks up the highlighted option's line before the
  list has been laid out (the command palette's list, a key after ctrl+p in the same read from
  the terminal): it has no lines yet, and the KeyError ended the app (found by the monkey,
  tests/monkey.py). Its own scroll_to_highlight lets the same lookup pass; so does the page
  move now: a list with no lines yet has no page to move by.
- CommandPalette searches again on every change of its input, even one that reaches it after
  it was dismissed (a key typed as the chosen command closes it): the search found the palette
  with its parts taken down, and its NoMatches ended the app (found by the monkey). A palette
  no longer on the screen stack has nothing to search for. A search already under way when
  the palette closes goes on until the palette's own removal stops it, after its parts have
  gone: what it then finds missing ends the search, not the app (the monkey again, a slow
  search for a long paste).
- CommandPalette, when mounted, takes the screen under it from the stack: one taken off the
  stack before its Mount came (ctrl+p, and in the same moment the way back to the menu, which
  pops every screen) found none there, and the IndexError ended the app (found by the
  monkey). A palette no longer on the stack has nothing to set up.
- Screen.dismiss pops the top screen, whichever screen it is (only the top one should call
  it: Textualize/textual#2575): a question answered by a key already on its way when ctrl+p
  put the palette over it closed the palette instead (found by the monkey); answered No, it
  stayed on the stack, where no key could answer it again. Only the screen on top leaves the
  stack; a screen under another is answered once it is on top again.
"""

from __future__ import annotations

from functools import lru_cache

from textual import work
from textual._styles_cache import StylesCache
from textual.await_complete import AwaitComplete
from textual.color import Color
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.style import Style
from textual.widgets import OptionList

_move_page = OptionList._move_page
_gather_commands = CommandPalette._gather_commands.__wrapped__  # the search, inside its @work
_palette_on_mount = CommandPalette._on_mount
_dismiss = Screen.dismiss


@lru_cache(1024)
def inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    """The inner and outer background styles, as StylesCache.get_inner_outer makes them."""
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> tuple[Style, Style]:
    return inner_outer(base_background, background)


def _move_page_when_laid_out(self: OptionList, direction) -> None:
    if (self.highlighted or 0) in self._index_to_line:
        _move_page(self, direction)


@work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
async def _gather_commands_until_closed(self: CommandPalette, search_value: str) -> None:
    try:
        await _gather_commands(self, search_value)
    except NoMatches:
        if self in self.app.screen_stack:
            raise


def _gather_commands_while_open(self: CommandPalette, search_value: str):
    if self in self.app.screen_stack:
        return _gather_commands_until_closed(self, search_value)
    return None


def _palette_on_mount_while_open(self: CommandPalette, event) -> None:
    if self in self.app.screen_stack:
        _palette_on_mount(self, event)


def on_top(screen: Screen) -> bool:
    """Whether ``screen`` is the top of the app's screen stack (the one keys go to)."""
    stack = screen.app.screen_stack
    return bool(stack) and stack[-1] is screen


def _dismiss_from_the_top(self: Screen, result=None) -> AwaitComplete:
    if on_top(self):
        return _dismiss(self, result)
    return AwaitComplete.nothing()


def apply() -> None:
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign, assignment]
    OptionList._move_page = _move_page_when_laid_out  # type: ignore[method-assign]
    CommandPalette._gather_commands = _gather_commands_while_open  # type: ignore[method-assign]
    CommandPalette._on_mount = _palette_on_mount_while_open  # type: ignore[method-assign]
    Screen.dismiss = _dismiss_from_the_top  # type: ignore[method-assign]
