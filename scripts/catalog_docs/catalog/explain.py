"""A JSON Schema error in a reader's words: one small explainer per schema keyword, and one table that picks it.

Each explainer takes the error with its place in the file and yields located problems: what was expected, what
was found, and a hint. A keyword without an explainer of its own gets the generic one.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import ValidationError

from catalog_docs.catalog.located import CatalogFile, PathPart, close_to, node_at, problem
from catalog_docs.catalog.names import name_flaw
from catalog_docs.catalog.nodes import Node
from catalog_docs.errors import Problem

_TYPE_WORDS = {"string": "a text", "integer": "a whole number", "object": "a mapping", "array": "a list",
               "null": "null", "boolean": "true or false", "number": "a number"}
_NULL = "tag:yaml.org,2002:null"
_URL_SAFE = "[A-Za-z0-9._~/-]"
"""Characters that stand for themselves in a URL path and a file name (RFC 3986 unreserved, and '/')."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SchemaError:
    """One schema error, with the file it is in and the node it is about."""

    f: CatalogFile
    err: ValidationError
    node: Node
    path: list[PathPart]
    schema: dict[str, Any]

    @property
    def wanted(self) -> Any:
        """The keyword's value in the schema (the type, the enum, the minimum...)."""
        return self.err.validator_value

    @property
    def instance(self) -> Any:
        return self.err.instance

    def at(self, expected: str, found: str, hint: str = "") -> Problem:
        """A problem about this error's own value."""
        return problem(self.f, self.node, self.path, expected, found, hint)


Explainer = Callable[[SchemaError], Iterator[Problem]]


def _bad_character_hint(schema: dict[str, Any], value: Any) -> str:
    # The hint names the first character that neither the pattern's own classes nor a URL accept; the
    # schemas carry only standard keywords (ajv's strict mode refuses unknown ones), so it is not listed there.
    pattern = schema.get("pattern")
    if not isinstance(pattern, str) or not isinstance(value, str):
        return ""
    classes = [_URL_SAFE, *re.findall(r"\[[^\]]*\]", pattern)]
    literal = re.sub(r"\[[^\]]*\]|\\.", "", pattern)  # characters the pattern names outside classes (§)
    for ch in value:
        if ch not in literal and not any(re.fullmatch(c, ch) for c in classes):
            shown = {" ": "a space", "?": "'?' (it starts a URL query)", "#": "'#' (it starts a URL fragment)"}.get(
                ch, repr(ch))
            return f"{shown} cannot appear in a URL or file name"
    return ""


def _is_name(f: CatalogFile, path: list[PathPart]) -> bool:
    """Whether the value at `path` is a version label or plan entry name (catalog/names.py has their rules)."""
    if f.kind == "service":
        return len(path) == 2 and path[0] in ("version_labels", "plan_entries")
    return f.kind == "version-label" and (path == ["label"] or (len(path) == 2 and path[0] == "plans"))


def _name_hint(f: CatalogFile, path: list[PathPart], value: Any) -> str:
    """For a name the schema refuses, which of the name rules it breaks (`a space at its end; remove it`)."""
    flaw = name_flaw(value) if isinstance(value, str) and _is_name(f, path) else None
    return flaw or ""


def _key_name(e: SchemaError) -> Iterator[Problem]:
    """A mapping key that its `propertyNames` refuses (a plan entry name in a version file, a value's entry key)."""
    key = e.instance
    mark = e.node.key_marks.get(key, (e.node.line, e.node.column))
    yield problem(e.f, mark, [*e.path, key], e.schema.get("title", "a valid key"), f"the key {key!r}",
                  _name_hint(e.f, [*e.path, key], key))


def _type(e: SchemaError) -> Iterator[Problem]:
    types = e.wanted if isinstance(e.wanted, list) else [e.wanted]
    expected = " or ".join(str(_TYPE_WORDS.get(t, t)) for t in types)
    node, hint = e.node, ""
    if "string" in types and node.kind == "scalar" and node.raw and not node.refused:
        if node.tag == _NULL:
            hint = f'`{node.raw}` means nothing in YAML; write the text, quoted if it is "{node.raw}" itself'
        else:
            hint = f'quote it to keep it as text: "{node.raw}"'
    yield e.at(expected, node.describe(), hint)


def _one_of(e: SchemaError) -> Iterator[Problem]:
    options = e.wanted if e.err.validator == "enum" else [e.wanted]
    words = [json.dumps(o) if not isinstance(o, str) else o for o in options]
    expected = e.schema.get("title") or ("one of " + ", ".join(words) if len(words) > 1 else words[0])
    node = e.node
    hint = close_to(node.raw if node.kind == "scalar" else None, words)
    if not hint and node.kind == "scalar" and node.tag != "tag:yaml.org,2002:str" and node.raw in words:
        hint = f'quote it: "{node.raw}"'
    yield e.at(expected, node.describe(), hint)


def _required(e: SchemaError) -> Iterator[Problem]:
    if not isinstance(e.instance, dict):
        return
    unknown = [k for k in e.instance if k not in e.schema.get("properties", {})]
    for name in e.wanted:
        if name in e.instance:
            continue
        if difflib.get_close_matches(name, unknown, n=1, cutoff=0.6):
            continue  # a misspelt key: the unknown-key problem names both and says which to fix
        yield problem(e.f, e.node, [*e.path, name], f"the key {name!r}", "no such key", "add it; it is required here")


def _unknown_keys(e: SchemaError) -> Iterator[Problem]:
    allowed = sorted(e.schema.get("properties", {}))
    for key in e.instance:
        if key not in allowed:
            mark = e.node.key_marks.get(key, (e.node.line, e.node.column))
            yield problem(e.f, mark, [*e.path, key], "one of the keys " + ", ".join(allowed),
                          f"the unknown key {key!r}", close_to(key, allowed))


def _pattern(e: SchemaError) -> Iterator[Problem]:
    yield e.at(e.schema.get("title", f"text matching {e.wanted}"), e.node.describe(),
               _name_hint(e.f, e.path, e.instance) or _bad_character_hint(e.schema, e.instance))


def _too_few(e: SchemaError) -> Iterator[Problem]:
    yield e.at(f"at least {e.wanted} item(s)", f"{len(e.instance)}")


def _too_many(e: SchemaError) -> Iterator[Problem]:
    yield e.at(f"at most {e.wanted} items", f"{len(e.instance)} items")


def _too_long(e: SchemaError) -> Iterator[Problem]:
    yield e.at(f"text of at most {e.wanted} characters", f"{len(e.instance)} characters", "shorten it")


def _empty(e: SchemaError) -> Iterator[Problem]:
    yield e.at("a non-empty text", "an empty text")


def _repeated(e: SchemaError) -> Iterator[Problem]:
    yield e.at("each item once", "a repeated item")


def _too_small(e: SchemaError) -> Iterator[Problem]:
    yield e.at(f"a number of at least {e.wanted}", e.node.describe())


def _other(e: SchemaError) -> Iterator[Problem]:
    yield e.at(f"a value allowed by '{e.err.validator}'", e.err.message)


EXPLAINERS: dict[str, Explainer] = {
    "type": _type,
    "enum": _one_of,
    "const": _one_of,
    "required": _required,
    "additionalProperties": _unknown_keys,
    "pattern": _pattern,
    "minItems": _too_few,
    "minProperties": _too_few,
    "maxItems": _too_many,
    "maxProperties": _too_many,
    "maxLength": _too_long,
    "minLength": _empty,
    "uniqueItems": _repeated,
    "minimum": _too_small,
}
"""Each schema keyword the catalogue's schemas use, and its explainer (others: `_other`)."""


def explain(f: CatalogFile, err: ValidationError) -> Iterator[Problem]:
    """The problems one schema error stands for, placed in `f`."""
    path: list[PathPart] = list(err.absolute_path)
    node = node_at(f.root, path)
    e = SchemaError(f=f, err=err, node=node, path=path, schema=err.schema if isinstance(err.schema, dict) else {})
    if "propertyNames" in err.schema_path and node.kind == "map" and isinstance(err.instance, str):
        return _key_name(e)  # whatever keyword refused it, the value is a key
    return EXPLAINERS.get(str(err.validator), _other)(e)
