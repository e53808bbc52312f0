"""The OpenAPI download as developers see it in Redoc and Swagger UI, each embedded the documented way with
no options (Redoc's `<redoc spec-url=...>` with its standalone script, npm `redoc`; `SwaggerUIBundle({url,
dom_id})`, npm `swagger-ui-dist`): the inferred-area tags, every operation's lock values, the entry without a
path and the not-shown register are on the page, and catalogue text stays text. Drives Debian's Chromium; the
screenshot of a view a test fails on is kept under test-artifacts/screenshots/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import fixture_facts as ff
from browsing import DESKTOP, REFUSED, SCREENSHOTS, new_visit
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import export_text
from download_fixtures import write_download_catalog
from npm_tools import NODE_MODULES
from siteserver import serve

pytestmark = pytest.mark.browser

REDOC = NODE_MODULES / "redoc" / "bundles" / "redoc.standalone.js"
SWAGGER_UI = NODE_MODULES / "swagger-ui-dist"
SWAGGER_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>openapi.yaml in Swagger UI</title>
<link rel="stylesheet" href="swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "openapi.yaml", dom_id: "#swagger-ui"});</script></body></html>
"""
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>openapi.yaml in Redoc</title></head>
<body><redoc spec-url="openapi.yaml"></redoc><script src="redoc.standalone.js"></script></body></html>
"""


def _redoc_page(folder: Path, catalog_dir: Path) -> None:
    """A folder with a catalogue's openapi.yaml and a page that shows it in Redoc."""
    assert REDOC.is_file(), f"{REDOC} is missing: run `make tools` or `npm ci`"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "openapi.yaml").write_text(export_text(load_catalog(catalog_dir), "openapi"), encoding="utf-8")
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    shutil.copy2(REDOC, folder / "redoc.standalone.js")
    assert (SWAGGER_UI / "swagger-ui-bundle.js").is_file(), f"{SWAGGER_UI} is missing: run `make tools` or `npm ci`"
    (folder / "swagger.html").write_text(SWAGGER_PAGE, encoding="utf-8")
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        shutil.copy2(SWAGGER_UI / name, folder / name)


@pytest.fixture(scope="module")
def redoc_sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    base = tmp_path_factory.mktemp("redoc")
    _redoc_page(base / "fixture", ff.FIXTURE_CATALOG)
    _redoc_page(base / "markup", write_download_catalog(base / "markup-catalog", "markup-and-areas"))
    with serve(base) as url:
        yield {"fixture": url + "fixture/", "markup": url + "markup/"}


@contextmanager
def _viewer(chromium: Browser, url: str, path: str, ready: str, shot: str, *,
            full_page: bool) -> Iterator[tuple[Page, list[str], list[str]]]:
    """A viewer's page loaded at 1280 x 900 in a cleared tab (the same tab for every view: the tab is given back
    when the block ends), until `ready` is on it: the page, the dialogs it opened and what went wrong while it loaded.
    Its screenshot is kept under test-artifacts/screenshots/ when what the block checks fails."""
    visit = new_visit(chromium, url, **DESKTOP)
    try:
        dialogs: list[str] = []
        visit.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        visit.open(path)
        try:
            visit.page.wait_for_selector(ready)
            yield visit.page, dialogs, visit.problems()
        except Exception:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            visit.page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=full_page)
            raise
    finally:
        visit.close()


@contextmanager
def _redoc(chromium: Browser, url: str, shot: str) -> Iterator[tuple[Page, list[str], list[str]]]:
    with _viewer(chromium, url, "", ".api-content", f"redoc-{shot}", full_page=False) as (page, dialogs, seen):
        # Redoc's "API docs by Redocly" badge asks its CDN for a logo: refused, so nothing leaves the machine.
        problems = [p for p in seen if not ((p.startswith("request to another origin: https://cdn.redoc")
                                             and p.endswith("/logo-mini.svg"))
                                            or p == f"console: Failed to load resource: {REFUSED}")]
        yield page, dialogs, problems


def test_redoc_shows_tags_lock_values_and_the_entry_without_a_path(chromium: Browser,
                                                                    redoc_sites: dict[str, str]) -> None:
    with _redoc(chromium, redoc_sites["fixture"], "fixture") as (page, dialogs, problems):
        _redoc_shows_the_fixture(page, dialogs, problems)


def _redoc_shows_the_fixture(page: Page, dialogs: list[str], problems: list[str]) -> None:
    assert problems == [] and dialogs == []
    menu = page.locator(".menu-content").inner_text()
    for tag in ("Fake widget handling (inferred area)", "No area inferred"):
        assert tag in menu
    assert "Listing entries without a path" in menu and "Not shown in the source" in menu
    # The entry without a path: its heading and its lock values, in the document's description.
    heading = page.get_by_role("heading", name="Entry 7", exact=True)
    heading.scroll_into_view_if_needed()
    assert heading.is_visible()
    rows = page.locator("[id='section/Listing-entries-without-a-path'] table").last.locator("tbody tr")
    texts = rows.all_inner_texts()  # each row's text, as inner_text gives it, in one round trip
    assert len(texts) == len(ff.columns())
    assert [text.split("\t") for text in texts] == [
        [label, plan, ff.value(label, plan, 7)] for label, plan in ff.columns()]
    # Every operation's lock values: a table in its description, one row per (label, plan entry).
    for position, path in enumerate(ff.PATHS, start=1):
        if path is None:
            continue
        op = page.locator(f"[data-section-id='operation/{ff.SLUGS.get(path, path[1:].replace('/', '-'))}']")
        assert [text.split("\t") for text in op.locator("table tbody tr").all_inner_texts()] == [
            [label, plan, ff.value(label, plan, position)] for label, plan in ff.columns()], path
    assert "base-url-not-shown.invalid" in page.locator(".api-content").inner_text()


def test_redoc_shows_catalogue_markup_as_text(chromium: Browser, redoc_sites: dict[str, str]) -> None:
    with _redoc(chromium, redoc_sites["markup"], "markup") as (page, dialogs, problems):
        assert dialogs == [] and problems == []
        content = page.locator(".api-content")
        for part in (content, page.locator(".menu-content")):
            assert part.locator("script").count() == 0
            assert part.locator("em", has_text="x").count() == 0
            assert part.locator("a[href='https://e.invalid']").count() == 0
        assert "<script>alert(1)</script> *x* _y_ | z `q` [l](https://e.invalid)" in content.inner_text()


def _swagger_ui(chromium: Browser, url: str, shot: str) -> AbstractContextManager[tuple[Page, list[str], list[str]]]:
    return _viewer(chromium, url, "swagger.html", ".swagger-ui .info .title", f"swagger-ui-{shot}", full_page=True)


def _rows(table) -> list[list[str]]:  # type: ignore[no-untyped-def]
    # Each row's text, as inner_text gives it, in one round trip.
    return [[c.strip() for c in text.split("\t")] for text in table.locator("tbody tr").all_inner_texts()]


def test_swagger_ui_shows_tags_lock_values_and_the_entry_without_a_path(chromium: Browser,
                                                                         redoc_sites: dict[str, str]) -> None:
    with _swagger_ui(chromium, redoc_sites["fixture"], "fixture") as (page, dialogs, problems):
        _swagger_ui_shows_the_fixture(page, dialogs, problems)


def _swagger_ui_shows_the_fixture(page: Page, dialogs: list[str], problems: list[str]) -> None:
    assert problems == [] and dialogs == []
    tags = [" ".join(t.split()) for t in page.locator(".opblock-tag").all_inner_texts()]
    assert any(t.startswith("Fake widget handling (inferred area)") for t in tags), tags
    assert any(t.startswith("No area inferred") for t in tags), tags
    info = page.locator(".swagger-ui .info .description")
    entry = info.get_by_role("heading", name="Entry 7", exact=True)
    assert entry.is_visible()
    expected = [[label, plan, ff.value(label, plan, 7)] for label, plan in ff.columns()]
    assert _rows(info.locator("table").last) == expected
    # An operation shows its lock values once opened, as any operation's description is shown.
    for position, path in enumerate(ff.PATHS, start=1):
        if path is None:
            continue
        block = page.locator(".opblock", has=page.locator(f".opblock-summary-path[data-path='{path}']"))
        block.locator(".opblock-summary-control").click()
        table = block.locator(".opblock-description-wrapper table")
        table.wait_for()
        assert _rows(table) == [[label, plan, ff.value(label, plan, position)] for label, plan in ff.columns()], path


def test_swagger_ui_shows_catalogue_markup_as_text(chromium: Browser, redoc_sites: dict[str, str]) -> None:
    with _swagger_ui(chromium, redoc_sites["markup"], "markup") as (page, dialogs, problems):
        assert dialogs == [] and problems == []
        ui = page.locator(".swagger-ui")
        assert ui.locator("script").count() == 0
        assert ui.locator("em", has_text="x").count() == 0 and ui.locator("a[href='https://e.invalid']").count() == 0
        assert "<script>alert(1)</script> *x* _y_ | z `q` [l](https://e.invalid)" in ui.locator(".info").inner_text()
