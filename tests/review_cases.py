"""Pull requests as a reviewer meets them, as pairs of fake catalogues (earlier, later) for the review gate and
the pull-request comment (tests/compare/test_comment.py, test_gate.py, test_rules.py).

- `decision_pair`: one plan entry no longer listed under a published label (its 23 values go with it) and two
  values changed under another plan entry: 26 records, two decisions.
- `mass_pair`: a synthetic mass change, every value of many labels and plan entries flipped and one plan entry
  removed from each label: thousands of records, far more than one comment holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from fake_catalogs import write_catalog

GATE = ("value-changed:published,value-removed:published,plan-removed:published,plan-changed:published,"
        "label-removed:published,label-changed:published,entry-removed,entry-changed")
"""The policy of .github/workflows/ci.yml (tests/compare/test_comment.py holds the two to the same text)."""


def _entries(n: int) -> list[str]:
    return [f"/fakeOperation{i:03d}" for i in range(1, n + 1)]


def _flip(letters: str, at: set[int]) -> str:
    return "".join(("u" if x == "c" else "c") if i in at else x for i, x in enumerate(letters))


def decision_spec() -> tuple[dict[str, Any], dict[str, Any]]:
    """The specs of `decision_pair`."""
    entries = _entries(23)
    a, b = "c" * 12 + "u" * 11, "u" * 23
    old = {"entries": entries, "labels": {"FAKE 1.0": {"PLAN A": a, "PLAN B": b},
                                          "FAKE 1.1": {"PLAN A": a, "PLAN B": b}}}
    new = {"entries": entries, "labels": {"FAKE 1.0": {"PLAN A": a, "PLAN B": b},
                                          "FAKE 1.1": {"PLAN A": _flip(a, {0, 1})}}}
    return old, new


def decision_pair(tmp: Path) -> tuple[Catalog, Catalog]:
    old, new = decision_spec()
    return (load_catalog(write_catalog(tmp / "old", old)), load_catalog(write_catalog(tmp / "new", new)))


def mass_pair(tmp: Path, labels: int = 12, plans: int = 4, entries: int = 50) -> tuple[Catalog, Catalog]:
    """Every value of `labels` x `plans` x `entries` flipped, and the last plan entry of each label removed."""
    names = _entries(entries)
    columns = {f"PLAN {chr(65 + p)}": "".join("cu"[(p + i) % 2] for i in range(entries)) for p in range(plans)}
    old = {"entries": names, "labels": {f"FAKE {n}.0": dict(columns) for n in range(1, labels + 1)}}
    flipped = {p: _flip(v, set(range(entries))) for p, v in list(columns.items())[:-1]}
    new = {"entries": names, "labels": {f"FAKE {n}.0": dict(flipped) for n in range(1, labels + 1)}}
    return (load_catalog(write_catalog(tmp / "old", old)), load_catalog(write_catalog(tmp / "new", new)))
