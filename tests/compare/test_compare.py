"""The comparison stage: typed change records with stable kebab-case kinds, each naming its label, plan entry,
listing entry and value on both sides, on the fixture catalogue (tests/fixture-catalog/) and fake catalogues;
what the real catalogue's comparison must show follows from the source facts (tests/catalog/test_source_facts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import (
    Change,
    Side,
    compare_catalogs,
    compare_sides,
    latest_earlier_listing,
    parse_side,
)
from catalog_docs.compare.rules import KIND_IDS
from catalog_docs.errors import CatalogDocsError
from fake_catalogs import FAKE_SPECS, write_catalog
from fixture_facts import FIXTURE_CATALOG


@pytest.fixture(scope="module")
def fixture() -> Catalog:
    return load_catalog(FIXTURE_CATALOG)


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return load_catalog(write_catalog(tmp_path_factory.mktemp("fake") / "catalog", FAKE_SPECS["plans-come-and-go"]))


@pytest.fixture(scope="module")
def relisted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return load_catalog(write_catalog(tmp_path_factory.mktemp("relisted") / "catalog", FAKE_SPECS["relisted"]))


def _sides(catalog: Catalog, a: str, b: str):
    return compare_sides(catalog, parse_side(a, catalog), parse_side(b, catalog))


def _row(c: Change) -> tuple:
    """(kind, from label, from plan, to label, to plan, position, from value, to value)."""
    return (c.kind, c.before.label, c.before.plan, c.after.label, c.after.plan, c.position, c.from_value, c.to_value)


def test_kinds_are_the_documented_kebab_case_ids() -> None:
    # Consumers match on these strings: renaming one is a breaking change; new kinds are only appended.
    assert KIND_IDS == (
        "value-changed", "plan-added", "plan-removed", "entry-added", "entry-removed", "entry-changed",
        "label-added", "label-removed", "not-shown-added", "not-shown-removed", "not-shown-changed",
        "value-added", "value-removed", "label-changed", "plan-changed", "service-changed", "area-added",
        "area-removed", "area-changed",
    )


def test_fixture_catalogue_1_0_to_1_1(fixture: Catalog) -> None:
    # The fixture: PLAN B is gone, 5 values of PLAN A go close -> unlimited, every entry but 1, 2 and 7.
    # The removed plan entry brings its 8 values along.
    cmp = _sides(fixture, "FAKE 1.0", "FAKE 1.1")
    assert cmp.plans_removed == ("PLAN B",) and cmp.plans_added == ()
    changed = cmp.by_kind("value-changed")
    assert len(changed) == 5
    assert {(c.before.label, c.before.plan, c.after.label, c.after.plan, c.from_value, c.to_value) for c in changed} \
        == {("FAKE 1.0", "PLAN A", "FAKE 1.1", "PLAN A", "close", "unlimited")}
    assert [c.position for c in changed] == [3, 4, 5, 6, 8]
    assert [(u.path, u.value) for u in cmp.unchanged] == [("/fakeWidgetCreate", "close"), ("/fakeWidgetList", "close"),
                                                         (None, "close")]
    assert cmp.transitions() == [("close", "unlimited", 5)]
    removed = cmp.by_kind("value-removed")
    assert len(removed) == len(fixture.entries) == 8
    assert {(c.before.label, c.before.plan, c.after.label, c.after.plan) for c in removed} == {
        ("FAKE 1.0", "PLAN B", "FAKE 1.1", None)}
    assert cmp.by_kind("plan-removed")[0].seen_under == ("FAKE 1.0",)


def test_plans_added_and_removed_between_labels(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 1.0", "FAKE 2.0")
    # Grouped by plan entry, in the later label's order, then the plan entries it no longer lists.
    assert [c.kind for c in cmp.changes] == (["value-changed"] * 2 + ["plan-added"] + ["value-added"] * 4
                                             + ["plan-removed"] + ["value-removed"] * 4)
    # PLAN A: ccuu -> cucu
    assert [(c.position, c.from_value, c.to_value) for c in cmp.by_kind("value-changed")] == [
        (2, "close", "unlimited"), (3, "unlimited", "close")]
    assert [u.position for u in cmp.unchanged] == [1, 4]
    # PLAN C is listed under no earlier label: every value is new, and says so on both sides.
    added = cmp.by_kind("plan-added")[0]
    assert (added.before.label, added.before.plan, added.after.label, added.after.plan, added.basis) == (
        "FAKE 1.0", None, "FAKE 2.0", "PLAN C", None)
    assert [_row(c) for c in cmp.by_kind("value-added")][3] == (
        "value-added", "FAKE 1.0", None, "FAKE 2.0", "PLAN C", 4, None, "close")
    assert cmp.by_kind("value-added")[3].path is None  # entry 4 has no path
    # PLAN B: its values as they were, and the labels that still list it.
    assert [(c.position, c.from_value) for c in cmp.by_kind("value-removed")] == [
        (1, "unlimited"), (2, "unlimited"), (3, "unlimited"), (4, "unlimited")]
    assert cmp.by_kind("plan-removed")[0].seen_under == ("FAKE 1.0", "FAKE 3.0")


def test_a_plan_entry_listed_again_is_compared_with_its_previous_label(relisted: Catalog) -> None:
    # PLAN B: listed under FAKE 1.0 (uuuuu), not under FAKE 1.1, again under FAKE 2.0 (uucuc).
    assert latest_earlier_listing(relisted, "PLAN B", "FAKE 2.0").label == "FAKE 1.0"
    cmp = _sides(relisted, "FAKE 1.1", "FAKE 2.0")
    added = cmp.by_kind("plan-added")[0]
    assert added.basis is not None and (added.basis.label, added.basis.plan) == ("FAKE 1.0", "PLAN B")
    assert cmp.by_kind("value-added") == []
    relisted_changes = [_row(c) for c in cmp.by_kind("value-changed") if c.after.plan == "PLAN B"]
    assert relisted_changes == [
        ("value-changed", "FAKE 1.0", "PLAN B", "FAKE 2.0", "PLAN B", 3, "unlimited", "close"),
        ("value-changed", "FAKE 1.0", "PLAN B", "FAKE 2.0", "PLAN B", 5, "unlimited", "close"),
    ]
    same = [(u.before.label, u.position) for u in cmp.unchanged if u.after.plan == "PLAN B"]
    assert same == [("FAKE 1.0", 1), ("FAKE 1.0", 2), ("FAKE 1.0", 4)]
    # PLAN A is listed under both: compared with FAKE 1.1 itself (cucuc -> cucuu).
    assert [_row(c) for c in cmp.by_kind("value-changed") if c.after.plan == "PLAN A"] == [
        ("value-changed", "FAKE 1.1", "PLAN A", "FAKE 2.0", "PLAN A", 5, "close", "unlimited")]


def test_a_plan_entry_new_everywhere_and_a_plan_entry_dropped(relisted: Catalog) -> None:
    cmp = _sides(relisted, "FAKE 2.0", "FAKE 3.0")
    assert [(c.after.position, c.to_value) for c in cmp.by_kind("value-added")] == [
        (1, "close"), (2, "close"), (3, "close"), (4, "close"), (5, "unlimited")]
    assert cmp.by_kind("value-changed") == [] and len(cmp.unchanged) == 10
    cmp = _sides(relisted, "FAKE 3.0", "FAKE 3.1")
    assert cmp.plans_removed == ("PLAN A",)
    assert cmp.by_kind("plan-removed")[0].seen_under == ("FAKE 1.0", "FAKE 1.1", "FAKE 2.0", "FAKE 3.0")


def test_a_label_with_a_single_plan_entry(relisted: Catalog) -> None:
    cmp = _sides(relisted, "FAKE 1.0", "FAKE 1.1")  # PLAN A ccuuc -> cucuc; PLAN B dropped
    assert [_row(c)[0] for c in cmp.changes] == ["value-changed", "value-changed", "plan-removed",
                                                 *["value-removed"] * 5]
    assert cmp.by_kind("plan-removed")[0].seen_under == ("FAKE 1.0", "FAKE 2.0", "FAKE 3.0", "FAKE 3.1")


def test_value_changes_are_grouped_by_transition(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 2.0", "FAKE 3.0")  # PLAN C cccc -> uccu, PLAN A unchanged, PLAN B listed again
    # PLAN B (cccc) against its previous label FAKE 1.0 (uuuu): four more unlimited -> close.
    assert cmp.transitions() == [("unlimited", "close", 4), ("close", "unlimited", 2)]
    assert cmp.plans_added == ("PLAN B",)


def test_two_plans_of_different_names(fake: Catalog) -> None:
    cmp = _sides(fake, "FAKE 1.0:PLAN A", "FAKE 2.0:PLAN C")
    assert (cmp.mode, cmp.from_side, cmp.to_side) == ("plans", "FAKE 1.0:PLAN A", "FAKE 2.0:PLAN C")
    assert {(c.before.label, c.before.plan, c.after.label, c.after.plan) for c in cmp.changes} == {
        ("FAKE 1.0", "PLAN A", "FAKE 2.0", "PLAN C")}
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
        "entries": ["/fakeAlpha", "/fakeBeta", "/fakeGamma", "/fakeEpsilon", None],
        "labels": {"FAKE 1.0": {"PLAN A": "ccccc"}, "FAKE 2.0": {"PLAN A": "uuuuu"}},
        "not_shown": {"fake-kept": "Kept.", "fake-edited": "Before.", "fake-dropped": "Dropped."},
    }))
    new = load_catalog(write_catalog(tmp_path / "new", {
        # /fakeBeta removed, /fakeGamma moved from 3 to 2, /fakeZeta added at 3, /fakeEpsilon's path changed
        # to /fakeDelta (same position), the entry without a path kept. FAKE 2.0 removed, FAKE 3.0 added.
        "entries": ["/fakeAlpha", "/fakeGamma", "/fakeZeta", "/fakeDelta", None],
        "labels": {"FAKE 1.0": {"PLAN A": "cuccu", "PLAN B": "uuuuu"}, "FAKE 3.0": {"PLAN A": "ccccu"}},
        "not_shown": {"fake-kept": "Kept.", "fake-edited": "After.", "fake-new": "New."},
    }))
    cmp = compare_catalogs(old, new, "main")
    assert (cmp.mode, cmp.from_side, cmp.to_side) == ("revisions", "main", "working tree")
    assert cmp.changes[0].fields == ("plan_entries",)
    got = [(c.kind, c.before.label, c.before.plan, c.before.position, c.before.path, c.before.value,
            c.after.label, c.after.plan, c.after.position, c.after.path, c.after.value) for c in cmp.changes
           if not c.kind.startswith("not-shown")]
    n = None
    assert got == [
        # The service first: PLAN B is a plan entry name the old catalogue did not declare.
        ("service-changed", n, n, n, n, n, n, n, n, n, n),
        # Then listing entries.
        ("entry-removed", n, n, 2, "/fakeBeta", n, n, n, n, n, n),
        ("entry-changed", n, n, 3, "/fakeGamma", n, n, n, 2, "/fakeGamma", n),
        ("entry-changed", n, n, 4, "/fakeEpsilon", n, n, n, 4, "/fakeDelta", n),
        ("entry-added", n, n, n, n, n, n, n, 3, "/fakeZeta", n),
        # The removed label, with every value it had.
        ("label-removed", "FAKE 2.0", n, n, n, n, n, n, n, n, n),
        ("plan-removed", "FAKE 2.0", "PLAN A", n, n, n, n, n, n, n, n),
        *[("value-removed", "FAKE 2.0", "PLAN A", i, p, "unlimited", n, n, i, p, n)
          for i, p in enumerate(["/fakeAlpha", "/fakeBeta", "/fakeGamma", "/fakeEpsilon", None], start=1)],
        # FAKE 1.0, PLAN A (ccccc -> cuccu): values matched by entry, not by position.
        ("value-removed", "FAKE 1.0", "PLAN A", 2, "/fakeBeta", "close", "FAKE 1.0", "PLAN A", n, n, n),
        ("value-changed", "FAKE 1.0", "PLAN A", 3, "/fakeGamma", "close",
         "FAKE 1.0", "PLAN A", 2, "/fakeGamma", "unlimited"),
        ("value-changed", "FAKE 1.0", "PLAN A", 5, n, "close", "FAKE 1.0", "PLAN A", 5, n, "unlimited"),
        ("value-added", "FAKE 1.0", "PLAN A", n, n, n, "FAKE 1.0", "PLAN A", 3, "/fakeZeta", "close"),
        # FAKE 1.0, PLAN B: listed under no earlier label, so every value is new.
        ("plan-added", "FAKE 1.0", n, n, n, n, "FAKE 1.0", "PLAN B", n, n, n),
        *[("value-added", "FAKE 1.0", n, i, p, n, "FAKE 1.0", "PLAN B", i, p, "unlimited")
          for i, p in enumerate(["/fakeAlpha", "/fakeGamma", "/fakeZeta", "/fakeDelta", None], start=1)],
        # The added label, compared with the label before it (FAKE 1.0: cuccu -> ccccu).
        ("label-added", n, n, n, n, n, "FAKE 3.0", n, n, n, n),
        ("plan-added", n, n, n, n, n, "FAKE 3.0", "PLAN A", n, n, n),
        ("value-changed", "FAKE 1.0", "PLAN A", 2, "/fakeGamma", "unlimited",
         "FAKE 3.0", "PLAN A", 2, "/fakeGamma", "close"),
    ]
    fields = {c.before.path or c.after.path: c.fields for c in cmp.by_kind("entry-changed")}
    assert fields == {"/fakeGamma": ("position",), "/fakeEpsilon": ("path",)}
    label_added = cmp.by_kind("label-added")[0]
    assert label_added.basis is not None and label_added.basis.label == "FAKE 1.0"
    register = [(c.kind, c.before.not_shown, c.after.not_shown, c.fields) for c in cmp.changes
                if c.kind.startswith("not-shown")]
    # An added or removed item carries every fact it has (its place in the register among them); a changed
    # one only the facts that differ.
    every = ("order", "topic", "detail", "section", "scope", "entries", "subject")
    assert register == [("not-shown-removed", "fake-dropped", n, every), ("not-shown-changed", "fake-edited",
                                                                          "fake-edited", ("detail",)),
                        ("not-shown-added", n, "fake-new", every)]
    added = cmp.by_kind("not-shown-added")[0]
    assert {v.field: (v.before, v.after) for v in added.values} == {
        "order": (n, 3), "topic": (n, "Fake New"), "detail": (n, "New."), "section": (n, "§2"), "scope": (n, "service"),
        "entries": (n, []), "subject": (n, n)}


@pytest.mark.parametrize("spec", ["relisted", "plans-come-and-go"])
def test_operation_and_plan_pages_mark_exactly_the_values_comparisons_report(spec: str, tmp_path: Path) -> None:
    # The complaint: a value marked changed on the plan and operation pages must be a change on the
    # compare page too. For each consecutive pair, every plan entry listed under the later label: the
    # listing entries whose cell is marked changed are the value-changed records of that comparison.
    from catalog_docs.compare.changes import consecutive_pairs
    from catalog_docs.site.render import plan_pages

    catalog = load_catalog(write_catalog(tmp_path / "catalog", FAKE_SPECS[spec]))
    pages = plan_pages(catalog)
    labels = [v.label for v in catalog.versions]
    checked = 0
    for a, b in consecutive_pairs(catalog):
        cmp = compare_sides(catalog, Side(label=a.label), Side(label=b.label))
        at = labels.index(b.label)
        for plan in b.plans:
            marked = {(e.position, cell.changed_from, cell.value) for e in catalog.entries
                      for cell in [pages.plan_cells(plan.name, e)[at]] if cell.changed_from is not None}
            reported = {(c.position, c.from_value, c.to_value) for c in cmp.by_kind("value-changed")
                        if c.after.plan == plan.name}
            assert marked == reported, (a.label, b.label, plan.name)
            checked += len(marked)
    assert checked > 0


def test_a_long_relisted_plan_entry_counts_its_unchanged_values_instead_of_listing_them(tmp_path: Path) -> None:
    from catalog_docs.site.compare_pages import UNCHANGED_LISTED
    from catalog_docs.site.render import render_pages

    n = UNCHANGED_LISTED + 10
    catalog = load_catalog(write_catalog(tmp_path / "catalog", {
        "entries": [f"/fakeOp{i:03d}" for i in range(n)],
        "labels": {"FAKE 1": {"PLAN A": "c" * n, "PLAN B": "u" * n}, "FAKE 2": {"PLAN A": "c" * n},
                   "FAKE 3": {"PLAN A": "c" * n, "PLAN B": "c" + "u" * (n - 1)}},
    }))
    page = render_pages(catalog)["compare/FAKE-2...FAKE-3.md"]
    assert f"{n - 1} values are the same as under FAKE 1: too many to list on this page" in page
    assert "Unchanged since FAKE 1" not in page
    assert "#### unlimited → close (1 value), FAKE 1 → FAKE 2" not in page  # the change is against FAKE 1
    assert "#### unlimited → close (1 value), FAKE 1 → FAKE 3" in page


def test_a_label_moved_or_retitled_is_a_label_change(tmp_path: Path) -> None:
    spec = {"entries": ["/fakeAlpha", None], "labels": {"FAKE 1": {"PLAN A": "cu"}, "FAKE 2": {"PLAN A": "cu"},
                                                        "FAKE 3": {"PLAN A": "cu"}}}
    old = load_catalog(write_catalog(tmp_path / "old", spec))
    moved = {**spec, "labels": {k: spec["labels"][k] for k in ("FAKE 1", "FAKE 3", "FAKE 2")}}
    folder = write_catalog(tmp_path / "new", moved)
    version = folder / "versions" / "FAKE-1.yaml"
    version.write_text(version.read_text(encoding="utf-8").replace("title: Fake Plan", "title: Fake Plan Renamed"),
                       encoding="utf-8")
    cmp = compare_catalogs(old, load_catalog(folder), "main")
    assert [(c.kind, c.before.label, c.after.label, c.fields) for c in cmp.changes] == [
        ("label-changed", "FAKE 1", "FAKE 1", ("plan_table",)),
        ("label-changed", "FAKE 3", "FAKE 3", ("order",)),
        ("label-changed", "FAKE 2", "FAKE 2", ("order",)),
    ]
    assert cmp.unchanged and not cmp.by_kind("value-changed")  # values matched by label, not by place in the order
