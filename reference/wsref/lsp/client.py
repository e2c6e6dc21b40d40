"""LSPClient (upstream `lsp/client.ts`): one JSON-RPC connection to a language server process.

The server is spawned through the sandbox's process manager (stdin a pipe, stdout read by the
handle's reader thread), spoken to with Content-Length framed JSON-RPC 2.0 (vscode-jsonrpc
upstream). Diagnostics arrive as publishDiagnostics notifications into a map keyed by file path;
waitForDiagnostics polls that map, or asks a pull-diagnostics server directly. Every request has
a deadline, so a silent server can never hang a tool call.
"""
from __future__ import annotations

import json
import os
import threading
import time
from urllib.parse import unquote

# WHATWG's path percent-encode set plus what Node's pathToFileURL adds (%, \, newline, CR, tab)
_ENCODED = set('"#<>?`{}%\\ ')


def to_file_uri(fs_path: str) -> str:
    """pathToFileURL(fsPath).toString() for a POSIX path."""
    out = []
    for ch in os.path.abspath(fs_path):  # path.resolve first
        if ord(ch) < 0x21 or ord(ch) >= 0x7F or ch in _ENCODED:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "file://" + "".join(out)


def diagnostics_key(uri_or_path: str) -> str:
    """The map key: a file: URI back to its path (fileURLToPath), so two spellings meet."""
    if uri_or_path.startswith("file:"):
        rest = uri_or_path[len("file:"):]
        if rest.startswith("//"):
            rest = rest[2:]
            slash = rest.find("/")
            if slash == -1 or rest[:slash] not in ("", "localhost"):
                return uri_or_path  # a host: fileURLToPath throws, the URI is the key
            rest = rest[slash:]
        return unquote(rest)
    return uri_or_path


class _Timeout(Exception):
    pass


INIT_CAPABILITIES = {
    "window": {"workDoneProgress": True},
    "workspace": {"configuration": True},
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True, "tagSupport": {"valueSet": [1, 2]}, "versionSupport": False},
        "synchronization": {"didOpen": True, "didChange": True, "dynamicRegistration": False, "willSave": False,
                            "willSaveWaitUntil": False, "didSave": False},
        "completion": {"dynamicRegistration": False, "completionItem": {
            "snippetSupport": False, "commitCharactersSupport": False, "documentationFormat": ["markdown", "plaintext"],
            "deprecatedSupport": False, "preselectSupport": False}},
        "definition": {"dynamicRegistration": False, "linkSupport": True},
        "typeDefinition": {"dynamicRegistration": False, "linkSupport": True},
        "implementation": {"dynamicRegistration": False, "linkSupport": True},
        "references": {"dynamicRegistration": False},
        "documentHighlight": {"dynamicRegistration": False},
        "documentSymbol": {"dynamicRegistration": False, "hierarchicalDocumentSymbolSupport": True},
        "codeAction": {"dynamicRegistration": False, "codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
            "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source",
            "source.organizeImports"]}}},
        "hover": {"dynamicRegistration": False, "contentFormat": ["markdown", "plaintext"]},
    },
}


class LSPClient:
    def __init__(self, server_def, workspace_root: str, process_manager):
        self.server_def = server_def
        self.workspace_root = workspace_root
        self.process_manager = process_manager
        self.handle = None
        self.connected = False
        self.diagnostics: dict[str, list] = {}
        self.initialization_options = None
        self.supports_pull_diagnostics = False
        self._buffer = b""
        self._lock = threading.Lock()
        self._next_id = 1
        self._pending: dict[int, tuple[threading.Event, dict]] = {}

    @property
    def is_alive(self) -> bool:
        return self.handle is not None and self.handle.exit_code is None

    @property
    def server_name(self) -> str:
        return self.server_def.name

    # -- the wire ------------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        if self.handle is None:
            return
        body = json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        # write errors are swallowed (a dead server): the request's deadline answers instead
        self.handle.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _on_stdout(self, data: str, _pid=None) -> None:
        with self._lock:
            self._buffer += data.encode("utf-8", "surrogatepass")
            messages = []
            while True:
                end = self._buffer.find(b"\r\n\r\n")
                if end == -1:
                    break
                length = None
                for line in self._buffer[:end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None or len(self._buffer) < end + 4 + length:
                    break
                body = self._buffer[end + 4:end + 4 + length]
                self._buffer = self._buffer[end + 4 + length:]
                try:
                    messages.append(json.loads(body.decode("utf-8")))
                except ValueError:
                    pass  # a broken message: the connection's error handler ignores it upstream
        for message in messages:
            self._dispatch(message)

    def _dispatch(self, message: dict) -> None:
        method = message.get("method")
        if method is None and "id" in message:  # a response
            with self._lock:
                waiter = self._pending.pop(message["id"], None)
            if waiter is not None:
                waiter[1].update(message)
                waiter[0].set()
            return
        params = message.get("params") or {}
        if "id" in message:  # a request from the server
            if method == "workspace/configuration":
                result = [{} for _ in params.get("items") or []]
            elif method in ("window/workDoneProgress/create", "client/registerCapability"):
                result = None
            else:
                self._send({"id": message["id"], "error": {"code": -32601, "message": f"Unhandled method {method}"}})
                return
            self._send({"id": message["id"], "result": result})
        elif method == "textDocument/publishDiagnostics":
            with self._lock:
                self.diagnostics[diagnostics_key(params.get("uri", ""))] = params.get("diagnostics")

    def _request(self, method: str, params, timeout_ms: float, error_message: str):
        with self._lock:
            request_id = self._next_id
            self._next_id += 1
            event, holder = threading.Event(), {}
            self._pending[request_id] = (event, holder)
        message = {"id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        # A server that has exited is not noticed here: the request runs into its deadline, as
        # upstream's does (its reader stream ends, the pending request stays).
        self._send(message)
        if not event.wait(timeout_ms / 1000):
            with self._lock:
                self._pending.pop(request_id, None)
            raise _Timeout(error_message)
        if "error" in holder:
            raise RuntimeError(holder["error"].get("message", "request failed"))
        return holder.get("result")

    def _notify(self, method: str, params) -> None:
        if self.connected:
            self._send({"method": method} if params is None else {"method": method, "params": params})

    # -- lifecycle -----------------------------------------------------------------------------

    def initialize(self, init_timeout: float = 10000) -> None:
        command = self.server_def.command(self.workspace_root)
        if not command:
            raise RuntimeError("Failed to resolve LSP server command")
        self.handle = self.process_manager.spawn(command, cwd=self.workspace_root, stdin_mode="pipe",
                                                 on_stdout=self._on_stdout)
        self.connected = True
        options = self.server_def.initialization(self.workspace_root) if self.server_def.initialization else None
        root_uri = to_file_uri(self.workspace_root)
        params = {"processId": os.getpid(), "rootUri": root_uri,
                  "workspaceFolders": [{"name": "workspace", "uri": root_uri}], "capabilities": INIT_CAPABILITIES}
        if options:
            params["initializationOptions"] = options
            self.initialization_options = options
        result = self._request("initialize", params, init_timeout, "LSP initialize request timed out")
        if isinstance(result, dict) and (result.get("capabilities") or {}).get("diagnosticProvider"):
            self.supports_pull_diagnostics = True  # TS 7+'s native LSP: pull, not push
        self._notify("initialized", {})
        self._notify("workspace/didChangeConfiguration", {"settings": self.initialization_options or {}})

    def notify_open(self, file_path: str, content: str, language_id: str) -> None:
        if not self.connected:
            return
        uri = to_file_uri(file_path)
        with self._lock:
            self.diagnostics.pop(diagnostics_key(uri), None)
        self._notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language_id, "version": 0,
                                                               "text": content}})

    def notify_change(self, file_path: str, content: str, version: int) -> None:
        self._notify("textDocument/didChange", {"textDocument": {"uri": to_file_uri(file_path), "version": version},
                                                "contentChanges": [{"text": content}]})

    def notify_close(self, file_path: str) -> None:
        if not self.connected:
            return
        uri = to_file_uri(file_path)
        with self._lock:
            self.diagnostics.pop(diagnostics_key(uri), None)
        self._notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def wait_for_diagnostics(self, file_path: str, timeout_ms: float = 5000, wait_for_change: bool = False,
                             settle_ms: float = 500) -> list:
        """Push servers: the first non-empty publication wins at once; an empty one waits settle_ms
        more for real results (a server may clear before it analyses). Polled every 100 ms."""
        if not self.connected:
            return []
        uri = to_file_uri(file_path)
        if self.supports_pull_diagnostics:
            try:
                result = self._request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout_ms,
                                       "Pull diagnostics request timed out")
            except Exception:
                return []
            items = (result or {}).get("items") or [] if isinstance(result, dict) else []
            with self._lock:
                self.diagnostics[diagnostics_key(uri)] = items
            return items
        key = diagnostics_key(uri)
        start = time.monotonic()
        with self._lock:
            initial = self.diagnostics.get(key)
        empty_at = None
        while (time.monotonic() - start) * 1000 < timeout_ms:
            with self._lock:
                current = self.diagnostics.get(key)
            if wait_for_change:
                if current is not None and current is not initial:
                    return current
            elif current is not None:
                if len(current) > 0:
                    return current
                if empty_at is None:
                    empty_at = time.monotonic()
                if (time.monotonic() - empty_at) * 1000 >= settle_ms:
                    return current
            time.sleep(0.1)
        if wait_for_change:
            return initial or []
        with self._lock:
            return self.diagnostics.get(key) or []

    def query(self, method: str, uri: str, position: dict, timeout_ms: float, error_message: str):
        """hover / definition / typeDefinition / implementation at a position."""
        if not self.connected:
            return None
        return self._request(method, {"textDocument": {"uri": uri}, "position": position}, timeout_ms, error_message)

    def shutdown(self) -> None:
        """shutdown (1 s deadline) and exit, then the process is killed; errors are ignored."""
        if self.connected:
            try:
                if self.is_alive:
                    self._request("shutdown", None, 1000, "Shutdown request timed out")
                    self._notify("exit", None)
            except Exception:
                pass
            self.connected = False
        if self.handle is not None:
            handle, self.handle = self.handle, None
            try:
                handle.kill()
                handle.wait(5)
            except Exception:
                pass
            finally:
                if handle.popen.stdin is not None:
                    try:
                        handle.popen.stdin.close()
                    except OSError:
                        pass
        with self._lock:
            self.diagnostics = {}
