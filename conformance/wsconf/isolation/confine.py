"""Confinement: where the kernel allows it, a subprocess implementation runs in namespaces of its
own, where everything outside the run folder is read-only, the results, the expectations and the
spec are not there at all, and no process of the harness can be seen or signalled.

Two bwraps (bubblewrap), one inside the other:

- the outer one, as the harness's user, lays out what the implementation sees: / read-only, the
  run folder read-write, a fresh /dev, and each hidden path covered (a folder by an empty tmpfs, a
  file by /dev/null), with the folders inside them it needs (the spec's fixtures) bound back;
- the inner one makes a user namespace, so every mount of the outer one is locked (it cannot be
  unmounted to uncover what it hides, nor made writable, and a mount the implementation makes
  stays in its own namespace, never in the case folders the harness cleans up), and a pid
  namespace with its own /proc (the harness's processes are not in it); it runs the implementation
  as root of that namespace, so file modes mean what they mean to root and its own bwrap works.

Where the harness runs as root, the inner bwrap is started as SANDBOX_UID (setpriv): root in the
namespace is then not root of the machine (kernel settings under /proc/sys stay out of reach), and
the harness hands the case folders to that uid (tree.py). Where bwrap is missing or the kernel
refuses the namespaces, the run is UNCONFINED and says so: the harness then only watches.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# The machine's uid for the implementation's root when the harness is root: high, so no account has it.
SANDBOX_UID = 1_500_000_000
PROBE_TIMEOUT = 20.0
_probed: dict = {}


@dataclass(frozen=True)
class Confinement:
    """How a subprocess implementation runs: `kind` is "bwrap", or "UNCONFINED" with `reason`."""
    kind: str
    reason: str = ""
    hidden: tuple[str, ...] = ()   # paths it must not see (the spec, the expectations, the results)
    shown: tuple[str, ...] = ()    # folders inside hidden ones it needs (the spec's fixtures)
    owner: int | None = None       # the uid the case folders are handed to (the harness is root)

    @property
    def confined(self) -> bool:
        return self.kind != UNCONFINED

    def describe(self) -> str:
        """One line for the run's header and the results' first line."""
        if not self.confined:
            return f"UNCONFINED: {self.reason}"
        return ("confined (bwrap): own mount, pid and user namespaces; writable: the case folders only; "
                "the spec, the expectations and the results hidden; the harness's processes out of reach")

    def wrap(self, argv: list[str], writable: str) -> list[str]:
        """argv run confined, with `writable` (the run folder) the one place it may write."""
        if not self.confined:
            return list(argv)
        opened = _opened(_needed(argv, [*self.shown, writable]), self.owner) if self.owner is not None else []
        return outer(writable, self.hidden, self.shown, opened) + inner(self.owner) + list(argv)


UNCONFINED = "UNCONFINED"


def outer(writable: str, hidden=(), shown=(), opened=()) -> list[str]:
    argv = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev",
            # the host's /proc, for the inner bwrap's uid map; covered by the inner's own /proc
            "--bind", "/proc", "/proc", *opened, "--bind", writable, writable]
    for path in hidden:
        argv += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    for path in shown:
        argv += ["--ro-bind-try", path, path]  # gone since it was listed: nothing to show
    for path in hidden:  # the empty folders left in place of what is hidden are no place to write
        if os.path.isdir(path):
            argv += ["--remount-ro", path]
    return argv + ["--"]


def inner(owner: int | None) -> list[str]:
    drop = [shutil.which("setpriv") or "setpriv", f"--reuid={owner}", f"--regid={owner}", "--clear-groups"] \
        if owner is not None else []
    return drop + [shutil.which("bwrap") or "bwrap", "--unshare-user", "--uid", "0", "--gid", "0", "--unshare-pid",
                   "--die-with-parent", "--new-session", "--cap-add", "ALL", "--bind", "/", "/",
                   "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--"]


def _needed(argv: list[str], shown) -> list[str]:
    """What the implementation surely needs to reach: its program, the paths on its command line,
    the working folder, every folder on PATH (the interpreters it may start), and `shown`."""
    found = [shutil.which(argv[0]) or argv[0]] if argv else []
    found += [a for a in argv[1:] if a.startswith(("/", "./", "../")) or os.path.exists(a)]
    found += [os.getcwd(), *os.environ.get("PATH", "").split(os.pathsep), *map(str, shown)]
    return [os.path.realpath(p) for p in found if p and os.path.lexists(p)] + \
        [os.path.abspath(p) for p in found if p and os.path.islink(p)]


def _opened(needed: list[str], owner: int) -> list[str]:
    """bwrap arguments that let `owner` pass through the folders on the way to what it needs which
    only their owner may enter (/root, 0700): each becomes a fresh folder anyone may enter, holding
    its entries bound back as they are (a private one inside stays closed)."""
    closed: set[str] = set()
    for path in needed:
        parts = Path(path).parts
        for i in range(2, len(parts)):
            folder = str(Path(*parts[:i]))
            try:
                st = os.stat(folder)
            except OSError:
                break
            if st.st_uid != owner and not st.st_mode & 0o001:
                closed.add(folder)
    args: list[str] = []
    for folder in sorted(closed, key=lambda p: (p.count("/"), p)):
        args += ["--perms", "0755", "--tmpfs", folder]
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            names = []
        for name in names:
            entry = os.path.join(folder, name)
            if entry not in closed:
                args += ["--ro-bind", entry, entry] if not os.path.islink(entry) else \
                    ["--symlink", os.readlink(entry), entry]
    return args


def why_not() -> str | None:
    """Why a subprocess implementation cannot be confined here (None: it can). Tried once per
    process, by confining `true`."""
    if "reason" not in _probed:
        _probed["reason"] = _probe()
    return _probed["reason"]


def _probe() -> str | None:
    if shutil.which("bwrap") is None:
        return "bwrap is not installed (apt-get install bubblewrap): the implementation runs as this user, only watched"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "setpriv (util-linux) is not installed: as root, the implementation cannot be given a uid of its own"
    owner = SANDBOX_UID if os.geteuid() == 0 else None
    try:
        done = subprocess.run(outer(os.path.realpath(tempfile.gettempdir())) + inner(owner) + ["true"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not be started ({exc}): the implementation runs as this user, only watched"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        return f"the kernel refused bwrap's namespaces ({said[0]}): the implementation runs as this user, only watched"
    return None


def choose(mode: str, hidden=(), shown=()) -> Confinement:
    """mode: "auto" (confined where possible), "off" (--unconfined), or "required" (--hermetic:
    UNCONFINED is an error the caller reports)."""
    if mode == "off":
        return Confinement(UNCONFINED, "asked for (--unconfined): the implementation runs as this user, only watched")
    reason = why_not()
    if reason is not None:
        return Confinement(UNCONFINED, reason)
    return Confinement("bwrap", hidden=tuple(_hideable(hidden)), shown=tuple(_kept(shown, hidden)),
                       owner=SANDBOX_UID if os.geteuid() == 0 else None)


def _hideable(paths) -> list[str]:
    """The paths that exist, each once, deepest last (a folder covered before what is inside it)."""
    found = {os.path.realpath(p) for p in paths if p and os.path.lexists(p)}
    return sorted(found, key=lambda p: (p.count("/"), p))


def _kept(shown, hidden) -> list[str]:
    """The folders to bind back: only those inside a hidden one (elsewhere they are visible anyway)."""
    hidden = _hideable(hidden)
    out = []
    for path in _hideable(shown):
        if any(path.startswith(h.rstrip("/") + "/") for h in hidden):
            out.append(path)
    return out


def hand_over(owner: int | None, *paths) -> None:
    """Give these folders (everything under them, never following a link) to the uid a confined
    implementation runs as; nothing to do when it runs as the harness's own user (owner None)."""
    if owner is None:
        return
    for top in map(str, paths):
        try:
            os.lchown(top, owner, owner)
        except OSError:
            continue
        if os.path.islink(top) or not os.path.isdir(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                try:
                    os.lchown(os.path.join(dirpath, name), owner, owner)
                except OSError:
                    pass
