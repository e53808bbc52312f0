"""The escaping functions: catalogue text that lands in Markdown or HTML, and text printed to a terminal."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from urllib.parse import quote

from markupsafe import Markup, escape

# Every ASCII character that Markdown, the Markdown extensions we enable, HTML or Jinja could read as
# syntax becomes a numeric character reference. Browsers and the search index decode references back
# to the literal character, so the text shows as written and never turns into markup.
_SPECIAL = "\\`*_{}[]()<>#+-.!|~&\"'$:=^"
_TABLE = {ord(c): f"&#{ord(c)};" for c in _SPECIAL}
_TABLE[ord("\n")] = " "
_TABLE[ord("\r")] = " "
_TABLE[ord("\t")] = " "


_ESCAPED: dict[str, Markup] = {}
_ESCAPED_MAX = 1 << 17


def md_escape(text: object) -> Markup:
    """Escape catalogue text for Markdown, tables, raw HTML and attribute values alike.

    The same few thousand texts (labels, plan entries, paths) are escaped on every page of a large site, and
    building a Markup costs more than translating the text: each distinct text is escaped once (the memo is
    emptied when it grows past a bound, so memory stays flat)."""
    key = str(text)
    escaped = _ESCAPED.get(key)
    if escaped is None:
        if len(_ESCAPED) >= _ESCAPED_MAX:
            _ESCAPED.clear()
        escaped = _ESCAPED[key] = Markup(key.translate(_TABLE))
    return escaped


def finalize(value: object) -> object:
    """Jinja `finalize` hook: every `{{ value }}` is escaped unless a template built it as markup."""
    if type(value) is str:
        return md_escape(value)
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


# Characters a terminal would act on or hide: C0 and C1 controls (ESC starts an escape sequence, CR
# rewrites the line), line and paragraph separators, bidirectional and invisible format characters,
# the tag block, lone surrogates. Error messages quote the bad input, so they pass through here.
_TERMINAL_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
    "\U000e0000-\U000e007f\ud800-\udfff]"
)


def _shown(ch: str) -> str:
    o = ord(ch)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls, format characters, surrogates, line and paragraph separators, wherever Unicode puts them."""


_DEFAULT_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): shown as nothing by a terminal, whatever
their category: U+034F COMBINING GRAPHEME JOINER, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 (letters),
variation selectors, tags..."""


def for_terminal(text: object) -> str:
    """Text for a terminal line: every control, separator and invisible character shown as an escape
    (`\\x1b`, `\\u202e`), so that nothing we print moves the cursor, recolours, reorders or hides text: the
    default-ignorable code points (Hangul fillers, U+034F...) and every combining mark without a base included. A
    mark's base is a letter or digit printed as itself (with the marks already on it): one at the start, after a
    space, a quote, a bracket or any other punctuation or symbol the tool prints around a name, or after a
    character shown escaped, would sit on that neighbour instead of showing."""
    shown = str(text)
    if shown.isascii():
        return _TERMINAL_UNSAFE.sub(lambda m: _shown(m.group()), shown)
    out = []
    based = False  # whether the last character printed as itself can carry a combining mark
    for c in shown:
        category = unicodedata.category(c)
        # Format characters outside the ranges above (U+0600 ARABIC NUMBER SIGN, U+110BD, ...), by category.
        if _TERMINAL_UNSAFE.match(c) or _DEFAULT_IGNORABLE.match(c) or category in _INVISIBLE_CATEGORIES:
            out.append(_shown(c))
            based = False
        elif category[0] == "M":
            out.append(c if based else _shown(c))
        else:
            out.append(c)
            based = category[0] in "LN"
    return "".join(out)

def do_url(slug: str) -> Markup:
    """A slug as a URL path segment (slugs are validated; anything else is percent-encoded anyway)."""
    return Markup(quote(slug, safe="._~-"))


# Markdown meant to be read as text (the pages' Markdown twins, llms.txt): catalogue text stays as written, but
# for a backslash before each character CommonMark or GitHub's tables could read as syntax, so a tool that
# renders the file shows the text and nothing else. `_` is escaped only where it could open or close emphasis
# (not inside a word: `UPI_N` stays as published).
_MD_TEXT_TABLE = {ord(c): "\\" + c for c in "\\`*[]<>|&~!"}
_MD_TEXT_TABLE.update({ord("\n"): " ", ord("\r"): " ", ord("\t"): " "})
_LOOSE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_LINE_START = re.compile(r"[#+=>-]|[0-9]+[.)]")


def md_text(text: object) -> str:
    """Catalogue text for Markdown read as text: as written, with a backslash before what could be syntax."""
    return _md_text(str(text))


@lru_cache(maxsize=1 << 16)
def _md_text(text: str) -> str:
    """md_text of a string: the same few thousand texts (values, paths, labels) recur over every twin."""
    shown = _LOOSE_UNDERSCORE.sub(r"\\_", text.translate(_MD_TEXT_TABLE))
    start = _LINE_START.match(shown)
    if start is not None:  # a text alone on a line must not start a heading, a list or a quote
        end = start.end() - 1
        shown = shown[:end] + "\\" + shown[end:]
    return shown
