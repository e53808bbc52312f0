"""The OpenAPI 3.1 download (/downloads/openapi.yaml): the listing as a document that Redoc, Swagger UI,
Postman and code generators read, with nothing in it that the source does not state.

What the source does show but OpenAPI has no field for (lock values, the entry without a path, what is not
shown) is written twice: as Markdown descriptions, which every viewer displays without options, and under
`x-catalog` for programs. Catalogue text in a description is escaped, as on the site.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from catalog_docs.catalog.model import LOCK_VALUES, Area, Catalog, ListingEntry

OPENAPI_VERSION = "3.1.0"
PLACEHOLDER_SERVER = "https://base-url-not-shown.invalid"
"""The server URL: a valid URL that is visibly a placeholder. `.invalid` is reserved (RFC 2606) and never
resolves, so a request sent from Swagger UI or Postman reaches no host until a user supplies the real one."""
NO_AREA_TAG = "No area inferred"

_MD_INLINE = re.compile(r"([\\`*_\[\]|~!:@#$^=])")
"""Characters that start inline Markdown, a table cell boundary, an autolink or an extension's markup."""
_MD_LINE_START = re.compile(r"^([-+]|\d+(?=[.)]))")
"""What makes a list item (or a heading underline) at the start of a line."""
_HTML = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}


def md_text(text: object) -> str:
    """Catalogue text as literal Markdown on one line. `&`, `<` and `>` become character references, so no
    HTML can come from the catalogue (and no linter's script check fires on escaped text); the other
    characters that could start markup are backslash-escaped (CommonMark reads `\\*`, `\\|` ... as the
    character itself); `www.` cannot autolink; runs of white space become one space. Other punctuation stays
    as written, so the text reads well where a tool shows it raw."""
    return _md_text(str(text))


@lru_cache(maxsize=4096)
def _md_text(text: str) -> str:
    # Cached: sections, topics and names repeat in every operation's description.
    flat = _MD_INLINE.sub(r"\\\1", " ".join(text.split())).translate(_HTML)
    flat = re.sub(r"(?i)\b(www)\.", r"\1\\.", flat)
    return _MD_LINE_START.sub(lambda m: "\\" + m.group(1) if not m.group(1).isdigit() else m.group(1) + "\\", flat)


def md_code(text: object) -> str:
    """A name (label, plan entry, path, value) as a Markdown code span, safe inside a table cell."""
    return _md_code(str(text))


@lru_cache(maxsize=4096)
def _md_code(text: str) -> str:
    # Cached: the lock tables repeat the same labels, plan entries and values in every operation's description.
    value = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall("`+", value)), default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}".replace("|", "\\|")  # GFM splits cells on | even in code


def _table(head: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    head = list(head)
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _locks(catalog: Catalog, entry: ListingEntry) -> dict[str, dict[str, str]]:
    return {v.label: {p.name: p.values[entry.position - 1] for p in v.plans} for v in catalog.versions}


def _lock_table(catalog: Catalog, entry: ListingEntry) -> str:
    return _table(("Version label", "Plan entry", "Lock value"), (
        (md_code(v.label), md_code(p.name), md_code(p.values[entry.position - 1]))
        for v in catalog.versions for p in v.plans))


def _not_shown_line(catalog: Catalog, entry: ListingEntry) -> str:
    items = "; ".join(f"{md_text(n.topic)} ({md_text(n.section)})" for n in catalog.not_shown_for(entry))
    return f"**Not shown in the source:** {items}." if items else ""


def _entry_description(catalog: Catalog, entry: ListingEntry, area_tag: str | None) -> str:
    parts = [
        f"Listing entry {entry.position} ({md_text(entry.source)}). Its lock value under every version label "
        f"and plan entry ({md_text(catalog.service.lock_values_source)}):",
        _lock_table(catalog, entry),
    ]
    if area_tag is not None and entry.area is not None:
        parts.append(f"**Area (inferred):** {md_text(entry.area.name)}. This is our guess from the operation's "
                     "name, not stated by the source.")
    parts.append(_not_shown_line(catalog, entry))
    return "\n\n".join(p for p in parts if p)


def _area_tags(catalog: Catalog) -> dict[str, str]:
    """Tag name per area id: the area's name marked as inferred (with its id when two areas share a name)."""
    names = {a.id: " ".join(a.name.split()) for a in catalog.service.areas}  # a tag name is one line
    repeated = Counter(names.values())
    return {a: f"{n} (inferred area)" if repeated[n] == 1 else f"{n} ({a}, inferred area)" for a, n in names.items()}


def _tag(name: str, area: Area | None) -> dict[str, Any]:
    if area is None:
        return {"name": name, "description": (
            "Operations whose names suggest none of the areas: no area is inferred for them."),
            "x-catalog": {"area": None, "inferred": True}}
    return {"name": name, "description": (
        f"An area of the service ({md_text(area.source)}). Which operations belong to it is our inference from "
        "their names, not stated by the source."), "x-catalog": {"area": area.id, "inferred": True}}


def _info_description(catalog: Catalog, format_version: str) -> str:
    svc = catalog.service
    pathless = [e for e in catalog.entries if e.path is None]
    labels = _table(("Version label", "Plan table", "Value column", "Plan entries listed"), (
        (f"{md_code(v.label)} ({md_text(v.source)})", md_text(v.plan_table), md_text(v.value_column),
         ", ".join(md_code(p.name) for p in v.plans)) for v in catalog.versions))
    parts = [
        md_text(svc.summary),
        "Generated from the catalogue by catalog-docs. It holds only what the source document states. What the "
        "source does not show (request and response payloads, security and more) is left out, not invented, "
        "and listed at the end with its section.",
        "## Base URL",
        f"Not shown in the source ({md_text(svc.base_url_source)}). The server URL `{PLACEHOLDER_SERVER}` is a "
        "placeholder under the reserved `.invalid` domain, which never resolves: replace it with the "
        "service's base URL before sending a request.",
        "## Areas",
        "Operations are grouped by tags named after the areas of the service. Each operation's area is "
        "inferred from its name, not stated by the source, so every such tag ends in \"(inferred area)\".",
        "## Lock values",
        f"Each plan entry sets a lock value for every listing entry under each version label "
        f"({md_text(svc.lock_values_source)}): {', '.join(md_code(v) for v in LOCK_VALUES)}. Each operation's "
        "description has its values in a table. What the values mean is not shown in the source.",
        "## Version labels",
        "Oldest first; `info.version` is the latest.",
        labels,
    ]
    if pathless:
        parts += [
            "## Listing entries without a path",
            f"The listing has {len(catalog.entries)} entries and {catalog.distinct_paths} paths. An OpenAPI "
            "path needs a path, so the entries below are described here (and under the root `x-catalog`).",
        ]
        for e in pathless:
            parts += [f"### Entry {e.position}",
                      f"Method {md_code(e.method)}; path not shown. " + _entry_description(catalog, e, None)]
    parts += [
        "## Not shown in the source",
        "\n".join(f"- **{md_text(n.topic)}** ({md_text(n.section)}): {md_text(n.detail)}" for n in catalog.not_shown),
        "## Extensions",
        f"The same facts for programs (format version {md_code(format_version)}, as for catalog.json): each "
        "operation's `x-catalog` holds its listing position, its lock values (`locks`: version label, then plan "
        "entry, then value), its inferred area and the ids of what is not shown for it. The root `x-catalog` "
        "holds the version labels with their plan tables and the listing entries without a path; "
        "`x-not-shown` is the register of what the source does not show.",
    ]
    return "\n\n".join(parts)


def openapi_document(catalog: Catalog, format_version: str, *,
                     skip_path: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """An OpenAPI 3.1 document of the listing: one POST operation per path, with no request body, responses
    or security, since the source shows none of them. A path for which `skip_path` is true keeps its place
    in `paths` with None for its item (the preview splices in the item's text from its last render)."""
    area_tags = _area_tags(catalog)
    paths, used = _path_items(catalog, area_tags, skip_path)
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": catalog.service.name,
            "version": catalog.versions[-1].label,
            # No `summary`: Redoc renders it as Markdown with HTML, so the service's summary is written, escaped,
            # at the head of the description instead.
            "description": _info_description(catalog, format_version),
        },
        "servers": [{
            "url": PLACEHOLDER_SERVER,
            "description": (f"Placeholder: the base URL is not shown in the source "
                            f"({catalog.service.base_url_source}). Replace it with the service's base URL."),
        }],
        "tags": _tags(catalog, area_tags, used),
        "paths": paths,
        "x-catalog": _catalog_extension(catalog, format_version),
        "x-not-shown": [
            {"id": n.id, "topic": n.topic, "detail": n.detail, "section": n.section, "scope": n.scope,
             "subject": n.subject}
            for n in catalog.not_shown
        ],
    }


def path_item(catalog: Catalog, e: ListingEntry, area_tags: dict[str, str]) -> dict[str, Any]:
    """One path's item of the document, made alone (`area_tags`: area_tags(catalog)), for a writer that writes
    each path as it comes instead of the whole document at once."""
    return _path_item(catalog, e, area_tags)


def area_tags(catalog: Catalog) -> dict[str, str]:
    """The tag of each area, by its id (as path_item takes them)."""
    return _area_tags(catalog)


def _path_items(catalog: Catalog, area_tags: dict[str, str], skip_path: Callable[[str], bool] | None,
                ) -> tuple[dict[str, Any], set[str | None]]:
    """Every path's item (None for a skipped one), in listing order, and the areas they use (None: no area)."""
    used: set[str | None] = set()
    paths: dict[str, Any] = {}
    for e in catalog.entries:
        if e.path is None:
            continue
        used.add(e.area.id if e.area is not None else None)
        skipped = skip_path is not None and skip_path(e.path)
        paths[e.path] = None if skipped else _path_item(catalog, e, area_tags)
    return paths, used


def _path_item(catalog: Catalog, e: ListingEntry, area_tags: dict[str, str]) -> dict[str, Any]:
    """A path's item: its one POST operation and what the catalogue records of it (`x-catalog`)."""
    tag = area_tags[e.area.id] if e.area is not None else NO_AREA_TAG
    return {"post": {
        "operationId": e.slug,
        "summary": f"POST {e.path}",
        "description": _entry_description(catalog, e, tag),
        "tags": [tag],
        "x-catalog": {
            "position": e.position,
            "locks": _locks(catalog, e),
            "area": ({"id": e.area.id, "name": e.area.name, "inferred": True} if e.area else None),
            "not_shown": [n.id for n in catalog.not_shown_for(e)],
            "source": e.source,
        },
    }}


def _tags(catalog: Catalog, area_tags: dict[str, str], used: set[str | None]) -> list[dict[str, Any]]:
    """A tag per area some path uses, in the service's order, then the no-area tag when a path has none."""
    tags = [_tag(area_tags[a.id], a) for a in catalog.service.areas if a.id in used]
    if None in used:
        tags.append(_tag(NO_AREA_TAG, None))
    return tags


def _catalog_extension(catalog: Catalog, format_version: str) -> dict[str, Any]:
    """The document's `x-catalog`: what the catalogue records beyond the paths."""
    return {
        "format_version": format_version,
        "lock_values": list(LOCK_VALUES),
        "lock_values_source": catalog.service.lock_values_source,
        "base_url": None,
        "base_url_source": catalog.service.base_url_source,
        "version_labels": [
            {"label": v.label, "source": v.source, "plan_table": v.plan_table, "value_column": v.value_column,
             "plan_entries": [p.name for p in v.plans]}
            for v in catalog.versions
        ],
        "listing_entries": len(catalog.entries),
        "entries_without_path": [
            {"position": e.position, "method": e.method, "path": None, "source": e.source,
             "locks": _locks(catalog, e), "not_shown": [n.id for n in catalog.not_shown_for(e)]}
            for e in catalog.entries if e.path is None
        ],
    }
