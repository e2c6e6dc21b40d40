"""Which cases mostly wait, and the order xdist deals cases to workers so those waits overlap.

About 70 cases spend most of their time waiting (timeouts, sleeping commands, language servers),
one of them 15 s; with every case dealt in collection order the waits queue behind each other on
the `-n` workers. So a run with workers (i) starts some workers more than asked, for the waiting
cases (`--wsconf-wait-workers`, by default as many as the selected cases' waits need), and (ii) deals
the waiting cases to those first, longest first, one at a time to whichever is free, while the `-n`
workers take the other cases in chunks as xdist's `load` does (so the cores compute while the waits
run); whoever runs out takes from the rest. Only the order and the place a case runs change: each case still
runs alone in its own folders, and its outputs are the same.

How long a case waits comes from waits.json beside this module, measured on wsref and @mastra/core
(`python -m tools.bench.waits` rewrites it from results files), and for a case it lacks from the
last run of the same implementation (kept in the cache folder).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

from xdist.scheduler import LoadScheduling

from ..spec.cache import _cache_dir

WAITING = 0.15          # seconds: a case estimated at least this long is dealt as a waiting case
MAX_WAIT_WORKERS = 6    # more would spend more CPU starting up than the waits they overlap
SHIPPED = Path(__file__).with_name("waits.json")
KEEP = 32               # learned files kept in the cache folder


def shipped_estimates() -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(SHIPPED.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _learned_file(adapter: str) -> Path | None:
    """The last run's durations for this --adapter (its name as given, and a hash: cmd: lines are long)."""
    folder = _cache_dir()
    if folder is None:
        return None
    safe = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in adapter)[:40]
    return folder / f"waits-{safe}-{hashlib.sha256(adapter.encode()).hexdigest()[:10]}.json"


def estimates(adapter: str | None) -> dict[str, float]:
    """Seconds each case is expected to take: the shipped measurements, and for a case they lack
    (a new case, or one only this implementation is slow at) what its last run measured. The shipped
    ones win: a run on a loaded machine measured an lsp case at 26 s instead of 1.3 s, and dealing by
    that would add workers the next run, whose CPU makes its cases slower still."""
    known: dict[str, float] = {}
    path = _learned_file(adapter) if adapter else None
    if path is not None:
        try:
            learned = json.loads(path.read_text(encoding="utf-8"))
            known.update({str(k): float(v) for k, v in learned.items()})
        except (OSError, ValueError, AttributeError, TypeError):
            known = {}  # no earlier run, or a damaged file: the shipped measurements
    known.update(shipped_estimates())
    return known


def remember(adapter: str | None, records: list[dict]) -> None:
    """After a run: each case's duration, for the next run of the same implementation to deal by.
    Cases this run did not select keep what an earlier run measured. Problems are ignored (the
    file only changes the order cases start in)."""
    path = _learned_file(adapter) if adapter else None
    if path is None or not records:
        return
    try:
        learned = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if not isinstance(learned, dict):
            learned = {}
        for record in records:
            if not record.get("fresh") and isinstance(record.get("duration"), (int, float)):
                learned[record["id"]] = round(float(record["duration"]), 3)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(learned, sort_keys=True), encoding="utf-8")
        os.replace(temporary, path)
        for stale in sorted(path.parent.glob("waits-*.json"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
            stale.unlink(missing_ok=True)  # the oldest go: every cmd: line a test runs has its own
    except (OSError, ValueError, TypeError):
        pass


def wait_workers(workers: int, waits: list[float]) -> int:
    """How many workers to add to `workers` so the waiting cases' waits overlap: enough that no worker
    holds much more waiting than the longest case, at most MAX_WAIT_WORKERS; none when they wait
    little in all. Not more: a worker costs CPU to start (about 1 s for the reference, 3.5 s for the
    upstream confined, its bridge included), which a run on 2 cores pays in wall time too."""
    waiting = [w for w in waits if w >= WAITING]
    total = sum(waiting)
    if workers < 1 or total < 2.0:
        return 0
    needed = math.ceil(total / max(waiting))  # workers enough that none waits much longer than the longest case
    return max(0, min(MAX_WAIT_WORKERS, needed - workers))


def case_id(nodeid: str) -> str:
    return nodeid.rpartition("::")[2]


class WaitsFirstScheduling(LoadScheduling):
    """xdist's `load` scheduling, with the waiting cases dealt first (see the module's docstring)."""

    def __init__(self, config, log=None, estimate: dict[str, float] | None = None, wait_workers: int = 0):
        super().__init__(config, log)
        self.estimate = estimate or {}
        self.wait_workers = wait_workers  # the last ones xdist starts (gw<N>...): the others compute first
        self.waiting: frozenset[int] = frozenset()  # the collection's indices of the waiting cases

    def _takes_waiting_first(self, node) -> bool:
        """A wait worker takes the waiting cases first; with wait workers, the -n workers take the
        others first, so the cores compute while the waits run (every worker does, without them)."""
        if not self.wait_workers:
            return True
        try:
            number = int(str(node.gateway.id).removeprefix("gw"))
        except (AttributeError, ValueError):
            return True
        return number >= self.numnodes - self.wait_workers

    def schedule(self) -> None:
        first = self.collection is None
        if first and self.collection_is_completed and self.node2collection \
                and self._check_nodes_have_same_collection():
            collection = next(iter(self.node2collection.values()))
            indices = range(len(collection))
            waiting = sorted((i for i in indices if self.estimate.get(case_id(collection[i]), 0.0) >= WAITING),
                             key=lambda i: (-self.estimate[case_id(collection[i])], i))
            if not waiting:
                return super().schedule()  # nothing waits: xdist's own dealing, first chunks and all
            self.collection = collection
            self.waiting = frozenset(waiting)  # looked up on every refill: worked out once
            self.pending[:] = waiting + [i for i in indices if i not in self.waiting]
            if self.maxschedchunk is None:
                self.maxschedchunk = len(self.collection)
            if not self.collection:
                return
            for node in self.nodes:
                self.check_schedule(node)
            return
        super().schedule()

    def _is_waiting(self, index: int) -> bool:
        return index in self.waiting

    def _first(self, waiting: bool) -> int | None:
        """The position in pending of the first waiting (or not waiting) case."""
        return next((k for k, index in enumerate(self.pending) if self._is_waiting(index) == waiting), None)

    def check_schedule(self, node, duration: float = 0) -> None:
        """While waiting cases are left: a worker that takes them first has its queue filled to the two
        items xdist needs (it runs one when it holds the next), alternating a waiting case and another,
        so a waiting case starts as soon as it is dealt and never queues behind another; a -n worker
        beside wait workers takes the other cases in xdist's `load` chunks while any are left. Then
        xdist's `load` chunks for every worker."""
        if node.shutting_down:
            return
        queue = self.node2pending[node]
        if self._first(True) is not None and not self._takes_waiting_first(node) and self._first(False) is not None:
            self._send_others(node)
            return
        while len(queue) < 2 and self._first(True) is not None:
            after_waiting = bool(queue) and self._is_waiting(queue[-1])
            position = self._first(not after_waiting)
            if position is None:
                position = self._first(True)
            index = self.pending.pop(position)
            queue.append(index)
            node.send_runtest_some([index])
        if self._first(True) is None:
            super().check_schedule(node, duration)

    def _send_others(self, node) -> None:
        """As xdist's `load` refills a worker, from the cases that do not wait."""
        others = [index for index in self.pending if not self._is_waiting(index)]
        queue = self.node2pending[node]
        least = max(2, len(others) // len(self.node2pending) // 4)
        most = max(2, len(others) // len(self.node2pending) // 2)
        if len(queue) >= least:
            return
        chunk = others[:max(most - len(queue), 2 - len(queue))]
        taken = set(chunk)
        self.pending[:] = [index for index in self.pending if index not in taken]
        queue.extend(chunk)
        node.send_runtest_some(chunk)
