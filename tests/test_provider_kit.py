"""The provider kit's server lifecycle (adapters/provider_kit.py) on stand-in servers: a deadline for
readiness, another port for a server that exits while starting, and no process left behind."""
from __future__ import annotations

import sys
import time

import pytest

from provider_suite import pids_in, server_alive
from wsconf.adapters import provider_kit
from wsconf.adapters.base import AdapterFault


class SilentServer(provider_kit.LocalServer):
    """Runs, and never answers."""
    name = "silent server"

    def command(self, port):
        return [sys.executable, "-c", "import time; time.sleep(120)", "silent-server"]


class ExitingServer(provider_kit.LocalServer):
    """Exits at once, as when its port was taken."""
    name = "exiting server"

    def command(self, port):
        return [sys.executable, "-c", "raise SystemExit(3)", "exiting-server"]


def test_a_server_that_never_answers_is_stopped_at_its_deadline(monkeypatch, tmp_path):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv(provider_kit.PIDFILE_ENV, str(pidfile))
    start = time.monotonic()
    with pytest.raises(AdapterFault, match="did not answer"):
        SilentServer(timeout=1.0)
    assert time.monotonic() - start < 10
    pids = pids_in(pidfile)
    assert len(pids) == 1 and not server_alive(pids[0], "silent-server")


def test_a_server_that_exits_is_tried_on_other_ports_then_reported(monkeypatch, tmp_path):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv(provider_kit.PIDFILE_ENV, str(pidfile))
    with pytest.raises(AdapterFault, match=r"exited \(code 3\)"):
        ExitingServer(timeout=20)
    assert len(pids_in(pidfile)) == provider_kit.START_ATTEMPTS


def test_free_ports_are_on_loopback_and_usable():
    import socket

    port = provider_kit.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
