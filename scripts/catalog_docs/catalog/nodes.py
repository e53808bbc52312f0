"""The tree a catalogue file parses into: marked nodes, and what the parsers share about YAML scalars and the
characters catalogue text never holds. Both parsers build these: the checking one in `load` and the fast one in
`fastparse`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

MAX_DEPTH = 5
"""The deepest nesting the format needs (version file: plans > plan > values > value)."""

STR_TAG = "tag:yaml.org,2002:str"
RESOLVER = yaml.resolver.Resolver()


def resolve_plain(raw: str) -> str:
    """The tag YAML 1.1 (and so PyYAML) gives the plain scalar `raw`."""
    # types-PyYAML leaves Resolver.resolve unannotated; it returns the tag, a str.
    tag: str = RESOLVER.resolve(yaml.ScalarNode, raw, (True, False))  # type: ignore[no-untyped-call]
    return tag


CONSTRUCTOR = yaml.constructor.SafeConstructor()
TAG_NAMES = {
    "tag:yaml.org,2002:bool": "a YAML 1.1 boolean",
    "tag:yaml.org,2002:int": "a YAML 1.1 integer",
    "tag:yaml.org,2002:float": "a YAML 1.1 float",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "a YAML 1.1 date",
    "tag:yaml.org,2002:merge": "a merge key",
    "tag:yaml.org,2002:value": "a YAML value key",
}
MAX_DIGITS = 100
"""The longest whole number the loader converts (positions have a few digits; Python refuses over 4,300)."""

PLANE_ENDS = "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(1, 15))
REFUSED_CHARS = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 and C1 controls except tab, newline, carriage return
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff0-\ufffb"  # format characters: zero-width, bidirectional, soft hyphen, ...
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"  # blank-looking
    "\ud800-\udfff\ue000-\uf8ff\ufdd0-\ufdef\ufffe\uffff"  # surrogates, private use, non-characters
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff\U000f0000-\U0010ffff" + PLANE_ENDS  # tags, variation selectors, private use
)
BAD_CHAR = re.compile(f"[{REFUSED_CHARS}]")
"""Characters catalogue text never holds, however written (raw or as an escape in a double-quoted string):
controls, bidirectional and invisible format characters, the tag block, variation selectors, Hangul fillers
and other letters that show as blank, surrogates, private-use and non-characters. Text must read as it shows."""
BAD_QUOTED_CHAR = re.compile(f"[{REFUSED_CHARS}\\r]")
"""In a double-quoted text also a carriage return, which only an escape can put there."""
BAD_KEY_CHAR = re.compile(f"[{REFUSED_CHARS}\t\n\r\x85\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
"""In keys also every white space but the plain space: a key is a name, matched exactly."""

KeyPath = tuple["str | int", ...]
"""Where a value sits inside its file: mapping keys and (0-based) list indexes, outermost first."""


class Yaml11Value:
    """A plain scalar YAML 1.1 would turn into something JSON has no type for, or that no catalogue field holds
    (dates, floats, octal, hex or base-60 numbers). It equals nothing and matches no schema type, so the
    schema reports it with its raw text instead of the catalogue silently holding a float or a date."""

    __slots__ = ("raw",)

    def __init__(self, raw: str) -> None:
        self.raw = raw

    def __repr__(self) -> str:
        return self.raw


@dataclass(slots=True)
class Node:
    """A value from a YAML file with the place it was written."""

    kind: Literal["map", "seq", "scalar"]
    value: Any
    line: int
    column: int
    raw: str | None = None
    tag: str | None = None
    key_marks: dict[str, tuple[int, int]] = field(default_factory=dict)
    refused: bool = False
    """The loader already reported this node (alias, tag, merge key, nesting): later stages stay quiet about it."""

    def plain(self) -> Any:
        """The node as plain Python data (dict, list, str, int, ...) for schema validation."""
        if self.kind == "map":
            return {k: v.plain() for k, v in self.value.items()}
        if self.kind == "seq":
            return [v.plain() for v in self.value]
        return self.value

    def describe(self) -> str:
        """How the node reads in an error message."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.tag == "tag:yaml.org,2002:null" and not self.raw:
            return "nothing"
        if self.tag == STR_TAG:
            size = len(self.raw or "")
            return f"the text {self.raw!r}" if size <= 60 else f"a text of {size} characters"
        raw = self.raw or ""
        shown = raw if len(raw) <= 60 else f"{raw[:40]}... ({len(raw)} characters)"
        return f"{TAG_NAMES.get(self.tag or '', 'a value')} `{shown}`"
