"""Where a problem is: a loaded catalogue file, a node in it, and the key path a message names it by
(`versions[UPI_N 1.1.0].plans[UPI_N 1.0.0][/getAccList]`). Shared by the schema check (`explain`), the rules
across files (`rules`) and the loader's runner (`validate`)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from catalog_docs.catalog.load import LoadedFile
from catalog_docs.catalog.nodes import KeyPath, Node
from catalog_docs.errors import Problem

FileKind = Literal["service", "listing", "not-shown", "version-label"]
PathPart = str | int
"""One step of a key path: a mapping key or a (0-based) list index."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CatalogFile:
    """A loaded catalogue file and what it is."""

    kind: FileKind
    loaded: LoadedFile

    @property
    def root(self) -> Node:
        assert self.loaded.root is not None
        return self.loaded.root

    @property
    def name(self) -> str:
        return self.loaded.name


def _prefix(f: CatalogFile) -> str:
    if f.kind == "version-label":
        tree = f.loaded.root or f.loaded.outline
        label = tree.value.get("label") if tree is not None and tree.kind == "map" else None
        shown = label.value if label is not None and isinstance(label.value, str) else Path(f.name).stem
        return f"versions[{shown}]"
    return f.kind


def _step(kind: FileKind, i: int, part: PathPart, parent: PathPart | None) -> str:
    """One step of a key path as messages write it."""
    if isinstance(part, int):
        return f"[{part + 1}]"
    if kind == "version-label" and ((i == 1 and parent == "plans") or (i == 3 and parent == "values")):
        return f"[{part}]"
    if kind == "version-label" and i == 2 and part == "values":
        return ""  # versions[L].plans[P][/path]: the values map is implied
    return f".{part}"


def key_path(f: CatalogFile, path: list[PathPart] | KeyPath) -> str:
    """The key path of the value at `path` in `f`, as messages name it."""
    parts = list(path)
    return _prefix(f) + "".join(_step(f.kind, i, part, parts[i - 1] if i else None) for i, part in enumerate(parts))


def child(node: Node, part: object) -> Node | None:
    """One step down a key path: a mapping's value or a list's item, or None when it is not there."""
    if node.kind == "map" and isinstance(part, str):
        found: Node | None = node.value.get(part)
        return found
    if node.kind == "seq" and isinstance(part, int) and part < len(node.value):
        item: Node = node.value[part]
        return item
    return None


def node_at(root: Node, path: list[PathPart]) -> Node:
    """The node at `path`, or the deepest node on the way there."""
    node = root
    for part in path:
        step = child(node, part)
        if step is None:
            break
        node = step
    return node


def close_to(word: object, options: list[str]) -> str:
    """'did you mean ...?' for a word close to one of `options`, else ''."""
    if not isinstance(word, str):
        return ""
    lowered = {o.lower(): o for o in options}
    if word.lower() in lowered:
        return f"did you mean {lowered[word.lower()]!r}? values are case-sensitive"
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f"did you mean {match[0]!r}?" if match else ""


def problem(f: CatalogFile, node: Node | tuple[int, int], path: list[PathPart], expected: str, found: str,
            hint: str = "") -> Problem:
    """A problem about the value at `path` of `f`, placed at `node` (or a (line, column) mark)."""
    line, column = (node.line, node.column) if isinstance(node, Node) else node
    return Problem(file=f.name, line=line, column=column, key_path=key_path(f, path),
                   expected=expected, found=found, hint=hint)
