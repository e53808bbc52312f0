"""A YAML syntax error is reported on the line to fix, not where YAML noticed it. A key that lost its ':' is noticed
on the next line (or lines later, when the next lines are indented under it), and a quote left open at the next
quote or at the end of the file. Here every key and every closing quote of the fixture catalogues is taken out in
turn; tests/golden/yaml-* show the messages in full."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catalog_docs.catalog.load import checked_parse

TESTS = Path(__file__).resolve().parents[1]
FILES = sorted(p for base in ("golden-base", "fixture-catalog") for p in (TESTS / base).rglob("*.yaml"))
KEY = re.compile(r"^([ ]*(?:- )?)([A-Za-z_/][^:#{}\[\]\"'\n]*|\"[^\"\n]*\")(:)([ ]|$)", re.M)
"""A block mapping key at the start of its line (or of a list item), and its ':' (group 3)."""
CLOSING_QUOTE = re.compile(r'^[^#\n]*?"[^"\n]*(")', re.M)
"""The first double-quoted text of a line that is not a comment, and its closing quote (group 1)."""


def _first_problem_line(text: str, name: str) -> int | None:
    _, problems = checked_parse(text, name)
    return problems[0][0].line if problems else None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(TESTS)))
def test_a_key_without_its_colon_is_reported_on_its_line(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = list(KEY.finditer(text))
    assert found
    wrong = []
    for m in found:
        line = text.count("\n", 0, m.start()) + 1
        reported = _first_problem_line(text[: m.start(3)] + text[m.end(3):], path.name)
        # None: still YAML (`version_marker {at: none}` is a key and a value); the schema names that key's line.
        if reported not in (None, line):
            wrong.append(f"line {line} {m.group().strip()!r}: reported at line {reported}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(TESTS)))
def test_a_quote_left_open_is_reported_where_it_opens(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    wrong = []
    for m in CLOSING_QUOTE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        reported = _first_problem_line(text[: m.start(1)] + text[m.end(1):], path.name)
        if reported not in (None, line):
            wrong.append(f"line {line}: reported at line {reported}")
    assert not wrong, "\n".join(wrong)
