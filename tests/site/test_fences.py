"""The `catalog-html` fence: data tables reach the builders as fenced blocks that Python-Markdown stashes
without running its HTML parser over them (catalog_docs.site.fences). The output must be the HTML the template
wrote, whatever the block holds; every table of every page must go this way, or the build slows down
again at scale without any test noticing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mkdocs.config import load_config

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.fences import FENCE, html_block, lift_blocks, restore_blocks
from catalog_docs.site.render import render_pages
from fixture_facts import FIXTURE_CATALOG

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """mkdocs.yml as mkdocs loads it (docs_dir pointed at an empty folder: no render needed)."""
    return load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(tmp_path_factory.mktemp("docs")))


@pytest.fixture(scope="module")
def site_markdown(config: Any) -> markdown.Markdown:
    """Python-Markdown with the extensions and settings mkdocs.yml gives it."""
    return markdown.Markdown(extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"])


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    """The fixture catalogue's generated files, rendered once for the tests that read them all."""
    return render_pages(load_catalog(FIXTURE_CATALOG))


def _convert(md: markdown.Markdown, text: str) -> str:
    md.reset()
    return md.convert(text)


TABLE = ('<div class="x" data-search-exclude>\n<table>\n<caption>A *caption* with `code` and [a](b.md)</caption>\n'
         '<tbody>\n<tr><th scope="row"><a href="../y/">Y</a></th>'
         '<td><span class="lock lock-close">close</span></td></tr>\n'
         "</tbody>\n</table>\n</div>")


def test_the_fence_is_declared_in_mkdocs_yml_with_our_format_function(config: Any) -> None:
    fences = config["mdx_configs"]["pymdownx.superfences"]["custom_fences"]
    ours = [f for f in fences if f["name"] == FENCE]
    assert len(ours) == 1
    assert ours[0]["format"].__module__ == "catalog_docs.site.fences"


def test_a_fenced_block_comes_out_as_written(site_markdown: markdown.Markdown) -> None:
    html = _convert(site_markdown, f"# Title\n\n{html_block(TABLE)}\nAfter *it*.\n")
    assert TABLE.replace("`", "&#96;") in html  # no Markdown ran inside: asterisks, backticks, .md link stay
    assert "<p>After <em>it</em>.</p>" in html
    assert "<pre" not in html and "catalog-html" not in html


def test_it_gives_the_same_page_as_the_raw_html_block(site_markdown: markdown.Markdown) -> None:
    plain = TABLE.replace("`code`", "code")  # the one difference: the fence writes a backtick as &#96;
    fenced = _convert(site_markdown, f"Before.\n\n{html_block(plain)}\nAfter.\n")
    raw = _convert(site_markdown, f"Before.\n\n{plain}\n\nAfter.\n")
    assert fenced.split() == raw.split()


@pytest.mark.parametrize("closer", ["```", "````", "   ```", "```catalog-html"])
def test_a_line_of_backticks_inside_cannot_close_the_fence(site_markdown: markdown.Markdown, closer: str) -> None:
    block = f"<table>\n<tr><td>one</td></tr>\n{closer}\n<tr><td>*two*</td></tr>\n</table>"
    html = _convert(site_markdown, f"{html_block(block)}\nAfter.\n")
    assert "<tr><td>*two*</td></tr>\n</table>" in html  # still inside the block: no emphasis, no code block
    assert closer.replace("`", "&#96;") in html
    assert "<pre" not in html and "<code" not in html


def test_every_table_of_every_page_is_fenced(pages: dict[str, str]) -> None:
    fence = re.compile(rf"^```{FENCE}\n.*?^```$", re.MULTILINE | re.DOTALL)
    kinds_with_tables = set()
    for name, text in pages.items():
        if not name.endswith(".md"):
            continue
        outside = fence.sub("", text)
        assert "<table" not in outside, f"{name}: a table outside a {FENCE} fence"
        if "<table" in text:
            kinds_with_tables.add("home" if name == "index.md" else name.removesuffix(".md").split("/")[0])
    # the check above is not empty: every page type that draws lock values holds tables (the register and the
    # Sources page are lists)
    assert kinds_with_tables == {"home", "legend", "matrix", "operations", "versions", "plans", "compare"}


def _lifted(md: markdown.Markdown, text: str) -> str:
    """The page as the plugin has Markdown make it: blocks lifted out, converted, put back."""
    lifted, blocks = lift_blocks(text)
    return restore_blocks(_convert(md, lifted), blocks)


_BLOCK_TEXT = st.text(alphabet=st.sampled_from(list("ab <>&*_`#|-\t\r\n\x02\x03é")), max_size=40)
_BLOCK = st.builds(lambda tag, inner: f"<{tag}>{inner}</{tag}>" if tag != "!--" else f"<!--{inner}-->",
                   st.sampled_from(["table", "div", "ul", "p", "span", "a", "code", "!--"]), _BLOCK_TEXT)
_PIECE = st.one_of(_BLOCK.map(lambda b: str(html_block(b))),
                   st.text(alphabet=st.sampled_from(list("ab *_#-=|:{}\n\t\r")), max_size=30).map(lambda t: t + "\n\n"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(_PIECE, max_size=6))
def test_lifting_the_blocks_out_of_markdown_gives_the_same_page(site_markdown: markdown.Markdown,
                                                                pieces: list[str]) -> None:
    """The plugin's shortcut (fences.lift_blocks, restore_blocks) for any page of prose and blocks: tabs, carriage
    returns, Markdown's own control characters, lines of spaces, blocks that Markdown wraps in a paragraph."""
    text = "".join(pieces)
    assert _lifted(site_markdown, text) == _convert(site_markdown, text)


def test_every_generated_page_is_the_same_with_its_blocks_lifted(site_markdown: markdown.Markdown,
                                                                 pages: dict[str, str]) -> None:
    lifted = 0
    for name, text in pages.items():
        if name.endswith(".md"):
            body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
            lifted += len(lift_blocks(body)[1])
            assert _lifted(site_markdown, body) == _convert(site_markdown, body), name
    assert lifted > 50


def test_a_lost_marker_fails_loudly() -> None:
    text, blocks = lift_blocks(f"# T\n\n{html_block('<table></table>')}\n{html_block('<div>x</div>')}")
    assert len(blocks) == 2 and text.count("<!--catalog-html") == 2
    with pytest.raises(ValueError, match=r"markers \[0\], not the 2 blocks"):
        restore_blocks("<h1>T</h1>\n<!--catalog-html 0-->", blocks)


@pytest.mark.parametrize("after", ["-\n", "===  \n", "---"])
def test_a_block_underlined_as_a_heading_stays_in_the_markdown(site_markdown: markdown.Markdown, after: str) -> None:
    """Found by Hypothesis: a line of dashes after a block makes it a heading, whose id Markdown makes from the
    block's text (a marker has none)."""
    text = f"{html_block('<table>_</table>')}{after}"
    assert lift_blocks(text)[1] == []
    assert _lifted(site_markdown, text) == _convert(site_markdown, text)
