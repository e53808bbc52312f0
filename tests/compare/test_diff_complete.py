"""A diff of two catalogues is complete and says nothing false, for random pairs.

Each pair is the fixture catalogue after a few random edits (A), and A after a few more (B): values, texts and
citations, entries added, removed, moved and re-pathed, labels and plan entries added, removed, renamed and
reordered, areas and register items likewise (tests/catalog_edits.py). For every pair:
- applying the JSON diff to A gives B, model for model (`apply_diff`), also after a JSON round trip;
- every statement the records make about the catalogue as a whole is true of the two catalogues;
- text and Markdown print every field's value on both sides, and no table names both sides alike.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Comparison, compare_catalogs
from catalog_docs.compare.formats import format_markdown, format_text
from catalog_docs.compare.json_format import comparison_data
from catalog_docs.compare.patch import apply_diff
from catalog_docs.errors import CatalogDocsError
from catalog_edits import Docs, edited, read_docs, write_docs
from fixture_facts import FIXTURE_CATALOG

BASE: Docs = read_docs(FIXTURE_CATALOG)
PAIRS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load(docs: Docs, folder: Path) -> Catalog:
    return load_catalog(write_docs(docs, folder))


def _pair(data: st.DataObject) -> tuple[Catalog, Catalog, list[str]]:
    a_docs, first = edited(BASE, data, 0, 2)
    b_docs, then = edited(a_docs, data, 1, 4)
    with tempfile.TemporaryDirectory() as tmp:
        return _load(a_docs, Path(tmp) / "a"), _load(b_docs, Path(tmp) / "b"), [*first, "|", *then]


def _listings(c: Catalog) -> set[tuple[str, str]]:
    return {(v.label, p.name) for v in c.versions for p in v.plans}


def _labels_listing(c: Catalog, plan: str) -> tuple[str, ...]:
    return tuple(v.label for v in c.versions if v.plan(plan) is not None)


def _statements_hold(a: Catalog, b: Catalog, cmp: Comparison) -> None:
    labels_a, labels_b = [v.label for v in a.versions], [v.label for v in b.versions]
    counts = cmp.counts()
    assert counts["label-added"] == len(set(labels_b) - set(labels_a))
    assert counts["label-removed"] == len(set(labels_a) - set(labels_b))
    assert counts["plan-added"] == len(_listings(b) - _listings(a))
    assert counts["plan-removed"] == len(_listings(a) - _listings(b))
    for c in cmp.changes:
        if c.kind == "label-added":
            assert c.after.label not in labels_a and c.after.label in labels_b
            i = labels_b.index(c.after.label)
            assert (c.basis.label if c.basis else None) == (labels_b[i - 1] if i else None)  # "after LABEL"
        elif c.kind == "label-removed":
            assert c.before.label in labels_a and c.before.label not in labels_b
        elif c.kind == "plan-added":
            assert (c.after.label, c.after.plan) in _listings(b) - _listings(a)
            earlier = labels_b[: labels_b.index(c.after.label)]
            listing = [x for x in earlier if b.version(x).plan(c.after.plan) is not None]  # type: ignore[union-attr]
            # "Each value is compared with ... the latest earlier label that lists it" / "No earlier label lists it"
            assert (c.basis.label if c.basis else None) == (listing[-1] if listing else None)
        elif c.kind in ("plan-removed", "value-removed") and c.before.plan is not None and c.after.plan is None:
            assert (c.before.label, c.before.plan) in _listings(a) - _listings(b)
            # "Its values can still be seen under ..." / "No label lists it any more."
            assert c.seen_under == _labels_listing(b, c.before.plan)
        elif c.kind == "area-added":
            assert c.after.area in {x.id for x in b.service.areas} - {x.id for x in a.service.areas}
        elif c.kind == "area-removed":
            assert c.before.area in {x.id for x in a.service.areas} - {x.id for x in b.service.areas}
        elif c.kind == "entry-added" and c.after.path is not None:
            assert c.after.path not in {e.path for e in a.entries}
        elif c.kind == "entry-removed" and c.before.path is not None:
            assert c.before.path not in {e.path for e in b.entries}
        elif c.kind == "not-shown-added":
            assert c.after.not_shown in {n.id for n in b.not_shown} - {n.id for n in a.not_shown}
        elif c.kind == "not-shown-removed":
            assert c.before.not_shown in {n.id for n in a.not_shown} - {n.id for n in b.not_shown}
        if c.possibly_renamed is not None:  # an inference, but one that holds: the same contents on both sides
            other = next(x for x in cmp.changes if x.possibly_renamed is not None and
                         (x.after if c.kind.endswith("-removed") else x.before) == c.possibly_renamed)
            assert other.possibly_renamed == (c.before if c.kind.endswith("-removed") else c.after)
            assert {v.field: v.before for v in c.values if v.field != "order"} == \
                {v.field: v.after for v in other.values if v.field != "order"} or c.kind.endswith("-added")


def _shown(value: object) -> list[str]:
    """The strings a format must print for one field value."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, list):
        return [s for v in value for s in _shown(v)]
    if isinstance(value, dict):
        return [str(value["at"])] + ([str(value["token"])] if value.get("token") else [])
    return [str(value)]


def _formats_print_both_sides(cmp: Comparison, edits: list[str]) -> None:
    text, markdown = format_text(cmp), format_markdown(cmp)
    read = html.unescape(markdown)  # catalogue text is escaped as entities in Markdown; compare what it reads as
    for c in cmp.changes:
        for v in c.values:
            for s in _shown(v.before) + _shown(v.after):
                assert s in text, (edits, c.kind, v.field, s)
                assert s in read, (edits, c.kind, v.field, s)
        if c.possibly_renamed is not None:
            assert "Possibly renamed" in text and "Possibly renamed" in markdown
    assert not re.search(r"\b(\w+) changed\.", text), "a bare 'X changed' without its values"
    for head in re.findall(r"^\| Position \| Path \| (.+) \| (.+) \|$", markdown, flags=re.M):
        assert head[0] != head[1], (edits, head)


@PAIRS
@given(st.data())
def test_the_diff_of_a_random_pair_is_complete_and_says_nothing_false(data: st.DataObject) -> None:
    """Every contract of the module's docstring on each pair: the pair (two loads, most of an example's time) is
    drawn once for all four checks, each of which sees as many pairs as when it drew its own."""
    a, b, edits = _pair(data)
    forward, backward = compare_catalogs(a, b, "main"), compare_catalogs(b, a, "main")
    # Applying the JSON diff to A gives B (after a JSON round trip), and the reverse diff gives A back.
    assert apply_diff(a, json.loads(json.dumps(comparison_data(forward)))) == b, edits
    assert apply_diff(b, comparison_data(backward)) == a, edits
    try:
        _statements_hold(a, b, forward)
        _statements_hold(b, a, backward)
    except AssertionError as e:
        raise AssertionError(f"{edits}: {e}") from e
    _formats_print_both_sides(forward, edits)


def test_a_renamed_plan_entry_is_shown_as_possibly_renamed(tmp_path: Path) -> None:
    docs = read_docs(FIXTURE_CATALOG)
    a = _load(docs, tmp_path / "a")
    for field in ("plan_entries",):
        docs["service"][field] = ["PLAN RENAMED" if p == "PLAN B" else p for p in docs["service"][field]]
    for v in docs["versions"].values():
        if "PLAN B" in v["plans"]:
            v["plans"] = {("PLAN RENAMED" if k == "PLAN B" else k): p for k, p in v["plans"].items()}
    b = _load(docs, tmp_path / "b")
    cmp = compare_catalogs(a, b, "main")
    removed, added = cmp.by_kind("plan-removed"), cmp.by_kind("plan-added")
    assert [(c.before.plan, c.possibly_renamed.plan if c.possibly_renamed else None) for c in removed] == [
        ("PLAN B", "PLAN RENAMED")]
    assert [(c.after.plan, c.possibly_renamed.plan if c.possibly_renamed else None) for c in added] == [
        ("PLAN RENAMED", "PLAN B")]
    text = format_text(cmp)
    assert "Possibly renamed to PLAN RENAMED (inferred" in text
    record = json.loads(json.dumps(comparison_data(cmp)))["changes"]
    assert [r["possibly_renamed"]["plan"] for r in record if r["kind"] == "plan-removed"] == ["PLAN RENAMED"]
    assert apply_diff(a, comparison_data(cmp)) == b


def test_apply_refuses_what_is_not_a_revisions_diff(tmp_path: Path) -> None:
    a = load_catalog(FIXTURE_CATALOG)
    data = comparison_data(compare_catalogs(a, a, "main"))
    with pytest.raises(CatalogDocsError, match="mode revisions"):
        apply_diff(a, {**data, "mode": "labels"})
    with pytest.raises(CatalogDocsError, match=r"catalog-docs-diff 1\.x"):
        apply_diff(a, {**data, "format_version": "2.0"})
    assert apply_diff(a, data) == a


def test_the_schema_names_exactly_the_fields_records_carry() -> None:
    # Records read their facts off the model's fields; a field added to the model must reach the schema too.
    from dataclasses import fields

    from catalog_docs.catalog.model import Area, ListingEntry, NotShown, PlanEntry, Service, VersionLabel
    from catalog_docs.compare.changes import FACTS_LEFT_OUT
    from catalog_docs.compare.json_format import schema

    carried = {f.name for cls in (Area, ListingEntry, VersionLabel, PlanEntry, NotShown, Service) for f in fields(cls)
               if f.name not in FACTS_LEFT_OUT.get(cls, ())}
    assert set(schema()["$defs"]["field"]["enum"]) == carried | {"order", "plan_entries", "plan_entry_order"}


def test_an_entry_moved_to_another_area_names_both_areas_and_sides_read_as_places(tmp_path: Path) -> None:
    docs = read_docs(FIXTURE_CATALOG)
    a = _load(docs, tmp_path / "a")
    docs["listing"]["entries"][0]["area"]["id"] = "fake-refunds"
    del docs["versions"]["FAKE 2.0"]["plans"]["PLAN C"]
    b = _load(docs, tmp_path / "b")
    text = format_text(compare_catalogs(a, b, "main"))
    assert ("Listing entry #1 POST /fakeWidgetCreate changed between main and working tree: area (inferred) Fake "
            "widget handling (fake-widgets) -> Fake refunds (fake-refunds).") in text
    assert ("Plan entry PLAN C is no longer listed under FAKE 2.0 in the working tree; at main it was, 2nd among the "
            "plan entries, cited from §8.") in text
    assert "at working tree" not in text


def test_the_sites_compare_pages_give_a_listings_facts_as_the_records_do() -> None:
    # The site's comparison of consecutive labels shows what its plan-added and plan-removed records hold.
    from catalog_docs.compare.changes import Side, compare_sides
    from catalog_docs.compare.sentences import ordinal
    from catalog_docs.site.render import render_pages

    catalog = load_catalog(FIXTURE_CATALOG)
    pages = render_pages(catalog)
    checked = 0
    for a, b in itertools.pairwise(catalog.versions):
        page = pages[f"compare/{a.slug}...{b.slug}.md"]
        for c in compare_sides(catalog, Side(label=a.label), Side(label=b.label)).changes:
            if c.kind in ("plan-added", "plan-removed"):
                side = "after" if c.kind == "plan-added" else "before"
                facts = {v.field: getattr(v, side) for v in c.values}
                assert f"({ordinal(facts['order'])} among the plan entries, cited from [{facts['source']}](" in page
                checked += 1
    assert checked >= 2
