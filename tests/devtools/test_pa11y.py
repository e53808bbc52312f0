"""The pa11y runner (`python -m catalog_docs.devtools.pa11y`): both runners, WCAG2AA, every page type reached.

These tests check that the runner itself works (it catches known errors with each runner and visits every
page type of the built site), and that the built fixture site has no error on any page type, nor on the
other generated pages (legend, indexes, the entry without a path).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.devtools import pa11y
from catalog_docs.devtools.lighthouse import page_types
from catalog_docs.devtools.pa11y import Finding, format_report, run_site, run_urls
from catalog_docs.devtools.static_server import serve
from fixture_facts import FIXTURE_CATALOG

pytestmark = [pytest.mark.browser, pytest.mark.site]

BROKEN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>canary</title></head>
<body><main><h1>canary</h1><img src="x.png"><p style="color:#bbb;background:#fff">faint text</p>
<input type="checkbox"></main></body></html>
"""


class Checked(NamedTuple):
    pages: dict[str, str]
    raw: dict[str, list[dict[str, object]]]
    """pa11y's raw issues per URL of the site, as run_site received them."""
    findings: list[Finding]
    canary: list[dict[str, Any]]
    """pa11y's raw issues on BROKEN_PAGE."""


@pytest.fixture(scope="module")
def checked(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """pa11y over every page type and the other generated pages (legend, indexes, the entry without a path), run
    once through the command's own path (`run_site`), with the raw issues it saw kept beside its findings. BROKEN_PAGE,
    served on its own, is checked in the same run (one node process and one browser for all): run_site reads only
    its own URLs' issues."""
    catalog = load_catalog(FIXTURE_CATALOG)
    pages = page_types(catalog)
    pathless = next(e for e in catalog.entries if e.path is None)
    pages |= {"legend": "legend/", "versions": "versions/", "plans": "plans/",
              "entry without a path": f"operations/{pathless.slug}/"}
    assert all((built_site / path / "index.html").is_file() for path in pages.values()), pages
    broken = tmp_path_factory.mktemp("broken")
    (broken / "index.html").write_text(BROKEN_PAGE, encoding="utf-8")
    seen: dict[str, list[dict[str, object]]] = {}
    server, canary = serve(broken)

    def recording(urls: list[str]) -> dict[str, list[dict[str, object]]]:
        raw = run_urls([*urls, canary])
        seen.update(raw)
        return raw

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pa11y, "run_urls", recording)
            findings = run_site(built_site, pages)
    finally:
        server.shutdown()
    canary_issues = seen.pop(canary)
    return Checked(pages, seen, findings, canary_issues)


def test_each_runner_reports_a_known_error(checked: Checked) -> None:
    found = {(i["runner"], i["code"]) for i in checked.canary if i["type"] == "error"}
    assert ("axe", "image-alt") in found, found
    assert ("axe", "color-contrast") in found, found
    assert any(runner == "htmlcs" and "H37" in code for runner, code in found), found  # img without alt


def test_every_page_type_is_checked(checked: Checked) -> None:
    pages, raw, findings, _canary = checked
    assert len(raw) == len(pages) and all(any(url.endswith("/" + path) for url in raw) for path in pages.values())
    for url, issues in raw.items():
        assert all(issue["runner"] in ("htmlcs", "axe") for issue in issues), url
    assert all(f.page_type in pages and f.code for f in findings)  # the command's path: errors, each with its page


def test_no_page_type_has_an_error(checked: Checked) -> None:
    """WCAG 2 AA by HTML_CodeSniffer and axe: 0 errors (an axe "needs review" counts as one, as pa11y counts
    it) on every page type and the other generated pages, the theme's header, search and sidebar included
    (overrides/partials/palette.html, overrides/partials/search.html, overrides/assets/catalog.css)."""
    pages, _raw, findings, _canary = checked
    assert not findings, format_report(findings, pages)
