"""execa 9's spawn-failure message on Node 20 (what upstream rethrows), ported.

Checked against execa itself through the bridge on the execute_command error cases.

    Command failed with ENOENT: 'echo hi'
    The "cwd" option is invalid: /x/nope.
    ENOENT: no such file or directory, stat '/x/nope'
    spawn /bin/sh ENOENT

Pieces: Node's spawn error (`spawn <file> <CODE>` for the codes libuv reports asynchronously,
`spawn <CODE>` for the others; its argument checks are node_args.py's), execa's `fixCwdError`, its
shell-style quoting of the command, and `escapeLines` over the whole text.
"""
from __future__ import annotations

import os
import re
import unicodedata

from .errors import NodeSystemError
from .node_args import NodeArgError, fs_path

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
        st = os.stat(fs_path(cwd))
    except (OSError, NodeArgError) as exc:  # statSync's error, Node's own checks included
        stat_message = exc.message if isinstance(exc, NodeArgError) else NodeSystemError.from_oserror(exc, "stat", cwd).message
        return f'The "cwd" option is invalid: {cwd}.\n{stat_message}\n{original}'
    import stat as _stat
    if not _stat.S_ISDIR(st.st_mode):
        return f'The "cwd" option is not a directory: {cwd}.\n{original}'
    return original


def spawn_failure_message(code: str, original: str, file: str, args: list[str], cwd: str) -> str:
    original = escape_lines(fix_cwd_error(original, cwd))
    short = f"Command failed with {code}: {join_command(file, args)}" + (f"\n{original}" if original else "")
    return escape_lines(strip_final_newline(short))


def node_spawn_error(code: str, spawnfile: str) -> str:
    return f"spawn {spawnfile} {code}" if code in _ASYNC_SPAWN_CODES else f"spawn {code}"
