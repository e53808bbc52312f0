"""Applying a diff: the earlier catalogue and the JSON of `catalog-docs diff --against REV --format json` give
the later catalogue back. That makes "the diff is complete" a checkable claim: tests/compare/
test_diff_complete.py applies the diff of random catalogue pairs and compares the result with the later
catalogue, model for model.

It reads only the records (and the unchanged values), never the later catalogue: every fact it needs must be
in them. Derived fields (slugs, keys, an entry's area as an object) are worked out as the loader does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from catalog_docs.catalog.model import (
    Area,
    Catalog,
    ListingEntry,
    LockValue,
    NotShown,
    PlanEntry,
    Service,
    VersionLabel,
    VersionMarker,
    entry_key,
    entry_slug,
    label_slug,
)
from catalog_docs.compare.changes import CHANGE_KINDS, ChangeKind
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


def _as_fields(changes: dict[str, Any], convert: Callable[[str, Any], Any] | None = None) -> dict[str, Any]:
    """A record's later values as model fields: without `order` (a place among its kind, not a field), each
    through `convert` when one is given."""
    return {k: (convert(k, v) if convert else v) for k, v in changes.items() if k != "order"}


def _with(obj: T, changes: dict[str, Any], convert: Callable[[str, Any], Any] | None = None) -> T:
    """`obj` with the fields of `changes` (but `order`, which is not a field) set to their later values."""
    fields = _as_fields(changes, convert)
    # The field names come from the diff JSON, checked against the record kind by its step; mypy cannot see
    # that `T` is a dataclass (dataclasses.replace takes any instance of one).
    return replace(obj, **fields)  # type: ignore[type-var]


def _entry_field(name: str, value: Any) -> Any:
    if name == "version_marker":
        return VersionMarker(at=value["at"], token=value["token"])
    if name == "not_shown":
        return tuple(value)
    return value


def _register_field(name: str, value: Any) -> Any:
    return tuple(value) if name == "entries" else value


@dataclass(slots=True)
class _Ordered:
    """One ordered collection of the later catalogue being rebuilt: what was removed, and where each added or
    moved name goes (from 1)."""

    removed: list[str] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)

    def place(self, name: str, record: Record) -> None:
        if "order" in record["values"]:
            self.placed[name] = _after(record)["order"]

    def order(self, old: list[str]) -> list[str]:
        return _reordered(old, self.removed, self.placed)


@dataclass(slots=True)
class _Later:
    """The later catalogue, rebuilt from the earlier one record by record (each kind's step is in STEPS)."""

    old: Catalog
    service_values: dict[str, Any] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    area_order: _Ordered = field(default_factory=_Ordered)
    kept: dict[int, tuple[ListingEntry, str | None]] = field(default_factory=dict)
    """Earlier entries by position, each with its area id, until a record removes or changes it."""
    entries: dict[int, tuple[ListingEntry, str | None]] = field(default_factory=dict)
    """Later entries (changed or added) by position, each with its area id."""
    values: dict[tuple[str, str, int], LockValue] = field(default_factory=dict)
    labels: dict[str, VersionLabel] = field(default_factory=dict)
    label_order: _Ordered = field(default_factory=_Ordered)
    plans: dict[str, dict[str, PlanEntry]] = field(default_factory=dict)
    """Plan entries added or changed, by label."""
    plan_order: dict[str, _Ordered] = field(default_factory=dict)
    register: dict[str, NotShown] = field(default_factory=dict)
    register_order: _Ordered = field(default_factory=_Ordered)

    @classmethod
    def of(cls, old: Catalog) -> _Later:
        return cls(old=old, areas={a.id: a for a in old.service.areas},
                   kept={e.position: (e, e.area.id if e.area is not None else None) for e in old.entries},
                   labels={v.label: v for v in old.versions}, register={n.id: n for n in old.not_shown})

    def plans_of(self, label: str) -> dict[str, PlanEntry]:
        return self.plans.setdefault(label, {})

    def plan_order_of(self, label: str) -> _Ordered:
        return self.plan_order.setdefault(label, _Ordered())


# ---- one step per kind of record ---------------------------------------------------------------------------

def _service_changed(later: _Later, r: Record) -> None:
    later.service_values = _after(r)


def _area_added(later: _Later, r: Record) -> None:
    area = r["to"]["area"]
    later.areas[area] = Area(id=area, **_as_fields(_after(r)))
    later.area_order.place(area, r)


def _area_changed(later: _Later, r: Record) -> None:
    later.areas[r["to"]["area"]] = _with(later.areas[r["from"]["area"]], _after(r))
    later.area_order.place(r["to"]["area"], r)


def _area_removed(later: _Later, r: Record) -> None:
    later.area_order.removed.append(r["from"]["area"])


def _entry_removed(later: _Later, r: Record) -> None:
    del later.kept[r["from"]["position"]]


def _entry_changed(later: _Later, r: Record) -> None:
    e, area = later.kept.pop(r["from"]["position"])
    changes = _after(r)
    area = changes.pop("area", area)
    e = _with(e, changes, _entry_field)
    later.entries[e.position] = (e, area)


def _entry_added(later: _Later, r: Record) -> None:
    facts = {k: _entry_field(k, v) for k, v in _after(r).items()}
    area = facts.pop("area")
    later.entries[facts["position"]] = (ListingEntry(slug="", key="", area=None, **facts), area)


def _value(later: _Later, r: Record) -> None:
    """value-changed and value-added: the value under the later side's label and plan entry."""
    later.values[(r["to"]["label"], r["to"]["plan"], r["to"]["position"])] = r["to"]["value"]


def _value_removed(later: _Later, r: Record) -> None:
    """Nothing to do: the later side has no value there (its plan entry, entry or label is gone)."""


def _label_added(later: _Later, r: Record) -> None:
    name = r["to"]["label"]
    later.labels[name] = VersionLabel(label=name, slug=label_slug(name), plans=(),
                                      **_as_fields(_after(r)))
    later.label_order.place(name, r)


def _label_changed(later: _Later, r: Record) -> None:
    later.labels[r["to"]["label"]] = _with(later.labels[r["from"]["label"]], _after(r))
    later.label_order.place(r["to"]["label"], r)


def _label_removed(later: _Later, r: Record) -> None:
    later.label_order.removed.append(r["from"]["label"])


def _plan_added(later: _Later, r: Record) -> None:
    label, plan = r["to"]["label"], r["to"]["plan"]
    later.plans_of(label)[plan] = PlanEntry(name=plan, slug=label_slug(plan), values=(), source=_after(r)["source"])
    later.plan_order_of(label).place(plan, r)


def _plan_changed(later: _Later, r: Record) -> None:
    label, plan = r["to"]["label"], r["to"]["plan"]
    version = later.old.version(r["from"]["label"])
    earlier = version.plan(r["from"]["plan"]) if version is not None else None
    if earlier is None:
        raise CatalogDocsError(f"the diff changes plan entry {r['from']['plan']!r} under {r['from']['label']!r}, "
                               "which the earlier catalogue does not list")
    later.plans_of(label)[plan] = _with(earlier, _after(r))
    later.plan_order_of(label).place(plan, r)


def _plan_removed(later: _Later, r: Record) -> None:
    later.plan_order_of(r["from"]["label"]).removed.append(r["from"]["plan"])


def _not_shown_added(later: _Later, r: Record) -> None:
    nid = r["to"]["not_shown"]
    later.register[nid] = NotShown(id=nid, **_as_fields(_after(r), _register_field))
    later.register_order.place(nid, r)


def _not_shown_changed(later: _Later, r: Record) -> None:
    nid = r["to"]["not_shown"]
    later.register[nid] = _with(later.register[r["from"]["not_shown"]], _after(r), _register_field)
    later.register_order.place(nid, r)


def _not_shown_removed(later: _Later, r: Record) -> None:
    later.register_order.removed.append(r["from"]["not_shown"])


STEPS: dict[ChangeKind, Callable[[_Later, Record], None]] = {
    "service-changed": _service_changed,
    "area-added": _area_added, "area-changed": _area_changed, "area-removed": _area_removed,
    "entry-added": _entry_added, "entry-changed": _entry_changed, "entry-removed": _entry_removed,
    "value-changed": _value, "value-added": _value, "value-removed": _value_removed,
    "label-added": _label_added, "label-changed": _label_changed, "label-removed": _label_removed,
    "plan-added": _plan_added, "plan-changed": _plan_changed, "plan-removed": _plan_removed,
    "not-shown-added": _not_shown_added, "not-shown-changed": _not_shown_changed,
    "not-shown-removed": _not_shown_removed,
}
"""What each kind of record does to the later catalogue; every kind has one step, in any record order."""
assert set(STEPS) == set(CHANGE_KINDS), "every kind of record has a step"


# ---- the later catalogue, once every record is applied ------------------------------------------------------

def _service(later: _Later) -> tuple[Service, tuple[str, ...]]:
    """The later service (with its areas in their later order) and the plan entry names it declares."""
    old = later.old
    values = later.service_values
    plan_names = values.get("plan_entries", values.get("plan_entry_order", list(old.plan_names)))
    own = {k: v for k, v in values.items() if k not in ("plan_entries", "plan_entry_order")}
    areas = later.area_order.order([a.id for a in old.service.areas])
    return replace(_with(old.service, own), areas=tuple(later.areas[a] for a in areas)), tuple(plan_names)


def _entries(later: _Later, service: Service) -> tuple[ListingEntry, ...]:
    """The later listing, by position; slugs, keys and areas worked out as the loader does."""
    entries = {**later.entries, **later.kept}
    area_of = {a.id: a for a in service.areas}
    return tuple(replace(e, slug=entry_slug(e.position, e.path), key=entry_key(e.position, e.path),
                         area=area_of[area] if area is not None else None)
                 for e, area in (entries[p] for p in sorted(entries)))


def _versions(later: _Later, entries: tuple[ListingEntry, ...]) -> tuple[VersionLabel, ...]:
    """The later labels in their order, each with its plan entries in their order and their later values."""
    versions = []
    for name in later.label_order.order([v.label for v in later.old.versions]):
        version = later.labels[name]
        plans = {p.name: p for p in version.plans} | later.plans.get(name, {})
        order = later.plan_order.get(name, _Ordered()).order([p.name for p in version.plans])
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
    from JSON), from the earlier one: each record applied by the step of its kind (STEPS), then the later
    catalogue assembled."""
    if data.get("format") != FORMAT or str(data.get("format_version", "")).split(".")[0] != "1":
        raise CatalogDocsError(f"expected a {FORMAT} 1.x document, found format {data.get('format')!r} "
                               f"version {data.get('format_version')!r}")
    if data.get("mode") != "revisions":
        raise CatalogDocsError("only a diff of two catalogues (mode revisions) can be applied, not mode "
                               f"{data.get('mode')!r}")
    later = _Later.of(old)
    for r in data["changes"]:
        step = STEPS.get(r["kind"])
        if step is None:
            raise CatalogDocsError(f"unknown change kind {r['kind']!r}; known kinds: {', '.join(CHANGE_KINDS)}")
        step(later, r)
    # Every (label, plan entry, position) of the later side has one record that says its value there.
    for u in data["unchanged"]:
        later.values[(u["to"]["label"], u["to"]["plan"], u["to"]["position"])] = u["to"]["value"]
    service, plan_names = _service(later)
    entries = _entries(later, service)
    register = later.register_order.order([n.id for n in old.not_shown])
    return Catalog(service=service, entries=entries, versions=_versions(later, entries), plan_names=plan_names,
                   not_shown=tuple(later.register[n] for n in register))
