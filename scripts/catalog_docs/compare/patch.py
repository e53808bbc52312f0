"""Applying a diff: the earlier catalogue and the JSON of `catalog-docs diff --against REV --format json` give
the later catalogue back. That makes "the diff is complete" a checkable claim: tests/compare/
test_diff_complete.py applies the diff of random catalogue pairs and compares the result with the later
catalogue, model for model.

It reads only the records (and the unchanged values), never the later catalogue: every fact it needs must be
in them. Derived fields (slugs, keys, an entry's area as an object) are worked out as the loader does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from catalog_docs.catalog.model import Catalog, ListingEntry, Service, VersionLabel, entry_key, entry_slug
from catalog_docs.compare.json_format import FORMAT
from catalog_docs.compare.rules import KIND_IDS, RULES_BY_ID
from catalog_docs.compare.steps import Later, Ordered, with_changes
from catalog_docs.errors import CatalogDocsError


def _service(later: Later) -> tuple[Service, tuple[str, ...]]:
    """The later service (with its areas in their later order) and the plan entry names it declares."""
    old = later.old
    values = later.service_values
    plan_names = values.get("plan_entries", values.get("plan_entry_order", list(old.plan_names)))
    own = {k: v for k, v in values.items() if k not in ("plan_entries", "plan_entry_order")}
    areas = later.area_order.order([a.id for a in old.service.areas])
    return replace(with_changes(old.service, own), areas=tuple(later.areas[a] for a in areas)), tuple(plan_names)


def _entries(later: Later, service: Service) -> tuple[ListingEntry, ...]:
    """The later listing, by position; slugs, keys and areas worked out as the loader does."""
    entries = {**later.entries, **later.kept}
    area_of = {a.id: a for a in service.areas}
    return tuple(replace(e, slug=entry_slug(e.position, e.path), key=entry_key(e.position, e.path),
                         area=area_of[area] if area is not None else None)
                 for e, area in (entries[p] for p in sorted(entries)))


def _versions(later: Later, entries: tuple[ListingEntry, ...]) -> tuple[VersionLabel, ...]:
    """The later labels in their order, each with its plan entries in their order and their later values."""
    versions = []
    for name in later.label_order.order([v.label for v in later.old.versions]):
        version = later.labels[name]
        plans = {p.name: p for p in version.plans} | later.plans.get(name, {})
        order = later.plan_order.get(name, Ordered()).order([p.name for p in version.plans])
        listed = []
        for plan_name in order:
            try:
                column = tuple(later.values[(name, plan_name, e.position)] for e in entries)
            except KeyError as missing:
                raise CatalogDocsError(f"the diff gives no value for {missing.args[0]!r}") from None
            listed.append(replace(plans[plan_name], values=column))
        versions.append(replace(version, plans=tuple(listed)))
    return tuple(versions)


def apply_diff(old: Catalog, data: Mapping[str, Any]) -> Catalog:
    """The later catalogue of a `revisions` diff (its JSON data, `json_format.DiffData`, or the same read back
    from JSON), from the earlier one: each record applied by the step of its kind (its
    rule's `step`, compare.rules), then the later
    catalogue assembled."""
    if data.get("format") != FORMAT or str(data.get("format_version", "")).split(".")[0] != "1":
        raise CatalogDocsError(f"expected a {FORMAT} 1.x document, found format {data.get('format')!r} "
                               f"version {data.get('format_version')!r}")
    if data.get("mode") != "revisions":
        raise CatalogDocsError("only a diff of two catalogues (mode revisions) can be applied, not mode "
                               f"{data.get('mode')!r}")
    later = Later.of(old)
    for r in data["changes"]:
        rule = RULES_BY_ID.get(r["kind"])
        if rule is None:
            raise CatalogDocsError(f"unknown change kind {r['kind']!r}; known kinds: {', '.join(KIND_IDS)}")
        rule.step(later, r)
    # Every (label, plan entry, position) of the later side has one record that says its value there.
    for u in data["unchanged"]:
        later.values[(u["to"]["label"], u["to"]["plan"], u["to"]["position"])] = u["to"]["value"]
    service, plan_names = _service(later)
    entries = _entries(later, service)
    register = later.register_order.order([n.id for n in old.not_shown])
    return Catalog(service=service, source_document=old.source_document, entries=entries,
                   versions=_versions(later, entries), plan_names=plan_names,
                   not_shown=tuple(later.register[n] for n in register))
