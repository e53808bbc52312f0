"""The compare page's query string and fragment are hostile until checked: a shared link can hold anything.

Whatever `?from=`, `&to=` and `#` hold (markup, script, a `javascript:` address, controls, a malformed escape,
megabytes), the page runs nothing from them, adds no element from them, asks nothing of another origin, and
draws a comparison: the pair they name when both are labels of the catalogue, else the newest pair with a
notice saying so. Checked on the fixture catalogue's site, with hand-picked payloads and generated ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Dialog, Page

from browsing import Visit, new_visit

pytestmark = [pytest.mark.site, pytest.mark.browser]

UNKNOWN = "The link names a pair that is not in this catalogue; showing the newest pair instead."
PAYLOADS = [
    '<img src=x onerror="document.title=\'pwned\'">',
    '"><script>document.title="pwned"</script>',
    "javascript:document.title='pwned'",
    "</select><iframe src=//example.invalid></iframe>",
    "{{constructor.constructor('document.title=1')()}}",
    "__proto__",
    "FAKE 1.0\u202e",
    "\x00\x1b[31m",
    "../../downloads/catalog.json",
    "x" * 20_000,
]
FRAGMENTS = ["", "#<img src=x onerror=alert(1)>", "#__proto__", "#catalog-compare",
             "#" + quote('"><script>alert(1)</script>')]
MALFORMED = "#%E0%A4%A"
"""A fragment that is not a whole percent-escape: compare.js's decodeURIComponent throws on it, and the page
shows `URI malformed` instead of the comparison (nothing runs; the drawing is lost). Reported, not fixed here:
compare.js is not this test's to change."""


@pytest.fixture
def visit(chromium: Browser, site_url: str) -> Iterator[Visit]:
    v = new_visit(chromium, site_url)
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:  # a script from the link would show here
        dialogs.append(dialog.message)
        dialog.dismiss()

    v.on("dialog", refuse)
    yield v
    v.close()
    assert not dialogs, dialogs
    assert not v.problems(), "\n".join(v.problems())


def labels(page: Page) -> list[str]:
    """Every side the form offers (labels, and LABEL:PLAN pairs)."""
    return page.locator("select[name=from] option").evaluate_all("options => options.map(o => o.value)")


def newest_pair(page: Page) -> tuple[str, str]:
    """The pair the page opens on when the link names none it knows."""
    return (page.locator("select[name=from]").get_attribute("data-default") or "",
            page.locator("select[name=to]").get_attribute("data-default") or "")


def open_with(visit: Visit, side_from: str, side_to: str, fragment: str) -> Page:
    # From a blank page, so that two examples with the same query are two loads: from the same page, a link that
    # differs only in its fragment is a same-document navigation, which runs no script and has no response.
    # The drawn result is what the test waits for (not the network's half-second of quiet that Visit.open waits).
    visit.page.goto("about:blank")
    page = visit.page
    query = f"from={quote(side_from, safe='')}&to={quote(side_to, safe='')}"
    response = page.goto(f"{visit.base}compare/?{query}{fragment}")
    assert response is not None and response.ok, response and response.status
    page.wait_for_selector("#catalog-compare-result h3")
    return page


def assert_inert(page: Page, title: str) -> None:
    """Nothing from the link became markup or ran: the page's own title, no element the payloads make."""
    assert page.title() == title
    for selector in ("img", "script", "iframe"):
        assert page.locator(f"#catalog-compare-result {selector}, #catalog-compare {selector}").count() == 0


def check(visit: Visit, side_from: str, side_to: str, fragment: str) -> None:
    page = open_with(visit, side_from, side_to, fragment)
    known = labels(page)
    shown = (page.get_by_label("From", exact=True).input_value(), page.get_by_label("To", exact=True).input_value())
    alert = page.locator("#catalog-compare-result [role=alert]")
    if side_from in known and side_to in known:
        assert shown == (side_from, side_to)
        assert alert.count() == 0
    else:
        assert shown == newest_pair(page)
        assert alert.inner_text() == UNKNOWN
    assert page.url.startswith(visit.base + "compare/")
    assert_inert(page, page.evaluate("document.querySelector('title').textContent"))
    assert "pwned" not in page.title()


@pytest.fixture(scope="module")
def form(chromium: Browser, site_url: str) -> tuple[list[str], tuple[str, str]]:
    """What the compare page offers, read once: every side, and the pair it opens on."""
    v = new_visit(chromium, site_url)
    try:
        page = v.open("compare/")
        return labels(page), newest_pair(page)
    finally:
        v.close()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_hostile_side_shows_the_newest_pair_and_runs_nothing(visit: Visit, form: tuple[list[str], tuple[str, str]],
                                                               payload: str) -> None:
    known, _ = form
    check(visit, payload, known[0], "")
    check(visit, known[0], payload, "")


@pytest.mark.parametrize("fragment", [*FRAGMENTS, MALFORMED])
def test_a_hostile_fragment_on_a_known_pair_still_draws_it(visit: Visit, form: tuple[list[str], tuple[str, str]],
                                                           fragment: str) -> None:
    _, (side_from, side_to) = form
    check(visit, side_from, side_to, fragment)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(side_from=st.lists(st.sampled_from([*"<>\"'&=;:/\\%#?{}() \u202e\x00", "FAKE", " 1.", "0"]),
                          max_size=12).map("".join),
       side_to=st.sampled_from(["FAKE 1.0", "FAKE 2.0", "<b>x</b>", ""]),
       fragment=st.sampled_from(FRAGMENTS))
def test_any_query_draws_a_comparison_and_runs_nothing(visit: Visit, side_from: str, side_to: str,
                                                       fragment: str) -> None:
    check(visit, side_from, side_to, fragment)
