"""A YAML syntax error placed where the reader changes something. YAML notices a missing ':' or an unclosed quote
only where the text stops making sense, often lines later; each placer here knows one such error and puts it on
the line to fix (where the key or the quoted text began). An error no placer knows stays where YAML noticed it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from catalog_docs.catalog.nodes import KeyPath
from catalog_docs.catalog.read import file_problem as _problem
from catalog_docs.errors import Problem

try:  # the C scanner, as the loader's
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]  # the same interface, another class


Located = tuple[Problem, KeyPath | None]
"""A problem, with the key path of the value it is about (None: the file as a whole)."""
Spans = list[tuple[int, int, int, KeyPath]]
"""Every scalar the parse built before the error: start and end offsets, 0-based line, key path."""
SyntaxPlacer = Callable[[Spans, str, str, yaml.MarkedYAMLError], "Located | None"]


def _key_without_colon(spans: Spans, text: str, name: str, exc: yaml.MarkedYAMLError) -> Located | None:
    """The scanner notices a key without its ':' at the next line (its problem mark); the key itself is where it
    started (the context mark), on the line to fix."""
    if exc.context != "while scanning a simple key" or exc.context_mark is None:
        return None
    return _no_colon(name, text, exc.context_mark.line, exc.context_mark.column), None


def _quote_never_closed(spans: Spans, text: str, name: str, exc: yaml.MarkedYAMLError) -> Located | None:
    """A quote that nothing closes: the scanner gives up at the end of the file; the quote opened at its context."""
    start = exc.context_mark
    if "quoted scalar" not in (exc.context or "") or "end of stream" not in (exc.problem or "") or start is None:
        return None
    where = next((s[3] for s in reversed(spans) if s[2] == start.line), None)
    return _problem(name, start.line + 1, start.column + 1, "valid YAML", "a quoted text that is never closed",
                    "close the quote on this line"), where


def _text_ran_on(spans: Spans, text: str, name: str, exc: yaml.MarkedYAMLError) -> Located | None:
    """A text that went on past its line: a quote closed only by the next one, or a key without ':' whose next
    lines, indented under it, YAML read as more of it."""
    mark = exc.problem_mark or exc.context_mark
    began = _ran_on(text, mark) if mark is not None else None
    if mark is None or began is None:
        return None
    quoted, line, column = began
    if not quoted:  # `key` on one line, `other: value` under it: one plain text `key other`, then a ':'
        return _no_colon(name, text, line, column), None
    where = next((s[3] for s in spans if s[2] == line), None)  # the quoted value's own key path
    return _problem(name, line + 1, column + 1, "valid YAML", f"a quoted text that runs on to line {mark.line + 1}",
                    "close the quote on this line"), where


SYNTAX_PLACERS: tuple[SyntaxPlacer, ...] = (_key_without_colon, _quote_never_closed, _text_ran_on)
"""Syntax errors YAML reports away from the line to fix, each placed where the reader changes something; the
first that knows the error places it, else it is reported where YAML noticed it."""


def syntax_problem(spans: Spans, text: str, name: str, exc: yaml.MarkedYAMLError) -> Located:
    """A YAML syntax error, placed where the reader has to change something."""
    for placer in SYNTAX_PLACERS:
        placed = placer(spans, text, name, exc)
        if placed is not None:
            return placed
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    found = re.sub(r"^found ", "", (exc.problem or "text that is not YAML").strip())
    # Name the value on the line of the error, if the parser got that far.
    where = next((s[3] for s in reversed(spans) if s[2] == line - 1), None)
    return _problem(name, line, column, "valid YAML", found, (exc.context or "").strip()), where


def _no_colon(name: str, text: str, line: int, column: int) -> Problem:
    """A key without its ':', at its 0-based line and column."""
    lines = text.splitlines()
    written = lines[line][column:].strip() if line < len(lines) else ""
    shown = repr(written if len(written) <= 60 else written[:57] + "...") if written else "the key"
    return _problem(name, line + 1, column + 1, "valid YAML", f"no ':' after {shown}",
                    "write a key, then ':' and its value")


def _ran_on(text: str, mark: Any) -> tuple[bool, int, int] | None:
    """When the error comes right after a text that began on an earlier line, (quoted, its 0-based line and
    column): a quote left open, or a key without ':' that YAML read on into the next line. A plain text counts
    only where a key starts (first on its line, or first in a list item): a value may run on to the next line."""
    last = None
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if token.start_mark.index >= mark.index:
                break
            if isinstance(token, yaml.ScalarToken):
                last = token
    except yaml.YAMLError:
        pass  # the scanner's own error: the tokens before it are all there is
    if last is None or not last.start_mark.line < mark.line == last.end_mark.line:
        return None
    if text[last.end_mark.index:mark.index].strip(" \t"):
        return None
    start = last.start_mark
    quoted = last.style in ("'", '"')
    line_start = text.rfind("\n", 0, start.index) + 1
    if not quoted and text[line_start:start.index].strip(" ") not in ("", "-"):
        return None
    return quoted, start.line, start.column


