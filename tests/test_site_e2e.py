"""End to end: the real catalogue built into a site; every permalink of the README exists and shows the
right values, read from the built HTML.

The expected values come from the source document (§4, §8, §9) where the issue names them, and from the
validated model for the rest, so a page that drops, invents or misplaces a value fails.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from catalog_docs.model import Catalog, ListingEntry
from catalog_docs.validate import load_catalog
from htmltree import Node, content, parse_file, table_rows
from sitebuild import ROOT

pytestmark = pytest.mark.site

ORIGIN = "http://127.0.0.1:8000"  # site_url of mkdocs.yml when SITE_URL is not set


@cache
def catalog() -> Catalog:
    return load_catalog(ROOT / "catalog")


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    return built_site


def html_file(site: Path, url: str) -> Path:
    """The built file behind a site URL such as `/operations/getAccList/`."""
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
    return [dict(zip(header, row)) for row in rows[1:]]


def lock_text(cell: Node) -> str:
    """What a value cell says: the lock value, or `not listed` (a fact), each by its own mark."""
    locks = cell.find_all("span", cls="lock")
    unlisted = cell.find_all("span", cls="not-listed")
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
    """Every permalink of the README's URL scheme for the real catalogue."""
    cat = catalog()
    urls = ["/", "/operations/", "/versions/", "/plans/", "/compare/", "/matrix/", "/not-shown/", "/legend/",
            "/downloads/catalog.json"]
    urls += [f"/operations/{e.slug}/" for e in cat.entries]
    urls += [f"/versions/{v.slug}/" for v in cat.versions]
    urls += [f"/plans/{name.replace(' ', '-')}/" for name in cat.plan_names]
    urls += [f"/compare/{a.slug}...{b.slug}/" for a, b in zip(cat.versions, cat.versions[1:])]
    return urls


# --- the URL scheme ------------------------------------------------------------------------------------

def test_slugs_follow_the_documented_scheme() -> None:
    slugs = {e.path: e.slug for e in catalog().entries}
    assert slugs["/meRefundServerReq/v2"] == "meRefundServerReq-v2"
    assert slugs["/v1/getSpamVPAList"] == "v1-getSpamVPAList"
    assert slugs[None] == "entry-23"
    assert [v.slug for v in catalog().versions] == ["UPI_N-1.0.1", "UPI_N-1.1.0"]
    assert "/compare/UPI_N-1.0.1...UPI_N-1.1.0/" in all_urls()


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


# --- home --------------------------------------------------------------------------------------------

def test_home_gives_the_counts_of_the_source(site: Path) -> None:
    home = page(site, "/")
    counts = as_dicts(table_with_header(home, "Listing entries"))[0]
    # §4: 22 distinct paths, 23 listing entries; §9: two version labels.
    assert counts["Listing entries"].text() == "23"
    assert counts["Distinct paths"].text() == "22"
    assert counts["Version labels"].text() == "2"
    assert counts["Plan entries"].text() == "2"


def test_home_lists_the_areas_and_where_to_start(site: Path) -> None:
    home = page(site, "/")
    areas = {row["Area"].text(): int(row["Operations (inferred)"].text()) for row in as_dicts(table_with_header(home, "Area"))}
    assert list(areas) == [a.name for a in catalog().service.areas]
    assert sum(areas.values()) == sum(1 for e in catalog().entries if e.area is not None)
    text = home.text()
    assert "Where to start" in text
    assert "Entry 23 has no path in the source" in text
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
    for row, entry in zip(rows, cat.entries):
        assert row["Method"].text() == "POST"
        assert row["Path"].text() == entry.title
        assert row["Path"].find("a").attrs["href"] == f"{entry.slug}/"
        if entry.area:
            assert row["Area (inferred)"].text() == entry.area.name
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


def test_transaction_status_query_stays_close_under_both_labels(site: Path) -> None:
    # §8: under UPI_N 1.1.0 only /transactionStatusQuery keeps `close` in plan entry UPI_N 1.0.0.
    history = operation_history(site, entry_by_path("/transactionStatusQuery"))
    assert lock_text(history["UPI_N 1.0.1"]["UPI_N 1.0.0"]) == "close"
    assert lock_text(history["UPI_N 1.1.0"]["UPI_N 1.0.0"]) == "close"
    assert not is_changed(history["UPI_N 1.1.0"]["UPI_N 1.0.0"])
    assert lock_text(history["UPI_N 1.0.1"]["UPI_N 3.0.0"]) == "unlimited"
    assert lock_text(history["UPI_N 1.1.0"]["UPI_N 3.0.0"]) == "not listed"


def test_get_acc_list_changes_from_close_to_unlimited(site: Path) -> None:
    history = operation_history(site, entry_by_path("/getAccList"))
    assert lock_text(history["UPI_N 1.0.1"]["UPI_N 1.0.0"]) == "close"
    assert not is_changed(history["UPI_N 1.0.1"]["UPI_N 1.0.0"])
    cell = history["UPI_N 1.1.0"]["UPI_N 1.0.0"]
    assert lock_text(cell) == "unlimited"
    assert is_changed(cell)
    assert "changed from close" in cell.text()


@pytest.mark.parametrize("position", range(1, 24))
def test_each_operation_page_shows_its_facts_and_history(site: Path, position: int) -> None:
    cat = catalog()
    entry = cat.entries[position - 1]
    root = page(site, f"/operations/{entry.slug}/")
    assert root.find("h1").text().rstrip("¶") == f"POST {entry.title}"
    facts = {row["Fact"].text(): row["Value"] for row in as_dicts(table_with_header(root, "Fact"))}
    assert facts["Method"].text() == "POST"
    assert facts["Listing position"].text().startswith(f"{position} of 23")
    if entry.path:
        assert facts["Path"].text() == entry.path
        assert facts["URL template"].find("code").text() == "{base_url}" + entry.path
        assert facts["URL template"].find("span", cls="not-shown"), "the base URL is not shown in the source"
        assert entry.path in [c.text() for c in root.find_all("code")], "the path is in a copyable code block"
        assert entry.area is not None
        assert facts["Area"].text() == f"{entry.area.name} inferred"
        assert facts["Area"].find("span", cls="inferred")
    marker = facts["Version marker in path"].text()
    expected_marker = {"/v1/getSpamVPAList": "v1 at the start of the path", "/v2/mePayServerReqImps":
                       "v2 at the start of the path", "/meRefundServerReq/v2": "v2 at the end of the path"}
    if entry.path in expected_marker:
        assert marker == expected_marker[entry.path]  # §9
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

    # Every area the source does not show for an operation, each with its section.
    missing = {row["Topic"].text(): row for row in as_dicts(table_with_header(root, "Topic"))}
    for topic in ("purpose", "request", "response", "authentication", "errors", "events", "states",
                  "numeric-limits", "value-meaning"):
        item = next(n for n in cat.not_shown if n.id == topic)
        row = missing[item.topic]
        mark = row["Status"].find("span", cls="not-shown")
        assert mark is not None and mark.text() == "not shown"
        link = row["Status"].find("a")
        assert link.attrs["href"] == f"../../not-shown/#{item.id}"
        assert link.text() == item.section


def test_entry_23_has_no_path_and_says_so(site: Path) -> None:
    root = page(site, "/operations/entry-23/")
    facts = {row["Fact"].text(): row["Value"] for row in as_dicts(table_with_header(root, "Fact"))}
    assert facts["Path"].find("span", cls="not-shown").text() == "not shown"
    assert facts["Path"].find("a").attrs["href"] == "../../not-shown/#entry-23-path"
    assert facts["URL template"].find("span", cls="not-shown")
    assert not any(c.text().startswith("/") for c in root.find_all("code")), "entry 23 must show no path"
    assert root.find("div", cls="catalog-path") is None


# --- versions and plans -------------------------------------------------------------------------------

def test_versions_index_lists_both_labels_with_their_plan_table(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/versions/"), "Version label"))
    assert [r["Version label"].text() for r in rows] == ["UPI_N 1.0.1", "UPI_N 1.1.0"]
    assert [r["Plan entries listed"].text() for r in rows] == ["UPI_N 1.0.0, UPI_N 3.0.0", "UPI_N 1.0.0"]  # §9
    assert {r["Plan table"].text() for r in rows} == {"UPI Plan"}  # §8
    assert {r["Value column"].text() for r in rows} == {"UPI_Nlock"}


def test_version_101_sets_its_two_plan_entries_side_by_side(site: Path) -> None:
    root = page(site, "/versions/UPI_N-1.0.1/")
    table = as_dicts(table_with_header(root, "Plan table"))[0]
    assert table["Plan table"].text() == "UPI Plan" and table["Value column"].text() == "UPI_Nlock"
    rows = as_dicts(table_with_header(root, "#"))
    assert len(rows) == 23
    for row in rows:
        # §8 rule 1: UPI_N 1.0.0 is close and UPI_N 3.0.0 unlimited for every operation, so every row differs.
        assert lock_text(row["UPI_N 1.0.0"]) == "close"
        assert lock_text(row["UPI_N 3.0.0"]) == "unlimited"
        assert row["Plans differ"].text() == "differs" and is_changed(row["Plans differ"])
    assert "Plan entries differ on 23 of 23 listing entries." in root.text()


def test_version_110_lists_one_plan_entry_and_marks_the_other_not_listed(site: Path) -> None:
    root = page(site, "/versions/UPI_N-1.1.0/")
    rows = as_dicts(table_with_header(root, "#"))
    assert list(rows[0]) == ["#", "Operation", "UPI_N 1.0.0"]
    values = {r["Operation"].text(): lock_text(r["UPI_N 1.0.0"]) for r in rows}
    assert values.pop("/transactionStatusQuery") == "close"  # §8 rule 2
    assert set(values.values()) == {"unlimited"} and len(values) == 22
    unlisted = [p for p in root.find_all("p") if "Not listed under this label" in p.text()]
    assert unlisted and unlisted[0].find("span", cls="not-listed") and "UPI_N 3.0.0" in unlisted[0].text()


def test_plan_300_is_not_listed_under_110(site: Path) -> None:
    root = page(site, "/plans/UPI_N-3.0.0/")
    rows = as_dicts(table_with_header(root, "#"))
    assert len(rows) == 23
    for row in rows:
        assert lock_text(row["UPI_N 1.0.1"]) == "unlimited"
        assert lock_text(row["UPI_N 1.1.0"]) == "not listed"
        assert not row["UPI_N 1.1.0"].find_all("span", cls="not-shown")
    items = {li.text().split(":", 1)[0]: li for li in root.find_all("li")}
    assert "UPI_N 1.1.0" in items["Not listed under"].text()
    assert "UPI_N 1.0.1" in items["Listed under"].text()


def test_plan_100_follows_its_values_across_labels(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/plans/UPI_N-1.0.0/"), "#"))
    for row, entry in zip(rows, catalog().entries):
        assert lock_text(row["UPI_N 1.0.1"]) == "close"
        expected = "close" if entry.path == "/transactionStatusQuery" else "unlimited"
        assert lock_text(row["UPI_N 1.1.0"]) == expected
        assert is_changed(row["UPI_N 1.1.0"]) == (expected != "close")


# --- compare -------------------------------------------------------------------------------------------

def test_compare_page_summarises_before_listing_changes(site: Path) -> None:
    root = page(site, "/compare/UPI_N-1.0.1...UPI_N-1.1.0/")
    headings = [h.text().rstrip("¶") for h in root.find_all("h2")]
    assert headings.index("Summary") < headings.index("Every change")
    summary = {r["Change"].text(): r for r in as_dicts(table_with_header(root, "Change"))}
    assert summary["Plan entries added"]["Count"].text() == "0"
    removed = summary["Plan entries removed"]
    assert removed["Count"].text() == "1" and "UPI_N 3.0.0" in removed["Detail"].text()  # §9
    assert summary["Values changed close → unlimited"]["Count"].text() == "22"  # §8 rule 2
    assert [k for k in summary if k.startswith("Values changed")] == ["Values changed close → unlimited"]
    assert summary["Values unchanged"]["Count"].text() == "1"


def test_compare_page_lists_every_change_with_a_link(site: Path) -> None:
    root = page(site, "/compare/UPI_N-1.0.1...UPI_N-1.1.0/")
    rows = as_dicts(table_with_header(root, "#"))  # the first such table: the changes
    assert len(rows) == 22
    assert "/transactionStatusQuery" not in [r["Operation"].text() for r in rows]
    for row in rows:
        entry = catalog().entries[int(row["#"].text()) - 1]
        assert row["Operation"].find("a").attrs["href"] == f"../../operations/{entry.slug}/"
        assert (lock_text(row["UPI_N 1.0.1"]), lock_text(row["UPI_N 1.1.0"])) == ("close", "unlimited")
        assert row["Plan entry"].text() == "UPI_N 1.0.0"
    # Unchanged rows are folded away in a closed <details>.
    folded = root.find("details")
    assert folded is not None and "open" not in folded.attrs
    unchanged = as_dicts(table_with_header(folded, "#"))
    assert [(r["Operation"].text(), lock_text(r["Value"])) for r in unchanged] == [("/transactionStatusQuery", "close")]


def test_compare_index_links_each_consecutive_pair(site: Path) -> None:
    rows = as_dicts(table_with_header(page(site, "/compare/"), "From"))
    assert [(r["From"].text(), r["To"].text()) for r in rows] == [("UPI_N 1.0.1", "UPI_N 1.1.0")]
    assert rows[0]["Values changed"].find("a").attrs["href"] == "UPI_N-1.0.1...UPI_N-1.1.0/"


# --- matrix, register, legend ---------------------------------------------------------------------------

def test_matrix_has_every_cell_as_text(site: Path) -> None:
    cat = catalog()
    rows = table_with_header(page(site, "/matrix/"), "#")
    assert len(rows) == 1 + len(cat.entries)
    columns = [(v, p) for v in cat.versions for p in v.plans]
    assert len(rows[0]) == 2 + len(columns)
    for row, entry in zip(rows[1:], cat.entries):
        cells = row[2:]
        for cell, (v, p) in zip(cells, columns):
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
        if not root.find_all("span", cls="lock") or path.parent.name == "legend":
            continue
        pages_with_values += 1
        depth = len(path.relative_to(site).parts) - 1
        legend = "../" * depth + "legend/" if depth else "legend/"
        assert legend in {a.attrs.get("href") for a in root.find_all("a")}, f"{path} does not link to the legend"
        assert "their meaning" in root.text() or "mean is not shown" in root.text(), f"{path} lacks the legend note"
    assert pages_with_values >= 23 + 2 + 2 + 1 + 1 + 1


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
    assert marks >= 23 * 9


def test_not_listed_and_not_shown_look_different(site: Path) -> None:
    css = (site / "assets" / "catalog.css").read_text(encoding="utf-8")
    rules = dict(re.findall(r"\.(not-listed|not-shown)\s*\{([^}]*)\}", css))
    assert set(rules) == {"not-listed", "not-shown"} and rules["not-listed"] != rules["not-shown"]


# --- the download -----------------------------------------------------------------------------------------

def test_catalog_json_has_the_documented_shape(site: Path) -> None:
    data = json.loads((site / "downloads" / "catalog.json").read_text(encoding="utf-8"))
    ops = data["operations"]
    assert len(ops) == 23
    for op in ops:
        assert {"position", "slug", "method", "path", "area"} <= op.keys()
    assert ops[22]["path"] is None and ops[22]["slug"] == "entry-23"
    assert ops[19]["path"] == "/meRefundServerReq/v2" and ops[19]["slug"] == "meRefundServerReq-v2"
    versions = {v["label"]: v for v in data["versions"]}
    assert list(versions) == ["UPI_N 1.0.1", "UPI_N 1.1.0"]
    for v in versions.values():
        assert {"label", "slug", "plan_table", "value_column", "plans"} <= v.keys()
        assert v["plan_table"] == "UPI Plan" and v["value_column"] == "UPI_Nlock"
        for p in v["plans"]:
            assert {"name", "slug", "values"} <= p.keys()
            assert [x["position"] for x in p["values"]] == list(range(1, 24))
            assert p["values"][22]["path"] is None
    plans_110 = {p["name"]: p for p in versions["UPI_N 1.1.0"]["plans"]}
    assert list(plans_110) == ["UPI_N 1.0.0"]
    assert [x["value"] for x in plans_110["UPI_N 1.0.0"]["values"] if x["value"] == "close"] == ["close"]
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
        for url in re.findall(r"(?:url\(|@import)\s*['\"]?((?:https?:)?//[^'\")\s;]+)", css.read_text(encoding="utf-8")):
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
    for url in ("/operations/getAccList/", "/operations/entry-23/", "/compare/UPI_N-1.0.1...UPI_N-1.1.0/",
                "/plans/UPI_N-3.0.0/", "/matrix/"):
        assert len(primary_nav_links(html_file(site, url))) == len(home), url
    assert not any("operations/getAccList" in href for href in home)


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
    for page in ("operations/", "matrix/", "versions/UPI_N-1.0.1/", "plans/UPI_N-3.0.0/"):
        assert page in by_page, page
        text = by_page[page]
        assert "/logIntent" not in text and "/getAccList" not in text, (page, text)
        assert text.count("unlimited") <= 1, (page, text)  # the legend note names the value once
    op = by_page["operations/logIntent/"]
    assert "/logIntent" in op  # its own facts are indexed
    assert "UPI_N 1.1.0" not in op  # its history table is not
    assert "UPI_N 3.0.0" in by_page["plans/UPI_N-3.0.0/"]


def test_theme_features_are_on(site: Path) -> None:
    doc = parse_file(site / "index.html")
    config = json.loads(doc.find("script", id="__config").text())
    for feature in ("navigation.instant", "content.code.copy"):
        assert feature in config["features"]
    assert "search" in config and config["search"]
    assert doc.find("form", cls="md-header__option") is not None or doc.find("input", cls="md-option"), \
        "light/dark toggle missing"
    assert doc.find("a", cls="headerlink") is not None, "heading permalinks missing"
