"""The catalogue states what the source document states: its facts, restated here by hand.

Every constant below is copied from the source document (/work/shared/seed/000_d2156574dfbb8fb0.txt),
section by section, and never read from the catalogue YAML: if the catalogue drifts from the source,
these tests fail. Only tests marked `real_catalog` read the real catalogue (tests/guards.py fails any other
that does), and every other test runs on fixture catalogues under tests/, so a legitimate edit of catalog/ (a
label added, a value changed) fails here and nowhere else (tests/catalog/test_catalog_edits.py shows it).

A failure says, as a reviewer would, how the catalogue now differs from the source ("the catalogue lists
version label X, which the source does not show"; "value of /p under L / P is close, the source says
unlimited"). When the source itself changed, update the constants below with the section they come from.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.catalog.model import Catalog, label_slug
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import catalog_data
from catalog_docs.errors import CatalogInvalid

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "catalog"
pytestmark = pytest.mark.real_catalog

# The document's title (its first heading) and its numbered sections' titles, §1 first.
DOCUMENT_TITLE = "Payment Interface Service: Operation Catalogue and Per-Plan Lock Settings"
SECTION_TITLES = (
    "What the service does",  # §1
    "Resources and their fields",  # §2
    "States and transitions",  # §3
    "Endpoints",  # §4
    "Authentication",  # §5
    "Events",  # §6
    "Errors",  # §7
    "Limits",  # §8
    "Versioning",  # §9
)
# §4: the endpoint table, in order. All operations are POST.
PATHS_IN_ORDER = (
    "/checkVirtualAddressME",
    "/getListAccService",
    "/getUnspamVPA",
    "/logIntent",
    "/mePayServerReq",
    "/mePayServerReqImp",
    "/meRefundServerReq",
    "/meTransCollectSvc",
    "/meTransStatusQuery",
    "/meTransactionHistoryWeb",
    "/onBoardSubMerchant",
    "/transactionStatusQuery",
    "/v1/getSpamVPAList",
    "/mandate/customerIdentity",
    "/getAccList",
    "/collectPreApproveConfWeb",
    "/v2/mePayServerReqImps",
    "/updateDeviceWithOTP",
    "/updateProfileWithOtp",
    "/meRefundServerReq/v2",
    "/raiseComplaint",
    "/checkTransactionStatus",
)
# §4: "each listing has 23 entries"; the 23rd has no path in the source.
LISTING_SIZE = 23
LISTING: tuple[str | None, ...] = (*PATHS_IN_ORDER, None)
# §9: which paths carry a version marker, and where.
MARKERS = {
    "/v1/getSpamVPAList": ("start", "v1"),
    "/v2/mePayServerReqImps": ("start", "v2"),
    "/meRefundServerReq/v2": ("end", "v2"),
}
# §9 table: version labels in order, with the plan entries listed under each.
PLANS_BY_LABEL = {
    "UPI_N 1.0.1": ("UPI_N 1.0.0", "UPI_N 3.0.0"),
    "UPI_N 1.1.0": ("UPI_N 1.0.0",),
}
# §8: the plan table and its value column.
PLAN_TABLE_TITLE = "UPI Plan"
VALUE_COLUMN = "UPI_Nlock"
# §8 table and rules 1-2.
ALL_CLOSE = ("close",) * LISTING_SIZE
ALL_UNLIMITED = ("unlimited",) * LISTING_SIZE
ONLY_STATUS_QUERY_CLOSE = tuple(
    "close" if i < len(PATHS_IN_ORDER) and PATHS_IN_ORDER[i] == "/transactionStatusQuery" else "unlimited"
    for i in range(LISTING_SIZE)
)
VALUES = {
    ("UPI_N 1.0.1", "UPI_N 1.0.0"): ALL_CLOSE,
    ("UPI_N 1.0.1", "UPI_N 3.0.0"): ALL_UNLIMITED,
    ("UPI_N 1.1.0", "UPI_N 1.0.0"): ONLY_STATUS_QUERY_CLOSE,
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOG)


def _name(position: int, path: str | None) -> str:
    return path if path is not None else f"entry {position} (no path)"


def _report(differences: list[str]) -> str:
    """How a reviewer reads the differences: one per line, with what to do about them."""
    return ("the catalogue differs from the source document:\n  - " + "\n  - ".join(differences)
            + "\nIf the source changed, restate its new facts in tests/catalog/test_source_facts.py "
              "(with their section).")


def _check(differences: list[str]) -> None:
    assert not differences, _report(differences)


# --- how the catalogue differs from the source, in a reviewer's words ----------------------------------


def listing_differences(catalog: Catalog) -> list[str]:
    """§4: the listing, its order, its method and the entry without a path."""
    out = []
    got = [e.path for e in catalog.entries]
    if len(got) != LISTING_SIZE:
        out.append(f"the catalogue has {len(got)} listing entries, the source shows {LISTING_SIZE} (§4)")
    for path in got:
        if path is not None and path not in PATHS_IN_ORDER:
            out.append(f"the catalogue lists the path {path}, which the source does not show (§4)")
    for path in PATHS_IN_ORDER:
        if path not in got:
            out.append(f"the source shows the path {path}, which the catalogue does not list (§4)")
    if not out:
        for position, (mine, theirs) in enumerate(zip(got, LISTING, strict=False), start=1):
            if mine != theirs:
                out.append(f"listing entry {position} is {_name(position, mine)} in the catalogue, "
                           f"the source puts {_name(position, theirs)} there (§4)")
    for e in catalog.entries:
        if e.method != "POST":
            out.append(f"{_name(e.position, e.path)} is {e.method} in the catalogue, the source says POST (§4 rule 1)")
    return out


def marker_differences(catalog: Catalog) -> list[str]:
    """§9: where a version marker sits in a path; an entry without a path has none we can see."""
    out = []
    for e in catalog.entries:
        if e.path is None:
            expected: tuple[str, str | None] = ("not-shown", None)
        elif e.path in PATHS_IN_ORDER:
            expected = MARKERS.get(e.path, ("none", None))
        else:
            continue  # a path the source does not show is reported by listing_differences
        found = (e.version_marker.at, e.version_marker.token)
        if found != expected:
            out.append(f"the catalogue gives {_name(e.position, e.path)} the version marker {_marker(found)}, "
                       f"the source shows {_marker(expected)} (§9)")
    return out


def _marker(marker: tuple[str, str | None]) -> str:
    at, token = marker
    return {"none": "none", "not-shown": "'not shown'"}.get(at, f"{token} at the {at} of the path")


def label_differences(catalog: Catalog) -> list[str]:
    """§9: the version labels in order, the plan entries each lists; §8: the plan table of each label."""
    out = []
    labels = [v.label for v in catalog.versions]
    for label in labels:
        if label not in PLANS_BY_LABEL:
            out.append(f"the catalogue lists version label {label}, which the source does not show (§9)")
    for label in PLANS_BY_LABEL:
        if label not in labels:
            out.append(f"the source shows version label {label}, which the catalogue does not list (§9)")
    shared = [lb for lb in labels if lb in PLANS_BY_LABEL]
    if shared != [lb for lb in PLANS_BY_LABEL if lb in labels]:
        out.append(f"the catalogue orders the version labels {', '.join(shared)}; "
                   f"the source orders them {', '.join(PLANS_BY_LABEL)} (§9)")
    for version in catalog.versions:
        if version.label not in PLANS_BY_LABEL:
            continue
        plans = [p.name for p in version.plans]
        expected = PLANS_BY_LABEL[version.label]
        for name in plans:
            if name not in expected:
                out.append(f"the catalogue lists plan entry {name} under {version.label}, "
                           f"which the source does not show there (§9)")
        for name in expected:
            if name not in plans:
                out.append(f"the source lists plan entry {name} under {version.label}, "
                           f"which the catalogue does not (§9)")
        if version.plan_table != PLAN_TABLE_TITLE:
            out.append(f"the plan table of {version.label} is titled {version.plan_table!r} in the catalogue, "
                       f"the source says {PLAN_TABLE_TITLE!r} (§8)")
        if version.value_column != VALUE_COLUMN:
            out.append(f"the value column of {version.label} is {version.value_column!r} in the catalogue, "
                       f"the source says {VALUE_COLUMN!r} (§8)")
    return out


def document_differences(catalog: Catalog) -> list[str]:
    """The document's title and its sections, each under its own title: what every citation is checked against."""
    doc = catalog.source_document
    out = []
    if doc.title != DOCUMENT_TITLE:
        out.append(f"the catalogue titles the source document {doc.title!r}, the source's title is "
                   f"{DOCUMENT_TITLE!r}")
    got = [(s.number, s.title) for s in doc.sections]
    expected = list(enumerate(SECTION_TITLES, start=1))
    for number, title in got:
        if number > len(SECTION_TITLES):
            out.append(f"the catalogue lists section §{number} {title!r}, which the source does not have")
        elif title != SECTION_TITLES[number - 1]:
            out.append(f"the catalogue titles §{number} {title!r}, the source titles it {SECTION_TITLES[number - 1]!r}")
    out += [f"the source has §{n} {t!r}, which the catalogue does not list" for n, t in expected
            if n not in {g for g, _ in got}]
    return out


def value_differences(catalog: Catalog) -> list[str]:
    """§8: every lock value under every version label and plan entry the source shows."""
    out = []
    for (label, plan), expected in VALUES.items():
        version = catalog.version(label)
        entry = version.plan(plan) if version is not None else None
        if entry is None:
            continue  # a label or plan entry missing altogether is reported by label_differences
        for i, (mine, theirs) in enumerate(zip(entry.values, expected, strict=False), start=1):
            if mine != theirs:
                path = catalog.entries[i - 1].path if i <= len(catalog.entries) else None
                out.append(f"value of {_name(i, path)} under {label} / {plan} is {mine}, the source says {theirs} (§8)")
        if len(entry.values) != len(expected):
            out.append(f"{label} / {plan} has {len(entry.values)} values in the catalogue, "
                       f"the source shows {len(expected)} (§8)")
    return out


# --- the restated facts, and the catalogue against them -------------------------------------------------


def test_the_restated_facts_agree_with_each_other() -> None:
    assert len(PATHS_IN_ORDER) == 22 == len(set(PATHS_IN_ORDER))
    assert ONLY_STATUS_QUERY_CLOSE.count("close") == 1 and ONLY_STATUS_QUERY_CLOSE.count("unlimited") == 22
    assert {label for label, _ in VALUES} == set(PLANS_BY_LABEL)
    assert sorted(VALUES) == sorted((label, plan) for label, plans in PLANS_BY_LABEL.items() for plan in plans)


def test_the_source_document_is_named_with_its_title_and_its_sections_titles(catalog: Catalog) -> None:
    _check(document_differences(catalog))


def test_the_listing_is_the_one_of_section_4(catalog: Catalog) -> None:
    _check(listing_differences(catalog))
    # The same facts, read directly, so the comparison above cannot pass on its own mistake.
    assert [e.position for e in catalog.entries] == list(range(1, LISTING_SIZE + 1))
    assert tuple(e.path for e in catalog.entries) == LISTING
    assert catalog.distinct_paths == 22


def test_the_entry_without_a_path_is_entry_23(catalog: Catalog) -> None:
    pathless = [e for e in catalog.entries if e.path is None]
    assert [e.position for e in pathless] == [23], (
        f"the source has exactly one listing entry without a path, entry 23; the catalogue has "
        f"{[e.position for e in pathless] or 'none'}")
    assert (pathless[0].slug, pathless[0].key) == ("entry-23", "entry-23")


def test_version_markers_are_those_of_section_9(catalog: Catalog) -> None:
    _check(marker_differences(catalog))


def test_version_labels_and_their_plan_entries(catalog: Catalog) -> None:
    _check(label_differences(catalog))
    # §8: each published version label carries one plan table; §9: two plan entries under UPI_N 1.0.1, one
    # under UPI_N 1.1.0.
    assert catalog.plan_table_count == len(PLANS_BY_LABEL)
    assert catalog.plan_listing_count == sum(len(p) for p in PLANS_BY_LABEL.values()) == 3


def test_every_value_under_every_label_and_plan_entry(catalog: Catalog) -> None:
    _check(value_differences(catalog))


def test_areas_are_inferred_for_every_entry_with_a_path_and_absent_for_entry_23(catalog: Catalog) -> None:
    operations = catalog_data(catalog)["operations"]
    for entry, op in zip(catalog.entries, operations, strict=True):
        if entry.path is None:
            assert entry.area is None and op["area"] is None and not op["area_inferred"], (
                f"the catalogue gives {_name(entry.position, None)} an area; it has no name to infer one from")
        else:
            assert entry.area is not None, f"the catalogue gives {entry.path} no area, though §1 names them all"
            assert op["area"] == entry.area.id and op["area_inferred"] is True


def test_an_area_not_marked_inferred_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "catalog"
    shutil.copytree(CATALOG, copy)
    listing = copy / "listing.yaml"
    text = listing.read_text(encoding="utf-8")
    first = "area: {id: vpa-spam, inferred: true}"
    assert first in text
    listing.write_text(text.replace(first, "area: {id: vpa-spam, inferred: false}", 1), encoding="utf-8")
    with pytest.raises(CatalogInvalid) as info:
        load_catalog(copy)
    assert [p.key_path for p in info.value.problems] == ["listing.entries[1].area.inferred"]


def test_check_on_the_real_catalogue_prints_the_counts_of_the_source(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "--catalog", str(CATALOG)])
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    assert out.err == ""
    lines = out.out.splitlines()
    assert len(lines) == 1
    listings = sum(map(len, PLANS_BY_LABEL.values()))
    counts = {"listing entries": (LISTING_SIZE, "§4"), "distinct paths": (len(PATHS_IN_ORDER), "§4"),
              "version labels": (len(PLANS_BY_LABEL), "§9"), "plan tables": (len(PLANS_BY_LABEL), "§8"),
              "plan entry listings": (listings, "§9"), "plan entries": (2, "§9")}
    differences = []
    for what, (n, section) in counts.items():
        found = re.search(rf"\b(\d+) {what}\b", lines[0])
        if found is None or int(found.group(1)) != n:
            said = f"{found.group(1)} {what}" if found else f"no count of {what}"
            differences.append(f"`catalog-docs check` counts {said}, the source shows {n} ({section})")
    assert not differences, _report(differences) + f"\n`catalog-docs check` printed: {lines[0]}"


# --- the messages above, as a reviewer reads them ----------------------------------------------------------


def _edited(tmp_path: Path, edits: list[tuple[str, str, str]], new_files: dict[str, str] | None = None) -> Catalog:
    """A copy of the real catalogue with each (files, old, new) replacement made, loaded (files: a glob)."""
    copy = tmp_path / "catalog"
    shutil.copytree(CATALOG, copy)
    for pattern, old, new in edits:
        paths = sorted(copy.glob(pattern))
        assert paths and all(old in p.read_text(encoding="utf-8") for p in paths), (pattern, old)
        for path in paths:
            path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    for rel, text in (new_files or {}).items():
        (copy / rel).write_text(text, encoding="utf-8")
    return load_catalog(copy)


def new_differences(tmp_path: Path, edited: Catalog, differences: Callable[[Catalog], list[str]]) -> list[str]:
    """What an edit adds to the differences the catalogue already has (none, unless catalog/ itself drifted:
    these tests check the wording, and must not fail a second time for a drift the tests above report)."""
    before = set(differences(load_catalog(CATALOG)))
    return [d for d in differences(edited) if d not in before]


def invented_label(catalog: Catalog) -> tuple[str, str]:
    """The catalogue's last version label, and a label made from it that no real catalogue takes next: the next real
    label (`UPI_N 1.2.0`, say) must be addable to catalog/ without these tests meeting a label of the same name."""
    last = catalog.versions[-1].label
    new = f"{last} test-made"
    assert new not in {v.label for v in catalog.versions}
    return last, new


def test_a_label_added_is_reported_as_one_the_source_does_not_show(tmp_path: Path) -> None:
    real = load_catalog(CATALOG)
    last, new = invented_label(real)
    source = (CATALOG / "versions" / f"{label_slug(last)}.yaml").read_text(encoding="utf-8")
    catalog = _edited(tmp_path, [("service.yaml", f"  - {last}\n", f"  - {last}\n  - {new}\n")],
                      {f"versions/{label_slug(new)}.yaml": source.replace(f"label: {last}\n", f"label: {new}\n")})
    assert new_differences(tmp_path, catalog, label_differences) == [
        f"the catalogue lists version label {new}, which the source does not show (§9)"]
    for other in (value_differences, listing_differences, marker_differences):
        assert new_differences(tmp_path, catalog, other) == []


def test_the_invented_label_is_not_the_next_real_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Once the likely next label (1.1.0 -> 1.2.0) is in catalog/, the tests above still invent a label of their own."""
    last = load_catalog(CATALOG).versions[-1].label
    bumped = re.sub(r"(\d+)\.(\d+)\.(\d+)$", lambda m: f"{m[1]}.{int(m[2]) + 1}.0", last)
    following = bumped if bumped != last else f"{last} next"  # a last label that is no version number
    copy = tmp_path / "catalog"
    shutil.copytree(CATALOG, copy)
    assert cli.main(["new-label", following, "--from", last, "--catalog", str(copy)]) == 0, capsys.readouterr()
    grown = load_catalog(copy)
    assert grown.versions[-1].label == following
    invented = invented_label(grown)[1]
    assert invented not in {v.label for v in grown.versions}


def test_a_value_changed_is_reported_with_both_values(tmp_path: Path) -> None:
    catalog = _edited(tmp_path, [("versions/UPI_N-1.1.0.yaml", "/getAccList: unlimited", "/getAccList: close")])
    assert new_differences(tmp_path, catalog, value_differences) == [
        "value of /getAccList under UPI_N 1.1.0 / UPI_N 1.0.0 is close, the source says unlimited (§8)"]
    for other in (label_differences, listing_differences):
        assert new_differences(tmp_path, catalog, other) == []


def test_a_plan_entry_dropped_and_a_path_renamed_are_reported(tmp_path: Path) -> None:
    text = (CATALOG / "versions" / "UPI_N-1.0.1.yaml").read_text(encoding="utf-8")
    start = text.index("  UPI_N 3.0.0:")
    catalog = _edited(tmp_path, [
        ("versions/UPI_N-1.0.1.yaml", text[start:], ""),
        ("listing.yaml", "path: /logIntent\n", "path: /logIntention\n"),
        ("versions/*.yaml", "/logIntent:", "/logIntention:"),
    ])
    assert new_differences(tmp_path, catalog, label_differences) == [
        "the source lists plan entry UPI_N 3.0.0 under UPI_N 1.0.1, which the catalogue does not (§9)"]
    assert new_differences(tmp_path, catalog, listing_differences) == [
        "the catalogue lists the path /logIntention, which the source does not show (§4)",
        "the source shows the path /logIntent, which the catalogue does not list (§4)"]


def test_a_section_retitled_is_reported_with_both_titles(tmp_path: Path) -> None:
    catalog = _edited(tmp_path, [("service.yaml", "{number: 4, title: Endpoints}", "{number: 4, title: Operations}")])
    assert new_differences(tmp_path, catalog, document_differences) == [
        "the catalogue titles §4 'Operations', the source titles it 'Endpoints'"]


def test_every_operation_twin_states_the_values_of_the_source(catalog: Catalog) -> None:
    """Each operation's Markdown twin (site/twins.py) gives, under each label, the value the source gives for each
    plan entry that label lists, and *not listed* for the one it does not; entry 23's path is *not shown*."""
    from catalog_docs.site.render import render_pages
    from catalog_docs.site.twins import TWIN_PREFIX

    files = render_pages(catalog, workers=1)
    plans = sorted({plan for listed in PLANS_BY_LABEL.values() for plan in listed})
    differences = []
    for entry in catalog.entries:
        twin = files[f"{TWIN_PREFIX}operations/{entry.slug}/index.md"]
        rows = {cells[0]: cells[1:] for line in twin.splitlines() if line.startswith("| [")
                for cells in [[re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", c).strip()
                               for c in line.strip().strip("|").split(" | ")]]}
        header = next(line for line in twin.splitlines() if line.startswith("| Version label |"))
        columns = [c.strip() for c in header.strip().strip("|").split(" | ")][1:]
        name = _name(entry.position, entry.path)
        for label, listed in PLANS_BY_LABEL.items():
            for plan in plans:
                cell = rows.get(label, [None] * len(columns))[columns.index(plan)] if plan in columns else None
                want = VALUES[(label, plan)][entry.position - 1] if plan in listed else "*not listed*"
                if cell is None or cell.split(" (changed")[0] != want:
                    differences.append(f"the twin of {name} gives {cell!r} under {label} / {plan}; the source: {want}")
        if entry.path is None and "| Path | *not shown* (" not in twin:
            differences.append(f"the twin of {name} does not say its path is not shown")
    _check(differences)
