"""Every app test runs with a Match whose state no module of cardtable/ may read: the table
renders views and the events each seat may see, and asks legal/check; reading ``match.state``
from the app fails the test that did it (rules code and the tests themselves still may).

And a key typed behind another waits for it as long as it takes: the app lets such a key go
after half a second (``KEY_HOLD_MOST``), which a test on a machine busy with other work can
reach, so that the order of keys the tests assert would hang on the clock. One test sets that
bound low to show that it lets the key go (test_monkey.py)."""

from __future__ import annotations

import pytest

import cardtable.app
from rules.core.match import Match

from pilot_helpers import guarded_state


@pytest.fixture(autouse=True)
def app_never_reads_state(monkeypatch):
    monkeypatch.setattr(Match, "state", guarded_state(), raising=False)


@pytest.fixture(autouse=True)
def keys_wait_without_a_clock(monkeypatch):
    monkeypatch.setattr(cardtable.app, "KEY_HOLD_MOST", 600.0)
