"""Page experience: Lighthouse (mobile, simulated throttling) on every page type, served with gzip.

Asserts the deterministic parts: accessibility, best practices and SEO at 100, no request leaving the
origin, and the first-load transfer budget. Performance varies with the machine: `make lighthouse`
reports it. The tests measure the fixture site (tests/fixture-catalog/); `make lighthouse` the real one.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.devtools.lighthouse import (
    INFORMATIVE_WITH_TRACE,
    PAGES_SCRIPT,
    TRANSFER_BUDGET,
    PageResult,
    page_types,
    run_all,
)
from fixture_facts import FIXTURE_CATALOG

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.browser, pytest.mark.site]


@pytest.fixture(scope="module")
def lighthouse(built_site: Path) -> dict[str, PageResult]:
    out = ROOT / "test-artifacts" / "lighthouse"
    # Performance varies with the machine and is only reported (`make lighthouse`): not scored here, which makes
    # each run several times cheaper; the categories asserted below are scored as before.
    results = run_all(built_site, load_catalog(FIXTURE_CATALOG), out, categories=ASSERTED)
    return {r.page_type: r for r in results}


PAGE_TYPES = list(page_types(load_catalog(FIXTURE_CATALOG)))
ASSERTED = ("accessibility", "best-practices", "seo")


def test_every_page_type_is_measured(lighthouse: dict[str, PageResult]) -> None:
    # the nine page types of the issue (home, operations, operation, version, plan, compare, any-pair, matrix,
    # not-shown) and the sources page
    assert set(lighthouse) == {"home", "operations", "operation", "version", "plan", "compare", "compare-any",
                               "matrix", "not-shown", "sources"}


@pytest.mark.parametrize("page_type", PAGE_TYPES)
@pytest.mark.parametrize("category", ASSERTED)
def test_category_scores_100(lighthouse: dict[str, PageResult], page_type: str, category: str) -> None:
    result = lighthouse[page_type]
    failed = [a for a in result.failed_audits if a.startswith(category + "/")]
    assert result.scores[category] == 100, f"{result.url}: {category} {result.scores[category]}, failed {failed}"


@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_no_request_leaves_the_origin(lighthouse: dict[str, PageResult], page_type: str) -> None:
    assert lighthouse[page_type].foreign_requests == ()


@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_first_load_within_transfer_budget(lighthouse: dict[str, PageResult], page_type: str) -> None:
    result = lighthouse[page_type]
    assert 0 < result.transfer_bytes <= TRANSFER_BUDGET, f"{result.url}: {result.transfer_bytes} bytes"


def test_the_machine_benchmark_is_left_out_where_performance_is_not_scored(lighthouse: dict[str, PageResult]) -> None:
    """The runner replaces Lighthouse's machine benchmark (a second per page) when performance is not scored: each
    report of the tests' run has no benchmark figure. (A Lighthouse that moved the function would fail
    test_the_lighthouse_internals_the_runner_reaches_into_are_there first.)"""
    for page_type, result in lighthouse.items():
        environment = json.loads(result.report.read_text(encoding="utf-8"))["environment"]
        assert "benchmarkIndex" not in environment, (page_type, environment)


def test_the_lighthouse_internals_the_runner_reaches_into_are_there() -> None:
    """tools/lighthouse/lighthouse-pages.mjs reaches into Lighthouse where it documents no way (ARCHITECTURE.md,
    "Other packages"); given no page, it checks those internals and starts no Chrome. An upgrade that moved one
    fails here, naming it."""
    spec = {"flags": {}, "pages": [], "skipBenchmark": True}
    proc = subprocess.run(["node", str(PAGES_SCRIPT), json.dumps(spec)], cwd=PAGES_SCRIPT.parent, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_a_scored_audit_is_never_left_out() -> None:
    """The tests leave out the informative audits that alone need a trace (INFORMATIVE_WITH_TRACE: the fixture's run
    above shows Lighthouse accepts them); the runner refuses to leave out one that weighs in a score, before it
    starts Chrome."""
    spec = {"flags": {"skipAudits": [*INFORMATIVE_WITH_TRACE, "color-contrast"]}, "pages": []}
    proc = subprocess.run(["node", str(PAGES_SCRIPT), json.dumps(spec)], cwd=PAGES_SCRIPT.parent, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "color-contrast is left out but weighs" in proc.stderr and "in accessibility" in proc.stderr, proc.stderr
