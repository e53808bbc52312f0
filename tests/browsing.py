"""Browser session helpers: Debian's Chromium through Playwright, and page visits that record what went wrong.

A visit records every console error, uncaught page error, failed or 4xx/5xx request, and every request
whose origin is not the local site server. Requests to other origins are refused as well as recorded, so
nothing ever leaves the machine even when a test fails: a visit's browser context sends everything but the
site's own origin to a proxy address that accepts no connection (see `_refusing_proxy`).
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    ProxySettings,
    Request,
    ViewportSize,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from siteserver import serve

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
"""Debian's chromium-headless-shell: the same Chromium build as /usr/bin/chromium (the browser Lighthouse and pa11y
start), made for headless use, as Playwright's own headless runs are. The full browser's headless mode also starts
the browser's own interface pages (its address bar's popup in every context) and cost twice the processor time for
the same page loads (CONTRIBUTING.md, "How the suite runs"). tests/test_browsing_launch.py holds it to the same
version as /usr/bin/chromium."""
FULL_CHROMIUM = "/usr/bin/chromium"
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

BLOCKING = {"serious", "critical"}
"""The impacts of an axe-core violation that fail a page."""

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""The two screens the browser tests read the site on, as `new_visit` options: the desktop of issue 42 and a touch
phone. Tests that ask for the same options share the pool's tabs."""
SCHEMES = {"light": "default", "dark": "slate"}
"""A colour scheme (the browser's preference, the theme's toggle) -> the Material scheme a page shows in it."""
_SWITCHED = """scheme => document.body.dataset.mdColorScheme === scheme
    && !document.body.hasAttribute('data-md-color-switching')"""
"""The theme has shown `scheme` and finished switching to it."""


MEASURE = """() => {
  const marks = [...document.querySelectorAll(
      'article :is(td.lock, td.not-listed, span.lock, span.not-listed, .not-shown)')]
    .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
  const out = marks.map(el => {
    const box = el.getBoundingClientRect();
    return {text: el.textContent.trim().slice(0, 40), left: box.left, right: box.right};
  });
  // Each table that scrolls sideways in its box (the theme's scroller), and each header cell drawn on more than
  // two lines (the distinct tops of its text's line boxes).
  const lines = th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  const tables = [...document.querySelectorAll('article table')];
  const scrolls = tables.filter(t => {
    const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
    return box.scrollWidth > box.clientWidth + 1 || t.scrollWidth > t.clientWidth + 1;
  })
    .map(t => t.caption ? t.caption.textContent.slice(0, 60) : '(no caption)');
  const tall = [...document.querySelectorAll('article thead th')].filter(th => lines(th) > 2)
    .map(th => `${th.textContent.trim().slice(0, 40)}: ${lines(th)} lines`);
  return {
    scheme: document.body.dataset.mdColorScheme,
    width: innerWidth, scrollWidth: document.scrollingElement.scrollWidth, marks: out,
    cards: document.querySelectorAll('article table.catalog-cards').length,
    tables: tables.length, scrolls, tall,
    toc: [...document.querySelectorAll('.md-sidebar--secondary')].some(s => s.getClientRects().length > 0
         && !s.querySelector('[data-md-component="toc"] a')),
  };
}"""
"""What the layout tests measure of a page (tests/site/test_phone_layout.py, tests/site/test_real_reading.py):
every shown value and mark with its box, the page's scroll width, the tables drawn as cards, each table that
scrolls sideways and each header cell drawn on more than two lines."""


def describe_violation(violation: dict[str, Any]) -> str:
    """One axe-core violation in a line: its rule, impact, help and the first elements it names."""
    nodes = "; ".join(" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"])
                      for n in violation["nodes"][:5])
    return f"{violation['id']} ({violation['impact']}): {violation['help']} at {nodes}"


_LOCAL_SCHEMES = {"data", "blob", "about"}
REFUSED = "net::ERR_PROXY_CONNECTION_FAILED"
"""How a request to another origin fails in a visit (Chromium's console says `Failed to load resource: REFUSED`)."""
SETTLE_MS = 50
_FOLLOW = """url => new Promise(resolve => {
  let shown = false;
  const swapped = document$.subscribe(() => {
    if (!shown) { shown = true; return; }  // document$ replays the page already shown
    swapped.unsubscribe();
    resolve();
  });
  history.pushState(null, "", url);  // the theme's click handler: the address first, then the page
  location$.next(new URL(url));
})"""
"""The theme's instant navigation to `url`, as its click handler starts it; resolves once the page is swapped in
(document$ emits)."""
SETTLE_LIMIT_S = 30.0


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class Visit:
    """One test's use of a tab on the local site, with everything that went wrong in it recorded.

    The tab comes from a pool (see `new_visit`): `close()` gives it back cleared. Handlers a test adds to the page
    go through `on()`, so they leave with the visit."""

    base: str
    context: BrowserContext
    page: Page
    console_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    in_flight: set[Request] = field(default_factory=set)
    _tab: _Tab | None = None
    _handlers: list[tuple[str, Callable[..., object]]] = field(default_factory=list)

    def open(self, path: str) -> Page:
        """Load a page of the site (path relative to the site root) and wait until the network is quiet."""
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        self.settle()
        return self.page

    def follow(self, path: str) -> Page:
        """Go to another page of the site (path relative to the site root) as a reader's click on a link to it does:
        the theme's instant navigation fetches the page and swaps it into the open one, whose scripts run again,
        without loading the theme's scripts and styles again; then wait until the network is quiet. The tab shows a
        page of the site."""
        self.page.evaluate(_FOLLOW, self.base + path)
        self.settle()
        # the theme's navigation.tracking may have put the heading in view into the fragment since
        assert self.page.url.split("#")[0] == self.base + path, f"{path}: the tab shows {self.page.url}"
        return self.page

    def reach(self, path: str) -> Page:
        """Go to a page of the site as a reader does: by following a link to it (`follow`) when the tab shows
        another page of the site, else by loading it (`open`): the theme's navigation to the page already shown
        swaps in no page, so `follow` would wait for ever (a task that failed before its click leaves the tab
        there)."""
        shown = self.page.url.split("#")[0]
        return self.follow(path) if shown.startswith(self.base) and shown != self.base + path else self.open(path)

    def settle(self) -> None:
        """Wait until no request of the page is in flight, twice in a row SETTLE_MS apart: what the page's
        scripts fetch at load (the search index, moved.json...) has arrived and been recorded.

        Playwright's "networkidle" waits for 500 ms without a request after the last one, which costs every page
        of every browser test half a second of doing nothing; the requests themselves are what matter."""
        quiet = 0
        for _ in range(int(SETTLE_LIMIT_S * 1000 / SETTLE_MS)):
            self.page.wait_for_timeout(SETTLE_MS)  # lets Playwright deliver the events of the requests
            quiet = 0 if self.in_flight else quiet + 1
            if quiet == 2:
                return
        raise AssertionError(f"requests still in flight after {SETTLE_LIMIT_S} s: "
                             f"{sorted(r.url for r in self.in_flight)}")

    def on(self, event: str, handler: Callable[..., object]) -> None:
        """`page.on` for this visit only: the handler is removed when the visit closes."""
        self.page.on(event, handler)  # type: ignore[call-overload]
        self._handlers.append((event, handler))

    def problems(self) -> list[str]:
        """Every console error, page error, failed request and request to another origin so far."""
        return ([f"console: {m}" for m in self.console_errors]
                + [f"request to another origin: {u}" for u in self.foreign_requests]
                + [f"failed request: {u}" for u in self.failed_requests])

    def forget_problems(self) -> None:
        """Start recording what goes wrong afresh (what went wrong so far was read, or reported elsewhere)."""
        for recorded in (self.console_errors, self.failed_requests, self.foreign_requests):
            recorded.clear()

    def take_problems(self) -> list[str]:
        """What went wrong since the last take (`problems`), then recording afresh (`forget_problems`): a tab read
        page after page reports each page's problems once."""
        problems = self.problems()
        self.forget_problems()
        return problems

    def choose_scheme(self, scheme: str) -> None:
        """Choose `scheme` ("light" or "dark") with the theme's toggle (a click on its label, without moving the
        pointer or the focus there, as a load or a followed link leaves neither), and wait until the theme has
        switched; a test reads the scheme shown (body's data-md-color-scheme). The choice is stored, as a
        reader's is: the next page is shown in it."""
        self.page.get_by_title(f"Switch to {scheme} mode").evaluate("label => label.click()")
        with contextlib.suppress(PlaywrightError):
            self.page.wait_for_function(_SWITCHED, arg=SCHEMES[scheme], timeout=5000)
        self.settle()

    def close(self) -> None:
        """End the visit: its tab goes back to the pool with nothing of this visit left in it, or is closed."""
        for event, handler in self._handlers:
            self.page.remove_listener(event, handler)  # type: ignore[arg-type]
        self._handlers.clear()
        tab, self._tab = self._tab, None
        if tab is None:  # a context of its own
            self.context.close()
            return
        tab.visit = None
        try:
            tab.clear()
        except PlaywrightError:
            self.context.close()
            return
        idle = _IDLE.setdefault(tab.browser, [])
        idle.append(tab)
        while len(idle) > IDLE_TABS:
            idle.pop(0).context.close()


@dataclass(eq=False)
class _Tab:
    """A browser context with one page, kept open between visits made with the same options on the same site.

    A new page costs Chromium about a second of processor time on its first load of the site (a reused one
    about half a second a page, measured with psutil over the browser's processes), and a browser test makes one
    or two visits: reusing tabs takes minutes off `make test`. Between visits the tab is cleared of everything a
    page of the site can keep or a visit can change: it shows about:blank, the site's cookies and storage (local,
    session, IndexedDB, caches) are cleared, granted permissions withdrawn, the viewport put back. The browser's
    HTTP cache stays, as it would for a reader opening a second tab."""

    browser: Browser
    key: str
    origin: str
    context: BrowserContext
    page: Page
    viewport: ViewportSize | None
    visit: Visit | None = None

    @property
    def favicon(self) -> str:
        return self.origin + "/favicon.ico"

    def listen(self) -> None:
        """Record what goes wrong into the tab's current visit (the context's proxy refuses other origins)."""
        self.page.on("console", self._console)
        self.page.on("pageerror", self._page_error)
        self.page.on("request", self._started)
        self.page.on("requestfailed", self._failed)
        self.page.on("requestfinished", self._finished)

    def _started(self, request: Request) -> None:
        if self.visit is None:
            return
        self.visit.in_flight.add(request)
        if urlsplit(request.url).scheme not in _LOCAL_SCHEMES and _origin(request.url) != self.origin:
            self.visit.foreign_requests.append(request.url)

    def _finished(self, request: Request) -> None:
        if self.visit is None:
            return
        self.visit.in_flight.discard(request)
        response = request.response()
        if response is not None and response.status >= 400:
            self.visit.failed_requests.append(f"{response.status} {request.url}")

    def _failed(self, request: Request) -> None:
        if self.visit is None:
            return
        self.visit.in_flight.discard(request)
        # net::ERR_ABORTED is the browser cancelling a request because the page navigated or reloaded
        # (a test's own click); a missing or broken resource shows as a status >= 400 or another error.
        if _origin(request.url) == self.origin and request.failure != "net::ERR_ABORTED":
            self.visit.failed_requests.append(f"{request.failure} {request.url}")

    def _console(self, message: ConsoleMessage) -> None:
        # Chromium asks for /favicon.ico, once per origin, when a page names no icon (the site's pages all name
        # one; a page a test makes may not): the browser's request, not the page's, which Playwright reports as no
        # request at all and would hide entirely if it intercepted requests.
        if self.visit is not None and message.type == "error" and message.location.get("url") != self.favicon:
            self.visit.console_errors.append(message.text)

    def _page_error(self, error: PlaywrightError) -> None:
        if self.visit is not None:
            self.visit.console_errors.append(f"uncaught {error}")

    def clear(self) -> None:
        """Leave nothing of the last visit in the tab (the class's docstring lists what)."""
        for extra in self.context.pages:
            if extra is not self.page:
                extra.close()
        self.page.goto("about:blank")
        self.context.clear_permissions()
        self.context.clear_cookies()
        cdp = self.context.new_cdp_session(self.page)
        try:
            cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        finally:
            cdp.detach()
        if self.viewport is not None and self.page.viewport_size != self.viewport:
            self.page.set_viewport_size(self.viewport)


def _refusing_proxy(browser: Browser, base: str) -> ProxySettings:
    """Browser context options that send every request but those to `base`'s origin to a proxy that refuses it.

    The proxy's address is a port of 127.0.0.1 bound (for as long as the browser lives) and never listened on, so
    a connection to it is refused at once and nothing leaves the machine; `<-loopback>` (Playwright adds it) makes
    other ports of the machine go to the proxy too. The browser refuses these requests itself, where intercepting
    them in Playwright (`route`) would stop every request of every page until the test process let it go on."""
    refuser = _REFUSERS.get(browser)
    if refuser is None:
        refuser = _REFUSERS[browser] = socket.socket()
        refuser.bind(("127.0.0.1", 0))
    parts = urlsplit(base)
    host = f"[{parts.hostname}]" if parts.hostname and ":" in parts.hostname else parts.hostname
    port = parts.port or {"http": 80, "https": 443}[parts.scheme]
    return {"server": f"http://127.0.0.1:{refuser.getsockname()[1]}", "bypass": f"{host}:{port}"}


_REFUSERS: dict[Browser, socket.socket] = {}
"""The refusing proxy's bound socket for each browser."""
IDLE_TABS = 6
"""Tabs kept open per browser between visits; the oldest is closed beyond this."""
_IDLE: dict[Browser, list[_Tab]] = {}
"""The idle tabs of each browser, oldest first."""


def new_visit(browser: Browser, base: str, *, own_context: bool = False, **context_options: object) -> Visit:
    """A visit of the site at `base` in a cleared tab from the pool (or a new one), whose requests outside base's
    origin are refused and recorded. `own_context=True`: a context of its own, closed with the visit, for a test
    that changes what no clearing undoes (an init script)."""
    own, key = _origin(base), repr(sorted(context_options.items()))
    idle = _IDLE.setdefault(browser, [])
    tab = None if own_context else next((t for t in idle if t.origin == own and t.key == key), None)
    if tab is not None:
        idle.remove(tab)
    else:
        context = browser.new_context(proxy=_refusing_proxy(browser, base),
                                      **context_options)  # type: ignore[arg-type]
        page = context.new_page()
        tab = _Tab(browser=browser, key=key, origin=own, context=context, page=page, viewport=page.viewport_size)
        tab.listen()
    tab.visit = Visit(base=base, context=tab.context, page=tab.page, _tab=None if own_context else tab)
    return tab.visit


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
    """A cleared tab on the fixture site; the test fails if anything went wrong in it."""
    v = new_visit(chromium, site_url)
    yield v
    v.close()
    assert not v.problems(), "\n".join(v.problems())
