# Two commands do all set-up on a fresh clone: `make serve` (build and serve the site) and `make test`.
# Every target creates .venv and installs what it needs into it first, from the lock files in
# requirements/ (exact versions and hashes): site.txt for building the site, test.txt adds the test tools.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SITE_STAMP := $(VENV)/.installed-site
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 127.0.0.1
PORT ?= 8000
BUILDER ?= mkdocs
LIGHTHOUSE := tools/lighthouse/node_modules/.bin/lighthouse
# uv only writes the lock files (make lock, make upgrade); pip installs from them.
UV_VERSION := 0.13.9
LOCK_TOOL := .cache/lock-tool
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help
.PHONY: help install check serve site test test-fast test-latest lint bench bench-scale lighthouse tools lock upgrade clean

help: ## List the targets and their settings
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-11s %s\n", $$1, $$2}'
	@echo
	@echo "Settings (make VAR=value TARGET):"
	@echo "  HOST=$(HOST)  PORT=$(PORT)  address of make serve (PORT=8001 when 8000 is taken)"
	@echo "  BUILDER=$(BUILDER)  the engine of make site and make serve: mkdocs, properdocs or zensical"
	@echo "  PYTHON=$(PYTHON)  the interpreter that creates .venv"

$(BIN)/python:
	@bash scripts/refuse-links.sh $(VENV)
	@echo "make: creating the Python environment $(VENV)/ (once)"
	$(PYTHON) -m venv $(VENV)

# The project itself goes in editable (catalog-docs on .venv/bin) without build isolation, so the build
# uses the locked setuptools instead of downloading an unpinned one. pip runs quietly: the line before it says
# what it installs, since a fresh clone waits on it for a minute or so.
define install_locked
	@bash scripts/refuse-links.sh $(VENV)
	@echo "make: installing $(2) into $(VENV)/ from $(1) (exact versions and hashes; a minute or so the first time)"
	$(BIN)/python -m pip install --quiet --require-hashes -r $(1)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
endef

$(SITE_STAMP): requirements/site.txt pyproject.toml | $(BIN)/python
	$(call install_locked,requirements/site.txt,what building the site needs)
	touch $@

# The test set holds the site set, so installing it brings the site stamp up to date too.
$(TEST_STAMP): requirements/test.txt requirements/site.txt pyproject.toml | $(BIN)/python
	$(call install_locked,requirements/test.txt,the test tools)
	touch $(SITE_STAMP) $@

install: $(TEST_STAMP) ## Create .venv and install the project with its test tools

check: $(SITE_STAMP) ## Validate the catalogue (catalog-docs check)
	$(BIN)/catalog-docs check

# Three engines read mkdocs.yml (README, "Engines"). mkdocs (the default) and ProperDocs add the generated pages
# in memory through the catalog-docs plugin; under serve a broken catalogue keeps the last good pages and shows
# its errors on them. Zensical (installed with the test tools) runs no plugins: `catalog-docs build` and
# `catalog-docs watch` render into a build folder of their own under build/catalog-docs/ and run it there.
# Nothing is ever written into docs/. --dirty rebuilds only the pages whose text changed; --no-strict because a
# preview that stops on a warning leaves every request waiting. `make site` stays strict.
ENGINES := mkdocs properdocs zensical
BUILD_mkdocs = $(BIN)/mkdocs build --strict
BUILD_properdocs = $(BIN)/properdocs build --strict -f mkdocs.yml
BUILD_zensical = $(BIN)/catalog-docs build --publish -- $(BIN)/zensical build --strict --clean -f mkdocs.yml
SERVE_mkdocs = $(BIN)/mkdocs serve --dirty --no-strict --dev-addr $(HOST):$(PORT)
SERVE_properdocs = $(BIN)/properdocs serve -f mkdocs.yml --dirty --no-strict --dev-addr $(HOST):$(PORT)
SERVE_zensical = $(BIN)/catalog-docs watch -- $(BIN)/zensical serve -f mkdocs.yml --dev-addr $(HOST):$(PORT)
ENGINE_CHECK = $(if $(filter $(BUILDER),$(ENGINES)),,$(error BUILDER must be one of: $(ENGINES); not '$(BUILDER)'))
ENGINE_STAMPS = $(SITE_STAMP) $(if $(filter zensical,$(BUILDER)),$(TEST_STAMP))

serve: $(ENGINE_STAMPS) ## Render and serve the site on http://HOST:PORT, reloading when catalog/ changes (BUILDER=mkdocs|properdocs|zensical)
	$(ENGINE_CHECK)
	@$(BIN)/python -m catalog_docs.devtools.portcheck $(HOST) $(PORT)
	@echo "make: rendering the pages, then serving them at http://$(HOST):$(PORT)/ with $(BUILDER) (open that address once the engine says it is serving; Ctrl-C stops)"
	$(SERVE_$(BUILDER))

site: $(ENGINE_STAMPS) ## Render and build the site strictly into site/ (BUILDER=mkdocs|properdocs|zensical)
	$(ENGINE_CHECK)
	$(BUILD_$(BUILDER))

bench: $(TEST_STAMP) ## Benchmark load, render and both builders at 250, 500 and 1,000 operations (bench-out/; ~7 min; BASELINE=REV compares with a git revision)
	$(BIN)/python -m catalog_docs.devtools.bench --out bench-out $(if $(BASELINE),--baseline $(BASELINE))

bench-scale: $(TEST_STAMP) ## make site on mkdocs and Zensical and a bare build at 1,000 and 10,000 operations: time, peak memory, search index, largest page, side by side (bench-out/scale.json; long)
	$(BIN)/python -m catalog_docs.devtools.bench --out bench-out --only scale --sizes 1000,10000

$(LIGHTHOUSE): tools/lighthouse/package-lock.json
	@bash scripts/refuse-links.sh tools/lighthouse/node_modules
	bash scripts/ensure-node.sh
	bash scripts/ensure-java.sh
	npm ci --prefix tools/lighthouse --no-audit --no-fund --loglevel=error
	touch $@

tools: $(TEST_STAMP) $(LIGHTHOUSE) ## Install the test tools: Python test set, Debian's chromium, Java, axe-core, Lighthouse, vnu and pa11y
	bash scripts/ensure-chromium.sh
	$(MAKE) --no-print-directory $(AXE_STAMP)

lighthouse: site tools ## Serve site/ with gzip on 127.0.0.1 and run Lighthouse on every page type
	$(BIN)/python -m catalog_docs.devtools.lighthouse --site site --out .lighthouse

lint: $(TEST_STAMP) ## The quick checks: ruff, mypy --strict and radon's complexity limit (make test runs them too)
	$(BIN)/ruff check scripts tests
	$(BIN)/mypy
	$(BIN)/python -m catalog_docs.devtools.complexity scripts/catalog_docs

# Both cores (pytest-xdist; `--dist loadfile` in pyproject.toml keeps a file's tests on one worker, so its module
# fixtures are made once, even with a bare `pytest -n 2`); each fixture site is
# still built once per run (tests/conftest.py). SIGTERM or Ctrl-C stops the run and everything it started
# (tests/stopping.py); the 15 slowest tests are printed at the end of every run.
TEST_WORKERS ?= 2
# Python's bytecode caches are kept even where the environment turns them off (PYTHONDONTWRITEBYTECODE=1, as
# on the machine this project is developed on): the suite starts several hundred Python processes (the tool,
# the engines, nested pytests), and each would otherwise compile the package again, and pytest rewrite every
# test module again in each worker.
PYTEST = PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS)
FAST := not browser and not site and not serve and not slow

test: tools ## Run every test on both cores (loader, render, site, browser, accessibility, links, Lighthouse; its time: CONTRIBUTING.md)
	$(PYTEST)

test-fast: $(TEST_STAMP) ## The fast lane: every test but the browser, engine-build, serve and slow ones
	$(PYTEST) -m "$(FAST)"

# The site tests on the newest releases of the packages whose workings the site rests on (ARCHITECTURE.md, "Other
# packages"), in an environment of their own (.venv-latest): the locked test set, then those five upgraded to their
# newest versions. tests/site/test_upstream.py names what to revisit when one of them changed. Not part of make test.
LATEST_VENV := .venv-latest
LATEST_PACKAGES := mkdocs mkdocs-material properdocs markdown pymdown-extensions

test-latest: tools ## The site tests on the newest mkdocs, Material, ProperDocs, Markdown and pymdown-extensions (.venv-latest)
	@bash scripts/refuse-links.sh $(LATEST_VENV)
	rm -rf $(LATEST_VENV)
	$(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install --quiet --require-hashes -r requirements/test.txt
	$(LATEST_VENV)/bin/python -m pip install --quiet --upgrade $(LATEST_PACKAGES)
	$(LATEST_VENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(LATEST_VENV)/bin/python -m pip list 2>/dev/null | grep -iE '^(mkdocs|mkdocs-material|properdocs|markdown|pymdown-extensions) '
	PYTHONDONTWRITEBYTECODE= $(LATEST_VENV)/bin/python -m pytest -n $(TEST_WORKERS) tests/site

# axe-core for the accessibility tests, from package-lock.json; npm runs only when the lock file changes.
AXE_STAMP := node_modules/.installed
$(AXE_STAMP): package.json package-lock.json
	@bash scripts/refuse-links.sh node_modules
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The lock files are compiled from pyproject.toml (and requirements/build.in, the build backend) for every
# platform and Python >= 3.11; the test set is constrained by the site set so both agree on shared pins.
LOCK = $(LOCK_TOOL)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" pyproject.toml requirements/build.in

$(LOCK_TOOL)/bin/uv:
	$(PYTHON) -m venv $(LOCK_TOOL)
	$(LOCK_TOOL)/bin/python -m pip install --quiet uv==$(UV_VERSION)

lock: $(LOCK_TOOL)/bin/uv ## Update requirements/*.txt after a change to pyproject.toml's dependencies (keeps other pins)
	$(LOCK) $(UPGRADE) -o requirements/site.txt
	$(LOCK) $(UPGRADE) --extra test -c requirements/site.txt -o requirements/test.txt

upgrade: ## Refresh requirements/*.txt to the newest versions pyproject.toml allows (then run make test)
	$(MAKE) --no-print-directory lock UPGRADE=--upgrade

# catalog-docs clean walks each folder from the project's root and refuses a link on the way (writing.py); it needs
# only the standard library, so a fresh clone cleans without installing anything. docs/ is never touched.
clean: ## Remove the built site and the tool's build folders (site/, build/catalog-docs/; docs/ is never touched)
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=scripts $(PYTHON) -m catalog_docs.cli clean
