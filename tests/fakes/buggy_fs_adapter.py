"""The reference with one kind of bug at a time, each the way a real provider has it, so the
findings can be checked against bugs whose harm is known (tests/test_findings.py).

WSCONF_FAKE_BUG picks it:
  write_noop      write_file answers success and writes nothing (false success)
  delete_siblings delete also removes every other file in the same folder (data loss)
  header_zero     read_file's header says 0 bytes (a metadata difference)
  error_wording   every thrown error's message is reworded (cosmetic)
  refuse_mkdir    mkdir throws EACCES (a wrong refusal)
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from wsconf.adapters.reference import ReferenceAdapter, ReferenceSession

WRITE, DELETE, READ, MKDIR = (f"mastra_workspace_{t}" for t in ("write_file", "delete", "read_file", "mkdir"))


class BuggySession(ReferenceSession):
    def __init__(self, adapter, session, root: str):
        super().__init__(adapter, session)
        self.root = root
        self.bug = os.environ.get("WSCONF_FAKE_BUG", "")

    def call(self, tool, args, options=None):
        if self.bug == "write_noop" and tool == WRITE and isinstance(args, dict):
            content = args.get("content") or ""
            return {"kind": "text", "value": f"Wrote {len(content.encode())} bytes to {args.get('path')}", "model": None}
        if self.bug == "refuse_mkdir" and tool == MKDIR:
            return {"kind": "error", "message": f"EACCES: permission denied, mkdir '{args.get('path')}'",
                    "code": "EACCES", "name": "Error"}
        result = super().call(tool, args, options)
        if self.bug == "delete_siblings" and tool == DELETE and result.get("kind") == "text":
            folder = Path(self.root) / str(args.get("path", "")).lstrip("/")
            for sibling in folder.parent.iterdir() if folder.parent.is_dir() else []:
                if sibling.is_file() and not sibling.is_symlink():
                    sibling.unlink()
        if self.bug == "header_zero" and tool == READ and result.get("kind") == "text":
            result = {**result, "value": re.sub(r"\(\d+ bytes\)", "(0 bytes)", result["value"], count=1)}
        if self.bug == "error_wording" and result.get("kind") == "error":
            result = {**result, "message": "Something went wrong: " + result["message"].lower()}
        return result


class BuggyAdapter(ReferenceAdapter):
    name = "buggy-fs"
    version = "0.0.1"

    def open(self, root, outside, home, workspace):
        session = super().open(root, outside, home, workspace)
        return BuggySession(self, session.session, root)
