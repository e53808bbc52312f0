"""/compare/ in Chromium: the any-pair form draws the diff in the page, from catalog.json, with no server."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog_docs.render import render_pages
from catalog_docs.validate import load_catalog

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

pytestmark = [pytest.mark.site, pytest.mark.browser]


def _build_own(dest: Path) -> Path:
    """Build the real site from a project copy: hand-written docs files only, never generated pages."""
    generated = set(render_pages(load_catalog(ROOT / "catalog")))
    for name in ("overrides", "scripts", "catalog"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    tracked = subprocess.run(["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    for rel in tracked:
        if rel[len("docs/"):] not in generated:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--site-dir",
                           str(dest / "site")], cwd=dest, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    return dest / "site"


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Reuse the session-wide build when the suite has one, so the site is built once per run.
    try:
        return request.getfixturevalue("built_site")
    except pytest.FixtureLookupError:
        return _build_own(tmp_path_factory.mktemp("project"))


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


@pytest.fixture(scope="module")
def page(base_url: str):  # noqa: ANN201 - a Playwright page
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        yield page
        browser.close()


def test_the_default_pair_is_drawn_on_load(page, base_url: str) -> None:  # noqa: ANN001
    page.goto(base_url + "compare/")
    page.wait_for_selector("#catalog-compare-result table")
    result = page.locator("#catalog-compare-result")
    assert result.locator("h3").inner_text() == "UPI_N 1.0.1 → UPI_N 1.1.0"
    changed = result.locator("table").nth(1).locator("tbody tr")
    assert changed.count() == 22
    assert result.locator("table").nth(1).locator(".lock.lock-unlimited").count() == 22
    assert "/transactionStatusQuery" not in result.inner_text()
    assert "not listed" in result.locator(".not-listed").first.inner_text()
    assert page.get_by_label("From", exact=True).input_value() == "UPI_N 1.0.1"
    assert page.errors == []


def test_two_plan_entries_and_a_mismatched_pair(page, base_url: str) -> None:  # noqa: ANN001
    page.goto(base_url + "compare/")
    page.get_by_label("From", exact=True).select_option("UPI_N 1.0.1:UPI_N 1.0.0")
    page.get_by_label("To", exact=True).select_option("UPI_N 1.0.1:UPI_N 3.0.0")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_function("document.querySelector('#catalog-compare-result h3').textContent.includes('3.0.0')")
    assert page.locator("#catalog-compare-result table").nth(1).locator("tbody tr").count() == 23
    page.get_by_label("To", exact=True).select_option("UPI_N 1.1.0")
    page.get_by_role("button", name="Compare").click()
    alert = page.get_by_role("alert")
    assert "compare a label with a label" in alert.inner_text()


def test_the_form_works_when_reached_by_a_link(page, base_url: str) -> None:  # noqa: ANN001
    # With instant navigation the page is swapped in and its <script> re-run by the theme; served on a
    # port other than site_url's, the theme falls back to a normal load. Either way the form must work.
    page.goto(base_url)
    page.get_by_role("link", name="Compare", exact=True).first.click()
    page.wait_for_selector("#catalog-compare-result table")
    assert page.locator("#catalog-compare-result .lock-unlimited").count() == 23
    assert page.errors == []
