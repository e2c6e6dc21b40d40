"""Any implementation that speaks spec/protocol.md on stdin/stdout, run as one long-lived process."""
from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading

from ..config import tool_id
from .base import Adapter, AdapterFault, AdapterTimeout, AdapterUnavailable, OpenError, Session

PROTOCOL_VERSION = 1


class ProtocolProcess:
    """One running adapter process: send a request, wait for the answer with the same id."""

    def __init__(self, argv: list[str], timeout: float):
        self.argv = argv
        self.timeout = timeout
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=40)
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                         errors="surrogateescape", start_new_session=True, bufsize=1)
        except OSError as exc:
            raise AdapterFault(f"could not start adapter {' '.join(argv)!r}: {exc}") from None
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr_tail.append),
                                               daemon=True)
        self._stderr_reader.start()
        self.next_id = 0

    @staticmethod
    def _pump(stream, sink):
        for line in stream:
            sink(line.rstrip("\n"))
        sink(None) if sink.__name__ == "put" else None

    def stderr_text(self) -> str:
        if self.proc.poll() is not None:
            self._stderr_reader.join(timeout=2)  # an exited process: let its last lines arrive first
        tail = "\n".join(line for line in self.stderr_tail if line)
        return f"\n--- adapter stderr (last lines) ---\n{tail}" if tail else ""

    def request(self, op: str, params: dict, timeout: float | None = None):
        self.next_id += 1
        rid = self.next_id
        line = json.dumps({"id": rid, "op": op, "params": params})  # ASCII: lone surrogates survive
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            try:
                self.proc.wait(timeout=2)  # it is exiting: wait briefly for its exit code
            except subprocess.TimeoutExpired:
                pass
            raise AdapterFault(f"adapter process exited (code {self.proc.poll()}) before {op!r}"
                               + self.stderr_text()) from None
        try:
            raw = self.lines.get(timeout=timeout or self.timeout)
        except queue.Empty:
            self.kill()
            raise AdapterTimeout(f"adapter did not answer {op!r} within {timeout or self.timeout:g} s"
                                 + self.stderr_text()) from None
        if raw is None:
            code = self.proc.wait()
            raise AdapterFault(f"adapter process exited (code {code}) during {op!r}" + self.stderr_text())
        try:
            msg = json.loads(raw)
        except json.JSONDecodeError:
            self.kill()
            raise AdapterFault(f"adapter printed a line that is not JSON during {op!r}: {raw[:200]!r}"
                               + self.stderr_text()) from None
        if not isinstance(msg, dict) or msg.get("id") != rid:
            self.kill()
            got = msg.get("id") if isinstance(msg, dict) else None
            raise AdapterFault(f"adapter answered id {got!r} to request {rid} ({op!r})")
        if not msg.get("ok"):
            raise AdapterFault(f"adapter fault on {op!r}: {msg.get('fault', '(no message)')}")
        return msg.get("result")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def shutdown(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request("shutdown", {}, timeout=5)
                self.proc.wait(timeout=5)
            except (AdapterFault, subprocess.TimeoutExpired):
                pass
        self.kill()


class ProtocolSession(Session):
    def __init__(self, process: ProtocolProcess, session: str):
        self.process = process
        self.session = session

    def tools(self):
        return self.process.request("tools", {"session": self.session})

    def call(self, tool, args, options=None):
        return self.process.request("call", {"session": self.session, "tool": tool, "args": args, **(options or {})})

    def needs_approval(self, tool, args):
        return self.process.request("needsApproval", {"session": self.session, "tool": tool, "args": args})

    def calls(self, calls):
        return self.process.request("calls", {"session": self.session, "calls": calls})

    def fs(self, method, args):
        return self.process.request("fs", {"session": self.session, "method": method, "args": args})

    def workspace(self, method, args):
        return self.process.request("workspace", {"session": self.session, "method": method, "args": args})

    def retool(self):
        return self.process.request("retool", {"session": self.session})

    def hook_log(self):
        return self.process.request("hookLog", {"session": self.session})

    def close(self):
        if self.process.alive():
            self.process.request("close", {"session": self.session})


class SubprocessAdapter(Adapter):
    def __init__(self, argv: list[str], timeout: float = 30.0):
        self.argv = argv
        self.timeout = timeout
        self.process: ProtocolProcess | None = None
        try:
            self.hello = self._start()
        except AdapterUnavailable:
            raise
        except AdapterFault as exc:  # the first start: nothing can run, so the run ends here, once
            raise AdapterUnavailable(str(exc)) from None

    def _start(self) -> dict:
        self.process = ProtocolProcess(self.argv, self.timeout)
        hello = self.process.request("hello", {"protocol": PROTOCOL_VERSION}, timeout=max(self.timeout, 60))
        if not isinstance(hello, dict) or hello.get("protocol") != PROTOCOL_VERSION:
            self.process.kill()
            raise AdapterFault(f"adapter speaks protocol {hello.get('protocol') if isinstance(hello, dict) else hello!r}; "
                               f"this harness speaks {PROTOCOL_VERSION}")
        self.name = hello.get("implementation", "?")
        self.version = hello.get("version", "?")
        self.capabilities = frozenset(hello.get("capabilities", []))
        self.protocol_version = hello.get("protocol")
        declared = hello.get("tools")
        if declared is not None:
            if not isinstance(declared, list) or not all(isinstance(t, str) for t in declared):
                self.process.kill()
                raise AdapterFault(f"hello: `tools` must be a list of tool names, got {declared!r}")
            self.tools = frozenset(tool_id(t) for t in declared)
        dependencies = hello.get("dependencies") or {}
        if not isinstance(dependencies, dict):
            self.process.kill()
            raise AdapterFault(f"hello: `dependencies` must be an object of name: version, got {dependencies!r}")
        self.dependencies = {str(k): str(v) for k, v in dependencies.items()}
        return hello

    def open(self, root, outside, home, workspace):
        if self.process is None or not self.process.alive():
            self._start()  # the previous case broke it: start fresh and go on
        result = self.process.request("open", {"root": root, "outside": outside, "home": home,
                                               "workspace": workspace})
        if isinstance(result, dict) and "error" in result:
            raise OpenError(result["error"])
        return ProtocolSession(self.process, result["session"])

    def close(self):
        if self.process:
            self.process.shutdown()
