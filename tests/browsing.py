"""Browser session helpers: Debian's Chromium through Playwright, and page visits that record what went wrong.

A visit records every console error, uncaught page error, failed or 4xx/5xx request, and every request
whose origin is not the local site server. Requests to other origins are aborted as well as recorded, so
nothing ever leaves the machine even when a test fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Request, Route, sync_playwright

from siteserver import serve

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

PAGE_TYPES = {
    "home": "",
    "operations-index": "operations/",
    "operation": "operations/fakeRefundSend/",
    "version": "versions/FAKE-2.0/",
    "plan": "plans/PLAN-B/",
    "compare": "compare/FAKE-1.1...FAKE-2.0/",
    "compare-any-pair": "compare/",
    "matrix": "matrix/",
    "not-shown": "not-shown/",
    "sources": "sources/",
}
"""One page of every page type of the fixture site (tests/fixture-catalog/), by name (the names are used
for screenshot files and test ids)."""

_LOCAL_SCHEMES = {"data", "blob", "about"}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class Visit:
    """A browser context on the local site with everything that went wrong recorded."""

    base: str
    context: BrowserContext
    page: Page
    console_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    def open(self, path: str) -> Page:
        """Load a page of the site (path relative to the site root) and wait until the network is idle."""
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        self.page.wait_for_load_state("networkidle")
        return self.page

    def problems(self) -> list[str]:
        """Every console error, page error, failed request and request to another origin so far."""
        return ([f"console: {m}" for m in self.console_errors]
                + [f"request to another origin: {u}" for u in self.foreign_requests]
                + [f"failed request: {u}" for u in self.failed_requests])


def new_visit(browser: Browser, base: str, **context_options: object) -> Visit:
    """A fresh browser context whose requests outside base's origin are aborted and recorded."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    visit = Visit(base=base, context=context, page=page)
    own = _origin(base)

    def guard(route: Route) -> None:
        url = route.request.url
        if urlsplit(url).scheme in _LOCAL_SCHEMES or _origin(url) == own:
            route.continue_()
        else:
            visit.foreign_requests.append(url)
            route.abort()

    def finished(request: Request) -> None:
        response = request.response()
        if response is not None and response.status >= 400:
            visit.failed_requests.append(f"{response.status} {request.url}")

    context.route("**/*", guard)
    page.on("console", lambda msg: visit.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: visit.console_errors.append(f"uncaught {exc}"))
    def failed(req: Request) -> None:
        # net::ERR_ABORTED is the browser cancelling a request because the page navigated or reloaded
        # (a test's own click); a missing or broken resource shows as a status >= 400 or another error.
        if _origin(req.url) == own and req.failure != "net::ERR_ABORTED":
            visit.failed_requests.append(f"{req.failure} {req.url}")

    page.on("requestfailed", failed)
    page.on("requestfinished", finished)
    return visit


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served over HTTP on 127.0.0.1; the base URL ends with '/'."""
    with serve(built_site) as base:
        yield base


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright_session: Playwright) -> Iterator[Browser]:
    """One Chromium for the whole session (Debian's; Playwright cannot download its own here)."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make test` installs it (or set CHROMIUM)"
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def visit(chromium: Browser, site_url: str) -> Iterator[Visit]:
    """A fresh context on the fixture site; the test fails if anything went wrong in it."""
    v = new_visit(chromium, site_url)
    yield v
    v.context.close()
    assert not v.problems(), "\n".join(v.problems())
