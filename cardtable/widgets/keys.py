"""Which bindings a key pressed on a screen would reach, for the screens that say a word about a
key nothing uses (the table, a dialog). Read from Textual's modal binding chain, a private
attribute: read here only, so that a change of Textual's has one place to mend."""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen


def bindings_for(screen: Screen, key: str) -> list[tuple[DOMNode, Binding]]:
    """The (node, binding) pairs bound to ``key`` from the focused widget up to the screen and
    the app, as they would be tried, stopping at a modal screen as Textual does."""
    return [(node, binding) for node, bindings in screen._modal_binding_chain
            for binding in bindings.key_to_bindings.get(key, ())]
