"""Stage 3: comparison. Produces typed change records; pages, the CLI and exports only format them.

Two comparisons exist:
- `compare_sides`: within one catalogue, a version label against another (plans matched by name),
  or one (label, plan entry) against another;
- `compare_catalogs`: one catalogue against another (a git revision against the working tree).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from .errors import CatalogDocsError
from .model import Catalog, ListingEntry, PlanEntry, VersionLabel

ChangeKind = Literal[
    "value-changed",
    "plan-added",
    "plan-removed",
    "entry-added",
    "entry-removed",
    "entry-changed",
    "label-added",
    "label-removed",
    "not-shown-added",
    "not-shown-removed",
    "not-shown-changed",
]
CHANGE_KINDS: tuple[ChangeKind, ...] = ChangeKind.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One difference. Fields that do not apply to a kind are None."""

    kind: ChangeKind
    label: str | None = None
    plan: str | None = None
    position: int | None = None
    path: str | None = None
    slug: str | None = None
    from_value: str | None = None
    to_value: str | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Unchanged:
    """A (plan entry, listing entry) value that is the same on both sides."""

    plan: str
    position: int
    path: str | None
    slug: str
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One side of a comparison: a version label, optionally narrowed to one plan entry."""

    label: str
    plan: str | None = None

    def __str__(self) -> str:
        return self.label if self.plan is None else f"{self.label}:{self.plan}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """The result of comparing two sides: every change and every unchanged value."""

    from_side: str
    to_side: str
    plans_added: tuple[str, ...] = ()
    plans_removed: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    unchanged: tuple[Unchanged, ...] = ()
    compared_plans: tuple[str, ...] = field(default=())

    @property
    def has_differences(self) -> bool:
        """True when anything at all differs."""
        return bool(self.changes)

    def transitions(self) -> list[tuple[str, str, int]]:
        """Value changes grouped by (from, to), with counts, largest group first."""
        counts = Counter((c.from_value or "", c.to_value or "") for c in self.changes if c.kind == "value-changed")
        return sorted(((a, b, n) for (a, b), n in counts.items()), key=lambda t: (-t[2], t[0], t[1]))

    def by_kind(self, kind: ChangeKind) -> list[Change]:
        """The changes of one kind, in order."""
        return [c for c in self.changes if c.kind == kind]


def parse_side(text: str, catalog: Catalog) -> Side:
    """Read `LABEL` or `LABEL:PLAN`, checking that both exist; the error lists the valid choices."""
    label, sep, plan = text.partition(":")
    label, plan = label.strip(), plan.strip()
    valid_labels = ", ".join(repr(v.label) for v in catalog.versions)
    if not label or ":" in plan:
        raise CatalogDocsError(f"{text!r} is not LABEL or LABEL:PLAN; valid labels: {valid_labels}")
    version = catalog.version(label)
    if version is None:
        raise CatalogDocsError(f"unknown version label {label!r}; valid labels: {valid_labels}")
    if sep and not plan:
        valid = ", ".join(repr(f"{label}:{p.name}") for p in version.plans)
        raise CatalogDocsError(f"{text!r}: expected LABEL:PLAN with a plan entry after ':'; valid here: {valid}")
    if sep and version.plan(plan) is None:
        valid = ", ".join(repr(p.name) for p in version.plans)
        raise CatalogDocsError(f"plan entry {plan!r} is not listed under {label!r}; listed there: {valid}")
    return Side(label=label, plan=plan or None)


def _compare_plans(entries: tuple[ListingEntry, ...], a: PlanEntry, b: PlanEntry, name: str,
                   changes: list[Change], unchanged: list[Unchanged]) -> None:
    for entry, va, vb in zip(entries, a.values, b.values):
        if va != vb:
            changes.append(Change(kind="value-changed", plan=name, position=entry.position, path=entry.path,
                                  slug=entry.slug, from_value=va, to_value=vb))
        else:
            unchanged.append(Unchanged(plan=name, position=entry.position, path=entry.path, slug=entry.slug, value=va))


def compare_sides(catalog: Catalog, from_side: Side, to_side: Side) -> Comparison:
    """Compare two labels (plan entries matched by name) or two (label, plan entry) pairs of one catalogue."""
    if (from_side.plan is None) != (to_side.plan is None):
        raise CatalogDocsError("compare a label with a label, or LABEL:PLAN with LABEL:PLAN, not one with the other")
    va = catalog.version(from_side.label)
    vb = catalog.version(to_side.label)
    assert va is not None and vb is not None, "parse_side checks labels"
    changes: list[Change] = []
    unchanged: list[Unchanged] = []
    if from_side.plan is not None and to_side.plan is not None:
        pa, pb = va.plan(from_side.plan), vb.plan(to_side.plan)
        assert pa is not None and pb is not None, "parse_side checks plan entries"
        name = pa.name if pa.name == pb.name else f"{pa.name} -> {pb.name}"
        _compare_plans(catalog.entries, pa, pb, name, changes, unchanged)
        return Comparison(from_side=str(from_side), to_side=str(to_side), changes=tuple(changes),
                          unchanged=tuple(unchanged), compared_plans=(name,))
    return _compare_labels(catalog, va, vb, changes, unchanged)


def _compare_labels(catalog: Catalog, va: VersionLabel, vb: VersionLabel,
                    changes: list[Change], unchanged: list[Unchanged]) -> Comparison:
    names_a = [p.name for p in va.plans]
    names_b = [p.name for p in vb.plans]
    added = tuple(n for n in names_b if n not in names_a)
    removed = tuple(n for n in names_a if n not in names_b)
    for n in removed:
        changes.append(Change(kind="plan-removed", label=va.label, plan=n))
    for n in added:
        changes.append(Change(kind="plan-added", label=vb.label, plan=n))
    common = tuple(n for n in names_a if n in names_b)
    for n in common:
        pa, pb = va.plan(n), vb.plan(n)
        assert pa is not None and pb is not None
        _compare_plans(catalog.entries, pa, pb, n, changes, unchanged)
    return Comparison(from_side=va.label, to_side=vb.label, plans_added=added, plans_removed=removed,
                      changes=tuple(changes), unchanged=tuple(unchanged), compared_plans=common)


def consecutive_pairs(catalog: Catalog) -> list[tuple[VersionLabel, VersionLabel]]:
    """Each label with the one published after it."""
    return list(zip(catalog.versions, catalog.versions[1:]))


def compare_catalogs(old: Catalog, new: Catalog, old_name: str = "before", new_name: str = "after") -> Comparison:
    """Everything that differs between two catalogues: entries, labels, plan entries, values, the register."""
    changes: list[Change] = []
    unchanged: list[Unchanged] = []
    old_entries = {e.key: e for e in old.entries}
    new_entries = {e.key: e for e in new.entries}
    for key, e in old_entries.items():
        if key not in new_entries:
            changes.append(Change(kind="entry-removed", position=e.position, path=e.path, slug=e.slug))
    for key, e in new_entries.items():
        if key not in old_entries:
            changes.append(Change(kind="entry-added", position=e.position, path=e.path, slug=e.slug))
        else:
            o = old_entries[key]
            diffs = []
            if o.position != e.position:
                diffs.append(f"position {o.position} -> {e.position}")
            if (o.area.id if o.area else None) != (e.area.id if e.area else None):
                diffs.append(f"area {o.area.id if o.area else 'none'} -> {e.area.id if e.area else 'none'}")
            if o.version_marker != e.version_marker:
                diffs.append("version marker")
            if o.source != e.source or o.not_shown != e.not_shown:
                diffs.append("sources or not-shown references")
            if diffs:
                changes.append(Change(kind="entry-changed", position=e.position, path=e.path, slug=e.slug,
                                      detail="; ".join(diffs)))
    plans_added: list[str] = []
    plans_removed: list[str] = []
    old_labels = {v.label: v for v in old.versions}
    new_labels = {v.label: v for v in new.versions}
    for label, va in old_labels.items():
        if label not in new_labels:
            changes.append(Change(kind="label-removed", label=label,
                                  detail="plan entries: " + ", ".join(p.name for p in va.plans)))
    for label, vb in new_labels.items():
        va = old_labels.get(label)
        if va is None:
            changes.append(Change(kind="label-added", label=label,
                                  detail="plan entries: " + ", ".join(p.name for p in vb.plans)))
            continue
        for p in va.plans:
            if vb.plan(p.name) is None:
                changes.append(Change(kind="plan-removed", label=label, plan=p.name))
                plans_removed.append(f"{label}:{p.name}")
        for pb in vb.plans:
            pa = va.plan(pb.name)
            if pa is None:
                changes.append(Change(kind="plan-added", label=label, plan=pb.name))
                plans_added.append(f"{label}:{pb.name}")
                continue
            old_values = {e.key: v for e, v in zip(old.entries, pa.values)}
            for e, v in zip(new.entries, pb.values):
                before = old_values.get(e.key)
                if before is None:
                    continue  # the entry itself is new: reported as entry-added
                if before != v:
                    changes.append(Change(kind="value-changed", label=label, plan=pb.name, position=e.position,
                                          path=e.path, slug=e.slug, from_value=before, to_value=v))
                else:
                    unchanged.append(Unchanged(plan=f"{label}:{pb.name}", position=e.position, path=e.path,
                                               slug=e.slug, value=v))
    old_reg = {n.id: n for n in old.not_shown}
    new_reg = {n.id: n for n in new.not_shown}
    for nid, n in old_reg.items():
        if nid not in new_reg:
            changes.append(Change(kind="not-shown-removed", detail=f"{nid} ({n.section})"))
    for nid, n in new_reg.items():
        if nid not in old_reg:
            changes.append(Change(kind="not-shown-added", detail=f"{nid} ({n.section})"))
        elif old_reg[nid] != n:
            fields = [f for f in ("topic", "detail", "section", "scope", "entries")
                      if getattr(old_reg[nid], f) != getattr(n, f)]
            changes.append(Change(kind="not-shown-changed", detail=f"{nid} ({n.section}): " + ", ".join(fields)))
    return Comparison(from_side=old_name, to_side=new_name, plans_added=tuple(plans_added),
                      plans_removed=tuple(plans_removed), changes=tuple(changes), unchanged=tuple(unchanged))
