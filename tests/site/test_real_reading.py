"""The real catalogue's site read as issue 42's readers read it: every table fits a 1280 x 900 desktop, and reader
questions are answered by following links only, in at most two clicks, at 1280 x 900 and on a 390 x 844 phone.

The fixture site holds the same to every page type (tests/site/test_phone_layout.py, test_reader_tasks.py); this
holds it to the catalogue readers see, whose names (`UPI_N 1.0.1`, `/meRefundServerReq`) and table widths are its
own. It asserts no fact of the source: each question and its answer are worked out from what `catalog/` holds now
(loaded as `catalog-docs check` loads it), so a legitimate edit of the catalogue changes the answers the site must
show, not the test (tests/catalog/test_catalog_edits.py runs it on an edited copy). What the catalogue must say is
tests/catalog/test_source_facts.py's business. The site is the real catalogue's strict build, made once per run
and shared with test_real_catalog_builds and test_search_results.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import DESKTOP, MEASURE, PHONE, new_visit
from catalog_docs.catalog.model import Catalog, ListingEntry, VersionLabel
from catalog_docs.catalog.validate import load_catalog
from readertasks import MAX_CLICKS, Task, change_link, history_cell, in_view, link, marked_row, unanswered
from sitebuild import ROOT, shared_build
from siteserver import serve

pytestmark = [pytest.mark.browser, pytest.mark.site, pytest.mark.real_catalog]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}
EXAMPLE = "/meRefundServerReq"
"""The operation of issue 42's example question, asked of when the catalogue lists it (else the first entry that
changes between two labels)."""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ROOT / "catalog")


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(shared_build(tmp_path_factory, "real-site", ROOT / "catalog")) as base:
        yield base


def _value(version: VersionLabel, plan: str, entry: ListingEntry) -> str | None:
    """The lock value of an entry under a label and plan entry; None when the label does not list the plan."""
    found = version.plan(plan)
    return None if found is None else found.values[entry.position - 1]


def _page(entry: ListingEntry) -> str:
    return f"operations/{entry.slug}/"


def _name(entry: ListingEntry) -> str:
    return entry.path if entry.path is not None else f"Entry {entry.position}"


def _summary_count(pair: tuple[str, str], kind: str, count: int) -> Callable[[Page], None]:
    """The comparison's summary table is on screen and counts `count` changes of `kind` in all (`changed`: its rows
    "Value changed" or "Values changed", one for each way the values went)."""
    def check(page: Page) -> None:
        table = page.locator(f"article table:has(caption:text('Differences from {pair[0]} to {pair[1]}'))")
        expect(table).to_be_in_viewport()
        rows = [[c.strip() for c in r.locator("th, td").all_inner_texts()] for r in table.locator("tbody tr").all()]
        found = [r for r in rows if r and r[0].split()[:2] in (["Value", kind], ["Values", kind])]
        assert found and sum(int(r[-1]) for r in found) == count, f"{kind}: {rows}"
    return check


def reader_tasks(catalog: Catalog) -> list[Task]:
    """Issue 42's questions, asked of the catalogue as it is: one operation's changes between two consecutive labels
    (a value changed, a plan entry no longer listed), a label's plan entries, a plan entry's labels, what a mark
    means, where the source is silent, one value from the home page, a comparison's summary, the entry without a
    path."""
    labels = [v for v in catalog.versions if not v.draft]
    pairs = list(itertools.pairwise(labels))
    entries = sorted(catalog.entries, key=lambda e: e.path != EXAMPLE)

    def changed(a: VersionLabel, b: VersionLabel, e: ListingEntry) -> list[str]:
        return [p.name for p in a.plans if _value(b, p.name, e) not in (None, _value(a, p.name, e))]

    op, (a, b) = next((e, pair) for e in entries for pair in pairs if changed(*pair, e))
    plan = changed(a, b, op)[0]
    dropped = next(p for p in a.plans if b.plan(p.name) is None)
    compare = f"compare/{a.slug}...{b.slug}/"
    op_url = _page(op)
    # The value least often set under the newer label and plan entry, and the first operation that has it.
    column = [_value(b, plan, e) for e in catalog.entries]
    rare = min(sorted({v for v in column if v is not None}), key=column.count)
    odd = next(e for e in catalog.entries if _value(b, plan, e) == rare)
    pathless = next(e for e in catalog.entries if e.path is None)
    request = next(n for n in catalog.not_shown if n.id == "request")
    section = request.section.split()[0].lstrip("§")
    moved = sum(len(changed(a, b, e)) for e in catalog.entries)
    a_plan, b_plan = _value(a, plan, op), _value(b, plan, op)
    a_dropped = _value(a, dropped.name, op)
    return [
        Task(question=f"What changed for {_name(op)} between {a.label} and {b.label}?", start=op_url,
             clicks=(change_link((a.label, b.label), f"{plan}: {a_plan} → {b_plan}"),),
             answer=marked_row([_name(op), str(a_plan), str(b_plan)]), lands_on=compare),
        Task(question=f"What became of {_name(op)}'s {dropped.name} value in {b.label}?", start=op_url,
             clicks=(change_link((a.label, b.label), f"{dropped.name}: {a_dropped} → ∅ not listed"),),
             answer=marked_row([_name(op), str(a_dropped), "not listed"]), lands_on=compare),
        Task(question=f"Which plan entries does {b.label} list?", start=op_url, clicks=(link(b.label),),
             answer=in_view("article table:has(caption:text('Plan table')) tbody", ", ".join(p.name for p in b.plans)),
             lands_on=f"versions/{b.slug}/"),
        Task(question=f"Which version labels list {dropped.name}?", start=op_url, clicks=(link(dropped.name),),
             answer=in_view("article li:has(strong:text-is('Listed under:'))",
                            ", ".join(v.label for v in labels if v.plan(dropped.name))),
             lands_on=f"plans/{dropped.slug}/"),
        Task(question="What does “not listed” mean?", start="operations/", clicks=(link("legend"),),
             answer=in_view("article tr:has(th .not-listed)", "does not list that plan entry"), lands_on="legend/"),
        Task(question="Does the source say what a request carries, and where?", start=op_url,
             clicks=(link(request.topic),
                     lambda page: page.locator("article").get_by_role("link", name=request.section)),
             answer=in_view(f"article [id='s{section}']", section), lands_on="sources/"),
        Task(question=f"What is {_name(odd)}'s {plan} value under {b.label}?", start="",
             clicks=(link("operations table"), link(_name(odd))),
             answer=history_cell(b.label, plan, rare), lands_on=_page(odd)),
        Task(question=f"What changed overall from {a.label} to {b.label}?", start=f"versions/{b.slug}/",
             clicks=(link(f"compare {a.label} → {b.label}"),),
             answer=_summary_count((a.label, b.label), "changed", moved), lands_on=compare),
        Task(question=f"Where does {_name(pathless)} sit in the listing?", start="operations/",
             clicks=(link(_name(pathless)),),
             answer=in_view("article tr:has(th:text-is('Listing position'))", f"{pathless.position} of "
                            f"{len(catalog.entries)}"),
             lands_on=_page(pathless)),
    ]


def test_the_real_tasks_are_eight_or_more_within_two_clicks(catalog: Catalog) -> None:
    tasks = reader_tasks(catalog)
    assert len(tasks) >= 8
    assert all(1 <= len(t.clicks) <= MAX_CLICKS for t in tasks)


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_every_reader_task_is_answered_on_the_real_site(chromium: Browser, real_site: str, catalog: Catalog,
                                                         screen: str) -> None:
    visit = new_visit(chromium, real_site, **SCREENS[screen])
    try:
        failed = unanswered(visit, real_site, reader_tasks(catalog))
    finally:
        visit.close()
    assert not failed, "\n".join(failed)


def test_every_table_of_the_real_site_fits_1280_px(chromium: Browser, real_site: str, catalog: Catalog,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    """At 1280 x 900 no table of the real catalogue's site scrolls sideways and no column header is drawn on more
    than two lines (issue 42): every page of the build but the operation pages, of which the one with the longest
    path and the one without a path (every operation page draws the same tables, a row per label)."""
    folder = shared_build(tmp_path_factory, "real-site", ROOT / "catalog")
    pages = sorted(p.parent.relative_to(folder).as_posix() + "/" for p in folder.rglob("index.html"))
    longest = max((e for e in catalog.entries if e.path), key=lambda e: len(e.path or ""))
    pathless = next(e for e in catalog.entries if e.path is None)
    ops = {_page(longest), _page(pathless)}
    chosen = [("" if p == "./" else p) for p in pages if not p.startswith("operations/") or p in ops]
    assert ops <= set(chosen) and len(chosen) >= 10, chosen
    visit = new_visit(chromium, real_site, **DESKTOP)
    wrong: list[str] = []
    tables = 0
    try:
        for path in chosen:
            measured = visit.reach(path).evaluate(MEASURE)
            tables += measured["tables"]
            wrong += [f"/{path}: scrolls sideways: {t}" for t in measured["scrolls"]]
            wrong += [f"/{path}: a header on {t}" for t in measured["tall"]]
        wrong += visit.problems()
    finally:
        visit.close()
    assert tables >= len(chosen), f"only {tables} tables on {len(chosen)} pages"
    assert not wrong, "\n".join(wrong)
