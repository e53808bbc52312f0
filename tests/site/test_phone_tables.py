"""Small tablets (645 px wide, just above the phone layout): on the operations index and the matrix of a
catalogue too wide for them, the operation column stays in view while the value columns scroll sideways (a sticky
column, CSS only: overrides/assets/catalog.css). Phones (40em and narrower) get cards instead:
tests/site/test_phone_layout.py, and below, every table of every page of fixture catalogues that list plan entries
again, add them and remove them (the screenshot of a page at a width where something is wrong with it is kept under
test-artifacts/screenshots/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from browsing import PAGE_TYPES, SCREENSHOTS, new_visit
from browsing import PHONE as PHONE_TAB

pytestmark = [pytest.mark.browser, pytest.mark.site]

TABLET = {"width": 645, "height": 1000}
PHONE = PHONE_TAB["viewport"]
"""The phone's screen. Every test here takes the same touch phone's tab from the pool (PHONE_TAB): the tablet tests
load their page in it at 645 px, as a tablet is a touch device too."""

# Where the operation link sits and reports its box, and what the browser shows at that point.
_PROBE = """table => {
  const wrap = table.closest('.md-typeset__scrollwrap');
  const link = table.querySelector('tbody tr a');
  const cell = link.closest('td, th');
  const probe = () => {
    const box = cell.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
    return {left: box.left, right: box.right, wrapLeft: wrap.getBoundingClientRect().left,
            onTop: cell.contains(hit), text: link.textContent};
  };
  const before = probe();
  wrap.scrollLeft = wrap.scrollWidth;
  return {scrollable: wrap.scrollWidth > wrap.clientWidth, scrolled: wrap.scrollLeft, before, after: probe()};
}"""


TABLET_PAGES = ["operations-index", "matrix"]


@pytest.fixture(scope="module")
def tablet_probes(chromium: Browser, phone_url: str) -> dict[str, dict]:
    """Each page of TABLET_PAGES at 645 px, its first table probed (_PROBE) with what went wrong on the page. One
    tab loads the first page and follows a link to the next (the theme's instant navigation), as a reader does."""
    found: dict[str, dict] = {}
    v = new_visit(chromium, phone_url, **PHONE_TAB)
    try:
        v.page.set_viewport_size(TABLET)  # before the load: the page is loaded at 645 px (clearing puts 390 back)
        for page_type in TABLET_PAGES:
            page = v.reach(PAGE_TYPES[page_type])
            table = page.locator("article .catalog-table table").first
            found[page_type] = {"probe": table.evaluate(_PROBE), "problems": v.take_problems()}
    finally:
        v.close()
    return found


@pytest.mark.parametrize("page_type", TABLET_PAGES)
def test_operation_column_stays_visible_while_values_scroll(tablet_probes: dict[str, dict], page_type: str) -> None:
    """On the phone catalogue below (five labels, eight value columns): the fixture's tables fit a tablet since
    each label heads its plan entries in a row of their own (issue 42), so they would not scroll at all."""
    result = tablet_probes[page_type]["probe"]
    assert result["scrollable"] and result["scrolled"] > 0, "the table does not scroll sideways at 645 px"
    after = result["after"]
    # after scrolling to the last value column, the operation cell sits at the scroller's left edge,
    # drawn over the values that passed under it
    assert abs(after["left"] - after["wrapLeft"]) < 1, result
    assert after["onTop"], result
    assert after["text"].startswith("/"), result
    problems = tablet_probes[page_type]["problems"]
    assert not problems, "\n".join(problems)


# ---- Phones: every table kind on every page, folded sections open (issue 27 item 7) -----------------------

# Names shaped like the real catalogue's (an underscore, dotted numbers) and long operation paths, so that a
# table too wide for a phone, or a name broken inside a word ("FAKE_ / N / 1.0.0"), shows; all obviously fake.
_PATHS = ["/fakeCheckVirtualAddressExample", "/fakeGetListAccountServiceLong", "/fakeTransactionStatusQuery",
          None, "/fakeMerchantRefundServerRequest", "/fake/v2/collectRequestWithMandateAndIntent"]
PHONE_SPEC: dict[str, object] = {"entries": _PATHS, "labels": {
    # FAKE_N 3.0.0 listed, then not, then listed again: the tables of unchanged values say "same as under".
    "FAKE_N 1.0.1": {"FAKE_N 1.0.0": "ccuucu", "FAKE_N 3.0.0": "uuuuuu"},
    "FAKE_N 1.1.0": {"FAKE_N 1.0.0": "cucucu"},
    "FAKE_N 1.2.0": {"FAKE_N 1.0.0": "cucucc", "FAKE_N 3.0.0": "uucuuu"},
    # A plan entry no label listed before (every value new) while FAKE_N 3.0.0 is no longer listed, then
    # FAKE_N 1.0.0 no longer listed.
    "FAKE_N 2.0.0": {"FAKE_N 1.0.0": "ccuucu", "FAKE_N 4.0.0": "cucucu"},
    "FAKE_N 2.1.0": {"FAKE_N 4.0.0": "uucucu"}}}
"""One catalogue with every listing pattern, so one build (each build and page visit costs seconds)."""

# Every shown value and mark that lies off the screen, the page's scroll width, every name of a label or plan entry
# that a line break splits inside one of its words (each word of a name must be one line box), the tables and the
# open folds.
_MEASURE_PHONE = """names => {
  const marks = [...document.querySelectorAll(
      'article :is(td.lock, td.not-listed, span.lock, span.not-listed, .not-shown)')]
    .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
  const outside = el => { const b = el.getBoundingClientRect(); return b.left < -0.5 || b.right > innerWidth + 0.5; };
  const off = marks.filter(outside).map(el => el.textContent.trim().slice(0, 40));
  const broken = [];
  // Text drawn for screen readers only (the cards' column headers: clipped to nothing) is not looked at.
  const clipped = el => { for (; el; el = el.parentElement) if (getComputedStyle(el).clipPath !== 'none') return true;
                          return false; };
  const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent.closest('table') || parent.getClientRects().length === 0 || clipped(parent)) continue;
    for (const name of names) {
      for (let at = node.data.indexOf(name); at >= 0; at = node.data.indexOf(name, at + 1)) {
        let start = at;
        for (const word of name.split(' ')) {
          const range = document.createRange();
          range.setStart(node, start); range.setEnd(node, start + word.length);
          const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (tops.size > 1) broken.push(`${name} in <${parent.tagName.toLowerCase()}>: ${node.data.slice(0, 60)}`);
          start += word.length + 1;
        }
      }
    }
  }
  return {width: innerWidth, scrollWidth: document.scrollingElement.scrollWidth, marks: marks.length, off, broken,
          tables: document.querySelectorAll('article table').length,
          folds: document.querySelectorAll('article details[open]').length};
}"""


@pytest.fixture(scope="module")
def phone_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    from fake_catalogs import write_catalog
    from sitebuild import build, copy_project

    root = tmp_path_factory.mktemp("phone")
    spec = PHONE_SPEC
    # Its own build: a catalogue that lists plan entries again, adds and removes them (the fixture's does neither).
    project = copy_project(root / "project", catalog=write_catalog(root / "catalog", spec))
    done = build(project)
    assert done.returncode == 0, done.stdout + done.stderr
    return spec, project / "site"


@pytest.fixture(scope="module")
def phone_url(phone_site: tuple[dict, Path]) -> Iterator[str]:
    """The phone catalogue's site, served."""
    from siteserver import serve

    with serve(phone_site[1]) as base:
        yield base


PHONE_WIDTHS = (340, 350, 360, 375, 380, 414)
"""Comparison pages (where every table kind is) are measured at each of these widths too, beside 390 px (PHONE,
where every page is measured): whether a table fits or becomes cards turns on a few pixels, and the catalogue of
issue 27 overflowed at 360 to 390 px."""

# How the page is drawn: each table as a table or as cards (catalog.js) and its box, each shown value's and mark's
# box in the page, the page's size; to the hundredth of a pixel.
_LAYOUT = """() => {
  const box = el => { const b = el.getBoundingClientRect();
                      return [b.left, b.right, b.top + scrollY, b.height].map(x => Math.round(x * 100) / 100); };
  return {
    tables: [...document.querySelectorAll('article table')].map(t => [t.className, t.getAttribute('role'), ...box(t)]),
    marks: [...document.querySelectorAll(
        'article :is(td.lock, td.not-listed, span.lock, span.not-listed, .not-shown)')].map(box),
    size: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
  };
}"""

# Resolves once the screen is (true) or is not (false) as narrow as catalog.js's phone query and two frames have
# been drawn since: the query's change event, on which catalog.js lays its tables out again, comes before the first.
_TURNED = """narrow => new Promise(done => {
  const phone = matchMedia('(max-width: 40em)');
  const frame = () => requestAnimationFrame(phone.matches === narrow ? () => requestAnimationFrame(done) : frame);
  frame();
})"""


def _turn(page: Page, width: int) -> None:
    """Turn the phone to landscape (wider than 40em) and back, where the screen is `width` px wide."""
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    page.evaluate(_TURNED, False)
    page.set_viewport_size({"width": width, "height": PHONE["height"]})
    page.evaluate(_TURNED, True)


def _open_folds(page: Page) -> None:
    """Open every folded section as a reader does (a click on its summary)."""
    for summary in page.locator("article details > summary").all():
        summary.click()


def _measure(page: Page, path: str, names: list[str], problems: list[str]) -> dict:
    """Measure the page as it is drawn now; its screenshot is kept under test-artifacts/screenshots/ when something
    is wrong with it at this width."""
    found = page.evaluate(_MEASURE_PHONE, names)
    width, known = found["width"], len(problems)
    if found["off"]:
        problems.append(f"{path} at {width} px: {len(found['off'])} of {found['marks']} values off the screen")
    if found["scrollWidth"] > width:
        problems.append(f"{path} at {width} px: the page scrolls sideways ({found['scrollWidth']} px)")
    if found["broken"]:
        problems.append(f"{path} at {width} px: names broken inside a word: {sorted(set(found['broken']))}")
    if len(problems) > known:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = f"phone-tables-{path.strip('/').replace('/', '_') or 'home'}-{width}px.png"
        page.screenshot(path=SCREENSHOTS / shot, full_page=True)
    return found


def test_every_table_of_every_page_fits_a_phone_with_its_folds_open(chromium: Browser, phone_site: tuple[dict, Path],
                                                                     phone_url: str) -> None:
    """Every page is measured at 390 px with its folds open, reached as a reader following the site's links reaches
    it (the theme's instant navigation; the first page is loaded). Each comparison is then measured at every other
    width (PHONE_WIDTHS) in the same tab, turned to landscape and back to that width: catalog.js lays its tables out
    again whenever the screen crosses 40em, as when a reader turns the phone, with the function a load and an opened
    fold run, over the page as it is then; so the turned page is drawn as a load at that width draws it. Narrowing
    or widening the screen without crossing 40em would not do: the cards drawn at 390 px stayed cards at 414 px,
    where a load draws tables. The narrowest and the widest of those widths are also loaded, each on a pair's
    comparison, and there the page reached by a link and turned must be drawn exactly as the loaded one."""
    spec, site = phone_site
    labels = list(spec["labels"])
    names = sorted({*labels, *(p for plans in spec["labels"].values() for p in plans)}, key=len, reverse=True)
    pages = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html"))
    compares = [p for p in pages if p.split("/")[0] == "compare"]
    assert len(compares) == len(labels)  # the index and one per consecutive pair
    # Two loads of the index at one width may differ: the theme wraps the tables compare.js draws there, or not,
    # whichever of the two comes first at load. A pair's page has no script that draws.
    pairs = [p for p in compares if p.startswith("compare/")]
    guards = dict(zip(pairs, (min(PHONE_WIDTHS), max(PHONE_WIDTHS)), strict=False))
    problems: list[str] = []
    tables = marks = folds = 0
    turned: dict[tuple[str, int], dict] = {}
    loaded: dict[tuple[str, int], dict] = {}
    visit = new_visit(chromium, phone_url, **PHONE_TAB)
    try:
        for rel in pages:
            path = "" if rel == "." else rel + "/"
            page = visit.reach(path)
            _open_folds(page)
            found = _measure(page, path, names, problems)
            tables, marks, folds = tables + found["tables"], marks + found["marks"], folds + found["folds"]
            if rel not in compares:
                continue
            for width in PHONE_WIDTHS:
                _turn(page, width)
                found = _measure(page, path, names, problems)
                if guards.get(rel) == width:
                    turned[rel, width] = {"measured": found, "layout": page.evaluate(_LAYOUT)}
            if rel in guards:
                page.set_viewport_size({"width": guards[rel], "height": PHONE["height"]})
                page = visit.open(path)
                _open_folds(page)
                loaded[rel, guards[rel]] = {"measured": page.evaluate(_MEASURE_PHONE, names),
                                            "layout": page.evaluate(_LAYOUT)}
            page.set_viewport_size(PHONE)
        assert not visit.problems(), "\n".join(visit.problems())
    finally:
        visit.close()
    assert tables > 20 and marks > 100 and folds >= len(compares) - 1  # measured, not skipped
    assert len(loaded) == len(turned) == 2  # the narrowest and the widest
    differ = [f"{rel}/ at {width} px: loaded {seen}, turned {turned.get((rel, width))}"
              for (rel, width), seen in loaded.items() if seen != turned.get((rel, width))]
    assert not differ, "reached by a link and turned, not drawn as a load draws it:\n" + "\n".join(differ)
    assert not problems, "\n".join(problems)
