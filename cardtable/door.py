"""The door of `cardtable serve` for players who hold only a join code (over SSH, or at the join
page in a browser): a code checked in the store for a source address, slowed per address.

The store's ``Throttle`` says how long an address must wait after its wrong codes. Here the
checks of one address also take turns: without that, a guesser opening many connections at once
would have them all waited for together, and checked together. Pure asyncio (no SSH, no web).
"""

from __future__ import annotations

import asyncio

from .store import CodeError, Joined, SaveStore

__all__ = ["CodeError", "Door"]


class Door:
    """Checks join codes against ``store`` for the servers of one `cardtable serve`."""

    def __init__(self, store: SaveStore) -> None:
        self.store = store
        self._turns: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}

    async def check(self, code: object, source: str | None) -> Joined:
        """What ``code`` opens, after the wait the store's throttle sets for ``source``; CodeError
        in a sentence when it opens nothing (that failure lengthens the next wait), OSError when
        the store cannot be read."""
        key = source or ""
        turn = self._turns.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with turn:
                delay = self.store.throttle.delay(source)
                if delay > 0:
                    await asyncio.sleep(delay)
                # a thread: a store busy with another screen's write must not stop the servers
                return await asyncio.to_thread(self.store.join, code, source)
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:  # nobody else from there: memory stays bounded
                del self._waiting[key], self._turns[key]
