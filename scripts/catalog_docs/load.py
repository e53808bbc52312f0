"""Stage 1: read catalogue files into trees of marked nodes.

Only the subset of YAML the catalogue needs is accepted: one document of plain mappings, sequences
and scalars. Anchors, aliases, merge keys and tags are refused, and every plain scalar is resolved the
way YAML 1.1 (and so PyYAML) would, so that `no`, `1.10` or `2024-01-01` where a string belongs is
reported instead of silently becoming a boolean, a float or a date.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from .errors import Problem

try:  # the C parser is much faster; the pure-Python one behaves the same
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 4 * 1024 * 1024
"""No catalogue file is larger than this; the synthetic 1,000-operation listing is about 300 KB."""

MAX_DEPTH = 5
"""The deepest nesting the format needs (version file: plans > plan > values > value)."""

_STR = "tag:yaml.org,2002:str"
_resolver = yaml.resolver.Resolver()
_constructor = yaml.constructor.SafeConstructor()
_TAG_NAMES = {
    "tag:yaml.org,2002:bool": "a YAML 1.1 boolean",
    "tag:yaml.org,2002:int": "a YAML 1.1 integer",
    "tag:yaml.org,2002:float": "a YAML 1.1 float",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "a YAML 1.1 date",
    "tag:yaml.org,2002:merge": "a merge key",
    "tag:yaml.org,2002:value": "a YAML value key",
}
# C0 and C1 controls except tab, newline and carriage return; invisible format characters (zero-width,
# bidirectional overrides, byte-order marks inside text) are refused too: catalogue text must read as it shows.
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")
_TAB_INDENT = re.compile(r"^[ ]*\t", re.M)


@dataclass(slots=True)
class Node:
    """A value from a YAML file with the place it was written."""

    kind: Literal["map", "seq", "scalar"]
    value: Any
    line: int
    column: int
    raw: str | None = None
    tag: str | None = None
    key_marks: dict[str, tuple[int, int]] = field(default_factory=dict)

    def plain(self) -> Any:
        """The node as plain Python data (dict, list, str, int, ...) for schema validation."""
        if self.kind == "map":
            return {k: v.plain() for k, v in self.value.items()}
        if self.kind == "seq":
            return [v.plain() for v in self.value]
        return self.value

    def describe(self) -> str:
        """How the node reads in an error message."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.tag == _STR:
            return f"the text {self.raw!r}" if len(self.raw or "") <= 60 else f"a text of {len(self.raw or '')} characters"
        return f"{_TAG_NAMES.get(self.tag or '', 'a value')} `{self.raw}`"


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedFile:
    """One file: its display name and its top-level node (None when it did not parse)."""

    name: str
    root: Node | None
    problems: tuple[Problem, ...] = ()
    """Problems that still left a usable tree (anchors, tags, duplicate keys) are checked further."""


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _problem(name: str, line: int, column: int, expected: str, found: str, hint: str = "", key: str = "(file)") -> Problem:
    return Problem(file=name, line=line, column=column, key_path=key, expected=expected, found=found, hint=hint)


def read_text(path: Path, name: str) -> tuple[str | None, list[Problem]]:
    """Read a file as UTF-8 text, refusing what the catalogue format never contains."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, [_problem(name, 1, 1, f"a file of at most {MAX_BYTES} bytes", f"{size} bytes",
                                   "split the data or check that the file is a catalogue file")]
        data = path.read_bytes()
    except OSError as exc:
        return None, [_problem(name, 1, 1, "a readable file", exc.strerror or str(exc))]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start]
        line = prefix.count(b"\n") + 1
        column = len(prefix) - (prefix.rfind(b"\n") + 1) + 1
        return None, [_problem(name, line, column, "UTF-8 text", f"the byte 0x{data[exc.start]:02x}",
                               "save the file as UTF-8")]
    problems = []
    for m in _BAD_CHAR.finditer(text):
        ch = m.group()
        line, column = _line_col(text, m.start())
        label = unicodedata.name(ch, "control character")
        problems.append(_problem(name, line, column, "visible text", f"U+{ord(ch):04X} {label}",
                                 "remove the control or invisible formatting character"))
    for m in _TAB_INDENT.finditer(text):
        line, column = _line_col(text, m.end() - 1)
        problems.append(_problem(name, line, column, "indentation with spaces", "a tab", "YAML forbids tabs in indentation"))
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        problems.append(_problem(name, 1, 1, "a YAML mapping", "an empty file"))
    return (None if problems else text), problems


class _Builder:
    """Turns the parser's event stream into marked nodes, collecting every problem on the way."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Problem] = []
        self.too_deep = False

    def fail(self, mark: Any, expected: str, found: str, hint: str = "", key: str = "(file)") -> None:
        self.problems.append(_problem(self.name, mark.line + 1, mark.column + 1, expected, found, hint, key))

    def check_event(self, ev: Any, key: str) -> None:
        if isinstance(ev, yaml.AliasEvent):
            self.fail(ev.start_mark, "plain data", f"the alias *{ev.anchor}", "write the value out; aliases are not allowed", key)
            return
        if getattr(ev, "anchor", None):
            self.fail(ev.start_mark, "plain data", f"the anchor &{ev.anchor}", "write the value out; anchors are not allowed", key)
        tag = getattr(ev, "tag", None)
        if tag:
            self.fail(ev.start_mark, "plain data", f"the tag {tag}", "remove the tag; tags are not allowed", key)

    def build(self, events: Any, depth: int, key: str) -> Node | None:
        ev = next(events)
        self.check_event(ev, key)
        mark = ev.start_mark
        if depth > MAX_DEPTH and not self.too_deep and not isinstance(ev, yaml.ScalarEvent):
            self.too_deep = True
            self.fail(mark, f"at most {MAX_DEPTH} levels of nesting", "deeper nesting", "the catalogue format is flat", key)
        if isinstance(ev, yaml.AliasEvent):
            return None
        if isinstance(ev, yaml.ScalarEvent):
            return self.scalar(ev)
        if isinstance(ev, yaml.SequenceStartEvent):
            items = []
            while not isinstance(events.peek(), yaml.SequenceEndEvent):
                child = self.build(events, depth + 1, f"{key}[{len(items) + 1}]")
                if child is not None:
                    items.append(child)
            next(events)
            return Node("seq", items, mark.line + 1, mark.column + 1)
        if isinstance(ev, yaml.MappingStartEvent):
            node = Node("map", {}, mark.line + 1, mark.column + 1)
            while not isinstance(events.peek(), yaml.MappingEndEvent):
                key_ev = events.peek()
                k = self.build(events, depth + 1, key)
                child_key = f"{key}.{k.raw}" if k is not None and k.kind == "scalar" else key
                value = self.build(events, depth + 1, child_key.lstrip("."))
                if k is None:
                    continue
                kmark = (k.line, k.column)
                if k.kind != "scalar" or k.tag != _STR:
                    hint = "merge keys are not allowed" if k.tag == "tag:yaml.org,2002:merge" else "quote the key"
                    self.fail(key_ev.start_mark, "a text key", k.describe(), hint, key or "(top level)")
                    continue
                if k.value in node.value:
                    first = node.key_marks[k.value]
                    self.fail(key_ev.start_mark, "each key once", f"the key {k.value!r} again",
                              f"first written at line {first[0]}", child_key.lstrip("."))
                    continue
                if value is not None:
                    node.value[k.value] = value
                    node.key_marks[k.value] = kmark
            next(events)
            return node
        self.fail(mark, "a value", type(ev).__name__)  # pragma: no cover - the parser emits no other event here
        return None

    def scalar(self, ev: Any) -> Node:
        raw = ev.value
        line, column = ev.start_mark.line + 1, ev.start_mark.column + 1
        if not ev.implicit[0]:  # quoted, block or tagged scalars are always text
            return Node("scalar", raw, line, column, raw, _STR)
        tag = _resolver.resolve(yaml.ScalarNode, raw, (True, False))
        if tag == _STR:
            return Node("scalar", raw, line, column, raw, _STR)
        if tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
            return Node("scalar", raw, line, column, raw, tag)
        value = _constructor.construct_object(yaml.ScalarNode(tag, raw))
        if tag == "tag:yaml.org,2002:timestamp":
            value = _Timestamp(raw)
        elif tag == "tag:yaml.org,2002:float" and value != value:  # NaN equals nothing; keep it reportable
            value = _Timestamp(raw)
        elif tag == "tag:yaml.org,2002:int" and not re.fullmatch(r"[-+]?(0|[1-9][0-9_]*)", raw):
            value = _Timestamp(raw)  # octal, hex, binary or sexagesimal: never what an author means
        return Node("scalar", value, line, column, raw, tag)


class _Timestamp(str):
    """A YAML 1.1 value that JSON has no type for (dates, octal or sexagesimal numbers); matches no schema type."""

    __slots__ = ()


class _Peekable:
    def __init__(self, it: Any) -> None:
        self._it = iter(it)
        self._head: Any = None
        self._has = False

    def __iter__(self) -> "_Peekable":
        return self

    def __next__(self) -> Any:
        if self._has:
            self._has = False
            return self._head
        return next(self._it)

    def peek(self) -> Any:
        if not self._has:
            self._head = next(self._it)
            self._has = True
        return self._head


def parse(text: str, name: str) -> tuple[Node | None, list[Problem]]:
    """Parse one YAML document into marked nodes."""
    builder = _Builder(name)
    events = _Peekable(yaml.parse(text, Loader=_Loader))
    root: Node | None = None
    try:
        next(events)  # StreamStart
        documents = 0
        while not isinstance(events.peek(), yaml.StreamEndEvent):
            start = next(events)  # DocumentStart
            documents += 1
            if documents == 2:
                builder.fail(start.start_mark, "one YAML document per file", "a second document",
                             "remove the '---' line or split the file")
            node = builder.build(events, 1, "")
            next(events)  # DocumentEnd
            if documents == 1:
                root = node
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        found = (exc.problem or "text that is not YAML").strip()
        builder.problems.append(_problem(name, line, column, "valid YAML", found, (exc.context or "").strip()))
        return None, builder.problems
    except yaml.YAMLError as exc:
        builder.problems.append(_problem(name, 1, 1, "valid YAML", str(exc).splitlines()[0]))
        return None, builder.problems
    if root is not None and root.kind != "map":
        builder.fail(_Mark(root.line - 1, root.column - 1), "a mapping at the top level", root.describe())
        root = None
    if any(p.expected.startswith("one YAML document") for p in builder.problems):
        root = None
    return root, builder.problems


@dataclass(frozen=True, slots=True)
class _Mark:
    line: int
    column: int


def load_file(path: Path, name: str) -> LoadedFile | list[Problem]:
    """Read and parse one file: the loaded tree (with any problems that left it usable) or every problem."""
    text, problems = read_text(path, name)
    if text is None:
        return problems
    root, problems = parse(text, name)
    return LoadedFile(name=name, root=root, problems=tuple(problems))
