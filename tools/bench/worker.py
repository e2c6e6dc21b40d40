"""One benchmark process: run a job's tool calls against one implementation and print the timings.

    python tools/bench/worker.py JOB.json

A job (or {"jobs": [...]}, run one after the other in this process) is
    {"impl": "wsref" | "reference" | "reference-protocol" | "mastra", "mode": "inside" | "e2e",
     "root": dir, "workspace": {...}, "warmup": [call...], "calls": [call...], "tracemalloc": false}
with call = {"tool": name, "args": {...}, "repeat": n}. An argument {"$fmt": "counter={i};"} becomes
the string with i = the call's index and j = i + 1; {"$file": rel} the text of that file (read once,
untimed).

"inside" calls wsref's bound tools directly (what `Session.call` runs, without the Result
conversion); "e2e" goes through the harness adapter named by impl (`load_adapter`). Only the
calls are timed (time.perf_counter around the whole list), not the warm-up or the set-up.

Memory: the peak resident set of the process that runs the tools, measured over the timed calls
only (VmHWM reset through /proc/PID/clear_refs before them, read after); for a subprocess adapter
that is the adapter's process (the bridge, or `python -m wsref.server`). With "tracemalloc" the
Python allocations' peak during the calls is reported too (slower; for the memory check).

One JSON line per job on stdout.
"""
from __future__ import annotations

import hashlib
import json
import os
import resource
import sys
import tempfile
import time


def proc_status_kb(pid: int | str, key: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak(pid: int | str) -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when the kernel does not allow it."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def expand(value, i: int, root: str, cache: dict):
    if isinstance(value, dict):
        if set(value) == {"$fmt"}:
            return value["$fmt"].format(i=i, j=i + 1)
        if set(value) == {"$file"}:
            if value["$file"] not in cache:
                with open(os.path.join(root, value["$file"]), encoding="utf-8") as fh:
                    cache[value["$file"]] = fh.read()
            return cache[value["$file"]]
        return {k: expand(v, i, root, cache) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v, i, root, cache) for v in value]
    return value


def plan(calls: list, root: str) -> list[tuple[str, dict]]:
    cache: dict = {}
    out = []
    for call in calls:
        for i in range(call.get("repeat", 1)):
            out.append((call["tool"], expand(call.get("args", {}), i, root, cache)))
    return out


def text_of(output) -> str:
    if isinstance(output, str):
        return output
    return json.dumps(output, sort_keys=True, default=str)


class Inside:
    """wsref called directly: the bound tools `Session` builds, execute() only."""

    def __init__(self, job: dict):
        from wsref.server.protocol import Session
        self.session = Session(job["root"], job.get("home") or job["root"], job.get("workspace") or {})
        self.tools = self.session._toolset()
        self.pid = os.getpid()

    def call(self, tool: str, args: dict):
        try:
            out = self.tools[tool].execute(args)
        except Exception as exc:  # a thrown tool error is a result here, as upstream
            return False, f"{type(exc).__name__}: {exc}"
        if isinstance(out, dict) and out.get("error") is True:
            return False, text_of(out)
        return True, out

    def close(self):
        self.session.close()


class EndToEnd:
    """Through the harness adapter (in process for `reference`, a subprocess otherwise)."""

    def __init__(self, job: dict):
        from wsconf.adapters.registry import load_adapter
        from wsconf.isolation.confine import choose
        name = {"wsref": "reference"}.get(job["impl"], job["impl"])
        # unconfined: the workload trees are outside any case folder (what confinement costs a whole
        # run is tools.bench.confinement's)
        self.adapter = load_adapter(name, timeout=600, confinement=choose("off"))
        home = job.get("home") or job["root"]
        self.session = self.adapter.open(job["root"], home, home, job.get("workspace") or {})
        process = getattr(self.adapter, "process", None)
        self.pid = process.proc.pid if process is not None else os.getpid()

    def call(self, tool: str, args: dict):
        result = self.session.call(tool, args)
        if result.get("kind") == "error":
            return False, f"{result.get('name')}: {result.get('message')}"
        value = result.get("value")
        if result.get("kind") == "value" and isinstance(value, dict) and value.get("error") is True:
            return False, text_of(value)
        return True, value

    def close(self):
        try:
            self.session.close()
        finally:
            self.adapter.close()


def run_job(job: dict) -> dict:
    runner = (Inside if job.get("mode", "inside") == "inside" else EndToEnd)(job)
    try:
        warm = plan(job.get("warmup", []), job["root"])
        calls = plan(job["calls"], job["root"])
        for tool, args in warm:
            runner.call(tool, args)
        use_tracemalloc = bool(job.get("tracemalloc")) and isinstance(runner, Inside)
        if use_tracemalloc:
            import tracemalloc
            tracemalloc.start()
            tracemalloc.reset_peak()
        rss_base = proc_status_kb(runner.pid, "VmRSS")
        peak_reset = reset_peak(runner.pid)
        errors, first_error, last = 0, None, None
        t0 = time.perf_counter()
        for tool, args in calls:
            ok, out = runner.call(tool, args)
            if not ok:
                errors += 1
                first_error = first_error or out
            last = out
        seconds = time.perf_counter() - t0
        traced = None
        if use_tracemalloc:
            import tracemalloc
            traced = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        rss_peak = proc_status_kb(runner.pid, "VmHWM") if peak_reset else None
        if rss_peak is None and runner.pid == os.getpid():
            rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        text = text_of(last)
        return {"ok": True, "seconds": seconds, "calls": len(calls), "errors": errors, "first_error": first_error,
                "digest": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16],
                "head": text[:160], "rss_base_kb": rss_base, "rss_peak_kb": rss_peak, "peak_reset": peak_reset,
                "tracemalloc_peak": traced}
    finally:
        runner.close()


def main(argv: list[str]) -> int:
    with open(argv[1]) as fh:
        spec = json.load(fh)
    # Tools resolve `~` against HOME; keep it inside the scratch area, as the harness does.
    os.environ.setdefault("HOME", tempfile.gettempdir())
    for job in spec.get("jobs", [spec]):
        try:
            result = run_job(job)
        except Exception as exc:  # reported, not raised: the runner shows it and goes on
            result = {"ok": False, "fault": f"{type(exc).__name__}: {exc}"}
        result["name"] = job.get("name")
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
