"""Zensical (issue 27 item 6): a fresh clone's plain `zensical build` says what to run first, and at 1280 px its
header search is Zensical's own search button, not Material's dialog markup unstyled (a bare "Search" label,
three stacked icons and a visible "Initializing search"). The header is looked at in a real Chromium, on a
Zensical build and on mkdocs' (`built_site`), whose Material search must stay as it was.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import fixture_facts as ff
from browsing import SCREENSHOTS, new_visit
from sitebuild import BIN, copy_env, copy_project, shared_build
from siteserver import serve

pytestmark = pytest.mark.site

HEADER_MAX_PX = 64
"""The header of both themes is one row, 48 to 56 px tall; the broken search made it 108 px."""
HEADER_END_PX = 24
"""How far from the header's end its search may stop at 1280 px; Zensical's empty repository box left 265 px."""


def _zensical_build(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "zensical"), "build", "-f", "mkdocs.yml"], cwd=project, capture_output=True,
                          text=True, env=copy_env(project), timeout=600)


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Built as `make site BUILDER=zensical` does, once per run (tests/site/test_zensical_search.py reads it too).
    site = shared_build(tmp_path_factory, "fixture-zensical", ff.FIXTURE_CATALOG, engine="zensical")
    assert sorted(p.name for p in (site.parent / "docs").iterdir()) == ["README.md"]
    return site


def test_a_plain_zensical_build_of_a_fresh_clone_says_what_to_run_first(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project", catalog=ff.FIXTURE_CATALOG)
    done = _zensical_build(project)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines == ["catalog-docs: Zensical runs no plugins, so it cannot render the catalogue: build with `make site "
                     "BUILDER=zensical` (or `catalog-docs build -- zensical build -f mkdocs.yml`), preview with "
                     "`make serve BUILDER=zensical`"], lines
    assert not (project / "site" / "index.html").exists()


def test_through_catalog_docs_build_zensical_builds_every_page(zensical_site: Path) -> None:
    pages = {p.relative_to(zensical_site).as_posix() for p in zensical_site.rglob("index.html")}
    assert len(pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 10


def test_mkdocs_still_renders_before_it_builds_a_fresh_clone(built_site: Path) -> None:
    # The docs_dir tag hands mkdocs its folder as is; its plugin adds the pages (docs/ holds none of them).
    assert (built_site / "index.html").is_file() and (built_site / "feed.xml").is_file()


def _header(page: Page) -> dict[str, float]:
    box = page.locator("header.md-header").bounding_box()
    assert box is not None
    return box


@pytest.fixture
def zensical_page(chromium: Browser, zensical_site: Path) -> Iterator[Page]:
    with serve(zensical_site) as base:
        visit = new_visit(chromium, base, viewport={"width": 1280, "height": 800})
        page = visit.open("")
        yield page
        visit.close()
        assert not visit.problems(), "\n".join(visit.problems())


def test_zensical_header_search_is_one_button_at_1280px(zensical_page: Page) -> None:
    page = zensical_page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "zensical-header-1280.png"))
    assert _header(page)["height"] <= HEADER_MAX_PX
    assert not page.get_by_text("Initializing search").is_visible()
    button = page.locator("header .md-search__button")
    assert button.count() == 1 and button.is_visible()
    box = button.bounding_box()
    assert box is not None and box["height"] <= HEADER_MAX_PX
    # The header ends with the search, as Material's does: no empty repository box after it (none is configured).
    inner = page.locator("header .md-header__inner").bounding_box()
    search = page.locator("header .md-search").bounding_box()
    assert inner is not None and search is not None
    assert inner["x"] + inner["width"] - (search["x"] + search["width"]) <= HEADER_END_PX, (inner, search)
    # Nothing of Material's dialog is drawn in the header: no input box, no stacked icons.
    assert page.locator("header .md-search__input").count() == 0
    assert page.locator("header .md-search__icon").count() == 0
    # And it searches: the button opens Zensical's dialog, which finds a page of the fixture.
    button.click()
    page.keyboard.type("Refund")
    # Zensical draws its results in a shadow root, which Playwright's text locators see into.
    found = page.get_by_text("POST /fakeRefundSend", exact=True)
    found.first.wait_for(state="visible", timeout=10_000)
    assert not page.get_by_text("Initializing search").is_visible()


def test_material_header_search_keeps_its_box_at_1280px(chromium: Browser, site_url: str) -> None:
    visit = new_visit(chromium, site_url, viewport={"width": 1280, "height": 800})
    page = visit.open("")
    page.screenshot(path=str(SCREENSHOTS / "material-header-1280.png"))
    assert _header(page)["height"] <= HEADER_MAX_PX
    assert page.locator("header .md-search__input").is_visible()
    assert not page.get_by_text("Initializing search").is_visible()
    visit.close()
    assert not visit.problems(), "\n".join(visit.problems())
