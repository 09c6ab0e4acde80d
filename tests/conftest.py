"""Every test runs with platformdirs pointed at a temporary folder: no test touches the real
user data or config dirs."""

from __future__ import annotations

import gc
import os

import pytest


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CARDTABLE_DATA_DIR", raising=False)
    monkeypatch.delenv("CARDTABLE_CONFIG_DIR", raising=False)
    return tmp_path


def pytest_collection_finish(session):
    # A worker runs a thousand tests in one process: what they leave alive (modules, caches,
    # Textual's classes) makes each full collection slower. Collected once, those objects are
    # kept out of every later collection, and the young generation is collected less often
    # (the tests make short-lived objects by the million).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def pytest_xdist_auto_num_workers(config):
    # one worker more than the cores: a fifth of a worker's time is spent waiting (for a frame,
    # a process it started, a socket), and the extra worker's tests run meanwhile (on two slow
    # cores the suite took 10 min 44 s with two workers, 9 min 36 s with three)
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1
