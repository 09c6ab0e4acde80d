"""Programs at seats, for the tests and the benchmark: `cardtable join CODE --stdio` run as a
process whose JSON lines are read by a thread, and a client that plays it as an engine would
(one command at a time, waiting for its answer)."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT = 60.0


class SeatProcess:
    """``cardtable --data-dir DATA join CODE --stdio``; ``messages`` fills as lines come."""

    def __init__(self, data: Path, code: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "--data-dir", str(data), "join", code, "--stdio"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.held: dict[str, Any] | None = None
        """A message read and not answered (``play`` stopped at it): the next ``next`` gives it."""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            message = json.loads(line)
            self.messages.append(message)
            self._queue.put(message)
        self._queue.put(None)

    def next(self, timeout: float = TIMEOUT) -> dict[str, Any] | None:
        """The next message (None once the output has ended)."""
        if self.held is not None:
            message, self.held = self.held, None
            return message
        return self._queue.get(timeout=timeout)

    def pending(self) -> list[dict[str, Any]]:
        """The messages already read and not yet taken, without waiting."""
        found = []
        while True:
            try:
                message = self._queue.get_nowait()
            except queue.Empty:
                return found
            if message is not None:
                found.append(message)

    def until(self, wanted: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read messages until one for which ``wanted(message)`` is true."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.0, deadline - time.monotonic()))
            assert message is not None, f"the output ended before the message wanted; stderr: {self.stderr()}"
            if wanted(message):
                return message

    def send(self, data: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)
        self.process.stdin.flush()

    def wait(self, timeout: float = TIMEOUT) -> int:
        code = self.process.wait(timeout)
        self._reader.join(timeout)
        return code

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def play(seat: SeatProcess, seed: int, refused: list[dict[str, Any]], stop_after: int | None = None) -> None:
    """Play the seat to the end (or until the game has ``stop_after`` moves) as a careful engine:
    a random legal command whenever it is awaited, then nothing more until that command's answer
    (a refusal, or a state that counts it). Refusals go to ``refused``."""
    rng = random.Random(seed)
    sent_at: int | None = None
    while True:
        message = seat.next()
        if message is None or message["type"] in ("over", "error"):
            return
        if message["type"] == "refused":
            refused.append(message)
            sent_at = None
            continue
        if sent_at is not None and message["moves"] <= sent_at:
            continue
        sent_at = None
        if stop_after is not None and message["moves"] >= stop_after:
            seat.held = message  # to answer when play goes on
            return
        if message["awaiting"] and message["legal"]:
            sent_at = message["moves"]
            seat.send(rng.choice(message["legal"]) + "\n")


def play_all(seats: list[SeatProcess], seed: int = 0, stop_after: int | None = None) -> list[dict[str, Any]]:
    """Each seat played by its own thread (as separate programs would); the refusals."""
    refused: list[dict[str, Any]] = []
    threads = [threading.Thread(target=play, args=(seat, seed + i, refused, stop_after), daemon=True)
               for i, seat in enumerate(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
        assert not thread.is_alive(), "a seat's client never finished"
    return refused
