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

from typing import Any

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
