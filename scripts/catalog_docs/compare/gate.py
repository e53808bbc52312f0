"""The review gate of `catalog-docs diff --fail-on ... --acknowledged FILE`: which change records stop a pull
request until someone has looked at them, and which a reviewer has acknowledged (with a reason).

- A selector is a change kind (`value-changed`), or a kind narrowed to the records of published labels
  (`value-changed:published`: the record's version label is listed, without `draft: true`, in the earlier
  catalogue; a label still a draft there, or new, is work in progress).
- The acknowledgements file is a YAML list of `{id: CHANGE-ID, reason: TEXT}`. It is checked as catalogue input
  is: every problem reported at file:line:column with its key path, what was expected and what was found.
- A change a selector picks fails the gate unless it is acknowledged; an acknowledgement that matches no
  change is stale and is reported by its id, so it gets cleaned up. Stale ones do not fail the gate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml

from catalog_docs.compare.changes import CHANGE_KINDS, Change, ChangeKind, Comparison
from catalog_docs.compare.ids import ID_PATTERN
from catalog_docs.errors import CatalogDocsError, CatalogInvalid, Problem

Scope = Literal["any", "published"]
SCOPES: tuple[Scope, ...] = ("any", "published")

_STR = "tag:yaml.org,2002:str"


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
        if kind not in CHANGE_KINDS:
            raise GateUsageError(f"--fail-on: unknown change kind {kind!r}; valid kinds: {', '.join(CHANGE_KINDS)} "
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


def _problem(name: str, node: yaml.Node | None, key: str, expected: str, found: str, hint: str = "") -> Problem:
    mark = node.start_mark if node is not None else None
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Problem(file=name, line=line, column=column, key_path=key, expected=expected, found=found, hint=hint)


def _found(node: yaml.Node) -> str:
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
    if not isinstance(value, yaml.ScalarNode) or value.tag != _STR or not value.value.strip():
        return _problem(name, value, f"{where}.{k}", "a change id" if k == "id" else "a reason (non-empty text)",
                        _found(value))
    if k == "id" and not re.fullmatch(ID_PATTERN, value.value):
        return _problem(name, value, f"{where}.id", "a change id as catalog-docs diff prints it (KIND--...--HASH)",
                        _found(value), "copy it from the diff output")
    seen[k] = value.value
    return None


def _item(name: str, i: int, node: yaml.Node) -> Problem | Acknowledgement | list[Problem]:
    """The acknowledgement of list item `i`, or what is wrong with it."""
    where = f"acknowledged[{i}]"
    if not isinstance(node, yaml.MappingNode):
        return _problem(name, node, where, "a mapping {id: CHANGE-ID, reason: TEXT}", _found(node))
    values: dict[str, str] = {}
    problems = [p for key, value in node.value if (p := _key_problem(name, where, key, value, values)) is not None]
    if problems:
        return problems
    missing = [k for k in ("id", "reason") if k not in values]
    if missing:
        return _problem(name, node, where, "the keys id and reason", f"no {' and no '.join(missing)}")
    return Acknowledgement(id=values["id"], reason=values["reason"], line=node.start_mark.line + 1)


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


def load_acknowledgements(path: Path) -> tuple[Acknowledgement, ...]:
    """Read and check an acknowledgements file; raise AcknowledgementsInvalid with every problem found."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogDocsError(f"--acknowledged: cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        found = f"byte {exc.object[exc.start]:#04x}"
        raise AcknowledgementsInvalid([Problem(file=name, line=1, column=1, key_path="(file)",
                                               expected="UTF-8 text", found=found)]) from None
    try:
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
    if problems:
        raise AcknowledgementsInvalid(problems)
    return tuple(acks)


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    """What the gate found in one comparison: the selectors, the changes they pick that nobody acknowledged
    (`failing`), the reason of every acknowledged change by id, and the acknowledgements that match none."""

    fail_on: tuple[Selector, ...] = ()
    failing: tuple[Change, ...] = ()
    acknowledged: dict[str, str] = field(default_factory=dict)
    stale: tuple[Acknowledgement, ...] = ()
    source: str | None = None
    """The acknowledgements file as given, for the report."""

    @property
    def passed(self) -> bool:
        """True when no selected change is left unacknowledged."""
        return not self.failing


def review(cmp: Comparison, fail_on: tuple[Selector, ...], acknowledgements: tuple[Acknowledgement, ...],
           published: frozenset[str], source: str | None = None) -> Review:
    """Apply the gate to a comparison. `published`: the labels of the earlier catalogue that are not drafts."""
    ids = {c.id for c in cmp.changes}
    reasons = {a.id: a.reason for a in acknowledgements if a.id in ids}
    failing = tuple(c for c in cmp.changes if c.id not in reasons and any(s.picks(c, published) for s in fail_on))
    stale = tuple(a for a in acknowledgements if a.id not in ids)
    return Review(fail_on=fail_on, failing=failing, acknowledged=reasons, stale=stale, source=source)
