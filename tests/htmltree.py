"""A small HTML tree on top of the standard library's html.parser, enough to read built pages in tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose end tag may be left out; closing their parent closes them too.
_AUTO_CLOSE = {"p", "li", "td", "th", "tr", "thead", "tbody", "option"}


@dataclass(eq=False)
class Node:
    """An element (or the document when tag is '#document') with its attributes and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    def iter(self) -> Iterator[Node]:
        """This element and every element below it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Elements below (and including) this one with that tag, class and attribute values."""
        return [
            n for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.classes)
            and all(n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        """The text content with runs of white space collapsed to one space."""
        return re.sub(r"\s+", " ", "".join(self._texts())).strip()

    def _texts(self) -> Iterator[str]:
        for child in self.children:
            if isinstance(child, str):
                yield child
            elif child.tag not in ("script", "style"):
                yield from child._texts()

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _AUTO_CLOSE and tag in {n.tag for n in self.stack[-2:]}:
            # A new <li>/<td>/<p>... closes an open sibling of the same kind.
            while self.stack[-1].tag != tag:
                self.stack.pop()
            self.stack.pop()
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    """Parse an HTML document into a tree."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def parse_file(path: Path) -> Node:
    return parse(path.read_text(encoding="utf-8"))


def table_rows(table: Node) -> list[list[Node]]:
    """The rows of a table (header row first) as lists of cells, laid out as a browser lays out the table's grid:
    a cell that spans rows or columns stands in every slot it covers (a row left short stays short). Several
    header rows (in `<thead>`) read as one, each column named by the header cells above it, top first, joined by
    " · " as the phone cards name it (overrides/assets/catalog.js): `FAKE 1.0 · PLAN A`."""
    grid: list[list[Node | None]] = []
    for y, tr in enumerate(table.find_all("tr")):
        while len(grid) <= y:
            grid.append([])
        x = 0
        for cell in (c for c in tr.children if isinstance(c, Node) and c.tag in ("td", "th")):
            while x < len(grid[y]) and grid[y][x] is not None:
                x += 1
            down, across = int(cell.attrs.get("rowspan", "1")), int(cell.attrs.get("colspan", "1"))
            for dy in range(down):
                while len(grid) <= y + dy:
                    grid.append([])
                row = grid[y + dy]
                row.extend([None] * (x + across - len(row)))
                row[x:x + across] = [cell] * across
            x += across
    head = table.find("thead")
    depth = len(head.find_all("tr")) if head is not None else 0
    if depth > 1:
        grid = [[_column_name(column) for column in zip(*grid[:depth], strict=True)], *grid[depth:]]
    return grid  # type: ignore[return-value]  # a slot no cell covers (None) only where a row is ragged


def _column_name(cells: tuple[Node | None, ...]) -> Node:
    """One header cell naming a column by the distinct header cells above it."""
    above = [c for i, c in enumerate(cells) if c is not None and c not in cells[:i]]
    return Node("th", {"scope": "col"}, [" · ".join(c.text() for c in above)])


def content(doc: Node) -> Node:
    """The page's main article (the rendered Markdown), without the theme around it."""
    article = doc.find("article")
    assert article is not None, "page has no <article>"
    return article
