"""Stage 4b: exports. Plain data shapes of the model (and of comparisons) for downloads and tools."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Literal

import yaml

from .errors import CatalogDocsError
from .model import LOCK_VALUES, Catalog
from .openapi import openapi_document

ExportFormat = Literal["json", "csv", "openapi"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("json", "csv", "openapi")
MATRIX_FIXED_COLUMNS = ("position", "method", "path")
NOT_SHOWN_CELL = "not shown"
"""The lock matrix's path cell for an entry whose path the source does not show. A path starts with '/', so
this text is never a path, and no cell of the matrix is ever empty."""
CATALOG_FORMAT_VERSION = "1.0"
"""The format of catalog.json and of the OpenAPI document's `x-catalog` extensions, as MAJOR.MINOR. A field
added is a minor change; a field removed, renamed or retyped, a value whose meaning changes, or a closed
vocabulary that gains a member is a major change (README, "Downloads"). catalog.schema.json describes it."""


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    """The whole model as JSON-ready data (published as /downloads/catalog.json)."""
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
        "versions": [
            {
                "label": v.label,
                "slug": v.slug,
                "source": v.source,
                "plan_table": v.plan_table,
                "value_column": v.value_column,
                "plans": [
                    {
                        "name": p.name,
                        "slug": p.slug,
                        "source": p.source,
                        "values": [
                            {"position": e.position, "path": e.path, "value": value}
                            for e, value in zip(catalog.entries, p.values)
                        ],
                    }
                    for p in v.plans
                ],
            }
            for v in catalog.versions
        ],
        "not_shown": [
            {"id": n.id, "topic": n.topic, "detail": n.detail, "section": n.section, "scope": n.scope,
             "entries": list(n.entries)}
            for n in catalog.not_shown
        ],
    }


def to_json(data: Any) -> str:
    """Stable, readable JSON text: exactly `json.dumps(data, indent=2, ensure_ascii=False)` and a newline.

    The standard library only uses its C encoder without indentation; the whole-catalogue download
    holds a million values, so JSON-ready data (dicts with text keys, lists, text, numbers, booleans,
    null) is written here, several times faster. Anything else goes through json.dumps."""
    out: list[str] = []
    try:
        _pretty(data, "\n", out)
    except _NotPlain:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    out.append("\n")
    return "".join(out)


class _NotPlain(Exception):
    pass


_encode_str = json.encoder.encode_basestring  # the C version when available, as json.dumps uses
_SCALARS = {True: "true", False: "false"}


def _pretty(value: Any, newline: str, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(_encode_str(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is bool:
        out.append(_SCALARS[value])
    elif value is None:
        out.append("null")
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        sep = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out.append(sep)
            out.append(_encode_str(key))
            out.append(": ")
            _pretty(item, inner, out)
            sep = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        sep = "[" + inner
        for item in value:
            out.append(sep)
            _pretty(item, inner, out)
            sep = "," + inner
        out.append(newline + "]")
    else:  # floats, subclasses and anything else: let json decide
        raise _NotPlain


def lock_matrix_columns(catalog: Catalog) -> list[str]:
    """The value columns of the lock matrix, one per (label, plan entry), named `LABEL:PLAN` as `diff` reads them."""
    return [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans]


def lock_matrix_csv(catalog: Catalog) -> str:
    """One row per listing entry, one column per (label, plan entry), plus position, method and path
    (published as /downloads/lock-matrix.csv). An entry whose path is not shown has NOT_SHOWN_CELL as its path."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*MATRIX_FIXED_COLUMNS, *lock_matrix_columns(catalog)])
    for e in catalog.entries:
        values = [p.values[e.position - 1] for v in catalog.versions for p in v.plans]
        writer.writerow([e.position, e.method, NOT_SHOWN_CELL if e.path is None else e.path, *values])
    return out.getvalue()


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
        for key, value in zip(keys, row[3:]):
            if value not in LOCK_VALUES:
                raise CatalogDocsError(f"lock matrix line {line}: {value!r} is not one of {', '.join(LOCK_VALUES)}")
            columns[key].append(value)
    return {"entries": entries, "values": {k: tuple(v) for k, v in columns.items()}}


def openapi_data(catalog: Catalog) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the listing (published as /downloads/openapi.yaml); see `openapi`."""
    return openapi_document(catalog, CATALOG_FORMAT_VERSION)


def to_yaml(data: Any) -> str:
    """Stable block-style YAML text, keys in the order given, that `yaml.safe_load` reads back as `data`.

    PyYAML's emitter handles each value through a chain of Python calls; the OpenAPI download of a
    large catalogue holds a lock value per operation, label and plan entry, so JSON-ready data (dicts
    with text keys, lists, text, whole numbers, booleans, null) is written here in a few passes:
    text stays plain when it cannot be read as anything but text, and is double-quoted otherwise.
    Anything else goes through PyYAML."""
    out: list[str] = []
    try:
        if type(data) is dict and data:
            _yaml_map(data, "", out)
        elif type(data) in (list, tuple) and data:
            _yaml_seq(data, "", out)
        else:
            out.append(_yaml_scalar(data) + "\n")
    except _NotPlain:
        return yaml.dump(data, Dumper=_SafeDumper, sort_keys=False, allow_unicode=True, width=110)
    return "".join(out)


_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_YAML_PLAIN = re.compile(r"[A-Za-z_/§][A-Za-z0-9_ ./()§-]*").fullmatch
"""Text that YAML reads as text when written plain: no indicator characters (`:`, `#`, quotes,
brackets...), not starting with a digit or `.`, and not ending in a space."""
_YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}
"""Words YAML 1.1 or 1.2 reads as null or booleans (in any case), so they are quoted."""
_YAML_UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]").search
"""Characters that JSON leaves raw but a quoted YAML scalar cannot hold as they are: the unprintable
ones and the line breaks U+0085, U+2028 and U+2029, which YAML folds (JSON escapes only those below U+0020)."""


def _yaml_scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        if _YAML_PLAIN(value) and not value.endswith(" ") and value.lower() not in _YAML_WORDS:
            return value
        if _YAML_UNPRINTABLE(value):
            raise _NotPlain
        return _encode_str(value)  # a JSON string is a YAML double-quoted scalar
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return _SCALARS[value]
    if value is None:
        return "null"
    if (kind is dict or kind is list or kind is tuple) and not value:
        return "{}" if kind is dict else "[]"
    raise _NotPlain


def _yaml_map(value: dict[Any, Any], indent: str, out: list[str]) -> None:
    inner = indent + "  "
    for key, item in value.items():
        if type(key) is not str:
            raise _NotPlain
        kind = type(item)
        if kind is dict and item:
            out.append(f"{indent}{_yaml_scalar(key)}:\n")
            _yaml_map(item, inner, out)
        elif (kind is list or kind is tuple) and item:
            out.append(f"{indent}{_yaml_scalar(key)}:\n")
            _yaml_seq(item, inner, out)
        elif kind is str and "\n" in item and _yaml_block_safe(item):
            # Several lines (the OpenAPI descriptions): a literal block, read line by line as written.
            out.append(f"{indent}{_yaml_scalar(key)}: |-\n")
            out.extend(f"{inner}{line}\n" if line else "\n" for line in item.split("\n"))
        else:
            out.append(f"{indent}{_yaml_scalar(key)}: {_yaml_scalar(item)}\n")


_YAML_BLOCK_UNSAFE = re.compile("[\r\ufeff]|\n[ \t]*$|^[ \t\n]").search
"""Text a literal block (`|-`) would not give back as written: a carriage return or byte-order mark, an
ending line break or blank last line (`-` chomps it), or a first line starting blank (it sets the indent)."""


def _yaml_block_safe(text: str) -> bool:
    return not _YAML_BLOCK_UNSAFE(text) and not _YAML_UNPRINTABLE(text)


def _yaml_seq(value: Any, indent: str, out: list[str]) -> None:
    inner = indent + "  "
    for item in value:
        kind = type(item)
        if (kind is dict or kind is list or kind is tuple) and item:
            start = len(out)
            (_yaml_map if kind is dict else _yaml_seq)(item, inner, out)
            out[start] = indent + "- " + out[start][len(inner):]  # the item's first line follows its dash
        else:
            out.append(f"{indent}- {_yaml_scalar(item)}\n")


def export_text(catalog: Catalog, fmt: str) -> str:
    """The catalogue in one of EXPORT_FORMATS: json (the model), csv (the lock matrix), openapi (YAML)."""
    if fmt == "json":
        return to_json(catalog_data(catalog))
    if fmt == "csv":
        return lock_matrix_csv(catalog)
    if fmt == "openapi":
        return to_yaml(openapi_data(catalog))
    raise CatalogDocsError(f"unknown export format {fmt!r}; valid formats: {', '.join(EXPORT_FORMATS)}")
