"""The change-id redirect of catalog.js (a permalink to a row on a later page of a split comparison) follows only
an address on the site's own origin: a lookup (moved.json) naming another origin, a `javascript:` or `data:`
address, a scheme-relative `//host` or one spelt with backslashes is ignored, and the page stays as it is. Run in
Chromium on the fixture site, with the comparison page and its lookup served by the test."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Route, expect

from browsing import new_visit

pytestmark = [pytest.mark.browser, pytest.mark.site]

CHANGE = "value-changed--fake-1-0--fake-2-0--plan-a--fakewidgetlist--0123abcd"
"""A permalink to a row no page of the test holds, whose hash the lookup sends to its one later page."""

HOSTILE = [
    "https://evil.invalid/compare/",
    "http://127.0.0.1:9/compare/",  # the same host on another port: another origin
    "//evil.invalid/compare/",
    "\\\\evil.invalid/compare/",
    "/\\evil.invalid/compare/",
    "javascript:window.__pwned=1",
    " Java\tScript:window.__pwned=1",  # what the URL parser strips and folds
    "data:text/html,<script>parent.__pwned=1</script>",
    "blob:https://evil.invalid/0",
]

LOOKUP_DONE = """
(() => {
  // Settles once catalog.js has read the lookup and done what it does with it: this reader of each Response's
  // json() is registered before catalog.js's (its own .then), so it runs first and waits one task beyond it. The
  // test's comparison page runs it in its head, before catalog.js.
  const json = Response.prototype.json;
  window.__lookupDone = new Promise((done) => {
    Response.prototype.json = function () {
      const read = json.call(this);
      read.then(() => setTimeout(done, 0), () => setTimeout(done, 0));
      return read;
    };
  });
})();
"""


def _case(base: str, case: int, target: str) -> dict[str, str]:
    """A comparison page of the test's own, at hostile/N/, whose lookup names `target` as its one later page, and
    that page (page-2/, holding the row)."""
    folder = f"{base}hostile/{case}/"
    first = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Split comparison</title>'
             f'<script>{LOOKUP_DONE}</script></head><body>'
             '<p data-catalog-moved="moved.json">Page 1</p><script src="../../assets/catalog.js"></script>'
             '</body></html>')
    later = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page 2</title></head><body><table>'
             f'<tr id="{CHANGE}"><td>row</td></tr></table></body></html>')
    lookup = json.dumps({"pages": [target], "hashes": ["0123abcd"], "ids": {}})
    return {folder: first, f"{folder}moved.json": lookup, f"{folder}page-2/": later}


def test_the_redirect_follows_only_addresses_on_the_sites_origin(chromium: Browser, site_url: str) -> None:
    visit = new_visit(chromium, site_url)
    own = ["page-2/", f"{site_url}hostile/{{n}}/page-2/"]
    served: dict[str, str] = {}
    for n, target in enumerate([*HOSTILE, *own]):
        served |= _case(site_url, n, target.replace("{n}", str(n)))

    def answer(route: Route) -> None:
        body = served[route.request.url]
        route.fulfill(body=body, content_type="application/json" if body.startswith("{") else "text/html")

    page = visit.page
    page.route(f"{site_url}hostile/**", answer)
    try:
        for n, target in enumerate(HOSTILE):
            page.goto(f"{site_url}hostile/{n}/#{CHANGE}")
            assert page.evaluate("() => window.__lookupDone instanceof Promise"), "the page's waiter did not run"
            page.evaluate("() => window.__lookupDone")
            visit.settle()
            assert page.url == f"{site_url}hostile/{n}/#{CHANGE}", target
            assert page.evaluate("() => window.__pwned") is None, target
            assert not visit.problems(), (target, visit.problems())
        for n, target in enumerate(own, start=len(HOSTILE)):
            page.goto(f"{site_url}hostile/{n}/#{CHANGE}")
            expect(page).to_have_url(f"{site_url}hostile/{n}/page-2/#{CHANGE}")
            assert not visit.problems(), (target, visit.problems())
    finally:
        page.unroute(f"{site_url}hostile/**", answer)
        visit.close()
