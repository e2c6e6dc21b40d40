"""The implementations a site shows side by side, each labelled by its own name and version from its
results' `run` line: "wsref 0.1.0", "@mastra/s3 0.6.1" (on @mastra/core 1.71.0). Only
@mastra/core's own results are a release of @mastra/core: a port's or a provider's version is never
taken for one."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ...results.digest import Digest, Entry
from ...results.records import core_release
from ...session import expectations
from ...spec.versions import RangeError, satisfies
from .layout import implementation_url

UPSTREAM = "@mastra/core"


@dataclass
class Implementation:
    digest: Digest
    label: str          # its name and version, with its adapter when two share them
    slug: str           # its page's name
    source: str         # where its results came from: a file, or the matrix's release
    expectations: dict[str, str] = field(default_factory=dict)  # its known failures: case -> reason
    expectations_file: str | None = None

    @property
    def url(self) -> str:
        return implementation_url(self.slug)

    @property
    def run(self) -> dict:
        return self.digest.run or {}

    @property
    def name(self) -> str:
        return self.digest.implementation

    @property
    def version(self) -> str:
        return self.digest.version

    @property
    def core(self) -> str | None:
        return core_release(self.name, self.version, self.run)

    @property
    def subtitle(self) -> str:
        core = self.core
        return f"on {UPSTREAM} {core}" if core and self.name != UPSTREAM else ""

    def entry(self, case) -> Entry | None:
        return self.digest.entries.get(case.id)

    def outcome(self, case) -> str:
        """The case's outcome for this implementation as `wsconf run` gives it; a release of the
        upstream outside the case's `versions` is not applicable, a case not in the results not run."""
        found = self.entry(case)
        if found is None:
            return "absent"
        if self.name == UPSTREAM and case.versions and not _applies(self.version, case.versions):
            return "not_applicable"
        return found.outcome


def _applies(version: str, versions: str) -> bool:
    try:
        return satisfies(version, versions)
    except RangeError:
        return True  # not a release number (a local build): the case applies as to a port


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.@]+", "-", text.lower()).strip("-")


def label_all(found: list[tuple[Digest, str]]) -> list[Implementation]:
    """Each results (with where they came from) as an implementation; two with one name and version
    (the same provider under two adapters) are told apart by their adapters, then by their files."""
    base = [f"{d.implementation} {d.version}" for d, _ in found]
    labels = []
    for (digest, source), label in zip(found, base):
        if base.count(label) > 1:
            label += f" ({(digest.run or {}).get('adapter') or source})"
        labels.append(label)
    for i, label in enumerate(labels):  # still the same (one adapter, two files): by the file
        if labels.count(label) > 1:
            labels[i] = f"{label} [{found[i][1]}]"
    return [Implementation(d, label, _slug(label), source) for (d, source), label in zip(found, labels)]


def upstream_release(implementations: list[Implementation], releases: dict[str, Digest]) -> list[tuple[Digest, str]]:
    """The newest release of the matrix as an implementation of its own, unless results of that
    release were given."""
    if not releases:
        return []
    newest = list(releases)[-1]
    if any(i.name == UPSTREAM and i.version == newest for i in implementations):
        return []
    return [(releases[newest], f"the release matrix ({newest})")]


def load_expectations(implementation: Implementation) -> None:
    """Its known failures with their reasons: the file its run used when it is here, else the one
    wsconf bundles for it (conformance/expectations/)."""
    used = implementation.run.get("expectations")
    folder = Path(used).parent if used and Path(used).is_file() else None
    path = expectations.resolve(implementation.name, folder, implementation.version, implementation.core)
    if path is None:
        return
    implementation.expectations_file = str(path)
    try:
        implementation.expectations = expectations.load(implementation.name, folder, implementation.version,
                                                        implementation.core)
    except (yaml.YAMLError, AttributeError, KeyError, TypeError) as exc:  # shown on its page; the site goes on
        implementation.expectations_file = f"{path} (not read: {str(exc).splitlines()[0]})"
