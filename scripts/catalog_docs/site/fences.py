"""HTML blocks that the site builders pass through without parsing: a `catalog-html` custom fence.

Python-Markdown finds the end of a raw HTML block by running an HTML parser over every tag in it (twice
with md_in_html and mkdocs' anchor scan). At 1,000 operations our pages hold about a million tags, and
that scan was most of the build. The data tables therefore go to the builders as fenced blocks of the
`catalog-html` kind, declared in mkdocs.yml as a pymdownx.superfences custom fence whose format function
(`passthrough`) returns the block as it is. Superfences reads a fence line by line and stashes the block
before the HTML preprocessors run, so the page comes out byte for byte the same, at a fraction of the cost.
Zensical reads the same configuration and takes the same path.

Templates wrap a block with `{% filter html_block %}...{% endfilter %}`.
"""

from __future__ import annotations

import re
from typing import Any

from markdown.postprocessors import RawHtmlPostprocessor  # type: ignore[import-untyped]  # no stubs
from markdown.util import BLOCK_LEVEL_ELEMENTS, ETX, STX  # type: ignore[import-untyped]  # no stubs
from markupsafe import Markup

FENCE = "catalog-html"
"""The custom fence's name, as mkdocs.yml declares it."""

_OPEN = f"```{FENCE}\n"


def html_block(html: str) -> Markup:
    """HTML written by a template, as a `catalog-html` fenced block on lines of its own.

    A backtick becomes a character reference, which HTML reads back as the same character in text and in
    attribute values alike, so no line of the block can close the fence early. (Catalogue text reaches a
    template already escaped by escape.md_escape; this covers the template's own text.)
    """
    body = str(html).strip("\n").replace("`", "&#96;")
    return Markup(f"{_OPEN}{body}\n```\n")


def passthrough(source: str, language: str, class_name: str, options: dict[str, Any], md: Any,
                **kwargs: Any) -> str:
    """The custom fence's format function (pymdownx.superfences' signature): the block, unchanged."""
    return source


_MARK = "<!--catalog-html {}-->"
_MARKS = re.compile(r"<!--catalog-html (\d+)-->")
_BLANK_LINE = re.compile(r"(?<=\n) +\n")


def _is_block(body: str) -> bool:
    """RawHtmlPostprocessor.isblocklevel, with its own pattern, for a Markdown that lists the default block tags."""
    found = RawHtmlPostprocessor.BLOCK_LEVEL_REGEX.match(body)
    if found is None:
        return False
    tag = found.group(1)
    return tag[0] in "!?@%" or tag.lower().rstrip("/") in BLOCK_LEVEL_ELEMENTS


def _as_markdown_leaves_it(body: str, tab_length: int) -> str:
    """A block's text as Python-Markdown's first pass leaves it (preprocessors.NormalizeWhitespace): control
    characters STX and ETX gone, line ends made `\\n`, tabs expanded, lines of spaces emptied. Each step is
    skipped when the text has nothing it changes (a table page is 400 KB, and usually has none)."""
    text = body
    if STX in text or ETX in text:
        text = text.replace(STX, "").replace(ETX, "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\t" in text:
        text = text.expandtabs(tab_length)
    if " \n" in text or text.endswith(" "):
        text = _BLANK_LINE.sub("\n", "\n" + text + "\n")[1:-1]
    return text


_SETEXT_UNDERLINE = re.compile(r"[=-]+[ \t]*(?:[\r\n]|$)")


def _underlined(markdown: str, fence_end: int) -> bool:
    """Whether the line after a block's closing fence (which ends at `fence_end`) makes the block a heading's text
    (a setext heading: a line of `=` or `-`), whose id Markdown makes from that text: such a block stays."""
    line_start = markdown.find("\n", fence_end)
    return line_start >= 0 and _SETEXT_UNDERLINE.match(markdown, line_start + 1) is not None


def lift_blocks(markdown: str, tab_length: int = 4) -> tuple[str, list[str]]:
    """The page's `catalog-html` blocks taken out of its Markdown, each replaced by a short marker block, and the
    blocks (as Markdown would leave them), for restore_blocks to put back into the page's HTML once Markdown has
    made it. The page comes out the same, byte for byte, and Markdown no longer goes over the tables' text (its
    whitespace pass, and the raw-HTML pass that scans the whole page again for every block it puts back: most
    of a 400 KB table page's conversion). A block that does not start with a block-level tag stays in place:
    Markdown wraps that one in a paragraph, and a marker would not be wrapped. So does a block underlined as a
    heading (see _underlined)."""
    parts: list[str] = []
    blocks: list[str] = []
    copied = at = 0
    while (start := markdown.find(_OPEN, at)) >= 0:
        body_start = start + len(_OPEN)
        end = markdown.find("\n```", body_start - 1)
        if end < 0:
            break
        body = markdown[body_start:end] if end >= body_start else ""
        at = max(end + len("\n```"), body_start)
        if (start and markdown[start - 1] != "\n") or not _is_block(body) or _underlined(markdown, at):
            continue
        parts += [markdown[copied:body_start], _MARK.format(len(blocks))]
        blocks.append(_as_markdown_leaves_it(body, tab_length))
        copied = max(end, body_start)
    parts.append(markdown[copied:])
    return "".join(parts), blocks


def restore_blocks(html: str, blocks: list[str]) -> str:
    """The page's HTML with the blocks lift_blocks took out back in place of their markers. Raises ValueError
    unless every marker is found once, in order (a block lost on the way would otherwise vanish silently)."""
    pieces = _MARKS.split(html)
    found = [int(n) for n in pieces[1::2]]
    if found != list(range(len(blocks))):
        raise ValueError(f"the page's HTML holds the markers {found}, not the {len(blocks)} blocks taken out of it")
    pieces[1::2] = blocks
    return "".join(pieces)
