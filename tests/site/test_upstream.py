"""The places where the site rests on how another package works rather than on what it documents (ARCHITECTURE.md,
"Other packages"). Each test names the place and what to revisit when an upgrade changes the package: these fail
with that message, where the site itself would only degrade (`make test-latest` runs them on the newest releases).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from material.plugins.search.plugin import SearchIndex, SearchPlugin

from catalog_docs.layout import TEMPLATES
from catalog_docs.site.search import merge_dirty_index

REVISIT = ("Material's search plugin changed: revisit scripts/catalog_docs/site/search.py ({what}) and the "
           "'Other packages' section of ARCHITECTURE.md")


class _Page:
    """What Material's search reads of an mkdocs Page (its content, meta, toc, url, title)."""

    def __init__(self, content: str, url: str = "p/") -> None:
        self.content, self.url, self.meta, self.toc, self.title = content, url, {}, [], "T"


def _material_search() -> Any:
    plugin = SearchPlugin()
    errors, _warnings = plugin.load_config({})
    assert not errors, errors
    plugin.search_index = SearchIndex(**plugin.config)
    return plugin


def test_material_search_reads_a_page_in_on_page_context() -> None:
    """catalog-search gives the search its view of a page in on_page_content and the page its whole HTML back in
    on_page_context, after the search plugin's: the search must read page.content there."""
    plugin = _material_search()
    page = _Page('<h1 id="t">Title</h1><p>the view</p><div data-search-exclude><p>kept</p></div>')
    plugin.on_page_context({}, page=page, config=None, nav=None)
    texts = " ".join(e["text"] for e in plugin.search_index.entries)
    assert "the view" in texts, REVISIT.format(what="the view given in on_page_content")
    # The templates' bare attribute stays in the page (what Zensical's search reads); one with a value is removed.
    assert "data-search-exclude" in page.content, REVISIT.format(what="the page given back in on_page_context")


def test_no_template_writes_a_search_attribute_material_would_remove() -> None:
    """Material removes `data-search-*="..."` from the pages it indexes; catalog-search gives the page its whole HTML
    back after that, unchanged, so no template may write one (the bare `data-search-exclude` is left as it is)."""
    valued = re.compile(r"data-search-\w+\s*=")
    found = [p.name for p in Path(TEMPLATES).rglob("*.j2") if valued.search(p.read_text(encoding="utf-8"))]
    assert not found, f"templates with a valued data-search attribute, which the built page would keep: {found}"


def test_material_merges_a_dirty_rebuild_by_its_first_page_only() -> None:
    """Why catalog-search merges the index itself under `serve --dirty`: the theme's merge drops the last entries of
    the first rebuilt page's address and every address that starts with it, and keeps those of every other page
    rebuilt. When this fails, Material merges otherwise: check whether search.merge_dirty_index is still needed."""
    prev = SearchIndex()
    prev.entries = [{"location": "operations/"}, {"location": "operations/a/"}, {"location": "matrix/"}]
    current = SearchIndex(lang=["en"], separator=" ", pipeline=[], fields={})
    current.entries = [{"location": "operations/"}, {"location": "matrix/"}]
    current.generate_search_index(prev)
    locations = [e["location"] for e in current.entries]
    assert locations == ["matrix/", "operations/", "matrix/"], REVISIT.format(what="merge_dirty_index")


def test_the_dirty_merge_keeps_every_page_once() -> None:
    plugin = _material_search()
    assert hasattr(plugin, "search_index_prev"), REVISIT.format(what="merge_dirty_index: search_index_prev")
    prev = SearchIndex()
    prev.entries = [{"location": "operations/"}, {"location": "operations/a/"}, {"location": "matrix/#x"}]
    plugin.search_index_prev = prev
    plugin.search_index.entries = [{"location": "operations/"}, {"location": "matrix/"}]
    assert merge_dirty_index(plugin, {"operations/", "matrix/"})
    assert [e["location"] for e in plugin.search_index.entries] == ["operations/a/", "operations/", "matrix/"]
    assert plugin.search_index_prev is None


@pytest.mark.parametrize("holds", ["nothing", "no entries"])
def test_a_search_plugin_without_the_last_index_is_reported(holds: str) -> None:
    plugin = _material_search()
    if holds == "nothing":
        del plugin.search_index_prev
    else:
        plugin.search_index_prev = object()
    assert not merge_dirty_index(plugin, set())


MARKDOWN_REVISIT = ("Python-Markdown (or pymdown-extensions) changed how it leaves a raw HTML block: revisit "
                    "scripts/catalog_docs/site/fences.py (lift_blocks, _as_markdown_leaves_it, _is_block) and the "
                    "'Other packages' section of ARCHITECTURE.md")


@pytest.mark.parametrize("body", [
    '<div class="t">\n<table>\n<tr><td>a\tb</td></tr>\n</table>\n</div>',
    '<div>\r\n<p>line\r\nend</p>\r\n  \r\n</div>',
    "<div>\x02held\x03 <b>x</b>   \n\t<i>y</i></div>",
    "<section>\n\n\n<p>after blank lines</p>\n</section>",
])
def test_a_lifted_block_comes_out_as_python_markdown_leaves_it(body: str) -> None:
    """fences.lift_blocks takes the tables out of a page's Markdown and puts them back into its HTML as
    Python-Markdown would have left them (its whitespace pass, its block-level test, an HTML comment passed
    through): the page must be the same, byte for byte, as Markdown's own conversion."""
    import markdown
    from mkdocs.config import load_config

    from catalog_docs.site.fences import html_block, lift_blocks, restore_blocks

    root = Path(__file__).resolve().parents[2]
    config = load_config(str(root / "mkdocs.yml"), docs_dir=str(root / "tests"))
    md = markdown.Markdown(extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"])
    page = f"# Title\n\n{html_block(body)}\nAfter *it*.\n"
    whole = md.reset().convert(page)
    lifted, blocks = lift_blocks(page)
    assert blocks, MARKDOWN_REVISIT
    assert restore_blocks(md.reset().convert(lifted), blocks) == whole, MARKDOWN_REVISIT
