"""The `workspace` step's dotted paths of the upstream tests: LocalSandbox as an API (`sandbox.*`) and getPathContext.

Each maps an upstream name (`sandbox.executeCommand`, `sandbox.processes.list` ...) to the wsref call,
as `WORKSPACE_METHODS` in `protocol.py` does for the Workspace: the bridge reaches the same members
of the real LocalSandbox through the dotted path itself.
"""
from __future__ import annotations


def _sandbox(s):
    """The session's sandbox (protocol.py's workspace paths use it too); undefined is an error, as in JS."""
    sb = s.workspace.sandbox
    if sb is None:
        raise AttributeError("workspace.sandbox is undefined")
    return sb


def _detect_isolation():
    from ..sandbox.native_sandbox import detect_isolation
    return detect_isolation()


def _without_undefined(value):
    """JSON's view: an undefined (None) property is left out."""
    if isinstance(value, dict):
        return {k: _without_undefined(v) for k, v in value.items() if v is not None}
    return value


def _spawn(s, command, options=None):
    """Capability process_handles: processes.spawn with its options (stdinMode, maxRetainedBytes, cwd,
    env, timeout); the session keeps the handle by pid, its reader stream open from the start."""
    options = dict(options or {})
    handle = _sandbox(s).processes.spawn(
        command, cwd=options.get("cwd"), timeout_ms=options.get("timeout"), env=options.get("env"),
        **({"max_retained": options["maxRetainedBytes"]} if "maxRetainedBytes" in options else {}),
        stdin_mode=options.get("stdinMode"), with_reader=True)
    s.__dict__.setdefault("handles", {})[handle.pid] = handle
    return handle.pid  # a string: the case captures it as {{pid}}


def _handle(s, pid):
    handle = s.__dict__.get("handles", {}).get(pid)
    if handle is None:
        raise ValueError(f"process.*: no process {pid!r} was spawned by process.spawn in this session")
    return handle


def _mounted_filesystem(s, fs_path):
    mounts = getattr(s.workspace.filesystem, "mounts", None) or {}
    if fs_path not in mounts:
        raise ValueError(f"sandbox.mount: the workspace has no mount {fs_path!r}")
    return mounts[fs_path]


API_METHODS = {
    # Capability process_handles: a spawned process's handle, by the pid process.spawn gave.
    "process.spawn": _spawn,
    "process.wait": lambda s, pid: {k: v for k, v in _handle(s, pid).wait().items()},
    "process.sendStdin": lambda s, pid, data: _handle(s, pid).send_stdin(data),
    "process.closeStdin": lambda s, pid: _handle(s, pid).close_stdin(),
    "process.writerEnd": lambda s, pid, data=None: _handle(s, pid).writer_end(data),
    "process.reader": lambda s, pid: _handle(s, pid).reader_text(60),
    "process.stdout": lambda s, pid: _handle(s, pid).stdout,   # the retained output so far
    "process.stderr": lambda s, pid: _handle(s, pid).stderr,
    "getPathContext": lambda s: s.workspace.get_path_context(),
    "filesystem.mountPaths": lambda s: s.workspace.filesystem.mount_paths,  # a CompositeFilesystem's
    # undefined without a manager; with one, only its public root (upstream's object shows private
    # fields, which no case pins: cases ask `lsp` with identity, or `lsp.root`)
    "lsp": lambda s: None if s.workspace.lsp is None else {"root": s.workspace.lsp.root},
    "skills.addSkill": lambda s, path: s.workspace.skills.add_skill(path),
    "skills.removeSkill": lambda s, name: s.workspace.skills.remove_skill(name),
    "skills.registerLocationAlias": lambda s, location, path: s.workspace.skills.register_location_alias(location, path),
    "sandbox.id": lambda s: _sandbox(s).id,
    "sandbox.name": lambda s: _sandbox(s).name,
    "sandbox.isolation": lambda s: _sandbox(s).isolation,
    "sandbox.workingDirectory": lambda s: _sandbox(s).working_directory,
    "sandbox.isReady": lambda s: _sandbox(s).is_ready(),
    "sandbox.getInfo": lambda s: _without_undefined(_sandbox(s).get_info()),
    "sandbox.getEnv": lambda s: _sandbox(s).get_env(),
    "sandbox.start": lambda s: _sandbox(s).start(),
    # Upstream the public stop()/destroy() are the provider's hooks (only start() is routed through its
    # wrapper); workspace.stop/destroy use the wrappers _stop/_destroy.
    "sandbox.stop": lambda s: _sandbox(s).stop_hook(),
    "sandbox.destroy": lambda s: _sandbox(s).destroy_hook(),
    "sandbox._stop": lambda s: _sandbox(s).stop(),
    "sandbox._destroy": lambda s: _sandbox(s).destroy(),
    # LocalSandbox.snapshot() without a checkpoint name does nothing (undefined); it supports checkpoints
    "sandbox.snapshot": lambda s: None,
    "sandbox.supportsCheckpoints": lambda s: True,
    "sandbox.executeCommand": lambda s, command, args=None, options=None:
        _sandbox(s).execute_command(command, args, options),
    "sandbox.processes.list": lambda s: _sandbox(s).processes.list(),
    "sandbox.processes.kill": lambda s, pid: _sandbox(s).processes.kill(pid),
    # capability sandbox_mounts: LocalSandbox.unmount(mountPath), the symlink, marker and mount entry go
    "sandbox.unmount": lambda s, mount_path: _sandbox(s).unmount(mount_path),
    # capability sandbox_mounts: LocalSandbox.mount(filesystem, mountPath), the filesystem named by its path
    # among the workspace's mounts (the CompositeFilesystem's mounts.get(path))
    "sandbox.mount": lambda s, fs_path, mount_path: _sandbox(s).mount(_mounted_filesystem(s, fs_path), mount_path),
    # capability sandbox_mounts: the mount table, {mountPath: {filesystem (its id), state, config, error}}
    # in the table's order, without the configHash (the marker file holds it), an undefined field left out
    "sandbox.mounts.entries": lambda s: {
        path: _without_undefined({**{k: v for k, v in entry.items() if k != "configHash"},
                                  "filesystem": entry["filesystem"].id})
        for path, entry in _sandbox(s).mounts.entries.items()},
    "sandbox.setOnStart": lambda s, update: _sandbox(s).set_on_start(update),
    # the static LocalSandbox.detectIsolation(), reached through the instance's constructor
    "sandbox.constructor.detectIsolation": lambda s: _detect_isolation(),
}
