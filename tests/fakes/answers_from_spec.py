"""Implements nothing: answers each call with what the spec (argv[1], the folder it is judged by)
expects of a case calling that tool with those arguments on a root holding those files, the way a
port could look answers up in the installed wsconf. Where it finds none, or cannot read the spec,
it answers "no answer"."""
import os
import sys

from protocol_fake import serve


def files_in(root):
    found = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            try:
                found[os.path.relpath(path, root)] = open(path, encoding="utf-8", newline="").read()
            except (OSError, UnicodeDecodeError):
                found[os.path.relpath(path, root)] = None
    return found


def key(tool, args, files):
    return tool, repr(sorted(args.items())), repr(sorted(files.items()))


ANSWERS = {}
try:
    from wsconf.spec import load_spec
    for case in load_spec(sys.argv[1]).cases:
        files = (case.setup or {}).get("files") or {}
        if not all(isinstance(v, str) for v in files.values()):
            continue
        for step in case.steps:
            if "tool" in step and "text" in step.get("expect", {}):
                ANSWERS.setdefault(key(step["tool"], step.get("args", {}), files), step["expect"]["text"])
except Exception:  # the spec is not there for it (confined): nothing to look up
    pass


def call(params, session):
    text = ANSWERS.get(key(params["tool"], params["args"], files_in(session["root"])))
    if text is None:
        return {"kind": "text", "value": "no answer", "model": None}
    return {"kind": "text", "value": text.replace("{{root}}", session["root"]), "model": None}


serve(call)
