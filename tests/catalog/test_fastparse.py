"""The quick parse builds exactly the tree the checking parse builds, or gives up: it never builds another tree,
and it never takes a file the checking parse has something to say about.

Checked on every YAML file under tests/ (the fixture catalogues and the golden error cases), on random damage
done to the fixture catalogue's files, and on random documents written in YAML's block and flow styles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs.catalog.fastparse import quick_parse
from catalog_docs.catalog.load import checked_parse, parse
from catalog_docs.catalog.nodes import BAD_CHAR, Node, Yaml11Value
from catalog_docs.catalog.read import _MAYBE_BAD, _bad_chars, _decoded

TESTS = Path(__file__).resolve().parents[1]
FIXTURE = TESTS / "fixture-catalog"
YAML_FILES = sorted(p for p in TESTS.rglob("*.yaml") if "snapshots" not in p.parts)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _odd_values(node: Node | None) -> bool:
    """Whether the tree holds a value only the checking parse builds (dates, floats, octal...)."""
    if node is None:
        return False
    if node.kind == "map":
        return any(_odd_values(v) for v in node.value.values())
    if node.kind == "seq":
        return any(_odd_values(v) for v in node.value)
    return isinstance(node.value, Yaml11Value)


def _shape(node: Any) -> Any:
    """A node as plain data to compare: a Yaml11Value equals nothing, not even itself, so it compares by its text."""
    if isinstance(node, tuple):
        return tuple(_shape(n) for n in node)
    if isinstance(node, list):
        return [_shape(n) for n in node]
    if not isinstance(node, Node):
        return node
    value = node.value
    if node.kind == "map":
        value = {k: _shape(v) for k, v in value.items()}
    elif node.kind == "seq":
        value = [_shape(v) for v in value]
    elif isinstance(value, Yaml11Value):
        value = ("Yaml11Value", value.raw)
    return (node.kind, value, node.line, node.column, node.raw, node.tag, node.key_marks, node.refused)


def _agree(text: str) -> Node | None:
    """Assert the contract on one text; the quick parse's tree."""
    quick = quick_parse(text, LOADER)
    root, problems = checked_parse(text, "f.yaml")
    if quick is not None:
        assert problems == [], "the quick parse took a file the checking parse reports"
        assert quick == root, "the quick parse built another tree"
    elif not problems and root is not None:
        # Giving up is only for what the checking parse reports or builds specially.
        assert _odd_values(root), "the quick parse gave up on a plain, well-formed file"
    full = parse(text, "f.yaml")
    assert _shape(full) == _shape((root, problems)), "parse answers otherwise than the checking parse"
    return quick


def test_every_yaml_file_in_the_tests_parses_alike() -> None:
    assert len(YAML_FILES) > 100
    taken = 0
    for path in YAML_FILES:
        text = _decoded(path.read_bytes(), path.name)[0]
        if text is None:
            continue  # refused before parsing: neither parse sees it
        taken += _agree(text) is not None
    assert taken >= len(list(FIXTURE.rglob("*.yaml")))


def test_the_fixture_catalogue_takes_the_quick_path() -> None:
    for path in sorted(FIXTURE.rglob("*.yaml")):
        assert quick_parse(path.read_text(encoding="utf-8"), LOADER) is not None, path


_WORDS = ["close", "unlimited", "no", "Yes", "~", "null", "", "1", "-0", "+7", "007", "0x1F", "1_000", "1.10", ".inf",
          "2024-01-01", "1:30", "1e3", "<<", "=", "a b", "§9", "1" * 101, "9" * 100, "'single'", '"double"', "'it''s'",
          '"\\u202e"', '"tab\\tin"', '"\\r"', "!!str x", "!!int 3", "&a x", "*a", '"a: b"', "true", "FALSE", "k"]
_KEYS = ["a", "b", "k", "no", "1", "<<", '"q k"', "'s'", '"k\\tk"', "a b", "§", "!!str a", "&x a", "~", "? c"]


_KINDS = st.sampled_from(["word", "word", "map", "seq"])
_LEAF = st.sampled_from(["word"])
_WORD = st.sampled_from(_WORDS)
_KEY = st.sampled_from(_KEYS)
_COUNT = st.integers(0, 3)


@st.composite
def _tree(draw: st.DrawFn, depth: int = 0) -> Any:
    kind = draw(_KINDS if depth < 7 else _LEAF)
    if kind == "word":
        return draw(_WORD)
    if kind == "seq":
        return [draw(_TREES[depth + 1]) for _ in range(draw(_COUNT))]
    return [(draw(_KEY), draw(_TREES[depth + 1])) for _ in range(draw(_COUNT))]


_TREES = [_tree(depth) for depth in range(8)]
"""One strategy object per depth, each made once: the same draws as a new strategy per call, without Hypothesis
working out each new one's label again (most of this property's time went to making strategies)."""


def _flow(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value and isinstance(value[0], tuple):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value) + "}"
    return "[" + ", ".join(_flow(v) for v in value) + "]"


def _block(pairs: list[tuple[str, Any]], indent: str, flow_below: int, depth: int) -> str:
    out = []
    for key, value in pairs:
        if isinstance(value, list) and value and depth < flow_below:
            if isinstance(value[0], tuple):
                out.append(f"{indent}{key}:\n{_block(value, indent + '  ', flow_below, depth + 1)}")
            else:
                out.append(f"{indent}{key}:\n" + "".join(f"{indent}  - {_flow(v)}\n" for v in value))
        else:
            out.append(f"{indent}{key}: {_flow(value)}\n")
    return "".join(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(st.sampled_from(_KEYS), _tree()), min_size=1, max_size=4),
       flow_below=st.integers(0, 8), second=st.booleans())
def test_random_documents_parse_alike(pairs: list[tuple[str, Any]], flow_below: int, second: bool) -> None:
    text = _block(pairs, "", flow_below, 1) + ("---\nx: 1\n" if second else "")
    _agree(text)


_FIXTURE_FILES = {p.name: p.read_bytes() for p in sorted(FIXTURE.rglob("*.yaml"))}
_DAMAGE = st.sampled_from(["&a ", "*a", "!!str ", "? ", "- ", "{", "[", "no", "1.5", "0x10", "'", '"', ": ", "#",
                           "\\u202e", "  ", "---\n", "<<: ", "2024-01-01", "\t", "~"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(_FIXTURE_FILES)), data=st.data())
def test_damaged_fixture_files_parse_alike(name: str, data: st.DataObject) -> None:
    lines = _FIXTURE_FILES[name].decode("utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        at = data.draw(st.integers(0, len(lines[i])))
        how = data.draw(st.sampled_from(["insert", "duplicate", "delete"]))
        if how == "insert":
            lines[i] = lines[i][:at] + data.draw(_DAMAGE) + lines[i][at:]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif len(lines) > 1:
            del lines[i]
    _agree("\n".join(lines))


@pytest.mark.parametrize("text", ["a\u202eb", "plain §9 and é", "\x01", "x\x7fy\x85z", "ok\n\tok", "\U000e0041"])
def test_the_quick_character_scan_finds_what_the_whole_scan_finds(text: str) -> None:
    assert [(m.start(), m.group()) for m in _bad_chars(text)] == [
        (m.start(), m.group()) for m in BAD_CHAR.finditer(text)]


def test_every_refused_character_is_a_candidate_of_the_quick_scan() -> None:
    # Both patterns are classes of single characters: the characters the quick scan passes over, taken out of
    # every character there is, must hold no refused one (one pass of each pattern instead of two per character).
    passed_over = _MAYBE_BAD.sub("", "".join(map(chr, range(0x110000))))
    assert [hex(ord(c)) for c in BAD_CHAR.findall(passed_over)] == []


@pytest.mark.parametrize("text", ["a: {a: {a: {a: []}}}\n", "a: {a: {a: {a: {}}}}\n", "a: {a: {a: {a: [1]}}}\n",
                                  "a: {a: {a: {a: {b: 1}}}}\n", "a:\n  b:\n    c:\n      d: []\n"])
def test_nesting_at_the_limit(text: str) -> None:
    """An empty mapping or list deeper than any catalogue value is taken as it is; one with contents is not."""
    quick = _agree(text)
    assert (quick is not None) == ("[]" in text or "{}" in text)
