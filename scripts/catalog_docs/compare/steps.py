"""One step per kind of change record: what a record of that kind does to the later catalogue as `patch.apply_diff`
rebuilds it from the earlier one. Each kind's step is its `step` in `compare.rules`; the steps read only the
record (the JSON of `catalog-docs diff --format json`), never the later catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from catalog_docs.catalog.model import (
    Area,
    Catalog,
    ListingEntry,
    LockValue,
    NotShown,
    PlanEntry,
    VersionLabel,
    VersionMarker,
    label_slug,
)
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


def with_changes(obj: T, changes: dict[str, Any], convert: Callable[[str, Any], Any] | None = None) -> T:
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
class Ordered:
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
class Later:
    """The later catalogue, rebuilt from the earlier one record by record (each kind's step: compare.rules)."""

    old: Catalog
    service_values: dict[str, Any] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    area_order: Ordered = field(default_factory=Ordered)
    kept: dict[int, tuple[ListingEntry, str | None]] = field(default_factory=dict)
    """Earlier entries by position, each with its area id, until a record removes or changes it."""
    entries: dict[int, tuple[ListingEntry, str | None]] = field(default_factory=dict)
    """Later entries (changed or added) by position, each with its area id."""
    values: dict[tuple[str, str, int], LockValue] = field(default_factory=dict)
    labels: dict[str, VersionLabel] = field(default_factory=dict)
    label_order: Ordered = field(default_factory=Ordered)
    plans: dict[str, dict[str, PlanEntry]] = field(default_factory=dict)
    """Plan entries added or changed, by label."""
    plan_order: dict[str, Ordered] = field(default_factory=dict)
    register: dict[str, NotShown] = field(default_factory=dict)
    register_order: Ordered = field(default_factory=Ordered)

    @classmethod
    def of(cls, old: Catalog) -> Later:
        return cls(old=old, areas={a.id: a for a in old.service.areas},
                   kept={e.position: (e, e.area.id if e.area is not None else None) for e in old.entries},
                   labels={v.label: v for v in old.versions}, register={n.id: n for n in old.not_shown})

    def plans_of(self, label: str) -> dict[str, PlanEntry]:
        return self.plans.setdefault(label, {})

    def plan_order_of(self, label: str) -> Ordered:
        return self.plan_order.setdefault(label, Ordered())


# ---- one step per kind of record ---------------------------------------------------------------------------

def service_changed(later: Later, r: Record) -> None:
    later.service_values = _after(r)


def area_added(later: Later, r: Record) -> None:
    area = r["to"]["area"]
    later.areas[area] = Area(id=area, **_as_fields(_after(r)))
    later.area_order.place(area, r)


def area_changed(later: Later, r: Record) -> None:
    later.areas[r["to"]["area"]] = with_changes(later.areas[r["from"]["area"]], _after(r))
    later.area_order.place(r["to"]["area"], r)


def area_removed(later: Later, r: Record) -> None:
    later.area_order.removed.append(r["from"]["area"])


def entry_removed(later: Later, r: Record) -> None:
    del later.kept[r["from"]["position"]]


def entry_changed(later: Later, r: Record) -> None:
    e, area = later.kept.pop(r["from"]["position"])
    changes = _after(r)
    area = changes.pop("area", area)
    e = with_changes(e, changes, _entry_field)
    later.entries[e.position] = (e, area)


def entry_added(later: Later, r: Record) -> None:
    facts = {k: _entry_field(k, v) for k, v in _after(r).items()}
    area = facts.pop("area")
    later.entries[facts["position"]] = (ListingEntry(slug="", key="", area=None, **facts), area)


def value(later: Later, r: Record) -> None:
    """value-changed and value-added: the value under the later side's label and plan entry."""
    later.values[(r["to"]["label"], r["to"]["plan"], r["to"]["position"])] = r["to"]["value"]


def value_removed(later: Later, r: Record) -> None:
    """Nothing to do: the later side has no value there (its plan entry, entry or label is gone)."""


def label_added(later: Later, r: Record) -> None:
    name = r["to"]["label"]
    later.labels[name] = VersionLabel(label=name, slug=label_slug(name), plans=(),
                                      **_as_fields(_after(r)))
    later.label_order.place(name, r)


def label_changed(later: Later, r: Record) -> None:
    later.labels[r["to"]["label"]] = with_changes(later.labels[r["from"]["label"]], _after(r))
    later.label_order.place(r["to"]["label"], r)


def label_removed(later: Later, r: Record) -> None:
    later.label_order.removed.append(r["from"]["label"])


def plan_added(later: Later, r: Record) -> None:
    label, plan = r["to"]["label"], r["to"]["plan"]
    later.plans_of(label)[plan] = PlanEntry(name=plan, slug=label_slug(plan), values=(), source=_after(r)["source"])
    later.plan_order_of(label).place(plan, r)


def plan_changed(later: Later, r: Record) -> None:
    label, plan = r["to"]["label"], r["to"]["plan"]
    version = later.old.version(r["from"]["label"])
    earlier = version.plan(r["from"]["plan"]) if version is not None else None
    if earlier is None:
        raise CatalogDocsError(f"the diff changes plan entry {r['from']['plan']!r} under {r['from']['label']!r}, "
                               "which the earlier catalogue does not list")
    later.plans_of(label)[plan] = with_changes(earlier, _after(r))
    later.plan_order_of(label).place(plan, r)


def plan_removed(later: Later, r: Record) -> None:
    later.plan_order_of(r["from"]["label"]).removed.append(r["from"]["plan"])


def not_shown_added(later: Later, r: Record) -> None:
    nid = r["to"]["not_shown"]
    later.register[nid] = NotShown(id=nid, **_as_fields(_after(r), _register_field))
    later.register_order.place(nid, r)


def not_shown_changed(later: Later, r: Record) -> None:
    nid = r["to"]["not_shown"]
    later.register[nid] = with_changes(later.register[r["from"]["not_shown"]], _after(r), _register_field)
    later.register_order.place(nid, r)


def not_shown_removed(later: Later, r: Record) -> None:
    later.register_order.removed.append(r["from"]["not_shown"])
