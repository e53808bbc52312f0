"""The quick parse of a well-formed catalogue file: the same tree of marked nodes the checking parse in `load`
builds, or None as soon as anything in the file would need that parse's checks.

The checking parse looks at every event for anchors, aliases, tags, nesting, duplicate keys and refused
characters, and remembers every scalar's place to name it in a message. A file the maintainers saved has none
of that, and this parse builds its tree with none of that work: it gives up at the first thing out of the
ordinary (any of the above, a second document, a date or float, a number written any way but in decimal, a
parse error) and `load` parses the file again the checking way, which reports it. So a file parses to the same
nodes either way; `tests/catalog/test_fastparse.py` holds the two parses to that.
"""

from __future__ import annotations

from typing import Any, TypeVar

import yaml

from catalog_docs.catalog.nodes import (
    BAD_KEY_CHAR,
    BAD_QUOTED_CHAR,
    CONSTRUCTOR,
    MAX_DEPTH,
    MAX_DIGITS,
    STR_TAG,
    Node,
    resolve_plain,
)

_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"

_Scalar, _MapStart, _MapEnd = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.MappingEndEvent
_SeqStart, _SeqEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent


_T = TypeVar("_T")


class _Unusual(Exception):
    """Something only the checking parse handles."""


_PLAIN: dict[str, tuple[str, Any]] = {}
"""A plain scalar's text -> its tag and value, as the checking parse resolves it (only for text, decimal whole
numbers, booleans and null). The same few values (lock values, keys) repeat across every version file."""
_PLAIN_MAX = 200_000
_KEYS: dict[str, bool] = {}
"""A key's text -> whether it is a key the checking parse takes without a word (text of visible characters)."""


def _plain(raw: str) -> tuple[str, Any]:
    known = _PLAIN.get(raw)
    if known is not None:
        return known
    tag = resolve_plain(raw)
    if tag == STR_TAG:
        known = (tag, raw)
    elif tag == _INT:
        digits = raw.lstrip("+-")
        if len(digits) > MAX_DIGITS or not digits.isascii() or not digits.isdigit() \
                or (digits.startswith("0") and digits != "0") or len(raw) - len(digits) > 1:
            raise _Unusual  # octal, hex, base 60, 1_000, or too long: the checking parse says which
        known = (tag, int(raw))
    elif tag == _BOOL:
        known = (tag, CONSTRUCTOR.bool_values[raw.lower()])
    elif tag == _NULL:
        known = (tag, None)
    else:
        raise _Unusual  # dates, floats, merge keys
    return _remember(_PLAIN, raw, known)


def _remember(memo: dict[str, _T], raw: str, answer: _T) -> _T:
    if len(memo) >= _PLAIN_MAX:  # started afresh past the bound, so memory stays flat
        memo.clear()
    memo[raw] = answer
    return answer


def _key(ev: Any) -> str:
    """The text of a mapping key event that the checking parse takes as it is."""
    if ev.anchor is not None or ev.tag is not None:
        raise _Unusual
    raw: str = ev.value
    ok: bool | None
    if not ev.implicit[0]:  # quoted: text
        ok = BAD_KEY_CHAR.search(raw) is None
    elif (ok := _KEYS.get(raw)) is None:
        ok = _remember(_KEYS, raw, _plain(raw)[0] == STR_TAG and BAD_KEY_CHAR.search(raw) is None)
    if not ok:
        raise _Unusual
    return raw


def _scalar(ev: Any) -> Node:
    if ev.anchor is not None or ev.tag is not None:
        raise _Unusual
    raw = ev.value
    mark = ev.start_mark
    if not ev.implicit[0]:  # quoted or block: text
        if ev.style == '"' and BAD_QUOTED_CHAR.search(raw) is not None:
            raise _Unusual
        return Node("scalar", raw, mark.line + 1, mark.column + 1, raw, STR_TAG)
    tag, value = _plain(raw)
    return Node("scalar", value, mark.line + 1, mark.column + 1, raw, tag)


def _collection(get: Any, ev: Any, depth: int) -> Node:
    """The mapping or list `ev` starts, at nesting `depth` (the document's top is 1)."""
    if ev.anchor is not None or ev.tag is not None:
        raise _Unusual
    mark = ev.start_mark
    if depth >= MAX_DEPTH:
        return _empty(get, ev, mark)
    if type(ev) is _SeqStart:
        return _sequence(get, Node("seq", [], mark.line + 1, mark.column + 1), depth + 1)
    return _mapping(get, Node("map", {}, mark.line + 1, mark.column + 1), depth + 1)


def _empty(get: Any, ev: Any, mark: Any) -> Node:
    """Deeper than any catalogue value: only an empty mapping or list is taken as it is."""
    end = type(get())
    if type(ev) is _SeqStart and end is _SeqEnd:
        return Node("seq", [], mark.line + 1, mark.column + 1)
    if type(ev) is _MapStart and end is _MapEnd:
        return Node("map", {}, mark.line + 1, mark.column + 1)
    raise _Unusual


def _sequence(get: Any, node: Node, inner: int) -> Node:
    """`node` with the items of the list whose start was just read, nested at `inner`."""
    items = node.value
    while True:
        ev = get()
        kind = type(ev)
        if kind is _Scalar:
            items.append(_scalar(ev))
        elif kind is _SeqEnd:
            return node
        elif kind is _MapStart or kind is _SeqStart:
            items.append(_collection(get, ev, inner))
        else:
            raise _Unusual  # an alias


def _mapping(get: Any, node: Node, inner: int) -> Node:
    """`node` with the keys and values of the mapping whose start was just read, nested at `inner`."""
    values = node.value
    marks = node.key_marks
    while True:
        ev = get()
        kind = type(ev)
        if kind is _MapEnd:
            return node
        if kind is not _Scalar:
            raise _Unusual  # a mapping, list or alias as a key
        key = _key(ev)
        if key in values:
            raise _Unusual  # a duplicate key
        key_mark = ev.start_mark
        ev = get()
        kind = type(ev)
        # The scalar case inline: it is most of a large catalogue (its lock values).
        if kind is _Scalar:
            values[key] = _scalar(ev)
        elif kind is _MapStart or kind is _SeqStart:
            values[key] = _collection(get, ev, inner)
        else:
            raise _Unusual  # an alias
        marks[key] = (key_mark.line + 1, key_mark.column + 1)


def quick_parse(text: str, loader: Any) -> Node | None:
    """The top-level mapping of `text`, built as the checking parse builds it; None when the file holds anything
    that parse would report (then only that parse can say what), or anything but one mapping."""
    events = loader(text)
    try:
        get = events.get_event
        get()  # the stream's start
        if type(get()) is not yaml.DocumentStartEvent:
            return None
        ev = get()
        if type(ev) is not _MapStart:
            return None
        root = _collection(get, ev, 1)
        if type(get()) is not yaml.DocumentEndEvent or type(get()) is not yaml.StreamEndEvent:
            return None  # a second document
        return root
    except (_Unusual, yaml.YAMLError, RecursionError):
        return None
    finally:
        events.dispose()
