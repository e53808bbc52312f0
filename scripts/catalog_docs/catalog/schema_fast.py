"""A JSON Schema validator with a fast path for the lock-value maps, which hold almost all of a large catalogue.

The generic validator descends into every value of every `values` map (80,000 of them for 1,000
operations, 20 labels and 4 plan entries) and spends most of a large catalogue's load time there. This
wrapper first checks each map with a plain loop against the rule the schema itself states for it (key
pattern, allowed values, minimum size) and, when every item passes, hands jsonschema the map cut to one
item: the schema still checks the map's type, its size rule and that item. A map with any doubtful item is
left whole, so jsonschema reports each error exactly as it would without the fast path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError


@lru_cache(maxsize=256)
def ecma_regex(pattern: str) -> re.Pattern[str]:
    """A JSON Schema `pattern` compiled with ECMAScript's meaning of `$`, as ajv and every other JSON Schema
    tool reads it: the very end of the text. Python's `$` also matches before a final newline, so with
    it `"UPI_N 3.0.0\\n"` would pass `^...$` and become a file name; here an unescaped `$` outside a
    character class becomes `\\Z`."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "$":
            ch = r"\Z"
        out.append(ch)
        i += 1
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# jsonschema's validators.extend is unannotated; it returns a validator class like the one it extends.
AnchoredValidator = validators.extend(Draft202012Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]
"""Draft 2020-12 with `pattern` read as ECMAScript reads it (see ecma_regex); `propertyNames` uses it too."""

_VALUES_KEYWORDS = {"type", "minProperties", "additionalProperties", "propertyNames"}
_ANNOTATIONS = {"description", "title", "$comment"}


def _checks(schema: dict[str, Any]) -> set[str]:
    """The keywords of a sub-schema that constrain: annotations and `x-` extension keywords check nothing."""
    return {k for k in schema if k not in _ANNOTATIONS and not k.startswith("x-")}


def values_rule(schema: Any) -> tuple[re.Pattern[str], tuple[str, ...], int] | None:
    """The rule of a plan's `values` map as the schema states it: (key pattern, allowed values, minimum
    size); None when the schema has no such map or says more than the fast path knows how to check."""
    try:
        sub = schema["properties"]["plans"]["additionalProperties"]["properties"]["values"]
        names, each = sub["propertyNames"], sub["additionalProperties"]
        if (_checks(sub) <= _VALUES_KEYWORDS and sub.get("type") == "object" and _checks(names) <= {"pattern"}
                and _checks(each) <= {"enum"} and all(type(v) is str for v in each["enum"])):
            return ecma_regex(names["pattern"]), tuple(each["enum"]), int(sub.get("minProperties", 0))
    except (KeyError, TypeError, AttributeError, ValueError, re.error):
        pass
    return None


class ValuesFastPath:
    """Wraps a Draft 2020-12 validator; `iter_errors` yields exactly the errors the wrapped one would."""

    def __init__(self, validator: Any) -> None:
        self.validator = validator
        self.schema = validator.schema
        self.rule = values_rule(validator.schema)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        """Validate plain data (as `Node.plain()` gives it, so it may be changed in place)."""
        errors: Iterator[ValidationError] = self.validator.iter_errors(self._trimmed(instance))
        return errors

    def _trimmed(self, instance: Any) -> Any:
        plans = instance.get("plans") if isinstance(instance, dict) else None
        if self.rule is None or not isinstance(plans, dict):
            return instance
        pattern, allowed, least = self.rule
        for plan in plans.values():
            values = plan.get("values") if isinstance(plan, dict) else None
            if not isinstance(values, dict) or len(values) < max(least, 1):
                continue
            if all(type(k) is str and pattern.search(k) for k in values) and all(
                    type(v) is str and v in allowed for v in values.values()):
                first = next(iter(values))
                plan["values"] = {first: values[first]}
        return instance
