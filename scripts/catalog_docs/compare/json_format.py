"""The diff JSON: a comparison's records as a documented, versioned data shape (`catalog-docs diff --format
json`). Its JSON Schema is `schemas/diff.schema.json`, published as /downloads/diff.schema.json.

Fields hold identifiers and values only, never display text: each record gives, on each side, the label,
plan entry, listing entry, value, not-shown item, service or area it is on (null where that side has none).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, TypedDict

from catalog_docs.catalog.model import LockValue
from catalog_docs.compare.changes import Change, ChangeKind, Comparison, ComparisonMode, Place, Side
from catalog_docs.compare.gate import Review
from catalog_docs.compare.rules import KIND_IDS
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR

FORMAT = "catalog-docs-diff"
FORMAT_VERSION = "1.7"
"""MAJOR.MINOR, as catalog.json's: the major number goes up when a field is removed or changes meaning, the
minor one when a field or a change kind is added (1.1: label-changed; 1.2: plan-changed, service-changed,
area-added, area-removed, area-changed, and a place's service and area; 1.3: `values`, each changed
field's value on each side; 1.4: `possibly_renamed`, and on -added and -removed records every fact of the thing
added or removed in `fields` and `values`, so that a revisions diff is a complete patch; fields `method`, `draft`,
`subject`, and `order` on not-shown records; 1.5: `id`, each record's stable id, see `compare.ids`;
1.6: the review gate of `diff --fail-on/--acknowledged`: `gate`, and on each record `acknowledged`; a side's `name`;
1.7: `acknowledged.by`, the acknowledged id (another record's when that one's acknowledgement covers this one),
and the gate's `covered`)."""
SCHEMA_NAME = "diff"
SCHEMA_PATH = DOWNLOAD_SCHEMA_DIR / f"{SCHEMA_NAME}.schema.json"


# ---- the shape of the JSON, as types (schemas/diff.schema.json is its contract) --------------------------
# Functional TypedDict syntax where a key is a Python keyword (`from`).


class PlaceData(TypedDict):
    """`$defs.place`: where one side of a record is."""

    label: str | None
    plan: str | None
    position: int | None
    path: str | None
    value: LockValue | None
    not_shown: str | None
    section: str | None
    service: str | None
    area: str | None


class SideData(TypedDict):
    """`$defs.side`: one side of the comparison."""

    revision: str | None
    label: str | None
    plan: str | None
    name: str | None


FieldValues = TypedDict("FieldValues", {"from": object, "to": object})
"""A changed or carried field's value on each side (JSON values: text, number, list, {at, token}, null)."""


class AcknowledgedData(TypedDict):
    reason: str
    by: str


ChangeData = TypedDict("ChangeData", {
    "id": str, "kind": ChangeKind, "from": PlaceData, "to": PlaceData, "basis": PlaceData | None,
    "seen_under": list[str], "fields": list[str], "values": dict[str, FieldValues],
    "possibly_renamed": PlaceData | None, "acknowledged": AcknowledgedData | None})
"""One change record."""

UnchangedData = TypedDict("UnchangedData", {"from": PlaceData, "to": PlaceData})


class CountsData(TypedDict):
    differences: int
    unchanged: int
    by_kind: dict[ChangeKind, int]


class StaleData(TypedDict):
    id: str
    reason: str


class GateData(TypedDict):
    """The review gate's verdict (`diff --fail-on/--acknowledged`)."""

    fail_on: list[str]
    passed: bool
    failing: list[str]
    acknowledged: list[str]
    covered: list[str]
    stale: list[StaleData]
    file: str | None


DiffData = TypedDict("DiffData", {
    "format": str, "format_version": str, "mode": ComparisonMode, "from": SideData, "to": SideData,
    "counts": CountsData, "changes": list[ChangeData], "unchanged": list[UnchangedData], "gate": GateData | None})
"""A whole `catalog-docs diff --format json` document."""


def _side(side: Side) -> SideData:
    return {"revision": side.revision, "label": side.label, "plan": side.plan, "name": side.name}


def _place(p: Place) -> PlaceData:
    return {"label": p.label, "plan": p.plan, "position": p.position, "path": p.path, "value": p.value,
            "not_shown": p.not_shown, "section": p.section, "service": p.service, "area": p.area}


def _maybe_place(p: Place | None) -> PlaceData | None:
    return None if p is None else _place(p)


def _change(c: Change, review: Review | None) -> ChangeData:
    found = review.reason(c) if review is not None else None
    return {"id": c.id, "kind": c.kind, "from": _place(c.before), "to": _place(c.after),
            "basis": _maybe_place(c.basis), "seen_under": list(c.seen_under), "fields": list(c.fields),
            "values": {v.field: {"from": v.before, "to": v.after} for v in c.values},
            "possibly_renamed": _maybe_place(c.possibly_renamed),
            "acknowledged": {"reason": found[0], "by": found[1]} if found is not None else None}


def _gate(review: Review | None) -> GateData | None:
    if review is None:
        return None
    return {"fail_on": [str(s) for s in review.fail_on], "passed": review.passed,
            "failing": [c.id for c in review.failing], "acknowledged": list(review.acknowledged),
            "covered": list(review.covered),
            "stale": [{"id": a.id, "reason": a.reason} for a in review.stale], "file": review.source}


def comparison_data(cmp: Comparison, review: Review | None = None) -> DiffData:
    """A comparison as JSON-ready data, in the shape `schemas/diff.schema.json` describes; with `review`, the
    review gate's verdicts too."""
    found = cmp.counts()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "mode": cmp.mode,
        "from": _side(cmp.before),
        "to": _side(cmp.after),
        "counts": {"differences": len(cmp.changes), "unchanged": len(cmp.unchanged),
                   "by_kind": {k: found.get(k, 0) for k in KIND_IDS}},
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
    data: dict[str, Any] = json.loads(schema_text())
    return data
