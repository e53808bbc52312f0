"""The comparison stage: typed change records with stable kebab-case kinds, on the real and fake catalogues."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog_docs.compare import CHANGE_KINDS, Side, compare_catalogs, compare_sides, parse_side
from catalog_docs.errors import CatalogDocsError
from catalog_docs.model import Catalog
from catalog_docs.validate import load_catalog
from fake_catalogs import FAKE_SPECS, write_catalog

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def real() -> Catalog:
    return load_catalog(ROOT / "catalog")


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return load_catalog(write_catalog(tmp_path_factory.mktemp("fake") / "catalog", FAKE_SPECS["plans-come-and-go"]))


def _sides(catalog: Catalog, a: str, b: str):  # noqa: ANN202 - a Comparison
    return compare_sides(catalog, parse_side(a, catalog), parse_side(b, catalog))


def test_kinds_are_the_documented_kebab_case_ids() -> None:
    # Consumers match on these strings: renaming one is a breaking change.
    assert CHANGE_KINDS == (
        "value-changed", "plan-added", "plan-removed", "entry-added", "entry-removed", "entry-changed",
        "label-added", "label-removed", "not-shown-added", "not-shown-removed", "not-shown-changed",
    )


def test_real_catalogue_1_0_1_to_1_1_0(real: Catalog) -> None:
    # The source (§8 rule 2): UPI_N 3.0.0 is gone, 22 values of UPI_N 1.0.0 go close -> unlimited,
    # every entry but /transactionStatusQuery.
    cmp = _sides(real, "UPI_N 1.0.1", "UPI_N 1.1.0")
    assert cmp.plans_removed == ("UPI_N 3.0.0",) and cmp.plans_added == ()
    changed = cmp.by_kind("value-changed")
    assert len(changed) == 22
    assert {(c.plan, c.from_value, c.to_value) for c in changed} == {("UPI_N 1.0.0", "close", "unlimited")}
    assert [e.position for e in real.entries if e.path != "/transactionStatusQuery"] == [c.position for c in changed]
    assert [(u.path, u.value) for u in cmp.unchanged] == [("/transactionStatusQuery", "close")]
    assert cmp.transitions() == [("close", "unlimited", 22)]


def test_plans_added_and_removed_between_labels(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 1.0", "FAKE 2.0")
    assert [(c.kind, c.label, c.plan) for c in cmp.changes if c.kind != "value-changed"] == [
        ("plan-removed", "FAKE 1.0", "PLAN B"), ("plan-added", "FAKE 2.0", "PLAN C")]
    assert cmp.plans_added == ("PLAN C",) and cmp.plans_removed == ("PLAN B",)
    # PLAN A: ccuu -> cucu
    assert [(c.position, c.from_value, c.to_value) for c in cmp.by_kind("value-changed")] == [
        (2, "close", "unlimited"), (3, "unlimited", "close")]
    assert [u.position for u in cmp.unchanged] == [1, 4]


def test_value_changes_are_grouped_by_transition(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 2.0", "FAKE 3.0")  # PLAN C cccc -> uccu, PLAN A unchanged, PLAN B added
    assert cmp.transitions() == [("close", "unlimited", 2)]
    assert cmp.plans_added == ("PLAN B",)


def test_two_plans_of_different_names(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 1.0:PLAN A", "FAKE 2.0:PLAN C")
    assert cmp.from_side == "FAKE 1.0:PLAN A" and cmp.to_side == "FAKE 2.0:PLAN C"
    assert {c.plan for c in cmp.by_kind("value-changed")} == {"PLAN A -> PLAN C"}
    assert [c.position for c in cmp.by_kind("value-changed")] == [3, 4]


def test_a_side_compared_with_itself_has_no_differences(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 3.0", "FAKE 3.0")
    assert not cmp.has_differences and len(cmp.unchanged) == 3 * 4


@pytest.mark.parametrize(("text", "message"), [
    ("NOPE", "unknown version label 'NOPE'; valid labels: 'FAKE 1.0', 'FAKE 2.0', 'FAKE 3.0'"),
    ("FAKE 2.0:PLAN B", "plan entry 'PLAN B' is not listed under 'FAKE 2.0'; listed there: 'PLAN A', 'PLAN C'"),
    ("FAKE 1.0:", "expected LABEL:PLAN with a plan entry after ':'; valid here: 'FAKE 1.0:PLAN A', 'FAKE 1.0:PLAN B'"),
    ("", "'' is not LABEL or LABEL:PLAN; valid labels:"),
    ("FAKE 1.0:PLAN A:x", "is not LABEL or LABEL:PLAN"),
])
def test_bad_sides_name_the_problem_and_the_valid_choices(fake: Catalog, text: str, message: str) -> None:
    with pytest.raises(CatalogDocsError) as info:
        parse_side(text, fake)
    assert message in str(info.value)


def test_a_label_cannot_be_compared_with_a_plan(fake: Catalog) -> None:
    with pytest.raises(CatalogDocsError, match="not one with the other"):
        compare_sides(fake, Side(label="FAKE 1.0"), Side(label="FAKE 2.0", plan="PLAN A"))


def test_catalogue_against_catalogue(tmp_path: Path) -> None:
    old = load_catalog(write_catalog(tmp_path / "old", {
        "entries": ["/fakeAlpha", "/fakeBeta", "/fakeGamma"],
        "labels": {"FAKE 1.0": {"PLAN A": "ccc"}, "FAKE 2.0": {"PLAN A": "uuu"}},
        "not_shown": {"fake-kept": "Kept.", "fake-edited": "Before.", "fake-dropped": "Dropped."},
    }))
    new = load_catalog(write_catalog(tmp_path / "new", {
        "entries": ["/fakeAlpha", "/fakeGamma", "/fakeDelta"],
        "labels": {"FAKE 1.0": {"PLAN A": "cuc", "PLAN B": "uuu"}, "FAKE 3.0": {"PLAN A": "ccc"}},
        "not_shown": {"fake-kept": "Kept.", "fake-edited": "After.", "fake-new": "New."},
    }))
    cmp = compare_catalogs(old, new, "main", "working tree")
    got = [(c.kind, c.label, c.plan, c.path, c.from_value, c.to_value) for c in cmp.changes]
    assert got == [
        ("entry-removed", None, None, "/fakeBeta", None, None),
        ("entry-changed", None, None, "/fakeGamma", None, None),  # moved from position 3 to 2
        ("entry-added", None, None, "/fakeDelta", None, None),
        ("label-removed", "FAKE 2.0", None, None, None, None),
        ("value-changed", "FAKE 1.0", "PLAN A", "/fakeGamma", "close", "unlimited"),  # matched by path
        ("plan-added", "FAKE 1.0", "PLAN B", None, None, None),
        ("label-added", "FAKE 3.0", None, None, None, None),
        ("not-shown-removed", None, None, None, None, None),
        ("not-shown-changed", None, None, None, None, None),  # in register order
        ("not-shown-added", None, None, None, None, None),
    ]
    assert cmp.plans_added == ("FAKE 1.0:PLAN B",)
    details = {c.kind: c.detail for c in cmp.changes}
    assert details["entry-changed"] == "position 3 -> 2"
    assert details["not-shown-changed"] == "fake-edited (§2): detail"
    assert details["label-added"] == "plan entries: PLAN A"
