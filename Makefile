# Two commands do all set-up on a fresh clone: `make serve` (build and serve the site) and `make test`.
# Every target creates .venv and installs the project into it first when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
BUILDER ?= mkdocs
LIGHTHOUSE := tools/lighthouse/node_modules/.bin/lighthouse
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help
.PHONY: help install check render serve site test bench lighthouse tools clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-11s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the project with its test tools

check: $(STAMP) ## Validate the catalogue (catalog-docs check)
	$(BIN)/catalog-docs check

render: $(STAMP) ## Render the Markdown pages from the catalogue into docs/
	$(BIN)/catalog-docs render

serve: render ## Render and serve the site on http://127.0.0.1:8000, reloading when catalog/ changes
	$(BIN)/mkdocs serve --dev-addr $(HOST):$(PORT)

# mkdocs renders through its hook (which skips the render when nothing changed since the last one);
# Zensical (installed with the test tools) reads mkdocs.yml but runs no hooks, so `catalog-docs render`
# writes its pages first.
BUILD_mkdocs = $(BIN)/mkdocs build --strict
BUILD_zensical = $(BIN)/zensical build --strict --clean

site: $(STAMP) $(if $(filter zensical,$(BUILDER)),render) ## Render and build the site strictly into site/ (BUILDER=zensical for Zensical)
	$(if $(BUILD_$(BUILDER)),,$(error BUILDER must be mkdocs or zensical, not '$(BUILDER)'))
	@mkdir -p docs  # mkdocs refuses a missing docs_dir before its hook can render into it
	$(BUILD_$(BUILDER))

bench: $(STAMP) ## Benchmark load, render and both builders at 250, 500 and 1,000 operations (bench-out/; ~3 min)
	$(BIN)/python -m catalog_docs.bench --out bench-out

$(LIGHTHOUSE): tools/lighthouse/package-lock.json
	bash scripts/ensure-node.sh
	npm ci --prefix tools/lighthouse --no-audit --no-fund --loglevel=error
	touch $@

tools: $(STAMP) $(LIGHTHOUSE) ## Install the test tools: Debian's chromium, axe-core and Lighthouse (npm, local folders)
	bash scripts/ensure-chromium.sh
	$(MAKE) --no-print-directory $(AXE_STAMP)

lighthouse: site tools ## Serve site/ with gzip on 127.0.0.1 and run Lighthouse on every page type
	$(BIN)/python -m catalog_docs.lighthouse --site site --out .lighthouse

test: tools ## Run every test (loader, render, site, browser, accessibility, links, Lighthouse)
	$(BIN)/python -m pytest

# axe-core for the accessibility tests, from package-lock.json; npm runs only when the lock file changes.
AXE_STAMP := node_modules/.installed
$(AXE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean: ## Remove the built site and generated pages (keeps .venv)
	rm -rf site
	$(BIN)/catalog-docs clean
