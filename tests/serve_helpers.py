"""`cardtable serve` started as a real process on a free loopback port, for the tests that
talk to it (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import os
import re
import selectors
import shlex
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until(process: subprocess.Popen, marker: bytes, seconds: float) -> bytes:
    """What ``process`` printed, up to ``marker``; fail if it ends or takes longer than ``seconds``."""
    seen = b""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while marker not in seen:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no {marker!r} within {seconds} s: {seen!r}")
            if selector.select(timeout=left):
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    pytest.fail(f"the server ended: {seen.decode(errors='replace')}")
                seen += chunk
    return seen


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    said: str
    """What the server printed once it listened."""

    @property
    def token(self) -> str:
        return re.search(r"\?token=([\w-]+)", self.said).group(1)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def serving(folder: Path, *arguments: str) -> Iterator[Served]:
    """`cardtable serve` on a free loopback port with its data and config in ``folder``, until
    the block ends (then stopped with Ctrl+C, or killed if it will not stop)."""
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", CARDTABLE_CONFIG_DIR=str(folder / "config"),
               XDG_DATA_HOME=str(folder / "xdg-data"), XDG_CONFIG_HOME=str(folder / "xdg-config"))
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "--data-dir", str(folder / "data"), "serve", "--port", str(port), *arguments],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        said = read_until(process, b"Press Ctrl+C to stop.", seconds=60).decode()
        yield Served(process, port, said)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        process.stdout.close()


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # ended meanwhile
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def until(condition, seconds: float, what: str):
    """Wait until ``condition()`` gives something true (looking again every 50 ms), and give
    it; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds} s: {what}")
        time.sleep(0.05)


class Tmux:
    """A terminal program run by tmux (a server of its own, on a socket in ``folder``): send it
    keys, read its screen."""

    def __init__(self, folder: Path, command: list[str], width: int = 100, height: int = 30) -> None:
        self.socket = str(folder / "tmux.sock")
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height),
                  # the pane stays once the program ends, to read what it said last
                  " ".join(shlex.quote(word) for word in command) + "; echo ENDED $?; sleep 600")

    def tmux(self, *arguments: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *arguments], check=True, capture_output=True,
                              text=True, timeout=30).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def send(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", "-t", "t", *(["-l"] if literal else []), *keys)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "t", "-x", str(width), "-y", str(height))

    def wait_for(self, text: str, seconds: float = 60) -> str:
        return until(lambda: text in (screen := self.screen()) and screen, seconds, f"{text!r} on the screen")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)
