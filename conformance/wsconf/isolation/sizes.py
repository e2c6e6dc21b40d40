"""Bounds on what an implementation's output costs the harness.

A report shows at most SHOWN characters of an expected value, an actual value or a diff, with a
note. A step's actual over KEPT bytes (as canonical JSON) goes into the results file truncated,
with its size and sha256, and whole into a file of its own (the pointer the report gives). Big
strings are encoded slice by slice, so measuring or saving a 200 MB result costs no second copy."""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

SHOWN = 20_000        # characters of expected, actual or diff a report shows
KEPT = 64 * 1024      # bytes of a step's actual the results file keeps whole
CUT = 16_000          # characters of content a truncated actual keeps
MORE = 20             # entries a container keeps past the budget
SHORT = 40            # characters of a string or key always kept whole
_SLICE = 1 << 20
_output_dir: dict = {}


def set_output_dir(path: str | os.PathLike | None, cap: int = 512 * 1024 * 1024) -> None:
    """Where whole actuals go (beside the results file), and the most this process keeps there;
    without a folder, a huge actual is kept truncated only (nothing is left in a temporary folder)."""
    _output_dir.update(path=Path(path) if path else None, cap=cap, used=0)


def output_dir() -> Path | None:
    if _output_dir.get("path") is None:
        return None
    _output_dir["path"].mkdir(parents=True, exist_ok=True)
    return _output_dir["path"]


def _not_kept() -> str:
    if _output_dir.get("path") is None:
        return "not kept: the run has no results file (--wsconf-results keeps whole results beside it)"
    return (f"not kept: the run kept {_output_dir['used']:,} bytes of whole results already, its cap "
            f"(--keep-outputs {_output_dir['cap']:,})")


def chunks(value):
    """The canonical JSON of value (sorted keys, no spaces, non-ASCII kept), in pieces."""
    if isinstance(value, str):
        if len(value) <= _SLICE:
            yield json.dumps(value, ensure_ascii=False)
            return
        yield '"'
        for i in range(0, len(value), _SLICE):
            yield json.dumps(value[i:i + _SLICE], ensure_ascii=False)[1:-1]
        yield '"'
    elif isinstance(value, dict):
        yield "{"
        for i, key in enumerate(sorted(value, key=str)):
            yield ("," if i else "") + json.dumps(str(key), ensure_ascii=False) + ":"
            yield from chunks(value[key])
        yield "}"
    elif isinstance(value, (list, tuple)):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ","
            yield from chunks(item)
        yield "]"
    else:
        yield json.dumps(value)


def _encoded(value):
    for piece in chunks(value):
        yield piece.encode("utf-8", "surrogatepass")


def measure(value) -> tuple[int, str]:
    """Size in bytes and sha256 of the canonical JSON."""
    digest, size = hashlib.sha256(), 0
    for data in _encoded(value):
        digest.update(data)
        size += len(data)
    return size, digest.hexdigest()


def _kept(value, name: str) -> tuple[int, str, Path | None]:
    """Size and sha256 of the canonical JSON, in one pass that also writes it to a file once it
    is over KEPT bytes, when there is a folder for it and the run's cap allows (the file's path,
    else None)."""
    digest, size, head, fh, path = hashlib.sha256(), 0, [], None, None
    folder, room = output_dir(), _output_dir.get("cap", 0) - _output_dir.get("used", 0)
    try:
        for data in _encoded(value):
            digest.update(data)
            size += len(data)
            if fh is not None:
                if size <= room:
                    fh.write(data)
                else:  # over the cap: the partial file goes, the rest is only measured
                    fh.close()
                    fh, path = None, path.unlink()
            elif head is not None:
                head.append(data)
                if size > KEPT:  # past what a record keeps whole: into a file, or only measured
                    if folder is not None and size <= room:
                        path = folder / (re.sub(r"[^A-Za-z0-9._-]", "_", name)[:200] + ".json")
                        fh = open(path, "wb")
                        fh.write(b"".join(head))
                    head = None
    finally:
        if fh is not None:
            fh.close()
    if path is not None:
        _output_dir["used"] = _output_dir.get("used", 0) + size
    return size, digest.hexdigest(), path


def clipped(value, budget: int = SHOWN):
    """A copy of value with about `budget` characters of its strings and numbers; each cut says
    how much went. Past the budget a container keeps at most MORE entries, short strings whole and
    nested containers as a count, so the small keys after a huge one (a result's `model` after its
    `value`) still show. Keys are kept up to SHORT characters."""
    left = budget

    def cut(v: str, keep: int) -> str:
        return v if keep >= len(v) else v[:keep] + f"[... {len(v) - keep:,} more characters]"

    def walk(v):
        nonlocal left
        if isinstance(v, str):
            keep = len(v) if len(v) <= SHORT else max(left, 0)
            left -= min(keep, len(v))
            return cut(v, keep)
        if isinstance(v, (dict, list)):
            noun = "keys" if isinstance(v, dict) else "items"
            if left <= 0 and v:
                return f"[... {len(v):,} {noun}]"
            out, extra = ({} if isinstance(v, dict) else []), 0
            for i, k in enumerate(v):
                if left <= 0:
                    extra += 1
                    if extra > MORE:
                        more = f"[... {len(v) - i:,} more {noun}]"
                        if isinstance(v, dict):
                            out["[...]"] = more
                        else:
                            out.append(more)
                        break
                if isinstance(v, dict):
                    out[cut(str(k), SHORT)] = walk(v[k])
                else:
                    out.append(walk(k))
            return out
        left -= 8
        return v
    return walk(value)


def clip_text(text: str, limit: int = SHOWN) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... truncated: {len(text):,} characters, the first {limit:,} shown]"


def kept_step(step: dict, name: str) -> dict:
    """A step record whose actual is bounded: over KEPT bytes it is truncated, and the whole one
    saved to a file whose path, size and sha256 the record names."""
    size, sha, path = _kept(step["actual"], name)
    if size <= KEPT:
        return step
    where = {"actual_file": str(path)} if path is not None else {"actual_not_kept": _not_kept()}
    return {**step, "actual": clipped(step["actual"], CUT), "actual_truncated": True, "actual_size": size,
            "actual_sha256": sha, **where}
