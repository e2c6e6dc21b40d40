"""`Date.now()`: the runtime's clock in milliseconds, which the protocol may move forward.

The skills staleness check reads it (a 30 s cooldown, a 5 s glob re-resolve interval); capability
clock_control (spec/protocol.md `workspace`, method `clock.advance`) moves it forward so a case can
pass those intervals without waiting them out. File times are the real ones: only the clock moves.
"""
from __future__ import annotations

import time

_offset_ms = 0


def now() -> int:
    """Date.now(): whole milliseconds since the epoch (the real clock plus what was advanced)."""
    return time.time_ns() // 1_000_000 + _offset_ms


def advance(ms: int) -> None:
    global _offset_ms
    _offset_ms += ms


def reset() -> None:
    """Back to the real clock (a session's close: the next case starts unmoved)."""
    global _offset_ms
    _offset_ms = 0
