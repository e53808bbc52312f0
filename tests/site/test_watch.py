"""`catalog-docs watch` (the preview loop for engines without hooks): the error banner it writes into the last
good pages goes in after the front matter, is replaced rather than stacked, escapes catalogue text, and comes
out again without a trace; without an earlier render it writes nothing."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from catalog_docs.site.watch import _strip_banner, show_errors, with_banner

PAGE = "---\ntitle: \"Fake page\"\n---\n\n# Fake page\n\nBody text.\n"
LINES = st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=4)


@given(LINES, LINES)
def test_the_banner_is_replaced_not_stacked_and_leaves_no_trace(first: list[str], second: list[str]) -> None:
    once = with_banner(PAGE, first)
    assert once.startswith("---\ntitle: \"Fake page\"\n---\n\n<div id=\"catalog-docs-errors\"")
    assert with_banner(once, second) == with_banner(PAGE, second)
    assert _strip_banner(once) == PAGE


def test_the_banner_escapes_catalogue_text() -> None:
    shown = with_banner(PAGE, ["listing.yaml:3:9: path: found '<script>alert(1)</script>'"])
    assert "&lt;script&gt;" in shown and "<script>" not in shown


def test_without_an_earlier_render_nothing_is_written(tmp_path: Path) -> None:
    assert show_errors(tmp_path, ["an error"]) is None
    assert not any(tmp_path.iterdir())
