"""Every app test runs with a Match whose state no module of cardtable/ may read: the table
renders views and the events each seat may see, and asks legal/check; reading ``match.state``
from the app fails the test that did it (rules code and the tests themselves still may)."""

from __future__ import annotations

import pytest

from rules.core.match import Match

from pilot_helpers import guarded_state


@pytest.fixture(autouse=True)
def app_never_reads_state(monkeypatch):
    monkeypatch.setattr(Match, "state", guarded_state(), raising=False)
