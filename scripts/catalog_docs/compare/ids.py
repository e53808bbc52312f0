"""Stable ids of change records: one per record, the same in every run and every format.

An id is made only of what the record is about: its kind, the version label and plan entry on each side, and
the listing entry (its path, or `entry-N` for an entry without one), area or not-shown item. Values, sources,
positions of entries that have a path, revisions and the order of records are left out, so an edit that does
not touch those names leaves the id as it was, and a reviewer's acknowledgement keeps matching.

Shape: `KIND--NAME--NAME...--HASH`, for example
`value-changed--upi-n-1-1-0--upi-n-1-0-0--getacclist--5d1a9f0e`:
- the names, lower-cased with every run of other characters turned into one `-`, are there for people;
- HASH, 8 hex digits of the 32-bit FNV-1a hash of the exact names, keeps two records apart whose names read
  alike once lower-cased (`A 1` and `a-1`).
Only `a-z`, `0-9` and `-`, starting with a letter: a valid URL fragment and HTML id, and a CSS identifier.
overrides/assets/compare.js makes the same ids in the browser (`changeId`); tests/compare/test_compare_js.py
holds the two to the same output.
"""

from __future__ import annotations

import re
from functools import lru_cache

ID_PATTERN = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*(--[a-z0-9]+(-[a-z0-9]+)*)*--[0-9a-f]{8}$"
"""Every change id matches this (also in schemas/diff.schema.json)."""

_SLUG_RUN = re.compile(r"[^a-z0-9]+")
_NAME_MAX = 48
"""Longest readable part kept of one name; the hash covers the whole name."""

_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193


def _fnv1a(data: bytes, h: int = _FNV_OFFSET) -> int:
    """32-bit FNV-1a (from state `h`): tiny and the same in JavaScript, where the browser compare makes the same
    ids."""
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return h


@lru_cache(maxsize=4_096)
def _fnv1a_prefix(text: str) -> int:
    """The hash state after `text`: the records of one page share their kind, labels and plan entry, so only
    the last part (the listing entry) is hashed per record. The same result as hashing the whole."""
    return _fnv1a(text.encode("utf-8"))


@lru_cache(maxsize=16_384)
def _slug(name: str) -> str:
    return _SLUG_RUN.sub("-", name.lower()).strip("-")[:_NAME_MAX].strip("-")


@lru_cache(maxsize=16_384)
def make_id(kind: str, parts: tuple[str | None, ...]) -> str:
    """The id of a record of `kind` about `parts` (earlier label, later label, earlier plan entry, later plan
    entry, then the listing entry, area or not-shown item; None where the record has none).

    The readable names skip None and say a name once when both sides have the same one; the hash is over
    every part, None included, so the id is determined by exactly these parts. Memoised (bounded): a page asks
    for the id of one record more than once (its row's anchor and its permalink)."""
    segments = ["\x1f" + ("" if p is None else "\x1e" + p) for p in parts]
    state = _fnv1a_prefix(kind + "".join(segments[:-1]))
    digest = _fnv1a(segments[-1].encode("utf-8"), state) if segments else state
    names: list[str] = []
    for i, p in enumerate(parts):
        # parts 1 and 3 are the later side's label and plan entry: said once when the earlier side's is the same
        if p is None or (i in (1, 3) and parts[i - 1] == p):
            continue
        slug = _slug(p)
        if slug:
            names.append(slug)
    return "--".join([kind, *names, f"{digest:08x}"])
