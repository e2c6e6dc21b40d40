"""Writing the whole site: which pages, from which inputs."""
from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

from ...results.digest import Digest
from . import case_page, claim_page, implementation_page, lists, release_page, tool_page
from .implementations import UPSTREAM, Implementation, label_all, load_expectations, upstream_release
from .layout import SCRIPT, STYLE, case_url, claim_url, implementation_url, release_url, tool_url


MARKER = ".wsconf-site"


class NotASite(ValueError):
    pass


def _replaceable(out: Path) -> None:
    """Empty the folder for the new site, when it is one `wsconf site` wrote (or empty): never another."""
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARKER).is_file():
            raise NotASite(f"{out} is not empty and holds no site written by wsconf site ({MARKER}): "
                           "refusing to replace it; name a new folder with -o")
        shutil.rmtree(out)
    elif out.exists() and not out.is_dir():
        raise NotASite(f"{out} is a file, not a folder")


def write_site(out_dir, spec, given: list[tuple[Digest, str]], releases: dict[str, Digest] | None = None,
               changes: dict[str, list] | None = None, not_run: list[str] | None = None) -> list[str]:
    """The site in `out_dir` (emptied first) from the results `given` (each with where it came from),
    the release matrix's `releases` (version -> digest, oldest first) and their behaviour `changes`
    (version -> the lines of releases/changelog.py). Returns the files written, relative to `out_dir`."""
    out = Path(out_dir)
    _replaceable(out)
    releases = releases or {}
    implementations = label_all(given)
    implementations += label_all(upstream_release(implementations, releases))
    for impl in implementations:
        load_expectations(impl)
    matrix = {v: Implementation(d, f"{UPSTREAM} {v}", f"mastra-core-{v}", f"the release matrix ({v})")
              for v, d in releases.items()}
    changes_of = changes or {}
    cases_of_family: dict[str, list] = defaultdict(list)
    cases_of_claim: dict[str, list] = defaultdict(list)
    for case in spec.cases:
        for family in case.families:
            cases_of_family[family].append(case)
        for cid in case.claims:
            cases_of_claim[cid].append(case)
    families = sorted(cases_of_family)
    written: list[str] = []

    def write(rel: str, text: str) -> None:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="backslashreplace")  # half an emoji, as its escape
        written.append(rel)

    write(MARKER, "a site written by `wsconf site`: the next one replaces this folder\n")
    write("site.css", STYLE)
    write("site.js", SCRIPT)
    write("index.html", lists.index(spec, implementations, families, matrix, changes_of))
    write("cases.html", lists.cases_list(spec))
    write("claims.html", lists.claims_list(spec, cases_of_claim))
    write("search.html", lists.search_page())
    for name, script in lists.search_index(spec).items():
        write(name, script)
    write("changes.html", release_page.render_list(matrix, changes_of, not_run or [], spec.cases))
    for family in families:
        write(tool_url(family), tool_page.render(family, cases_of_family[family], spec, implementations))
    for case in spec.cases:
        write(case_url(case.id), case_page.render(case, spec, implementations, matrix))
    for claim in spec.claims.values():
        write(claim_url(claim.id), claim_page.render(claim, cases_of_claim.get(claim.id, []), implementations))
    for impl in implementations:
        write(implementation_url(impl.slug), implementation_page.render(impl, spec.cases, spec))
    versions = list(matrix)
    for n, version in enumerate(versions):
        write(release_url(version), release_page.render(version, matrix[version], versions[n - 1] if n else None,
                                                        changes_of.get(version, []), spec.cases))
    return written
