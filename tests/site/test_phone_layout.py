"""Phones: at 390 px every lock value and every *not listed* / *not shown* mark that a page shows lies inside
the screen, and no page scrolls sideways. Wide data tables become cards (overrides/assets/catalog.js and
catalog.css) that stay tables for assistive technology; at 1280 px they are plain tables. Every page type of the
fixture site (three labels, three plan entries), light and dark; the screenshot of a page in a scheme where
something is wrong with it is kept under test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

import fixture_facts as ff
from browsing import DESKTOP, MEASURE, PAGE_TYPES, PHONE, SCHEMES, SCREENSHOTS, Visit, new_visit

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE_SIZE = PHONE["viewport"]
WIDE_SIZE = DESKTOP["viewport"]
"""The desktop of issue 42, where every table fits."""
PAGES = {**PAGE_TYPES, "versions-index": "versions/", "plans-index": "plans/", "legend": "legend/"}
VALUE_PAGES = {"operations-index", "operation", "version", "plan", "compare", "matrix"}
"""The page types that show lock values in tables."""


def test_the_fixture_is_wide_enough_to_matter() -> None:
    assert len(ff.LABELS) >= 3 and len(ff.PLAN_NAMES) >= 3


_UNDERLINE = """() => { const a = document.querySelector('article a:not(.headerlink)');
  if (!a) return null;
  const s = getComputedStyle(a);
  return [parseFloat(s.textUnderlineOffset), parseFloat(s.fontSize)]; }"""
"""The first content link's underline offset and font size (null: the content has no link)."""


@pytest.fixture(scope="module")
def wide_pages(chromium: Browser, site_url: str) -> dict[str, dict]:
    """Every page measured at 1280 px, once (the phone tests compare both of their schemes with it), and the home
    page's first content link's underline. The tab loads the home page and goes from page to page as a reader
    following links does (the theme's instant navigation: tests/browsing.py `Visit.follow`)."""
    wide = new_visit(chromium, site_url, **DESKTOP)
    try:
        measured = {}
        for name, path in PAGES.items():
            page = wide.reach(path)
            measured[name] = page.evaluate(MEASURE)
            if name == "home":
                measured[name]["underline"] = page.evaluate(_UNDERLINE)
        assert not wide.problems(), wide.problems()
        return measured
    finally:
        wide.close()


CARD_PAGES = ["operations-index", "matrix", "version", "plan"]
"""Page types whose tables become cards at 390 px."""


def _ax_roles(visit: Visit) -> set[str]:
    """The roles in Chromium's own accessibility tree of the page (not the DOM)."""
    session = visit.context.new_cdp_session(visit.page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return {n["role"]["value"] for n in nodes if not n.get("ignored") and "role" in n}


# The first card of the matrix: the column name of each of its values, and what is drawn before its first value.
_FIRST_CARD = """() => {
  const row = document.querySelector('article table.catalog-cards tbody tr');
  const lock = row && row.querySelector('td.lock');
  return row && {names: [...row.querySelectorAll('td.lock, td.not-listed')].map(cell => cell.dataset.col),
                 before: lock && getComputedStyle(lock, '::before').content};
}"""


def _off_screen(seen: dict) -> list[dict]:
    return [m for m in seen["marks"] if m["left"] < -0.5 or m["right"] > seen["width"] + 0.5]


def _wrong(seen: dict, broad: dict, scheme: str) -> bool:
    """Whether something test_every_value_is_on_screen_at_390_px checks is wrong with a page in a scheme."""
    return bool(seen["problems"] or _off_screen(seen) or seen["scrollWidth"] > seen["width"]
                or seen["scheme"] != SCHEMES[scheme]
                or sorted(m["text"] for m in seen["marks"]) != sorted(m["text"] for m in broad["marks"]))


def _measure_phone(phone: Visit, name: str, scheme: str, broad: dict) -> dict:
    """A page at 390 px in the scheme it shows: measured, with what went wrong since the last measurement; in the
    light scheme, where tables become cards, Chromium's accessibility tree too, and the matrix's first card. Its
    screenshot is kept when something is wrong with it."""
    page = phone.page
    seen: dict = page.evaluate(MEASURE)
    if scheme == "light" and name in CARD_PAGES:
        seen["roles"] = _ax_roles(phone)
        seen["caption_visible"] = page.locator("article table.catalog-cards caption").first.is_visible()
    if scheme == "light" and name == "matrix":
        seen["card"] = page.evaluate(_FIRST_CARD)
    seen["problems"] = phone.take_problems()
    if _wrong(seen, broad, scheme):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"phone-{name}-{scheme}.png", full_page=True)
    return seen


@pytest.fixture(scope="module")
def phone_pages(chromium: Browser, site_url: str, wide_pages: dict[str, dict]) -> dict[str, dict[str, dict]]:
    """Every page at 390 px on a touch phone, in each scheme: measured, what went wrong on it (see _measure_phone).
    One tab loads the home page in the light scheme and goes from page to page as a reader following links does (the
    theme's instant navigation): each page is measured in the scheme it is reached in, switched to the other with
    the theme's toggle and measured again; the next page is reached in that other scheme (the reader's stored
    choice), so each scheme is the one a page is reached in for half of the pages. No page keeps anything for the
    next, as no reader acts on it. The tab, in the light scheme again, loads the matrix at the end, to be measured
    as loaded too."""
    found: dict[str, dict[str, dict]] = {scheme: {} for scheme in SCHEMES}
    # The browser prefers the light scheme (Playwright's default): the tab's options are the other phone tests', whose
    # tab it can be.
    phone = new_visit(chromium, site_url, **PHONE)
    try:
        shown, other = "light", "dark"
        for name, path in PAGES.items():
            phone.reach(path)
            found[shown][name] = _measure_phone(phone, name, shown, wide_pages[name])
            phone.choose_scheme(other)
            found[other][name] = _measure_phone(phone, name, other, wide_pages[name])
            shown, other = other, shown
        if shown != "light":
            phone.choose_scheme("light")  # what goes wrong in the switch counts as the loaded matrix's
        loaded = phone.open(PAGES["matrix"]).evaluate(MEASURE)
        found["light"]["matrix"]["loaded"] = {**loaded, "problems": phone.problems()}
    finally:
        phone.close()
    return found


@pytest.mark.parametrize("page_type", sorted(PAGES))
def test_every_table_fits_1280_px_and_no_header_wraps_past_two_lines(wide_pages: dict[str, dict],
                                                                     page_type: str) -> None:
    """At 1280 x 900 no table scrolls sideways inside the content, no column header is drawn on more than two
    lines, and no page keeps an empty table-of-contents column beside its tables (issue 42)."""
    broad = wide_pages[page_type]
    if page_type in VALUE_PAGES:
        assert broad["tables"], "the page shows no table"
    assert not broad["scrolls"], f"tables that scroll sideways at 1280 px: {broad['scrolls']}"
    assert not broad["tall"], f"headers on more than two lines: {broad['tall']}"
    assert not (broad["tables"] and broad["toc"]), "an empty table-of-contents column takes room from the tables"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("page_type", sorted(PAGES))
def test_every_value_is_on_screen_at_390_px(phone_pages: dict[str, dict[str, dict]], wide_pages: dict[str, dict],
                                            page_type: str, scheme: str) -> None:
    narrow = phone_pages[scheme][page_type]
    broad = wide_pages[page_type]

    assert narrow["scheme"] == SCHEMES[scheme], f"the page shows the {narrow['scheme']} scheme"
    off = _off_screen(narrow)
    assert not off, f"{len(off)} of {len(narrow['marks'])} values lie off the screen: {off[:5]}"
    assert narrow["scrollWidth"] <= narrow["width"], f"the page scrolls sideways: {narrow['scrollWidth']} px"
    # Nothing is lost on the way: the phone shows every value the wide page shows, with the same text.
    assert sorted(m["text"] for m in narrow["marks"]) == sorted(m["text"] for m in broad["marks"])
    assert broad["cards"] == 0 and broad["scrollWidth"] <= broad["width"]
    assert not narrow["problems"], narrow["problems"]


@pytest.mark.parametrize("page_type", CARD_PAGES)
def test_cards_stay_a_table_for_screen_readers(phone_pages: dict[str, dict[str, dict]], page_type: str) -> None:
    """Chromium's own accessibility tree (not the DOM) still holds a table with row and column headers."""
    seen = phone_pages["light"][page_type]
    assert seen["cards"] >= 1, "no table became cards at 390 px"
    roles = seen["roles"]
    assert {"table", "row", "rowheader", "columnheader"} <= roles, roles
    assert roles & {"cell", "gridcell"}, roles
    assert seen["caption_visible"]


def test_a_page_reached_by_a_link_is_drawn_as_when_loaded(phone_pages: dict[str, dict[str, dict]]) -> None:
    """The pages above are reached as by following links; the matrix (cards) loaded from its address is drawn the
    same: every value's box, the tables, the cards, the page's width."""
    followed = phone_pages["light"]["matrix"]
    loaded = {key: value for key, value in followed["loaded"].items() if key != "problems"}
    assert not followed["loaded"]["problems"], followed["loaded"]["problems"]
    assert loaded == {key: followed[key] for key in loaded}


def test_cards_turn_back_into_a_table_when_the_screen_widens(chromium: Browser, site_url: str) -> None:
    visit = new_visit(chromium, site_url, **DESKTOP)  # the tab the 1280 px pages were measured in
    try:
        visit.page.set_viewport_size(PHONE_SIZE)  # before the load: the page is loaded at 390 px
        page = visit.open(PAGES["matrix"])
        assert page.locator("article table.catalog-cards").count() == 1
        assert page.locator("article table.catalog-cards [data-col]").count() > 0
        page.set_viewport_size(WIDE_SIZE)
        page.wait_for_function("!document.querySelector('article table.catalog-cards')")
        assert page.locator("article table[role]").count() == 0
        assert page.evaluate("getComputedStyle(document.querySelector('article table')).display") == "table"
    finally:
        visit.close()


def test_a_card_names_each_value_by_its_label_and_plan_entry(phone_pages: dict[str, dict[str, dict]]) -> None:
    card = phone_pages["light"]["matrix"]["card"]
    assert card is not None, "the matrix shows no card at 390 px"
    assert card["names"] == [f"{label} · {plan}" for label, plan in ff.columns()]
    assert card["before"] and " · " in card["before"]  # the column name is drawn before the value


def test_links_in_content_keep_an_underscore_visible(wide_pages: dict[str, dict]) -> None:
    """The underline sits below the descenders, clear of an underscore (UPI_N would read as UPI N)."""
    style = wide_pages["home"]["underline"]
    assert style is not None, "the home page's content has no link"
    offset, size = style
    assert offset >= 0.25 * size, style
