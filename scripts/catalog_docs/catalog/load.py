"""Stage 1: read catalogue files into trees of marked nodes.

Only the subset of YAML the catalogue needs is accepted: one document of plain mappings, sequences
and scalars. Anchors, aliases, merge keys and tags are refused, and every plain scalar is resolved the
way YAML 1.1 (and so PyYAML) would, so that `no`, `1.10` or `2024-01-01` where a string belongs is
reported instead of silently becoming a boolean, a float or a date.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from catalog_docs.catalog.fastparse import quick_parse
from catalog_docs.catalog.nodes import (
    BAD_CHAR,
    BAD_KEY_CHAR,
    BAD_QUOTED_CHAR,
    CONSTRUCTOR,
    MAX_DEPTH,
    MAX_DIGITS,
    STR_TAG,
    KeyPath,
    Node,
    Yaml11Value,
    resolve_plain,
)
from catalog_docs.catalog.read import _decoded, _read_regular, char_name, oversize_problem, read_text
from catalog_docs.catalog.read import file_problem as _problem
from catalog_docs.catalog.syntax import syntax_problem
from catalog_docs.errors import Problem

try:  # the C parser is much faster; the pure-Python one behaves the same
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]  # the same interface, another class

SKIP_DEPTH = 64
"""Past MAX_DEPTH the loader skips a value's contents; nesting deeper than this stops the file's parse.
The C scanner's work per token grows with the flow nesting depth, so 100,000 `[` would take minutes."""

PROBLEMS_PER_FILE = 200
"""Parse problems (duplicate keys, anchors, tags...) listed per file; beyond, one more line counts them."""
LOCATE_WHOLE = 64 * 1024
"""A refused text up to this many characters is parsed whole to name its problems' values."""

@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedFile:
    """One file: its display name and its top-level node (None when it did not parse)."""

    name: str
    root: Node | None
    problems: tuple[tuple[Problem, KeyPath | None], ...] = ()
    """Problems that still left a usable tree (anchors, tags, duplicate keys) are checked further. Each comes
    with the key path of the value it is about (None for the file as a whole), so that the next stage can name
    it the way it names every other value."""
    outline: Node | None = None
    """For a file refused before parsing: its tree as far as a lenient parse saw it, only to name values."""


def _cleaned(text: str, tab_width: int) -> tuple[str, list[int]]:
    """The text without refused characters and with indentation tabs as spaces, and for each of its characters
    the offset it came from."""
    out: list[str] = []
    origin: list[int] = []
    for m in re.finditer(r"[^\n]*\n?", text):
        line, start = m.group(), m.start()
        if not line:
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        for i, ch in enumerate(line[:indent]):
            width = tab_width if ch == "\t" else 1
            out.append(" " * width)
            origin.extend([start + i] * width)
        rest = line[indent:]
        kept = 0
        for bad in BAD_CHAR.finditer(rest):
            out.append(rest[kept:bad.start()])
            origin.extend(range(start + indent + kept, start + indent + bad.start()))
            kept = bad.end()
        out.append(rest[kept:])
        origin.extend(range(start + indent + kept, start + len(line)))
    return "".join(out), origin


def _locate(text: str, offsets: list[int]) -> tuple[Node | None, list[KeyPath | None]]:
    """Parse a refused text leniently (refused characters dropped, tabs as spaces) to name the value each offset
    sits in: the tree (only to name things; it is never checked) and one key path per offset (None if unknown).
    A large text is parsed only up to the line of the last offset: naming needs nothing after it."""
    last = max((o for o in offsets if o >= 0), default=-1)
    if len(text) > LOCATE_WHOLE and last >= 0:
        end = text.find("\n", last)
        text = text if end == -1 else text[: end + 1]
    for width in (2, 4, 1, 8) if "\t" in text else (1,):  # tab widths to try, the likeliest first
        parsed = _lenient_parse(text, width)
        if parsed is not None:
            root, builder, origin, lines = parsed
            return root, [_path_at(builder, origin, lines, offset) for offset in offsets]
    return None, [None] * len(offsets)


def _lenient_parse(text: str, tab_width: int) -> tuple[Node, _Builder, list[int], list[int]] | None:
    """The tree of the cleaned text, the builder that saw its scalars, each cleaned character's offset in `text`,
    and the cleaned text's line starts; None when even the cleaned text does not parse."""
    cleaned, origin = _cleaned(text, tab_width)
    builder = _Builder("")
    try:
        root, _ = _parse_with(builder, cleaned)
    except (yaml.YAMLError, StopIteration, RecursionError, _TooDeep):
        return None
    if root is None:
        return None
    return root, builder, origin, [0, *(m.end() for m in re.finditer("\n", cleaned))]


def _path_at(builder: _Builder, origin: list[int], lines: list[int], offset: int) -> KeyPath | None:
    """The key path of the value at `offset` of the original text: the smallest scalar around it, else the first
    scalar after it on its line (or the line's last), else None."""
    at = bisect.bisect_left(origin, offset)
    line = bisect.bisect_right(lines, at) - 1
    inside = [s for s in builder.spans if s[0] <= at <= s[1]]
    if inside:
        return min(inside, key=lambda s: s[1] - s[0])[3]
    same_line = [s for s in builder.spans if s[2] == line]
    if same_line:
        return next((s for s in same_line if s[0] >= at), same_line[-1])[3]
    return None


def _shown_tag(tag: str) -> str:
    """A tag the way it is usually written: `!!binary`, not `tag:yaml.org,2002:binary`."""
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


class _TooDeep(Exception):
    """Nesting past SKIP_DEPTH: the parse of the file stops here."""

    def __init__(self, mark: Any) -> None:
        super().__init__("nesting too deep")
        self.mark = mark


class _Builder:
    """Turns the parser's event stream into marked nodes, collecting every problem on the way."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[tuple[Problem, KeyPath | None]] = []
        self.unlisted = 0
        self.first_unlisted: tuple[Any, KeyPath | None] = (None, None)
        self.spans: list[tuple[int, int, int, KeyPath]] = []
        """Every scalar: start and end offsets, 0-based line, and the key path it names or holds."""

    def fail(self, mark: Any, path: KeyPath | None, expected: str, found: str, hint: str = "") -> None:
        if len(self.problems) == PROBLEMS_PER_FILE:  # the rest only counted (see `parse`)
            self.first_unlisted = (mark, path)
        if len(self.problems) >= PROBLEMS_PER_FILE:
            self.unlisted += 1
            return
        self.problems.append((_problem(self.name, mark.line + 1, mark.column + 1, expected, found, hint), path))

    def listed_problems(self) -> list[tuple[Problem, KeyPath | None]]:
        """The problems, and one more line counting those past PROBLEMS_PER_FILE."""
        if not self.unlisted:
            return self.problems
        mark, path = self.first_unlisted
        return [*self.problems, (_problem(self.name, mark.line + 1, mark.column + 1, "fewer problems in one file",
                                          f"{self.unlisted} more problems, the first here", "fix the ones above first"),
                                 path)]

    def check_event(self, ev: Any, path: KeyPath) -> bool:
        """Report anchors, aliases and tags; True when the node is refused outright."""
        if isinstance(ev, yaml.AliasEvent):
            self.fail(ev.start_mark, path, "plain data", f"the alias *{ev.anchor}",
                      "write the value out; aliases are not allowed")
            return True
        refused = False
        if getattr(ev, "anchor", None):
            self.fail(ev.start_mark, path, "plain data", f"the anchor &{ev.anchor}",
                      "write the value out; anchors are not allowed")
        tag = getattr(ev, "tag", None)
        if tag:
            self.fail(ev.start_mark, path, "plain data", f"the tag {_shown_tag(tag)}",
                      "remove the tag; tags are not allowed")
            refused = True
        return refused

    @staticmethod
    def skip(events: Any, depth: int) -> None:
        """Consume the rest of a collection without building it (and without recursion); stop the parse
        when the nesting goes past SKIP_DEPTH, before the scanner's cost per token grows with it."""
        level = 1
        while level:
            ev = events.get_event()
            if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                level += 1
                if depth + level > SKIP_DEPTH:
                    raise _TooDeep(ev.start_mark)
            elif isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                level -= 1

    def build(self, events: Any, depth: int, path: KeyPath, *, key: bool = False) -> Node:
        """The node of the next value in `events`, at nesting `depth` and key path `path` (`key`: a mapping key)."""
        ev = events.get_event()
        refused = self.check_event(ev, path)
        mark = ev.start_mark
        if isinstance(ev, yaml.AliasEvent):
            return Node("scalar", Yaml11Value(f"*{ev.anchor}"), mark.line + 1, mark.column + 1, f"*{ev.anchor}", None,
                        refused=True)
        if isinstance(ev, yaml.ScalarEvent):
            return self.scalar_node(ev, path, refused=refused, key=key)
        if not isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):  # pragma: no cover
            raise yaml.YAMLError(f"unexpected {type(ev).__name__}")
        kind: Literal["map", "seq"] = "map" if isinstance(ev, yaml.MappingStartEvent) else "seq"
        end = yaml.MappingEndEvent if kind == "map" else yaml.SequenceEndEvent
        node = Node(kind, {} if kind == "map" else [], mark.line + 1, mark.column + 1, refused=refused)
        if depth >= MAX_DEPTH and not isinstance(events.peek_event(), end):
            # Its contents would sit deeper than any catalogue value; stop here rather than recurse on.
            self.fail(mark, path, f"a single value (the catalogue nests at most {MAX_DEPTH} levels deep)",
                      f"{'a mapping' if kind == 'map' else 'a list'} with values inside",
                      "write the value itself; the catalogue format is flat")
            self.skip(events, depth)
            node.refused = True
            return node
        return self.sequence(events, depth, path, node) if kind == "seq" else self.mapping(events, depth, path, node)

    def scalar_node(self, ev: Any, path: KeyPath, *, refused: bool, key: bool) -> Node:
        self.spans.append((ev.start_mark.index, ev.end_mark.index, ev.start_mark.line, path))
        node = self.scalar(ev, path)
        node.refused = node.refused or refused
        if isinstance(node.value, str) and (key or ev.style == '"'):
            self.check_text(ev, node, path, key)
        return node

    def sequence(self, events: Any, depth: int, path: KeyPath, node: Node) -> Node:
        """`node` with the items of the list whose start was just read."""
        items: list[Node] = node.value
        while not isinstance(events.peek_event(), yaml.SequenceEndEvent):
            items.append(self.build(events, depth + 1, (*path, len(items))))
        events.get_event()
        return node

    def mapping(self, events: Any, depth: int, path: KeyPath, node: Node) -> Node:
        """`node` with the keys and values of the mapping whose start was just read; a key that is not text, or
        is there twice, is reported and its value left out."""
        while not isinstance(events.peek_event(), yaml.MappingEndEvent):
            key_ev = events.peek_event()
            k = self.build(events, depth + 1, path, key=True)
            is_text = k.kind == "scalar" and k.tag == STR_TAG and not k.refused
            if is_text and isinstance(key_ev, yaml.ScalarEvent):
                self.spans[-1] = (*self.spans[-1][:3], (*path, k.value))  # a key names its own value
            value = self.build(events, depth + 1, (*path, k.value) if is_text else path)
            if self.key_taken(node, path, key_ev, k, is_text=is_text):
                node.value[k.value] = value
                node.key_marks[k.value] = (k.line, k.column)
        events.get_event()
        return node

    def key_taken(self, node: Node, path: KeyPath, key_ev: Any, k: Node, *, is_text: bool) -> bool:
        """Whether key `k` of mapping `node` takes its value; else why not is reported (or was already)."""
        if k.refused:
            node.refused = True  # already reported; the mapping lacks a key we cannot name
            return False
        if not is_text:
            merge = k.tag == "tag:yaml.org,2002:merge"
            self.fail(key_ev.start_mark, path, "a text key", k.describe(),
                      "merge keys are not allowed; write the keys out" if merge
                      else "quote the key" if k.kind == "scalar" and k.raw else "write the key's name")
            node.refused = True
            return False
        if k.value in node.value:
            first = node.key_marks[k.value]
            self.fail(key_ev.start_mark, (*path, k.value), "each key once", f"the key {k.value!r} again",
                      f"first written at line {first[0]}; keep one")
            return False
        return True

    def check_text(self, ev: Any, node: Node, path: KeyPath, key: bool) -> None:
        """Refuse characters in a parsed text: a double-quoted string can write any of them as an escape
        (`\\u202E`, `\\0`, `\\e`), which the check of the raw file does not see; a key may not hold any
        white space but the plain space either."""
        refused = BAD_KEY_CHAR if key else BAD_QUOTED_CHAR
        bad = refused.search(node.value)
        if bad is None:
            return
        count = len(refused.findall(node.value))
        more = f" and {count - 1} more" if count > 1 else ""
        how = " written as an escape" if ev.style == '"' else ""
        where = (*path, node.value) if key else path
        self.fail(ev.start_mark, where, "a key of visible characters" if key else "visible text",
                  f"{char_name(bad.group())}{how}{more}",
                  "remove the control, invisible or blank-looking character" + (" from the key" if key else ""))
        node.refused = True

    def scalar(self, ev: Any, path: KeyPath = ()) -> Node:
        raw = ev.value
        line, column = ev.start_mark.line + 1, ev.start_mark.column + 1
        if not ev.implicit[0]:  # quoted, block or tagged scalars are always text
            return Node("scalar", raw, line, column, raw, STR_TAG)
        tag = resolve_plain(raw)
        if tag == STR_TAG:
            return Node("scalar", raw, line, column, raw, STR_TAG)
        if tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
            return Node("scalar", Yaml11Value(raw), line, column, raw, tag)
        if tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:float"):
            return Node("scalar", Yaml11Value(raw), line, column, raw, tag)  # no catalogue field is a date or float
        if tag == "tag:yaml.org,2002:int" and not re.fullmatch(r"[-+]?(0|[1-9][0-9]*)", raw):
            return Node("scalar", Yaml11Value(raw), line, column, raw, tag)  # octal, hex, base 60, 1_000: never meant
        if tag == "tag:yaml.org,2002:int" and len(raw.lstrip("+-")) > MAX_DIGITS:
            self.fail(ev.start_mark, path, f"a whole number of at most {MAX_DIGITS} digits",
                      f"a number of {len(raw.lstrip('+-'))} digits")
            return Node("scalar", Yaml11Value(raw), line, column, raw, tag, refused=True)
        value = CONSTRUCTOR.construct_object(yaml.ScalarNode(tag, raw))
        return Node("scalar", value, line, column, raw, tag)


def _parse_with(builder: _Builder, text: str) -> tuple[Node | None, int]:
    """Build the first document's tree; the number of documents. Raises the parser's errors."""
    # The parser itself is the event stream: its get_event and peek_event are C calls with the C parser,
    # much cheaper than iterating `yaml.parse` (a Python generator) through a peekable wrapper.
    events = _Loader(text)
    try:
        return _build_document(builder, events)
    finally:
        events.dispose()


def _build_document(builder: _Builder, events: Any) -> tuple[Node | None, int]:
    root: Node | None = None
    documents = 0
    events.get_event()  # StreamStart
    while not isinstance(events.peek_event(), yaml.StreamEndEvent):
        start = events.get_event()  # DocumentStart
        documents += 1
        if documents == 2:
            builder.fail(start.start_mark, None, "one YAML document per file", "a second document",
                         "remove the '---' line or split the file")
        node = builder.build(events, 1, ())
        events.get_event()  # DocumentEnd
        if documents == 1:
            root = node
    return root, documents


def parse(text: str, name: str) -> tuple[Node | None, list[tuple[Problem, KeyPath | None]]]:
    """Parse one YAML document into marked nodes."""
    root = quick_parse(text, _Loader)
    if root is not None:  # nothing in it to report: the tree the checks below would build
        return root, []
    return checked_parse(text, name)


def checked_parse(text: str, name: str) -> tuple[Node | None, list[tuple[Problem, KeyPath | None]]]:
    """`parse` with every check: each event looked at, each scalar's place kept to name it in a message."""
    builder = _Builder(name)
    try:
        root, documents = _parse_with(builder, text)
    except yaml.MarkedYAMLError as exc:
        builder.problems.append(syntax_problem(builder.spans, text, name, exc))
        return None, builder.listed_problems()
    except yaml.YAMLError as exc:
        builder.problems.append((_problem(name, 1, 1, "valid YAML", str(exc).splitlines()[0]), None))
        return None, builder.listed_problems()
    except _TooDeep as exc:
        where = next((s[3] for s in reversed(builder.spans)), None)
        builder.problems.append((_problem(name, exc.mark.line + 1, exc.mark.column + 1,
                                          f"nesting at most {MAX_DEPTH} levels deep",
                                          f"nesting deeper than {SKIP_DEPTH} levels",
                                          "the catalogue format is flat; the rest of the file was not read"), where))
        return None, builder.listed_problems()
    if documents > 1:
        return None, builder.listed_problems()
    if root is not None and root.kind != "map":
        builder.problems.append((_problem(name, root.line, root.column, "a mapping at the top level",
                                          root.describe()), None))
        root = None
    return root, builder.listed_problems()


class ParseCache:
    """The located parse of every file an earlier load in this process read, so that a file whose bytes are
    unchanged is not parsed again (the `mkdocs serve` preview reloads the whole catalogue after each edit of one
    file). Keyed by where the file was read (its resolved path and the name messages give it) and a digest of
    its bytes, so a hit is exactly what a parse of the same bytes would return. The LoadedFile and its nodes
    are shared, never changed: no later stage writes to a node."""

    MAX_FILES = 512
    """Files remembered; past this the cache starts afresh (a catalogue has a few dozen)."""

    def __init__(self) -> None:
        self._files: dict[tuple[str, str], tuple[bytes, LoadedFile]] = {}
        self.hits = 0
        self.misses = 0

    def load(self, path: Path, name: str) -> LoadedFile:
        """load_file, reusing the last result for the same place when the bytes are the same."""
        data, refused = _read_regular(path, name)
        if data is None:  # refused from its metadata or unreadable: nothing to parse, nothing cached
            return _loaded(name, None, [(refused, None)] if refused else [], None)
        try:
            where = (os.path.realpath(path), name)
        except (OSError, ValueError):  # pragma: no cover - realpath only fails on odd paths
            return _load_bytes(data, name)
        digest = hashlib.blake2b(data, digest_size=32).digest()
        known = self._files.get(where)
        if known is not None and known[0] == digest:
            self.hits += 1
            return known[1]
        self.misses += 1
        loaded = _load_bytes(data, name)
        if len(self._files) >= self.MAX_FILES and where not in self._files:
            self._files.clear()
        self._files[where] = (digest, loaded)
        return loaded

    def clear(self) -> None:
        self._files.clear()


def _load_bytes(data: bytes, name: str) -> LoadedFile:
    return _loaded(name, *_decoded(data, name))


def _loaded(name: str, text: str | None, problems: list[tuple[Problem, int | None]],
            readable: str | None) -> LoadedFile:
    if text is None:
        offsets = [o if o is not None else -1 for _, o in problems]
        outline, paths = _locate(readable, offsets) if readable else (None, [])
        located = tuple((p, paths[i] if o is not None and paths else None) for i, (p, o) in enumerate(problems))
        return LoadedFile(name=name, root=None, problems=located, outline=outline)
    root, found = parse(text, name)
    return LoadedFile(name=name, root=root, problems=tuple(found))


def load_data(data: bytes | int, name: str) -> LoadedFile:
    """load_file for a file held in memory (a blob of a git revision): its bytes, or its size when it is over
    the limit and was never read (refused with the error a file of that size on disk gets)."""
    if isinstance(data, int):
        return _loaded(name, None, [(oversize_problem(name, data), None)], None)
    return _load_bytes(data, name)


def load_file(path: Path, name: str, cache: ParseCache | None = None) -> LoadedFile:
    """Read and parse one file: the loaded tree (None when unusable) with every problem found. With `cache`,
    a file whose bytes are the same as at its last load through that cache is not parsed again."""
    if cache is not None:
        return cache.load(path, name)
    return _loaded(name, *read_text(path, name))
