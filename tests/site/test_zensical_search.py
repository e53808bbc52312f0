"""Search on Zensical (issue 44): what its index holds, and that it finds the right page first on the real catalogue.

Zensical runs no plugins, so the `catalog-search` view (tests/site/test_search_view.py) never reaches it: the
generated pages carry the markers Zensical documents for leaving things out of its search (`data-search-exclude`
on a block, or on a heading for its section, and `search: exclude` in a page's front matter), which Material
honours too. Its index then holds what the mkdocs build's holds: an operation page's title and path, the prose of
the table pages without their tables, and no section that only repeats a label in its heading (the changelog's,
a comparison's plan-entry sections), so a label's own page comes first. `make bench-scale` measures the index at
10,000 operations.

The fixture catalogue's Zensical build is shared with tests/site/test_zensical_header.py; the real catalogue's is
built once here (a few seconds: Zensical's own search needs Zensical's build).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import fixture_facts as ff
from browsing import DESKTOP, PHONE, new_visit
from fixture_facts import FIXTURE_CATALOG
from sitebuild import ROOT, shared_build
from siteserver import serve

pytestmark = pytest.mark.site

VIEWPORTS = {"wide": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The items of the fixture site's Zensical search index (search.json)."""
    site = shared_build(tmp_path_factory, "fixture-zensical", FIXTURE_CATALOG, engine="zensical")
    items: list[dict[str, Any]] = json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]
    return items


def _page(item: dict[str, Any]) -> str:
    return str(item["location"]).split("#", 1)[0]


def test_an_operation_page_is_one_entry_of_its_title_and_path(index: list[dict[str, Any]]) -> None:
    operations = [item for item in index if _page(item).startswith("operations/") and _page(item) != "operations/"]
    pages = sorted(f"operations/{ff.slug(path, at)}/" for at, path in enumerate(ff.PATHS, start=1))
    assert sorted(_page(item) for item in operations) == pages
    for item in operations:
        assert "#" not in item["location"], item  # no later section: they say the same on every operation page
        assert "Facts about" not in item["text"] and "§" not in item["text"], item  # nor the facts table
    refund = next(item for item in operations if _page(item) == "operations/fakeRefundSend/")
    assert refund["title"] == "POST /fakeRefundSend" and "/fakeRefundSend" in refund["text"]


def test_no_entry_holds_a_data_table(index: list[dict[str, Any]]) -> None:
    # Every data table has a caption; Zensical indexes a table's caption with its cells, so none may be there,
    # but the home page's small table of counts, which the mkdocs build's index holds too.
    for item in index:
        if _page(item) != "":
            assert not re.search(r"Lock values (of|under)|Plan entry \S+: values|Values the same under|Facts about",
                                 item["text"]), item


def test_no_section_only_repeats_a_label_in_its_heading(index: list[dict[str, Any]]) -> None:
    locations = {item["location"] for item in index}
    assert not [loc for loc in locations if loc.startswith("changelog/#")]
    plan_sections = {f"#plan-{slug}" for slug in ff.PLAN_SLUGS.values()}
    assert not [loc for loc in locations if loc.startswith("compare/") and loc[loc.find("#"):] in plan_sections]
    # The pages themselves stay: every label, plan entry and the changelog, and the compare index.
    for page in ("changelog/", "compare/", *(f"versions/{slug}/" for slug in ff.LABEL_SLUGS.values()),
                 *(f"plans/{slug}/" for slug in ff.PLAN_SLUGS.values())):
        assert page in locations, page
    # Not the comparisons: without a boost, one titled with two labels came before each label's own page.
    assert not [loc for loc in locations if loc.startswith("compare/") and loc.split("#")[0] != "compare/"]


@pytest.fixture(scope="module")
def real_zensical(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(shared_build(tmp_path_factory, "real-zensical", ROOT / "catalog", engine="zensical")) as base:
        yield base


def _open_search(page: Page) -> Locator:
    """Open Zensical's search from the header (its button, or its icon on a phone): its box, focused. Zensical draws
    its dialog in a shadow root, which Playwright's role locators see into."""
    button = page.locator("header .md-search__button")
    (button if button.is_visible() else page.locator("label.md-header__button[for='__search']")).click()
    box = page.get_by_role("combobox", name="Search")
    expect(box).to_be_focused()
    return box


def _first_result(page: Page, box: Locator, query: str) -> str:
    """Type `query` into the open search's box and return the path of the first result once the search has run on
    it. A query an earlier search left in the box is cleared first and its results seen gone, so that none of them
    is read as this one's."""
    counted = page.get_by_role("status").filter(has_text=re.compile(r"^\s*\d+ results?\s*$"))
    options = page.get_by_role("listbox", name="Search results").get_by_role("option")
    if box.input_value():
        box.fill("")
        expect(counted).to_have_count(0)
        expect(options).to_have_count(0)
    box.fill(query)
    expect(counted).to_be_visible(timeout=30_000)
    first = options.first
    expect(first).to_be_visible()
    href = str(first.get_attribute("href"))
    return href.split("?", 1)[0].split("#", 1)[0]


@pytest.mark.browser
@pytest.mark.real_catalog
@pytest.mark.parametrize("screen", VIEWPORTS)
def test_on_the_real_catalogue_each_query_finds_its_page_first(chromium: Browser, real_zensical: str,
                                                                screen: str) -> None:
    # Every version label and plan entry of the catalogue finds its own page first: `UPI_N 1.0.1` once found the
    # comparison titled with it first (comparisons are now left out of Zensical's index).
    wanted = {
        "refund": ("operations/meRefundServerReq/", "operations/meRefundServerReq-v2/"),
        "StatusQuery": ("operations/meTransStatusQuery/", "operations/transactionStatusQuery/"),
        "UPI_N 1.1.0": ("versions/UPI_N-1.1.0/",),
        "UPI_N 3.0.0": ("plans/UPI_N-3.0.0/",),
        "UPI_N 1.0.1": ("versions/UPI_N-1.0.1/",),
        "UPI_N 1.0.0": ("plans/UPI_N-1.0.0/",),
    }
    visit = new_visit(chromium, real_zensical, **VIEWPORTS[screen])
    try:
        page = visit.open("")  # one load: the search is opened from the header once, and each query replaces the last
        box = _open_search(page)
        for query, pages in wanted.items():
            first = _first_result(page, box, query)
            assert first in [real_zensical + p for p in pages], (screen, query, first)
        page.keyboard.press("Escape")
        expect(box).to_be_hidden()
        assert not visit.problems(), visit.problems()
    finally:
        visit.close()


def test_zensical_builds_with_its_classic_variant(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The classic variant is Material for MkDocs' look (the mkdocs and ProperDocs builds'); the modern one is not.
    site = shared_build(tmp_path_factory, "fixture-zensical", FIXTURE_CATALOG, engine="zensical")
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', (site / "index.html").read_text(encoding="utf-8"))
    assert any(re.search(r"assets/stylesheets/classic/main\.\w+\.min\.css$", s) for s in sheets), sheets
    assert not any("/modern/" in s for s in sheets), sheets


def _look(page: Page) -> dict[str, str]:
    return page.evaluate("""() => {
      const style = (selector, prop) => getComputedStyle(document.querySelector(selector))[prop];
      return {header: style("header.md-header", "backgroundColor"), headerHeight: style("header.md-header", "height"),
              font: style("body", "fontFamily"), h1: style(".md-content h1", "fontWeight"),
              h1Size: style(".md-content h1", "fontSize"), link: style(".md-content p a", "color"),
              tabs: style(".md-sidebar--primary", "width")};
    }""")


@pytest.mark.browser
def test_zensical_looks_as_material_does(chromium: Browser, site_url: str,
                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    site = shared_build(tmp_path_factory, "fixture-zensical", FIXTURE_CATALOG, engine="zensical")
    looks = []
    with serve(site) as zensical:
        for base in (site_url, zensical):
            visit = new_visit(chromium, base, **DESKTOP)
            try:
                looks.append(_look(visit.open("operations/fakeRefundSend/")))
            finally:
                visit.close()
    assert looks[0] == looks[1]

