"""Links that land where they point, in Chromium on the fixture site (the shared `built_site`): "what changed since
this version" shows the comparison in the first screen, a followed change link marks its row in light and dark
(axe: no serious issue; both schemes read from one load of each place), and the any-pair result names its sides in
words, keeps values as published and breaks paths only before a "/"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page

from browsing import AXE, SCHEMES, Visit, new_visit
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Side, compare_sides
from fixture_facts import FIXTURE_CATALOG

pytestmark = [pytest.mark.site, pytest.mark.browser]

SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


TABS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": SCREENS["desktop"], "color_scheme": "light"},
    "desktop-dark": {"viewport": SCREENS["desktop"], "color_scheme": "dark"},
    "phone": {"viewport": SCREENS["phone"], "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
}
"""The module's tabs: each screen, and the desktop in the dark scheme (the browser's preference; the desktop's light
one is the browser's own default, named)."""


@pytest.fixture(scope="module")
def tabs(chromium: Browser, site_url: str) -> Iterator[Callable[[str], Visit]]:
    """A tab of TABS for the module's tests, opened when a test first asks for it and kept between tests: a test that
    opens a link loads it; one that only needs to be on a page goes there as a reader following a link does
    (`Visit.reach`). (A cleared tab per test, a blank page and a load from it, served no check: no check reads what the
    site keeps in storage, and a test that switches the scheme switches it back.) What went wrong in a tab after a
    test, from its pages, fails the next test that reads the tab."""
    opened: dict[str, Visit] = {}

    def tab(name: str) -> Visit:
        if name not in opened:
            opened[name] = new_visit(chromium, site_url, **TABS[name])
        return opened[name]

    yield tab
    for visit in opened.values():
        visit.close()


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, tabs: Callable[[str], Visit]) -> Iterator[Visit]:
    """The module's tab of the screen; the test fails if anything went wrong in it."""
    v = tabs(request.param)
    yield v
    problems = v.take_problems()
    assert not problems, "\n".join(problems)


def _in_first_screen(page: Page, selector: str) -> None:
    """The element lies wholly in the viewport once the result is drawn (it is scrolled to after catalog.json
    loads; a few tenths of a second at most)."""
    page.wait_for_selector(selector)
    height = page.viewport_size["height"] if page.viewport_size else 0
    for _ in range(50):
        box = page.locator(selector).bounding_box()
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} at {box}, outside the first screen of height {height} (scrolled to "
                         f"{page.evaluate('window.scrollY')})")


def test_since_my_version_shows_the_comparison_in_the_first_screen(screen: Visit) -> None:
    # Was: /compare/?from=...&to=... opened at the top; the result started at y = 964 (1280 x 900).
    labels = [v.label for v in load_catalog(FIXTURE_CATALOG).versions]
    page = screen.reach(f"versions/{labels[0].replace(' ', '-')}/")
    page.get_by_role("link", name=f"compare it with the newest label, {labels[-1]}").click()
    _in_first_screen(page, "#catalog-compare-result h3")
    assert page.locator("#catalog-compare-result h3").inner_text() == f"{labels[0]} → {labels[-1]}"
    # The same from a plan entry's page, for that plan entry: named in words, never LABEL:PLAN. The reader goes
    # there from the comparison by a link (the theme's instant navigation), as from the version page before.
    page = screen.follow("plans/PLAN-A/")
    page.get_by_role("link", name=f"since {labels[0]}").first.click()
    _in_first_screen(page, "#catalog-compare-result h3")
    assert page.locator("#catalog-compare-result h3").inner_text() == \
        f"PLAN A under {labels[0]} → PLAN A under {labels[-1]}"


def _first_value_change() -> tuple[str, str, str]:
    catalog = load_catalog(FIXTURE_CATALOG)
    for a, b in zip(catalog.versions, catalog.versions[1:], strict=False):
        cmp = compare_sides(catalog, Side(label=a.label), Side(label=b.label))
        for c in cmp.changes:
            if c.kind == "value-changed":
                return a.label, b.label, c.id
    raise AssertionError("the fixture has a value change")


WHERE = {"page": "the comparison's own page", "any-pair": "the any-pair compare"}
LOADED = {"page": "desktop", "any-pair": "desktop-dark"}
"""The tab each place is loaded in, whose browser prefers its scheme; the other is chosen with the theme's toggle."""


def _read_marked_row(visit: Visit, change: str) -> dict[str, Any]:
    """The followed change's row as the page shows it in its current scheme: its outline, the rows marked, its box,
    axe-core's serious issues (axe injected), what went wrong so far."""
    page = visit.page
    row = page.locator(f"[id='{change}']")
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    outline = "r => { const s = getComputedStyle(r); return [s.outlineStyle, s.outlineWidth]; }"
    return {"scheme": page.evaluate("document.body.dataset.mdColorScheme"), "style": row.evaluate(outline),
            "marked": page.locator("tr.catalog-targeted, p.catalog-targeted").count(),
            "box": row.bounding_box(),
            "serious": [f"{x['id']}: {x['help']} {[(n['target'], n.get('failureSummary')) for n in x['nodes'][:3]]}"
                        for x in result["violations"] if x["impact"] in ("serious", "critical")],
            "problems": visit.take_problems()}


@pytest.fixture(scope="module")
def marked_rows(tabs: Callable[[str], Visit]) -> Callable[[str, str], dict[str, Any]]:
    """The first value change's link followed to each place (WHERE), read in both schemes from one load: loaded in
    the scheme of LOADED (so each scheme is the loaded one for one place), read, switched to the other with the
    theme's toggle and read again, then switched back (the tab's stored choice is its own scheme again). Each place
    is read when a test first asks for it."""
    a, b, change = _first_value_change()
    readings: dict[tuple[str, str], dict[str, Any]] = {}

    def reading(where: str, scheme: str) -> dict[str, Any]:
        if (where, scheme) not in readings:
            visit = tabs(LOADED[where])
            loaded = TABS[LOADED[where]]["color_scheme"]
            other = next(s for s in SCHEMES if s != loaded)
            path = (f"compare/{a.replace(' ', '-')}...{b.replace(' ', '-')}/#{change}" if where == "page"
                    else f"compare/?from={quote(a)}&to={quote(b)}#{change}")
            page = visit.open(path)
            page.locator(f"[id='{change}']").wait_for()
            page.wait_for_function(f"document.getElementById('{change}').classList.contains('catalog-targeted')")
            page.add_script_tag(path=str(AXE))
            readings[(where, loaded)] = _read_marked_row(visit, change)
            visit.choose_scheme(other)
            readings[(where, other)] = _read_marked_row(visit, change)
            visit.choose_scheme(loaded)
            readings[(where, other)]["problems"] += visit.take_problems()  # anything the switch back brought
        return readings[(where, scheme)]

    return reading


@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("where", list(WHERE))
def test_a_followed_change_link_marks_its_row(marked_rows: Callable[[str, str], dict[str, Any]], scheme: str,
                                              where: str) -> None:
    # Was: the row scrolled into view with no mark, so on a long table the reader could not tell which was meant.
    seen = marked_rows(where, scheme)
    assert not seen["problems"], "\n".join(seen["problems"])
    assert seen["scheme"] == SCHEMES[scheme]
    assert seen["style"] == ["solid", "3px"]
    assert seen["marked"] == 1
    box = seen["box"]
    assert box is not None and 0 <= box["y"] < SCREENS["desktop"]["height"]
    assert not seen["serious"], "\n".join(seen["serious"])


@pytest.mark.parametrize("screen", ["phone"], indirect=True)
def test_the_any_pair_result_keeps_values_as_published_and_breaks_paths_only_at_a_slash(screen: Visit) -> None:
    a, b, _ = _first_value_change()
    visit = screen
    page = visit.reach(f"compare/?from={quote(a)}&to={quote(b)}")
    page.wait_for_selector("#catalog-compare-result h5")
    # Was: "CLOSE → UNLIMITED (21 VALUES)", the theme's upper-cased fifth-level heading.
    headings = page.locator("#catalog-compare-result h5").evaluate_all(
        "hs => hs.map(h => [getComputedStyle(h).textTransform, h.innerText, h.textContent])")
    for transform, shown, text in headings:
        assert transform == "none" and shown == text, (transform, shown, text)
    # Every piece of a path between two "/" lies on one line; the cell may break only before a "/".
    split = page.evaluate("""() => {
        const bad = [];
        for (const cell of document.querySelectorAll('#catalog-compare-result .catalog-path')) {
            if (getComputedStyle(cell).overflowWrap !== 'normal') bad.push('wrap: ' + cell.textContent);
            const link = cell.querySelector('a');
            for (const node of link.childNodes) {
                if (node.nodeType !== Node.TEXT_NODE) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                const tops = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
                if (tops.size > 1) bad.push(node.textContent);
            }
        }
        return bad;
    }""")
    assert split == []
    assert page.locator("#catalog-compare-result .catalog-path wbr").count() > 0
    assert not visit.problems(), "\n".join(visit.problems())
