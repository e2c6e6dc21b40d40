"""The reference implementation (wsref), called in process, each call under a timeout."""
from __future__ import annotations

import concurrent.futures
import os

from wsref.server import protocol

from .base import Adapter, AdapterTimeout, OpenError, Session


def _restore_home(home: str | None) -> None:
    """wsref sets the process's HOME to the case's (`~` expands against it); the harness's own, put
    back when the session ends, is what later code in this process reads (the release cache)."""
    if home is None:
        os.environ.pop("HOME", None)
    else:
        os.environ["HOME"] = home


class ReferenceSession(Session):
    def __init__(self, adapter: "ReferenceAdapter", session: protocol.Session, home_before: str | None = None):
        self.adapter = adapter
        self.session = session
        self.home_before = home_before

    def _run(self, fn):
        """A request on the session, in its process cwd (capability process_cwd), under the timeout."""
        return self.adapter.run_with_timeout(lambda: self.session.in_process_env(fn))

    def tools(self):
        return self.adapter.run_with_timeout(self.session.tools)

    def call(self, tool, args, options=None):
        options = dict(options or {})
        details = options.pop("errorDetails", False)
        return self._run(lambda: protocol.with_error_details(details, lambda: self.session.call(tool, args, **options)))

    def needs_approval(self, tool, args):
        return self._run(lambda: self.session.needs_approval(tool, args))

    def calls(self, calls):
        return self._run(lambda: self.session.calls(calls))

    def fs(self, method, args, options=None):
        details = bool((options or {}).get("errorDetails"))
        return self._run(lambda: protocol.with_error_details(details, lambda: self.session.fs(method, args)))

    def workspace(self, method, args, options=None):
        options = dict(options or {})
        details = options.pop("errorDetails", False)
        return self._run(lambda: protocol.with_error_details(
            details, lambda: self.session.workspace_call(method, args, **options)))

    def retool(self):
        return self._run(self.session.retool)

    def hook_log(self):
        return protocol.to_json(self.session.hook_log)

    def agent(self, params):
        return self._run(lambda: self.session.agent(params))

    def group(self, calls):
        return self._run(lambda: self.session.group(calls))

    def close(self):
        try:
            self.adapter.run_with_timeout(self.session.close)
        finally:
            _restore_home(self.home_before)


class ReferenceAdapter(Adapter):
    name = protocol.IMPLEMENTATION
    version = protocol.__version__
    capabilities = frozenset(protocol.CAPABILITIES)
    dependencies = protocol.dependencies()
    runtime_dir = protocol.runtime_dir()
    protocol_version = 1  # the protocol's operations, called in process

    def __init__(self, timeout: float = 30.0):
        self.timeout = timeout
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def run_with_timeout(self, fn):
        future = self._pool.submit(fn)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            # A stuck thread cannot be killed: abandon this pool so the next call gets a fresh one.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
            raise AdapterTimeout(f"call did not return within {self.timeout:g} s") from None

    def open(self, root, outside, home, workspace):
        home_before = os.environ.get("HOME")
        try:
            opened = self.run_with_timeout(lambda: protocol.open_session(root, home, workspace))
        except BaseException:
            _restore_home(home_before)
            raise
        if isinstance(opened, dict):
            _restore_home(home_before)
            raise OpenError(opened)
        return ReferenceSession(self, opened, home_before)

    def close(self):
        self._pool.shutdown(wait=False, cancel_futures=True)
