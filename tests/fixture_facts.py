"""The fixture catalogue (tests/fixture-catalog/) restated by hand, so tests derive exact expectations.

The page snapshots, the built-site, browser, exports and completeness tests run on the fixture catalogue,
never on the real one: editing `catalog/` must not break them. Every count a test asserts on the fixture
is computed here from these constants, never read from the fixture's YAML; tests/catalog/test_fixture_catalog.py
checks that the YAML and these constants agree.
"""

from __future__ import annotations

import itertools
from pathlib import Path

FIXTURE_CATALOG = Path(__file__).resolve().parent / "fixture-catalog"

SERVICE_NAME = "Fake Widget Service"
SOURCE_TITLE = "Fake Widget Service: A Made-Up Source"
SOURCE_SECTION_TITLES = ("Fake overview", "Fake resources", "Fake states", "Fake endpoints", "Fake authentication",
                         "Fake events", "Fake errors", "Fake limits", "Fake versioning")
"""service.yaml source_document: the fixture source's title and its sections' titles, §1 first."""

PATHS: tuple[str | None, ...] = (
    "/fakeWidgetCreate",
    "/fakeWidgetList",
    "/v1/fakeGadgetFetch",
    "/fakeRefundSend",
    "/fakeRefundSend/v2",
    "/fake/mandate/holder",
    None,  # entry 7: no path, in the middle of the listing
    "/v2/fakeGadgetPurge",
)
"""Listing entries in order (position = index + 1); None for the entry without a path."""

LISTING_SIZE = len(PATHS)
DISTINCT_PATHS = len({p for p in PATHS if p is not None})
PATHLESS = tuple(i + 1 for i, p in enumerate(PATHS) if p is None)

SLUGS = {
    "/fakeWidgetCreate": "fakeWidgetCreate",
    "/v1/fakeGadgetFetch": "v1-fakeGadgetFetch",
    "/fakeRefundSend/v2": "fakeRefundSend-v2",
    "/fake/mandate/holder": "fake-mandate-holder",
    None: "entry-7",
}
"""The README's slug scheme, written out for the fixture's interesting cases."""

MARKERS: dict[str | None, tuple[str, str | None]] = {
    "/v1/fakeGadgetFetch": ("start", "v1"),
    "/fakeRefundSend/v2": ("end", "v2"),
    "/v2/fakeGadgetPurge": ("start", "v2"),
    None: ("not-shown", None),
}
"""Version markers (at, token) that are not ("none", None)."""

MARKER_TEXT = {"/v1/fakeGadgetFetch": "v1 at the start of the path", "/fakeRefundSend/v2": "v2 at the end of the path",
               "/v2/fakeGadgetPurge": "v2 at the start of the path"}
"""How an operation page states each marker."""

AREAS = {"fake-widgets": "Fake widget handling", "fake-gadgets": "Fake gadget handling", "fake-refunds": "Fake refunds"}
"""Area id -> name, in service.yaml order."""

AREA_OF: tuple[str | None, ...] = ("fake-widgets", "fake-widgets", "fake-gadgets", "fake-refunds", "fake-refunds",
                                   None, None, "fake-gadgets")
"""Inferred area id by position; entry 6 has a path but no area, entry 7 has neither."""

PLAN_TABLES = {"FAKE 1.0": ("Fake Plan", "FAKElock"), "FAKE 1.1": ("Fake Plan", "FAKElock"),
               "FAKE 2.0": ("Fake Plan Two", "FAKElock")}
"""Version label -> (plan table title, value column)."""

PLAN_NAMES = ("PLAN A", "PLAN B", "PLAN C")

_LETTERS = {"c": "close", "u": "unlimited"}
_SPEC = {
    "FAKE 1.0": {"PLAN A": "cccccccc", "PLAN B": "uuuuuuuu"},
    "FAKE 1.1": {"PLAN A": "ccuuuucu"},
    "FAKE 2.0": {"PLAN A": "ucuuuucc", "PLAN C": "cucucucu"},
}
VALUES: dict[str, dict[str, tuple[str, ...]]] = {
    label: {plan: tuple(_LETTERS[c] for c in letters) for plan, letters in plans.items()}
    for label, plans in _SPEC.items()
}
"""Version label -> plan entry -> lock value by position; a plan entry missing under a label is not listed."""

LABELS = tuple(VALUES)
LABEL_SLUGS = {label: label.replace(" ", "-") for label in LABELS}
PLAN_SLUGS = {name: name.replace(" ", "-") for name in PLAN_NAMES}
PAIRS = tuple(itertools.pairwise(LABELS))
"""Consecutive version labels: each pair has a comparison page."""

NOT_SHOWN = {
    "fake-purpose": ("operation", "Fake purpose", "§1"),
    "fake-payload": ("operation", "Fake payload", "§4 rule 2"),
    "value-meaning": ("operation", "Meaning of the fake lock values", "§8"),
    "fake-resources": ("service", "Fake resources", "§2"),
    "base-url": ("service", "Fake base URL", "§4"),
    "entry-7-path": ("entry", "Path of fake entry 7", "§4"),
    "entry-7-position": ("entry", "Position of fake entry 7", "§4"),
}
"""Register id -> (scope, topic, section), in file order."""
OPERATION_GAPS = tuple(i for i, (scope, _, _) in NOT_SHOWN.items() if scope == "operation")


def value(label: str, plan: str, position: int) -> str | None:
    """The lock value under (label, plan) at a position; None when the label does not list the plan."""
    values = VALUES[label].get(plan)
    return None if values is None else values[position - 1]


def columns() -> list[tuple[str, str]]:
    """Every (version label, plan entry) pair the catalogue lists, in label then plan order."""
    return [(label, plan) for label in LABELS for plan in VALUES[label]]


def changes(a: str, b: str) -> list[tuple[str, int, str, str]]:
    """Values that differ between two labels under a plan entry both list: (plan, position, from, to)."""
    return [(plan, i + 1, x, y) for plan in VALUES[a] if plan in VALUES[b]
            for i, (x, y) in enumerate(zip(VALUES[a][plan], VALUES[b][plan], strict=True)) if x != y]


def unchanged(a: str, b: str) -> list[tuple[str, int, str]]:
    """Values two labels share under a plan entry both list: (plan, position, value)."""
    return [(plan, i + 1, x) for plan in VALUES[a] if plan in VALUES[b]
            for i, (x, y) in enumerate(zip(VALUES[a][plan], VALUES[b][plan], strict=True)) if x == y]


def plans_removed(a: str, b: str) -> list[str]:
    return [p for p in VALUES[a] if p not in VALUES[b]]


def plans_added(a: str, b: str) -> list[str]:
    return [p for p in VALUES[b] if p not in VALUES[a]]


def slug(path: str | None, position: int) -> str:
    """The README's slug scheme: the path without its leading '/', other '/' as '-'; entry-N without a path."""
    return f"entry-{position}" if path is None else path[1:].replace("/", "-")
