"""The catalogue states what the source document states: its facts, restated here by hand.

Every constant below is copied from the source document (/work/shared/seed/000_d2156574dfbb8fb0.txt),
section by section, and never read from the catalogue YAML: if the catalogue drifts from the source,
these tests fail.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.errors import CatalogInvalid
from catalog_docs.export import catalog_data
from catalog_docs.model import Catalog
from catalog_docs.validate import load_catalog

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "catalog"

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


def test_the_restated_facts_agree_with_each_other() -> None:
    assert len(PATHS_IN_ORDER) == 22 == len(set(PATHS_IN_ORDER))
    assert ONLY_STATUS_QUERY_CLOSE.count("close") == 1 and ONLY_STATUS_QUERY_CLOSE.count("unlimited") == 22


def test_the_listing_has_23_entries_all_post(catalog: Catalog) -> None:
    assert len(catalog.entries) == LISTING_SIZE
    assert [e.position for e in catalog.entries] == list(range(1, LISTING_SIZE + 1))
    assert {e.method for e in catalog.entries} == {"POST"}


def test_the_22_paths_come_in_source_order(catalog: Catalog) -> None:
    assert tuple(e.path for e in catalog.entries[:22]) == PATHS_IN_ORDER
    assert catalog.distinct_paths == 22


def test_entry_23_has_no_path(catalog: Catalog) -> None:
    last = catalog.entries[22]
    assert last.position == 23
    assert last.path is None
    assert last.slug == "entry-23"
    assert last.key == "entry-23"


@pytest.mark.parametrize("position", range(1, LISTING_SIZE + 1))
def test_version_markers_are_those_of_section_9(catalog: Catalog, position: int) -> None:
    entry = catalog.entries[position - 1]
    if position == 23:
        assert (entry.version_marker.at, entry.version_marker.token) == ("not-shown", None)
    else:
        path = PATHS_IN_ORDER[position - 1]
        at, token = MARKERS.get(path, ("none", None))
        assert (entry.version_marker.at, entry.version_marker.token) == (at, token)


def test_version_labels_and_their_plan_entries(catalog: Catalog) -> None:
    assert [v.label for v in catalog.versions] == list(PLANS_BY_LABEL)
    for version in catalog.versions:
        assert tuple(p.name for p in version.plans) == PLANS_BY_LABEL[version.label]
    assert catalog.plan_table_count == 2  # §8: each published version label carries one plan table
    assert catalog.plan_listing_count == 3  # §9: two plan entries under UPI_N 1.0.1, one under UPI_N 1.1.0


def test_every_plan_table_is_titled_upi_plan_with_the_upi_nlock_column(catalog: Catalog) -> None:
    for version in catalog.versions:
        assert version.plan_table == PLAN_TABLE_TITLE
        assert version.value_column == VALUE_COLUMN


@pytest.mark.parametrize(("label", "plan"), list(VALUES), ids=[f"{lb}/{p}" for lb, p in VALUES])
def test_every_value_under_every_label_and_plan_entry(catalog: Catalog, label: str, plan: str) -> None:
    version = catalog.version(label)
    assert version is not None
    entry = version.plan(plan)
    assert entry is not None
    assert entry.values == VALUES[(label, plan)]


def test_plan_entry_3_0_0_is_not_listed_under_1_1_0(catalog: Catalog) -> None:
    version = catalog.version("UPI_N 1.1.0")
    assert version is not None and version.plan("UPI_N 3.0.0") is None


def test_areas_are_inferred_for_every_entry_with_a_path_and_absent_for_entry_23(catalog: Catalog) -> None:
    operations = catalog_data(catalog)["operations"]
    for entry, op in zip(catalog.entries, operations, strict=True):
        if entry.path is None:
            assert entry.area is None and op["area"] is None and not op["area_inferred"]
        else:
            assert entry.area is not None, entry.path
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


def test_check_on_the_real_catalogue_prints_one_line_of_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "--catalog", str(CATALOG)])
    out = capsys.readouterr()
    assert code == 0
    assert out.err == ""
    lines = out.out.splitlines()
    assert len(lines) == 1
    for count in ("23 listing entries", "22 distinct paths", "2 version labels", "2 plan tables",
                  "3 plan entry listings of 2 plan entries"):
        assert count in lines[0]
