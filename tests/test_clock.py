"""Capability clock_control on the reference: clock.advance moves Date.now(), a session's close puts it back."""
from __future__ import annotations

import time

from wsref.js import date
from wsref.server.protocol import open_session


def test_advance_moves_the_clock_until_the_session_closes(tmp_path):
    session = open_session(str(tmp_path), str(tmp_path), {"skills": ["skills"]})
    assert not isinstance(session, dict), session  # an error Result when the workspace cannot be built
    before = time.time_ns() // 1_000_000
    assert session.workspace_call("clock.advance", [30_000]) == {"kind": "value", "value": None, "model": None}
    assert date.now() - before >= 30_000
    bad = session.workspace_call("clock.advance", [-1])
    assert bad["kind"] == "error" and "non-negative whole number" in bad["message"]
    session.close()
    assert date.now() - (time.time_ns() // 1_000_000) < 1_000
