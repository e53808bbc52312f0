"""The one escaping function for catalogue text that lands in Markdown or HTML."""

from __future__ import annotations

import json

from markupsafe import Markup, escape

# Every ASCII character that Markdown, the Markdown extensions we enable, HTML or Jinja could read as
# syntax becomes a numeric character reference. Browsers and the search index decode references back
# to the literal character, so the text shows as written and never turns into markup.
_SPECIAL = "\\`*_{}[]()<>#+-.!|~&\"'$:=^"
_TABLE = {ord(c): f"&#{ord(c)};" for c in _SPECIAL}
_TABLE[ord("\n")] = " "
_TABLE[ord("\r")] = " "
_TABLE[ord("\t")] = " "


def md_escape(text: object) -> Markup:
    """Escape catalogue text for Markdown, tables, raw HTML and attribute values alike."""
    return Markup(str(text).translate(_TABLE))


def finalize(value: object) -> object:
    """Jinja `finalize` hook: every `{{ value }}` is escaped unless a template built it as markup."""
    if isinstance(value, Markup) or hasattr(value, "__html__"):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return md_escape(value)


def front_matter(text: object) -> Markup:
    """A page's front-matter value (title, description) as one quoted YAML string.

    The theme prints these values into `<title>`, `<meta content="...">`, the header and the navigation
    without escaping them, so HTML's special characters become references here; Markdown never reads them.
    """
    return Markup(json.dumps(str(escape(str(text))), ensure_ascii=False))
