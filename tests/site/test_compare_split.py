"""A comparison with more value rows than one page holds (compare_pages.COMPARE_PAGE_ROWS) continues on page-N
pages, and every permalink of today (compare/A...B/#CHANGE-ID) still reaches its row: on page 1, or through the
lookup page 1 names (compare_pages.moved_lookup, followed by catalog.js)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from browsing import new_visit
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Side, compare_sides
from catalog_docs.site import compare_pages
from catalog_docs.site.compare_pages import COMPARE_PAGE_ROWS, MOVED_LOOKUP, compare_chunks
from catalog_docs.site.render import render_pages
from fake_catalogs import write_catalog
from fixture_facts import FIXTURE_CATALOG, LABEL_SLUGS, PAIRS
from sitebuild import build, copy_project
from siteserver import serve

ROW_ID = re.compile(r'<tr id="([a-z0-9-]+--[0-9a-f]{8})">')


def _page_of(lookup: dict[str, object], change_id: str) -> int:
    """Which later page the lookup sends `change_id` to, as catalog.js reads it (-1: none)."""
    ids, hashes = lookup["ids"], lookup["hashes"]
    assert isinstance(ids, dict) and isinstance(hashes, list)
    if change_id in ids:
        return int(ids[change_id])
    return next((i for i, h in enumerate(hashes) if change_id[-8:] in h.split()), -1)


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setattr(compare_pages, "COMPARE_PAGE_ROWS", 5)
    return render_pages(load_catalog(FIXTURE_CATALOG))


def test_every_row_is_on_exactly_one_page_in_order_and_the_lookup_finds_the_later_ones(split: dict[str, str]) -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    for a, b in PAIRS:
        first = f"compare/{LABEL_SLUGS[a]}...{LABEL_SLUGS[b]}"
        cmp = compare_sides(catalog, Side(label=a), Side(label=b))
        pages = [split[f"{first}.md"]]
        while f"{first}/page-{len(pages) + 1}.md" in split:
            pages.append(split[f"{first}/page-{len(pages) + 1}.md"])
        listed = [ROW_ID.findall(p) for p in pages]
        rows = [c.id for c in cmp.changes if c.kind in ("value-changed", "value-added", "value-removed")]
        assert sorted(i for ids in listed for i in ids) == sorted(rows)  # each row once, none lost
        assert all(0 < len(ids) <= 5 for ids in listed) or len(pages) == 1
        assert len(pages) == len(compare_chunks(cmp)) == -(-len(rows) // 5)
        if len(pages) == 1:
            assert f"{first}/{MOVED_LOOKUP}" not in split and "data-catalog-moved" not in pages[0]
            continue
        assert "## Summary" in pages[0] and all("## Summary" not in p for p in pages[1:])
        assert all("search:\n  exclude: true" in p.split("---\n")[1] for p in pages[1:])
        # Page 1 is compare/A...B/ (directory URLs): the lookup and the later pages sit below it.
        assert f'data-catalog-moved="{MOVED_LOOKUP}"' in pages[0] and "data-catalog-moved" not in "".join(pages[1:])
        lookup = json.loads(split[f"{first}/{MOVED_LOOKUP}"])
        assert lookup["pages"] == [f"page-{n}/" for n in range(2, len(pages) + 1)]
        for n, ids in enumerate(listed[1:]):
            assert all(_page_of(lookup, i) == n for i in ids)
        # Sentences (a plan entry added or removed) stay on page 1, where their permalinks have always pointed.
        for c in cmp.changes:
            if c.kind in ("plan-added", "plan-removed"):
                assert f"{{: #{c.id} }}" in pages[0]


def test_a_hash_two_rows_share_is_looked_up_by_the_whole_id() -> None:
    chunks = [frozenset({"a--00000001"}), frozenset({"b--12345678", "c--00000002"}), frozenset({"d--12345678"})]
    names = ["compare/x.md", "compare/x/page-2.md", "compare/x/page-3.md"]
    lookup = json.loads(compare_pages.moved_lookup(chunks, names, True))
    assert lookup["ids"] == {"b--12345678": 0, "d--12345678": 1}
    assert [_page_of(lookup, i) for i in ("b--12345678", "c--00000002", "d--12345678")] == [0, 0, 1]


def test_a_comparison_of_one_page_is_as_it_was() -> None:
    pages = render_pages(load_catalog(FIXTURE_CATALOG))
    assert not any("/page-" in p or p.endswith(MOVED_LOOKUP) for p in pages if p.startswith("compare/"))


NEW_PLANS = 10
"""Plan entries the split site's second label lists anew: each brings a row per operation."""


@pytest.fixture(scope="module")
def split_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[list[str]]]]:
    # A site of its own: a catalogue whose comparison holds more rows than a page, at the limit as the module reads
    # it (not as a test patches it). Ten plan entries listed anew bring a row per operation each, and half the values
    # of the one listed before change: a second page of rows from a tenth of the operations one plan entry listed
    # anew would need (each operation is a page to build).
    operations = COMPARE_PAGE_ROWS // NEW_PLANS + 2
    entries = [f"/fakeSplit{n:03d}" for n in range(1, operations + 1)]
    new = {f"PLAN {n:02d}": "u" * operations for n in range(1, NEW_PLANS + 1)}
    catalog = write_catalog(tmp_path_factory.mktemp("split") / "catalog", {
        "entries": entries, "labels": {"FAKE 1.0": {"PLAN 00": "c" * operations},
                                       "FAKE 2.0": {"PLAN 00": ("cu" * operations)[:operations], **new}}})
    loaded = load_catalog(catalog)
    split = None
    for a, b in zip(loaded.versions, loaded.versions[1:], strict=False):
        chunks = compare_chunks(compare_sides(loaded, Side(label=a.label), Side(label=b.label)))
        if len(chunks) > 1:
            split = (f"compare/{a.slug}...{b.slug}/", [sorted(c) for c in chunks])
            break
    assert split is not None, "the catalogue has no comparison long enough to split"
    # Its own build: a comparison longer than a page, which the fixture catalogue has not.
    project = copy_project(tmp_path_factory.mktemp("split-site") / "project", catalog=catalog)
    result = build(project)
    assert result.returncode == 0, result.stderr[-2000:]
    with serve(project / "site") as base:
        yield base, split[0], split[1]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.site
def test_a_permalink_to_a_row_on_a_later_page_lands_on_it(chromium: Browser,
                                                         split_site: tuple[str, str, list[list[str]]]) -> None:
    base, first, chunks = split_site
    visit = new_visit(chromium, base)
    try:
        for n in sorted({1, len(chunks) - 1}):  # the second page and the last, once each
            change_id = chunks[n][len(chunks[n]) // 2]
            page = visit.page
            page.goto(f"{base}{first}#{change_id}")
            # Page 1's 500 rows, then the later page, load before the row shows: on a loaded machine, more than
            # expect's 5 s (a wait, not a check: speed belongs to make bench).
            expect(page).to_have_url(f"{base}{first}page-{n + 1}/#{change_id}", timeout=30_000)
            row = page.locator(f"tr[id='{change_id}']")
            expect(row).to_be_in_viewport(timeout=30_000)
            expect(row).to_have_class(re.compile("catalog-targeted"), timeout=30_000)
        on_first = chunks[0][0]
        visit.page.goto(f"{base}{first}#{on_first}")
        expect(visit.page.locator(f"tr[id='{on_first}']")).to_be_in_viewport(timeout=30_000)
        assert visit.page.url == f"{base}{first}#{on_first}"
        assert not visit.problems(), visit.problems()
    finally:
        visit.close()


def test_pages_of_a_large_comparison_stay_under_a_megabyte() -> None:
    # The row budget, at the longest path a catalogue may hold (250 characters of slug): a page of rows as long
    # as they can be stays under 1 MB.
    row = ('<tr id="value-added--' + "x" * 48 + "--" + "p" * 48 + "--" + "e" * 48 + '--0123abcd"><td><a class="catalog-'
           'permalink" href="#' + "i" * 200 + '" title="Link to this change (click to copy)" aria-label="Position '
           '10000: link to this change">10000</a></td><th scope="row"><a href="../../operations/' + "s" * 250
           + '/">/' + "s" * 250 + "</a></th><td>unlimited</td><td>unlimited new</td></tr>")
    assert compare_pages.COMPARE_PAGE_ROWS * len(row) < 900_000, len(row)
