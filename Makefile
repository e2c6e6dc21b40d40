# Two commands do all the set-up on a fresh machine:
#   make suite   run the conformance suite against the reference (wsref) and print its report
#   make test    run the project's own tests (what .ci/run runs)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
BRIDGE := tools/mastra-bridge

.PHONY: setup suite suite-mastra report site test releases-sample matrix clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[s3,gcs,dev]'
	touch $@

# The upstream bridge needs Node and npm; without them the mastra runs are skipped with that reason.
$(BRIDGE)/node_modules/.package-lock.json: $(BRIDGE)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(BRIDGE) && npm ci --no-audit --no-fund --loglevel=error; \
	else \
		echo "wsconf: npm not found: the @mastra/core bridge is not installed and its runs are skipped"; \
	fi

# Files of npm packages the bridge takes without their dependency tree (vendor.json): Mastra Code's
# SandboxFilesystem, by `npm pack` of the exact version, integrity-checked (adapter mastra-sandboxfs).
$(BRIDGE)/vendor/code-sdk/.wsconf-integrity: $(BRIDGE)/vendor.json $(VENV)/.installed
	@if command -v npm >/dev/null 2>&1; then \
		$(PY) -m wsconf.adapters.vendored $(BRIDGE); \
	else \
		echo "wsconf: npm not found: @mastra/code-sdk is not fetched and the mastra-sandboxfs runs are skipped"; \
	fi

tools/tokenx-oracle/node_modules/.package-lock.json: tools/tokenx-oracle/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd tools/tokenx-oracle && npm ci --no-audit --no-fund --loglevel=error; \
	fi

setup: $(VENV)/.installed $(BRIDGE)/node_modules/.package-lock.json $(BRIDGE)/vendor/code-sdk/.wsconf-integrity tools/tokenx-oracle/node_modules/.package-lock.json

suite: setup
	$(VENV)/bin/wsconf run --adapter reference -n 2 --results results/reference.jsonl --junitxml results/reference.xml

suite-mastra: setup
	$(VENV)/bin/wsconf run --adapter mastra -n 2 --results results/mastra.jsonl --junitxml results/mastra.xml

# Every implementation (@mastra/s3 and @mastra/gcs on local servers their adapters start
# themselves, Mastra Code's SandboxFilesystem over LocalSandbox), then the README's conformance table
# rewritten from the results, the HTML report, and the report site (report/site/index.html: a page per
# tool, case, claim and implementation, each labelled by its run line; with each case's history
# across @mastra/core releases when the release matrix $(MATRIX) holds results).
RESULTS := results/reference.jsonl results/mastra.jsonl results/mastra-s3.jsonl results/mastra-gcs.jsonl results/mastra-sandboxfs.jsonl
report: setup
	-$(VENV)/bin/wsconf run --adapter reference -n 2 --results results/reference.jsonl
	-$(VENV)/bin/wsconf run --adapter mastra -n 2 --results results/mastra.jsonl
	-$(VENV)/bin/wsconf run --adapter mastra-s3 -n 2 --results results/mastra-s3.jsonl
	-$(VENV)/bin/wsconf run --adapter mastra-gcs -n 2 --results results/mastra-gcs.jsonl
	-$(VENV)/bin/wsconf run --adapter mastra-sandboxfs -n 2 --results results/mastra-sandboxfs.jsonl
	$(VENV)/bin/wsconf report --readme README.md --html report/index.html "wsref=results/reference.jsonl" "@mastra/core 1.71.0=results/mastra.jsonl" "@mastra/s3 0.6.1=results/mastra-s3.jsonl" "@mastra/gcs 0.2.2=results/mastra-gcs.jsonl" "@mastra/code-sdk 1.0.1 (SandboxFilesystem)=results/mastra-sandboxfs.jsonl"
	$(MAKE) --no-print-directory site

# The report site alone, from the results there are (no run).
site: setup
	$(VENV)/bin/wsconf site $(wildcard $(RESULTS)) $(if $(wildcard $(MATRIX)/*/results.jsonl),--matrix $(MATRIX),--no-matrix) -o report/site

test: setup
	$(PY) -m pytest -n 2 --dist worksteal tests

# A few older releases, each installed into ~/.cache/wsconf/mastra-release/ and run with the cases'
# `versions` applied, so the ranges cannot rot (.ci/run runs this after the test command). Each run
# has a deadline; every case must pass, be not applicable, or be an expected failure.
SAMPLED_RELEASES ?= 1.11.0 1.37.1 1.65.0
releases-sample: setup
	@for v in $(SAMPLED_RELEASES); do \
		echo "== mastra@$$v"; \
		timeout 1500 $(VENV)/bin/wsconf run --adapter mastra@$$v -n 2 --results results/mastra@$$v.jsonl || exit 1; \
	done

# Every stable release from 1.11.0 to 1.71.0 (2-3 hours the first time): resumable and incremental per
# case (only new or edited cases run again), results under ~/.cache/wsconf/matrix/. Then the cases'
# `versions` from the results, a check that every release has no unexpected result with them applied,
# BEHAVIOUR-CHANGES.md and the report site. Not part of `make test`.
MATRIX ?= $(HOME)/.cache/wsconf/matrix
matrix: setup
	$(VENV)/bin/wsconf matrix run --matrix $(MATRIX) --parallel 2
	$(VENV)/bin/wsconf matrix ranges --matrix $(MATRIX) --all-releases --write
	$(VENV)/bin/wsconf matrix check --matrix $(MATRIX) --all-releases
	$(VENV)/bin/wsconf changelog --matrix $(MATRIX) --all-releases -o BEHAVIOUR-CHANGES.md
	$(MAKE) --no-print-directory site

clean:
	rm -rf $(VENV) results report $(BRIDGE)/node_modules $(BRIDGE)/vendor tools/tokenx-oracle/node_modules
