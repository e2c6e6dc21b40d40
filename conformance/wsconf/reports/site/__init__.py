"""The report site (`wsconf site`, `make report`, `make matrix`): static pages people consult to learn
what each tool really does and which implementations do it, built from whatever results there are
(one run, several implementations, the release matrix when present).

    index.html                      the implementations and the tools side by side
    tool/<family>.html              what the pages claim, the errata, the compatibility table, the cases by claim
    case/<id>.html                  the case as `wsconf show` prints it, each implementation's result, its history
    claim/<id>.html                 a claim, whether it holds, its cases with each implementation's outcome
    implementation/<slug>.html      a run's header, outcomes by tool, findings ranked, known failures with reasons
    release/<version>.html          a release's behaviour changes with the whole old and new outputs
    cases.html, claims.html, changes.html, search.html (+ search-cases.js, search-claims.js), site.css, site.js

Links are relative (the site works from any folder, and from file://); URLs are permanent by id;
links.broken_links finds any that lead nowhere (the test command and tools/bench/site.py use it).
"""
from __future__ import annotations

from .build import write_site

__all__ = ["write_site"]
