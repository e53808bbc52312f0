"""Stage 3: comparison. Produces typed change records; pages, the CLI and exports only format them.

Two comparisons exist:
- `compare_sides`: within one catalogue, a version label against another (plan entries matched by name),
  or one (label, plan entry) against another;
- `compare_catalogs`: one catalogue against another (a git revision against the working tree).

Every record names, on each side, the label, plan entry, listing entry and value it is about (`Place`),
so no output has to guess which label a change belongs to. A plan entry listed under the later label but
not the earlier one is not a bare "added": each of its values is compared with that plan entry's latest
earlier listing (`value-changed` or unchanged), or reported as `value-added` when there is none. A plan
entry that is no longer listed brings its values along as `value-removed`, with the labels that still
list it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from itertools import pairwise
from typing import Any, Literal, NamedTuple

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
)
from catalog_docs.compare.ids import make_id
from catalog_docs.errors import CatalogDocsError

ChangeKind = str
"""A kind's id (`value-changed`, ...): one of `compare.rules.RULES`, where everything about each kind is said
(tests/compare/test_rules.py holds every kind the comparison makes to the registry)."""

ComparisonMode = Literal["labels", "plans", "revisions"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """Where one side of a record is: a label, a plan entry under it, a listing entry, its value, a
    not-shown item, the service (by name) or one of its areas (by id). None where it does not apply, or
    where that side does not have it (a plan entry that is not listed has plan None)."""

    label: str | None = None
    plan: str | None = None
    position: int | None = None
    path: str | None = None
    value: LockValue | None = None
    not_shown: str | None = None
    section: str | None = None
    service: str | None = None
    area: str | None = None


NOWHERE = Place()


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldChange:
    """One changed field of a record, with its value before and after: text, a number (a position, or a
    place in an order, from 1), a list (plan entry names, not-shown ids, entry positions), a version marker
    as {at, token}, or None where that side has none."""

    field: str
    before: object
    after: object


def _values(fields: tuple[str, ...], before: dict[str, object], after: dict[str, object]) -> tuple[FieldChange, ...]:
    return tuple(FieldChange(field=f, before=before[f], after=after[f]) for f in fields)


# ---- facts: every field of a model object, as the diff carries it -----------------------------------------
# A record carries the facts of what it is about as plain JSON values. They are read off the model's own
# fields, so a field added to the model is carried without a change here. Left out, each for a reason:
# the identity the record's place already names (a label's name, a plan entry's name, an area's or a
# not-shown item's id), what is derived from other facts (slugs and keys, from names and paths), and what
# other records carry (a label's plan entries; a plan entry's values; the service's areas), and where a thing
# stands in its file (an entry's line: a source position, not a fact of the catalogue; moving an entry down a
# line changes no fact).
FACTS_LEFT_OUT: dict[type, tuple[str, ...]] = {
    Area: ("id",),
    ListingEntry: ("slug", "key", "line"),
    VersionLabel: ("label", "slug", "plans"),
    PlanEntry: ("name", "slug", "values"),
    NotShown: ("id",),
    Service: ("areas",),
}


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, VersionMarker):
        return {"at": value.at, "token": value.token}
    if isinstance(value, Area):  # a listing entry's area: named by its id (the area's own facts are its records')
        return value.id
    return value


def facts(obj: Any, order: int | None = None) -> dict[str, object]:
    """Every field of `obj` but those FACTS_LEFT_OUT, as JSON values; with `order`, its place (from 1) in the
    ordered collection it belongs to."""
    out: dict[str, object] = {} if order is None else {"order": order}
    skip = FACTS_LEFT_OUT.get(type(obj), ())
    out.update((f.name, _plain(getattr(obj, f.name))) for f in dataclass_fields(obj) if f.name not in skip)
    return out


def _whole(before: dict[str, object] | None, after: dict[str, object] | None) -> dict[str, Any]:
    """`fields` and `values` of an added (before None) or removed (after None) thing: every fact it has, with
    None on the side without it."""
    names = tuple(after or before or {})
    missing = dict.fromkeys(names)
    return {"fields": names, "values": _values(names, before or missing, after or missing)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One difference, with its place on each side.

    `basis` (plan-added, label-added): what the new listing's values are compared with, the plan entry's
    latest earlier listing (or the label before, for a label), None when there is none.
    `seen_under` (plan-removed, value-removed): the labels of the (later) catalogue that still list that
    plan entry, where its values can be seen; empty when none does or the label itself was removed.
    `fields` (entry-changed, label-changed, plan-changed, service-changed, area-changed, not-shown-changed):
    what differs."""

    kind: ChangeKind
    before: Place = NOWHERE
    after: Place = NOWHERE
    basis: Place | None = None
    seen_under: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    values: tuple[FieldChange, ...] = ()
    """For the `-changed` kinds but value-changed: each field of `fields`, with its value on each side. For
    the `-added` and `-removed` kinds but the value records: every fact of what was added (None before) or
    removed (None after)."""
    possibly_renamed: Place | None = None
    """An inference, never a fact: on a label-, plan-, or area- `-removed` record, the place of an `-added`
    record whose contents are the same (and on that record, this one's place): perhaps one thing renamed."""

    @property
    def id(self) -> str:
        """The record's stable id (`compare.ids`): its kind, the label and plan entry on each side, and the
        listing entry (the earlier side's where it has one), area or not-shown item it is about."""
        b, a = self.before, self.after
        entry = b if b.position is not None else a
        thing = (entry_key(entry.position, entry.path) if entry.position is not None
                 else b.area or a.area or b.not_shown or a.not_shown)
        return make_id(self.kind, (b.label, a.label, b.plan, a.plan, thing))

    @property
    def label(self) -> str | None:
        """The label this record is grouped under: the later side's, else the earlier side's."""
        return self.after.label if self.after.label is not None else self.before.label

    @property
    def plan(self) -> str | None:
        """The plan entry this record is grouped under: the later side's, else the earlier side's."""
        return self.after.plan if self.after.plan is not None else self.before.plan

    @property
    def position(self) -> int | None:
        """The listing position: the later side's, else the earlier side's."""
        return self.after.position if self.after.position is not None else self.before.position

    @property
    def path(self) -> str | None:
        """The listing entry's path (None for an entry without one, or a record about no entry)."""
        return self.after.path if self.after.position is not None else self.before.path

    @property
    def from_value(self) -> str | None:
        return self.before.value

    @property
    def to_value(self) -> str | None:
        return self.after.value


class Unchanged(NamedTuple):
    """A value that is the same on both sides (each side names its own label and plan entry).

    Flat fields, with each side's Place made on demand: most values of a comparison are unchanged (64,000 in
    the consecutive comparisons of 1,000 operations x 20 labels x 4 plan entries), and one object per value
    instead of three keeps comparing them cheap. A named tuple, immutable like the other records, is made in
    a fifth of the time a frozen dataclass takes."""

    before_label: str | None
    before_plan: str | None
    after_label: str | None
    after_plan: str | None
    position: int
    path: str | None
    value: LockValue
    before_position: int | None = None
    before_path: str | None = None

    @property
    def before(self) -> Place:
        position = self.position if self.before_position is None else self.before_position
        path = self.path if self.before_position is None else self.before_path
        return Place(label=self.before_label, plan=self.before_plan, position=position, path=path, value=self.value)

    @property
    def after(self) -> Place:
        return Place(label=self.after_label, plan=self.after_plan, position=self.position, path=self.path,
                     value=self.value)

    @property
    def plan(self) -> str | None:
        return self.after_plan


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One side of a comparison: a version label, optionally narrowed to one plan entry, optionally of a
    catalogue at a git revision (`revision`; None is the working tree or the one catalogue compared)."""

    label: str | None = None
    plan: str | None = None
    revision: str | None = None
    name: str | None = None
    """What the formats call the working tree side (`diff --new-name`: a branch, or a pull request's head)."""

    def __str__(self) -> str:
        """The side as an argument of `catalog-docs diff` takes it: `LABEL`, `LABEL:PLAN`, or the revision."""
        if self.label is None:
            return self.revision or self.name or "working tree"
        return self.label if self.plan is None else f"{self.label}:{self.plan}"

    @property
    def words(self) -> str:
        """The side as headings and columns name it: `LABEL`, `PLAN under LABEL` (never the argument syntax), or
        the revision."""
        return f"{self.plan} under {self.label}" if self.label is not None and self.plan is not None else str(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """The result of comparing two sides: every change and every unchanged value, in order (grouped by
    label, then plan entry)."""

    mode: ComparisonMode
    before: Side
    after: Side
    changes: tuple[Change, ...] = ()
    unchanged: tuple[Unchanged, ...] = ()
    area_names: tuple[tuple[str, str], ...] = ()
    """(area id, name) on both sides (the later side's name where both have one), so formats can name the
    areas that records give by id."""

    @property
    def from_side(self) -> str:
        return str(self.before)

    @property
    def to_side(self) -> str:
        return str(self.after)

    @property
    def has_differences(self) -> bool:
        """True when anything at all differs."""
        return bool(self.changes)

    @property
    def plans_added(self) -> tuple[str, ...]:
        """Names of the plan entries listed under the later label and not the earlier (labels mode)."""
        return tuple(c.after.plan or "" for c in self.changes if c.kind == "plan-added")

    @property
    def plans_removed(self) -> tuple[str, ...]:
        """Names of the plan entries listed under the earlier label and not the later (labels mode)."""
        return tuple(c.before.plan or "" for c in self.changes if c.kind == "plan-removed")

    def transitions(self) -> list[tuple[str, str, int]]:
        """`value-changed` records grouped by (from, to), with counts, largest group first."""
        counts = Counter((c.before.value or "", c.after.value or "") for c in self.changes
                         if c.kind == "value-changed")
        return sorted(((a, b, n) for (a, b), n in counts.items()), key=lambda t: (-t[2], t[0], t[1]))

    def by_kind(self, kind: ChangeKind) -> list[Change]:
        """The changes of one kind, in order."""
        return [c for c in self.changes if c.kind == kind]

    def counts(self) -> Counter[ChangeKind]:
        """How many records of each kind (a kind with none is not in it)."""
        return Counter(c.kind for c in self.changes)


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


def _place(label: str | None, plan: str | None, entry: ListingEntry, value: LockValue | None = None) -> Place:
    return Place(label=label, plan=plan, position=entry.position, path=entry.path, value=value)


def _compare_values(before: tuple[str, str], after: tuple[str, str],
                    pairs: Iterable[tuple[ListingEntry, LockValue, ListingEntry, LockValue]], changes: list[Change],
                    unchanged: list[Unchanged]) -> None:
    """Value records for (old entry, old value, new entry, new value) pairs of two (label, plan) columns."""
    for ea, va, eb, vb in pairs:
        if va != vb:
            changes.append(Change(kind="value-changed", before=_place(*before, ea, va), after=_place(*after, eb, vb)))
        elif ea is eb:  # positional: the common case, made as quickly as it can be
            unchanged.append(Unchanged(before[0], before[1], after[0], after[1], eb.position, eb.path, vb))
        else:  # the same entry at another position or with another path (a catalogue against a revision)
            unchanged.append(Unchanged(before_label=before[0], before_plan=before[1], after_label=after[0],
                                       after_plan=after[1], position=eb.position, path=eb.path, value=vb,
                                       before_position=ea.position, before_path=ea.path))


def latest_earlier_listing(catalog: Catalog, name: str, label: str) -> VersionLabel | None:
    """The latest label before `label` (in catalogue order) that lists plan entry `name`, or None."""
    labels = [v.label for v in catalog.versions]
    for v in reversed(catalog.versions[: labels.index(label)]):
        if v.plan(name) is not None:
            return v
    return None


def listings(catalog: Catalog, name: str) -> list[tuple[PlanEntry | None, PlanEntry | None]]:
    """For each label in order: plan entry `name` as listed under it (None when it is not listed), and as
    listed under its previous label, the latest earlier label that lists it (None when there is none).
    The operation and plan pages mark a value *changed* from this, so they agree with every comparison."""
    out: list[tuple[PlanEntry | None, PlanEntry | None]] = []
    previous: PlanEntry | None = None
    for v in catalog.versions:
        plan = v.plan(name)
        out.append((plan, previous))
        if plan is not None:
            previous = plan
    return out


def _listed(catalog: Catalog, from_label: str | None, version: VersionLabel, plan: PlanEntry,
            changes: list[Change], unchanged: list[Unchanged]) -> None:
    """A plan entry listed under `version` but not on the earlier side: the plan-added record, then each
    value against the plan entry's latest earlier listing, or as new when it has none."""
    prev = latest_earlier_listing(catalog, plan.name, version.label)
    basis = Place(label=prev.label, plan=plan.name) if prev is not None else None
    changes.append(Change(kind="plan-added", before=Place(label=from_label), after=Place(label=version.label,
                          plan=plan.name), basis=basis, **_whole(None, facts(plan, version.plans.index(plan) + 1))))
    if prev is not None:
        old = prev.plan(plan.name)
        assert old is not None
        _compare_values((prev.label, plan.name), (version.label, plan.name),
                        ((e, va, e, vb) for e, va, vb in zip(catalog.entries, old.values, plan.values, strict=True)),
                        changes, unchanged)
    else:
        for e, v in zip(catalog.entries, plan.values, strict=True):
            changes.append(Change(kind="value-added", before=_place(from_label, None, e),
                                  after=_place(version.label, plan.name, e, v)))


def _unlisted(entries: tuple[ListingEntry, ...], version: VersionLabel, plan: PlanEntry, to_label: str | None,
              seen_under: tuple[str, ...], changes: list[Change]) -> None:
    """A plan entry listed on the earlier side only: the plan-removed record and every value it had."""
    changes.append(Change(kind="plan-removed", before=Place(label=version.label, plan=plan.name),
                          after=Place(label=to_label), seen_under=seen_under,
                          **_whole(facts(plan, version.plans.index(plan) + 1), None)))
    for e, v in zip(entries, plan.values, strict=True):
        changes.append(Change(kind="value-removed", before=_place(version.label, plan.name, e, v),
                              after=_place(to_label, None, e), seen_under=seen_under))


def _listing_labels(catalog: Catalog, name: str) -> tuple[str, ...]:
    return tuple(v.label for v in catalog.versions if v.plan(name) is not None)


def _same_entries(catalog: Catalog, before: tuple[str, PlanEntry], after: tuple[str, PlanEntry],
                  changes: list[Change], unchanged: list[Unchanged]) -> None:
    """The value records of two (label, plan entry) columns of one catalogue, entry by entry."""
    (la, pa), (lb, pb) = before, after
    _compare_values((la, pa.name), (lb, pb.name),
                    ((e, x, e, y) for e, x, y in zip(catalog.entries, pa.values, pb.values, strict=True)),
                    changes, unchanged)


def _version(catalog: Catalog, side: Side) -> VersionLabel:
    version = catalog.version(side.label or "")
    assert version is not None, "parse_side checks labels"
    return version


def _plan(version: VersionLabel, name: str) -> PlanEntry:
    plan = version.plan(name)
    assert plan is not None, "parse_side checks plan entries"
    return plan


def compare_sides(catalog: Catalog, from_side: Side, to_side: Side) -> Comparison:
    """Compare two labels (plan entries matched by name) or two (label, plan entry) pairs of one catalogue."""
    if (from_side.plan is None) != (to_side.plan is None):
        raise CatalogDocsError("compare a label with a label, or LABEL:PLAN with LABEL:PLAN, not one with the other")
    va, vb = _version(catalog, from_side), _version(catalog, to_side)
    changes: list[Change] = []
    unchanged: list[Unchanged] = []
    if from_side.plan is not None and to_side.plan is not None:
        _same_entries(catalog, (va.label, _plan(va, from_side.plan)), (vb.label, _plan(vb, to_side.plan)),
                      changes, unchanged)
        return Comparison(mode="plans", before=from_side, after=to_side, changes=tuple(changes),
                          unchanged=tuple(unchanged))
    # Grouped by plan entry: the later label's plan entries in its order, then those it no longer lists.
    for pb in vb.plans:
        pa = va.plan(pb.name)
        if pa is None:
            _listed(catalog, va.label, vb, pb, changes, unchanged)
        else:
            _same_entries(catalog, (va.label, pa), (vb.label, pb), changes, unchanged)
    for pa in va.plans:
        if vb.plan(pa.name) is None:
            _unlisted(catalog.entries, va, pa, vb.label, _listing_labels(catalog, pa.name), changes)
    return Comparison(mode="labels", before=Side(label=va.label), after=Side(label=vb.label),
                      changes=tuple(changes), unchanged=tuple(unchanged))


def consecutive_pairs(catalog: Catalog) -> list[tuple[VersionLabel, VersionLabel]]:
    """Each label with the one published after it."""
    return list(pairwise(catalog.versions))


def _match_entries(old: Catalog, new: Catalog) -> dict[int, ListingEntry]:
    """Old position -> new entry. The same path is the same entry; entries without a path are matched in
    listing order (the source names them by position only); an unmatched old entry and an unmatched new
    entry at the same position are one entry whose path changed."""
    matched = _same_path(old, new) | _pathless_in_order(old, new)
    taken = {e.position for e in matched.values()}
    fresh = {e.position: e for e in new.entries if e.position not in taken}
    for o in old.entries:
        if o.position not in matched and o.position in fresh:
            matched[o.position] = fresh.pop(o.position)
    return matched


def _same_path(old: Catalog, new: Catalog) -> dict[int, ListingEntry]:
    """Old position -> new entry, for the entries with the same path on both sides."""
    new_by_path = {e.path: e for e in new.entries if e.path is not None}
    return {e.position: new_by_path[e.path] for e in old.entries if e.path in new_by_path}


def _pathless_in_order(old: Catalog, new: Catalog) -> dict[int, ListingEntry]:
    """Old position -> new entry, for the entries without a path, in listing order (as many as both have)."""
    pathless = zip((e for e in old.entries if e.path is None), (e for e in new.entries if e.path is None),
                   strict=False)
    return {o.position: e for o, e in pathless}


def _moved(old: list[str], new: list[str]) -> set[str]:
    """The names on both sides whose place among the names on both sides differs (moved in the order).
    A name added or removed elsewhere does not move the others."""
    in_old, in_new = set(old), set(new)
    kept_old = [n for n in old if n in in_new]
    kept_new = [n for n in new if n in in_old]
    return {a for a, b in zip(kept_old, kept_new, strict=True) if a != b}


def _kept(kind: ChangeKind, before: Place, after: Place, old_facts: dict[str, object], new_facts: dict[str, object],
          old_order: int | None = None, new_order: int | None = None) -> Change | None:
    """The `-changed` record of a thing on both sides, or None when no fact differs. `order` (its place among
    its kind, from 1) counts as changed only when the thing moved among the things on both sides (`_moved`),
    not when one before it was added or removed."""
    names = tuple(f for f in new_facts if old_facts.get(f) != new_facts[f])
    if old_order is not None:
        old_facts, new_facts = {"order": old_order, **old_facts}, {"order": new_order, **new_facts}
        names = ("order", *names)
    if not names:
        return None
    return Change(kind=kind, before=before, after=after, fields=names, values=_values(names, old_facts, new_facts))


def _ordered(old: list[str], new: list[str]) -> tuple[set[str], dict[str, int], dict[str, int]]:
    """(moved names, old order, new order) of one ordered collection; orders from 1."""
    return (_moved(old, new), {n: i for i, n in enumerate(old, start=1)}, {n: i for i, n in enumerate(new, start=1)})


def _service_changes(old_catalog: Catalog, new_catalog: Catalog) -> list[Change]:
    """service-changed (its own fields; the plan entry names it declares, added or removed; their order, which
    is the order of every page's plan columns), then area-removed, area-added and area-changed (areas matched by id)."""
    service = _service_record(old_catalog, new_catalog)
    return ([service] if service is not None else []) + _area_changes(old_catalog.service, new_catalog.service)


def _service_facts(c: Catalog) -> dict[str, object]:
    return {**facts(c.service), "plan_entries": list(c.plan_names), "plan_entry_order": list(c.plan_names)}


def _service_record(old_catalog: Catalog, new_catalog: Catalog) -> Change | None:
    """service-changed, or None: its own fields, the plan entry names it declares (added or removed), and their
    order (moved among the names on both sides)."""
    old_names, new_names = list(old_catalog.plan_names), list(new_catalog.plan_names)
    before, after = _service_facts(old_catalog), _service_facts(new_catalog)
    own = tuple(f for f in after if f not in ("plan_entries", "plan_entry_order") and before[f] != after[f])
    names = (own + (("plan_entries",) if set(old_names) != set(new_names) else ())
             + (("plan_entry_order",) if _moved(old_names, new_names) else ()))
    if not names:
        return None
    return Change(kind="service-changed", before=Place(service=old_catalog.service.name),
                  after=Place(service=new_catalog.service.name), fields=names, values=_values(names, before, after))


def _area_changes(old: Service, new: Service) -> list[Change]:
    """area-removed, then area-added and area-changed in the new order (areas matched by id)."""
    changes: list[Change] = []
    old_ids, new_ids = [a.id for a in old.areas], [a.id for a in new.areas]
    moved, old_at, new_at = _ordered(old_ids, new_ids)
    old_areas = {a.id: a for a in old.areas}
    for a in old.areas:
        if a.id not in new_at:
            changes.append(Change(kind="area-removed", before=Place(area=a.id), **_whole(facts(a, old_at[a.id]), None)))
    for a in new.areas:
        was = old_areas.get(a.id)
        if was is None:
            changes.append(Change(kind="area-added", after=Place(area=a.id), **_whole(None, facts(a, new_at[a.id]))))
        elif (c := _kept("area-changed", Place(area=was.id), Place(area=a.id), facts(was), facts(a),
                         old_at[a.id] if a.id in moved else None, new_at[a.id])) is not None:
            changes.append(c)
    return changes


def _entry_changes(old: Catalog, new: Catalog, matched: dict[int, ListingEntry]) -> list[Change]:
    """entry-removed, entry-changed (in the old listing order), then entry-added. An entry's position is its
    order: every entry after an added or removed one moves, and says so."""
    changes: list[Change] = []
    kept = {e.position for e in matched.values()}
    for o in old.entries:
        e = matched.get(o.position)
        if e is None:
            changes.append(Change(kind="entry-removed", before=_place(None, None, o), **_whole(facts(o), None)))
        elif (c := _kept("entry-changed", _place(None, None, o), _place(None, None, e), facts(o),
                         facts(e))) is not None:
            changes.append(c)
    for e in new.entries:
        if e.position not in kept:
            changes.append(Change(kind="entry-added", after=_place(None, None, e), **_whole(None, facts(e))))
    return changes


def _register_changes(old: Catalog, new: Catalog) -> list[Change]:
    """not-shown-removed, then not-shown-added and not-shown-changed in the new register's order."""
    changes: list[Change] = []
    old_reg = {n.id: n for n in old.not_shown}
    moved, old_at, new_at = _ordered(list(old_reg), [n.id for n in new.not_shown])
    for nid, n in old_reg.items():
        if nid not in new_at:
            changes.append(Change(kind="not-shown-removed", before=Place(not_shown=nid, section=n.section),
                                  **_whole(facts(n, old_at[nid]), None)))
    for n in new.not_shown:
        was = old_reg.get(n.id)
        if was is None:
            changes.append(Change(kind="not-shown-added", after=Place(not_shown=n.id, section=n.section),
                                  **_whole(None, facts(n, new_at[n.id]))))
        elif (c := _kept("not-shown-changed", Place(not_shown=n.id, section=was.section),
                         Place(not_shown=n.id, section=n.section), facts(was), facts(n),
                         old_at[n.id] if n.id in moved else None, new_at[n.id])) is not None:
            changes.append(c)
    return changes


def _plan_values(old: Catalog, new: Catalog, matched: dict[int, ListingEntry], va: VersionLabel, pa: PlanEntry,
                 vb: VersionLabel, pb: PlanEntry, changes: list[Change], unchanged: list[Unchanged]) -> None:
    """The values of a plan entry listed under a label on both sides, matched by listing entry."""
    kept = {e.position for e in matched.values()}
    new_values = {e.position: v for e, v in zip(new.entries, pb.values, strict=True)}
    pairs = []
    for o, v in zip(old.entries, pa.values, strict=True):
        e = matched.get(o.position)
        if e is None:
            changes.append(Change(kind="value-removed", before=_place(va.label, pa.name, o, v),
                                  after=Place(label=vb.label, plan=pb.name)))
        else:
            pairs.append((o, v, e, new_values[e.position]))
    _compare_values((va.label, pa.name), (vb.label, pb.name), pairs, changes, unchanged)
    for e, v in zip(new.entries, pb.values, strict=True):
        if e.position not in kept:
            changes.append(Change(kind="value-added", before=Place(label=va.label, plan=pa.name),
                                  after=_place(vb.label, pb.name, e, v)))


def _link_renames(changes: list[Change], removed_kind: ChangeKind, added_kind: ChangeKind,
                  contents: dict[int, object]) -> None:
    """Link each removed record to the one added record of the same group with the same contents, when that
    pairing is the only one either way (`possibly_renamed`, an inference). `contents[i]` is record i's."""
    removed = [i for i, c in enumerate(changes) if c.kind == removed_kind and i in contents]
    added = [i for i, c in enumerate(changes) if c.kind == added_kind and i in contents]
    for r in removed:
        matches = [a for a in added if contents[a] == contents[r]]
        if len(matches) != 1:
            continue
        a = matches[0]
        if [x for x in removed if contents[x] == contents[a]] != [r]:
            continue
        changes[r] = replace(changes[r], possibly_renamed=changes[a].after)
        changes[a] = replace(changes[a], possibly_renamed=changes[r].before)


def _rename_contents(old: Catalog, new: Catalog, changes: list[Change]) -> dict[int, object]:
    """What a removed or added label, plan entry listing or area holds, apart from its name: compared to find
    what was perhaps renamed."""
    def label_contents(catalog: Catalog, label: str) -> object:
        v = catalog.version(label)
        assert v is not None
        keys = [e.key for e in catalog.entries]
        return (facts(v), tuple((p.name, p.source, tuple(zip(keys, p.values, strict=True))) for p in v.plans))

    def plan_contents(catalog: Catalog, label: str, plan: str) -> object:
        v = catalog.version(label)
        p = v.plan(plan) if v is not None else None
        assert p is not None
        return (label, p.source, tuple(zip((e.key for e in catalog.entries), p.values, strict=True)))

    def area_contents(catalog: Catalog, area: str) -> object:
        a = next(x for x in catalog.service.areas if x.id == area)
        return (a.name, a.source, tuple(e.key for e in catalog.entries if e.area is not None and e.area.id == area))

    out: dict[int, object] = {}
    for i, c in enumerate(changes):
        side, catalog = (c.before, old) if c.kind.endswith("-removed") else (c.after, new)
        if c.kind in ("label-added", "label-removed"):
            out[i] = label_contents(catalog, side.label or "")
        elif c.kind in ("plan-added", "plan-removed") and c.before.label == c.after.label:
            out[i] = plan_contents(catalog, side.label or "", side.plan or "")
        elif c.kind in ("area-added", "area-removed"):
            out[i] = area_contents(catalog, side.area or "")
    return out


_RENAMEABLE: tuple[tuple[ChangeKind, ChangeKind], ...] = (
    ("label-removed", "label-added"), ("plan-removed", "plan-added"), ("area-removed", "area-added"))
"""The removed and added kinds whose records may be linked as `possibly_renamed`."""


def _label_changes(old: Catalog, new: Catalog, matched: dict[int, ListingEntry], changes: list[Change],
                   unchanged: list[Unchanged]) -> None:
    """label-removed (each with its plan entries' values), then, label by label of the new catalogue, a label
    added (with everything it lists) or one on both sides (label-changed, then its plan entries)."""
    new_labels = {v.label for v in new.versions}
    moved, old_at, new_at = _ordered([v.label for v in old.versions], [v.label for v in new.versions])
    for va in old.versions:
        if va.label not in new_labels:
            # Its values are only in the catalogue at the old revision: nothing to point to here.
            changes.append(Change(kind="label-removed", before=Place(label=va.label),
                                  **_whole(facts(va, old_at[va.label]), None)))
            for pa in va.plans:
                _unlisted(old.entries, va, pa, None, _listing_labels(new, pa.name), changes)
    for i, vb in enumerate(new.versions):
        was = old.version(vb.label)
        if was is None:
            _added_label(new, i, vb, new_at[vb.label], changes, unchanged)
            continue
        if (c := _kept("label-changed", Place(label=was.label), Place(label=vb.label), facts(was), facts(vb),
                       old_at[was.label] if vb.label in moved else None, new_at[vb.label])) is not None:
            changes.append(c)
        _kept_label_plans(old, new, matched, was, vb, changes, unchanged)


def _added_label(new: Catalog, i: int, vb: VersionLabel, order: int, changes: list[Change],
                 unchanged: list[Unchanged]) -> None:
    """label-added (its basis: the label before it), then every plan entry it lists."""
    prev = new.versions[i - 1].label if i > 0 else None
    changes.append(Change(kind="label-added", after=Place(label=vb.label),
                          basis=Place(label=prev) if prev is not None else None,
                          **_whole(None, facts(vb, order))))
    for pb in vb.plans:
        _listed(new, None, vb, pb, changes, unchanged)


def _kept_label_plans(old: Catalog, new: Catalog, matched: dict[int, ListingEntry], va: VersionLabel,
                      vb: VersionLabel, changes: list[Change], unchanged: list[Unchanged]) -> None:
    """The plan entries of a label on both sides: listed anew, changed (and their values), no longer listed."""
    moved, old_at, new_at = _ordered([p.name for p in va.plans], [p.name for p in vb.plans])
    for pb in vb.plans:
        pa = va.plan(pb.name)
        if pa is None:
            _listed(new, vb.label, vb, pb, changes, unchanged)
            continue
        if (c := _kept("plan-changed", Place(label=va.label, plan=pa.name), Place(label=vb.label, plan=pb.name),
                       facts(pa), facts(pb), old_at[pa.name] if pb.name in moved else None,
                       new_at[pb.name])) is not None:
            changes.append(c)
        _plan_values(old, new, matched, va, pa, vb, pb, changes, unchanged)
    for pa in va.plans:
        if vb.plan(pa.name) is None:
            _unlisted(old.entries, va, pa, vb.label, _listing_labels(new, pa.name), changes)


def compare_catalogs(old: Catalog, new: Catalog, old_name: str = "before", new_name: str | None = None) -> Comparison:
    """Everything that differs between two catalogues (`old_name` is the old one's git revision; the new one
    is the working tree unless `new_name` names a revision): the service and its areas, listing entries, then
    label by label and plan entry by plan entry every value, then the not-shown register.

    Every record carries the facts it is about on both sides, so the records are a complete patch:
    `compare.patch.apply_diff(old, comparison_data(...))` gives `new` back (tests/compare/test_diff_complete.py
    checks that for random pairs). A removed and an added label, plan entry listing or area with the same
    contents are linked as `possibly_renamed`, an inference: the records stay a removal and an addition."""
    changes: list[Change] = _service_changes(old, new)
    unchanged: list[Unchanged] = []
    matched = _match_entries(old, new)
    changes += _entry_changes(old, new, matched)
    _label_changes(old, new, matched, changes, unchanged)
    changes += _register_changes(old, new)
    contents = _rename_contents(old, new, changes)
    for removed_kind, added_kind in _RENAMEABLE:
        _link_renames(changes, removed_kind, added_kind, contents)
    area_names = {a.id: a.name for a in old.service.areas} | {a.id: a.name for a in new.service.areas}
    return Comparison(mode="revisions", before=Side(revision=old_name), after=Side(revision=new_name),
                      changes=tuple(changes), unchanged=tuple(unchanged), area_names=tuple(area_names.items()))
