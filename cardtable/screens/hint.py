"""The table's hint key (``i``): the expert's three best commands for the player to act.

A mixin of TableScreen, so that the table's own file keeps only the key, its state in the footer
and its reason. Hints are a setting of the game (the new-game screen; the store keeps it with the
game); where they are off the key is greyed and says so when pressed. The panel gets the viewer's
view and legal commands, as a bot gets them, and thinks in a worker (cardtable/hints.py); the
command chosen is checked and played like a typed one, so undo takes it back as usual. A panel
open when the game moves on (another screen's move, a bot's answer in a sealed round) is closed
before anything else is drawn: a hint is only ever for the position and the seat it was asked in.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import Command
from rules.core.words import join_names, players, say

from ..hints import ROUNDS, Round
from ..widgets.hint_panel import HintPanel

HINTS_OFF = ("Hints are off in this game: they are set at the new-game screen, for each game "
             "(on by default when one person plays, off when several do).")


class HintKey:
    """What TableScreen adds for hints (``self`` is the table)."""

    HINT_ROUNDS: ClassVar[tuple[Round, ...]] = ROUNDS
    """The hint's rounds (tests give iteration budgets, for answers that do not depend on the machine)."""

    _hint_panel: HintPanel | None = None

    @staticmethod
    def _hints_stored(store: Any, game_id: str | None) -> bool:
        """Whether the store has hints on for ``game_id`` (off when it cannot say)."""
        hints = getattr(store, "hints", None)  # a stand-in store (tests) may keep no settings
        if hints is None or game_id is None:
            return False
        try:
            return bool(hints(game_id))
        except (OSError, LookupError):
            return False

    def why_no_hint(self) -> str:
        if not self.hints:
            return HINTS_OFF
        if self.viewer is None:
            return "No player's hand is on the table: a hint is for the player to act, at their move."
        if not self.my_turn:
            waiting = join_names(players(self.match.names, sorted(self.match.awaiting)))
            return str(say("A hint is for the player to act: the game is waiting for {}.", waiting))
        return "You have no move to make now: there is nothing to hint."

    def action_hint(self, over: Any = None) -> None:
        """The hint for the viewer; ``over``: the dialog it opens over (closed if the hint's move
        is played)."""
        match, seat = self.match, self.viewer
        if seat is None or not self.hints or not self.my_turn:
            return
        stamp = (len(match.history), match.awaiting, seat)
        self.command_bar.close()
        panel = HintPanel(match.names[seat], match.spec, match.view(seat), match.legal(seat), match.format,
                          f"{match.seed}/{len(match.history)}/{seat}", self.HINT_ROUNDS,
                          four_colour=self.settings.four_colour)
        self._hint_panel = panel
        self.app.push_screen(panel, lambda command: self._hint_chosen(stamp, command, over))

    def _hint_chosen(self, stamp: tuple, command: Command | None, over: Any = None) -> None:
        self._hint_panel = None
        match = self.match
        if command is None or not self.is_attached:
            return
        if (len(match.history), match.awaiting, self.viewer) != stamp:
            self.notify("The game moved on while the hint was open: nothing was played.", title="Hint",
                        severity="warning", timeout=5, markup=False)
            return
        reason = self.refusal(command)
        if reason is not None:
            self.notify(str(reason), severity="error", title="Not allowed", markup=False)
            return
        if over is not None and self.app.screen is over:
            over.dismiss(None)  # the hint's move is played in the dialog's place
        self.submit(command)

    def _close_hint(self) -> None:
        """Close an open hint: the game has moved on from the position it was asked at."""
        panel, self._hint_panel = self._hint_panel, None
        if panel is not None and self.app.screen is panel:
            panel.dismiss(None)
