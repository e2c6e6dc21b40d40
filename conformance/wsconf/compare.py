"""`wsconf compare A B`: run two implementations over the whole spec and list every case where
their outputs differ, even where both fail (a port can agree with the upstream on a bug)."""
from __future__ import annotations

import json
import re

from .adapters.registry import load_adapter
from .render import diff
from .runner import UNSUPPORTED, run_case
from .spec import load_spec
from .tree import run_dir

_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _normal(steps: list[dict], captured: dict) -> list:
    """Step outputs with the per-run parts (temporary roots, times, pids) made comparable."""
    out = []
    for step in steps:
        text = json.dumps(step["actual"], sort_keys=True, ensure_ascii=False)
        for name, value in captured.items():
            text = re.sub(rf"(?<![0-9]){re.escape(value)}(?![0-9])", "{{" + name + "}}", text)
        text = re.sub(re.escape(str(run_dir())) + r"/wsconf-[^/\"]+/(root|outside)", r"{{\1}}", text)
        text = _ISO.sub("{{iso_time}}", text)
        out.append({"step": step["id"], "actual": json.loads(text)})
    return out


def compare(a_spec: str, b_spec: str, case_filter=None, out=print) -> int:
    spec = load_spec()
    a, b = load_adapter(a_spec), load_adapter(b_spec)
    differing = 0
    try:
        cases = [c for c in spec.cases if case_filter is None or case_filter(c)]
        for case in cases:
            ra, rb = run_case(case, a), run_case(case, b)
            if UNSUPPORTED in (ra.outcome, rb.outcome):
                continue
            na, nb = _normal(ra.steps, ra.captured), _normal(rb.steps, rb.captured)
            if na != nb or (ra.outcome != rb.outcome):
                differing += 1
                out(f"{case.id}: {a.name} {ra.outcome}, {b.name} {rb.outcome}")
                shown = diff(json.dumps(na, indent=1, ensure_ascii=False), json.dumps(nb, indent=1, ensure_ascii=False))
                out("  " + shown.replace("\n", "\n  ")[:4000])
        out(f"\n{differing} of {len(cases)} cases differ between {a.name} and {b.name}")
    finally:
        a.close()
        b.close()
    return 1 if differing else 0
