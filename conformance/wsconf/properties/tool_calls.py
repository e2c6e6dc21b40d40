"""What the differential fuzzer sends: per tool (a *family*), the workspace it opens and the calls
it makes, every string argument and string option that reaches Node drawn from `edge_string` and
every number from `edge_number` (node_edges.py).

A call is `(kind, name, args)`: `("call", tool, {...})` for a tool's execute, `("fs", method, [...])`
for a WorkspaceFilesystem method. In args, `{root}` and `{outside}` stand for the case's folders and
`{pid}` for the pid of the background process the session started last.

The outputs must not depend on timing, or a difference would be noise: a command given a timeout
sleeps 0.5 s, and its timeouts either kill it at once (Node's setTimeout fires after 1 ms for
anything outside [1, 2**31 - 1] ms) or let it finish (3 s or more); a background process is
queried with `wait: true` unless it sleeps for the whole case. Nor may an input hang both
implementations: grep walks every line index up to a match's plus `contextLines` (upstream and
reference alike), so a huge value never returns, and contextLines keeps to small edges.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from .node_edges import edge_number, edge_string

# The tree every example starts from (bytes, so a name can be what no string spells).
START_FILES = {
    "a.txt": b"alpha\nbeta\ngamma\n",
    "sub/b.txt": b"beta\n",
    "\u00e9.txt": b"nfc\n",                  # é precomposed; its NFD form is another name
    "\ufffd.txt": b"replacement\n",          # where a lone surrogate in a path lands
    "-dash.txt": b"dash\n",
    "src/m.ts": b"import { x } from 'y';\nconsole.log(x);\nconst foo = 1;\n",
    ".hidden": b"h\n",
    ".gitignore": b"ignored.txt\n",
    "ignored.txt": b"i\n",
    "bad\udcff.txt": b"undecodable\n",       # named b"bad\xff.txt": Node reads the name as "bad\ufffd.txt"
}
START_DIRS = ["empty"]

PATHS = ["a.txt", "sub/b.txt", "sub", "sub/", ".", "./a.txt", "\u00e9.txt", "\ufffd.txt", "-dash.txt", "missing.txt",
         "new.txt", "new/deep/n.txt", "src/m.ts", "{root}/a.txt", "{root}", "/", "..", "../outside.txt", "~/x.txt",
         ".hidden", "empty", "ignored.txt"]
path = edge_string(PATHS)
maybe = lambda s: st.none() | s  # noqa: E731  (an optional argument: None is left out)
content = edge_string(["", "x", "alpha\n", "line1\nline2\n", "\u00e9\u4e2d\U0001F600\n", "a\r\nb"])
flag = st.booleans()


def _args(**kw) -> dict:
    """The arguments given: None means left out."""
    return {k: v for k, v in kw.items() if v is not None}


def _call(tool: str, **strategies):
    return st.builds(lambda **kw: ("call", f"mastra_workspace_{tool}", _args(**kw)), **strategies)


ENCODINGS = ["utf-8", "utf8", "base64", "hex", "binary", "UTF-8", "latin1", "ascii", "ucs2", "utf16le"]
GLOBS = ["*.txt", "**/*.txt", "sub", "sub/**", "*", "{a,b}*", "!(a).txt", "**/b*", "[ab]*", "\u00e9*"]
GREP = ["alpha", "a|b", "^b", "\\d", "\u00e9", ".", "beta$", "(?<n>a)\\k<n>", "[\u00e9e]", ""]
COMMANDS = ["echo hi", "printf '%s\\n' 1 2 3 4 5 6", "cat a.txt", "cat missing.txt", "ls", "ls -a sub", "pwd",
            "echo \"$WSF_A\"", "exit 3", "echo out; echo err >&2", "cat a.txt | tail -2", "env", "true",
            "echo \u00e9", "printf 'x\\0y'", "echo \"$0\""]
CWDS = ["sub", ".", "{root}/sub", "{root}", "missing", "a.txt", "..", "~", "empty"]
PIDS = ["{pid}", "{pid}", "{pid}", "0", "-1", "1", "abc", "99999999", " {pid}", "{pid}.0"]
ENV_KEYS = ["WSF_A", "WSF_B", "0", "10", "PATH", "HOME", "A=B", "", "LANG", "-x"]
ENV_VALUES = ["x", "", "a b", "$HOME", "\u00e9", "/usr/bin:/bin"]
TIMED = "/bin/sleep 0.5; echo done"   # by its path: a generated PATH must not make it end at once
# Seconds that kill TIMED at once (negative, tiny, or past setTimeout's 2**31 - 1 ms), that let it
# finish, or that are no number; none between.
TIMEOUTS = st.sampled_from([0, -0.0, -1, -0.5, 1e-7, 5e-324, 1e-4, 2**31, 2**32, 2**53, 1e21, 1e308, -1e308, 3,
                            3.5, 10, "NaN", "Infinity", "-Infinity", "1e3", " 3 ", "0x10", "", "-0", "1e400", "3.",
                            ".5", "+3", "9007199254740993", "\u0663", "\u00a03", "-1", "3\n"])
# Lines of context: the edges that return (see above).
CONTEXT = st.sampled_from([0, -0.0, -1, -0.5, 0.5, 1, 1.5, 2, 3, 1e-7, 5e-324, -1e308, "1", "NaN", ""])


def env() -> st.SearchStrategy[dict]:
    return st.dictionaries(edge_string(ENV_KEYS, max_edits=2), edge_string(ENV_VALUES, max_edits=2), max_size=3)


def _command_call():
    """execute_command: a command of COMMANDS with Node's edges, or TIMED with an edge timeout."""
    plain = _call("execute_command", command=edge_string(COMMANDS, huge=True), cwd=maybe(edge_string(CWDS)),
                  tail=maybe(edge_number), background=maybe(flag))
    timed = _call("execute_command", command=st.just(TIMED), timeout=TIMEOUTS, cwd=maybe(st.sampled_from(CWDS)))
    return st.one_of(plain, plain, plain, timed)   # a timed call takes half a second: one in four


def _background(commands):
    return st.builds(lambda c: ("call", "mastra_workspace_execute_command", {"command": c, "background": True}),
                     st.sampled_from(commands))


# A process that finishes at once is read with wait: true; one that sleeps through the case may be read without.
_QUICK = ["printf '%s\\n' l1 l2 l3 l4; echo e >&2", "exit 2", "echo \u00e9\u4e2d"]
_output_of_quick = _call("get_process_output", pid=edge_string(PIDS, max_edits=2), tail=maybe(edge_number),
                         wait=st.just(True))
_output_of_sleeper = _call("get_process_output", pid=edge_string(PIDS, max_edits=2), tail=maybe(edge_number),
                           wait=maybe(st.just(False)))

_FS_PAIR = [st.builds(lambda a, b, o, r, m=m: ("fs", m, [a, b, _args(overwrite=o, recursive=r)]),
                      path, path, maybe(flag), maybe(flag)) for m in ("copyFile", "moveFile")]
_fs_call = st.one_of(
    st.builds(lambda p, e: ("fs", "readFile", [p] + ([{"encoding": e}] if e is not None else [])),
              path, maybe(edge_string(ENCODINGS, max_edits=2))),
    st.builds(lambda p, c, r, o: ("fs", "writeFile", [p, c, _args(recursive=r, overwrite=o)]), path, content,
              maybe(flag), maybe(flag)),
    st.builds(lambda p, c: ("fs", "appendFile", [p, c]), path, content),
    st.builds(lambda p, f: ("fs", "deleteFile", [p, _args(force=f)]), path, maybe(flag)),
    *_FS_PAIR,
    st.builds(lambda p, r: ("fs", "mkdir", [p, _args(recursive=r)]), path, maybe(flag)),
    st.builds(lambda p, r, f: ("fs", "rmdir", [p, _args(recursive=r, force=f)]), path, maybe(flag), maybe(flag)),
    st.builds(lambda p, r, e, d: ("fs", "readdir", [p, _args(recursive=r, extension=e, maxDepth=d)]), path,
              maybe(flag), maybe(edge_string([".txt", "txt", ".ts"], max_edits=2)), maybe(edge_number)),
    st.builds(lambda m, p: ("fs", m, [p]), st.sampled_from(["exists", "stat", "realpath"]), path),
)


@dataclass(frozen=True)
class Family:
    """One tool's share of the fuzzer: the workspace block it opens and its calls."""
    name: str
    workspace: st.SearchStrategy
    calls: st.SearchStrategy     # a list of calls, CALLS_PER_EXAMPLE long


CALLS_PER_EXAMPLE = 4
_NO_SANDBOX = st.just({})
_SANDBOX = st.builds(lambda e: {"sandbox": {"env": e} if e is not None else {}}, maybe(env()))


def _calls(call, *first):
    """CALLS_PER_EXAMPLE calls: the `first` ones (a process to look at) and then generated ones."""
    return st.builds(lambda head, rest: [*head, *rest], st.tuples(*first),
                     st.lists(call, min_size=CALLS_PER_EXAMPLE - len(first), max_size=CALLS_PER_EXAMPLE - len(first)))


# A quick process has ended before it is looked at: upstream forgets a process once it is read
# after its exit, so whether a second read finds it would depend on the first read's timing.
_SETTLE = st.just(("call", "mastra_workspace_execute_command", {"command": "/bin/sleep 0.3"}))


FAMILIES = [
    Family("read_file", _NO_SANDBOX, _calls(_call(
        "read_file", path=path, offset=maybe(edge_number), limit=maybe(edge_number), showLineNumbers=maybe(flag),
        encoding=maybe(edge_string(ENCODINGS, max_edits=2))))),
    Family("write_file", _NO_SANDBOX, _calls(_call("write_file", path=path, content=content, overwrite=maybe(flag)))),
    Family("edit_file", _NO_SANDBOX, _calls(_call(
        "edit_file", path=path, old_string=edge_string(["alpha", "beta", "a", "", "\n"]),
        new_string=edge_string(["", "X", "\u00e9", "$&"]), replace_all=maybe(flag)))),
    Family("delete", _NO_SANDBOX, _calls(_call("delete", path=path, recursive=maybe(flag)))),
    Family("mkdir", _NO_SANDBOX, _calls(_call("mkdir", path=path, recursive=maybe(flag)))),
    Family("file_stat", _NO_SANDBOX, _calls(_call("file_stat", path=path))),
    Family("list_files", _NO_SANDBOX, _calls(_call(
        "list_files", path=maybe(path), maxDepth=maybe(edge_number), showHidden=maybe(flag), dirsOnly=maybe(flag),
        exclude=maybe(edge_string(GLOBS, max_edits=2)), extension=maybe(edge_string([".txt", "txt", ".ts", ""], max_edits=2)),
        pattern=maybe(edge_string(GLOBS, max_edits=2) | st.lists(edge_string(GLOBS, max_edits=1), max_size=3)),
        respectGitignore=maybe(flag)))),
    Family("grep", _NO_SANDBOX, _calls(_call(
        "grep", pattern=edge_string(GREP, max_edits=2), path=maybe(path), contextLines=maybe(CONTEXT),
        maxCount=maybe(edge_number), caseSensitive=maybe(flag), includeHidden=maybe(flag)))),
    Family("ast_edit", _NO_SANDBOX, _calls(_call(
        "ast_edit", path=edge_string(["src/m.ts", "a.txt", "missing.ts", "src", "{root}/src/m.ts"]),
        pattern=maybe(edge_string(["console.log($A)", "foo", "$X", "const $N = $V"], max_edits=2)),
        replacement=maybe(edge_string(["print($A)", "bar", ""], max_edits=2)),
        transform=maybe(st.sampled_from(["add-import", "remove-import", "rename"])),
        targetName=maybe(edge_string(["foo", "x", "console"], max_edits=2)),
        newName=maybe(edge_string(["bar", "y"], max_edits=2)),
        importSpec=maybe(st.builds(lambda m, n, d: _args(module=m, names=n, isDefault=d),
                                   edge_string(["y", "node:fs", "./z"], max_edits=2),
                                   st.lists(edge_string(["x", "a", "default"], max_edits=1), max_size=2),
                                   maybe(flag)))))),
    Family("execute_command", _SANDBOX, _calls(_command_call())),
    Family("get_process_output", _SANDBOX, st.one_of(
        _calls(_output_of_quick, _background(_QUICK), _SETTLE),
        _calls(_output_of_sleeper, _background(["/bin/sleep 30"])))),
    Family("kill_process", _SANDBOX, _calls(
        st.one_of(_call("kill_process", pid=edge_string(PIDS, max_edits=2)), _output_of_sleeper),
        _background(["/bin/sleep 30"]))),
    Family("filesystem", _NO_SANDBOX, _calls(_fs_call)),
]
