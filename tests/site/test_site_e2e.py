"""End to end: the fixture catalogue (tests/fixture-catalog/) built into a site; every permalink of the
README exists and shows the right values, read from the built HTML.

The expected values come from tests/fixture_facts.py (the fixture restated by hand) where a test names
them, and from the validated model for the rest, so a page that drops, invents or misplaces a value fails.
The real catalogue is never read here: editing catalog/ cannot break these tests.
"""

from __future__ import annotations

import json
import re
from functools import cache
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

import fixture_facts as ff
from catalog_docs.catalog.model import Catalog, ListingEntry
from catalog_docs.catalog.validate import load_catalog
from htmltree import Node, content, parse_file, table_rows

pytestmark = pytest.mark.site

ORIGIN = "http://127.0.0.1:8000"  # site_url of mkdocs.yml when SITE_URL is not set


@cache
def catalog() -> Catalog:
    return load_catalog(ff.FIXTURE_CATALOG)


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    return built_site


def html_file(site: Path, url: str) -> Path:
    """The built file behind a site URL such as `/operations/fakeWidgetList/`."""
    path = site / unquote(url).lstrip("/")
    return path / "index.html" if url.endswith("/") else path


def page(site: Path, url: str) -> Node:
    path = html_file(site, url)
    assert path.is_file(), f"{url} was not built ({path} is missing)"
    return content(parse_file(path))


def table_with_header(root: Node, first: str) -> list[list[Node]]:
    """The rows of the first table whose first header cell reads `first`."""
    for table in root.find_all("table"):
        rows = table_rows(table)
        if rows and rows[0] and rows[0][0].text() == first:
            return rows
    raise AssertionError(f"no table starting with a {first!r} column")


def as_dicts(rows: list[list[Node]]) -> list[dict[str, Node]]:
    header = [c.text() for c in rows[0]]
    for row in rows[1:]:
        assert len(row) == len(header), f"row has {len(row)} cells, header {len(header)}: {[c.text() for c in row]}"
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def lock_text(cell: Node) -> str:
    """What a value cell says: the lock value, or `not listed` (a fact), each by its own mark (the cell's own
    classes when it holds nothing else, a span in it otherwise)."""
    locks = cell.find_all(cls="lock")
    unlisted = cell.find_all(cls="not-listed")
    assert len(locks) + len(unlisted) == 1, f"cell {cell.text()!r} should hold one value or one not-listed mark"
    if locks:
        value = locks[0].text()
        assert f"lock-{value}" in locks[0].classes, "the value's class must match its text"
        return value
    return "not listed"


def is_changed(cell: Node) -> bool:
    return bool(cell.find_all("span", cls="changed"))


def values_by_position(plan_values: tuple[str, ...]) -> dict[int, str]:
    return {i + 1: v for i, v in enumerate(plan_values)}


def all_urls() -> list[str]:
    """Every permalink of the README's URL scheme for the fixture catalogue."""
    cat = catalog()
    urls = ["/", "/operations/", "/versions/", "/plans/", "/compare/", "/matrix/", "/not-shown/", "/legend/",
            "/downloads/catalog.json"]
    urls += [f"/operations/{e.slug}/" for e in cat.entries]
    urls += [f"/versions/{v.slug}/" for v in cat.versions]
    urls += [f"/plans/{name.replace(' ', '-')}/" for name in cat.plan_names]
    urls += [f"/compare/{a.slug}...{b.slug}/" for a, b in pairwise(cat.versions)]
    return urls


# --- the URL scheme ------------------------------------------------------------------------------------

def test_slugs_follow_the_documented_scheme() -> None:
    slugs = {e.path: e.slug for e in catalog().entries}
    for path, slug in ff.SLUGS.items():
        assert slugs[path] == slug, path
    assert [v.slug for v in catalog().versions] == ["FAKE-1.0", "FAKE-1.1", "FAKE-2.0"]
    assert "/compare/FAKE-1.0...FAKE-1.1/" in all_urls() and "/compare/FAKE-1.1...FAKE-2.0/" in all_urls()
    assert len(all_urls()) == 9 + ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS)


@pytest.mark.parametrize("url", all_urls())
def test_every_permalink_is_built(site: Path, url: str) -> None:
    assert html_file(site, url).is_file(), url


def test_every_link_on_every_page_resolves(site: Path) -> None:
    # Internal links (including #anchors) land on a built file and an existing id.
    broken = []
    ids: dict[Path, set[str]] = {}
    for path in sorted(site.rglob("*.html")):
        if path.name == "404.html":
            continue
        url = "/" + path.relative_to(site).parent.as_posix().strip(".") + "/"
        url = url.replace("//", "/")
        doc = parse_file(path)
        for a in doc.find_all("a"):
            href = a.attrs.get("href")
            if not href or href.startswith(("mailto:", "javascript:")):
                continue
            target = urlsplit(urljoin(ORIGIN + url, href))
            if f"{target.scheme}://{target.netloc}" != ORIGIN:
                continue  # other origins are checked by test_no_request_leaves_the_origin
            file = html_file(site, target.path)
            if not file.is_file():
                broken.append(f"{url}: {href}")
                continue
            if target.fragment and file.suffix == ".html":
                if file not in ids:
                    ids[file] = {n.attrs["id"] for n in parse_file(file).iter() if "id" in n.attrs}
                if unquote(target.fragment) not in ids[file]:
                    broken.append(f"{url}: {href} (no such anchor)")
    assert not broken, "\n".join(broken)


# --- tables ------------------------------------------------------------------------------------------

VALUE_TABLE_PAGES = ["/operations/", "/matrix/", "/versions/FAKE-1.0/", "/versions/FAKE-2.0/", "/plans/PLAN-A/",
                     "/operations/fakeWidgetList/", "/compare/FAKE-1.0...FAKE-1.1/", "/compare/FAKE-1.1...FAKE-2.0/"]


def test_every_table_is_a_semantic_data_table(site: Path) -> None:
    """Every table the site writes has a caption, column headers with scope="col" and, in its body, header
    cells with scope="row" only; a screen reader names each value by its column and its row."""
    tables = 0
    for path in sorted(site.rglob("*.html")):
        if path.name == "404.html":
            continue
        for table in content(parse_file(path)).find_all("table"):
            tables += 1
            where = path.relative_to(site).as_posix()
            caption = table.find("caption")
            assert caption is not None and caption.text(), f"{where}: a table without a caption"
            thead, tbody = table.find("thead"), table.find("tbody")
            assert thead is not None and tbody is not None, f"{where}: {caption.text()}"
            heads = thead.find_all("th")
            assert heads and all(th.attrs.get("scope") == "col" for th in heads), f"{where}: {caption.text()}"
            assert not thead.find_all("td"), f"{where}: {caption.text()}"
            for th in tbody.find_all("th"):
                assert th.attrs.get("scope") == "row", f"{where}: {caption.text()}: {th.text()}"
    assert tables >= len(all_urls())


@pytest.mark.parametrize("url", VALUE_TABLE_PAGES)
def test_each_value_row_is_headed_by_its_operation_or_label(site: Path, url: str) -> None:
    """In every table of lock values, each row's header cell is the operation (or version label) it belongs
    to, linked to its page, so a value is announced with the row it belongs to."""
    tables = [t for t in content(page(site, url)).find_all("table")
              if any(td.find(cls="lock") for td in t.find_all("td"))]
    assert tables, url
    for table in tables:
        for tr in table.find("tbody").find_all("tr"):
            heads = [c for c in tr.children if isinstance(c, Node) and c.tag == "th"]
            assert len(heads) == 1 and heads[0].attrs["scope"] == "row", (url, tr.text())
            link = heads[0].find("a")
            assert link is not None and link.text() == heads[0].text(), (url, tr.text())
            assert "/operations/" in urljoin(ORIGIN + url, link.attrs["href"]) \
                or "/versions/" in urljoin(ORIGIN + url, link.attrs["href"]), (url, link.attrs)


# --- home --------------------------------------------------------------------------------------------

def test_home_gives_the_counts_of_the_catalogue(site: Path) -> None:
    home = page(site, "/")
    counts = as_dicts(table_with_header(home, "Listing entries"))[0]
    assert counts["Listing entries"].text() == str(ff.LISTING_SIZE)
    assert counts["Distinct paths"].text() == str(ff.DISTINCT_PATHS)
    assert counts["Version labels"].text() == str(len(ff.LABELS))
    assert counts["Plan entries"].text() == str(len(ff.PLAN_NAMES))


def test_home_lists_the_areas_and_where_to_start(site: Path) -> None:
    home = page(site, "/")
    areas = {row["Area"].text(): int(row["Operations (inferred)"].text())
             for row in as_dicts(table_with_header(home, "Area"))}
    assert list(areas) == list(ff.AREAS.values())
    assert areas == {name: ff.AREA_OF.count(aid) for aid, name in ff.AREAS.items()}
    text = home.text()
    assert "Where to start" in text
    [pathless] = ff.PATHLESS
    assert f"Entry {pathless} has no path in the source" in text
    hrefs = {a.attrs.get("href") for a in home.find_all("a")}
    for target in ("operations/", "plans/", "compare/", "matrix/", "not-shown/", "downloads/catalog.json"):
        assert target in hrefs, f"home does not link to {target}"


# --- operations ---------------------------------------------------------------------------------------

def test_operations_index_has_every_entry_and_every_column(site: Path) -> None:
    root = page(site, "/operations/")
    cat = catalog()
    rows = as_dicts(table_with_header(root, "#"))
    assert [int(r["#"].text()) for r in rows] == [e.position for e in cat.entries]
    columns = [(v, p) for v in cat.versions for p in v.plans]
    for row, entry in zip(rows, cat.entries, strict=True):
        assert row["Method"].text() == "POST"
        assert row["Path"].text() == entry.title
        assert row["Path"].find("a").attrs["href"] == f"{entry.slug}/"
        if entry.area:
            assert row["Area (inferred)"].text() == entry.area.name
        elif entry.path:
            assert row["Area (inferred)"].text() == "no area inferred"  # our guess found none: not a gap of the source
            assert not row["Area (inferred)"].find_all("span", cls="not-shown")
        else:
            assert row["Area (inferred)"].find("span", cls="not-shown")
        for v, p in columns:
            assert lock_text(row[f"{v.label} · {p.name}"]) == p.values[entry.position - 1]
    assert root.find("input", id="operations-filter") is not None, "the filter box is missing"


def operation_history(site: Path, entry: ListingEntry) -> dict[str, dict[str, Node]]:
    rows = as_dicts(table_with_header(page(site, f"/operations/{entry.slug}/"), "Version label"))
    return {row.pop("Version label").text(): row for row in rows}


def entry_by_path(path: str | None) -> ListingEntry:
    return next(e for e in catalog().entries if e.path == path)


def test_widget_list_stays_close_in_plan_a_and_shows_plans_not_listed(site: Path) -> None:
    # In the fixture, /fakeWidgetList keeps `close` in PLAN A under every label.
    history = operation_history(site, entry_by_path("/fakeWidgetList"))
    for label in ff.LABELS:
        assert lock_text(history[label]["PLAN A"]) == "close"
        assert not is_changed(history[label]["PLAN A"])
    assert lock_text(history["FAKE 1.0"]["PLAN B"]) == "unlimited"
    assert lock_text(history["FAKE 1.1"]["PLAN B"]) == "not listed"
    assert lock_text(history["FAKE 1.0"]["PLAN C"]) == "not listed"
    assert lock_text(history["FAKE 2.0"]["PLAN C"]) == "unlimited"


def test_gadget_purge_changes_one_way_then_back(site: Path) -> None:
    history = operation_history(site, entry_by_path("/v2/fakeGadgetPurge"))
    assert lock_text(history["FAKE 1.0"]["PLAN A"]) == "close"
    assert not is_changed(history["FAKE 1.0"]["PLAN A"])
    cell = history["FAKE 1.1"]["PLAN A"]
    assert lock_text(cell) == "unlimited"
    assert is_changed(cell)
    assert "changed from close" in cell.text()
    back = history["FAKE 2.0"]["PLAN A"]
    assert lock_text(back) == "close" and is_changed(back) and "changed from unlimited" in back.text()


@pytest.mark.parametrize("position", range(1, ff.LISTING_SIZE + 1))
def test_each_operation_page_shows_its_facts_and_history(site: Path, position: int) -> None:
    cat = catalog()
    entry = cat.entries[position - 1]
    root = page(site, f"/operations/{entry.slug}/")
    assert root.find("h1").text().rstrip("¶") == f"POST {entry.title}"
    facts = {row["Fact"].text(): row["Value"] for row in as_dicts(table_with_header(root, "Fact"))}
    assert facts["Method"].text() == "POST"
    assert facts["Listing position"].text().startswith(f"{position} of {ff.LISTING_SIZE}")
    if entry.path:
        assert facts["Path"].text() == entry.path
        assert facts["URL template"].find("code").text() == "{base_url}" + entry.path
        assert facts["URL template"].find("span", cls="not-shown"), "the base URL is not shown in the source"
        assert entry.path in [c.text() for c in root.find_all("code")], "the path is in a copyable code block"
        area = ff.AREA_OF[position - 1]
        if area is None:
            assert entry.area is None and facts["Area"].text() == "no area inferred"
            assert not facts["Area"].find_all("span", cls="inferred")
        else:
            assert entry.area is not None and entry.area.id == area
            assert facts["Area"].text() == f"{ff.AREAS[area]} inferred"
            assert facts["Area"].find("span", cls="inferred")
    marker = facts["Version marker in path"].text()
    if entry.path in ff.MARKER_TEXT:
        assert marker == ff.MARKER_TEXT[entry.path]
    elif entry.path:
        assert marker == "none"

    history = operation_history(site, entry)
    assert list(history) == [v.label for v in cat.versions]
    previous: dict[str, str] = {}
    for v in cat.versions:
        for name in cat.plan_names:
            cell = history[v.label][name]
            plan = v.plan(name)
            if plan is None:
                assert lock_text(cell) == "not listed"
                assert not cell.find_all("span", cls="not-shown"), "not listed is a fact, not an unknown"
                continue
            value = plan.values[position - 1]
            assert lock_text(cell) == value
            assert is_changed(cell) == (name in previous and previous[name] != value), f"{v.label}/{name}"
            previous[name] = value

    # Its history's column headers lead to the plan entries' pages, its row headers to the labels' pages.
    table = next(t for t in root.find_all("table") if table_rows(t)[0][0].text() == "Version label")
    heads = {th.text(): th.find("a") for th in table.find("thead").find_all("th")[1:]}
    assert {name: a.attrs["href"] for name, a in heads.items()} == {
        name: f"../../plans/{name.replace(' ', '-')}/" for name in cat.plan_names}
    rows = {th.text(): th.find("a").attrs["href"] for th in table.find("tbody").find_all("th")}
    assert rows == {v.label: f"../../versions/{v.slug}/" for v in cat.versions}

    # Every topic the source does not show for an operation, said once: each links its register item and its
    # section, under one mark.
    [gaps] = root.find_all("div", cls="catalog-gaps")
    assert [m.text() for m in gaps.find_all("span", cls="not-shown")] == ["not shown"]
    items = gaps.find_all("li")
    assert [li.find("a").text() for li in items] == [n.topic for n in cat.not_shown_for(entry)]
    for li, item in zip(items, cat.not_shown_for(entry), strict=True):
        links = [(a.text(), a.attrs["href"]) for a in li.find_all("a")]
        assert links == [(item.topic, f"../../not-shown/#{item.id}"),
                         (item.section, f"../../sources/#s{item.section[1:].split()[0]}")]
    assert {n.id for n in cat.not_shown_for(entry)} >= set(ff.OPERATION_GAPS)
    assert "../../not-shown/" in {a.attrs["href"] for a in gaps.find_all("a")}


def test_the_entry_without_a_path_says_so(site: Path) -> None:
    root = page(site, "/operations/entry-7/")
    facts = {row["Fact"].text(): row["Value"] for row in as_dicts(table_with_header(root, "Fact"))}
    assert facts["Path"].find("span", cls="not-shown").text() == "not shown"
    assert facts["Path"].find("a").attrs["href"] == "../../not-shown/#entry-7-path"
    assert facts["URL template"].find("span", cls="not-shown")
    assert facts["Area"].find("span", cls="not-shown"), "no path, so no name to infer an area from"
    assert facts["Listing position"].find("a").attrs["href"] == "../../not-shown/#entry-7-position"
    assert not any(c.text().startswith("/") for c in root.find_all("code")), "entry 7 must show no path"
    assert root.find("div", cls="catalog-path") is None


# --- versions and plans -------------------------------------------------------------------------------

def test_versions_index_lists_every_label_with_its_plan_table(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/versions/"), "Version label"))
    assert [r["Version label"].text() for r in rows] == list(ff.LABELS)
    assert [r["Plan entries listed"].text() for r in rows] == [", ".join(ff.VALUES[label]) for label in ff.LABELS]
    assert [r["Plan table"].text() for r in rows] == [ff.PLAN_TABLES[label][0] for label in ff.LABELS]
    assert [r["Value column"].text() for r in rows] == [ff.PLAN_TABLES[label][1] for label in ff.LABELS]


def test_version_10_sets_its_two_plan_entries_side_by_side(site: Path) -> None:
    root = page(site, "/versions/FAKE-1.0/")
    table = as_dicts(table_with_header(root, "Plan table"))[0]
    assert (table["Plan table"].text(), table["Value column"].text()) == ff.PLAN_TABLES["FAKE 1.0"]
    rows = as_dicts(table_with_header(root, "#"))
    assert len(rows) == ff.LISTING_SIZE
    for row in rows:
        # In the fixture, PLAN A is close and PLAN B unlimited for every operation under FAKE 1.0: every row differs.
        assert lock_text(row["PLAN A"]) == "close"
        assert lock_text(row["PLAN B"]) == "unlimited"
        # A difference within the label: its own mark, never the "changed since the previous label" one.
        assert row["Plans differ"].text() == "plans differ" and not is_changed(row["Plans differ"])
        assert row["Plans differ"].find_all("span", cls="plans-differ")
    assert f"Plan entries differ on {ff.LISTING_SIZE} of {ff.LISTING_SIZE} listing entries." in root.text()


def test_version_20_marks_the_rows_where_its_plan_entries_differ(site: Path) -> None:
    root = page(site, "/versions/FAKE-2.0/")
    rows = as_dicts(table_with_header(root, "#"))
    assert list(rows[0]) == ["#", "Operation", "PLAN A", "PLAN C", "Plans differ"]
    a, c = ff.VALUES["FAKE 2.0"]["PLAN A"], ff.VALUES["FAKE 2.0"]["PLAN C"]
    for row, x, y in zip(rows, a, c, strict=True):
        assert (lock_text(row["PLAN A"]), lock_text(row["PLAN C"])) == (x, y)
        assert (row["Plans differ"].text() == "plans differ") == (x != y) == bool(
            row["Plans differ"].find_all("span", cls="plans-differ"))
        assert not is_changed(row["Plans differ"])  # within one label: not "changed since the previous label"
    differ = sum(x != y for x, y in zip(a, c, strict=True))
    assert 0 < differ < ff.LISTING_SIZE
    assert f"Plan entries differ on {differ} of {ff.LISTING_SIZE} listing entries." in root.text()


def test_version_11_lists_one_plan_entry_and_marks_the_others_not_listed(site: Path) -> None:
    root = page(site, "/versions/FAKE-1.1/")
    rows = as_dicts(table_with_header(root, "#"))
    assert list(rows[0]) == ["#", "Operation", "PLAN A"]
    values = [lock_text(r["PLAN A"]) for r in rows]
    assert tuple(values) == ff.VALUES["FAKE 1.1"]["PLAN A"]
    assert [r["Operation"].text() for r in rows] == [p or f"Entry {i + 1}" for i, p in enumerate(ff.PATHS)]
    unlisted = [p for p in root.find_all("p") if "Not listed under this label" in p.text()]
    assert unlisted and len(unlisted[0].find_all("span", cls="not-listed")) == 2
    assert "PLAN B" in unlisted[0].text() and "PLAN C" in unlisted[0].text()


def test_plan_b_is_not_listed_after_10(site: Path) -> None:
    root = page(site, "/plans/PLAN-B/")
    rows = as_dicts(table_with_header(root, "#"))
    assert len(rows) == ff.LISTING_SIZE
    for row in rows:
        assert lock_text(row["FAKE 1.0"]) == "unlimited"
        for label in ("FAKE 1.1", "FAKE 2.0"):
            assert lock_text(row[label]) == "not listed"
            assert not row[label].find_all("span", cls="not-shown")
    items = {li.text().split(":", 1)[0]: li for li in root.find_all("li")}
    assert "FAKE 1.1" in items["Not listed under"].text() and "FAKE 2.0" in items["Not listed under"].text()
    assert "FAKE 1.0" in items["Listed under"].text()


def test_plan_a_follows_its_values_across_labels(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/plans/PLAN-A/"), "#"))
    assert len(rows) == ff.LISTING_SIZE
    for position, row in enumerate(rows, start=1):
        previous = None
        for label in ff.LABELS:
            expected = ff.value(label, "PLAN A", position)
            assert lock_text(row[label]) == expected
            assert is_changed(row[label]) == (previous is not None and expected != previous), (position, label)
            previous = expected


# --- compare -------------------------------------------------------------------------------------------

def _summary_counts(a: str, b: str) -> dict[str, str]:
    """The summary table of a comparison page as the fixture says it must read: change -> count."""
    def row(n: int, one: str, many: str) -> dict[str, str]:
        return {one if n == 1 else many: str(n)} if n else {}

    moves: dict[tuple[str, str], int] = {}
    for _, _, x, y in ff.changes(a, b):
        moves[(x, y)] = moves.get((x, y), 0) + 1
    added, removed = ff.plans_added(a, b), ff.plans_removed(a, b)  # the fixture re-lists no plan entry
    return {**row(len(added), "Plan entry listing added", "Plan entry listings added"),
            **row(len(removed), "Plan entry listing removed", "Plan entry listings removed"),
            **{("Value" if n == 1 else "Values") + f" changed {x} → {y}": str(n) for (x, y), n in moves.items()},
            **row(len(added) * ff.LISTING_SIZE, "New value (no earlier listing)", "New values (no earlier listing)"),
            **row(len(removed) * ff.LISTING_SIZE, "Value no longer listed", "Values no longer listed"),
            **{"Value unchanged" if len(ff.unchanged(a, b)) == 1 else "Values unchanged": str(len(ff.unchanged(a, b)))}}


@pytest.mark.parametrize(("a", "b"), ff.PAIRS)
def test_compare_page_summarises_before_listing_changes(site: Path, a: str, b: str) -> None:
    root = page(site, f"/compare/{ff.LABEL_SLUGS[a]}...{ff.LABEL_SLUGS[b]}/")
    headings = [h.text().rstrip("¶") for h in root.find_all("h2")]
    assert headings.index("Summary") < headings.index("Every change")
    summary = {r["Change"].text(): r for r in as_dicts(table_with_header(root, "Change"))}
    assert {k: r["Count"].text() for k, r in summary.items()} == _summary_counts(a, b)
    headings = [h.text().rstrip("¶") for h in root.find_all("h3")]
    for name in ff.plans_removed(a, b) + ff.plans_added(a, b):
        assert f"{b} · plan entry {name}" in headings


def test_the_fixture_comparisons_are_the_ones_the_tests_expect() -> None:
    # Guards the expectations above against a fixture edit that would make them trivial.
    assert _summary_counts("FAKE 1.0", "FAKE 1.1") == {
        "Plan entry listing removed": "1", "Values changed close → unlimited": "5", "Values no longer listed": "8",
        "Values unchanged": "3"}
    assert _summary_counts("FAKE 1.1", "FAKE 2.0") == {
        "Plan entry listing added": "1", "Value changed close → unlimited": "1", "Value changed unlimited → close": "1",
        "New values (no earlier listing)": "8", "Values unchanged": "6"}


def _change_tables(root: Node) -> list[dict[str, Node]]:
    """Rows of the tables of changes (first column Position), outside the folded block of unchanged values."""
    return [row for table in root.find_all("table") for row in
            (as_dicts(table_rows(table)) if table_rows(table)[0][0].text() == "Position" else [])
            if not any(n.tag == "details" for n in table.ancestors())]


@pytest.mark.parametrize(("a", "b"), ff.PAIRS)
def test_compare_page_lists_every_change_with_a_link(site: Path, a: str, b: str) -> None:
    root = page(site, f"/compare/{ff.LABEL_SLUGS[a]}...{ff.LABEL_SLUGS[b]}/")
    changed, new, gone = [], [], []
    for row in _change_tables(root):
        position = int(row["Position"].text())
        entry = catalog().entries[position - 1]
        assert row["Operation"].find("a").attrs["href"] == f"../../operations/{entry.slug}/"
        assert row["Operation"].text() == entry.title
        if row[a].text().endswith("not listed"):
            assert row[b].find_all("span", cls="new-value")
            new.append((position, lock_text(row[b])))
        elif row[b].text().endswith("not listed"):
            gone.append((position, lock_text(row[a])))
        else:
            changed.append((position, lock_text(row[a]), lock_text(row[b])))
    assert sorted(changed) == sorted((p, x, y) for _, p, x, y in ff.changes(a, b))
    # A plan entry no earlier label lists: every value, marked new; one no longer listed: every value it had.
    assert sorted(new) == sorted((i + 1, v) for plan in ff.plans_added(a, b) for i, v in enumerate(ff.VALUES[b][plan]))
    assert sorted(gone) == sorted((i + 1, v) for plan in ff.plans_removed(a, b)
                                  for i, v in enumerate(ff.VALUES[a][plan]))
    # Unchanged rows are folded away in a closed <details>.
    folded = root.find("details")
    assert folded is not None and "open" not in folded.attrs
    unchanged = as_dicts(table_with_header(folded, "Position"))
    assert [(r["Plan entry"].text(), int(r["Position"].text()), lock_text(r["Value"])) for r in unchanged] == \
        ff.unchanged(a, b)


def test_compare_index_links_each_consecutive_pair(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/compare/"), "From"))
    assert [(r["From"].text(), r["To"].text()) for r in rows] == list(ff.PAIRS)
    for row, (a, b) in zip(rows, ff.PAIRS, strict=True):
        assert row["Values changed"].find("a").attrs["href"] == f"{ff.LABEL_SLUGS[a]}...{ff.LABEL_SLUGS[b]}/"


# --- matrix, register, legend ---------------------------------------------------------------------------

def test_matrix_has_every_cell_as_text(site: Path) -> None:
    cat = catalog()
    rows = table_with_header(page(site, "/matrix/"), "#")
    assert len(rows) == 1 + len(cat.entries)
    columns = [(v, p) for v in cat.versions for p in v.plans]
    assert len(rows[0]) == 2 + len(columns)
    for row, entry in zip(rows[1:], cat.entries, strict=True):
        cells = row[2:]
        for cell, (_label, p) in zip(cells, columns, strict=True):
            # The value is told apart by its text, not only by the colour of its class.
            assert cell.text() == p.values[entry.position - 1] == lock_text(cell)


def test_not_shown_register_has_every_item_with_its_section(site: Path) -> None:
    root = page(site, "/not-shown/")
    ids = {n.attrs.get("id") for n in root.iter()}
    text = root.text()
    for item in catalog().not_shown:
        assert item.id in ids, f"{item.id} has no anchor"
        heading = root.find("h2", id=item.id)
        assert heading is not None and heading.text().rstrip("¶") == item.topic
        assert f"{item.topic}¶ {item.detail} Source section: {item.section}" in text
    assert "Appears on" in text


def test_every_page_with_lock_values_links_to_the_legend(site: Path) -> None:
    pages_with_values = 0
    for path in sorted(site.rglob("index.html")):
        root = content(parse_file(path))
        if not root.find_all(cls="lock") or path.parent.name == "legend":
            continue
        pages_with_values += 1
        depth = len(path.relative_to(site).parts) - 1
        legend = "../" * depth + "legend/" if depth else "legend/"
        assert legend in {a.attrs.get("href") for a in root.find_all("a")}, f"{path} does not link to the legend"
        assert "their meaning" in root.text() or "mean is not shown" in root.text(), f"{path} lacks the legend note"
    # every operation, version, plan and comparison page, the operations table, the matrix and the changelog
    assert pages_with_values == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 3


def test_every_not_shown_mark_in_a_table_links_to_its_register_item(site: Path) -> None:
    register = {n.id for n in catalog().not_shown}
    marks = 0
    for path in sorted(site.rglob("index.html")):
        if path.parent.name == "legend":
            continue  # the legend explains the mark itself
        for cell in content(parse_file(path)).find_all("td"):
            if not cell.find_all("span", cls="not-shown"):
                continue
            marks += 1
            targets = [a.attrs.get("href", "") for a in cell.find_all("a")]
            ids = {t.split("not-shown/#", 1)[1] for t in targets if "not-shown/#" in t}
            assert ids and ids <= register, f"{path.relative_to(site)}: {cell.text()!r} links to no register item"
    # Each operation page marks its base URL (or its path) in its facts table; the topics of its register are said
    # once, in one block (test_each_operation_page_shows_its_facts_and_history).
    assert marks >= len(catalog().entries)


def test_not_listed_and_not_shown_look_different(site: Path) -> None:
    css = (site / "assets" / "catalog.css").read_text(encoding="utf-8")
    rules = dict(re.findall(r"\.(not-listed|not-shown)\s*\{([^}]*)\}", css))
    assert set(rules) == {"not-listed", "not-shown"} and rules["not-listed"] != rules["not-shown"]


# --- the download -----------------------------------------------------------------------------------------

def test_catalog_json_has_the_documented_shape(site: Path) -> None:
    data = json.loads((site / "downloads" / "catalog.json").read_text(encoding="utf-8"))
    ops = data["operations"]
    assert len(ops) == ff.LISTING_SIZE
    for op in ops:
        assert {"position", "slug", "method", "path", "area"} <= op.keys()
    assert [op["path"] for op in ops] == list(ff.PATHS)
    assert [op["slug"] for op in ops] == [ff.slug(p, i + 1) for i, p in enumerate(ff.PATHS)]
    assert ops[6]["path"] is None and ops[6]["slug"] == "entry-7"
    assert ops[4]["path"] == "/fakeRefundSend/v2" and ops[4]["slug"] == "fakeRefundSend-v2"
    versions = {v["label"]: v for v in data["versions"]}
    assert list(versions) == list(ff.LABELS)
    for label, v in versions.items():
        assert {"label", "slug", "plan_table", "value_column", "plans"} <= v.keys()
        assert (v["plan_table"], v["value_column"]) == ff.PLAN_TABLES[label]
        assert [p["name"] for p in v["plans"]] == list(ff.VALUES[label])
        for p in v["plans"]:
            assert {"name", "slug", "values"} <= p.keys()
            assert [x["position"] for x in p["values"]] == list(range(1, ff.LISTING_SIZE + 1))
            assert [x["path"] for x in p["values"]] == list(ff.PATHS)
            assert tuple(x["value"] for x in p["values"]) == ff.VALUES[label][p["name"]]
    assert {n["id"] for n in data["not_shown"]} == {n.id for n in catalog().not_shown}


# --- site configuration -------------------------------------------------------------------------------------

_LOADING = {"script": "src", "img": "src", "iframe": "src", "source": "src", "video": "src", "audio": "src",
            "embed": "src", "object": "data", "track": "src", "input": "src"}


def test_no_request_leaves_the_origin(site: Path) -> None:
    offenders = []
    for path in sorted(site.rglob("*.html")):
        doc = parse_file(path)
        for node in doc.iter():
            urls = []
            if node.tag in _LOADING and node.attrs.get(_LOADING[node.tag]):
                urls.append(node.attrs[_LOADING[node.tag]])
            if node.tag == "link" and node.attrs.get("href"):
                rel = node.attrs.get("rel", "")
                if rel == "canonical":
                    assert node.attrs["href"].startswith(ORIGIN + "/"), "canonical URL must be the site's own"
                    continue
                urls.append(node.attrs["href"])
            urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", node.attrs.get("style", ""))
            for url in urls:
                if re.match(r"^(https?:)?//", url) and not url.startswith(ORIGIN + "/"):
                    offenders.append(f"{path.relative_to(site)}: <{node.tag}> {url}")
        for style in doc.find_all("style"):
            offenders += [f"{path.relative_to(site)}: <style> {u}" for u in
                          re.findall(r"(?:url\(|@import)\s*['\"]?((?:https?:)?//[^'\")]+)", style.text())]
    for css in sorted(site.rglob("*.css")):
        external = r"(?:url\(|@import)\s*['\"]?((?:https?:)?//[^'\")\s;]+)"
        for url in re.findall(external, css.read_text(encoding="utf-8")):
            offenders.append(f"{css.relative_to(site)}: {url}")
    assert not offenders, "\n".join(offenders)


def primary_nav_links(path: Path) -> list[str]:
    """Links of the site navigation, without the table of contents Material nests into the active item."""
    nav = parse_file(path).find("nav", cls="md-nav--primary")
    assert nav is not None
    return [a.attrs.get("href", "") for a in nav.find_all("a")
            if not any("md-nav--secondary" in n.classes for n in a.ancestors())]


def test_navigation_does_not_grow_with_the_operations(site: Path) -> None:
    home = primary_nav_links(site / "index.html")
    assert len(home) < 15, home
    for url in ("/operations/fakeWidgetList/", "/operations/entry-7/", "/compare/FAKE-1.0...FAKE-1.1/",
                "/plans/PLAN-B/", "/matrix/"):
        assert len(primary_nav_links(html_file(site, url))) == len(home), url
    assert not any("operations/fakeWidgetList" in href for href in home)


def test_operation_pages_are_found_by_search(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {d["location"] for d in index["docs"]}
    for entry in catalog().entries:
        assert f"operations/{entry.slug}/" in locations


def test_value_tables_stay_out_of_the_search_index(site: Path) -> None:
    """Every table of lock values repeats operation paths and labels: indexed, each search for an operation
    or a label would list every table page (and at 1,000 operations the index would be megabytes of
    'close unlimited'). The pages themselves stay findable by their titles and text."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    by_page: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#", 1)[0]
        by_page[page] = by_page.get(page, "") + " " + doc["title"] + " " + doc["text"]
    for page in ("operations/", "matrix/", "versions/FAKE-1.0/", "plans/PLAN-B/"):
        assert page in by_page, page
        text = by_page[page]
        assert "/fakeWidgetCreate" not in text and "/fakeWidgetList" not in text, (page, text)
        assert text.count("unlimited") <= 1, (page, text)  # the legend note names the value once
    op = by_page["operations/fakeWidgetCreate/"]
    assert "/fakeWidgetCreate" in op  # its own facts are indexed
    assert "FAKE 1.1" not in op  # its history table is not
    assert "PLAN B" in by_page["plans/PLAN-B/"]


def test_theme_features_are_on(site: Path) -> None:
    doc = parse_file(site / "index.html")
    config = json.loads(doc.find("script", id="__config").text())
    for feature in ("navigation.instant", "content.code.copy"):
        assert feature in config["features"]
    assert config.get("search")
    assert doc.find("form", cls="md-header__option") is not None or doc.find("input", cls="md-option"), \
        "light/dark toggle missing"
    assert doc.find("a", cls="headerlink") is not None, "heading permalinks missing"
