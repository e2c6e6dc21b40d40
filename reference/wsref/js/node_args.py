"""What Node 20 does with a string argument before the system sees it, ported.

Node checks a string it is about to hand the system, and converts it: a NUL byte in a path is
refused with the argument's name (`getValidatedPath`, lib/internal/fs/utils.js), an empty or
NUL-holding spawn argument too (`normalizeSpawnArguments`, lib/child_process.js); the message is
`ERR_INVALID_ARG_VALUE`'s (lib/internal/errors.js), which shows the value through `util.inspect`
(lib/internal/util/inspect.js, `strEscape`). What passes is written out as UTF-8 by the C++ side,
where a lone surrogate becomes U+FFFD; a name read back from the system is decoded the same way,
an invalid byte becoming U+FFFD. The messages around keep the JavaScript string as given.

Python differs on each: its `os` functions raise "embedded null byte" (a ValueError), refuse a lone
surrogate ("surrogates not allowed"), encode U+DC80..U+DCFF as raw bytes (surrogateescape) and
decode an invalid byte to one. So every path, command, cwd and environment pair the reference
hands the system goes through `fs_path` or `spawn_arguments` first, and every name it reads back
through `from_system`.

Checked against node 20 by tests/test_node_args.py (generated strings through node itself).
"""
from __future__ import annotations

import re

from .errors import JsTypeError
from .strings import js_length, to_well_formed


class NodeArgError(JsTypeError):
    """Node's ERR_INVALID_ARG_VALUE: a TypeError with that code."""

    code = "ERR_INVALID_ARG_VALUE"


# --- util.inspect of a string, as ERR_INVALID_ARG_VALUE prints it ------------------------------

_META = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x27: "\\'", 0x5C: "\\\\"}


def _units(s: str) -> list[int]:
    """The string's UTF-16 code units (a lone surrogate is one; an astral character two)."""
    data = s.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def _from_units(units: list[int]) -> str:
    return b"".join(u.to_bytes(2, "little") for u in units).decode("utf-16-le", "surrogatepass")


def _str_escape(s: str) -> str:
    """strEscape: single quotes unless the string holds one (then double quotes, then backticks);
    control characters, the quote, the backslash and C1 characters as escapes; a lone surrogate as
    \\u and its code in lower-case hex, a surrogate pair as is."""
    quote = "'"
    if "'" in s:
        if '"' not in s:
            quote = '"'
        elif "`" not in s and "${" not in s:
            quote = "`"
    units = _units(s)
    out: list[str] = []
    i = 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            out.append(_from_units(units[i:i + 2]))
            i += 2
            continue
        if (u == 0x27 and quote == "'") or u == 0x5C or u < 32 or 126 < u < 160:
            out.append(_META.get(u) or f"\\x{u:02X}")
        elif 0xD800 <= u <= 0xDFFF:
            out.append(f"\\u{u:x}")
        else:
            out.append(chr(u))
        i += 1
    return quote + "".join(out) + quote


def inspect_string(s: str) -> str:
    """util.inspect(s): longer than 16 and 124 code units, the string is shown line by line,
    each line quoted on its own and joined with ` +\\n  `."""
    if js_length(s) > 10_000:  # maxStringLength: the rest is a trailer past what a message shows
        s = _from_units(_units(s)[:10_000])
    if js_length(s) > 16 and js_length(s) > 80 - 4:
        lines = [line for line in re.split(r"(?<=\n)", s) if line != ""] or [""]
        return " +\n  ".join(_str_escape(line) for line in lines)
    return _str_escape(s)


def invalid_arg_value(name: str, value: str, reason: str) -> str:
    """ERR_INVALID_ARG_VALUE's message: the inspected value cut at 128 code units."""
    inspected = inspect_string(value)
    if js_length(inspected) > 128:
        inspected = _from_units(_units(inspected)[:128]) + "..."
    kind = "property" if "." in name else "argument"
    return f"The {kind} '{name}' {reason}. Received {inspected}"


def _refuse(name: str, value: str, reason: str) -> NodeArgError:
    return NodeArgError(invalid_arg_value(name, value, reason))


# --- a name read back (what Node hands the system is js.strings.to_well_formed) ---------------

def from_system(name: str) -> str:
    """A name Python read from the system (undecodable bytes as U+DC80..U+DCFF) as Node decodes
    it: each invalid sequence U+FFFD."""
    if name.isascii():
        return name
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


# --- the checks ----------------------------------------------------------------------------

_PATH_NUL = "must be a string, Uint8Array, or URL without null bytes"
_SPAWN_NUL = "must be a string without null bytes"


def fs_path(path: str, name: str = "path") -> str:
    """getValidatedPath(path, name), then the conversion: what an `fs` call hands the system."""
    if "\0" in path:
        raise _refuse(name, path, _PATH_NUL)
    return to_well_formed(path)


def spawn_arguments(file: str, args: list[str], cwd: str | None, env: dict[str, str]):
    """child_process.spawn's checks, in its order (normalizeSpawnArguments): the file (NUL, then
    empty), the arguments, `options.cwd`, then each environment key and value in `for...in` order.
    Returns (file, args, cwd, env pairs as Node hands them to execve: `key=value`, in that order)."""
    if "\0" in file:
        raise _refuse("file", file, _SPAWN_NUL)
    if file == "":
        raise _refuse("file", file, "cannot be empty")
    for i, arg in enumerate(args):
        if "\0" in arg:
            raise _refuse(f"args[{i}]", arg, _SPAWN_NUL)
    if cwd is not None:
        cwd = fs_path(cwd, "options.cwd")
    pairs = []
    for key in for_in_order(env):
        for part in (key, env[key]):
            if "\0" in part:
                raise _refuse(f"options.env['{key}']", part, _SPAWN_NUL)
        pairs.append(to_well_formed(f"{key}={env[key]}"))
    return to_well_formed(file), [to_well_formed(a) for a in args], cwd, pairs


def _array_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1


def for_in_order(obj: dict) -> list[str]:
    """A JavaScript object's keys as `for...in` gives them: array indices ascending, then the other
    keys in the order they were added (a Python dict keeps that order)."""
    return sorted(obj, key=lambda k: (0, int(k)) if _array_index(k) else (1, 0))
