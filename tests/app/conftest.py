"""Every app test runs with a Match whose state no module of cardtable/ may read: the table
renders views and the events each seat may see, and asks legal/check; reading ``match.state``
from the app fails the test that did it (rules code and the tests themselves still may)."""

from __future__ import annotations

import sys

import pytest

from rules.core.match import Match


def _guarded_state() -> property:
    def get(match: Match):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller == "cardtable" or caller.startswith("cardtable."):
            raise AssertionError(f"{caller} read a game's state: the app may only use views")
        return match.__dict__["_guarded_state"]

    def set_(match: Match, value) -> None:
        match.__dict__["_guarded_state"] = value

    return property(get, set_)


@pytest.fixture(autouse=True)
def app_never_reads_state(monkeypatch):
    monkeypatch.setattr(Match, "state", _guarded_state(), raising=False)
