"""AbortController / AbortSignal, as much as the workspace tools use: `aborted`, and listeners called once on abort."""
from __future__ import annotations

import threading


class AbortSignal:
    def __init__(self):
        self.aborted = False
        self._listeners: list = []
        self._lock = threading.Lock()

    def add_listener(self, listener) -> None:
        """addEventListener('abort', listener, {once: true})."""
        with self._lock:
            if not self.aborted:
                self._listeners.append(listener)
                return
        listener()

    def remove_listener(self, listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def abort(self) -> None:
        """AbortController.abort(): the signal is aborted and each listener runs once."""
        with self._lock:
            if self.aborted:
                return
            self.aborted = True
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            try:
                listener()
            except Exception:
                pass
