"""A minimal AbortSignal: what an agent run hands its tools (`context.abortSignal`) so a command can be killed."""
from __future__ import annotations

import threading


class AbortSignal:
    def __init__(self):
        self.aborted = False
        self._listeners: list = []
        self._lock = threading.Lock()

    def add_listener(self, fn) -> None:
        """fn() runs once on abort (at once when already aborted)."""
        with self._lock:
            if not self.aborted:
                self._listeners.append(fn)
                return
        fn()

    def abort(self) -> None:
        with self._lock:
            if self.aborted:
                return
            self.aborted = True
            listeners, self._listeners = self._listeners, []
        for fn in listeners:
            try:
                fn()
            except Exception:  # noqa: BLE001 - a failing listener does not stop the others
                pass
