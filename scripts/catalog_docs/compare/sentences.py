"""The words of the text and Markdown formats: one sentence per kind of record (each kind's `describe` in
`compare.rules`), the words of each field, and the titles of value tables. `name` formats each catalogue name
for its output (escaping it as that output needs); nothing here computes a diff.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from catalog_docs.compare.changes import Change, ChangeKind, Comparison, Place, Unchanged

Name = Callable[[object], str]
"""Formats one catalogue name or text for the output (escaping it as that output needs)."""

def plural(n: int, one: str, many: str) -> str:
    """`1 plan entry`, `2 plan entries`: the count with the right form of the noun."""
    return f"{n:,} {one if n == 1 else many}"


def entry_name(c: Change | Unchanged, side: Literal["after", "before"] = "after") -> str:
    """The listing entry's name on one side (the other side's when this one has none): path or entry-N."""
    first, second = (c.after, c.before) if side == "after" else (c.before, c.after)
    place = first if first.position is not None else second
    return place.path if place.path is not None else f"entry-{place.position}"

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


def label_added(c: Change, cmp: Comparison, name: Name) -> str:
    after = f"after {name(c.basis.label)}" if c.basis is not None else "as the first label"
    return (f"Version label {name(c.after.label)} is new {_at(cmp.to_side, name)}, {after}: "
            f"{_facts(c, name, 'labels')}." + _renamed(c, name, lambda p: p.label))


def label_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Version label {name(c.before.label)} removed {_at(cmp.to_side, name)}; {_at(cmp.from_side, name)} it was "
            f"{_facts(c, name, 'labels')}, and its values are only in that catalogue."
            + _renamed(c, name, lambda p: p.label))


def label_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Version label {name(c.after.label)} changed {_between(cmp, name)}: {_fields(c, name, 'labels')}."


def plan_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Plan entry {name(c.after.plan)} under {name(c.after.label)} changed {_between(cmp, name)}: "
            f"{_fields(c, name, 'plan entries')}.")


def service_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Service {name(c.after.service)} changed {_between(cmp, name)}: {_fields(c, name)}."


def area_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Area {name(c.after.area)} is new {_at(cmp.to_side, name)}: {_facts(c, name, 'areas')}."
            + _renamed(c, name, lambda p: p.area))


def area_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Area {name(c.before.area)} removed {_at(cmp.to_side, name)}; {_at(cmp.from_side, name)} it was "
            f"{_facts(c, name, 'areas')}." + _renamed(c, name, lambda p: p.area))


def area_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return f"Area {name(c.after.area)} changed {_between(cmp, name)}: {_fields(c, name, 'areas')}."


def _basis(c: Change, name: Name) -> str:
    """What a newly listed plan entry's values are compared with."""
    if c.basis is None:
        return "No earlier label lists it, so every value is new."
    return (f"Each value is compared with its previous label, {name(c.basis.label)}, the latest earlier label that "
            f"lists it.")


def plan_added(c: Change, cmp: Comparison, name: Name) -> str:
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


def plan_removed(c: Change, cmp: Comparison, name: Name) -> str:
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


def entry_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.after.position} POST {name(entry_name(c))} is new {_at(cmp.to_side, name)}: "
            f"{_facts(c, name, 'entries', _ENTRY_NAMED_BY, dict(cmp.area_names))}.")


def entry_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.before.position} POST {name(entry_name(c, 'before'))} removed "
            f"{_at(cmp.to_side, name)}; "
            f"{_at(cmp.from_side, name)} it had "
            f"{_facts(c, name, 'entries', _ENTRY_NAMED_BY, dict(cmp.area_names))}.")


def entry_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Listing entry #{c.after.position} POST {name(entry_name(c))} changed {_between(cmp, name)}: "
            f"{_fields(c, name, '', dict(cmp.area_names))}.")


def not_shown_added(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.after.not_shown)} is new {_at(cmp.to_side, name)}: "
            f"{_facts(c, name, 'register items')}.")


def not_shown_removed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.before.not_shown)} removed {_at(cmp.to_side, name)}; "
            f"{_at(cmp.from_side, name)} it was {_facts(c, name, 'register items')}.")


def not_shown_changed(c: Change, cmp: Comparison, name: Name) -> str:
    return (f"Not-shown item {name(c.after.not_shown)} ({name(c.after.section)}) changed {_between(cmp, name)}: "
            f"{_fields(c, name, 'register items')}.")

def side_names(cmp: Comparison, c: Change, name: Name) -> tuple[str, str]:
    """Whose values a value record compares, earlier side first: `under UPI_N 1.0.1`, `under UPI_N 1.1.0`
    (two labels), `under L at main`, `under L at feature-x` (two revisions), or the two (label, plan entry) sides."""
    if cmp.mode == "plans":
        return name(cmp.before.words), name(cmp.after.words)

    def one(label: str | None, side: str) -> str:
        under = f"under {name(label)}" if label is not None else ""
        at = _at(side, name) if cmp.mode == "revisions" else ""
        return " ".join(w for w in (under, at) if w)
    # A plan entry listed anew is compared with its previous label as the later catalogue has it.
    anew = c.before.label is not None and c.after.label is not None and c.before.label != c.after.label
    return one(c.before.label, cmp.to_side if anew else cmp.from_side), one(c.after.label, cmp.to_side)


def _named_once(before: str, after: str) -> tuple[str, str]:
    """The later side without the label the earlier side already names: `under L at main`, `at feature`."""
    head = before.partition(" at ")[0]
    return before, (after[len(head) + 1:] if head.startswith("under ") and after.startswith(head + " at ") else after)


def transition_title(kind: ChangeKind, a: str | None, b: str | None, values: list[Change], name: Name,
                     basis: object = None, cmp: Comparison | None = None) -> str:
    """`close → unlimited (3 values)`, `2 values: not listed under A, close under B`, `1 value: unlimited under
    A, not listed under B` (read in one pass, earlier side first); with `basis` (a re-listed plan entry), the
    labels compared are named too."""
    n = plural(len(values), "value", "values")
    before, after = _named_once(*side_names(cmp, values[0], name)) if cmp is not None else ("", "")
    if kind == "value-added":
        return f"{n}: not listed {before}, {name(b)} {after}" if cmp is not None else f"New: {name(b)} ({n})"
    if kind == "value-removed":
        return (f"{n}: {name(a)} {before}, not listed {after}" if cmp is not None
                else f"No longer listed: {name(a)} ({n})")
    labels = {(c.before.label, c.after.label) for c in values}
    between = ""
    if len(labels) == 1 and basis is not None:
        la, lb = next(iter(labels))
        if la is not None and lb is not None and la != lb:
            between = f", {name(la)} → {name(lb)}"
    return f"{name(a)} → {name(b)} ({n}{between})"
