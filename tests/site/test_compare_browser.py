"""/compare/ and the comparison pages in Chromium, on a site built from the fake catalogue `relisted` (five
labels, a plan entry removed and listed again, one new everywhere, a label with a single plan entry).

The any-pair form draws the diff in the page from catalog.json, puts its choice in the URL so a comparison
can be shared as a link, and follows back and forward. On a phone (390 px wide) the before and after values
of every change are readable without scrolling sideways, and the form's controls are at least 44 px tall.
The screenshot of a page where a check fails is kept under test-artifacts/screenshots/.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import SCHEMES, SCREENSHOTS, Visit, new_visit
from fake_catalogs import FAKE_SPECS, write_catalog
from sitebuild import build, copy_project
from siteserver import serve

pytestmark = [pytest.mark.site, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def fake_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The `relisted` fake catalogue built into a site and served; yields its base URL."""
    work = tmp_path_factory.mktemp("relisted-site")
    catalog = write_catalog(work / "catalog-src", FAKE_SPECS["relisted"])
    project = copy_project(work / "project", catalog=catalog)  # its own build: plan entries listed again
    result = build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    with serve(project / "site") as base:
        yield base


@pytest.fixture(scope="module")
def desk(chromium: Browser, fake_site: str) -> Iterator[Visit]:
    """One desktop tab for the module's tests and the legend: a test that opens a link loads it; one that only needs
    to be on a page goes there as a reader following a link does (`Visit.reach`), from the page the last one left.
    (A cleared tab per test, a blank page and a load from it, served no check: no check reads what the site keeps
    in storage, and a test that changes the tab puts it back.) The light scheme is the browser's own default."""
    v = new_visit(chromium, fake_site, color_scheme="light")
    yield v
    v.close()


@pytest.fixture
def visit(desk: Visit) -> Iterator[Visit]:
    """The module's desktop tab; the test fails if anything went wrong in it (what comes after a test, from its pages,
    fails the next one)."""
    yield desk
    problems = desk.take_problems()
    assert not problems, "\n".join(problems)


@contextlib.contextmanager
def shot_on_failure(page: Page, name: str) -> Iterator[None]:
    """The page's screenshot is kept under test-artifacts/screenshots/ when a check in the block fails."""
    try:
        yield
    except AssertionError:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        raise


def result_title(page: Page) -> str:
    page.wait_for_selector("#catalog-compare-result h3")
    return page.locator("#catalog-compare-result h3").inner_text()


def shown_query(page: Page) -> str:
    """The query part of the page's address (the theme may add a #fragment as the reader scrolls)."""
    return "?" + urlsplit(page.url).query


def query(a: str, b: str) -> str:
    return f"?from={quote(a)}&to={quote(b)}"


def address_with(search: str) -> re.Pattern[str]:
    """Any address of the compare page whose query is exactly `search` (the theme may add a #fragment)."""
    return re.compile(rf"/compare/{re.escape(search)}(#[^?#]*)?$")


def test_compare_opens_on_the_newest_pair(visit: Visit) -> None:
    page = visit.open("compare/")
    assert result_title(page) == "FAKE 3.0 → FAKE 3.1"
    assert page.get_by_label("From", exact=True).input_value() == "FAKE 3.0"
    assert page.get_by_label("To", exact=True).input_value() == "FAKE 3.1"
    # PLAN A is no longer listed: its five values, each with the value it had and "not listed".
    result = page.locator("#catalog-compare-result")
    expect(result).to_contain_text("FAKE 3.1 · plan entry PLAN A")
    expect(result).to_contain_text("Its values can still be seen under FAKE 1.0, FAKE 1.1, FAKE 2.0, FAKE 3.0.")
    assert result.locator(".not-listed").count() >= 5


def test_a_choice_is_a_shareable_link_and_back_and_forward_follow_it(visit: Visit) -> None:
    page = visit.open("compare/")
    result_title(page)
    page.get_by_label("From", exact=True).select_option("FAKE 1.1")
    page.get_by_label("To", exact=True).select_option("FAKE 2.0")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#catalog-compare-result h3")).to_have_text("FAKE 1.1 → FAKE 2.0")
    assert shown_query(page) == query("FAKE 1.1", "FAKE 2.0") and urlsplit(page.url).path.endswith("/compare/")
    # PLAN B is listed again: every value compared with its previous label, FAKE 1.0.
    result = page.locator("#catalog-compare-result")
    with shot_on_failure(page, "compare-any-pair-relisted"):
        expect(result).to_contain_text("previous label, FAKE 1.0")
        relisted = result.locator("table").filter(has_text="FAKE 1.0")
        assert relisted.count() == 2  # the two changed values, then the three unchanged ones
        assert relisted.first.locator("tbody tr").count() == 2

    page.get_by_label("From", exact=True).select_option("FAKE 2.0")
    page.get_by_label("To", exact=True).select_option("FAKE 3.0")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#catalog-compare-result h3")).to_have_text("FAKE 2.0 → FAKE 3.0")
    expect(page.locator("#catalog-compare-result")).to_contain_text("No earlier label lists PLAN N")
    # The listing's own facts, as the text and Markdown diffs give them.
    expect(page.locator("#catalog-compare-result")).to_contain_text(
        "listed under FAKE 3.0 (3rd among the plan entries, cited from §8)")

    # The theme's instant navigation may load the page again on back and forward; either way the form and
    # the result end up showing what the address names.
    page.go_back()
    # go_back can return before the address changes (the theme handles the history entry itself): wait for it.
    expect(page).to_have_url(address_with(query("FAKE 1.1", "FAKE 2.0")))
    expect(page.get_by_label("From", exact=True)).to_have_value("FAKE 1.1")
    expect(page.locator("#catalog-compare-result h3")).to_have_text("FAKE 1.1 → FAKE 2.0")
    page.go_back()
    expect(page.get_by_label("From", exact=True)).to_have_value("FAKE 3.0")
    expect(page.locator("#catalog-compare-result h3")).to_have_text("FAKE 3.0 → FAKE 3.1")
    page.go_forward()
    expect(page.get_by_label("To", exact=True)).to_have_value("FAKE 2.0")
    expect(page.locator("#catalog-compare-result h3")).to_have_text("FAKE 1.1 → FAKE 2.0")


def test_opening_a_shared_link_shows_that_comparison(visit: Visit) -> None:
    page = visit.open("compare/" + query("FAKE 1.0:PLAN B", "FAKE 2.0:PLAN B"))
    assert result_title(page) == "PLAN B under FAKE 1.0 → PLAN B under FAKE 2.0"  # in words, not LABEL:PLAN
    assert page.get_by_label("From", exact=True).input_value() == "FAKE 1.0:PLAN B"
    rows = page.locator("#catalog-compare-result table").nth(1).locator("tbody tr")
    assert rows.count() == 2  # uuuuu -> uucuc


def test_a_link_to_an_unknown_pair_says_so_and_shows_the_newest(visit: Visit) -> None:
    page = visit.open("compare/" + query("FAKE 9", "FAKE 1.0"))
    assert result_title(page) == "FAKE 3.0 → FAKE 3.1"
    expect(page.get_by_role("alert")).to_contain_text("not in this catalogue")


def test_version_pages_link_the_comparisons_before_and_after(visit: Visit) -> None:
    """The reader goes to the version page, back to it and to the home page by following links."""
    page = visit.reach("versions/FAKE-2.0/")
    page.get_by_role("link", name="compare FAKE 1.1 → FAKE 2.0").click()
    expect(page.locator("h1")).to_contain_text("Compare FAKE 1.1 → FAKE 2.0")
    page = visit.follow("versions/FAKE-2.0/")
    page.get_by_role("link", name="compare FAKE 2.0 → FAKE 3.0").click()
    expect(page.locator("h1")).to_contain_text("Compare FAKE 2.0 → FAKE 3.0")
    page = visit.follow("")
    page.get_by_role("link", name="FAKE 3.0 → FAKE 3.1").first.click()
    expect(page.locator("h1")).to_contain_text("Compare FAKE 3.0 → FAKE 3.1")


def _no_sideways_scroll(page: Page) -> list[str]:
    """Tables whose content is wider than the space they have (so part of a row needs scrolling), and
    the page itself when it is wider than the screen."""
    return page.evaluate("""() => {
      const bad = [];
      const width = document.documentElement.scrollWidth;
      if (width > window.innerWidth + 1) bad.push("page " + width);
      for (const t of document.querySelectorAll("article table")) {
        const box = t.parentElement;
        if (t.scrollWidth > box.clientWidth + 1 || t.getBoundingClientRect().right > window.innerWidth + 1)
          bad.push((t.querySelector("th") || t).textContent.trim().slice(0, 40) + " " + t.scrollWidth + ">"
                   + box.clientWidth);
      }
      return bad;
    }""")


PHONE_PATHS = ["compare/FAKE-1.1...FAKE-2.0/", "compare/FAKE-3.0...FAKE-3.1/", "operations/fake-v2-gamma/",
               "operations/entry-4/"]
ANY_PAIR = "compare/" + query("FAKE 1.1", "FAKE 2.0")


@pytest.fixture(scope="module")
def phone_pages(chromium: Browser, fake_site: str) -> dict[str, dict]:
    """Each page of PHONE_PATHS, then the any-pair form showing a pair, on the phone (390 px): what scrolls
    sideways, the form's controls' boxes, what went wrong on the page; a page's screenshot kept when one of these is
    wrong. One tab loads the first page and goes from page to page as a reader following links does (the theme's
    instant navigation)."""
    found: dict[str, dict] = {}
    phone = new_visit(chromium, fake_site, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        for path in [*PHONE_PATHS, ANY_PAIR]:
            page = phone.reach(path)
            seen: dict = {}
            if path == ANY_PAIR:
                result_title(page)
                seen["boxes"] = [control.bounding_box() for control in (
                    page.get_by_label("From", exact=True), page.get_by_label("To", exact=True),
                    page.get_by_role("button", name="Compare"))]
            seen["sideways"] = _no_sideways_scroll(page)
            seen["problems"] = phone.take_problems()
            found[path] = seen
            short = [box for box in seen.get("boxes", []) if box is None or box["height"] < 44]
            if seen["sideways"] or seen["problems"] or short:
                shot = "compare-any-pair" if path == ANY_PAIR else path.strip("/").replace("/", "-")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"phone-{shot}.png"), full_page=True)
    finally:
        phone.close()
    return found


@pytest.mark.parametrize("path", PHONE_PATHS)
def test_phone_shows_every_before_and_after_value_without_scrolling_sideways(phone_pages: dict[str, dict],
                                                                            path: str) -> None:
    seen = phone_pages[path]
    assert seen["sideways"] == []
    assert not seen["problems"], "\n".join(seen["problems"])


def test_phone_any_pair_form_has_controls_44px_tall(phone_pages: dict[str, dict]) -> None:
    seen = phone_pages[ANY_PAIR]
    assert len(seen["boxes"]) == 3
    for box in seen["boxes"]:
        assert box is not None and box["height"] >= 44, box
    assert seen["sideways"] == []
    assert not seen["problems"], "\n".join(seen["problems"])


_MARK_STYLES = """() => {
  const probe = (cls, text) => {
    const e = document.createElement("span"); e.className = cls; e.textContent = text;
    document.querySelector("article").appendChild(e);
    const s = getComputedStyle(e), b = getComputedStyle(e, "::before");
    const out = {color: s.color, background: s.backgroundColor, border: s.borderTopStyle, weight: s.fontWeight,
                 style: s.fontStyle, before: b.content, text: e.textContent};
    e.remove(); return out;
  };
  return {close: probe("lock lock-close", "close"), unlimited: probe("lock lock-unlimited", "unlimited"),
          changed: probe("changed", "changed"), differ: probe("plans-differ", "plans differ"),
          fresh: probe("new-value", "new")};
}"""


def _rgb(css: str) -> tuple[float, float, float]:
    parts = css[css.index("(") + 1:css.index(")")].replace(",", " ").split()
    return tuple(float(p) / 255 for p in parts[:3])  # type: ignore[return-value]


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _hue(css: str) -> float:
    import colorsys

    return colorsys.rgb_to_hls(*_rgb(css))[0] * 360


def _marks_honest_and_readable(marks: dict[str, dict]) -> None:
    # close and unlimited: the source does not say what they mean, so no red/green (good/bad) pair; told
    # apart without colour (border); WCAG AA contrast. Changed / plans differ / new: three marks, three words.
    close, unlimited = marks["close"], marks["unlimited"]
    for mark in (close, unlimited):
        assert _contrast(mark["color"], mark["background"]) >= 4.5, mark
        hue = _hue(mark["background"])
        assert not (hue < 20 or hue > 340) and not 70 < hue < 160, f"a red or green tint: {mark}"
    assert close["border"] != unlimited["border"]  # single and double line: not colour alone
    words = {marks[k]["text"] for k in ("changed", "differ", "fresh")}
    befores = {marks[k]["before"] for k in ("changed", "differ", "fresh")}
    assert len(words) == 3 and len(befores) == 3


def _legend_defines_previous_label(text: str) -> None:
    assert "previous label, the latest earlier label that lists that plan entry" in text
    assert "plans differ" in text and "says nothing about earlier labels" in text


@pytest.fixture(scope="module")
def legends(desk: Visit) -> dict[str, dict]:
    """The legend page, reached once in the desktop tab and read in each scheme (the light one it is shown in, then
    the dark one chosen with the theme's toggle, then the light one chosen back for the module's other tests): its
    marks' styles (_MARK_STYLES), its article's text, the scheme shown, what went wrong on it; its screenshot in a
    scheme kept when a check of it fails there."""
    found: dict[str, dict] = {}
    page = desk.reach("legend/")  # what went wrong after the last test, from its pages, fails the light reading
    for scheme in SCHEMES:
        if scheme != "light":
            desk.choose_scheme(scheme)
        seen = found[scheme] = {"marks": page.evaluate(_MARK_STYLES), "text": page.locator("article").inner_text(),
                                "shown": page.evaluate("document.body.dataset.mdColorScheme")}
        with contextlib.suppress(AssertionError), shot_on_failure(page, f"legend-marks-{scheme}"):
            assert seen["shown"] == SCHEMES[scheme]
            _marks_honest_and_readable(seen["marks"])
            if scheme == "light":
                _legend_defines_previous_label(seen["text"])
        seen["problems"] = desk.take_problems()
    desk.choose_scheme("light")
    found["light"]["problems"] += desk.take_problems()  # anything the switch back brought
    return found


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_marks_are_honest_and_readable(legends: dict[str, dict], scheme: str) -> None:
    assert not legends[scheme]["problems"], "\n".join(legends[scheme]["problems"])
    assert legends[scheme]["shown"] == SCHEMES[scheme]
    _marks_honest_and_readable(legends[scheme]["marks"])


def test_the_legend_defines_previous_label(legends: dict[str, dict]) -> None:
    assert not legends["light"]["problems"], "\n".join(legends["light"]["problems"])
    _legend_defines_previous_label(legends["light"]["text"])


def _diff_ids(a: str, b: str) -> dict[str, tuple[str, int | None]]:
    """Change id -> (kind, position) of `catalog-docs diff A B --format json` on the fake catalogue."""
    import json
    import tempfile
    from pathlib import Path

    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.compare.changes import Side, compare_sides
    from catalog_docs.compare.json_format import comparison_data

    with tempfile.TemporaryDirectory() as tmp:
        catalog = load_catalog(write_catalog(Path(tmp) / "catalog", FAKE_SPECS["relisted"]))
    data = json.loads(json.dumps(comparison_data(compare_sides(catalog, Side(label=a), Side(label=b)))))
    return {c["id"]: (c["kind"], c["to"]["position"] or c["from"]["position"]) for c in data["changes"]}


def test_every_change_on_a_compare_page_has_its_id_as_anchor_and_a_permalink(visit: Visit) -> None:
    # FAKE 1.1 -> FAKE 2.0: value changes, a plan entry listed again and one new everywhere.
    visit.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        _check_permalinks(visit.reach("compare/FAKE-1.1...FAKE-2.0/"))
    finally:
        visit.context.clear_permissions()  # the module's other tests have the tab as the browser gives it


def _check_permalinks(page: Page) -> None:
    expected = _diff_ids("FAKE 1.1", "FAKE 2.0")
    anchored = page.evaluate("""() => [...document.querySelectorAll("article [id]")].map(e => e.id)""")
    assert set(expected) <= set(anchored), set(expected) - set(anchored)
    for change_id, (kind, position) in expected.items():
        holder = page.locator(f"[id='{change_id}']")
        link = holder.locator("a.catalog-permalink")
        # The theme may write the href out in full; either way it is this page's anchor.
        href = link.get_attribute("href") or ""
        assert link.count() == 1, change_id
        assert href == f"#{change_id}" or href.endswith(f"/compare/FAKE-1.1...FAKE-2.0/#{change_id}"), href
        if kind.startswith("value-"):
            assert holder.evaluate("e => e.tagName") == "TR"
            expect(link).to_have_accessible_name(f"Position {position}: link to this change")
        else:
            assert holder.evaluate("e => e.tagName") == "P", kind
    # Keyboard: the permalink is a link, reached with Tab and followed with Enter; its address is copied.
    some = next(i for i, (k, _) in expected.items() if k == "value-changed")
    link = page.locator(f"[id='{some}'] a.catalog-permalink")
    link.focus()
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"/compare/FAKE-1\.1\.\.\.FAKE-2\.0/#{some}$"))
    expect(page.locator("#catalog-permalink-status")).to_have_text("Link to this change copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url


def test_the_any_pair_compare_anchors_each_change_and_opens_a_shared_one(visit: Visit) -> None:
    expected = _diff_ids("FAKE 1.0", "FAKE 3.0")  # not consecutive: only the any-pair compare shows it
    some = next(i for i, (k, _) in expected.items() if k == "value-changed")
    page = visit.open("compare/" + query("FAKE 1.0", "FAKE 3.0") + f"#{some}")
    result_title(page)
    anchored = page.evaluate("""() => [...document.querySelectorAll("#catalog-compare-result [id]")].map(e => e.id)""")
    assert set(expected) <= set(anchored), set(expected) - set(anchored)
    row = page.locator(f"[id='{some}']")
    expect(row).to_be_in_viewport()
    # The theme may write the href out in full (it does so at some point after load); either way, this anchor.
    href = row.locator("a.catalog-permalink").get_attribute("href") or ""
    assert href == f"#{some}" or href.endswith("/compare/" + query("FAKE 1.0", "FAKE 3.0").replace(" ", "%20")
                                                 + f"#{some}"), href
