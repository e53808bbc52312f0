"""On a site served at the address it was built for, as a deployed site is, a click on a link to one change (an
operation page's "Changes between labels") is the theme's instant navigation, and it lands as a followed permalink
must: the address keeps the change's id, its row is marked and on screen, at 1280 x 900 and on a 390 x 844 phone.

The other browser tests serve the fixture site at an address its sitemap does not name (a free port), where the
theme leaves every click to the browser as a full load; here the sitemap names the served address
(siteserver.serve's `deployed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from browsing import DESKTOP, PHONE, new_visit
from siteserver import serve

pytestmark = [pytest.mark.browser, pytest.mark.site]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
OPERATION = "operations/fakeRefundSend/"
LINGER_MS = 1500
"""How long the landed page is watched before it is read: the theme's scroll handlers have had their turn (its
navigation.tracking writes the heading in view into the address when the page lands away from the row)."""
READ_MS = 300
"""How long the reader looks at the link, scrolled into view, before clicking it. The theme writes the scroll position
into the current history entry a tenth of a second after a scroll ends; a click within that tenth (Playwright clicks
at once) has it written into the new entry, which the theme then restores instead of going to the fragment."""
LANDED = """id => {
  const row = document.getElementById(id);
  const box = row.getBoundingClientRect();
  const header = document.querySelector(".md-header").getBoundingClientRect();
  return {same: window.testSameDocument === true, hash: location.hash,
          marked: row.classList.contains("catalog-targeted"),
          shown: box.top >= header.bottom - 1 && box.bottom <= innerHeight};
}"""


@pytest.fixture(scope="module")
def deployed(built_site: Path) -> Iterator[str]:
    """The fixture site served with its sitemap naming the served address."""
    with serve(built_site, deployed=True) as base:
        yield base


@pytest.mark.parametrize("screen", SCREENS)
def test_a_change_link_followed_in_page_keeps_its_address_and_marks_its_row(chromium: Browser, deployed: str,
                                                                             screen: str) -> None:
    visit = new_visit(chromium, deployed, **SCREENS[screen])
    try:
        page = visit.open(OPERATION)
        links = page.locator(".catalog-changes li ul a")
        assert links.count() > 0, "the fixture operation lists no change"
        href = links.first.get_attribute("href") or ""
        change = href.split("#", 1)[1]
        page.evaluate("window.testSameDocument = true")
        links.first.scroll_into_view_if_needed()
        page.wait_for_timeout(READ_MS)
        links.first.click()
        page.wait_for_function("id => document.getElementById(id) !== null", arg=change)
        visit.settle()
        page.wait_for_timeout(LINGER_MS)
        landed = page.evaluate(LANDED, change)
    finally:
        visit.close()
    assert landed == {"same": True, "hash": f"#{change}", "marked": True, "shown": True}, (screen, href, landed)
    assert not visit.problems(), "\n".join(visit.problems())
