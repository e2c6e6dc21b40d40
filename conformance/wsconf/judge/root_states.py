"""The root's state through a case, against the one pinned from the upstream (spec/states/).

After the workspace opens and after each step the root is observed (isolation/root_state.py) and
compared with the pinned state of that moment. Only what is new at a step is reported there (a
file that was never written is one difference, at the step that should have written it, not one
per later step), each with what it means:

    lost     an entry that was there and should have stayed as it was is gone or changed
    wrong    the step changed an entry as it should, but to something else (other bytes, a
             folder where a file should be, deleted where it should have been rewritten)
    missing  the step should have changed an entry and did not
    stray    the step made an entry that should not exist

Every observed change is also kept (`observed`), so `wsconf states pin` can pin a run's states.
"""
from __future__ import annotations

from ..isolation import root_state
from ..isolation.root_state import apply, delta, differences, entry_matches, kind, observe

MEANINGS = {
    "lost": "{kind} {path} should have stayed as it was, but {became}",
    "wrong": "{path} should have become {expected}, but {became}",
    "missing": "{path} should have become {expected}, but the step left it {before}",
    "stray": "{path} should not exist, but the step made {actual}",
}


def describe_entry(entry: str | None) -> str:
    if entry is None:
        return "absent"
    entry = entry.lstrip("?")
    if entry.startswith("f:"):
        _, size, digest = entry.split(":", 2)
        return f"a file of {size} bytes" + ("" if digest in ("*", root_state.UNREAD) else f" (sha256 {digest}…)")
    if entry.startswith("l:"):
        return f"a link to {entry[2:]}"
    return {"d": "a folder", "s": "a special file"}.get(entry, entry)


class RootStates:
    """The expected and actual states of one case's root, step by step."""

    def __init__(self, case, tree, capabilities):
        self.pinned = case.states  # None: the case has no pinned states; only observed
        self.tree = tree
        self.dirs = "empty_dirs" in capabilities
        self._hashed: dict = {}  # file entries by inode, size, mtime and ctime: an unchanged file is not read again
        self.actual = observe(tree.root, tree.values, self._hashed)  # the setup, as the harness laid it out
        self.expected = dict(self.actual)
        self.observed = {"setup": self.actual, "open": None, "steps": {}}
        self._known: dict[str, tuple] = {}  # differences already reported

    def after(self, step_id: str | None) -> list[dict]:
        """Observe the root after opening (step_id None) or after a step; the new differences."""
        before_actual, before_expected = self.actual, self.expected
        self.actual = observe(self.tree.root, self.tree.values, self._hashed)
        change = delta(before_actual, self.actual)
        if step_id is None:
            self.observed["open"] = change
        else:
            self.observed["steps"][step_id] = change
        if self.pinned is None:
            return []
        pinned = self.pinned["open"] if step_id is None else self.pinned["steps"].get(step_id)
        if pinned is None:
            return []  # a step the pins do not cover (added since): judged on its answer alone
        self.expected = apply(before_expected, pinned)
        found = differences(self.expected, self.actual, self.dirs)
        new = {p: d for p, d in found.items() if self._known.get(p) != d}
        self._known = found
        return [self._meaning(p, want, got, before_expected.get(p), before_actual.get(p))
                for p, (want, got) in new.items()]

    def skip(self, step_id: str) -> None:
        """A step that was not run (not judged): the expected state moves on, and what now differs
        because of it is not blamed on a later step."""
        pinned = (self.pinned or {}).get("steps", {}).get(step_id)
        if pinned is not None:
            self.expected = apply(self.expected, pinned)
            self._known = differences(self.expected, self.actual, self.dirs)

    @staticmethod
    def _meaning(path, want, got, want_before, got_before) -> dict:
        expected_change = want != want_before
        actual_change = not entry_matches(got_before, got) if got_before is not None else got is not None
        if not expected_change and got_before is not None and entry_matches(want, got_before):
            what = "lost"
        elif expected_change and not actual_change:
            what = "missing"
        elif want is None or (want or "").startswith("?"):
            what = "stray"
        else:
            what = "wrong"
        became = "it is " + describe_entry(got) if got is not None else "it was removed"
        text = MEANINGS[what].format(kind=kind(got_before), path=path, became=became, expected=describe_entry(want),
                                     before=describe_entry(got_before), actual=describe_entry(got))
        return {"path": path, "what": what, "expected": want, "actual": got, "text": text}
