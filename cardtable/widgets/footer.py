"""The table's Footer: every key it shows stays visible, and keys are greyed in place.

Textual's Footer is one line: at 80 columns a game with many keys loses the last ones off the
edge. This Footer lays its keys out in as many lines as the width needs (one, where they fit).

Textual's Footer also rebuilds all its keys whenever the screen's bindings change, and the
rebuild costs a layout of the whole screen (about 50 ms on a full table). At a game table the
common change is only WHICH keys are legal (Play lights up once a red and a black card are
picked), or one key standing for another (Property's space selects a card, or gives the keys
back to the hand from the grid), so when the keys shown fall into the same lines this Footer
greys, lights or relabels the keys it has and rebuilds nothing.

When the keys do change, the rebuild is asked for once however many changes come before it
runs: Textual's Footer queues one rebuild per change, and bots playing at bot delay 0 change
the keys every move, so a match queued a thousand rebuilds that ran (and kept their keys'
widgets alive) long after the match had ended."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class TableFooter(Footer):
    DEFAULT_CSS = """
    TableFooter {
        layout: vertical;
        height: auto;
        & > .footer-row { height: 1; width: 1fr; }
    }
    """

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        rows = self._rows(self._entries(self.screen))
        self._row_count = len(rows)
        for row in rows:
            with HorizontalGroup(classes="footer-row"):
                for binding, enabled, tooltip in row:
                    yield self._compact(FooterKey(
                        binding.key, self.app.get_key_display(binding), binding.description,
                        binding.action, disabled=not enabled, tooltip=tooltip,
                    ))
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, tooltip = found
                yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description,
                                binding.action, classes="-command-palette", disabled=not enabled,
                                tooltip=binding.tooltip or binding.description)

    def _compact(self, key: FooterKey) -> FooterKey:
        """``key`` in the footer's style. Not by ``data_bind`` as Textual's Footer does: that
        leaves a watcher on the footer holding the key, and every rebuild leaked its keys
        (widgets, styles, caches: some 70 MiB over a match between bots)."""
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact")
        return key

    def watch_compact(self) -> None:
        if self.is_mounted:
            self._rebuild_once()

    @staticmethod
    def _entries(screen: Screen) -> list[tuple]:
        """(binding, enabled, tooltip) of each key shown: the first shown binding of each action."""
        first: dict[str, tuple] = {}
        for _node, binding, enabled, tooltip in screen.active_bindings.values():
            if binding.show and binding.action not in first:
                first[binding.action] = (binding, enabled, tooltip)
        return list(first.values())

    def _rows(self, entries: list[tuple]) -> list[list[tuple]]:
        """The keys in lines that each fit the width (the palette key takes the first line's end)."""
        width = self.size.width or self.app.size.width
        palette = 12 if self.show_command_palette else 0
        rows: list[list[tuple]] = [[]]
        used = palette
        for entry in entries:
            need = self._width_of(entry[0])
            if rows[-1] and used + need > width:
                rows.append([])
                used = 0
            rows[-1].append(entry)
            used += need
        return [row for row in rows if row] or [[]]

    def _width_of(self, binding) -> int:
        key = len(self.app.get_key_display(binding))
        description = len(binding.description)
        if self.compact:
            return key + (1 + description if description else 0) + 1
        return key + 2 + (description + 1 if description else 0)

    _rebuild_pending = False

    def _rebuild_once(self) -> None:
        """Rebuild the keys after the next refresh, once for every change asked until then."""
        if not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_pending = False
        await self.recompose()

    def on_resize(self, event: events.Resize) -> None:
        if self._bindings_ready and len(self._rows(self._entries(self.screen))) != getattr(self, "_row_count", 1):
            self._rebuild_once()

    def bindings_changed(self, screen: Screen) -> None:
        keys = [key for key in self.query(FooterKey) if not key.has_class("-command-palette")]
        if self._bindings_ready and screen is self.screen and keys and self._relabel(keys, self._entries(screen)):
            return
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._rebuild_once()

    def _relabel(self, keys: list[FooterKey], entries: list[tuple]) -> bool:
        """Show ``entries`` on the keys already there, when they fall into the same lines: a key
        greyed or lit, or another binding in a key's place (Property's space selects a card in
        the hand and gives the keys back from the grid). False when the keys must be rebuilt."""
        rows = [len(row.children) for row in self.query(".footer-row")]
        if len(keys) != len(entries) or rows != [len(row) for row in self._rows(entries)]:
            return False
        for key, (binding, enabled, tooltip) in zip(keys, entries):
            if (key.action, key.description, key.key) != (binding.action, binding.description, binding.key):
                # (another key of the same binding can stand for it, shown alike: Play's p, as ⏎,
                # while a focused widget takes enter)
                shown = self.app.get_key_display(binding)
                if (key.key_display, key.description) != (shown, binding.description):
                    # the same width is a repaint; another moves the keys after it (a layout, and
                    # a second one when Textual hears the key's new size)
                    same = cell_len(key.key_display + key.description) == cell_len(shown + binding.description)
                    key.refresh(layout=not same)
                key.key, key.action, key.description = binding.key, binding.action, binding.description
                key.key_display, key.tooltip = shown, tooltip or None
            if key._disabled == enabled:
                key._disabled = not enabled
                key.set_class(not enabled, "-disabled")
        return True
