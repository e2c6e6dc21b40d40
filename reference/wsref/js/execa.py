"""execa 9's spawn-failure message on Node 20 (what upstream rethrows), ported.

Checked against execa itself through the bridge on the execute_command error cases.

    Command failed with ENOENT: 'echo hi'
    The "cwd" option is invalid: /x/nope.
    ENOENT: no such file or directory, stat '/x/nope'
    spawn /bin/sh ENOENT

Pieces: Node's spawn error (`spawn <file> <CODE>` for the codes libuv reports asynchronously,
`spawn <CODE>` for the others; ERR_INVALID_ARG_VALUE for a NUL byte), execa's `fixCwdError`, its
shell-style quoting of the command, and `escapeLines` over the whole text.
"""
from __future__ import annotations

import os
import re
import unicodedata

from .errors import NodeSystemError

# Node's child_process emits these asynchronously with the spawned file in the syscall.
_ASYNC_SPAWN_CODES = {"EACCES", "EAGAIN", "EMFILE", "ENFILE", "ENOENT"}

_COMMON_ESCAPES = {" ": " ", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

# node:util stripVTControlCharacters
_ANSI = re.compile(
    "[\u001B\u009B][\\[\\]()#;?]*"
    "(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?"
    "(?:\u0007|\u001B\u005C|\u009C))"
    "|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-nq-uy=><~]))",
    re.ASCII,
)
_NO_ESCAPE = re.compile(r"[A-Za-z0-9_./-]+")


def _special(ch: str) -> bool:
    """execa's /\\p{Separator}|\\p{Other}/u."""
    return unicodedata.category(ch)[0] in "ZC"


def escape_control_characters(line: str) -> str:
    out = []
    for ch in line:
        if not _special(ch):
            out.append(ch)
        elif ch in _COMMON_ESCAPES:
            out.append(_COMMON_ESCAPES[ch])
        else:
            cp = ord(ch)
            out.append(f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:x}")
    return "".join(out)


def quote_string(arg: str) -> str:
    if _NO_ESCAPE.fullmatch(arg):
        return arg
    return "'" + arg.replace("'", "'\\''") + "'"


def join_command(file: str, args: list[str]) -> str:
    return " ".join(quote_string(escape_control_characters(a)) for a in [file, *args])


def escape_lines(text: str) -> str:
    return "\n".join(escape_control_characters(line) for line in _ANSI.sub("", text).split("\n"))


def strip_final_newline(text: str) -> str:
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    return text


def fix_cwd_error(original: str, cwd: str) -> str:
    try:
        if cwd == os.getcwd():
            return original
    except OSError:
        pass
    try:
        st = os.stat(cwd)
    except OSError as exc:
        stat_message = NodeSystemError.from_oserror(exc, "stat", cwd).message
        return f'The "cwd" option is invalid: {cwd}.\n{stat_message}\n{original}'
    import stat as _stat
    if not _stat.S_ISDIR(st.st_mode):
        return f'The "cwd" option is not a directory: {cwd}.\n{original}'
    return original


# --- node:util inspect() of a string, as ERR_INVALID_ARG_VALUE prints it ---------------------

_META = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x27: "\\'", 0x5C: "\\\\"}


def _str_escape(s: str) -> str:
    quote = "'"
    if "'" in s:
        if '"' not in s:
            quote = '"'
        elif "`" not in s and "${" not in s:
            quote = "`"
    out = []
    for ch in s:
        cp = ord(ch)
        if (ch == "'" and quote == "'") or cp == 0x5C or cp < 32 or 126 < cp < 160:
            out.append(_META.get(cp) or f"\\x{cp:02X}")
        elif 0xD800 <= cp <= 0xDFFF:
            out.append(f"\\u{cp:04X}")
        else:
            out.append(ch)
    return quote + "".join(out) + quote


def inspect_string(s: str) -> str:
    if len(s) > 16 and len(s) > 128 - 4:
        lines = re.split(r"(?<=\n)", s)
        lines = [line for line in lines if line != ""] or [""]
        return " +\n  ".join(_str_escape(line) for line in lines)
    return _str_escape(s)


def invalid_arg_value(name: str, value: str, reason: str) -> str:
    inspected = inspect_string(value)
    if len(inspected) > 128:
        inspected = inspected[:128] + "..."
    kind = "property" if "." in name else "argument"
    return f"The {kind} '{name}' {reason}. Received {inspected}"


def spawn_failure_message(code: str, original: str, file: str, args: list[str], cwd: str) -> str:
    original = escape_lines(fix_cwd_error(original, cwd))
    short = f"Command failed with {code}: {join_command(file, args)}" + (f"\n{original}" if original else "")
    return escape_lines(strip_final_newline(short))


def node_spawn_error(code: str, spawnfile: str) -> str:
    return f"spawn {spawnfile} {code}" if code in _ASYNC_SPAWN_CODES else f"spawn {code}"
