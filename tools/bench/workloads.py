"""Deterministic workload generators and the benchmark's workload table.

Everything is generated from a seed into a scratch directory (nothing large is committed, nothing
is downloaded). The same seed and scale give byte-identical trees on every machine.

Scale 1.0 is the full benchmark (issue 8): a grep tree of ~5,000 files / ~50 MB, a listing tree of
~20,000 entries, a 20 MB file to read (and a 2 MB one for the memory check), a 5 MB file edited
and written 100 times, 200 `echo hi` commands. `--quick` uses a tiny scale so a smoke run takes
seconds.
"""
from __future__ import annotations

import os
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20240608

# A vocabulary of code-ish words: lower-case identifiers, keywords, small numbers. No upper-case
# letters followed by a dash and digits, so the regex workload's pattern only hits planted lines.
_WORDS = (
    "def class return import from self value result config path file buffer index count items "
    "const let function async await export default module require string number boolean null "
    "undefined true false if else for while try catch finally throw new this super extends "
    "options handler request response error message status data payload token cursor offset "
    "limit page size length width height color theme render update delete create read write "
    "open close flush stream reader writer parser lexer node tree walk visit emit listen watch "
    "cache store query filter map reduce sort merge split join trim slice chunk batch queue "
    "worker thread lock mutex signal event logger debug info warn trace metric timer retry"
).split()
_PUNCT = ["(", ")", "{", "}", "[", "]", ";", ",", ".", ":", "=", "==", "=>", "+", "-", "*", "/", "&&", "||"]
# A few non-ASCII (BMP) words so the UTF-8 and UTF-16 paths are exercised, as in real sources.
_UNICODE_WORDS = ["café", "naïve", "Größe", "日本語", "données", "ошибка"]

LITERAL = "ZEPHYR_NEEDLE_42"
LITERAL_MIXED = "Zephyr_Needle_42"
TICKET_RE_JS = r"\b[A-Z]{3}-\d{4,}\b"
TICKET_RE_GNU = r"\b[A-Z]{3}-[0-9]{4,}\b"
GREP_EXTENSIONS = [".py", ".js", ".ts", ".md", ".txt", ".json"]


def line_pool(rng: random.Random, n: int = 4096) -> list[str]:
    """Distinct-looking source lines of 10-110 characters, some indented, a few non-ASCII."""
    pool = []
    for _ in range(n):
        indent = " " * (4 * rng.randrange(0, 4))
        words = []
        target = rng.randrange(10, 110)
        length = len(indent)
        while length < target:
            r = rng.random()
            if r < 0.70:
                w = rng.choice(_WORDS)
            elif r < 0.85:
                w = rng.choice(_PUNCT)
            elif r < 0.995:
                w = str(rng.randrange(0, 1000))
            else:
                w = rng.choice(_UNICODE_WORDS)
            words.append(w)
            length += len(w) + 1
        pool.append(indent + " ".join(words))
    return pool


def _text(rng: random.Random, pool: list[str], nbytes: int) -> list[str]:
    """About nbytes of lines drawn from the pool (each line + newline)."""
    avg = sum(len(s.encode()) + 1 for s in pool) / len(pool)
    return rng.choices(pool, k=max(1, int(nbytes / avg)))


def write_text_file(path: Path, nbytes: int, seed: int, marker: str | None = None) -> int:
    """A text file of about nbytes; `marker` (a line) goes in the middle. Returns its line count."""
    rng = random.Random(seed)
    pool = line_pool(rng)
    lines = _text(rng, pool, nbytes)
    if marker is not None:
        lines.insert(len(lines) // 2, marker)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines) + 1


def make_grep_tree(root: Path, files: int = 5000, total_bytes: int = 50_000_000, seed: int = SEED) -> dict:
    """`files` text files in two directory levels, ~total_bytes in all, with planted needles:
    LITERAL (and LITERAL_MIXED, for the case-insensitive search) and ticket ids for the regex."""
    rng = random.Random(seed)
    pool = line_pool(rng)
    per_dir = 50
    dirs = max(1, (files + per_dir - 1) // per_dir)
    top = max(1, int(dirs ** 0.5))
    per_file = total_bytes / files
    literal_files = set(rng.sample(range(files), max(1, files // 125)))     # 40 of 5,000
    mixed_files = set(rng.sample(range(files), max(1, files // 170)))       # ~30
    ticket_files = set(rng.sample(range(files), max(1, files // 80)))       # ~60
    planted = {"literal": 0, "mixed": 0, "ticket": 0}
    written = 0
    for i in range(files):
        d = i // per_dir
        sub = root / f"d{d % top:02d}" / f"s{d // top:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        size = int(per_file * rng.uniform(0.5, 1.5))
        lines = _text(rng, pool, size)
        if i in literal_files:
            for _ in range(rng.randrange(1, 4)):
                lines.insert(rng.randrange(len(lines) + 1), f"    marker = '{LITERAL}'  # planted")
                planted["literal"] += 1
        if i in mixed_files:
            lines.insert(rng.randrange(len(lines) + 1), f"// see {LITERAL_MIXED} for details")
            planted["mixed"] += 1
        if i in ticket_files:
            for _ in range(rng.randrange(1, 3)):
                lines.insert(rng.randrange(len(lines) + 1),
                             f"# fixes {rng.choice(['ABC', 'XYZ', 'OPS', 'WEB'])}-{rng.randrange(1000, 99999)}")
                planted["ticket"] += 1
        data = ("\n".join(lines) + "\n").encode()
        (sub / f"f{i:05d}{GREP_EXTENSIONS[i % len(GREP_EXTENSIONS)]}").write_bytes(data)
        written += len(data)
    return {"files": files, "bytes": written, "planted": planted}


def make_list_tree(root: Path, width: int = 10, leaf_files: int = 17, seed: int = SEED) -> dict:
    """width^3 leaf directories of leaf_files empty files, a `build/` per module (gitignored),
    a `.gitignore` at the root: ~20,000 entries at width 10."""
    rng = random.Random(seed + 1)
    exts = [".py", ".ts", ".md", ".json", ".log", ".txt"]
    entries = 0
    root.mkdir(parents=True, exist_ok=True)
    (root / ".gitignore").write_text("build/\n*.log\nnode_modules/\n")
    entries += 1

    def touch(p: Path):
        nonlocal entries
        p.touch()
        entries += 1

    for a in range(width):
        pkg = root / f"pkg_{a}"
        pkg.mkdir()
        entries += 1
        for k in range(5):
            touch(pkg / f"top_{k}{exts[k % len(exts)]}")
        for b in range(width):
            mod = pkg / f"mod_{b}"
            mod.mkdir()
            entries += 1
            touch(mod / "__init__.py")
            touch(mod / "README.md")
            build = mod / "build"
            build.mkdir()
            entries += 1
            for k in range(15):
                touch(build / f"out_{k}.js")
            for c in range(width):
                part = mod / f"part_{c}"
                part.mkdir()
                entries += 1
                for k in range(leaf_files):
                    touch(part / f"{rng.choice(['file', 'test', 'util', 'main'])}_{k}{exts[rng.randrange(len(exts))]}")
    return {"entries": entries}


@dataclass
class Workload:
    """One benchmark row: `calls` are timed (after the untimed `warmup`) in one fresh process."""
    name: str
    title: str
    tree: str                       # which generated tree is the workspace root
    calls: list                     # [{"tool", "args", "repeat"}]
    warmup: list = field(default_factory=list)
    workspace: dict = field(default_factory=lambda: {"filesystem": {}})
    floor: list | None = None       # a GNU grep argv (run in the tree) for the physical floor
    reset: dict | None = None       # {relative path: pristine file} copied back before each run
    group: str = ""


def tool(name: str) -> str:
    return f"mastra_workspace_{name}"


def workloads(scale: "Scale") -> list[Workload]:
    window_offset = max(1, scale.read_lines // 2)
    g = [
        ("grep_literal", "grep, literal", {"pattern": LITERAL}, ["grep", "-rn", "-e", LITERAL, "."]),
        ("grep_regex", "grep, regex", {"pattern": TICKET_RE_JS}, ["grep", "-rnE", "-e", TICKET_RE_GNU, "."]),
        ("grep_icase", "grep, case-insensitive", {"pattern": LITERAL.lower(), "caseSensitive": False},
         ["grep", "-rni", "-e", LITERAL.lower(), "."]),
        ("grep_context", "grep, 2 context lines", {"pattern": LITERAL, "contextLines": 2},
         ["grep", "-rn", "-C", "2", "-e", LITERAL, "."]),
    ]
    out = [Workload(name, title, "grep", [{"tool": tool("grep"), "args": args}],
                    warmup=[{"tool": tool("grep"), "args": {**args, "path": "d00/s00"}}], floor=floor, group="grep")
           for name, title, args, floor in g]
    deep = 10
    for name, title, args in [
        ("list_plain", "list_files, no filter", {"path": ".", "maxDepth": deep, "respectGitignore": False}),
        ("list_gitignore", "list_files, .gitignore", {"path": ".", "maxDepth": deep}),
        ("list_glob", "list_files, glob + .gitignore", {"path": ".", "maxDepth": deep, "pattern": "**/*.py"}),
    ]:
        out.append(Workload(name, title, "list", [{"tool": tool("list_files"), "args": args}],
                            warmup=[{"tool": tool("list_files"), "args": {"path": "pkg_0/mod_0"}}], group="list"))
    read_warm = [{"tool": tool("read_file"), "args": {"path": "small.txt"}}]
    out += [
        Workload("read_window", f"read_file {scale.read_mb:g} MB, offset/limit (100 lines)", "files",
                 [{"tool": tool("read_file"), "args": {"path": "big.txt", "offset": window_offset, "limit": 100}}],
                 warmup=read_warm, group="read"),
        Workload("read_tokens", f"read_file {scale.read_mb:g} MB, token window", "files",
                 [{"tool": tool("read_file"), "args": {"path": "big.txt"}}], warmup=read_warm, group="read"),
        Workload("edit_100", f"edit_file {scale.edit_mb:g} MB x{scale.edits}", "files",
                 [{"tool": tool("edit_file"), "repeat": scale.edits,
                   "args": {"path": "edit.txt", "old_string": {"$fmt": "counter={i};"},
                            "new_string": {"$fmt": "counter={j};"}}}],
                 warmup=[{"tool": tool("edit_file"), "args": {"path": "warm.txt", "old_string": "warm",
                                                              "new_string": "cold"}}],
                 reset={"edit.txt": "pristine/edit.txt", "warm.txt": "pristine/warm.txt"}, group="write"),
        Workload("write_100", f"write_file {scale.edit_mb:g} MB x{scale.edits}", "files",
                 [{"tool": tool("write_file"), "repeat": scale.edits,
                   "args": {"path": "write.txt", "content": {"$file": "pristine/edit.txt"}}}],
                 warmup=[{"tool": tool("write_file"), "args": {"path": "warm2.txt", "content": "warm"}}],
                 reset={"write.txt": "pristine/edit.txt"}, group="write"),
        Workload("exec_200", f"execute_command `echo hi` x{scale.execs}", "files",
                 [{"tool": tool("execute_command"), "repeat": scale.execs, "args": {"command": "echo hi"}}],
                 warmup=[{"tool": tool("execute_command"), "args": {"command": "echo warm"}}],
                 workspace={"filesystem": {}, "sandbox": {}}, group="exec"),
        # A call that does almost nothing: what is left end to end is the adapter's own cost.
        Workload("stat_500", f"file_stat x{scale.stats} (protocol overhead)", "files",
                 [{"tool": tool("file_stat"), "repeat": scale.stats, "args": {"path": "small.txt"}}],
                 warmup=[{"tool": tool("file_stat"), "args": {"path": "warm.txt"}}], group="overhead"),
    ]
    return out


@dataclass
class Scale:
    grep_files: int = 5000
    grep_bytes: int = 50_000_000
    list_width: int = 10
    list_leaf_files: int = 17
    read_mb: float = 20
    small_read_mb: float = 2
    edit_mb: float = 5
    edits: int = 100
    execs: int = 200
    stats: int = 500
    read_lines: int = 0   # filled in by generate()


FULL = Scale()
QUICK = Scale(grep_files=60, grep_bytes=300_000, list_width=3, list_leaf_files=4, read_mb=0.5, small_read_mb=0.05,
              edit_mb=0.1, edits=5, execs=5, stats=20)


def generate(base: Path, scale: Scale, seed: int = SEED) -> dict:
    """All trees under base: grep/, list/, files/ (big.txt, small.txt, edit.txt ...), mem/."""
    info = {}
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    info["grep"] = make_grep_tree(base / "grep", scale.grep_files, scale.grep_bytes, seed)
    info["list"] = make_list_tree(base / "list", scale.list_width, scale.list_leaf_files, seed)
    files = base / "files"
    scale.read_lines = write_text_file(files / "big.txt", int(scale.read_mb * 1e6), seed + 2)
    write_text_file(files / "small.txt", 2000, seed + 3)
    write_text_file(files / "pristine" / "edit.txt", int(scale.edit_mb * 1e6), seed + 4, marker="counter=0;")
    (files / "pristine" / "warm.txt").write_text("warm\n")
    shutil.copyfile(files / "pristine" / "warm.txt", files / "warm.txt")
    shutil.copyfile(files / "pristine" / "edit.txt", files / "edit.txt")
    shutil.copyfile(files / "pristine" / "edit.txt", files / "write.txt")
    # The memory check: the same window read from a small and a large file.
    mem = base / "mem"
    small_lines = write_text_file(mem / "small.txt", int(scale.small_read_mb * 1e6), seed + 5)
    large_lines = write_text_file(mem / "large.txt", int(scale.read_mb * 1e6), seed + 6)
    info["files"] = {"big.txt": (files / "big.txt").stat().st_size, "lines": scale.read_lines,
                     "edit.txt": (files / "edit.txt").stat().st_size}
    info["mem"] = {"small.txt": (mem / "small.txt").stat().st_size, "large.txt": (mem / "large.txt").stat().st_size,
                   "small_lines": small_lines, "large_lines": large_lines}
    return info


def reset_files(base: Path, wl: Workload) -> None:
    if not wl.reset:
        return
    tree = base / wl.tree
    for rel, pristine in wl.reset.items():
        shutil.copyfile(tree / pristine, tree / rel)
        os.utime(tree / rel)
