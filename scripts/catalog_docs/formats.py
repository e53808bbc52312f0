"""Formatters for comparisons: text for a terminal, Markdown for a pull-request comment, JSON for tools.

They only format the change records of `compare`; none of them looks at a catalogue or computes a diff.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from .compare import CHANGE_KINDS, Change, ChangeKind, Comparison
from .errors import CatalogDocsError
from .escape import md_escape
from .export import comparison_data, to_json

DiffFormat = Literal["text", "markdown", "json"]
DIFF_FORMATS: tuple[DiffFormat, ...] = ("text", "markdown", "json")

KIND_TITLES: dict[ChangeKind, str] = {
    "label-added": "Version labels added",
    "label-removed": "Version labels removed",
    "plan-added": "Plan entries added",
    "plan-removed": "Plan entries removed",
    "entry-added": "Listing entries added",
    "entry-removed": "Listing entries removed",
    "entry-changed": "Listing entries changed",
    "value-changed": "Values changed",
    "not-shown-added": "Not-shown items added",
    "not-shown-removed": "Not-shown items removed",
    "not-shown-changed": "Not-shown items changed",
}
# Structural changes first (what exists), then values, then the register; the order of the summary.
_ORDER: tuple[ChangeKind, ...] = (
    "label-added", "label-removed", "plan-added", "plan-removed", "entry-added", "entry-removed",
    "entry-changed", "value-changed", "not-shown-added", "not-shown-removed", "not-shown-changed",
)
assert set(_ORDER) == set(CHANGE_KINDS) == set(KIND_TITLES), "every kind has a title and a place"


def _entry(c: Change) -> str:
    return c.path if c.path is not None else f"entry-{c.position}"


def _where(c: Change) -> str:
    """The (label, plan entry) a value change belongs to: `LABEL:PLAN` when the label is known."""
    return f"{c.label}:{c.plan}" if c.label else (c.plan or "")


def describe(c: Change, cmp: Comparison, name: Callable[[str], str] = str) -> str:
    """One line for a change that is not a value change; `name` formats each catalogue name in it."""
    match c.kind:
        case "label-added" | "label-removed":
            plans = c.detail.removeprefix("plan entries: ").split(", ") if c.detail else []
            return name(c.label or "") + (" (plan entries: " + ", ".join(map(name, plans)) + ")" if plans else "")
        case "plan-added":
            return (f"{name(c.plan or '')} (not listed under {name(cmp.from_side)}, "
                    f"listed under {name(c.label or cmp.to_side)})")
        case "plan-removed":
            return (f"{name(c.plan or '')} (listed under {name(c.label or cmp.from_side)}, "
                    f"not listed under {name(cmp.to_side)})")
        case "entry-added" | "entry-removed":
            return f"#{c.position} POST {name(_entry(c))}"
        case "entry-changed":
            return f"#{c.position} POST {name(_entry(c))}: {name(c.detail or '')}"
        case _:
            return name(c.detail or "")


def _summary_rows(cmp: Comparison) -> list[tuple[str, int, str]]:
    """(what, how many, detail) rows, structural kinds first, value transitions one row each."""
    rows: list[tuple[str, int, str]] = []
    for kind in _ORDER:
        if kind == "value-changed":
            rows.extend((f"Values changed {a} -> {b}", n, "") for a, b, n in cmp.transitions())
            continue
        found = cmp.by_kind(kind)
        if found:
            rows.append((KIND_TITLES[kind], len(found), ""))
    rows.append(("Values unchanged", len(cmp.unchanged), ""))
    return rows


def format_text(cmp: Comparison) -> str:
    """For a terminal: the summary first, then every change, value changes grouped by transition."""
    out = [f"{cmp.from_side} -> {cmp.to_side}: "
           + (f"{len(cmp.changes)} differences" if cmp.has_differences else "no differences"), ""]
    out.append("Summary")
    rows = _summary_rows(cmp)
    width = max(len(what) for what, _, _ in rows)
    out.extend(f"  {what:<{width}}  {n:>5}" for what, n, _ in rows)
    if cmp.has_differences:
        out += ["", "Changes"]
    for kind in _ORDER:
        if kind == "value-changed":
            for a, b, n in cmp.transitions():
                out += ["", f"{a} -> {b} ({n})"]
                group = [c for c in cmp.by_kind(kind) if c.from_value == a and c.to_value == b]
                pw = max(len(_entry(c)) for c in group)
                out.extend(f"  {c.position:>4}  {_entry(c):<{pw}}  {_where(c)}" for c in group)
            continue
        found = cmp.by_kind(kind)
        if found:
            out += ["", f"{KIND_TITLES[kind]} ({len(found)})"]
            out.extend(f"  {describe(c, cmp)}" for c in found)
    return "\n".join(out) + "\n"


_PLAIN = re.compile(r"[A-Za-z0-9 ._~/{}:>#()-]+")


def _md(text: object) -> str:
    """Catalogue text for Markdown: validated names and paths as code spans, anything else escaped."""
    s = str(text)
    return f"`{s}`" if _PLAIN.fullmatch(s) else str(md_escape(s))


def _lock(value: str | None) -> str:
    return "—" if value is None else _md(value)


def format_markdown(cmp: Comparison) -> str:
    """Ready to paste as a pull-request comment: a summary table, then the details in a collapsible block."""
    out = [f"### Catalogue diff: {_md(cmp.from_side)} → {_md(cmp.to_side)}", ""]
    if not cmp.has_differences:
        out += ["No differences.", "", f"Values unchanged: {len(cmp.unchanged)}."]
        return "\n".join(out) + "\n"
    out += ["| Change | Count |", "|---|---:|"]
    for what, n, _ in _summary_rows(cmp):
        if what.startswith("Values changed "):
            a, _, b = what.removeprefix("Values changed ").partition(" -> ")
            what = f"Values changed {_md(a)} → {_md(b)}"
        out.append(f"| {what} | {n} |")
    out += ["", "<details>", f"<summary>Every change ({len(cmp.changes)})</summary>", ""]
    for kind in _ORDER:
        if kind == "value-changed":
            for a, b, n in cmp.transitions():
                out += [f"#### {_md(a)} → {_md(b)} ({n})", "",
                        "| # | Path | Plan entry | From | To |", "|---:|---|---|---|---|"]
                out.extend(
                    f"| {c.position} | {_md(_entry(c))} | {_md(_where(c))} | {_lock(c.from_value)} | {_lock(c.to_value)} |"
                    for c in cmp.by_kind(kind) if c.from_value == a and c.to_value == b
                )
                out.append("")
            continue
        found = cmp.by_kind(kind)
        if found:
            out += [f"#### {KIND_TITLES[kind]} ({len(found)})", ""]
            out.extend(f"- {describe(c, cmp, _md)}" for c in found)
            out.append("")
    out.append("</details>")
    return "\n".join(out) + "\n"


def format_json(cmp: Comparison) -> str:
    """The comparison as JSON (the shape of `export.comparison_data`)."""
    return to_json(comparison_data(cmp))


def format_comparison(cmp: Comparison, fmt: str) -> str:
    """Format a comparison in one of DIFF_FORMATS."""
    formatters = {"text": format_text, "markdown": format_markdown, "json": format_json}
    if fmt not in formatters:
        raise CatalogDocsError(f"unknown diff format {fmt!r}; valid formats: {', '.join(DIFF_FORMATS)}")
    return formatters[fmt](cmp)
