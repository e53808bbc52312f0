"""Applying a diff: the earlier catalogue and the JSON of `catalog-docs diff --against REV --format json` give
the later catalogue back. That makes "the diff is complete" a checkable claim: tests/compare/
test_diff_complete.py applies the diff of random catalogue pairs and compares the result with the later
catalogue, model for model.

It reads only the records (and the unchanged values), never the later catalogue: every fact it needs must be
in them. Derived fields (slugs, keys, an entry's area as an object) are worked out as the loader does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

from catalog_docs.catalog.model import (
    Area,
    Catalog,
    ListingEntry,
    NotShown,
    PlanEntry,
    Service,
    VersionLabel,
    VersionMarker,
    entry_key,
    entry_slug,
    label_slug,
)
from catalog_docs.compare.json_format import FORMAT
from catalog_docs.errors import CatalogDocsError

T = TypeVar("T")
Record = dict[str, Any]


def _after(record: Record) -> dict[str, Any]:
    """The later side's value of each field a record carries."""
    return {f: v["to"] for f, v in record["values"].items()}


def _reordered(old: list[str], removed: Iterable[str], placed: dict[str, int]) -> list[str]:
    """The later order of a collection: `old` without `removed`, with each name of `placed` (added, or moved
    among the names on both sides) at its place (from 1); the names that did not move keep their order in
    the free places, as they kept it among the names on both sides."""
    gone = set(removed)
    kept = [n for n in old if n not in gone]
    size = len(kept) + sum(1 for n in placed if n not in kept)
    slots: list[str | None] = [None] * size
    for name, at in placed.items():
        if not 1 <= at <= size or slots[at - 1] is not None:
            raise CatalogDocsError(f"the diff places {name!r} at {at}, which is not a free place of 1 to {size}")
        slots[at - 1] = name
    rest = iter(n for n in kept if n not in placed)
    return [s if s is not None else next(rest) for s in slots]


def _with(obj: T, changes: dict[str, Any], convert: Callable[[str, Any], Any] | None = None) -> T:
    """`obj` with the fields of `changes` (but `order`, which is not a field) set to their later values."""
    fields = {k: (convert(k, v) if convert else v) for k, v in changes.items() if k != "order"}
    return replace(obj, **fields)  # type: ignore[type-var]


def _entry_field(name: str, value: Any) -> Any:
    if name == "version_marker":
        return VersionMarker(at=value["at"], token=value["token"])
    if name == "not_shown":
        return tuple(value)
    return value


def _register_field(name: str, value: Any) -> Any:
    return tuple(value) if name == "entries" else value


def apply_diff(old: Catalog, data: dict[str, Any]) -> Catalog:
    """The later catalogue of a `revisions` diff (its JSON data), from the earlier one."""
    if data.get("format") != FORMAT or str(data.get("format_version", "")).split(".")[0] != "1":
        raise CatalogDocsError(f"expected a {FORMAT} 1.x document, found format {data.get('format')!r} "
                               f"version {data.get('format_version')!r}")
    if data.get("mode") != "revisions":
        raise CatalogDocsError(f"only a diff of two catalogues (mode revisions) can be applied, not mode {data.get('mode')!r}")
    records: list[Record] = data["changes"]

    def of(kind: str) -> list[Record]:
        return [r for r in records if r["kind"] == kind]

    # The service and its areas.
    service_values = next((_after(r) for r in of("service-changed")), {})
    plan_names = service_values.get("plan_entries", service_values.get("plan_entry_order", list(old.plan_names)))
    areas = {a.id: a for a in old.service.areas}
    for r in of("area-added"):
        areas[r["to"]["area"]] = Area(id=r["to"]["area"], **{k: v for k, v in _after(r).items() if k != "order"})
    for r in of("area-changed"):
        areas[r["to"]["area"]] = _with(areas[r["from"]["area"]], _after(r))
    area_order = _reordered([a.id for a in old.service.areas], (r["from"]["area"] for r in of("area-removed")),
                            {r["to"]["area"]: _after(r)["order"] for r in of("area-added") + of("area-changed")
                             if "order" in r["values"]})
    own = {k: v for k, v in service_values.items() if k not in ("plan_entries", "plan_entry_order")}
    service: Service = _with(old.service, own)
    service = replace(service, areas=tuple(areas[a] for a in area_order))

    # Listing entries, by position; an entry's area is held by id until the later areas are known.
    kept: dict[int, tuple[ListingEntry, str | None]] = {
        e.position: (e, e.area.id if e.area is not None else None) for e in old.entries}
    for r in of("entry-removed"):
        del kept[r["from"]["position"]]
    later: dict[int, tuple[ListingEntry, str | None]] = {}
    for r in of("entry-changed"):
        e, area = kept.pop(r["from"]["position"])
        changes = _after(r)
        area = changes.pop("area", area)
        e = _with(e, changes, _entry_field)
        later[e.position] = (e, area)
    for r in of("entry-added"):
        facts = {k: _entry_field(k, v) for k, v in _after(r).items()}
        area = facts.pop("area")
        later[facts["position"]] = (ListingEntry(slug="", key="", area=None, **facts), area)
    later.update((e.position, (e, area)) for e, area in kept.values())
    area_of = {a.id: a for a in service.areas}
    entries = tuple(replace(e, slug=entry_slug(e.position, e.path), key=entry_key(e.position, e.path),
                            area=area_of[area] if area is not None else None)
                    for e, area in (later[p] for p in sorted(later)))

    # Values: every (label, plan entry, position) of the later side has one record that says its value there.
    values: dict[tuple[str, str, int], str] = {}
    for r in records:
        if r["kind"] in ("value-changed", "value-added"):
            values[(r["to"]["label"], r["to"]["plan"], r["to"]["position"])] = r["to"]["value"]
    for u in data["unchanged"]:
        values[(u["to"]["label"], u["to"]["plan"], u["to"]["position"])] = u["to"]["value"]

    # Version labels, and the plan entries listed under each.
    labels = {v.label: v for v in old.versions}
    for r in of("label-added"):
        name = r["to"]["label"]
        labels[name] = VersionLabel(label=name, slug=label_slug(name), plans=(),
                                    **{k: v for k, v in _after(r).items() if k != "order"})
    for r in of("label-changed"):
        labels[r["to"]["label"]] = _with(labels[r["from"]["label"]], _after(r))
    label_order = _reordered([v.label for v in old.versions], (r["from"]["label"] for r in of("label-removed")),
                             {r["to"]["label"]: _after(r)["order"] for r in of("label-added") + of("label-changed")
                              if "order" in r["values"]})
    versions = []
    for name in label_order:
        version = labels[name]
        plans = {p.name: p for p in version.plans}
        for r in of("plan-added"):
            if r["to"]["label"] == name:
                plans[r["to"]["plan"]] = PlanEntry(name=r["to"]["plan"], slug=label_slug(r["to"]["plan"]), values=(),
                                                   source=_after(r)["source"])
        for r in of("plan-changed"):
            if r["to"]["label"] == name:
                plans[r["to"]["plan"]] = _with(plans[r["from"]["plan"]], _after(r))
        order = _reordered([p.name for p in version.plans],
                           (r["from"]["plan"] for r in of("plan-removed") if r["from"]["label"] == name),
                           {r["to"]["plan"]: _after(r)["order"] for r in of("plan-added") + of("plan-changed")
                            if r["to"]["label"] == name and "order" in r["values"]})
        listed = []
        for plan_name in order:
            try:
                column = tuple(values[(name, plan_name, e.position)] for e in entries)
            except KeyError as missing:
                raise CatalogDocsError(f"the diff gives no value for {missing.args[0]!r}") from None
            listed.append(replace(plans[plan_name], values=column))
        versions.append(replace(version, plans=tuple(listed)))

    # The not-shown register.
    register = {n.id: n for n in old.not_shown}
    for r in of("not-shown-added"):
        nid = r["to"]["not_shown"]
        register[nid] = NotShown(id=nid, **{k: _register_field(k, v) for k, v in _after(r).items() if k != "order"})
    for r in of("not-shown-changed"):
        register[r["to"]["not_shown"]] = _with(register[r["from"]["not_shown"]], _after(r), _register_field)
    register_order = _reordered([n.id for n in old.not_shown], (r["from"]["not_shown"] for r in of("not-shown-removed")),
                                {r["to"]["not_shown"]: _after(r)["order"]
                                 for r in of("not-shown-added") + of("not-shown-changed") if "order" in r["values"]})
    return Catalog(service=service, entries=entries, versions=tuple(versions), plan_names=tuple(plan_names),
                   not_shown=tuple(register[n] for n in register_order))
