"""Stage 4b: exports. Plain data shapes of the model (and of comparisons) for downloads and tools."""

from __future__ import annotations

import json
from typing import Any

from .compare import Comparison
from .model import Catalog


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    """The whole model as JSON-ready data (published as /downloads/catalog.json)."""
    return {
        "service": {
            "name": catalog.service.name,
            "summary": catalog.service.summary,
            "source": catalog.service.source,
            "base_url": None,
            "base_url_source": catalog.service.base_url_source,
            "areas": [{"id": a.id, "name": a.name, "source": a.source} for a in catalog.service.areas],
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


def comparison_data(cmp: Comparison) -> dict[str, Any]:
    """A comparison as JSON-ready data (`catalog-docs diff --format json`)."""
    return {
        "from": cmp.from_side,
        "to": cmp.to_side,
        "plans_added": list(cmp.plans_added),
        "plans_removed": list(cmp.plans_removed),
        "changes": [
            {"kind": c.kind, "label": c.label, "plan": c.plan, "position": c.position, "path": c.path,
             "from": c.from_value, "to": c.to_value, "detail": c.detail}
            for c in cmp.changes
        ],
        "unchanged": [
            {"plan": u.plan, "position": u.position, "path": u.path, "value": u.value} for u in cmp.unchanged
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
