"""Formatters for comparisons: text for a terminal, Markdown for a pull-request comment, JSON for tools.

They only format the change records of `compare`; none of them looks at a catalogue or computes a diff.
Text and Markdown show the same thing: a summary first, then the records grouped by label, then plan
entry, then transition.
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from catalog_docs.compare.changes import CHANGE_KINDS, VALUE_KINDS, Change, ChangeKind, Comparison, Place, Unchanged
from catalog_docs.compare.gate import Review
from catalog_docs.compare.json_format import comparison_data
from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal, md_escape
from catalog_docs.serialize import to_json

Name = Callable[[object], str]
"""Formats one catalogue name or text for the output (escaping it as that output needs)."""

DiffFormat = Literal["text", "markdown", "json"]
DIFF_FORMATS: tuple[DiffFormat, ...] = ("text", "markdown", "json")

COMMENT_LIMIT = 65_536
"""GitHub refuses a pull-request comment longer than this many characters."""
COMMENT_BUDGET = COMMENT_LIMIT - 1_536
"""What the Markdown aims under, so a caller's heading or a bot's footer still fits."""

# (singular, plural) of each kind, as counted in the summary.
KIND_NOUNS: dict[ChangeKind, tuple[str, str]] = {
    "service-changed": ("service changed", "service changed"),  # one service: at most one record
    "area-added": ("area added", "areas added"),
    "area-removed": ("area removed", "areas removed"),
    "area-changed": ("area changed", "areas changed"),
    "label-added": ("version label added", "version labels added"),
    "label-removed": ("version label removed", "version labels removed"),
    "label-changed": ("version label changed", "version labels changed"),
    # A plan-added or plan-removed record is one (label, plan entry) listing: the plan entry itself may well be
    # listed under other labels (service-changed says when a name is added to or removed from the catalogue).
    "plan-added": ("plan entry listing added", "plan entry listings added"),
    "plan-removed": ("plan entry listing removed", "plan entry listings removed"),
    "plan-changed": ("plan entry changed", "plan entries changed"),
    "entry-added": ("listing entry added", "listing entries added"),
    "entry-removed": ("listing entry removed", "listing entries removed"),
    "entry-changed": ("listing entry changed", "listing entries changed"),
    "value-changed": ("value changed", "values changed"),
    "value-added": ("new value (no earlier listing)", "new values (no earlier listing)"),
    "value-removed": ("value no longer listed", "values no longer listed"),
    "not-shown-added": ("not-shown item added", "not-shown items added"),
    "not-shown-removed": ("not-shown item removed", "not-shown items removed"),
    "not-shown-changed": ("not-shown item changed", "not-shown items changed"),
}
# The service and its areas, then structural changes (what exists), then values, then the register; the
# order of the summary.
_ORDER: tuple[ChangeKind, ...] = (
    "service-changed", "area-added", "area-removed", "area-changed", "label-added", "label-removed",
    "label-changed", "plan-added", "plan-removed", "plan-changed", "entry-added", "entry-removed",
    "entry-changed", "value-changed", "value-added", "value-removed", "not-shown-added", "not-shown-removed",
    "not-shown-changed",
)
assert set(_ORDER) == set(CHANGE_KINDS) == set(KIND_NOUNS), "every kind has words and a place"


def plural(n: int, one: str, many: str) -> str:
    """`1 plan entry`, `2 plan entries`: the count with the right form of the noun."""
    return f"{n:,} {one if n == 1 else many}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Notes:
    """What the formats add to the records beyond the comparison itself: the review gate's verdict on each
    (`review`, from `diff --fail-on/--acknowledged`) and, for Markdown, the address of each change on the hosted
    site (`link`, from `diff --site-url`; None where no page shows it)."""

    review: Review | None = None
    link: Callable[[Change], str | None] | None = None


NO_NOTES = Notes()


def verdict(c: Change, notes: Notes, name: Name) -> str:
    """`acknowledged: REASON` (the reason through `name`, which escapes it), `needs acknowledgement`, or ''."""
    r = notes.review
    if r is None:
        return ""
    if c.id in r.acknowledged:
        return f"acknowledged: {name(r.acknowledged[c.id])}"
    return "needs acknowledgement" if c in r.failing else ""


def gate_lines(notes: Notes, name: Name, code: Callable[[str], str]) -> list[str]:
    """The review gate's report (empty without one): whether it passes, what fails it, what is acknowledged,
    and the acknowledgements that match no change. `code` formats an id or a command-line value."""
    r = notes.review
    if r is None:
        return []
    selectors = ",".join(str(s) for s in r.fail_on)
    out = []
    if r.fail_on and r.passed:
        out.append(f"Passes: no change selected by --fail-on {code(selectors)} is left unacknowledged.")
    elif r.fail_on:
        shown = ", ".join(code(c.id) for c in r.failing[:_GATE_IDS])
        more = f" and {len(r.failing) - _GATE_IDS:,} more" if len(r.failing) > _GATE_IDS else ""
        out.append(f"Fails: {plural(len(r.failing), 'change', 'changes')} selected by --fail-on {code(selectors)} "
                   f"{'needs' if len(r.failing) == 1 else 'need'} an acknowledgement: {shown}{more}.")
    else:
        out.append("No --fail-on: nothing can fail the gate.")
    if r.acknowledged:
        out.append(f"Acknowledged: {plural(len(r.acknowledged), 'change', 'changes')}, each marked with its reason.")
    if r.stale:
        where = f" in {code(r.source)}" if r.source else ""
        out.append(f"Stale: {plural(len(r.stale), 'acknowledgement', 'acknowledgements')}{where} "
                   f"{'matches' if len(r.stale) == 1 else 'match'} no change "
                   f"(remove {'it' if len(r.stale) == 1 else 'them'}):")
        out.extend(f"  {code(a.id)}: {name(a.reason)}" for a in r.stale)
    return out


_GATE_IDS = 20
"""The report names at most this many failing changes by id (each is marked in its place as well)."""


# ---- grouping (formatting only: the records come grouped; this gathers them under headings) ---------------

GroupKey = tuple[str, str | None, str | None]
"""("service" | "entries" | "label" | "not-shown", label, plan entry)."""


@dataclass(slots=True)
class Group:
    """The records under one heading: the service and its areas, listing entries, one (label, plan entry), or
    the register."""

    key: GroupKey
    records: list[Change] = field(default_factory=list)
    values: list[Change] = field(default_factory=list)
    unchanged: list[Unchanged] = field(default_factory=list)

    @property
    def opening(self) -> Change | None:
        """The record that says why the group exists (plan-added, plan-removed, label-added...), if any."""
        return next((c for c in self.records if c.kind in ("plan-added", "plan-removed")), None)

    @property
    def basis(self) -> Place | None:
        """What the group's values are compared with when it is a re-listed plan entry (else None)."""
        return self.opening.basis if self.opening is not None else None

    @property
    def lists_unchanged(self) -> bool:
        """An added plan entry shows every value, the unchanged ones too; other groups only count them."""
        return self.opening is not None and self.opening.kind == "plan-added"

    def transitions(self) -> list[tuple[ChangeKind, str | None, str | None, list[Change]]]:
        """The value records by (kind, from value, to value), largest group first."""
        found: dict[tuple[ChangeKind, str | None, str | None], list[Change]] = {}
        for c in self.values:
            found.setdefault((c.kind, c.before.value, c.after.value), []).append(c)
        order = {k: i for i, k in enumerate(VALUE_KINDS)}
        return [(k, a, b, cs) for (k, a, b), cs in
                sorted(found.items(), key=lambda kv: (order[kv[0][0]], -len(kv[1]), kv[0][1] or "", kv[0][2] or ""))]


def _key(c: Change) -> GroupKey:
    if c.kind == "service-changed" or c.kind.startswith("area-"):
        return ("service", None, None)
    if c.kind.startswith("entry-"):
        return ("entries", None, None)
    if c.kind.startswith("not-shown-"):
        return ("not-shown", None, None)
    return ("label", c.label, c.plan)


def groups(cmp: Comparison) -> list[Group]:
    """The records under their headings, in the order they first appear."""
    out: dict[GroupKey, Group] = {}
    for c in cmp.changes:
        g = out.setdefault(_key(c), Group(key=_key(c)))
        (g.values if c.kind in VALUE_KINDS else g.records).append(c)
    for u in cmp.unchanged:
        holder = out.get(("label", u.after_label, u.after_plan))
        if holder is not None:
            holder.unchanged.append(u)
    return list(out.values())


def summary_rows(cmp: Comparison) -> list[tuple[str, int, tuple[str, str] | None]]:
    """(what, how many, (from, to) for a value transition): structural kinds first, each value transition
    a row of its own, then unchanged."""
    rows: list[tuple[str, int, tuple[str, str] | None]] = []
    counts = cmp.counts()
    for kind in _ORDER:
        if kind == "value-changed":
            rows.extend((KIND_NOUNS[kind][n != 1], n, (a, b)) for a, b, n in cmp.transitions())
        elif counts[kind]:
            rows.append((KIND_NOUNS[kind][counts[kind] != 1], counts[kind], None))
    rows.append(("value unchanged" if len(cmp.unchanged) == 1 else "values unchanged", len(cmp.unchanged), None))
    return [(what[0].upper() + what[1:], n, t) for what, n, t in rows]


def full_json_command(cmp: Comparison) -> str:
    """The command that prints every record of this comparison."""
    if cmp.mode == "revisions":
        return f"catalog-docs diff --against {shlex.quote(cmp.before.revision or 'REV')} --format json"
    return f"catalog-docs diff {shlex.quote(cmp.from_side)} {shlex.quote(cmp.to_side)} --format json"


# ---- words shared by text and Markdown; `name` formats each catalogue name --------------------------------

def _entry(c: Change | Unchanged, side: Literal["after", "before"] = "after") -> str:
    """The listing entry's name on one side (the other side's when this one has none): path or entry-N."""
    first, second = (c.after, c.before) if side == "after" else (c.before, c.after)
    place = first if first.position is not None else second
    return place.path if place.path is not None else f"entry-{place.position}"


def heading(g: Group, cmp: Comparison, name: Name) -> str:
    """The heading of a group."""
    kind, label, plan = g.key
    if kind == "service":
        return "Service and areas"
    if kind == "entries":
        return "Listing entries"
    if kind == "not-shown":
        return "Not-shown register"
    if plan is None:
        return f"Version label {name(label)}"
    if cmp.mode == "plans":
        return f"{name(cmp.from_side)} → {name(cmp.to_side)}"
    return f"{name(label)} · plan entry {name(plan)}"


_FIELD_WORDS = {"name": "name", "summary": "summary", "source": "source", "plan_table": "plan table title",
                "value_column": "value column", "plan_table_source": "plan table source",
                "base_url_source": "base URL source", "lock_values_source": "lock values source",
                "plan_entries": "plan entry names", "plan_entry_order": "order of the plan entry names",
                "position": "position", "path": "path", "area": "area (inferred)", "version_marker": "version marker",
                "not_shown": "not-shown items", "topic": "topic", "detail": "detail", "section": "section",
                "scope": "scope", "entries": "listing entries", "method": "method", "draft": "draft",
                "subject": "subject"}
"""How a field reads in words; `order` and `draft` read as phrases of their own (`_fact`, `_change`)."""

_CITED = {"source": "cited from", "plan_table_source": "plan table cited from",
          "base_url_source": "base URL cited from", "lock_values_source": "lock values cited from"}
"""Fields that hold a citation of the source, and how an added or removed thing's citation reads."""


def ordinal(n: object) -> str:
    """`1st`, `2nd`, `3rd`, `11th`, `22nd`."""
    if not isinstance(n, int):
        return str(n)
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _shown(value: object, name: Name) -> str:
    """A field's value as the formats print it (catalogue text through `name`, which escapes it)."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v, name) for v in value) + "]"
    if isinstance(value, dict):  # a version marker
        token = value.get("token")
        return f"at {value.get('at')}" + (f" ({name(token)})" if token else "")
    if isinstance(value, int):
        return str(value)
    return name(str(value))


def _word(field: str) -> str:
    return _FIELD_WORDS.get(field, field.replace("_", " "))


def _value(field: str, value: object, name: Name, areas: dict[str, str]) -> str:
    """One field's value; a listing entry's area by its name and id (`Refunds (refunds)`)."""
    if field == "area" and isinstance(value, str) and value in areas:
        return f"{name(areas[value])} ({name(value)})"
    return _shown(value, name)


def _fact(field: str, value: object, name: Name, order_of: str, areas: dict[str, str]) -> str:
    """One fact of an added or removed thing as words: `3rd among the labels`, `cited from §8`, `a draft`."""
    if field == "order":
        return f"{ordinal(value)} among the {order_of}"
    if field == "draft":
        return "a draft" if value else "not a draft"
    if value is None:
        return f"no {_word(field)}"
    if field in _CITED:
        return f"{_CITED[field]} {_value(field, value, name, areas)}"
    return f"{_word(field)} {_value(field, value, name, areas)}"


def _change(field: str, before: object, after: object, name: Name, order_of: str, areas: dict[str, str]) -> str:
    """One changed field as words, earlier side first: `moved from 2nd to 1st among the plan entries`,
    `no longer a draft`, `source §8 → §8 rule 2`."""
    if field == "order":
        return f"moved from {ordinal(before)} to {ordinal(after)} among the {order_of}"
    if field == "draft":
        return "no longer a draft" if before and not after else "now a draft" if after else "not a draft"
    return f"{_word(field)} {_value(field, before, name, areas)} → {_value(field, after, name, areas)}"


def _fields(c: Change, name: Name, order_of: str = "", areas: dict[str, str] | None = None) -> str:
    """Each changed field of `c` with its value on each side: `source §8 rule 2 → §8 rule 1`."""
    values = {v.field: v for v in c.values}
    return "; ".join(_change(f, values[f].before, values[f].after, name, order_of, areas or {}) if f in values
                     else f"{_word(f)} changed" for f in c.fields)


def _facts(c: Change, name: Name, order_of: str, skip: tuple[str, ...] = (),
           areas: dict[str, str] | None = None) -> str:
    """Every fact of an added thing (its later values) or a removed one (its earlier values), as words:
    `3rd among the labels, cited from §9, plan table title UPI Plan, not a draft`."""
    side = "after" if c.kind.endswith("-added") else "before"
    return ", ".join(_fact(v.field, getattr(v, side), name, order_of, areas or {})
                     for v in c.values if v.field not in skip)


def _at(side: str, name: Name) -> str:
    """Where a side's catalogue is: `at main`, or `in the working tree`."""
    return "in the working tree" if side == "working tree" else f"at {name(side)}"


def _between(cmp: Comparison, name: Name) -> str:
    """`between main and feature-x`: the two sides of a comparison of two catalogues."""
    return f"between {name(cmp.from_side)} and {name(cmp.to_side)}"


def _renamed(c: Change, name: Name, what: Callable[[Place], object]) -> str:
    """` Possibly renamed to X (inferred: ...)`, when the records link this one to another with the same contents."""
    if c.possibly_renamed is None:
        return ""
    other = name(what(c.possibly_renamed))
    if c.kind.endswith("-removed"):
        return f" Possibly renamed to {other} (inferred: {other} was added with the same contents)."
    return f" Possibly renamed from {other} (inferred: {other} was removed with the same contents)."


# ---- one sentence per kind of record (value records are listed in tables instead) -------------------------

Describe = Callable[[Change, Comparison, Name], str]


def _label_added(c: Change, cmp: Comparison, name: Name) -> str:
    after = f"after {name(c.basis.label)}" if c.basis is not None else "as the first label"
    return (f"Version label {name(c.after.label)} is new {_at(cmp.to_side, name)}, {after}: "
            f"{_facts(c, name, 'labels')}." + _renamed(c, name, lambda p: p.label))


def _label_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Version label {name(c.before.label)} removed {_at(cmp.to_side, name)}; {_at(cmp.from_side, name)} it was "
            f"{_facts(c, name, 'labels')}, and its values are only in that catalogue."
            + _renamed(c, name, lambda p: p.label))


def _label_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Version label {name(c.after.label)} changed {_between(cmp, name)}: {_fields(c, name, 'labels')}."


def _plan_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Plan entry {name(c.after.plan)} under {name(c.after.label)} changed {_between(cmp, name)}: "
            f"{_fields(c, name, 'plan entries')}.")


def _service_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Service {name(c.after.service)} changed {_between(cmp, name)}: {_fields(c, name)}."


def _area_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Area {name(c.after.area)} is new {_at(cmp.to_side, name)}: {_facts(c, name, 'areas')}."
            + _renamed(c, name, lambda p: p.area))


def _area_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Area {name(c.before.area)} removed {_at(cmp.to_side, name)}; {_at(cmp.from_side, name)} it was "
            f"{_facts(c, name, 'areas')}." + _renamed(c, name, lambda p: p.area))


def _area_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Area {name(c.after.area)} changed {_between(cmp, name)}: {_fields(c, name, 'areas')}."


def _basis(c: Change, name: Name) -> str:
    """What a newly listed plan entry's values are compared with."""
    if c.basis is None:
        return "No earlier label lists it, so every value is new."
    return (f"Each value is compared with its previous label, {name(c.basis.label)}, the latest earlier label that "
            f"lists it.")


def _plan_added(c: Change, cmp: Comparison, name: Name) -> str:
    b, a = c.before, c.after
    listing = _facts(c, name, "plan entries")
    if b.label is None:
        said = (f"Plan entry {name(a.plan)} is listed under {name(a.label)}, a label new {_at(cmp.to_side, name)}: "
                f"{listing}.")
    elif b.label == a.label:
        said = (f"Plan entry {name(a.plan)} is newly listed under {name(a.label)} {_at(cmp.to_side, name)}, "
                f"{listing}; {_at(cmp.from_side, name)} it is not.")
    else:
        said = (f"Plan entry {name(a.plan)} is newly listed: {name(a.label)} lists it ({listing}), "
                f"{name(b.label)} does not.")
    return f"{said} {_basis(c, name)}" + _renamed(c, name, lambda p: p.plan)


def _plan_removed(c: Change, cmp: Comparison, name: Name) -> str:
    b, a = c.before, c.after
    listing = _facts(c, name, "plan entries")
    if a.label is None:
        said = (f"Plan entry {name(b.plan)} is no longer listed under {name(b.label)}, a label removed "
                f"{_at(cmp.to_side, name)}; {_at(cmp.from_side, name)} it was {listing}.")
    elif a.label == b.label:
        said = (f"Plan entry {name(b.plan)} is no longer listed under {name(b.label)} {_at(cmp.to_side, name)}; "
                f"{_at(cmp.from_side, name)} it was, {listing}.")
    else:
        said = (f"Plan entry {name(b.plan)} is no longer listed: {name(b.label)} lists it ({listing}), "
                f"{name(a.label)} does not.")
    seen = (f"Its values can still be seen under {', '.join(map(name, c.seen_under))}."
            if c.seen_under else "No label lists it any more.")
    return f"{said} {seen}" + _renamed(c, name, lambda p: p.plan)


_ENTRY_NAMED_BY = ("position", "method", "path")
"""Facts the sentence of an added or removed listing entry gives in its name (`#3 POST /x`)."""


def _entry_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.after.position} POST {name(_entry(c))} is new {_at(cmp.to_side, name)}: "
            f"{_facts(c, name, 'entries', _ENTRY_NAMED_BY, dict(cmp.area_names))}.")


def _entry_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.before.position} POST {name(_entry(c, 'before'))} removed {_at(cmp.to_side, name)}; "
            f"{_at(cmp.from_side, name)} it had "
            f"{_facts(c, name, 'entries', _ENTRY_NAMED_BY, dict(cmp.area_names))}.")


def _entry_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.after.position} POST {name(_entry(c))} changed {_between(cmp, name)}: "
            f"{_fields(c, name, '', dict(cmp.area_names))}.")


def _not_shown_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.after.not_shown)} is new {_at(cmp.to_side, name)}: "
            f"{_facts(c, name, 'register items')}.")


def _not_shown_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.before.not_shown)} removed {_at(cmp.to_side, name)}; "
            f"{_at(cmp.from_side, name)} it was {_facts(c, name, 'register items')}.")


def _not_shown_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.after.not_shown)} ({name(c.after.section)}) changed {_between(cmp, name)}: "
            f"{_fields(c, name, 'register items')}.")


DESCRIBE: dict[ChangeKind, Describe] = {
    "label-added": _label_added, "label-removed": _label_removed, "label-changed": _label_changed,
    "plan-added": _plan_added, "plan-removed": _plan_removed, "plan-changed": _plan_changed,
    "service-changed": _service_changed,
    "area-added": _area_added, "area-removed": _area_removed, "area-changed": _area_changed,
    "entry-added": _entry_added, "entry-removed": _entry_removed, "entry-changed": _entry_changed,
    "not-shown-added": _not_shown_added, "not-shown-removed": _not_shown_removed,
    "not-shown-changed": _not_shown_changed,
}
"""The sentence of each kind of record but the value records (which are table rows)."""
assert set(DESCRIBE) == set(CHANGE_KINDS) - set(VALUE_KINDS), "every kind but the value kinds has a sentence"


def describe(c: Change, cmp: Comparison, name: Name) -> str:
    """One sentence for a record that is not a value record."""
    step = DESCRIBE.get(c.kind)
    if step is None:
        raise AssertionError(f"value records are listed, not described: {c.kind}")
    return step(c, cmp, name)


def side_names(cmp: Comparison, c: Change, name: Name) -> tuple[str, str]:
    """Whose values a value record compares, earlier side first: `under UPI_N 1.0.1`, `under UPI_N 1.1.0`
    (two labels), `under L at main`, `under L at feature-x` (two revisions), or the two (label, plan entry) sides."""
    if cmp.mode == "plans":
        return name(cmp.from_side), name(cmp.to_side)

    def one(label: str | None, side: str) -> str:
        under = f"under {name(label)}" if label is not None else ""
        at = _at(side, name) if cmp.mode == "revisions" else ""
        return " ".join(w for w in (under, at) if w)
    return one(c.before.label, cmp.from_side), one(c.after.label, cmp.to_side)


def transition_title(kind: ChangeKind, a: str | None, b: str | None, values: list[Change], name: Name,
                     basis: object = None, cmp: Comparison | None = None) -> str:
    """`close → unlimited (3 values)`, `New under B: close (2 values; not listed under A)`, `No longer listed
    under B: unlimited under A (1 value)`; with `basis` (a re-listed plan entry), the labels compared are named
    too."""
    n = plural(len(values), "value", "values")
    before, after = side_names(cmp, values[0], name) if cmp is not None else ("", "")
    if kind == "value-added":
        return f"New {after}: {name(b)} ({n}; not listed {before})" if cmp is not None else f"New: {name(b)} ({n})"
    if kind == "value-removed":
        return (f"No longer listed {after}: {name(a)} {before} ({n})" if cmp is not None
                else f"No longer listed: {name(a)} ({n})")
    labels = {(c.before.label, c.after.label) for c in values}
    between = ""
    if len(labels) == 1 and basis is not None:
        la, lb = next(iter(labels))
        if la is not None and lb is not None and la != lb:
            between = f", {name(la)} → {name(lb)}"
    return f"{name(a)} → {name(b)} ({n}{between})"


# ---- text ---------------------------------------------------------------------------------------------------

def _plain(text: object) -> str:
    return str(text)


def _text_note(c: Change, notes: Notes) -> str:
    v = verdict(c, notes, _plain)
    return f"  ({v})" if v else ""


def _text_summary(cmp: Comparison, notes: Notes) -> list[str]:
    """The first line, the count of each kind of change, and the review gate's report."""
    diffs = plural(len(cmp.changes), "difference", "differences") if cmp.has_differences else "no differences"
    out = [f"{cmp.from_side} -> {cmp.to_side}: {diffs}", "", "Summary"]
    rows = [(what + (f" {t[0]} -> {t[1]}" if t else ""), n) for what, n, t in summary_rows(cmp)]
    width = max(len(what) for what, _ in rows)
    out.extend(f"  {what:<{width}}  {n:>5}" for what, n in rows)
    gate = gate_lines(notes, _plain, _plain)
    if gate:
        out += ["", "Review gate", *(f"  {line}" for line in gate)]
    return out


def _text_group(g: Group, cmp: Comparison, notes: Notes) -> list[str]:
    """One group: its heading, its sentences, each transition with its rows, then its unchanged values."""
    out = ["", heading(g, cmp, _plain).replace("→", "->")]
    out.extend(f"  {describe(c, cmp, _plain)} [{c.id}]{_text_note(c, notes)}".replace("→", "->")
               for c in g.records)
    for kind, a, b, values in g.transitions():
        out.append(f"  {transition_title(kind, a, b, values, _plain, g.basis, cmp)}".replace("→", "->"))
        pw = max(len(_entry(c)) for c in values)
        out.extend(f"    {c.position:>4}  {_entry(c):<{pw}}  {c.id}{_text_note(c, notes)}" for c in values)
    if g.unchanged and g.lists_unchanged:
        out.append(f"  Unchanged ({plural(len(g.unchanged), 'value', 'values')})")
        pw = max(len(_entry(u)) for u in g.unchanged)
        out.extend(f"    {u.position:>4}  {_entry(u):<{pw}}  {u.value}" for u in g.unchanged)
    elif g.unchanged:
        out.append(f"  {plural(len(g.unchanged), 'value', 'values')} unchanged")
    return out


def format_text(cmp: Comparison, notes: Notes = NO_NOTES) -> str:
    """For a terminal: the summary first, then every record by label, plan entry and transition."""
    out = _text_summary(cmp, notes)
    for g in groups(cmp):
        if g.records or g.values:
            out += _text_group(g, cmp, notes)
    # Catalogue text read from a git revision (`--against`) reaches the terminal here: never raw controls.
    return "\n".join(for_terminal(line.rstrip()) for line in out) + "\n"


# ---- Markdown -----------------------------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z0-9 ._~/{}:>#()§-]+")


def _md(text: object) -> str:
    """Catalogue text for Markdown: validated names and paths as code spans, anything else escaped."""
    s = str(text)
    return f"`{s}`" if _PLAIN.fullmatch(s) else str(md_escape(s))


def _md_text(text: object) -> str:
    """Free text (a reason) for Markdown: escaped, never a code span."""
    return str(md_escape(str(text)))


def _html(text: object) -> str:
    """Catalogue text inside raw HTML (a <summary>), where Markdown is not read."""
    return html.escape(str(text))


def _md_ref(c: Change, notes: Notes) -> str:
    """The change's id as a code span, linked to its place on the hosted site when there is one, then its
    verdict (acknowledged, with the reason escaped, or needing an acknowledgement)."""
    url = notes.link(c) if notes.link is not None else None
    ref = f"[`{c.id}`]({url})" if url else f"`{c.id}`"
    v = verdict(c, notes, _md_text)
    return f"{ref} ({v})" if v else ref


def _value_table(cmp: Comparison, kind: ChangeKind, values: list[Change], limit: int, notes: Notes) -> list[str]:
    before, after = _column_heads(cmp, values[0])
    head = [f"| Position | Path | {before} | {after} | Change id |", "|---:|---|---|---|---|"]
    return head + [f"| {c.position} | {_md(_entry(c))} | {_cell(c.from_value)} | {_cell(c.to_value)} | "
                   f"{_md_ref(c, notes)} |" for c in values[:limit]]


def _cell(value: str | None) -> str:
    """A value cell: the value, or `not listed` on the side whose label does not list the plan entry."""
    return _md(value) if value is not None else "not listed"


def _column_heads(cmp: Comparison, a: Change) -> tuple[str, str]:
    """Whose value each column holds: the two labels; the same label at the two revisions; the two (label, plan
    entry) sides; the revision alone on a side whose label is missing (new, or removed)."""
    if cmp.mode == "plans":
        return _md(cmp.from_side), _md(cmp.to_side)
    before = _md(a.before.label) if a.before.label else _md(cmp.from_side)
    after = _md(a.after.label) if a.after.label else _md(cmp.to_side)
    if cmp.mode == "revisions" and a.before.label is not None and a.before.label == a.after.label:
        before, after = f"{before} ({_md(cmp.from_side)})", f"{after} ({_md(cmp.to_side)})"
    elif cmp.mode == "revisions" and (a.before.label is None) != (a.after.label is None):
        # one side has no label (a label new or removed): say which revision each column is
        before = f"{before} ({_md(cmp.from_side)})" if a.before.label else before
        after = f"{after} ({_md(cmp.to_side)})" if a.after.label else after
    return before, after


def _left_out(n: int) -> str:
    return f"*{plural(n, 'more row', 'more rows')} left out (see the end of this comment).*"


_FOLD = 10
"""Tables longer than this many rows are folded into a <details> block."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Comment:
    """What every draft of a pull-request comment shows, worked out once: format_markdown writes drafts
    (`_markdown`) of different lengths until one fits."""

    cmp: Comparison
    summary: list[tuple[str, int, tuple[str, str] | None]]
    sections: list[Group]
    notes: Notes


def _md_gate(notes: Notes) -> list[str]:
    """The review gate's report as a Markdown section: a paragraph per line, the stale acknowledgements a list."""
    out: list[str] = []
    for line in gate_lines(notes, _md_text, _md):
        if line.startswith("  "):
            out.append(f"- {line[2:]}")
        else:
            out += ["", line] if out else ["#### Review gate", "", line]
    return [*out, ""] if out else []


class _Table(NamedTuple):
    """One table of a section: its title (Markdown, and HTML for a <summary>), its lines, and how many rows it
    has in all (more than its lines when rows are left out)."""

    md_title: str
    html_title: str
    lines: list[str]
    rows: int


def _md_head(comment: _Comment) -> list[str]:
    """The heading, the count of each kind of change, and the review gate's report."""
    cmp = comment.cmp
    out = [f"### Catalogue diff: {_md(cmp.from_side)} → {_md(cmp.to_side)}", ""]
    if not cmp.has_differences:
        return [*out, "No differences.", "", f"{plural(len(cmp.unchanged), 'value', 'values')} unchanged.",
                *_md_gate(comment.notes)]
    out += [f"**{plural(len(cmp.changes), 'difference', 'differences')}.**", "",
            "| Change | Count |", "|---|---:|"]
    for what, n, t in comment.summary:
        out.append(f"| {what}{f' {_md(t[0])} → {_md(t[1])}' if t else ''} | {n:,} |")
    return [*out, "", *_md_gate(comment.notes)]


def _md_tables(comment: _Comment, g: Group, rows_limit: int | None) -> list[_Table]:
    """A section's tables: one per transition, then its unchanged values when it lists them."""
    cmp = comment.cmp
    tables = [_Table(transition_title(k, a, b, vs, _md, g.basis, cmp),
                     transition_title(k, a, b, vs, _html, g.basis, cmp),
                     _value_table(cmp, k, vs, len(vs) if rows_limit is None else rows_limit, comment.notes), len(vs))
              for k, a, b, vs in g.transitions()]
    if g.lists_unchanged and g.unchanged:
        n = len(g.unchanged)
        keep = g.unchanged if rows_limit is None else g.unchanged[:rows_limit]
        u0 = g.unchanged[0]
        same = f"Value (the same under {_md(u0.before_label)} and {_md(u0.after_label)})"
        table = [f"| Position | Path | {same} |", "|---:|---|---|"] + [
            f"| {u.position} | {_md(_entry(u))} | {_md(u.value)} |" for u in keep]
        words = f"Unchanged ({plural(n, 'value', 'values')})"
        tables.append(_Table(words, words, table, n))
    return tables


def _md_table(table: _Table) -> tuple[list[str], int]:
    """A table's lines, folded into <details> when long or cut, and how many of its rows were left out."""
    kept = len(table.lines) - 2
    folded = table.rows > _FOLD or kept < table.rows
    out = ["<details>", f"<summary>{table.html_title}</summary>", ""] if folded else [f"**{table.md_title}**", ""]
    if kept:
        out += [*table.lines, ""]
    if kept < table.rows:
        out += [_left_out(table.rows - kept), ""]
    if folded:
        out += ["</details>", ""]
    return out, table.rows - kept


def _md_section(comment: _Comment, g: Group, rows_limit: int | None) -> tuple[list[str], int]:
    """One section (a label and plan entry, the service, the listing, the register): its sentences and its
    tables; and how many table rows it left out."""
    cmp = comment.cmp
    out = [f"#### {heading(g, cmp, _md)}", ""]
    out += [f"- {describe(c, cmp, _md)} {_md_ref(c, comment.notes)}" for c in g.records]
    if g.records:
        out.append("")
    left = 0
    for table in _md_tables(comment, g, rows_limit):
        lines, cut = _md_table(table)
        out += lines
        left += cut
    if g.unchanged and not g.lists_unchanged:
        out += [f"{plural(len(g.unchanged), 'value', 'values')} unchanged.", ""]
    return out, left


def _md_left_out(cmp: Comparison, hidden: list[Group], left: int) -> list[str]:
    """What a shortened comment left out, and the command that prints everything."""
    what = []
    if left:
        what.append(plural(left, "table row", "table rows"))
    if hidden:
        records = sum(len(g.records) + len(g.values) for g in hidden)
        what.append(f"{plural(len(hidden), 'whole section', 'whole sections')} "
                    f"({plural(records, 'record', 'records')})")
    return ["---", "", f"*Left out to keep this comment under GitHub's {COMMENT_LIMIT:,}-character limit: "
            f"{' and '.join(what)}. `{full_json_command(cmp)}` prints every record.*", ""]


def _markdown(comment: _Comment, rows_limit: int | None, groups_limit: int | None) -> str:
    """One draft of the comment: at most `rows_limit` rows per table and `groups_limit` sections (None: all)."""
    out = _md_head(comment)
    if not comment.cmp.has_differences:
        return "\n".join(out).rstrip("\n") + "\n"
    shown = comment.sections if groups_limit is None else comment.sections[:groups_limit]
    left = 0
    for g in shown:
        lines, cut = _md_section(comment, g, rows_limit)
        out += lines
        left += cut
    hidden = comment.sections[len(shown):]
    if hidden or left:
        out += _md_left_out(comment.cmp, hidden, left)
    return "\n".join(out).rstrip("\n") + "\n"


def format_markdown(cmp: Comparison, notes: Notes = NO_NOTES, budget: int = COMMENT_BUDGET) -> str:
    """A pull-request comment: a summary table, then one section per label and plan entry. However large
    the change, it stays under `budget` characters: it shortens the tables first, then drops whole sections
    from the end, and says what it left out and how to get everything."""
    comment = _Comment(cmp=cmp, summary=summary_rows(cmp),
                       sections=[g for g in groups(cmp) if g.records or g.values], notes=notes)
    text = _markdown(comment, None, None)
    if len(text) <= budget:
        return text
    if len(_markdown(comment, 0, None)) <= budget:
        # The most rows per table that fit (a binary search: the length grows with the row limit).
        lo, hi = 0, max(len(cmp.changes), len(cmp.unchanged))
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if len(_markdown(comment, mid, None)) <= budget:
                lo = mid
            else:
                hi = mid - 1
        return _markdown(comment, lo, None)
    lo, hi = 0, len(comment.sections)  # the most sections that fit, with empty tables
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(_markdown(comment, 0, mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return _markdown(comment, 0, lo)


def format_json(cmp: Comparison, notes: Notes = NO_NOTES) -> str:
    """The comparison as JSON, in the shape of `schemas/diff.schema.json` (links are not part of it)."""
    return to_json(comparison_data(cmp, notes.review))


def format_comparison(cmp: Comparison, fmt: str, notes: Notes = NO_NOTES) -> str:
    """Format a comparison in one of DIFF_FORMATS."""
    formatters: dict[str, Callable[[Comparison, Notes], str]] = {
        "text": format_text, "markdown": format_markdown, "json": format_json}
    if fmt not in formatters:
        raise CatalogDocsError(f"unknown diff format {fmt!r}; valid formats: {', '.join(DIFF_FORMATS)}")
    return formatters[fmt](cmp, notes)
