"""The release matrix dealt to the jobs of a CI matrix (`wsconf matrix run --shard I/N`).

Every (release, case) pair goes to exactly one of N shards, by its expected duration:

- measured, when `--durations` names earlier runs (a matrix folder, a merged one, or results files
  of single releases): the pair's own duration on that release, else the case's median over the
  releases that ran it;
- else DEFAULT_CASE_SECONDS, the mean case of the upstream's serial run in BENCHMARKS.md (83.7 s
  of case time over 1781 cases).

A shard's expected time is RELEASE_SECONDS for each release it holds (installing it on a fresh
runner and starting `wsconf run`; a release split between two shards costs it twice) and its
cases' durations over the run's workers (-n). The pairs are laid out release by release (oldest
first), cases in spec order, and cut into N consecutive runs, the longest as short as it can be (the
smallest limit, found by bisection, that filling the shards in order keeps to). So a shard holds few
releases, and the deal is a pure function of the spec's cases, the releases, the durations, -n and
N: every job of a CI matrix computes the same one. The manifest each shard writes (shard.json)
names its deal's digest, so shards dealt from other inputs are refused when merged
(shard_merge.py).
"""
from __future__ import annotations

import hashlib
import json
import re
import statistics
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from ..spec.versions import key

DEFAULT_CASE_SECONDS = 0.047   # 83.7 s of case time / 1781 cases: the upstream's serial run (BENCHMARKS.md)
RELEASE_SECONDS = 75.0         # a release on a fresh runner: its install (70 s for 1.40.0 into empty caches, here) and a run's start-up
MANIFEST = "shard.json"


class ShardError(ValueError):
    """A shard that cannot be run or merged; the message names the file or option."""


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N), 1 <= I <= N."""
    found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
        raise ShardError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. 2/8")
    return int(found.group(1)), int(found.group(2))


@dataclass
class Durations:
    """Seconds per (release, case) measured by earlier runs, and per case over the releases."""
    pairs: dict[tuple[str, str], float] = field(default_factory=dict)
    source: str = f"the default estimate ({DEFAULT_CASE_SECONDS} s a case)"
    per_case: dict[str, float] = field(init=False, default_factory=dict)

    def __post_init__(self):
        by_case: dict[str, list[float]] = {}
        for (_, case_id), seconds in self.pairs.items():
            by_case.setdefault(case_id, []).append(seconds)
        self.per_case = {i: statistics.median(s) for i, s in by_case.items()}

    def of(self, version: str, case_id: str) -> float:
        found = self.pairs.get((version, case_id))
        return found if found is not None else self.per_case.get(case_id, DEFAULT_CASE_SECONDS)


def load_durations(sources: list[str] | None) -> Durations:
    """The durations recorded by earlier runs: each source a matrix folder (every <version>/results.jsonl)
    or a results file of one release."""
    from ..results.records import load_results
    from .history import load_matrix
    if not sources:
        return Durations()
    pairs: dict[tuple[str, str], float] = {}
    for source in sources:
        path = Path(source)
        if path.is_dir():
            runs = load_matrix(path)
            if not runs:
                raise ShardError(f"--durations {source}: no <version>/results.jsonl in this folder")
        elif path.is_file():
            results = load_results(path)
            version = results.core_version
            if not version:
                raise ShardError(f"--durations {source}: its header names no @mastra/core release")
            runs = {version: results}
        else:
            raise ShardError(f"--durations {source}: no such file or folder")
        for version, results in runs.items():
            for case_id, record in results.records.items():
                if isinstance(record.get("duration"), (int, float)):
                    pairs[(version, case_id)] = float(record["duration"])
    return Durations(pairs, source=", ".join(sources))


def deal(versions: list[str], case_ids: list[str], durations: Durations, shards: int,
         workers: int = 1) -> list[dict[str, list[str]]]:
    """The pairs of every release and case cut into `shards` runs, the longest as short as it can be:
    per shard, release -> its case ids in spec order (releases oldest first). A shard's expected time
    is RELEASE_SECONDS for each release it holds (a release split between two shards is installed
    twice) and its cases' durations over `workers`."""
    versions = sorted(versions, key=key)
    if not versions or not case_ids:
        return [{} for _ in range(shards)]
    cumulative = [list(accumulate((durations.of(v, i) / max(1, workers) for i in case_ids), initial=0.0))
                  for v in versions]

    def fill(limit: float) -> list[dict[str, list[str]]] | None:
        """Pairs in order, each shard filled up to `limit`; None if that takes more than `shards`."""
        out: list[dict[str, list[str]]] = [{}]
        load, release, start = 0.0, 0, 0
        while release < len(versions):
            if start == len(case_ids):
                release, start = release + 1, 0
                continue
            cum = cumulative[release]
            base = load + (0.0 if versions[release] in out[-1] else RELEASE_SECONDS)
            end = bisect_right(cum, limit - base + cum[start]) - 1
            if end <= start:                 # not one more case fits: the next shard
                if not out[-1] or len(out) == shards:
                    return None
                out.append({})
                load = 0.0
                continue
            out[-1].setdefault(versions[release], []).extend(case_ids[start:end])
            load, start = base + cum[end] - cum[start], end
        return out + [{} for _ in range(shards - len(out))]

    low, high = 0.0, (RELEASE_SECONDS * len(versions) + sum(cum[-1] for cum in cumulative)) * 1.001 + 1.0
    best = fill(high)
    for _ in range(60):                      # the smallest limit that needs no more than `shards`
        middle = (low + high) / 2
        found = fill(middle)
        if found is None:
            low = middle
        else:
            high, best = middle, found
    return best


def expected_seconds(pairs: dict[str, list[str]], durations: Durations, workers: int = 1) -> float:
    """What a shard is expected to take: RELEASE_SECONDS per release, and its cases over `workers`."""
    return sum(RELEASE_SECONDS + sum(durations.of(v, i) for i in ids) / max(1, workers) for v, ids in pairs.items())


def spec_digest(spec) -> str:
    """The cases as the matrix runs them (ids in order, content without `versions`)."""
    from .matrix import case_hash
    digest = hashlib.sha256()
    for case in spec.cases:
        digest.update(f"{case.id}\0{case_hash(case)}\0".encode())
    return digest.hexdigest()[:16]


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def manifest(index: int, count: int, spec, bridge: str, versions: list[str], case_ids: list[str], limited: bool,
             dealt: list[dict[str, list[str]]], durations: Durations, workers: int) -> dict:
    """What shard.json says: which shard of which deal, on which spec and bridge, and its pairs.
    limited: the matrix was limited to some cases (`--ids`), as a single run's status then says."""
    from .. import __version__
    return {"shard": index, "of": count, "spec": spec_digest(spec), "bridge": bridge, "wsconf": __version__,
            "releases": sorted(versions, key=key), "cases": digest(case_ids), "limited": limited, "deal": digest(dealt),
            "durations": durations.source, "workers": workers,
            "expected_seconds": round(expected_seconds(dealt[index - 1], durations, workers), 1),
            "pairs": dealt[index - 1]}


def write_manifest(folder: Path, data: dict) -> None:
    """shard.json in the shard's folder; a folder holding another deal's shard is refused, so a
    resumed shard never mixes two deals."""
    path = folder / MANIFEST
    if path.is_file():
        old = read_manifest(path)
        mismatch = [k for k in ("shard", "of", "spec", "bridge", "deal") if old.get(k) != data[k]]
        if mismatch:
            raise ShardError(f"{path}: this folder holds shard {old.get('shard')}/{old.get('of')} of another deal "
                             f"({', '.join(mismatch)} differ); give the shard an empty folder (--matrix)")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def read_manifest(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ShardError(f"{path}: {exc.strerror} (a shard's folder holds the shard.json "
                         "`wsconf matrix run --shard` writes)") from None
    except json.JSONDecodeError as exc:
        raise ShardError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    needed = ("shard", "of", "spec", "bridge", "releases", "cases", "limited", "deal", "pairs")
    missing = [k for k in needed if k not in data] if isinstance(data, dict) else list(needed)
    if missing:
        raise ShardError(f"{path}: not a shard manifest (missing {', '.join(missing)})")
    for name in ("shard", "of"):
        if not isinstance(data[name], int) or isinstance(data[name], bool):
            raise ShardError(f"{path}: key {name}: expected a whole number, not {data[name]!r}")
    pairs = data["pairs"]
    if not isinstance(pairs, dict) or not all(isinstance(ids, list) and all(isinstance(i, str) for i in ids)
                                              for ids in pairs.values()):
        raise ShardError(f"{path}: key pairs: expected release -> list of case ids")
    return data


def dealing_workers(workers: str) -> int:
    """-n as the deal counts it: a number, else 1 ("auto" would differ from runner to runner)."""
    return int(workers) if str(workers).isdigit() and int(workers) > 0 else 1


def run_shard(folder: Path, shard: str, versions: list[str], spec, durations: list[str] | None = None,
              only: set[str] | None = None, log=print, **run_options) -> dict:
    """Run shard I/N of the matrix into `folder` (resumable, like any matrix folder): its manifest
    first, then its releases, each limited to the cases dealt to it."""
    from .matrix import bridge_hash, every_case, run_matrix
    index, count = parse_shard(shard)
    case_ids = every_case(spec, only) or [] if only is not None else [c.id for c in spec.cases]
    measured = load_durations(durations)
    workers = dealing_workers(run_options.get("workers", "2"))
    dealt = deal(versions, case_ids, measured, count, workers)
    data = manifest(index, count, spec, bridge_hash(), versions, case_ids, only is not None, dealt, measured, workers)
    write_manifest(folder, data)
    mine = data["pairs"]
    log(f"matrix shard {index}/{count}: {sum(map(len, mine.values()))} of {len(case_ids) * len(versions)} pairs "
        f"on {len(mine)} release(s) ({', '.join(mine) or 'none'}), expected {data['expected_seconds']} s "
        f"(durations: {measured.source})")
    if mine:
        run_matrix(folder, list(mine), spec=spec, log=log, only={v: set(ids) for v, ids in mine.items()}, **run_options)
    return data
