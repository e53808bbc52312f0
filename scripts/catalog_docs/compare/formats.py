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

from catalog_docs.compare.changes import Change, ChangeKind, Comparison, Place, Unchanged
from catalog_docs.compare.gate import ACKNOWLEDGED_FILE, Acknowledgement, Decision, DraftLabel, Review
from catalog_docs.compare.json_format import comparison_data
from catalog_docs.compare.rules import RULES_BY_ID, SUMMARY_ORDER, VALUE_KINDS, rule_of
from catalog_docs.compare.sentences import Name, entry_name, plural, transition_title
from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal, md_escape
from catalog_docs.serialize import to_json

DiffFormat = Literal["text", "markdown", "json"]
DIFF_FORMATS: tuple[DiffFormat, ...] = ("text", "markdown", "json")

COMMENT_LIMIT = 65_536
"""GitHub refuses a pull-request comment longer than this many characters."""
COMMENT_BUDGET = COMMENT_LIMIT - 1_536
"""What the Markdown stays within by default (`diff --max-chars`), so a caller's marker or a bot's footer still
fits under GitHub's limit."""

@dataclass(frozen=True, slots=True, kw_only=True)
class Notes:
    """What the formats add to the records beyond the comparison itself: the review gate's verdict on each
    (`review`, from `diff --fail-on/--acknowledged`) and, for Markdown, the address of each change on the hosted
    site (`link`, from `diff --site-url`; None where no page shows it)."""

    review: Review | None = None
    link: Callable[[Change], str | None] | None = None
    max_chars: int = COMMENT_BUDGET
    """The most characters a Markdown comment may have (`diff --max-chars`)."""
    drafts: tuple[DraftLabel, ...] = ()
    """The draft labels of the later side, which publishing refuses: part of the verdict."""


NO_NOTES = Notes()


def verdict(c: Change, notes: Notes, name: Name) -> str:
    """`acknowledged: REASON` (the reason through `name`, which escapes it), `covered by its plan entry's
    acknowledgement: REASON`, `needs acknowledgement`, or ''."""
    r = notes.review
    if r is None:
        return ""
    found = r.reason(c)
    empty = next((a for a in r.unreasoned if a.id == c.id), None)
    if found is None and empty is not None and c.id in r.held:
        return f"needs acknowledgement: the reason on {_lines_of([empty], None, str)} is empty"
    if found is None and c.id in r.settled_by:
        return f"needs acknowledgement, with its {'label' if r.settled_by[c.id].startswith('label-') else 'plan entry'}"
    if found is None:
        return "needs acknowledgement" if c.id in r.held else ""
    reason, by = found
    if by == c.id:
        return f"acknowledged: {name(reason)}"
    whose = "label" if by.startswith("label-") else "plan entry"
    return f"covered by its {whose}'s acknowledgement: {name(reason)}"


def decision_words(d: Decision, name: Name) -> str:
    """What a decision is about, in words: `Plan entry P no longer listed under L`, `Values changed under L,
    plan entry P: close → unlimited`, `Listing entries removed`."""
    c = d.root or d.changes[0]
    b, a = c.before, c.after
    if d.root is not None:
        return {"plan-removed": f"Plan entry {name(b.plan)} no longer listed under {name(b.label)}",
                "plan-added": f"Plan entry {name(a.plan)} newly listed under {name(a.label)}",
                "label-removed": f"Version label {name(b.label)} removed",
                "label-added": f"Version label {name(a.label)} added"}.get(c.kind, c.kind)
    rule = RULES_BY_ID[c.kind]
    what = rule.many[0].upper() + rule.many[1:]
    if not rule.is_value:
        return what
    where = f"under {name(c.label)}" + (f", plan entry {name(c.plan)}" if c.plan is not None else "")
    if c.kind == "value-changed":
        return f"{what} {where}: {name(b.value)} → {name(a.value)}"
    return f"{what} {where}"


def _settles(d: Decision) -> str:
    """How a decision is acknowledged: `its id (covers its 23 values)`, `3 ids`."""
    if d.root is None:
        return plural(len(d.ids), "id", "ids")
    n = len(d.changes) - (1 if d.root in d.changes else 0)
    what = "values" if d.root.kind.startswith("plan-") else "plan entry listings and values"
    return f"its one id (covers its {n:,} {what})" if n else "its one id"


def _cap(text: str) -> str:
    """The sentence with its first letter a capital (the rest as it is: names keep their case)."""
    return text[:1].upper() + text[1:]


def _and(words: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _lines_of(acks: tuple[Acknowledgement, ...] | list[Acknowledgement], source: str | None,
              code: Callable[[str], str]) -> str:
    """`line 2 of FILE`, `lines 2, 4 and 6 of FILE`: the lines where the reasons go."""
    lines = [f"{n:,}" for n in sorted(a.missing.line if a.missing is not None else a.line for a in acks)]
    where = f" of {code(source)}" if source else ""
    return f"{'line' if len(lines) == 1 else 'lines'} {_and(lines)}{where}"


def gate_lines(notes: Notes, name: Name, code: Callable[[str], str]) -> list[str]:
    """The review gate's report (empty without one) after its verdict: what is acknowledged, what an
    acknowledgement covers, acknowledgements still without a reason that hold nothing, and the acknowledgements
    that match no change. `code` formats an id or a file."""
    r = notes.review
    if r is None:
        return []
    out = []
    if r.acknowledged:
        covered = (f"; they cover {plural(len(r.covered), 'more change', 'more changes')} (marked as covered)"
                   if r.covered else "")
        out.append(f"Acknowledged: {plural(len(r.acknowledged), 'change', 'changes')}, each marked with its reason"
                   f"{covered}.")
    idle = [a for a in r.unreasoned if a.id not in r.held]
    if idle:
        out.append(f"Without a reason: {_lines_of(idle, r.source, code)} "
                   f"{'acknowledges' if len(idle) == 1 else 'acknowledge'} nothing until a reason is written "
                   "(the gate does not select these changes).")
    if r.stale:
        where = f" in {code(r.source)}" if r.source else ""
        out.append(f"Stale: {plural(len(r.stale), 'acknowledgement', 'acknowledgements')}{where} "
                   f"{'matches' if len(r.stale) == 1 else 'match'} no change "
                   f"(remove {'it' if len(r.stale) == 1 else 'them'}):")
        out.extend(f"  {code(a.id)}: {name(a.reason)}" if a.has_reason else f"  {code(a.id)} (no reason)"
                   for a in r.stale)
    return out


def gate_verdict(notes: Notes) -> str:
    """The gate's verdict in one short sentence: passes, or holds N changes (in M decisions); '' without a gate."""
    r = notes.review
    if r is None:
        return ""
    if not r.fail_on:
        return "Review gate: no --fail-on, so nothing is held."
    if r.passed:
        return "Review gate passes: no change it selects is left unacknowledged."
    held = [d for d in r.decisions if d.held]
    return (f"Review gate holds {plural(len(r.failing), 'change', 'changes')} "
            f"({plural(len(held), 'decision', 'decisions')}) until {'it is' if len(r.failing) == 1 else 'they are'} "
            "acknowledged.")


def blockers(notes: Notes, name: Name, code: Callable[[str], str]) -> list[str]:
    """Everything that keeps the later side from being merged and published, each a sentence: a draft label
    (publishing refuses it), the changes the gate holds, and acknowledgements of held changes whose reason is
    still empty (named by their lines)."""
    out = [f"{_cap(d.how)} draft label {name(d.label)}: publishing refuses it until {code('draft: true')} "
           f"is removed from {code(d.file)}." for d in notes.drafts]
    r = notes.review
    if r is None:
        return out
    if r.fail_on and not r.passed:
        out.append(gate_verdict(notes))
    waiting = [a for a in r.unreasoned if a.id in r.held]
    if waiting:
        out.append(f"{_cap(_lines_of(waiting, r.source, code))} "
                   f"{'acknowledges a change' if len(waiting) == 1 else 'acknowledge changes'} without a reason: "
                   f"write why {'it is' if len(waiting) == 1 else 'each is'} right there.")
    return out


def verdict_lines(notes: Notes, name: Name, code: Callable[[str], str]) -> tuple[str, list[str], str]:
    """The verdict: its headline, the blockers listed under it, and the gate's passing sentence when a draft
    blocks anyway (so neither hides the other). With one blocker, or none, the headline is that sentence (the
    gate's alone reads as it always has); with more, `Not ready to merge:` over the list."""
    found = blockers(notes, name, code)
    r = notes.review
    passing = gate_verdict(notes) if r is not None and (r.passed or not r.fail_on) else ""
    if not found:
        return passing, [], ""
    if len(found) == 1 and not notes.drafts:
        return found[0], [], ""
    if len(found) == 1:
        return f"Not ready to merge: {found[0][:1].lower()}{found[0][1:]}", [], passing
    return "Not ready to merge:", found, passing


def gate_rule(notes: Notes) -> str:
    """What the gate holds, in words (the kinds the selectors name, by where they count), and the rule of one
    acknowledgement per decision."""
    r = notes.review
    if r is None or not r.fail_on:
        return ""
    anywhere = [s.kind for s in r.fail_on if s.scope == "any"]
    published = [s.kind for s in r.fail_on if s.scope == "published" and s.kind not in anywhere]
    parts = []
    if published:
        parts.append("these changes to a version label already published (not a draft): "
                     f"{', '.join(RULES_BY_ID[k].many for k in dict.fromkeys(published))}")
    if anywhere:
        parts.append(f"these anywhere: {', '.join(RULES_BY_ID[k].many for k in dict.fromkeys(anywhere))}")
    return (f"It holds, until each is acknowledged with a reason, {'; and '.join(parts)}. Acknowledging a plan "
            "entry's or a label's removal or addition covers the values it implies.")


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
    section = rule_of(c).section
    return (section, c.label, c.plan) if section == "label" else (section, None, None)


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


class SummaryRow(NamedTuple):
    """One row of a summary: what it counts (capitalised words), how many, the (from, to) values of a value
    transition, and the kind it counts (None for the unchanged values)."""

    what: str
    n: int
    transition: tuple[str, str] | None
    kind: ChangeKind | None


def summary_rows(cmp: Comparison) -> list[SummaryRow]:
    """Structural kinds first, each value transition a row of its own, then the unchanged values."""
    rows: list[SummaryRow] = []
    counts = cmp.counts()
    for rule in SUMMARY_ORDER:
        if rule.id == "value-changed":
            rows.extend(SummaryRow(rule.noun(n), n, (a, b), rule.id) for a, b, n in cmp.transitions())
        elif counts[rule.id]:
            rows.append(SummaryRow(rule.noun(counts[rule.id]), counts[rule.id], None, rule.id))
    rows.append(SummaryRow("value unchanged" if len(cmp.unchanged) == 1 else "values unchanged", len(cmp.unchanged),
                           None, None))
    return [r._replace(what=r.what[0].upper() + r.what[1:]) for r in rows]


def full_json_command(cmp: Comparison) -> str:
    """The command that prints every record of this comparison."""
    if cmp.mode == "revisions":
        return f"catalog-docs diff --against {shlex.quote(cmp.before.revision or 'REV')} --format json"
    return f"catalog-docs diff {shlex.quote(cmp.from_side)} {shlex.quote(cmp.to_side)} --format json"


def describe(c: Change, cmp: Comparison, name: Name) -> str:
    """One sentence for a record that is not a value record (its kind's `describe`)."""
    say = rule_of(c).describe
    if say is None:
        raise AssertionError(f"value records are listed, not described: {c.kind}")
    return say(c, cmp, name)


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
        return f"{name(cmp.before.words)} → {name(cmp.after.words)}"
    return f"{name(label)} · plan entry {name(plan)}"


# ---- text ---------------------------------------------------------------------------------------------------

def _plain(text: object) -> str:
    return str(text)


def _text_note(c: Change, notes: Notes) -> str:
    v = verdict(c, notes, _plain)
    return f"  ({v})" if v else ""


def _text_summary(cmp: Comparison, notes: Notes) -> list[str]:
    """The first line, the count of each kind of change, and the review gate's report."""
    diffs = plural(len(cmp.changes), "difference", "differences") if cmp.has_differences else "no differences"
    out = [f"{cmp.before.words} -> {cmp.after.words}: {diffs}", "", "Summary"]
    rows = [(what + (f" {t[0]} -> {t[1]}" if t else ""), n) for what, n, t, _ in summary_rows(cmp)]
    width = max(len(what) for what, _ in rows)
    out.extend(f"  {what:<{width}}  {n:>5}" for what, n in rows)
    headline, listed, passing = verdict_lines(notes, _plain, _plain)
    if headline:
        out += ["", headline, *(f"  - {b}" for b in listed), *([f"  {passing}"] if passing else [])]
    if notes.review is not None:
        out += [f"  {gate_rule(notes)}".rstrip()]
        for d in (d for d in notes.review.decisions if d.held):
            out.append(f"  {decision_words(d, _plain)}: {len(d.held):,} held; acknowledge {_settles(d)}:")
            out.extend(f"    {i}" for i in d.ids)
        out += [f"  {line}" for line in gate_lines(notes, _plain, _plain)]
    return out


def _text_group(g: Group, cmp: Comparison, notes: Notes) -> list[str]:
    """One group: its heading, its sentences, each transition with its rows, then its unchanged values."""
    out = ["", heading(g, cmp, _plain).replace("→", "->")]
    out.extend(f"  {describe(c, cmp, _plain)} [{c.id}]{_text_note(c, notes)}".replace("→", "->")
               for c in g.records)
    for kind, a, b, values in g.transitions():
        out.append(f"  {transition_title(kind, a, b, values, _plain, g.basis, cmp)}".replace("→", "->"))
        pw = max(len(entry_name(c)) for c in values)
        out.extend(f"    {c.position:>4}  {entry_name(c):<{pw}}  {c.id}{_text_note(c, notes)}" for c in values)
    if g.unchanged and g.lists_unchanged:
        out.append(f"  Unchanged ({plural(len(g.unchanged), 'value', 'values')})")
        pw = max(len(entry_name(u)) for u in g.unchanged)
        out.extend(f"    {u.position:>4}  {entry_name(u):<{pw}}  {u.value}" for u in g.unchanged)
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

_SKIP = re.compile(r"```.*?```|`[^`\n]*`|\]\([^)\s]*\)|<!--.*?-->|<[^>\n]*>", re.DOTALL)
"""What GitHub never links a reference in, or what is not text: fenced and inline code, a link's address, HTML
tags and comments."""
_REFERENCE = re.compile(r"(&#35;|&#64;|&#x23;|&#x40;|[#@]|GH-|GH&#45;)(?=[A-Za-z0-9_])|&#?[A-Za-z0-9]+;", re.IGNORECASE)
_JOINER = "&#8288;"
"""U+2060 WORD JOINER, as a character reference: invisible, and no name or number starts with it."""


def inert_references(markdown: str) -> str:
    """The comment with no text GitHub would turn into a mention (`@name`) or a link to an issue or pull request
    (`#12`, `GH-12`, `owner/repo#12`): a word joiner after each `@`, `#` and `GH-` that starts one, outside code
    and tags. GitHub finds them in the text of the rendered comment (its mention and reference filters skip only
    code, pre and links), so a character reference such as `&#64;` alone would not stop them."""
    def text(part: str) -> str:
        return _REFERENCE.sub(lambda m: m.group(0) + _JOINER if m.group(1) else m.group(0), part)
    out, at = [], 0
    for m in _SKIP.finditer(markdown):
        out += [text(markdown[at:m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, text(markdown[at:])])


def _md(text: object) -> str:
    """Catalogue text for Markdown: validated names and paths as code spans, anything else escaped."""
    s = str(text)
    return f"`{s}`" if _PLAIN.fullmatch(s) else str(md_escape(s))


def _md_text(text: object) -> str:
    """Free text (a reason) for Markdown: escaped, never a code span."""
    return str(md_escape(str(text)))


def _html(text: object) -> str:
    """Catalogue text inside raw HTML (a <summary>), where Markdown is not read."""
    return html.escape(str(text)).replace("`", "&#96;")


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
    return head + [f"| {c.position} | {_md(entry_name(c))} | {_cell(c.from_value)} | {_cell(c.to_value)} | "
                   f"{_md_ref(c, notes)} |" for c in values[:limit]]


def _cell(value: str | None) -> str:
    """A value cell: the value, or `not listed` on the side whose label does not list the plan entry."""
    return _md(value) if value is not None else "not listed"


def _column_heads(cmp: Comparison, a: Change) -> tuple[str, str]:
    """Whose value each column holds: the two labels; the same label at the two revisions; the two (label, plan
    entry) sides; the revision alone on a side whose label is missing (new, or removed)."""
    if cmp.mode == "plans":
        return _md(cmp.before.words), _md(cmp.after.words)
    before = _md(a.before.label) if a.before.label else _md(cmp.from_side)
    after = _md(a.after.label) if a.after.label else _md(cmp.to_side)
    if cmp.mode == "revisions" and a.before.label is not None and a.before.label == a.after.label:
        before, after = f"{before} ({_md(cmp.from_side)})", f"{after} ({_md(cmp.to_side)})"
    elif cmp.mode == "revisions" and a.before.label is not None and a.after.label is not None:
        # a plan entry listed anew (under a new label, or again): its values against its previous label, both read
        # from the later catalogue
        before, after = f"{before} (previous label, {_md(cmp.to_side)})", f"{after} ({_md(cmp.to_side)})"
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
    summary: list[SummaryRow]
    sections: list[Group]
    notes: Notes


_DECISION_ROWS = 20
"""The table of decisions shows at most this many rows (the ids below list every decision's ids)."""


def _md_decisions(notes: Notes) -> list[str]:
    """The gate's verdict, then a table of the decisions it waits for: one row per plan entry listing or label
    added or removed, per kind of change (values: per label, plan entry and transition), with counts."""
    headline, listed, passing = verdict_lines(notes, _md, _md)
    out = [f"**{headline}**", ""] if headline else []
    out += [*(f"- {b}" for b in listed), ""] if listed else []
    out += [passing, ""] if passing else []
    r = notes.review
    if r is None:
        return out
    rule = gate_rule(notes)
    out += [rule, ""] if rule else []
    held = [d for d in r.decisions if d.held]
    if not held:
        return out
    out += ["| Needs a decision | Held | Acknowledge |", "|---|---:|---|"]
    for d in held[:_DECISION_ROWS]:
        partial = f" of {len(d.changes):,} ({len(d.changes) - len(d.held):,} acknowledged)" \
            if len(d.held) < len(d.changes) else ""
        out.append(f"| {decision_words(d, _md)} | {len(d.held):,}{partial} | {_settles(d)} |")
    if len(held) > _DECISION_ROWS:
        out += ["", f"*{plural(len(held) - _DECISION_ROWS, 'more decision', 'more decisions')}: their ids are "
                "below.*"]
    return [*out, ""]


def _md_ids(notes: Notes, ids_limit: int | None) -> tuple[list[str], int]:
    """The ids that settle the held decisions, folded, as a ready-to-paste YAML list with the file it goes in;
    and how many ids it left out (`ids_limit`: at most that many)."""
    r = notes.review
    if r is None or r.passed:
        return [], 0
    ids = [i for d in r.decisions if d.held for i in d.ids]
    shown = ids if ids_limit is None else ids[:ids_limit]
    where = r.source or ACKNOWLEDGED_FILE
    out = ["<details>", f"<summary>{plural(len(ids), 'id', 'ids')} to acknowledge, as YAML for "
           f"<code>{_html(where)}</code></summary>", "",
           f"Once each change is checked, add these lines to {_md(where)} in this pull request (create it if it is "
           "missing) and write each reason: until it has one, an acknowledgement holds its change.", ""]
    if shown:
        out += ["```yaml", *(f"- id: {i}\n  reason:  # why this change is right" for i in shown), "```", ""]
    if len(shown) < len(ids):
        out += [f"*{plural(len(ids) - len(shown), 'more id', 'more ids')} left out (see the end of this "
                "comment).*", ""]
    return [*out, "</details>", ""], len(ids) - len(shown)


def _md_gate(notes: Notes) -> list[str]:
    """What the gate found besides its verdict: acknowledged and covered changes, stale acknowledgements."""
    out: list[str] = []
    for line in gate_lines(notes, _md_text, _md):
        out += [f"- {line[2:]}"] if line.startswith("  ") else ["", line] if out else [line]
    return [*out, ""] if out else []


class _Table(NamedTuple):
    """One table of a section: its title (Markdown, and HTML for a <summary>), its lines, and how many rows it
    has in all (more than its lines when rows are left out)."""

    md_title: str
    html_title: str
    lines: list[str]
    rows: int


def _md_head(comment: _Comment, ids_limit: int | None) -> tuple[list[str], int]:
    """The heading, the gate's verdict and decisions with the ids that settle them, the gate's other findings,
    then the count of each kind of change; and how many ids it left out."""
    cmp = comment.cmp
    out = [f"### Catalogue diff: {_md(cmp.before.words)} → {_md(cmp.after.words)}", ""]
    out += _md_decisions(comment.notes)
    ids, left = _md_ids(comment.notes, ids_limit)
    out += ids + _md_gate(comment.notes)
    if not cmp.has_differences:
        return [*out, "No differences.", "", f"{plural(len(cmp.unchanged), 'value', 'values')} unchanged.", ""], left
    out += [f"**{plural(len(cmp.changes), 'difference', 'differences')}.**", "",
            "| Change | Count |", "|---|---:|"]
    for what, n, t, _ in comment.summary:
        out.append(f"| {what}{f' {_md(t[0])} → {_md(t[1])}' if t else ''} | {n:,} |")
    return [*out, ""], left


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
            f"| {u.position} | {_md(entry_name(u))} | {_md(u.value)} |" for u in keep]
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


def _md_left_out(comment: _Comment, hidden: list[Group], left: int, ids_left: int) -> list[str]:
    """What a shortened comment left out, and the command that prints everything."""
    what = []
    if ids_left:
        what.append(plural(ids_left, "id to acknowledge", "ids to acknowledge"))
    if left:
        what.append(plural(left, "table row", "table rows"))
    if hidden:
        records = sum(len(g.records) + len(g.values) for g in hidden)
        what.append(f"{plural(len(hidden), 'whole section', 'whole sections')} "
                    f"({plural(records, 'record', 'records')})")
    return ["---", "", f"*Left out to keep this comment under {comment.notes.max_chars:,} characters "
            f"(GitHub's limit is {COMMENT_LIMIT:,}): {', '.join(what)}. `{full_json_command(comment.cmp)}` prints "
            "every record (and, with the same --fail-on, every id the gate holds).*", ""]


def _markdown(comment: _Comment, rows_limit: int | None, groups_limit: int | None,
              ids_limit: int | None = None) -> str:
    """One draft of the comment: at most `rows_limit` rows per table, `groups_limit` sections and `ids_limit`
    ids to acknowledge (None: all). Every fold it opens it closes; rows and ids are whole or left out."""
    out, ids_left = _md_head(comment, ids_limit)
    shown = comment.sections if groups_limit is None else comment.sections[:groups_limit]
    left = 0
    for g in shown:
        lines, cut = _md_section(comment, g, rows_limit)
        out += lines
        left += cut
    hidden = comment.sections[len(shown):]
    if hidden or left or ids_left:
        out += _md_left_out(comment, hidden, left, ids_left)
    return inert_references("\n".join(out).rstrip("\n") + "\n")


def _most(fits: Callable[[int], bool], hi: int) -> int:
    """The largest n in 0..hi with fits(n), for a `fits` that holds up to some n and not above (0 if none)."""
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def format_markdown(cmp: Comparison, notes: Notes = NO_NOTES) -> str:
    """A pull-request comment: the review gate's verdict and what it needs decided, the ids to acknowledge,
    a summary table, then one section per label and plan entry. However large the change, it stays within
    `notes.max_chars` characters: the ids to acknowledge first take at most half of it, then it shortens the
    tables, then drops whole sections from the end, then gives what is left to more ids; and it says what it
    left out and how to get everything."""
    comment = _Comment(cmp=cmp, summary=summary_rows(cmp),
                       sections=[g for g in groups(cmp) if g.records or g.values], notes=notes)
    budget = notes.max_chars
    text = _markdown(comment, None, None)
    if len(text) <= budget:
        return text
    n_ids = sum(len(d.ids) for d in notes.review.decisions if d.held) if notes.review is not None else 0
    ids = _most(lambda n: len(_markdown(comment, 0, 0, n)) <= budget // 2, n_ids)
    rows: int | None = None
    sections: int | None = 0
    if len(_markdown(comment, 0, None, ids)) <= budget:
        rows = _most(lambda n: len(_markdown(comment, n, None, ids)) <= budget,
                     max(len(cmp.changes), len(cmp.unchanged)))
        sections = None
    else:
        sections = _most(lambda n: len(_markdown(comment, 0, n, ids)) <= budget, len(comment.sections))
    # What the tables leave of the budget goes to more ids (a row limit moves every table at once).
    ids = _most(lambda n: len(_markdown(comment, rows or 0, sections, n)) <= budget, n_ids)
    return _markdown(comment, rows or 0, sections, ids)


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
