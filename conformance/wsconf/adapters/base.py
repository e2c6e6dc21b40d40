"""The adapter interface (spec/adapter.md): Adapter, Session, and the faults an adapter reports.

How a user names an adapter is registry.py's business, so the concrete adapters can import this
module without a circle."""
from __future__ import annotations



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

    def open(self, root: str, outside: str, home: str, workspace: dict) -> Session:
        raise NotImplementedError

    def own_pids(self) -> set[int]:
        """The adapter's own long-lived processes: never a case's leftovers."""
        return set()

    def close(self) -> None:
        pass
