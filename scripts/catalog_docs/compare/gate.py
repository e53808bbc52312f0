"""The review gate of `catalog-docs diff --fail-on ... --acknowledged FILE`: which change records stop a pull
request until someone has looked at them, and which a reviewer has acknowledged (with a reason).

- A selector is a change kind (`value-changed`), or a kind narrowed to the records of published labels
  (`value-changed:published`: the record's version label is listed, without `draft: true`, in the earlier
  catalogue; a label still a draft there, or new, is work in progress).
- The acknowledgements file is a YAML list of `{id: CHANGE-ID, reason: TEXT}`. It is checked as catalogue input
  is: every problem reported at file:line:column with its key path, what was expected and what was found. A
  reason left empty (the YAML the comment offers, pasted before the reviewer wrote one) is not a broken file:
  the acknowledgement loads as one without a reason, acknowledges nothing, and the verdict names its line.
- A change a selector picks fails the gate unless it is acknowledged; an acknowledgement that matches no
  change is stale and is reported by its id, so it gets cleaned up. Stale ones do not fail the gate.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml

from catalog_docs.compare.changes import Change, ChangeKind, Comparison
from catalog_docs.compare.ids import ID_PATTERN
from catalog_docs.compare.rules import KIND_IDS, RULES_BY_ID
from catalog_docs.errors import CatalogDocsError, CatalogInvalid, Problem

Scope = Literal["any", "published"]
SCOPES: tuple[Scope, ...] = ("any", "published")

_STR = "tag:yaml.org,2002:str"

MAX_REASON_CHARS = 500
"""The longest reason an acknowledgement may give (FORMATS.md): every format and the pull-request comment show it."""

ACKNOWLEDGED_FILE = ".github/catalog-acknowledged.yaml"
"""The acknowledgements file CI reads (.github/workflows/ci.yml): where the comment tells a reviewer to put them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DraftLabel:
    """A version label that is a draft (`draft: true`) on the later side: publishing refuses it, so it blocks a
    merge as surely as a held change. `how`: the branch adds it (not a label of the earlier revision), keeps it (a
    draft there too), or it is one of the two labels compared."""

    label: str
    file: str
    how: Literal["adds", "keeps", "compares"]


class GateUsageError(CatalogDocsError):
    """A --fail-on selector that names no kind or scope (a usage error: exit 2)."""


class AcknowledgementsInvalid(CatalogInvalid):
    """The acknowledgements file does not load; carries every problem, each at file:line:column."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Selector:
    """One `--fail-on` item: a change kind, for every record of it or only those of published labels."""

    kind: ChangeKind
    scope: Scope = "any"

    def __str__(self) -> str:
        return self.kind if self.scope == "any" else f"{self.kind}:{self.scope}"

    def picks(self, change: Change, published: frozenset[str]) -> bool:
        """True when `change` is of this kind (and, for `:published`, of a published label)."""
        if change.kind != self.kind:
            return False
        return self.scope == "any" or (change.label is not None and change.label in published)


def parse_fail_on(text: str) -> tuple[Selector, ...]:
    """`KIND[:published][,KIND...]` as selectors; an unknown kind or scope is a usage error listing the valid ones."""
    selectors: list[Selector] = []
    for item in (part.strip() for part in text.split(",")):
        kind, sep, scope = item.partition(":")
        if kind not in RULES_BY_ID:
            raise GateUsageError(f"--fail-on: unknown change kind {kind!r}; valid kinds: {', '.join(KIND_IDS)} "
                                 "(each may end in ':published')")
        if sep and scope != "published":
            raise GateUsageError(f"--fail-on: {item!r}: expected KIND or KIND:published after the kind, found "
                                 f"':{scope}'")
        selectors.append(Selector(kind=kind, scope="published" if sep else "any"))
    return tuple(selectors)


@dataclass(frozen=True, slots=True, kw_only=True)
class Acknowledgement:
    """One `{id, reason}` of the acknowledgements file, with the line it is on."""

    id: str
    reason: str
    line: int = 0
    missing: Problem | None = None
    """Where the reason should be, when it was left empty: the change stays held until it has one."""

    @property
    def has_reason(self) -> bool:
        """False for an acknowledgement pasted without its reason written."""
        return self.missing is None


def _problem(name: str, node: yaml.Node | None, key: str, expected: str, found: str, hint: str = "") -> Problem:
    mark = node.start_mark if node is not None else None
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Problem(file=name, line=line, column=column, key_path=key, expected=expected, found=found, hint=hint)


def _found(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
        return "nothing" if not node.value else f"{node.value} (null)"
    if isinstance(node, yaml.ScalarNode):
        shown = node.value if len(node.value) <= 60 else node.value[:57] + "..."
        return repr(shown) if node.tag == _STR else f"{shown} ({node.tag.rsplit(':', 1)[-1]})"
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


def _key_problem(name: str, where: str, key: yaml.Node, value: yaml.Node, seen: dict[str, str]) -> Problem | None:
    """What is wrong with one key and value of an acknowledgement, or None (then `seen` has the value)."""
    k = key.value if isinstance(key, yaml.ScalarNode) else None
    if k not in ("id", "reason"):
        return _problem(name, key, where, "only the keys id and reason", _found(key))
    if k in seen:
        return _problem(name, key, f"{where}.{k}", f"{k} once", f"a second {k}")
    if k == "reason" and _blank(value):
        seen[k] = ""  # pasted as offered: loaded without a reason (`Acknowledgement.missing`)
        return None
    if not isinstance(value, yaml.ScalarNode) or value.tag != _STR or not value.value.strip():
        return _problem(name, value, f"{where}.{k}", "a change id" if k == "id" else "a reason (non-empty text)",
                        _found(value))
    if k == "reason" and len(value.value) > MAX_REASON_CHARS:
        return _problem(name, value, f"{where}.reason", f"a reason of at most {MAX_REASON_CHARS} characters",
                        f"{len(value.value):,} characters, {_found(value)}", "say it in a sentence or two; link to "
                        "anything longer")
    if k == "id" and not re.fullmatch(ID_PATTERN, value.value):
        return _problem(name, value, f"{where}.id", "a change id as catalog-docs diff prints it (KIND--...--HASH)",
                        _found(value), "copy it from the diff output")
    seen[k] = value.value
    return None


def _blank(value: yaml.Node) -> bool:
    """A reason left empty: nothing, a null, or blank text."""
    if not isinstance(value, yaml.ScalarNode):
        return False
    return value.tag == "tag:yaml.org,2002:null" or (value.tag == _STR and not value.value.strip())


def _missing_reason(name: str, where: str, node: yaml.MappingNode) -> Problem:
    """Where an acknowledgement's empty reason is, and what to write there."""
    value = next(v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "reason")
    return _problem(name, value, f"{where}.reason", "a reason (non-empty text)", _found(value),
                    "write why the change is right; until then it stays held")


def _item(name: str, i: int, node: yaml.Node) -> Problem | Acknowledgement | list[Problem]:
    """The acknowledgement of list item `i`, or what is wrong with it."""
    where = f"acknowledged[{i}]"
    if not isinstance(node, yaml.MappingNode):
        return _problem(name, node, where, "a mapping {id: CHANGE-ID, reason: TEXT}", _found(node))
    values: dict[str, str] = {}
    problems = [p for key, value in node.value if (p := _key_problem(name, where, key, value, values)) is not None]
    if problems:
        return problems + ([_missing_reason(name, where, node)] if values.get("reason") == "" else [])
    missing = [k for k in ("id", "reason") if k not in values]
    if missing:
        return _problem(name, node, where, "the keys id and reason", f"no {' and no '.join(missing)}")
    empty = _missing_reason(name, where, node) if not values["reason"] else None
    return Acknowledgement(id=values["id"], reason=values["reason"], line=node.start_mark.line + 1, missing=empty)


def _syntax_problem(name: str, text: str, exc: yaml.YAMLError) -> Problem:
    """Where and what the YAML error is: a parser's mark, or a reader's position (a refused character)."""
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line, column = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        found = f"the character U+{exc.character:04X}, which YAML does not allow"
    else:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        found = str(getattr(exc, "problem", None) or getattr(exc, "context", None) or exc)
    return Problem(file=name, line=line, column=column, key_path="(file)", expected="YAML", found=found)


MAX_BYTES = 1_000_000
"""The largest acknowledgements file read (1 MB: tens of thousands of acknowledgements); a larger one is refused
by its size, before it is read."""
MAX_DEPTH = 16
"""The deepest nesting read (an acknowledgement is two levels deep); deeper stops the parse at its mark, before
the file is composed (so no nesting can exhaust the parser's stack)."""


def _kind_of(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((words for test, words in kinds if test(mode)), "not a regular file")


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES. A pipe, a device, a socket or a folder is refused from
    its metadata, without being opened for reading (a pipe nobody writes to would wait for ever); the file is
    opened without blocking and checked again on its descriptor, so what was checked is what is read."""
    name = str(path)
    try:
        before = path.stat()
    except OSError as exc:
        raise CatalogDocsError(f"--acknowledged: cannot read {name}: {exc.strerror}") from None
    if not stat.S_ISREG(before.st_mode):
        raise CatalogDocsError(f"--acknowledged: {name} is {_kind_of(before.st_mode)}; expected a regular file")
    if before.st_size > MAX_BYTES:
        raise CatalogDocsError(f"--acknowledged: {name} has {before.st_size:,} bytes; at most {MAX_BYTES:,} are read")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CatalogDocsError(f"--acknowledged: cannot read {name}: {exc.strerror}") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode):  # replaced between the check and the open
            raise CatalogDocsError(f"--acknowledged: {name} is {_kind_of(now.st_mode)}; expected a regular file")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CatalogDocsError(f"--acknowledged: cannot read {name}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise CatalogDocsError(f"--acknowledged: {name} has more than {MAX_BYTES:,} bytes; at most {MAX_BYTES:,} "
                               "are read")
    return data


def _too_deep(name: str, text: str) -> Problem | None:
    """The first place nested deeper than MAX_DEPTH, from the parser's events (it keeps no stack of its own)."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                return Problem(file=name, line=line, column=column, key_path="(file)",
                               expected=f"at most {MAX_DEPTH} levels of nesting", found=f"more than {MAX_DEPTH}")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def load_acknowledgements(path: Path) -> tuple[Acknowledgement, ...]:
    """Read and check an acknowledgements file; raise AcknowledgementsInvalid with every problem found, or
    CatalogDocsError (one line) for a file that cannot be read: missing, not a regular file, over MAX_BYTES."""
    name = str(path)
    data = _read_regular(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found = f"byte {exc.object[exc.start]:#04x}"
        raise AcknowledgementsInvalid([Problem(file=name, line=1, column=1, key_path="(file)",
                                               expected="UTF-8 text", found=found)]) from None
    try:
        deep = _too_deep(name, text)
        if deep is not None:
            raise AcknowledgementsInvalid([deep])
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise AcknowledgementsInvalid([_syntax_problem(name, text, exc)]) from None
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == "tag:yaml.org,2002:null"):
        return ()
    if not isinstance(root, yaml.SequenceNode):
        raise AcknowledgementsInvalid([_problem(name, root, "acknowledged", "a list of {id, reason}", _found(root))])
    problems: list[Problem] = []
    acks: list[Acknowledgement] = []
    first: dict[str, int] = {}
    for i, node in enumerate(root.value):
        got = _item(name, i, node)
        if isinstance(got, list):
            problems += got
        elif isinstance(got, Problem):
            problems.append(got)
        elif got.id in first:
            problems.append(_problem(name, node, f"acknowledged[{i}].id", "each id once",
                                     f"{got.id!r} again (first on line {first[got.id]})"))
        else:
            first[got.id] = got.line
            acks.append(got)
    if problems:  # the empty reasons too: every problem of the file at once
        raise AcknowledgementsInvalid(problems + [a.missing for a in acks if a.missing is not None])
    return tuple(acks)


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision the gate asks for: a plan entry listing or a label added or removed (`root`, whose one
    acknowledgement covers the rest), or the changes of one kind (for values: under one label and plan entry,
    from one value to another). `changes` are the picked ones, held or acknowledged."""

    root: Change | None
    kind: ChangeKind
    changes: tuple[Change, ...]
    held: tuple[Change, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids whose acknowledgement settles it: the root's alone, else every held change's."""
        return (self.root.id,) if self.root is not None else tuple(c.id for c in self.held)


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    """What the gate found in one comparison: the selectors, the changes they pick that nobody acknowledged
    (`failing`), the reason of every acknowledged change by id, the changes an acknowledgement of another covers
    (`covered`: id -> the acknowledged id), and the acknowledgements that match none."""

    fail_on: tuple[Selector, ...] = ()
    failing: tuple[Change, ...] = ()
    acknowledged: dict[str, str] = field(default_factory=dict)
    covered: dict[str, str] = field(default_factory=dict)
    stale: tuple[Acknowledgement, ...] = ()
    source: str | None = None
    """The acknowledgements file as given, for the report."""
    decisions: tuple[Decision, ...] = ()
    """Every change a selector picks, acknowledged or not, grouped as a reviewer decides on them."""
    held: frozenset[str] = frozenset()
    """The ids of `failing`, to look one up."""
    settled_by: dict[str, str] = field(default_factory=dict)
    """For each held change whose decision has a root (a removal or addition), that root's id: acknowledging it
    settles the change."""
    unreasoned: tuple[Acknowledgement, ...] = ()
    """The acknowledgements of changes of this comparison whose reason is still empty: they acknowledge nothing."""

    @property
    def passed(self) -> bool:
        """True when no selected change is left unacknowledged."""
        return not self.failing

    def reason(self, c: Change) -> tuple[str, str] | None:
        """(reason, acknowledged id) when `c` is acknowledged, itself or by the acknowledgement that covers it."""
        by = c.id if c.id in self.acknowledged else self.covered.get(c.id)
        return None if by is None else (self.acknowledged[by], by)


class _Near:
    """The records of a comparison by the label on each side: what a record's acknowledgement can cover is under
    its own label, so only those are asked (a comparison may hold 100,000 records)."""

    def __init__(self, cmp: Comparison) -> None:
        self.by_label: dict[str | None, list[Change]] = {}
        for c in cmp.changes:
            self.by_label.setdefault(c.before.label, []).append(c)
            if c.after.label != c.before.label:
                self.by_label.setdefault(c.after.label, []).append(c)

    def covered_by(self, a: Change) -> list[Change]:
        """The records `a`'s acknowledgement covers (its rule's `covers`), in order."""
        covers = RULES_BY_ID[a.kind].covers
        if covers is None:
            return []
        near = {id(c): c for label in {a.before.label, a.after.label} for c in self.by_label.get(label, [])}
        return [c for c in near.values() if c is not a and covers(a, c)]


def _covered(cmp: Comparison, reasons: dict[str, str]) -> dict[str, str]:
    """The changes an acknowledged change covers (its rule's `covers`), by id, each with the acknowledged id; a
    change acknowledged itself keeps its own acknowledgement."""
    near = _Near(cmp)
    out: dict[str, str] = {}
    for a in cmp.changes:
        if a.id in reasons:
            for c in near.covered_by(a):
                if c.id not in reasons:
                    out.setdefault(c.id, a.id)
    return out


def review(cmp: Comparison, fail_on: tuple[Selector, ...], acknowledgements: tuple[Acknowledgement, ...],
           published: frozenset[str], source: str | None = None) -> Review:
    """Apply the gate to a comparison. `published`: the labels of the earlier catalogue that are not drafts.

    One decision, one acknowledgement: acknowledging a plan entry listing's or a label's removal or addition
    also acknowledges the records it implies (its values; a label's plan entry listings), which then pass as
    covered by it."""
    ids = {c.id for c in cmp.changes}
    reasons, unreasoned = _with_reasons(acknowledgements, ids)
    covered = _covered(cmp, reasons)
    picked = tuple(c for c in cmp.changes if any(s.picks(c, published) for s in fail_on))
    failing = tuple(c for c in picked if c.id not in reasons and c.id not in covered)
    stale = tuple(a for a in acknowledgements if a.id not in ids)
    held = frozenset(c.id for c in failing)
    found = _decisions(cmp, picked, held)
    return Review(fail_on=fail_on, failing=failing, acknowledged=reasons, covered=covered, stale=stale, source=source,
                  decisions=found, held=held, settled_by=_settled_by(found), unreasoned=unreasoned)


def _with_reasons(acks: tuple[Acknowledgement, ...], ids: set[str]) -> tuple[dict[str, str],
                                                                            tuple[Acknowledgement, ...]]:
    """The reason of each acknowledged change of the comparison by id, and the acknowledgements of its changes
    whose reason is still empty (they acknowledge nothing)."""
    mine = [a for a in acks if a.id in ids]
    return {a.id: a.reason for a in mine if a.has_reason}, tuple(a for a in mine if not a.has_reason)


def _settled_by(decisions: tuple[Decision, ...]) -> dict[str, str]:
    """Each held change of a decision with a root, to that root's id (whose acknowledgement settles it)."""
    return {c.id: d.root.id for d in decisions if d.root is not None for c in d.held if c.id != d.root.id}


# ---- decisions: the held changes, grouped as a reviewer decides on them -------------------------------------

def _roots(cmp: Comparison) -> dict[str, Change]:
    """For each change a removal or addition covers, that record; a label's before a plan entry listing's."""
    out: dict[str, Change] = {}
    near = _Near(cmp)
    coverers = [c for c in cmp.changes if RULES_BY_ID[c.kind].covers is not None]
    for a in sorted(coverers, key=lambda c: not c.kind.startswith("label-")):
        out.setdefault(a.id, a)
        for c in near.covered_by(a):
            out.setdefault(c.id, a)
    return out


def _decisions(cmp: Comparison, picked: tuple[Change, ...], held: frozenset[str]) -> tuple[Decision, ...]:
    """The picked changes grouped into decisions, in the order of their first change; those with a held change
    are what the gate asks a reviewer to decide."""
    roots = _roots(cmp)
    groups: dict[object, list[Change]] = {}
    root_of: dict[object, Change | None] = {}
    for c in picked:
        root = roots.get(c.id)
        key: object = root.id if root is not None else (
            (c.kind, c.label, c.plan, c.before.value, c.after.value) if RULES_BY_ID[c.kind].is_value else c.kind)
        groups.setdefault(key, []).append(c)
        root_of[key] = root
    return tuple(Decision(root=root_of[k], kind=(root_of[k] or cs[0]).kind, changes=tuple(cs),
                          held=tuple(c for c in cs if c.id in held)) for k, cs in groups.items())
