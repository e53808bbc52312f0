"""The compare page's query string and fragment are hostile until checked: a shared link can hold anything.

Whatever `?from=`, `&to=` and `#` hold (markup, script, a `javascript:` address, controls, a malformed escape,
megabytes), the page runs nothing from them, adds no element from them, asks nothing of another origin, and
draws a comparison: the pair they name when both are labels of the catalogue, else the newest pair with a
notice saying so. Checked on the fixture catalogue's site: hand-picked payloads, each in a link loaded afresh on
one side and brought back on the other, hand-picked fragments each loaded afresh, and generated ones, each in a link
the reader comes back to with Back and Forward (the page's popstate listener draws what the address names, through
the same reading of it as a load: compare.js `fromUrl` and `run`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Dialog, ElementHandle, Page

from browsing import Visit, new_visit
from htmltree import parse_file

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
    "<>\"'&=;:/\\%#?{}() \u202e\x00FAKE 1.0",  # every character the generated sides are made of
]
FRAGMENTS = ["", "#<img src=x onerror=alert(1)>", "#__proto__", "#catalog-compare",
             "#" + quote('"><script>alert(1)</script>')]
MALFORMED = "#%E0%A4%A"
"""A fragment that is not a whole percent-escape: compare.js's decodeURIComponent throws on it (it once showed
`URI malformed` instead of the comparison); it names no change, and the pair is drawn as without it."""


@pytest.fixture(scope="module")
def tab(chromium: Browser, site_url: str) -> Iterator[tuple[Visit, list[str]]]:
    """One tab for the module's tests, and the dialogs opened in it. Each test loads its links into it afresh, or
    brings them back from its history, and reads only what went wrong while it ran. (A cleared tab per test, a
    blank page and the next link loaded from it, cost a good part of a load each and served no check: each link is
    loaded whole, and no check reads what the site keeps in storage.)"""
    v = new_visit(chromium, site_url)
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:  # a script from the link would show here
        dialogs.append(dialog.message)
        dialog.dismiss()

    v.on("dialog", refuse)
    yield v, dialogs
    v.close()


@pytest.fixture
def visit(tab: tuple[Visit, list[str]]) -> Iterator[Visit]:
    """The module's tab; the test fails if a dialog opened or anything went wrong in it (what comes after the test,
    from its pages, fails the next one)."""
    v, dialogs = tab
    yield v
    opened, problems = list(dialogs), v.take_problems()
    dialogs.clear()
    assert not opened, opened
    assert not problems, "\n".join(problems)


def labels(page: Page) -> list[str]:
    """Every side the form offers (labels, and LABEL:PLAN pairs)."""
    return page.locator("select[name=from] option").evaluate_all("options => options.map(o => o.value)")


def newest_pair(page: Page) -> tuple[str, str]:
    """The pair the page opens on when the link names none it knows."""
    return (page.locator("select[name=from]").get_attribute("data-default") or "",
            page.locator("select[name=to]").get_attribute("data-default") or "")


def link(visit: Visit, side_from: str, side_to: str, fragment: str) -> str:
    return f"{visit.base}compare/?from={quote(side_from, safe='')}&to={quote(side_to, safe='')}{fragment}"


def open_with(visit: Visit, side_from: str, side_to: str, fragment: str) -> Page:
    """The compare page loaded from the link. The drawn result is what the test waits for (not the network's quiet
    that Visit.open waits for)."""
    page, url = visit.page, link(visit, side_from, side_to, fragment)
    if page.url.split("#")[0] == url.split("#")[0]:
        # From the same address, a link that differs only in its fragment is a same-document navigation, which runs
        # no script and has no response: through a blank page, it is a load.
        page.goto("about:blank")
    response = page.goto(url)
    assert response is not None and response.ok, response and response.status
    page.wait_for_selector("#catalog-compare-result h3")
    return page


def _redrawn(page: Page, before: ElementHandle | None) -> None:
    """Wait until the result has been drawn again (its heading is a new element)."""
    page.wait_for_function("""before => {
      const heading = document.querySelector("#catalog-compare-result h3");
      return heading !== null && heading !== before;
    }""", arg=before)


# The link's entry in the tab's history, as a reader's has it once the link's page has been shown: its address, and the
# scroll position mkdocs-material keeps as a shown entry's state. The entry before it, the one Back shows, gets its
# position too if it has none yet: an entry without one (left within the theme's first tenth of a second) has the
# theme follow its fragment again after Back or Forward, a second popstate and drawing after the one waited for.
# A listener of the test's notes the address each popstate finds (the theme's navigation.tracking may write a
# heading's fragment into the address after the drawing).
_ADD_ENTRY = """url => {
  if (!("testPoppedAt" in window)) {
    window.testPoppedAt = null;
    addEventListener("popstate", () => { window.testPoppedAt = location.href; });
  }
  const shown = () => ({x: window.scrollX, y: window.scrollY});
  if (history.state === null) history.replaceState(shown(), "");
  history.pushState(shown(), "", url);
}"""


def come_back_to(visit: Visit, side_from: str, side_to: str, fragment: str) -> Page:
    """The compare page showing the link again after the reader's Back, then Forward: the link's entry is added to
    the tab's history on a compare page already open; Back draws the entry before it, Forward draws the link's
    (compare.js's popstate listener, as a reader's browser fires it)."""
    page, url = visit.page, link(visit, side_from, side_to, fragment)
    if not page.url.startswith(visit.base + "compare/"):
        page.goto(visit.base + "compare/")
        page.wait_for_selector("#catalog-compare-result h3")
    page.evaluate(_ADD_ENTRY, url)
    for step in (page.go_back, page.go_forward):
        before = page.query_selector("#catalog-compare-result h3")
        step()
        _redrawn(page, before)
    popped_at, address = page.evaluate("url => [window.testPoppedAt, new URL(url).href]", url)
    assert popped_at == address  # Forward drew the link's entry, as the browser spells its address
    return page


_READ = """() => {
  const inForm = selector => document.querySelectorAll(
    `#catalog-compare-result ${selector}, #catalog-compare ${selector}`).length;
  const side = name => document.querySelector(`select[name=${name}]`);
  return {
    known: Array.from(side("from").options, o => o.value),
    newest: [side("from").getAttribute("data-default") || "", side("to").getAttribute("data-default") || ""],
    alerts: Array.from(document.querySelectorAll("#catalog-compare-result [role=alert]"), a => a.innerText),
    title: document.title,
    ownTitle: document.querySelector("title").textContent,
    made: {img: inForm("img"), script: inForm("script"), iframe: inForm("iframe")},
  };
}"""
"""What the checks read of the page, in one round trip: the form's sides and the pair it opens on, the notices above
the result, the document's title and its title element's own text, and the elements the payloads would make."""


def check(visit: Visit, side_from: str, side_to: str, fragment: str, reach: Callable[..., Page] = open_with) -> None:
    page = reach(visit, side_from, side_to, fragment)
    seen = page.evaluate(_READ)
    shown = (page.get_by_label("From", exact=True).input_value(), page.get_by_label("To", exact=True).input_value())
    if side_from in seen["known"] and side_to in seen["known"]:
        assert shown == (side_from, side_to)
        assert seen["alerts"] == []
    else:
        assert shown == tuple(seen["newest"])
        assert seen["alerts"] == [UNKNOWN]
    assert page.url.startswith(visit.base + "compare/")
    # Nothing from the link became markup or ran: the page's own title, no element the payloads make.
    assert seen["title"] == seen["ownTitle"]
    assert seen["made"] == {"img": 0, "script": 0, "iframe": 0}
    assert "pwned" not in seen["title"]


@pytest.fixture(scope="module")
def form(built_site: Path) -> tuple[list[str], tuple[str, str]]:
    """What the compare page offers, read once from its built page, without loading it: every side, and the pair it
    opens on (each select's selected option, the browser's value for it, which compare.js keeps as the pair to fall
    back on; each check reads the page's own, `_READ`)."""
    sides, page = [], parse_file(built_site / "compare" / "index.html")
    for name in ("from", "to"):
        select = page.find("select", name=name)
        assert select is not None, name
        options = select.find_all("option")
        sides.append(([o.attrs["value"] for o in options],
                      next((o for o in options if "selected" in o.attrs), options[0]).attrs["value"]))
    (known, newest_from), (_, newest_to) = sides
    return known, (newest_from, newest_to)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_hostile_side_shows_the_newest_pair_and_runs_nothing(visit: Visit, form: tuple[list[str], tuple[str, str]],
                                                               payload: str) -> None:
    """The payload on either side of a known label: in a link loaded afresh on one side, and on the other in a link
    the reader comes back to (the side loaded alternates over the payloads, so both are loaded for some and every
    payload reaches the server, the theme's scripts and compare.js's first drawing)."""
    known, _ = form
    sides = [(payload, known[0]), (known[0], payload)]
    loaded, brought_back = sides if PAYLOADS.index(payload) % 2 == 0 else sides[::-1]
    check(visit, *loaded, "")
    check(visit, *brought_back, "", reach=come_back_to)


@pytest.mark.parametrize("fragment", [*FRAGMENTS, MALFORMED])
def test_a_hostile_fragment_on_a_known_pair_still_draws_it(visit: Visit, form: tuple[list[str], tuple[str, str]],
                                                           fragment: str) -> None:
    _, (side_from, side_to) = form
    check(visit, side_from, side_to, fragment)


def test_a_link_to_a_known_pair_draws_it(visit: Visit, form: tuple[list[str], tuple[str, str]]) -> None:
    """Not the pair the page opens on, so the link's pair is drawn because the link names it."""
    known, newest = form
    assert newest != ("FAKE 1.0", "FAKE 1.1") and {"FAKE 1.0", "FAKE 1.1"} <= set(known)
    check(visit, "FAKE 1.0", "FAKE 1.1", "#__proto__")
    # The page's own sides and fallback pair are the form's as read from the built page: the link's pair is not it.
    assert (labels(visit.page), newest_pair(visit.page)) == (known, newest)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(side_from=st.lists(st.sampled_from([*"<>\"'&=;:/\\%#?{}() \u202e\x00", "FAKE", " 1.", "0"]),
                          max_size=12).map("".join),
       side_to=st.sampled_from(["FAKE 1.0", "FAKE 2.0", "<b>x</b>", ""]),
       fragment=st.sampled_from([*FRAGMENTS, MALFORMED]))
@example(side_from="FAKE 1.0", side_to="FAKE 2.0", fragment=MALFORMED)  # a known pair, not the one the page opens on
def test_any_query_brought_back_by_back_and_forward_draws_a_comparison_and_runs_nothing(
        visit: Visit, side_from: str, side_to: str, fragment: str) -> None:
    check(visit, side_from, side_to, fragment, reach=come_back_to)
