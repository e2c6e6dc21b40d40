"""The ordering of the project's own tests under -n (tests/conftest.py): the long ones lead the
shares xdist's worksteal hands out, as a worker collects them (where numprocesses is None)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

import conftest


def item(name, seconds=None):
    marks = {conftest.LONG: pytest.mark.long_running(seconds).mark} if seconds else {}
    return SimpleNamespace(name=name, get_closest_marker=marks.get)


def ordered(config, items):
    conftest.pytest_collection_modifyitems(config, items)
    return [i.name for i in items]


def collection():
    return [item("a"), item("b"), item("x", 100), item("c"), item("d"), item("y", 300), item("e"), item("z", 150)]


def test_a_worker_puts_the_long_tests_at_the_heads_of_the_shares_longest_first():
    worker = SimpleNamespace(workerinput={"workercount": 2}, option=SimpleNamespace(numprocesses=None))
    # shares of 4 and 4: y (300) to the first, z (150) to the second, x (100) to the second (250 < 300)
    assert ordered(worker, collection()) == ["y", "a", "b", "c", "z", "x", "d", "e"]


def test_the_controller_orders_alike_and_a_serial_run_keeps_the_order():
    controller = SimpleNamespace(option=SimpleNamespace(numprocesses=2))
    assert ordered(controller, collection()) == ["y", "a", "b", "c", "z", "x", "d", "e"]
    serial = SimpleNamespace(option=SimpleNamespace(numprocesses=None))
    assert ordered(serial, collection()) == ["a", "b", "x", "c", "d", "y", "e", "z"]
