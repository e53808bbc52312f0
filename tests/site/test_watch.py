"""`catalog-docs watch` (the preview loop for engines without hooks): the error banner it writes into the last
good pages goes in after the front matter, is replaced rather than stacked, escapes catalogue text, and comes
out again without a trace; without an earlier render it writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from catalog_docs.layout import MANIFEST
from catalog_docs.site.watch import _strip_banner, show_errors, with_banner
from catalog_docs.site.write import write_output

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


def test_the_banner_goes_into_the_pages_the_render_wrote(tmp_path: Path) -> None:
    write_output({"index.md": PAGE, "operations/fake.md": PAGE}, tmp_path)
    assert show_errors(tmp_path, ["an error"]) is not None
    assert "an error" in (tmp_path / "operations" / "fake.md").read_text(encoding="utf-8")


def test_a_planted_manifest_or_link_gets_nothing_read_or_bannered(tmp_path: Path) -> None:
    # The banner reads back every page the manifest lists: a manifest found in docs/ may name anything, and a
    # generated path may be a link out of docs/. Neither is read, and nothing is written.
    docs, outside = tmp_path / "docs", tmp_path / "outside"
    docs.mkdir()
    outside.mkdir()
    (outside / "secret.md").write_text("# not ours\n", encoding="utf-8")
    (docs / MANIFEST).write_text(json.dumps({"files": ["../outside/secret.md"]}), encoding="utf-8")
    assert show_errors(docs, ["an error"]) is None
    (docs / MANIFEST).unlink()  # (the writer refuses it too)
    write_output({"index.md": PAGE, "operations/fake.md": PAGE}, docs)
    (docs / "operations" / "fake.md").unlink()
    (docs / "operations" / "fake.md").symlink_to(outside / "secret.md")
    assert show_errors(docs, ["an error"]) is None
    assert (outside / "secret.md").read_text(encoding="utf-8") == "# not ours\n"
    assert "an error" not in (docs / "index.md").read_text(encoding="utf-8")
