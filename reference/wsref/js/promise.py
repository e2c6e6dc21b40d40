"""A settled Promise, as far as the workspace awaits config functions: `await value(context)`.

A host function standing for an async function returns one; resolveDynamicValue awaits it."""
from __future__ import annotations


class Promise:
    def __init__(self, value=None, error: BaseException | None = None):
        self.value, self.error = value, error

    def settle(self):
        """`await promise`: the value, or the rejection raised."""
        if self.error is not None:
            raise self.error
        return self.value
