"""LSPManager (upstream `lsp/manager.ts`): the workspace's language server clients.

One client per (server, project root); the root is found per file by walking up from its folder
to the server's markers (through the workspace filesystem when there is one), else the default
root. getDiagnostics opens the file with its new content, waits for the server's diagnostics
(diagnosticTimeout, default 5000 ms), closes it, and normalises them (severity names, 1-based
line and character). Calls for one file are served in arrival order; a failure after the client
is acquired gives []; no client available gives None. maxOpenClients evicts the least recently
used idle client.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from .client import LSPClient, to_file_uri
from .language import get_language_id
from .servers import build_custom_extensions, build_server_defs, get_servers_for_file, walk_up, walk_up_async

CLIENT_LEASE_ACQUIRE_TIMEOUT_MS = 5000
CLIENT_LEASE_SHUTDOWN_TIMEOUT_MS = 5000
SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hint"}


def map_severity(severity) -> str:
    """LSP's numeric severity as a name; anything else (none included) is a warning."""
    return SEVERITIES.get(severity, "warning") if not isinstance(severity, bool) else "warning"


def _normalise(raw: list) -> list[dict]:
    out = []
    for d in raw:
        start = ((d.get("range") or {}).get("start") or {}) if isinstance(d, dict) else {}
        out.append({"severity": map_severity(d.get("severity")), "message": d.get("message"),
                    "line": (start.get("line") or 0) + 1, "character": (start.get("character") or 0) + 1,
                    "source": d.get("source")})
    return out


class _FileLocks:
    """A FIFO lock per file path: concurrent calls for one file never interleave open/change/close."""

    def __init__(self):
        self._cond = threading.Condition()
        self._queues: dict[str, list] = {}

    def acquire(self, key: str):
        ticket = object()
        with self._cond:
            queue = self._queues.setdefault(key, [])
            queue.append(ticket)
            while queue[0] is not ticket:
                self._cond.wait()

        def release():
            with self._cond:
                queue = self._queues.get(key)
                if queue and queue[0] is ticket:
                    queue.pop(0)
                    if not queue:
                        del self._queues[key]
                self._cond.notify_all()
        return release


class LSPManager:
    def __init__(self, process_manager, root: str, config: dict | None = None, filesystem=None):
        config = config or {}
        limit = config.get("maxOpenClients")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError("maxOpenClients must be a positive integer")  # a RangeError upstream
        self.process_manager = process_manager
        self._root = root
        self.config = config
        self.server_defs = build_server_defs(config)
        self.custom_extensions = build_custom_extensions(config.get("servers"))
        self.filesystem = filesystem
        self.clients: dict[str, LSPClient] = {}  # insertion order is recency: the last is the newest
        self._leases: dict[int, int] = {}        # id(client) -> active operations
        self._lock = threading.RLock()
        self._lease_released = threading.Condition(self._lock)
        self._acquire_lock = threading.Lock()    # acquisitions one at a time (clientLeaseAcquisitionQueue)
        self._file_locks = _FileLocks()
        self.shutting_down = False

    @property
    def root(self) -> str:
        """The default project root (when the walk up finds no marker)."""
        return self._root

    def _resolve_root(self, file_path: str, markers: list) -> str:
        start = os.path.dirname(file_path)
        found = walk_up_async(start, markers, self.filesystem) if self.filesystem is not None else walk_up(start, markers)
        return found if found is not None else self._root

    # -- leases and capacity ---------------------------------------------------------------------

    def _ensure_capacity(self) -> bool:
        limit = self.config.get("maxOpenClients")
        if limit is None:
            return not self.shutting_down
        while len(self.clients) >= limit:
            if self.shutting_down:
                return False
            with self._lock:
                idle = next(((k, c) for k, c in self.clients.items() if id(c) not in self._leases), None)
                if idle is None:
                    deadline = time.monotonic() + CLIENT_LEASE_ACQUIRE_TIMEOUT_MS / 1000
                    if not self._lease_released.wait(max(0.0, deadline - time.monotonic())):
                        return False
                    continue
                del self.clients[idle[0]]
            idle[1].shutdown()
        return not self.shutting_down

    def _lease(self, client: LSPClient):
        with self._lock:
            self._leases[id(client)] = self._leases.get(id(client), 0) + 1
        released = []

        def release():
            if released:
                return
            released.append(True)
            with self._lock:
                left = self._leases.get(id(client), 1) - 1
                if left > 0:
                    self._leases[id(client)] = left
                else:
                    self._leases.pop(id(client), None)
                    self._lease_released.notify_all()
        return release

    # -- clients ---------------------------------------------------------------------------------

    def _init_client(self, server_def, project_root: str, key: str) -> LSPClient | None:
        if not self._ensure_capacity():
            return None
        init_timeout = self.config.get("initTimeout", 15000)
        client = LSPClient(server_def, project_root, self.process_manager)
        try:
            client.initialize(init_timeout)  # its request has this deadline (upstream adds 1 s around it)
        except Exception as exc:
            client.shutdown()
            override = (self.config.get("binaryOverrides") or {}).get(server_def.id)
            command = server_def.command(project_root)
            hint = (f' (using binaryOverrides: "{override}")' if override
                    else f' (command: "{command}")' if command else "")
            print(f"[LSP] Failed to start {server_def.name}{hint}: {exc}", file=sys.stderr)
            return None
        if self.shutting_down:
            client.shutdown()
            return None
        self.clients[key] = client
        return client

    def _client_for(self, server_def, project_root: str) -> LSPClient | None:
        if server_def.command(project_root) is None:
            return None
        key = f"{server_def.name}:{project_root}"
        existing = self.clients.get(key)
        if existing is not None:
            if existing.is_alive:
                del self.clients[key]  # touch: now the most recently used
                self.clients[key] = existing
                return existing
            del self.clients[key]
            existing.shutdown()
        return self._init_client(server_def, project_root, key)

    def _pick_server(self, file_path: str):
        servers = get_servers_for_file(file_path, self.config.get("disableServers"), self.server_defs,
                                       self.custom_extensions)
        if not servers:
            return None
        preferred = ("typescript", "javascript", "python", "go")
        return next((s for s in servers if any(p in s.language_ids for p in preferred)), servers[0])

    def _acquire(self, file_path: str):
        """A leased client for the file, or None; acquisitions are serialised so an eviction can
        never take a client another call has just been given."""
        with self._acquire_lock:
            if self.shutting_down:
                return None
            server_def = self._pick_server(file_path)
            if server_def is None:
                return None
            project_root = self._resolve_root(file_path, server_def.markers)
            if self.shutting_down:
                return None
            client = self._client_for(server_def, project_root)
            return None if client is None else (client, self._lease(client))

    def prepare_query(self, file_path: str):
        """For lsp_inspect: the client with the file opened (its disk content), or None."""
        lease = self._acquire(file_path)
        if lease is None:
            return None
        client, release = lease
        language_id = get_language_id(file_path, self.custom_extensions)
        if not language_id:
            release()
            return None
        try:
            with open(file_path, encoding="utf-8", errors="replace") as f:
                content = f.read()
        except OSError:
            content = ""
        client.notify_open(file_path, content, language_id)
        return {"client": client, "uri": to_file_uri(file_path), "languageId": language_id,
                "serverName": client.server_name, "release": release}

    def get_diagnostics(self, file_path: str, content: str) -> list | None:
        """The file's diagnostics for this content; None when no client is available."""
        release_file = self._file_locks.acquire(file_path)
        try:
            lease = self._acquire(file_path)
            if lease is None:
                return None
            client, release = lease
            try:
                language_id = get_language_id(file_path, self.custom_extensions)
                if not language_id:
                    return []
                client.notify_open(file_path, content, language_id)
                client.notify_change(file_path, content, 1)
                try:
                    raw = client.wait_for_diagnostics(file_path, self.config.get("diagnosticTimeout", 5000))
                finally:
                    client.notify_close(file_path)
                return _normalise(raw)
            finally:
                release()
        except Exception:
            return []
        finally:
            release_file()

    def shutdown_all(self) -> None:
        """Every client shut down (after in-flight operations, at most 5 s); the manager can start
        clients again afterwards (Workspace.stop relies on it)."""
        self.shutting_down = True
        with self._acquire_lock:
            with self._lock:
                deadline = time.monotonic() + CLIENT_LEASE_SHUTDOWN_TIMEOUT_MS / 1000
                while self._leases and time.monotonic() < deadline:
                    self._lease_released.wait(max(0.0, deadline - time.monotonic()))
                clients = list(self.clients.values())
                self.clients.clear()
                self._leases.clear()
        for client in clients:
            client.shutdown()
        self.shutting_down = False
