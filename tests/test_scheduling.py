"""The waiting cases are dealt first, longest first, one per free worker, never queued behind another
waiting case while other cases are left; every case is dealt once; the wait workers are added by
what the selected cases wait; the durations a run measured are what the next run deals by."""
from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from wsconf.session import scheduling
from wsconf.session.scheduling import WaitsFirstScheduling, wait_workers


class Node:
    """A worker as the scheduler sees it: what it was sent, and whether it was told to stop."""

    def __init__(self, name):
        self.name, self.sent, self.shutting_down = name, [], False
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices):
        self.sent.extend(indices)

    def shutdown(self):
        self.shutting_down = True

    def __repr__(self):
        return self.name


def config(workers: int):
    options = {"tx": ["popen"] * workers, "maxschedchunk": None, "dist": "load"}
    return SimpleNamespace(getvalue=options.get, getoption=options.get)


def scheduler(collection, estimate, workers=3, wait_workers=0):
    sched = WaitsFirstScheduling(config(workers), estimate=estimate, wait_workers=wait_workers)
    nodes = [Node(f"gw{i}") for i in range(workers)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    return sched, nodes


def run_to_end(sched, nodes) -> list[tuple[str, int]]:
    """Finish, in turn, the first queued item of each worker holding two or more (what xdist's
    worker runs: it runs an item when it holds the next one), until every queue is empty; the order
    items started in, with the worker that ran each."""
    started = []
    while sched.has_pending:
        progressed = False
        for node in nodes:
            queue = sched.node2pending.get(node, [])
            if len(queue) >= 2 or (queue and node.shutting_down):
                started.append((node.name, queue[0]))
                sched.mark_test_complete(node, queue[0])
                progressed = True
        assert progressed, f"no worker can run: {sched.node2pending}"
    return started


def test_waiting_cases_start_first_longest_first_each_on_a_free_worker():
    collection = [f"f.yaml::c{i}" for i in range(40)]
    estimate = {"c5": 15.0, "c30": 3.0, "c12": 1.5, "c39": 0.5, "c2": 0.2, "c3": 0.01}
    sched, nodes = scheduler(collection, estimate)
    # each worker holds one waiting case, running, and one other case behind it
    assert [sched.node2pending[n] for n in nodes] == [[5, 0], [30, 1], [12, 3]]
    started = run_to_end(sched, nodes)
    order = [index for _, index in started]
    assert sorted(order) == list(range(40))  # every case once
    waiting = [i for i in order if collection[i].split("::")[1] in estimate and estimate[collection[i].split("::")[1]] >= 0.15]
    assert waiting == [5, 30, 12, 39, 2]
    # no waiting case ran right after another on the same worker while others were left
    by_worker = {}
    for name, index in started:
        by_worker.setdefault(name, []).append(index)
    for indices in by_worker.values():
        for before, after in zip(indices, indices[1:]):
            assert not (before in waiting and after in waiting), (indices, waiting)
    assert all(node.shutting_down for node in nodes)


def test_beside_wait_workers_the_n_workers_compute_first():
    """-n 2 and two wait workers: gw0 and gw1 start on the cases that do not wait, in chunks; gw2 and
    gw3 on the waiting ones, longest first; every case runs once, and the -n workers take a waiting
    case only when no other is left."""
    collection = [f"f.yaml::c{i}" for i in range(60)]
    estimate = {"c5": 15.0, "c30": 3.0, "c12": 1.5, "c39": 0.5, "c2": 0.2, "c50": 0.3}
    waiting = {5, 30, 12, 39, 2, 50}
    sched, nodes = scheduler(collection, estimate, workers=4, wait_workers=2)
    queues = [list(sched.node2pending[n]) for n in nodes]
    assert not waiting & set(queues[0] + queues[1]) and len(queues[0]) >= 2 and len(queues[1]) >= 2
    assert queues[2][0] == 5 and queues[3][0] == 30
    started = run_to_end(sched, nodes)
    assert sorted(i for _, i in started) == list(range(60))
    for name in ("gw0", "gw1"):  # on a -n worker, a waiting case comes only after all its others
        kinds = [i in waiting for n, i in started if n == name]
        assert kinds == sorted(kinds), (name, kinds)


def test_without_waiting_cases_it_deals_as_xdist_load_does():
    from xdist.scheduler import LoadScheduling
    collection = [f"f.yaml::c{i}" for i in range(40)]
    ours, our_nodes = scheduler(collection, {"c1": 0.1})
    theirs = LoadScheduling(config(3))
    nodes = [Node(f"gw{i}") for i in range(3)]
    for node in nodes:
        theirs.add_node(node)
        theirs.add_node_collection(node, collection)
    theirs.schedule()
    assert [n.sent for n in our_nodes] == [n.sent for n in nodes]


def test_a_crashed_worker_gives_its_waiting_cases_back():
    collection = [f"f.yaml::c{i}" for i in range(10)]
    sched, nodes = scheduler(collection, {"c0": 5.0, "c1": 4.0, "c2": 3.0, "c3": 2.0}, workers=2)
    assert sched.node2pending[nodes[0]] == [0, 4]
    crashed = sched.remove_node(nodes[0])
    assert crashed == "f.yaml::c0"
    started = run_to_end(sched, nodes[1:])
    assert sorted(i for _, i in started) == [1, 2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("workers, waits, added", [
    (2, [15.0, 3.0, 3.0, 2.0, 1.5] + [0.5] * 70 + [0.01] * 1800, 2),   # the suite: ceil(59.5/15) - 2
    (2, [0.01] * 1800, 0),            # nothing waits
    (2, [1.0, 0.5], 0),               # waits too little to pay a worker's start
    (1, [2.0] * 30, 6),               # many equal waits: at most MAX_WAIT_WORKERS
    (8, [15.0, 3.0, 3.0], 0),         # enough workers already
])
def test_wait_workers_follow_what_the_selected_cases_wait(workers, waits, added):
    assert wait_workers(workers, waits) == added


def test_a_run_remembers_its_durations_for_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("WSCONF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(scheduling, "SHIPPED", tmp_path / "shipped.json")
    (tmp_path / "shipped.json").write_text(json.dumps({"a": 1.0, "b": 2.0}))
    assert scheduling.estimates("cmd:./port --x") == {"a": 1.0, "b": 2.0}
    scheduling.remember("cmd:./port --x", [{"id": "b", "duration": 30.0}, {"id": "c", "duration": 0.01},
                                           {"id": "fresh.x", "duration": 9.0, "fresh": True}])
    # the shipped measurement wins (b); a case it lacks is dealt by the last run (c)
    assert scheduling.estimates("cmd:./port --x") == {"a": 1.0, "b": 2.0, "c": 0.01}
    assert scheduling.estimates("reference") == {"a": 1.0, "b": 2.0}  # another adapter's runs are its own
    learned = list(tmp_path.glob("waits-*.json"))
    assert len(learned) == 1 and learned[0].name.startswith("waits-cmd_._port_--x-")
    learned[0].write_text("[not an object")  # a damaged file: the shipped measurements
    assert scheduling.estimates("cmd:./port --x") == {"a": 1.0, "b": 2.0}


def test_the_shipped_measurements_name_cases_of_the_spec():
    from wsconf.spec.loader import load_spec
    from wsconf.spec.resources import data_path
    ids = {case.id for case in load_spec(data_path("spec")).cases}
    shipped = scheduling.shipped_estimates()
    assert len(shipped) > 50 and set(shipped) <= ids, sorted(set(shipped) - ids)
    assert min(shipped.values()) >= scheduling.WAITING


WAITING = ["execute_command.timeout.integer_string", "execute_command.upstream_abort.background_signal_disabled",
           "get_process_output.exited.no_output_wait_while_running_keeps_one_read"]


def wsconf_run(tmp_path, *options: str) -> subprocess.CompletedProcess:
    import os
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(WAITING) + "\nread_file.binary.zip_metadata\n")
    return subprocess.run([sys.executable, "-m", "wsconf.cli", "run", "-n", "1", "--ids", str(ids), "--fresh", "0",
                           "--results", str(tmp_path / "r.jsonl"), *options], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "WSCONF_CACHE_DIR": str(tmp_path / "cache"),
                                                     "WSCONF_WAIT_WORKERS": "auto"})


def test_wait_workers_are_counted_over_the_cases_the_implementation_runs(tmp_path):
    """Auto, on a first run (no learned durations): three commands that wait make the workers the
    shipped measurements ask for; with only read_file implemented they are unsupported, wait
    nothing, and no worker is added."""
    shipped = scheduling.shipped_estimates()
    added = wait_workers(1, [shipped[case] for case in WAITING])
    assert added >= 1
    done = wsconf_run(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"workers:        1 (-n), and {added} more for the cases that mostly wait" in done.stdout, done.stdout[:3000]
    done = wsconf_run(tmp_path, "--tools", "read_file")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "workers:        1 (-n), and 0 more for the cases that mostly wait" in done.stdout, done.stdout[:3000]


def test_a_run_with_workers_adds_its_wait_workers_and_says_so(tmp_path):
    """Three waiting cases and one other, -n 1 with two wait workers: three workers, the same outcomes."""
    results = tmp_path / "r.jsonl"
    done = wsconf_run(tmp_path, "--wait-workers", "2")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "workers:        1 (-n), and 2 more for the cases that mostly wait" in done.stdout, done.stdout[:3000]
    records = [json.loads(line) for line in results.read_text().splitlines()[1:-1]]
    assert sorted((r["id"], r["outcome"]) for r in records) == sorted(
        [(case, "passed") for case in WAITING] + [("read_file.binary.zip_metadata", "passed")])
    learned = json.loads(next((tmp_path / "cache").glob("waits-reference-*.json")).read_text())
    assert set(learned) == {r["id"] for r in records}
