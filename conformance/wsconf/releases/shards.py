"""The release matrix dealt to the jobs of a CI matrix (`wsconf matrix run --shard I/N`).

Every (release, case) pair goes to exactly one of N shards, by its expected duration:

- measured, when `--durations` names earlier runs (a matrix folder, a merged one, or results files
  of single releases): the pair's own duration on that release, else the case's median over the
  releases that ran it;
- else DEFAULT_CASE_SECONDS, the mean case of the upstream's serial run in BENCHMARKS.md (83.7 s
  of case time over 1781 cases).

Each release a shard runs costs RELEASE_SECONDS more (installing it on a fresh runner and starting
`wsconf run`), counted on the release's first case. The pairs are laid out release by release
(oldest first), cases in spec order, and cut into N runs of about equal expected time: a pair goes to
the shard its cumulative midpoint falls in. So each shard is within one pair's cost of the mean,
touches few releases (one install each), and the deal is a pure function of the spec's cases, the
releases, the durations and N: every job of a CI matrix computes the same one. The manifest each
shard writes (shard.json) names its deal's digest, so shards dealt from other inputs are refused
when merged (merge.py).
"""
from __future__ import annotations

import hashlib
import json
import re
import statistics
from dataclasses import dataclass, field
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


def deal(versions: list[str], case_ids: list[str], durations: Durations, shards: int) -> list[dict[str, list[str]]]:
    """The pairs of every release and case cut into `shards` runs of about equal expected time:
    per shard, release -> its case ids in spec order (releases oldest first)."""
    versions = sorted(versions, key=key)
    costs = [(v, i, durations.of(v, i) + (RELEASE_SECONDS if n == 0 else 0.0))
             for v in versions for n, i in enumerate(case_ids)]
    total = sum(cost for _, _, cost in costs) or 1.0
    out: list[dict[str, list[str]]] = [{} for _ in range(shards)]
    before = 0.0
    for version, case_id, cost in costs:
        index = min(shards - 1, int((before + cost / 2) * shards / total))
        out[index].setdefault(version, []).append(case_id)
        before += cost
    return out


def expected_seconds(pairs: dict[str, list[str]], durations: Durations) -> float:
    """What a shard is expected to take run serially: its cases, and RELEASE_SECONDS per release."""
    return sum(RELEASE_SECONDS + sum(durations.of(v, i) for i in ids) for v, ids in pairs.items())


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
             dealt: list[dict[str, list[str]]], durations: Durations) -> dict:
    """What shard.json says: which shard of which deal, on which spec and bridge, and its pairs.
    limited: the matrix was limited to some cases (`--ids`), as a single run's status then says."""
    from .. import __version__
    return {"shard": index, "of": count, "spec": spec_digest(spec), "bridge": bridge, "wsconf": __version__,
            "releases": sorted(versions, key=key), "cases": digest(case_ids), "limited": limited, "deal": digest(dealt),
            "durations": durations.source, "expected_seconds": round(expected_seconds(dealt[index - 1], durations), 1),
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
    missing = [k for k in needed if k not in data]
    if not isinstance(data, dict) or missing:
        raise ShardError(f"{path}: not a shard manifest (missing {', '.join(missing) or 'everything'})")
    return data


def run_shard(folder: Path, shard: str, versions: list[str], spec, durations: list[str] | None = None,
              only: set[str] | None = None, log=print, **run_options) -> dict:
    """Run shard I/N of the matrix into `folder` (resumable, like any matrix folder): its manifest
    first, then its releases, each limited to the cases dealt to it."""
    from .matrix import bridge_hash, every_case, run_matrix
    index, count = parse_shard(shard)
    case_ids = every_case(spec, only) or [] if only is not None else [c.id for c in spec.cases]
    measured = load_durations(durations)
    dealt = deal(versions, case_ids, measured, count)
    data = manifest(index, count, spec, bridge_hash(), versions, case_ids, only is not None, dealt, measured)
    write_manifest(folder, data)
    mine = data["pairs"]
    log(f"matrix shard {index}/{count}: {sum(map(len, mine.values()))} of {len(case_ids) * len(versions)} pairs "
        f"on {len(mine)} release(s) ({', '.join(mine) or 'none'}), expected {data['expected_seconds']} s serial "
        f"(durations: {measured.source})")
    if mine:
        run_matrix(folder, list(mine), spec=spec, log=log, only={v: set(ids) for v, ids in mine.items()}, **run_options)
    return data
