"""What the theme's search reads of a generated page (site/search.py, the `catalog-search` plugin): the prose of a
table page without its tables, an operation page's first section; the built pages keep every table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from catalog_docs.site.search import _TABLE as TABLE_PATTERN
from catalog_docs.site.search import search_view, without_tables
from fixture_facts import LABEL_SLUGS, LISTING_SIZE, PAIRS, PATHS, PLAN_SLUGS, slug

_TEXT = st.text(alphabet="abc <>/=\"'h2", max_size=20).filter(lambda t: "<table" not in t and "<h2" not in t)
_TABLE = st.builds(lambda body: f"<table><caption>{body}</caption><tr><td>{body}</td></tr></table>", _TEXT)


@given(st.lists(st.one_of(_TEXT, _TABLE), max_size=8))
def test_the_prose_view_is_the_page_less_its_tables(parts: list[str]) -> None:
    html = "".join(parts)
    assert search_view(html, "prose") == "".join(p for p in parts if not p.startswith("<table>"))


@given(st.lists(st.sampled_from(["<table", "</table>", "<table>", "<table ", "<tablex", "<table_", "<tableé", "</table",
                                 "x", "<", ">", "\n", "é"]), max_size=30))
def test_tables_are_removed_as_the_pattern_removes_them(parts: list[str]) -> None:
    """without_tables (a plain text search) against the pattern it stands for, on any text: unclosed tables, names
    that only start with `table`, tags cut short."""
    html = "".join(parts)
    assert without_tables(html) == TABLE_PATTERN.sub("", html)


# Text of the first section never holds a heading's start, even where two parts meet ("<" then "h2"): in a page the
# theme writes, a "<" in text is always "&lt;".
_FIRST = st.lists(st.one_of(_TEXT, _TABLE), max_size=5).filter(lambda parts: "<h2" not in "".join(parts))


@given(_FIRST, st.lists(st.one_of(_TEXT, _TABLE), max_size=5))
def test_the_heading_view_is_the_first_section_less_its_tables(first: list[str], rest: list[str]) -> None:
    html = "".join(first) + '<h2 id="x">Later</h2>' + "".join(rest)
    assert search_view(html, "heading") == "".join(p for p in first if not p.startswith("<table>"))


def test_a_page_without_a_view_is_read_whole() -> None:
    assert search_view("<table></table>", None) is None
    assert search_view("<table></table>", "everything") is None


def _index(site: Path) -> list[dict[str, str]]:
    docs: list[dict[str, str]] = json.loads((site / "search" / "search_index.json").read_text("utf-8"))["docs"]
    return docs


def test_an_operation_page_is_one_entry_with_its_title_and_path(built_site: Path) -> None:
    entries = _index(built_site)
    for position, path in enumerate(PATHS, start=1):
        page = f"operations/{slug(path, position)}/"
        mine = [e for e in entries if e["location"].split("#")[0] == page]
        assert len(mine) == 1, (page, mine)
        assert mine[0]["location"] == page
        if path is not None:
            assert path in mine[0]["title"] and f"<code>{path}</code>" in mine[0]["text"]
        assert "<caption>" not in mine[0]["text"] and "Facts about" not in mine[0]["text"]


def test_table_pages_are_indexed_by_their_prose_only(built_site: Path) -> None:
    entries = _index(built_site)
    pages = ["operations/", "matrix/", *(f"versions/{s}/" for s in LABEL_SLUGS.values()),
             *(f"plans/{s}/" for s in PLAN_SLUGS.values()),
             *(f"compare/{LABEL_SLUGS[a]}...{LABEL_SLUGS[b]}/" for a, b in PAIRS)]
    for page in pages:
        mine = [e for e in entries if e["location"].split("#")[0] == page]
        assert mine, page  # still found: its title and sentences
        for entry in mine:
            # A table's caption, headers or rows would show as their text; none of its words reach the index.
            assert not re.search(r"Differences from|Lock values of|counted by kind|scope=", entry["text"]), entry


def test_the_built_pages_keep_their_tables(built_site: Path) -> None:
    html = (built_site / "operations" / slug(PATHS[0], 1) / "index.html").read_text("utf-8")
    assert html.count("<table>") == 2  # facts, lock values (what is not shown is one list, not a table)
    assert "data-search-exclude" in html  # what Zensical's search reads; left as the template wrote it
    matrix = (built_site / "matrix" / "index.html").read_text("utf-8")
    assert matrix.count("<tbody>") == 1 and matrix.count("<tr>") >= LISTING_SIZE
