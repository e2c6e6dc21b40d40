"""createWorkspaceTools (upstream `tools/tools.ts`): the tool set a workspace exposes.

Order, filtering and wrapping follow the upstream: enabled and readOnly decide which tools exist;
each tool is wrapped with the read tracker (read or write mode), then renamed, then hooked, and
the write lock goes outermost, so it runs before input validation (as it does upstream).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import FileNotFoundError_, FileReadRequiredError, JsError
from ..filesystem.file_read_tracker import ReadTracker, read_scope
from ..filesystem.file_write_lock import WriteLock
from ..utils import resolve_dynamic
from ..validation import validate_input
from . import ast_edit
from .base import Tool, ToolContext
from .delete_file import TOOL as delete_file_tool
from .edit_file import TOOL as edit_file_tool
from .execute_command import execute_command_tool, execute_command_with_background_tool
from .file_stat import TOOL as file_stat_tool
from .get_process_output import get_process_output_tool
from .grep import TOOL as default_grep_tool
from .grep import create_grep_tool
from .index_content import INDEX_TOOL
from .kill_process import kill_process_tool
from .list_files import TOOL as list_files_tool
from .mkdir import TOOL as mkdir_tool
from .read_file import read_file_tool
from .search import search_tool_for
from .write_file import TOOL as write_file_tool
from .lsp_inspect import TOOL as lsp_inspect_tool


@dataclass(frozen=True)
class Slot:
    tool: Tool
    needs_write: bool = False
    tracker: str | None = None       # "read" or "write"
    write_lock: bool = False


def filesystem_slots(options: dict | None = None) -> list[Slot]:
    """The filesystem tools in the upstream's order, with how each is wrapped.

    options: createWorkspaceTools' third argument, e.g. {"grep": {"strict": True}}."""
    grep_options = (options or {}).get("grep")
    out = [
        Slot(read_file_tool, tracker="read"),
        Slot(write_file_tool, needs_write=True, tracker="write", write_lock=True),
        Slot(edit_file_tool, needs_write=True, tracker="write", write_lock=True),
        Slot(list_files_tool),
        Slot(delete_file_tool, needs_write=True, write_lock=True),
        Slot(file_stat_tool),
        Slot(mkdir_tool, needs_write=True),
        Slot(create_grep_tool(**grep_options) if grep_options else default_grep_tool),
    ]
    if ast_edit.engine_available():
        out.append(Slot(ast_edit.TOOL, needs_write=True, tracker="write", write_lock=True))
    return out


def search_slots(workspace) -> list[Slot]:
    """Present when BM25 or vector search is configured; index is a write tool (left out read-only)."""
    if not (workspace.can_bm25 or workspace.can_vector):
        return []
    return [Slot(search_tool_for(workspace)), Slot(INDEX_TOOL, needs_write=True)]


def sandbox_slots(sandbox) -> list[Slot]:
    """execute_command (with background support when the sandbox has a process manager), then the
    process tools."""
    has_processes = getattr(sandbox, "processes", None) is not None
    out = []
    if hasattr(sandbox, "execute_command"):
        out.append(Slot(execute_command_with_background_tool if has_processes else execute_command_tool))
    if has_processes:
        out += [Slot(get_process_output_tool), Slot(kill_process_tool)]
    return out


def create_workspace_tools(workspace, request_context: dict | None = None,
                           options: dict | None = None, read_tracker=None) -> dict[str, "BoundTool"]:
    """read_tracker: the agent's thread-scoped tracker in a run with a thread; else one per tool set."""
    tools: dict[str, BoundTool] = {}
    config = workspace.tools_config or {}
    read_only = bool(workspace.filesystem is not None and workspace.filesystem.readOnly)
    tracker = read_tracker if read_tracker is not None else ReadTracker()
    lock = WriteLock(config.get("writeLockTimeoutMs"))
    # (slot, the provider its calls resolve first: resolveEffectiveWorkspace's targets)
    slots = []
    if workspace.has_filesystem_config():  # a static filesystem or a resolver
        slots += [(slot, "filesystem") for slot in filesystem_slots(options)]
    slots += [(slot, None) for slot in search_slots(workspace)]
    if workspace.sandbox is not None:
        slots += [(slot, "sandbox") for slot in sandbox_slots(workspace.sandbox)]
    elif workspace.has_sandbox_config():  # a resolver: every sandbox tool, capabilities checked per call
        slots += [(slot, "sandbox") for slot in resolver_sandbox_slots()]
    if getattr(workspace, "lsp", None) is not None:  # only with an LSP manager
        slots.append((Slot(lsp_inspect_tool), "filesystem"))
    for slot, target in slots:
        if not workspace.tool_enabled(slot.tool.id, request_context):
            continue
        if slot.needs_write and read_only:
            continue
        name = workspace.tool_config(slot.tool.id).get("name", slot.tool.id)
        if name in tools:
            raise JsError(
                f'Duplicate workspace tool name "{name}": tool "{slot.tool.id}" conflicts with an already-registered '
                'tool. Check your tools config for duplicate "name" values.')
        # resolveToolConfig: what the wrappers bind at build time (setToolsConfig waits for the next build)
        settings = {"hooks": config.get("hooks"),
                    "requireApproval": workspace.tool_setting(slot.tool.id, "requireApproval", False),
                    "requireReadBeforeWrite": workspace.tool_config(slot.tool.id).get("requireReadBeforeWrite")}
        context = request_context if request_context is not None else {}  # one object for every tool
        tools[name] = BoundTool(name, slot, workspace, tracker, lock, context, settings, target)
    return tools


def resolver_sandbox_slots() -> list[Slot]:
    return [Slot(execute_command_with_background_tool), Slot(get_process_output_tool), Slot(kill_process_tool)]


class BoundTool:
    """A tool bound to its workspace under its exposed name: what an agent would call."""

    def __init__(self, name: str, slot: Slot, workspace, tracker: ReadTracker, lock: WriteLock,
                 request_context: dict, settings: dict | None = None, target: str | None = None):
        self.target = target  # "filesystem" / "sandbox": resolved per call when it is a resolver
        self.tool_call_id = None  # the agent's id for the call in progress (set by the caller)
        self.agent_context: dict = {}  # in an agent run: the stream's writer and the run's abortSignal
        self.writer = None  # the context's writer for the call in progress: takes each chunk (set by the caller)
        self.abort_signal = None  # the call's abortSignal (an AbortSignal), if any (set by the caller)
        self.tracing = None  # {"tracing" | "tracingContext": {"currentSpan": span}} for the call, if any
        self.request_context = request_context
        self.settings = settings or {}
        self.name = name
        self.slot = slot
        self.tool = slot.tool
        self.workspace = workspace
        self.tracker = tracker
        self.lock = lock

    @property
    def description(self) -> str:
        return self.tool.description

    @property
    def input_schema(self) -> dict:
        return self.tool.shown_schema or self.tool.input_schema

    @property
    def require_approval(self) -> bool:
        # A function is evaluated when the agent loop executes; the tool is marked as needing approval.
        value = self.settings.get("requireApproval", False)
        return True if callable(value) else value is True

    def needs_approval(self, args: dict):
        """needsApprovalFn: set when requireApproval is a function, which it evaluates on the call's
        args (a throwing function means: needs approval); None when the tool has none."""
        value = self.settings.get("requireApproval")
        if not callable(value):
            return None
        return resolve_dynamic(value, {"args": args, "requestContext": self.request_context,
                                       "workspace": self.workspace}, True)

    def execute(self, args: dict):
        if self.slot.write_lock:
            path = args.get("path") if isinstance(args, dict) else None
            if not path and not isinstance(path, (list, dict)):  # JS truthiness: [] and {} are present
                raise JsError("wrapWithWriteLock: input.path is required")
            return self.lock.run(path, lambda: self._hooked(args))
        return self._hooked(args)

    def _hooked(self, args: dict):
        """beforeToolCall may skip the call with its own output; afterToolCall sees output or error."""
        hooks = self.settings.get("hooks") or {}
        before, after = hooks.get("beforeToolCall"), hooks.get("afterToolCall")
        context = {"toolName": self.name, "workspaceToolName": self.tool.id, "input": args,
                   "context": {"requestContext": self.request_context}}
        if before:
            verdict = before(context)
            if isinstance(verdict, dict) and verdict.get("proceed") is False:
                return verdict.get("output")
        try:
            output = self._tracked(args)
        except Exception as exc:
            if after:
                after({**context, "output": None, "error": exc})
            raise
        if after:
            after({**context, "output": output})
        return output

    def _tracked(self, args: dict):
        # resolveEffectiveWorkspace: lastAccessedAt = new Date(), and a resolver's provider in place
        workspace = self.workspace.effective(self.request_context, filesystem=self.target == "filesystem",
                                             sandbox=self.target == "sandbox")
        mode = self.slot.tracker
        fs = workspace.filesystem
        ctx = ToolContext(workspace)
        ctx.extra["toolCallId"] = self.tool_call_id
        ctx.extra.update(self.agent_context)  # an agent run's writer and abortSignal, or a call's own:
        if self.writer is not None:
            ctx.extra["writer"] = self.writer
        if self.abort_signal is not None:
            ctx.extra["abortSignal"] = self.abort_signal
        ctx.extra.update(self.tracing or {})  # the parent span tools/tracing.py starts child spans from
        if mode is None or fs is None:
            return self._validated(args, ctx)
        scope = read_scope(fs)
        path = args.get("path") if isinstance(args, dict) else None
        if mode == "write":
            record = self.tracker.get(path) if isinstance(path, str) else None
            if record and record.scope == scope:
                ctx.extra["expected_mtime"] = record.modified_at_read
            try:
                stat = fs.stat(path)
                policy = self.settings.get("requireReadBeforeWrite")
                if policy is not None and resolve_dynamic(policy, {"args": args, "requestContext": self.request_context,
                                                                   "workspace": self.workspace}, True):
                    reason = self.tracker.needs_reread(path, stat.modifiedAt, scope)
                    if reason:
                        raise FileReadRequiredError(path, reason)
            except FileNotFoundError_:
                pass  # a new file: nothing to have read
        result = self._validated(args, ctx)
        if mode == "read":
            try:
                self.tracker.record_read(path, fs.stat(path).modifiedAt, scope)
            except Exception:
                pass  # tracking never fails a read
        else:
            self.tracker.clear(path) if isinstance(path, str) else None
        return result

    def _validated(self, args: dict, ctx: ToolContext):
        checked = validate_input(self.tool, args)
        if isinstance(checked, dict) and checked.get("error") is True:
            return checked
        return self.tool.execute(checked, ctx)

    def to_model_output(self, output):
        return self.tool.to_model_output(output) if self.tool.to_model_output else None
