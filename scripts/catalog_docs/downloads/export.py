"""Downloads: exports. Plain data shapes of the model (and of comparisons) for downloads and tools."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from catalog_docs.catalog.model import LOCK_VALUES, Catalog, PlanEntry, VersionLabel
from catalog_docs.downloads.openapi import openapi_document
from catalog_docs.errors import CatalogDocsError
from catalog_docs.serialize import to_json, to_yaml

ExportFormat = Literal["json", "csv", "openapi"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("json", "csv", "openapi")
MATRIX_FIXED_COLUMNS = ("position", "method", "path")
NOT_SHOWN_CELL = "not shown"
"""The lock matrix's path cell for an entry whose path the source does not show. A path starts with '/', so
this text is never a path, and no cell of the matrix is ever empty."""
CATALOG_FORMAT_VERSION = "1.1"
"""The format of catalog.json and of the OpenAPI document's `x-catalog` extensions, as MAJOR.MINOR. A field
added is a minor change; a field removed, renamed or retyped, a value whose meaning changes, or a closed
vocabulary that gains a member is a major change (README, "Downloads"). catalog.schema.json describes it.

- 1.0: the first published format.
- 1.1: each not-shown item (catalog.json `not_shown`, the OpenAPI document's `x-not-shown`) carries `subject`,
  the catalogue field it says is not given (`entry-path`, `entry-position`, `version-marker`, `base-url`), or
  null for a fact the catalogue has no field for."""


def catalog_data(catalog: Catalog, *, versions: bool = True) -> dict[str, Any]:
    """The whole model as JSON-ready data (published as /downloads/catalog.json). `versions=False`: with an
    empty `versions` list in its place, for a writer that adds each label's part as it goes (version_data)."""
    return {
        "format_version": CATALOG_FORMAT_VERSION,
        "service": {
            "name": catalog.service.name,
            "summary": catalog.service.summary,
            "source": catalog.service.source,
            "base_url": None,
            "base_url_source": catalog.service.base_url_source,
            "areas": [{"id": a.id, "name": a.name, "source": a.source} for a in catalog.service.areas],
            "lock_values": list(LOCK_VALUES),
            "lock_values_source": catalog.service.lock_values_source,
        },
        "operations": [
            {
                "position": e.position,
                "slug": e.slug,
                "key": e.key,
                "method": e.method,
                "path": e.path,
                "area": e.area.id if e.area else None,
                "area_inferred": e.area is not None,
                "version_marker": {"at": e.version_marker.at, "token": e.version_marker.token},
                "source": e.source,
                "not_shown": [n.id for n in catalog.not_shown_for(e)],
            }
            for e in catalog.entries
        ],
        "plan_entries": list(catalog.plan_names),
        "versions": [version_data(catalog, v) for v in catalog.versions] if versions else [],
        "not_shown": [
            {"id": n.id, "topic": n.topic, "detail": n.detail, "section": n.section, "scope": n.scope,
             "entries": list(n.entries), "subject": n.subject}
            for n in catalog.not_shown
        ],
    }


def version_data(catalog: Catalog, v: VersionLabel, *, plans: bool = True) -> dict[str, Any]:
    """One label of catalog.json's `versions`; `plans=False`: with an empty `plans` list (see plan_data)."""
    return {
        "label": v.label,
        "slug": v.slug,
        "source": v.source,
        "plan_table": v.plan_table,
        "value_column": v.value_column,
        "plans": [plan_data(catalog, p) for p in v.plans] if plans else [],
    }


def plan_data(catalog: Catalog, p: PlanEntry) -> dict[str, Any]:
    """One plan entry of a label in catalog.json: every value, with its listing entry's position and path."""
    return {
        "name": p.name,
        "slug": p.slug,
        "source": p.source,
        "values": [
            {"position": e.position, "path": e.path, "value": value}
            for e, value in zip(catalog.entries, p.values, strict=True)
        ],
    }


def lock_matrix_columns(catalog: Catalog) -> list[str]:
    """The value columns of the lock matrix, one per (label, plan entry), named `LABEL:PLAN` as `diff` reads them."""
    return [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans]


def lock_matrix_csv(catalog: Catalog) -> str:
    """One row per listing entry, one column per (label, plan entry), plus position, method and path
    (published as /downloads/lock-matrix.csv). An entry whose path is not shown has NOT_SHOWN_CELL as its path."""
    return "".join(lock_matrix_parts(catalog))


MATRIX_ROWS_PER_PART = 500
"""Rows of the lock matrix in one part of its text (lock_matrix_parts)."""


def lock_matrix_parts(catalog: Catalog, rows: Sequence[Sequence[str]] | None = None) -> Iterator[str]:
    """lock_matrix_csv's text in parts, a few hundred rows each, for a writer that writes each part as it comes.
    `rows`: every listing entry's values in column order (lock_matrix_columns), when the caller has them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*MATRIX_FIXED_COLUMNS, *lock_matrix_columns(catalog)])
    plans = [p.values for v in catalog.versions for p in v.plans]
    for n, e in enumerate(catalog.entries):
        values = rows[n] if rows is not None else [column[n] for column in plans]
        writer.writerow([e.position, e.method, NOT_SHOWN_CELL if e.path is None else e.path, *values])
        if n % MATRIX_ROWS_PER_PART == MATRIX_ROWS_PER_PART - 1:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def read_lock_matrix(text: str) -> dict[str, Any]:
    """Read a lock-matrix CSV back: `entries` as (position, method, path) and `values` as
    {(label, plan entry): values in listing order}. Raises CatalogDocsError on a malformed file."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(rows[0][:3]) != MATRIX_FIXED_COLUMNS:
        raise CatalogDocsError(f"lock matrix: expected the header to start with {', '.join(MATRIX_FIXED_COLUMNS)}")
    header = rows[0]
    keys = []
    for name in header[3:]:
        label, sep, plan = name.partition(":")
        if not sep or not label or not plan:
            raise CatalogDocsError(f"lock matrix: column {name!r} is not LABEL:PLAN")
        keys.append((label, plan))
    entries = []
    columns: dict[tuple[str, str], list[str]] = {k: [] for k in keys}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise CatalogDocsError(f"lock matrix line {line}: {len(row)} cells, expected {len(header)}")
        if not row[2]:
            raise CatalogDocsError(f"lock matrix line {line}: empty path cell; a path not shown is {NOT_SHOWN_CELL!r}")
        entries.append((int(row[0]), row[1], None if row[2] == NOT_SHOWN_CELL else row[2]))
        for key, value in zip(keys, row[3:], strict=True):  # row length checked above
            if value not in LOCK_VALUES:
                raise CatalogDocsError(f"lock matrix line {line}: {value!r} is not one of {', '.join(LOCK_VALUES)}")
            columns[key].append(value)
    return {"entries": entries, "values": {k: tuple(v) for k, v in columns.items()}}


def openapi_data(catalog: Catalog, *, skip_path: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the listing (published as /downloads/openapi.yaml); see `openapi`.
    `skip_path`: see `openapi_document`."""
    return openapi_document(catalog, CATALOG_FORMAT_VERSION, skip_path=skip_path)



def export_text(catalog: Catalog, fmt: str) -> str:
    """The catalogue in one of EXPORT_FORMATS: json (the model), csv (the lock matrix), openapi (YAML)."""
    if fmt == "json":
        return to_json(catalog_data(catalog))
    if fmt == "csv":
        return lock_matrix_csv(catalog)
    if fmt == "openapi":
        return to_yaml(openapi_data(catalog))
    raise CatalogDocsError(f"unknown export format {fmt!r}; valid formats: {', '.join(EXPORT_FORMATS)}")
