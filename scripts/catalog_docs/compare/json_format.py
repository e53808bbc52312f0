"""The diff JSON: a comparison's records as a documented, versioned data shape (`catalog-docs diff --format
json`). Its JSON Schema is `schemas/diff.schema.json`, published as /downloads/diff.schema.json.

Fields hold identifiers and values only, never display text: each record gives, on each side, the label,
plan entry, listing entry, value, not-shown item, service or area it is on (null where that side has none).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from catalog_docs.compare.changes import Change, Comparison, Place, Side
from catalog_docs.compare.gate import Review
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR

FORMAT = "catalog-docs-diff"
FORMAT_VERSION = "1.6"
"""MAJOR.MINOR, as catalog.json's: the major number goes up when a field is removed or changes meaning, the
minor one when a field or a change kind is added (1.1: label-changed; 1.2: plan-changed, service-changed,
area-added, area-removed, area-changed, and a place's service and area; 1.3: `values`, each changed
field's value on each side; 1.4: `possibly_renamed`, and on -added and -removed records every fact of the thing
added or removed in `fields` and `values`, so that a revisions diff is a complete patch; fields `method`, `draft`,
`subject`, and `order` on not-shown records; 1.5: `id`, each record's stable id, see `compare.ids`;
1.6: the review gate of `diff --fail-on/--acknowledged`: `gate`, and on each record `acknowledged`; a side's `name`)."""
SCHEMA_NAME = "diff"
SCHEMA_PATH = DOWNLOAD_SCHEMA_DIR / f"{SCHEMA_NAME}.schema.json"


def _side(side: Side) -> dict[str, Any]:
    return {"revision": side.revision, "label": side.label, "plan": side.plan, "name": side.name}


def _place(p: Place | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"label": p.label, "plan": p.plan, "position": p.position, "path": p.path, "value": p.value,
            "not_shown": p.not_shown, "section": p.section, "service": p.service, "area": p.area}


def _change(c: Change, review: Review | None) -> dict[str, Any]:
    reason = review.acknowledged.get(c.id) if review is not None else None
    return {"id": c.id, "kind": c.kind, "from": _place(c.before), "to": _place(c.after), "basis": _place(c.basis),
            "seen_under": list(c.seen_under), "fields": list(c.fields),
            "values": {v.field: {"from": v.before, "to": v.after} for v in c.values},
            "possibly_renamed": _place(c.possibly_renamed),
            "acknowledged": {"reason": reason} if reason is not None else None}


def _gate(review: Review | None) -> dict[str, Any] | None:
    if review is None:
        return None
    return {"fail_on": [str(s) for s in review.fail_on], "passed": review.passed,
            "failing": [c.id for c in review.failing], "acknowledged": list(review.acknowledged),
            "stale": [{"id": a.id, "reason": a.reason} for a in review.stale], "file": review.source}


def comparison_data(cmp: Comparison, review: Review | None = None) -> dict[str, Any]:
    """A comparison as JSON-ready data, in the shape `schemas/diff.schema.json` describes; with `review`, the
    review gate's verdicts too."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "mode": cmp.mode,
        "from": _side(cmp.before),
        "to": _side(cmp.after),
        "counts": {"differences": len(cmp.changes), "unchanged": len(cmp.unchanged), "by_kind": cmp.counts()},
        "changes": [_change(c, review) for c in cmp.changes],
        "unchanged": [{"from": _place(u.before), "to": _place(u.after)} for u in cmp.unchanged],
        "gate": _gate(review),
    }


@lru_cache(maxsize=1)
def schema_text() -> str:
    """The diff JSON Schema as published."""
    return SCHEMA_PATH.read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The diff JSON Schema as data."""
    return json.loads(schema_text())
