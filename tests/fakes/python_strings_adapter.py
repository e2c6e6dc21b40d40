"""The reference as it was before it answered like Node: any tool argument holding a lone surrogate
fails with Python's own UTF-8 error. The differential fuzzer must find it (test_differential_fuzzer)."""
from __future__ import annotations

import re

from wsconf.adapters.reference import ReferenceAdapter, ReferenceSession

_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


class Session(ReferenceSession):
    def call(self, tool, args, options=None):
        if any(isinstance(v, str) and _LONE.search(v) for v in args.values()):
            return {"kind": "error", "message": "'utf-8' codec can't encode character: surrogates not allowed",
                    "code": None, "name": "Error"}
        return super().call(tool, args, options)


class Adapter(ReferenceAdapter):
    name = "python-strings"

    def open(self, root, outside, home, workspace):
        return Session(self, super().open(root, outside, home, workspace).session)
