"""Every test runs with platformdirs pointed at a temporary folder: no test touches the real
user data or config dirs."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CARDTABLE_DATA_DIR", raising=False)
    monkeypatch.delenv("CARDTABLE_CONFIG_DIR", raising=False)
    return tmp_path
