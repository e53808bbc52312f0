"""Serialising JSON-ready data as text: the one JSON and YAML writer of every download and diff format.

Stable output (keys in insertion order, two-space indents), so a file that did not
change is written byte for byte the same."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import yaml


def to_json(data: Any) -> str:
    """Stable, readable JSON text: exactly `json.dumps(data, indent=2, ensure_ascii=False)` and a newline.

    The standard library only uses its C encoder without indentation; the whole-catalogue download
    holds a million values, so JSON-ready data (dicts with text keys, lists, text, numbers, booleans,
    null) is written here, several times faster. Anything else goes through json.dumps."""
    out: list[str] = []
    try:
        _pretty(data, "\n", out)
    except _NotPlain:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    out.append("\n")
    return "".join(out)


class _NotPlain(Exception):
    pass


_encode_str = json.encoder.encode_basestring  # the C version when available, as json.dumps uses
_SCALARS = {True: "true", False: "false"}


def _pretty(value: Any, newline: str, out: list[str]) -> None:
    """Append the JSON text of `value`, whose lines after the first start with `newline`."""
    write = _PRETTY.get(type(value))  # by exact type: subclasses (and floats) are for json to decide
    if write is None:
        raise _NotPlain
    write(value, newline, out)


def _pretty_dict(value: dict[Any, Any], newline: str, out: list[str]) -> None:
    if not value:
        out.append("{}")
        return
    inner = newline + "  "
    sep = "{" + inner
    append = out.append
    for key, item in value.items():
        if type(key) is not str:
            raise _NotPlain
        kind = type(item)
        if kind is str:  # most values: written here, without a call per value
            append(f"{sep}{_encode_str(key)}: {_encode_str(item)}")
        elif kind is int:
            append(f"{sep}{_encode_str(key)}: {int.__repr__(item)}")
        else:
            append(f"{sep}{_encode_str(key)}: ")
            _pretty(item, inner, out)
        sep = "," + inner
    append(newline + "}")


def _pretty_list(value: list[Any] | tuple[Any, ...], newline: str, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + "  "
    sep = "[" + inner
    append = out.append
    for item in value:
        if type(item) is str:
            append(sep + _encode_str(item))
        else:
            append(sep)
            _pretty(item, inner, out)
        sep = "," + inner
    append(newline + "]")


_PRETTY: dict[type, Callable[[Any, str, list[str]], None]] = {
    str: lambda value, _newline, out: out.append(_encode_str(value)),
    int: lambda value, _newline, out: out.append(int.__repr__(value)),
    bool: lambda value, _newline, out: out.append(_SCALARS[value]),
    type(None): lambda _value, _newline, out: out.append("null"),
    dict: _pretty_dict,
    list: _pretty_list,
    tuple: _pretty_list,
}
"""How each JSON-ready type is written; any other type (floats, subclasses...) goes through json.dumps."""


_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def to_yaml(data: Any) -> str:
    """Stable block-style YAML text, keys in the order given, that `yaml.safe_load` reads back as `data`.

    PyYAML's emitter handles each value through a chain of Python calls; the OpenAPI download of a
    large catalogue holds a lock value per operation, label and plan entry, so JSON-ready data (dicts
    with text keys, lists, text, whole numbers, booleans, null) is written here in a few passes:
    text stays plain when it cannot be read as anything but text, and is double-quoted otherwise.
    Anything else goes through PyYAML."""
    out: list[str] = []
    try:
        if type(data) is dict and data:
            _yaml_map(data, "", out)
        elif type(data) in (list, tuple) and data:
            _yaml_seq(data, "", out)
        else:
            out.append(_yaml_scalar(data) + "\n")
    except _NotPlain:
        return yaml.dump(data, Dumper=_SafeDumper, sort_keys=False, allow_unicode=True, width=110)
    return "".join(out)


def to_yaml_plain(data: dict[str, Any], indent: str = "") -> str | None:
    """The block-style text `to_yaml` writes for a non-empty mapping, each line after `indent`: what the same
    mapping reads as when nested at that depth of a larger document. None when `to_yaml` would hand the data
    to PyYAML instead (then no part of a document holding it can be spliced from these texts)."""
    out: list[str] = []
    try:
        _yaml_map(data, indent, out)
    except _NotPlain:
        return None
    return "".join(out)


_YAML_PLAIN = re.compile(r"[A-Za-z_/§][A-Za-z0-9_ ./()§-]*").fullmatch
"""Text that YAML reads as text when written plain: no indicator characters (`:`, `#`, quotes,
brackets...), not starting with a digit or `.`, and not ending in a space."""
_YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}
"""Words YAML 1.1 or 1.2 reads as null or booleans (in any case), so they are quoted."""
_YAML_UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]").search
"""Characters that JSON leaves raw but a quoted YAML scalar cannot hold as they are: the unprintable
ones and the line breaks U+0085, U+2028 and U+2029, which YAML folds (JSON escapes only those below U+0020)."""


_YAML_TEXTS: dict[str, str] = {}
"""Text -> how it is written as a YAML scalar, for the short texts that repeat (labels, plan entries, lock
values, keys): one lookup instead of the checks below."""


def _yaml_scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        known = _YAML_TEXTS.get(value)
        return known if known is not None else _yaml_text(value)
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return _SCALARS[value]
    if value is None:
        return "null"
    if (kind is dict or kind is list or kind is tuple) and not value:
        return "{}" if kind is dict else "[]"
    raise _NotPlain


def _yaml_text(value: str) -> str:
    """A text as a YAML scalar: plain when YAML can only read it as text, else double-quoted; remembered
    when short (it is likely to repeat)."""
    if _YAML_PLAIN(value) and not value.endswith(" ") and value.lower() not in _YAML_WORDS:
        known = value
    elif _YAML_UNPRINTABLE(value):
        raise _NotPlain
    else:
        known = _encode_str(value)  # a JSON string is a YAML double-quoted scalar
    if len(value) <= 64:
        if len(_YAML_TEXTS) >= 100_000:
            _YAML_TEXTS.clear()
        _YAML_TEXTS[value] = known
    return known


def _yaml_map(value: dict[Any, Any], indent: str, out: list[str]) -> None:
    inner = indent + "  "
    for key, item in value.items():
        if type(key) is not str:
            raise _NotPlain
        kind = type(item)
        if kind is dict and item:
            out.append(f"{indent}{_yaml_scalar(key)}:\n")
            _yaml_map(item, inner, out)
        elif (kind is list or kind is tuple) and item:
            out.append(f"{indent}{_yaml_scalar(key)}:\n")
            _yaml_seq(item, inner, out)
        elif kind is str and "\n" in item and _yaml_block_safe(item):
            # Several lines (the OpenAPI descriptions): a literal block, read line by line as written.
            out.append(f"{indent}{_yaml_scalar(key)}: |-\n")
            out.extend(f"{inner}{line}\n" if line else "\n" for line in item.split("\n"))
        else:
            out.append(f"{indent}{_yaml_scalar(key)}: {_yaml_scalar(item)}\n")


_YAML_BLOCK_UNSAFE = re.compile("[\r\ufeff]|\n[ \t]*$|^[ \t\n]").search
"""Text a literal block (`|-`) would not give back as written: a carriage return or byte-order mark, an
ending line break or blank last line (`-` chomps it), or a first line starting blank (it sets the indent)."""


def _yaml_block_safe(text: str) -> bool:
    return not _YAML_BLOCK_UNSAFE(text) and not _YAML_UNPRINTABLE(text)


def _yaml_seq(value: Any, indent: str, out: list[str]) -> None:
    inner = indent + "  "
    for item in value:
        kind = type(item)
        if (kind is dict or kind is list or kind is tuple) and item:
            start = len(out)
            (_yaml_map if kind is dict else _yaml_seq)(item, inner, out)
            out[start] = indent + "- " + out[start][len(inner):]  # the item's first line follows its dash
        else:
            out.append(f"{indent}- {_yaml_scalar(item)}\n")
