"""Version label and plan entry names that read as one name and only one.

A name is shown in page titles, tables, compare links and file names, where `UPI_N 1.1.0`, `UPI_N 1.1.0 ` and
`UPI_N  1.1.0` look the same. So a name has no space at either end, no two spaces in a row, no control,
invisible or blank character but the plain space, and is written in Unicode NFC; and no two names of one list
are equal once compared the way a reader compares them (`look_alike_keys`): without case, spacing or
character width, or by their confusable skeletons (UTS #39: `1.1.O` with the letter O reads as `1.1.0`).
The JSON Schemas say the same for editors (an ASCII pattern); these words say which of the rules a name
breaks, in `check` and `new-label` alike.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files

from catalog_docs.catalog.nodes import BAD_KEY_CHAR
from catalog_docs.catalog.read import char_name
from catalog_docs.errors import CatalogDocsError

_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"}
"""Categories of characters that show as nothing, as a blank, or differently on each screen (Zs: spaces; the
plain space is allowed between words). The loader's refused characters (Hangul fillers, variation selectors and
other letters that show as blank) are refused too."""


def name_flaw(name: str) -> str | None:
    """Why `name` does not read as one name, with the fix (`a space at its end; remove it`), or None."""
    if name[:1] == " ":
        return "a space at its start; remove it"
    if name[-1:] == " ":
        return "a space at its end; remove it"
    if "  " in name:
        return "two spaces in a row; write one space between words"
    for ch in name:
        if ch != " " and (unicodedata.category(ch) in _INVISIBLE or BAD_KEY_CHAR.match(ch)):
            return f"{char_name(ch)}, which shows as nothing or as a plain space; remove it"
    if not unicodedata.is_normalized("NFC", name):
        return ("text not in Unicode NFC: a letter and its accent written as two characters; "
                "type it again or save it in NFC")
    return None


def look_alike_key(name: str) -> str:
    """What a reader sees in `name`: NFKC (full-width letters, ligatures and the like as their plain forms),
    without case, and with every run of white space one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def look_alike_keys(name: str) -> tuple[str, str]:
    """The keys under which two names of one list are look-alikes when either is the same: look_alike_key, and
    the confusable skeleton (with "k:" and "s:" before them, so that the two kinds never meet)."""
    return "k:" + look_alike_key(name), "s:" + confusable_skeleton(name)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the stand-in of every character it can be confused with, from Unicode's
    confusables.txt (UTS #39) as the confusable-homoglyphs package ships it. That data file lists each
    confusable pair both ways, so the direction from a character to its prototype is lost; but every group of
    characters Unicode maps to one prototype is a connected group of the pairs, and a group's stand-in is its
    prototype when that is a sequence (sources are single characters), else its least member. Skeletons of two
    strings are then equal exactly when their UTS #39 skeletons are: the stand-ins rename the prototypes, one to
    one."""
    try:
        data = json.loads((files("confusable_homoglyphs") / "confusables.json").read_text(encoding="utf-8"))
    except ModuleNotFoundError:  # an environment installed before the dependency was added
        raise CatalogDocsError("the package confusable-homoglyphs is not installed (pyproject.toml needs it): run "
                               "`make install`, or `pip install -e .` in the project") from None
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for key, pairs in data.items():
        a = key.strip("\u200e")  # the data's file wraps right-to-left characters in marks, for its display
        for pair in pairs:
            b = str(pair["c"]).strip("\u200e")
            if a and b:
                parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for node in list(parent):
        groups.setdefault(root(node), []).append(node)
    stand_in: dict[str, str] = {}
    for members in groups.values():
        longer = sorted(m for m in members if len(m) > 1)
        chosen = longer[0] if longer else min(members)
        stand_in.update((m, chosen) for m in members if len(m) == 1 and m != chosen)
    return stand_in


def confusable_skeleton(text: str) -> str:
    """UTS #39's skeleton of `text` (NFD, every character by its prototype, NFD again), up to a one-to-one
    renaming of the prototypes (see _prototypes): `UPI_N 1.1.O` and `UPI_N 1.1.0` have the same one."""
    table = _prototypes()
    out = unicodedata.normalize("NFD", text)
    for _ in range(4):  # a sequence stand-in may hold characters with stand-ins of their own
        mapped = unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in out))
        if mapped == out:
            break
        out = mapped
    return out
