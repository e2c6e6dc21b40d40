"""The adapter interface (spec/adapter.md): Adapter, Session, and the faults an adapter reports.

How a user names an adapter is registry.py's business, so the concrete adapters can import this
module without a circle."""
from __future__ import annotations

from .answers import answer_problem


class AdapterFault(Exception):
    """The adapter could not do what was asked: crashed, hung, or broke the protocol."""


class AdapterTimeout(AdapterFault):
    pass


class AdapterUnavailable(AdapterFault):
    """The implementation cannot run here at all (no Node, an install that failed): the run ends once."""


class OpenError(Exception):
    """Building the workspace threw: the implementation's answer (an error Result), not a fault."""

    def __init__(self, result: dict):
        super().__init__(result.get("message", ""))
        self.result = result


class Session:
    def tools(self) -> list[dict]:
        raise NotImplementedError

    def call(self, tool: str, args: dict, options: dict | None = None) -> dict:
        """options (capability tool_writer): {"writer": true} captures the chunks the tool writes
        (the Result's `chunks`); {"agentContext": false} calls it without an agent context; further
        ones (requestContext, abortAfterMs, tracing, errorDetails) as spec/protocol.md `call` names them."""
        raise NotImplementedError

    def needs_approval(self, tool: str, args: dict) -> dict:
        """Capability approval_fn: the tool's needsApprovalFn on args, as a value Result (null: none)."""
        raise NotImplementedError

    def calls(self, calls: list[dict]) -> list[dict]:
        """Capability concurrent_calls: [{tool, args}, ...] started together, in order; their Results."""
        raise NotImplementedError

    def fs(self, method: str, args: list, options: dict | None = None) -> dict:
        """options (capability error_details): {"errorDetails": true} adds `details` to an error Result."""
        raise NotImplementedError

    def workspace(self, method: str, args: list, options: dict | None = None) -> dict:
        """A Workspace method or property (lifecycle, getInfo, setToolsConfig ...): a Result.
        options: {"identity": true} (capability instance_identity) answers with the object's label;
        {"errorDetails": true} as for fs."""
        raise NotImplementedError

    def retool(self) -> dict:
        """Build the tool set again from the current config, as a new agent interaction does."""
        raise NotImplementedError

    def hook_log(self) -> list:
        """What the recording host hooks saw, in order."""
        raise NotImplementedError

    def agent(self, params: dict) -> dict:
        """Capability agent_loop: a real agent run with a scripted model (spec/protocol.md `agent`): a Result."""
        raise NotImplementedError

    def group(self, calls: list) -> list:
        """Capability concurrent_calls: several tool calls issued together; their Results, in order."""
        raise NotImplementedError

    def close(self) -> None:
        pass


class Adapter:
    name: str = "?"
    version: str = "?"
    capabilities: frozenset[str] = frozenset()
    # The tool ids it implements, when it declares them (hello `tools`); None means every tool.
    tools: frozenset[str] | None = None
    # Versions of the key libraries it runs on (hello `dependencies`), shown in the run's header.
    dependencies: dict[str, str] = {}
    protocol_version: int | None = None
    # The folder of the runtime executable running the implementation (hello `runtimeDir`, capability
    # runtime_dir): the case placeholder {{runtime_dir}}.
    runtime_dir: str | None = None
    # How it runs (isolation/confine.py): None for an adapter inside the harness's own process.
    confinement = None
    # After close: the processes it left running when it shut down (killed then), as "command (pid n)".
    left_running: list[str] = []
    # The LocalFilesystem options its filesystem honours (hello `filesystemOptions`): option ->
    # True (any value) or the tuple of values it honours; None means every option. A case passing
    # any other in `workspace.filesystem` is unsupported, naming the option.
    filesystem_options: dict[str, object] | None = None

    def open(self, root: str, outside: str, home: str, workspace: dict) -> Session:
        raise NotImplementedError

    def own_pids(self) -> set[int]:
        """The adapter's own long-lived processes: never a case's leftovers."""
        return set()

    def take_extras(self) -> list[dict]:
        """What its answers carried beside their results since the last time asked (a protocol
        response's other members), for the leak check; nothing for an in-process adapter."""
        return []

    def close(self) -> None:
        pass


class _Worker:
    """One daemon thread running an in-process adapter's calls in turn (same thread each time, as
    an implementation with thread affinity needs), each under a deadline. A call that does not
    return in time is abandoned with its thread (a thread cannot be killed; being a daemon, it does
    not hold the run's exit) and the next call gets a fresh thread."""

    def __init__(self, timeout: float):
        import queue
        self.timeout = timeout
        self._queue_class = queue.Queue
        self._jobs = None

    def _start(self):
        import threading
        jobs = self._queue_class()

        def serve():
            while (job := jobs.get()) is not None:
                fn, box, done = job
                try:
                    box.append((True, fn()))
                except BaseException as exc:  # handed to the caller's thread
                    box.append((False, exc))
                done.set()

        threading.Thread(target=serve, name="wsconf-adapter-call", daemon=True).start()
        self._jobs = jobs

    def run(self, fn, what: str):
        import threading
        if self._jobs is None:
            self._start()
        box, done = [], threading.Event()
        self._jobs.put((fn, box, done))
        if not done.wait(self.timeout):
            self._jobs = None  # the stuck thread keeps the old queue; nothing more goes to it
            raise AdapterTimeout(f"adapter did not answer '{what}' within {self.timeout:g} s "
                                 "(its thread is abandoned)")
        ok, value = box[0]
        if ok:
            return value
        if isinstance(value, (AdapterFault, OpenError)) or not isinstance(value, Exception):
            raise value
        # A bug in the adapter: an error of this case naming it and where it was raised (the run goes on)
        raise AdapterFault(f"adapter raised {type(value).__name__}: {value}{_where(value)}") from value

    def stop(self):
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None


def _where(exc: BaseException) -> str:
    """ (at file:line in function, ...): the adapter's own frames of the traceback, innermost last."""
    import traceback
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__][-3:]
    return " (at " + ", ".join(f"{f.filename}:{f.lineno} in {f.name}" for f in frames) + ")" if frames else ""


# A Session method -> the protocol op whose answer it gives (answers.py checks its shape).
_OPS = {"call": "call", "fs": "fs", "workspace": "workspace", "tools": "tools", "retool": "retool",
        "needs_approval": "needsApproval", "calls": "calls", "group": "group", "hook_log": "hookLog",
        "agent": "agent"}


class TimedSession:
    """A session of an in-process adapter whose every method runs under the run's timeout, and
    whose every answer is held to the protocol's shape (answers.py)."""

    def __init__(self, inner: Session, worker: _Worker):
        self._inner, self._worker = inner, worker

    def __getattr__(self, name):
        method = getattr(self._inner, name)
        if not callable(method):
            return method

        def checked(*args, **kwargs):
            answer = self._worker.run(lambda: method(*args, **kwargs), name)
            problem = answer_problem(_OPS[name], answer) if name in _OPS else None
            if problem:
                raise AdapterFault(f"adapter answered {name!r} with the wrong shape: {problem}")
            return answer
        return checked


class TimedAdapter:
    """A Python adapter named by module:Class or an entry point, held to the harness's rules
    (spec/adapter.md): every call under the timeout (`adapter did not answer '<op>' within <n> s`:
    the case errors and the run goes on, as with a protocol process that hangs), and an exception
    other than AdapterFault and OpenError made an adapter fault of its case naming the exception
    and where the adapter raised it (the case is an `error`, counted, and the run goes on)."""

    def __init__(self, inner: Adapter, timeout: float):
        self._inner = inner
        self._worker = _Worker(timeout)

    def __getattr__(self, name):  # name, version, capabilities, tools, dependencies ...
        return getattr(self._inner, name)

    def open(self, root: str, outside: str, home: str, workspace: dict):
        session = self._worker.run(lambda: self._inner.open(root, outside, home, workspace), "open")
        return TimedSession(session, self._worker)

    def own_pids(self) -> set[int]:
        return self._worker.run(self._inner.own_pids, "own_pids")

    def close(self) -> None:
        try:
            self._worker.run(self._inner.close, "close")
        finally:
            self._worker.stop()
