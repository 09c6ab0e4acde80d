"""A screen's frames paced from the last one drawn, each drawn once the change is whole.

Textual draws a screen on a timer of 60 ticks a second, paused while nothing changes. Resumed,
it skips the ticks it missed in a way that puts the next one one to two periods ahead (17 to 33
ms): a key whose effect reaches the screen in two parts (the hand at once, the line the
selection changes a message later) had its second part drawn up to 33 ms after the key. This
timer ticks at once when resumed after a frame more than a period old, and otherwise one
period after that frame: the same 60 frames a second at most, none later than it must be.

Ticking at once, it drew a key's first part alone: the hand's cards are repainted a message
before the table hears that the selection changed (a message bubbles up through each parent's
queue), so the table's answer (Property's preview line, the card line under a Card Stock
Market hand) came a whole period later in a frame of its own. Given ``settled`` (True when no
message waits in the screen's queues), a tick first lets the messages already sent run, for at
most a period: a key's parts are drawn together, in one frame, within a few milliseconds.
The screen's callbacks "after refresh" wait for that frame too (``due``): the screen going
idle while it settles is not a refresh.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from textual import _time
from textual.timer import EventTargetGone, Timer


class FrameTimer(Timer):
    """Timer's ``_run`` paced from the last tick (see the module docstring)."""

    settle_periods = 1
    """How long a frame waits at most for the messages already sent, in periods."""

    def __init__(self, *args, settled: Callable[[], bool] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._settled = settled

    @property
    def due(self) -> bool:
        """A frame is on its way: resumed and not yet drawn."""
        return self._active.is_set()

    async def _run(self) -> None:
        self._active  # noqa: B018 — made on this thread, as Timer does
        await self._active.wait()
        last: float | None = None
        count = 0
        while self._repeat is None or count <= self._repeat:
            if last is not None:
                wait = last + self._interval - _time.get_time()
                if wait > 0:
                    await _time.sleep(wait)
            await self._active.wait()
            await self._settle()
            self._reset = False
            last = _time.get_time()
            count += 1
            try:
                await self._tick(next_timer=last, count=count)
            except EventTargetGone:
                break

    async def _settle(self) -> None:
        """Let the messages waiting to be handled run first, for at most a period."""
        if self._settled is None:
            return
        give_up = _time.get_time() + self._interval * self.settle_periods
        # sleep(0) hands the loop to every task that has a message to handle, once
        while not self._settled() and _time.get_time() < give_up:
            await asyncio.sleep(0)
