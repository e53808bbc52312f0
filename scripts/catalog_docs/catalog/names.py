"""Version label and plan entry names that read as one name and only one.

A name is shown in page titles, tables, compare links and file names, where `UPI_N 1.1.0`, `UPI_N 1.1.0 ` and
`UPI_N  1.1.0` look the same. So a name has no space at either end, no two spaces in a row, no control,
invisible or blank character but the plain space, and is written in Unicode NFC; and no two names of one list
are equal once compared the way a reader compares them (`look_alike_key`). The JSON Schemas say the same for
editors (an ASCII pattern); these words say which of the rules a name breaks, in `check` and `new-label` alike.
"""

from __future__ import annotations

import unicodedata

from catalog_docs.catalog.nodes import BAD_KEY_CHAR
from catalog_docs.catalog.read import char_name

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
    without case, and with every run of white space one space, trimmed. Two names of one list with the same key
    are look-alikes."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
