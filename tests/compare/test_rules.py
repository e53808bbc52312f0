"""The registry of change kinds (`compare/rules.py`): one record per kind, read by the formats, the gate, the
patch and the site; the published contracts that restate the kinds (the diff JSON Schema, the browser's port)
are held to it here."""

from __future__ import annotations

import re
from pathlib import Path

from catalog_docs.compare import changes
from catalog_docs.compare.changes import compare_catalogs
from catalog_docs.compare.formats import format_text, summary_rows
from catalog_docs.compare.json_format import comparison_data, schema
from catalog_docs.compare.rules import KIND_IDS, RULES, RULES_BY_ID, SUMMARY_ORDER, VALUE_KINDS
from catalog_docs.site.changelog import first_changes
from review_cases import decision_pair

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_the_comparison_makes_has_a_rule_and_every_rule_is_made() -> None:
    # The kinds the comparison writes as literals, and those it passes to its helpers.
    made = set(re.findall(r'kind="([a-z-]+)"', Path(changes.__file__).read_text(encoding="utf-8")))
    made |= set(re.findall(r'_kept\("([a-z-]+)"', Path(changes.__file__).read_text(encoding="utf-8")))
    made |= set(re.findall(r'\("([a-z-]+-removed)", "([a-z-]+-added)"\)',
                           Path(changes.__file__).read_text(encoding="utf-8"))[0])
    assert made <= set(KIND_IDS)
    assert set(KIND_IDS) - made == set(), "a rule for a kind nothing makes"


def test_the_published_contracts_restate_the_registry() -> None:
    data = schema()
    assert data["$defs"]["kind"]["enum"] == list(KIND_IDS)
    by_kind = str(data)
    assert all(k in by_kind for k in KIND_IDS)
    js = (ROOT / "overrides/assets/compare.js").read_text(encoding="utf-8")
    kinds = re.search(r"var KINDS = \[([^\]]*)\]", js)
    assert kinds is not None
    assert re.findall(r'"([a-z-]+)"', kinds.group(1)) == list(KIND_IDS)
    values = re.search(r"var VALUE_KINDS = \[([^\]]*)\]", js)
    assert values is not None
    assert tuple(re.findall(r'"([a-z-]+)"', values.group(1))) == VALUE_KINDS


def test_each_rule_is_one_record_with_a_sentence_or_a_table_row_and_a_step() -> None:
    assert [r.id for r in RULES] == list(KIND_IDS) and len(RULES_BY_ID) == len(RULES)
    for r in RULES:
        assert callable(r.step)
        assert (r.describe is None) == r.is_value == r.id.startswith("value-")
        assert r.noun(1) == r.one and r.noun(2) == r.many
    # The summary: the service and its areas, what exists, values, then the register.
    assert [r.id for r in SUMMARY_ORDER][:4] == ["service-changed", "area-added", "area-removed", "area-changed"]
    assert [r.id for r in SUMMARY_ORDER][-3:] == ["not-shown-added", "not-shown-removed", "not-shown-changed"]


def test_summary_rows_carry_their_kind_and_the_changelog_links_by_it(tmp_path: Path) -> None:
    old, new = decision_pair(tmp_path)
    cmp = compare_catalogs(old, new, "main")
    rows = summary_rows(cmp)
    assert [r.kind for r in rows][-1] is None
    for row in rows[:-1]:
        assert row.kind in KIND_IDS
        assert row.what.lower() == RULES_BY_ID[row.kind].noun(row.n)
    anchors = first_changes(cmp, rows)
    by_id = {c.id: c for c in cmp.changes}
    for row, anchor in zip(rows, anchors, strict=True):
        if row.kind is not None and RULES_BY_ID[row.kind].anchored:
            assert anchor is not None and by_id[anchor].kind == row.kind
        else:
            assert anchor is None
    assert comparison_data(cmp)["counts"]["by_kind"] == {k: sum(c.kind == k for c in cmp.changes) for k in KIND_IDS}
    assert "Plan entry listing removed" in format_text(cmp)
