"""A Footer that greys keys in place.

Textual's Footer rebuilds all its keys whenever the screen's bindings change, and the rebuild
costs a layout of the whole screen (about 50 ms on a full table). At a game table the common
change is only WHICH keys are legal (Play lights up once a red and a black card are picked),
so when the keys shown stay the same this Footer flips their enabled state and rebuilds
nothing."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class TableFooter(Footer):
    def bindings_changed(self, screen: Screen) -> None:
        keys = [key for key in self.query(FooterKey) if not key.has_class("-command-palette")]
        shown = self._shown(screen)
        if (self._bindings_ready and screen is self.screen and keys
                and [(key.action, key.description) for key in keys] == [s[:2] for s in shown]):
            for key, (_action, _description, enabled) in zip(keys, shown):
                if key._disabled == enabled:
                    key._disabled = not enabled
                    key.set_class(not enabled, "-disabled")
            return
        super().bindings_changed(screen)

    @staticmethod
    def _shown(screen: Screen) -> list[tuple[str, str, bool]]:
        """(action, description, enabled) of each key the Footer shows, as ``compose`` lists
        them: the first shown binding of each action, in order."""
        first: dict[str, tuple[str, str, bool]] = {}
        for _node, binding, enabled, _tooltip in screen.active_bindings.values():
            if binding.show and binding.action not in first:
                first[binding.action] = (binding.action, binding.description, enabled)
        return list(first.values())
