"""`wsconf smoke ADAPTER`: the handshake and a handful of cases, explained in plain words, for
someone writing a new adapter."""
from __future__ import annotations

from ..adapters.base import AdapterFault
from ..adapters.registry import load_adapter
from ..judge.runner import PASSED, UNSUPPORTED, run_case
from ..spec.loader import load_spec

SMOKE_TAG = "smoke"


def smoke(adapter_spec: str, timeout: float = 30.0, out=print) -> int:
    spec = load_spec()
    problems = 0
    out(f"1. Starting {adapter_spec!r} and asking who it is ...")
    try:
        adapter = load_adapter(adapter_spec, timeout)
    except (AdapterFault, ValueError, ImportError, AttributeError) as exc:
        out(f"   FAILED: the adapter did not start or did not answer `hello`.\n   {exc}\n"
            "   Check that the command runs on its own, prints only protocol lines on stdout, and answers\n"
            '   {"id": 1, "op": "hello", "params": {"protocol": 1}} with {"id": 1, "ok": true, "result": {...}}.')
        return 1
    out(f"   ok: {adapter.name} {adapter.version}")
    unknown = sorted(set(adapter.capabilities) - set(spec.capabilities))
    out(f"   capabilities: {', '.join(sorted(adapter.capabilities)) or '(none)'}")
    if unknown:
        problems += 1
        out(f"   PROBLEM: unknown capabilities {unknown}; the vocabulary is spec/capabilities.yaml")
    try:
        out("2. Opening a workspace on an empty folder and listing its tools ...")
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            try:
                session = adapter.open(tmp, tmp, tmp, {})
                tools = session.tools()
                session.close()
            except AdapterFault as exc:
                problems += 1
                out(f"   FAILED: {exc}\n   `open` must return {{\"session\": ...}} and `tools` a list of "
                    "{name, description, inputSchema}.")
                tools = []
            if tools:
                names = [t.get("name") for t in tools]
                out(f"   ok: {len(tools)} tools: {', '.join(map(str, names))}")
                if "mastra_workspace_read_file" not in names:
                    problems += 1
                    out("   PROBLEM: no mastra_workspace_read_file; a filesystem workspace must expose it")
        cases = [c for c in spec.cases if SMOKE_TAG in c.tags]
        out(f"3. Running {len(cases)} smoke cases ...")
        for case in cases:
            result = run_case(case, adapter)
            mark = {PASSED: "ok", UNSUPPORTED: "unsupported"}.get(result.outcome, result.outcome.upper())
            out(f"   {mark:<12} {case.id}: {case.title}")
            if result.outcome not in (PASSED, UNSUPPORTED):
                problems += 1
                out("      " + result.message.replace("\n", "\n      "))
                out(f"      (see it in plain words: wsconf show {case.id})")
    finally:
        adapter.close()
    out("\nAll good: run the whole suite with `wsconf run --adapter ...`." if not problems
        else f"\n{problems} problem(s) above.")
    return 1 if problems else 0
