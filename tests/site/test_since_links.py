""""What changed since my version" (issue 29): every version page and plan entry page links the any-pair
comparison from that label (and plan entry) to the newest label, in the query format compare.js reads
(`compare/?from=...&to=...`); followed in a real browser, the comparison opens on exactly that pair.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from playwright.sync_api import Browser

import fixture_facts as ff
from browsing import Visit, new_visit
from htmltree import content, parse_file

pytestmark = pytest.mark.site


def _since_links(site: Path, page: str) -> list[tuple[str, str, str]]:
    """(from, to, href) of every link of a page's article to the any-pair comparison."""
    out = []
    for a in content(parse_file(site / page / "index.html")).find_all("a"):
        href = a.attrs.get("href", "")
        parts = urlsplit(href)
        if parts.path.endswith("compare/") and parts.query:
            query = parse_qs(parts.query)
            out.append((query["from"][0], query["to"][0], href))
    return out


def _expected(page_kind: str, name: str) -> list[tuple[str, str]]:
    newest = ff.LABELS[-1]
    if page_kind == "version":
        return [] if name == newest else [(name, newest)]
    listed = [label for label in ff.LABELS if (label, name) in ff.columns()]
    newest_lists = (newest, name) in ff.columns()
    return [(f"{label}:{name}", f"{newest}:{name}") if newest_lists else (label, newest)
            for label in listed if label != newest]


def _pages() -> list[tuple[str, str, str]]:
    pages = [("version", label, f"versions/{label.replace(' ', '-')}") for label in ff.LABELS]
    pages += [("plan", name, f"plans/{name.replace(' ', '-')}") for name in ff.PLAN_NAMES]
    return pages


@pytest.mark.parametrize(("kind", "name", "page"), _pages())
def test_each_version_and_plan_page_links_the_comparison_up_to_the_newest_label(built_site: Path, kind: str,
                                                                                 name: str, page: str) -> None:
    found = [(a, b) for a, b, _ in _since_links(built_site, page)]
    assert found == _expected(kind, name)


def test_the_fixture_has_every_case() -> None:
    # A plan entry the newest label lists, one it does not, and the newest label's own page (no link).
    plans = {name: _expected("plan", name) for name in ff.PLAN_NAMES}
    assert any(":" in a for pairs in plans.values() for a, _ in pairs)
    assert any(pairs and ":" not in pairs[0][0] for pairs in plans.values())
    assert _expected("version", ff.LABELS[-1]) == []


@pytest.fixture(scope="module")
def reader(chromium: Browser, site_url: str) -> Iterator[Visit]:
    """One tab in which the links below are followed: the first case loads its page, each later case goes to its page
    as a reader following a link does (the theme's instant navigation, from the comparison the last case opened)."""
    v = new_visit(chromium, site_url)
    yield v
    v.close()


@pytest.mark.browser
@pytest.mark.parametrize(("kind", "name", "page"), [p for p in _pages() if _expected(p[0], p[1])])
def test_following_the_link_opens_the_comparison_on_that_pair(reader: Visit, built_site: Path, kind: str, name: str,
                                                              page: str) -> None:
    reader.forget_problems()  # what went wrong in another case was reported there
    for a, b, href in _since_links(built_site, page):
        browser = reader.reach(page + "/")
        target = urljoin(reader.base + page + "/", href)
        # The theme's instant navigation writes the page's links as absolute URLs once it has loaded.
        browser.locator(f'article a:is([href="{href}"], [href="{target}"])').first.click()
        browser.wait_for_url(target)
        browser.locator("#catalog-compare-result").filter(has_text="→").first.wait_for(timeout=10_000)
        assert browser.locator("#compare-from").input_value() == a
        assert browser.locator("#compare-to").input_value() == b
        result = browser.locator("#catalog-compare-result").inner_text()
        assert "not in this catalogue" not in result and a.split(":")[0] in result
    reader.settle()
    assert not reader.problems(), "\n".join(reader.problems())
