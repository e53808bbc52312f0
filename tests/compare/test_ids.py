"""Change ids: unique within a comparison, stable under every edit that does not touch what they name, the same
in every format, and valid URL fragments and HTML ids (compare/ids.py)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catalog_edits as ed
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Change, Comparison, Side, compare_catalogs, compare_sides
from catalog_docs.compare.formats import format_markdown, format_text
from catalog_docs.compare.ids import ID_PATTERN, make_id
from catalog_docs.compare.json_format import comparison_data, schema
from catalog_edits import Docs, edited, loaded_from_files, loaded_from_memory, read_docs, write_docs
from fixture_facts import FIXTURE_CATALOG

BASE: Docs = read_docs(FIXTURE_CATALOG)
PAIRS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONE = settings(max_examples=1, deadline=None)
"""The property's examples load their catalogues from memory (catalog_edits.load_docs, as a git revision's are
loaded); one more example loads them from folders, as `check` does."""

# Edits that rename nothing a record is named by (labels, plan entries, paths, areas, items): values, texts and
# citations, drafts, and the order of labels, plan entries, areas and items.
KEEPS_NAMES = [ed.flip_value, ed.edit_text, ed.toggle_draft, ed.move_label, ed.move_plan, ed.move_area,
               ed.move_register_item, ed.set_entry_area]


def _load(docs: Docs, folder: Path) -> Catalog:
    return load_catalog(write_docs(docs, folder))


def _about(c: Change) -> tuple[object, ...]:
    """What a record is about, read by the test on its own: kind, label and plan entry on each side, and the
    listing entry (by path, or by position when it has none), area or not-shown item."""
    entry = c.before if c.before.position is not None else c.after
    key = (entry.path or f"#{entry.position}") if entry.position is not None else None
    return (c.kind, c.before.label, c.after.label, c.before.plan, c.after.plan, key,
            c.before.area or c.after.area, c.before.not_shown or c.after.not_shown)


def _every_comparison(a: Catalog, b: Catalog) -> list[Comparison]:
    """Both directions between the two catalogues, and every pair of labels of the later one."""
    out = [compare_catalogs(a, b, "main"), compare_catalogs(b, a, "main")]
    out += [compare_sides(b, Side(label=x.label), Side(label=y.label)) for x in b.versions for y in b.versions]
    return out


def _unique_valid_and_stable(data: st.DataObject, load: Callable[..., list[Catalog]]) -> None:
    """Both properties of the ids on one random pair of catalogues, a and b (b with more edits), and on c: b with
    more edits that rename nothing."""
    a_docs, first = edited(BASE, data, 0, 2)
    b_docs, then = edited(a_docs, data, 1, 4)
    c_docs = b_docs
    steps = data.draw(st.lists(st.sampled_from(KEEPS_NAMES), min_size=1, max_size=4))
    for step in steps:
        c_docs = copy.deepcopy(c_docs)
        step(c_docs, data)
    a, b, c = load(a_docs, b_docs, c_docs)
    # Unique within each comparison of a and b, and valid fragments.
    for cmp in _every_comparison(a, b):
        ids = [x.id for x in cmp.changes]
        assert len(set(ids)) == len(ids), (first, then)
        for i in ids:
            # A URL fragment and an HTML id that need no escaping anywhere: lower-case letters, digits, '-'.
            assert re.fullmatch(ID_PATTERN, i) and re.fullmatch(r"[a-z][a-z0-9-]*", i), i
    # Stable: every record about the same things keeps its id from (a, b) to (a, c).
    before = {_about(x): x.id for x in compare_catalogs(a, b, "main").changes}
    after = {_about(x): x.id for x in compare_catalogs(a, c, "other-name").changes}
    for about in before.keys() & after.keys():
        assert before[about] == after[about], (then, [s.__name__ for s in steps], about)
    # And the id says exactly what the record is about: two records about different things never share one.
    assert len(set(before.values()) | set(after.values())) == len(before.keys() | after.keys())


@PAIRS
@given(st.data())
def test_ids_are_unique_valid_fragments_and_stable_under_edits_that_do_not_touch_what_they_name(
        data: st.DataObject) -> None:
    """Both properties on the same 40 random pairs, each pair drawn and loaded once."""
    _unique_valid_and_stable(data, loaded_from_memory)


@ONE
@given(st.data())
def test_ids_are_unique_valid_fragments_and_stable_loaded_from_files(data: st.DataObject) -> None:
    _unique_valid_and_stable(data, loaded_from_files)


def test_the_same_record_has_the_same_id_in_every_format(tmp_path: Path) -> None:
    docs = read_docs(FIXTURE_CATALOG)
    a = _load(docs, tmp_path / "a")
    docs["versions"]["FAKE 2.0"]["plans"].pop("PLAN C")
    docs["listing"]["entries"][0]["source"] = "§2"
    b = _load(docs, tmp_path / "b")
    for cmp in (compare_catalogs(a, b, "main"), compare_sides(a, Side(label="FAKE 1.0"), Side(label="FAKE 2.0"))):
        ids = [c.id for c in cmp.changes]
        assert ids == [c.id for c in cmp.changes]  # computed again: the same
        assert [r["id"] for r in json.loads(json.dumps(comparison_data(cmp)))["changes"]] == ids
        text, markdown = format_text(cmp), format_markdown(cmp)
        for i in ids:
            assert text.count(i) == 1 and markdown.count(i) == 1, i


def test_names_that_read_alike_still_get_different_ids() -> None:
    # Lower-cased, `A 1` and `a-1` read the same; the hash of the exact names keeps them apart.
    one = make_id("label-added", (None, "A 1", None, None, None))
    two = make_id("label-added", (None, "a-1", None, None, None))
    assert one.rsplit("--", 1)[0] == two.rsplit("--", 1)[0] == "label-added--a-1"
    assert one != two
    # A name the same on both sides is said once; a missing side is not the same as an empty name.
    assert make_id("value-changed", ("L 1", "L 1", "P", "P", "/x")).startswith("value-changed--l-1--p--x--")
    assert make_id("plan-added", (None, "L", None, "P", None)) != make_id("plan-added", ("", "L", None, "P", None))


def test_the_schema_documents_the_id() -> None:
    record = schema()["properties"]["changes"]["items"]
    assert "id" in record["required"]
    assert record["properties"]["id"]["pattern"] == ID_PATTERN
