"""A screen's frames paced from the last one drawn.

Textual draws a screen on a timer of 60 ticks a second, paused while nothing changes. Resumed,
it skips the ticks it missed in a way that puts the next one one to two periods ahead (17 to 33
ms): a key whose effect reaches the screen in two parts (the hand at once, the line the
selection changes a message later) had its second part drawn up to 33 ms after the key. This
timer ticks at once when resumed after a frame more than a period old, and otherwise one
period after that frame: the same 60 frames a second at most, none later than it must be.
"""

from __future__ import annotations

from textual import _time
from textual.timer import EventTargetGone, Timer


class FrameTimer(Timer):
    """Timer's ``_run`` paced from the last tick (see the module docstring)."""

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
            self._reset = False
            last = _time.get_time()
            count += 1
            try:
                await self._tick(next_timer=last, count=count)
            except EventTargetGone:
                break
