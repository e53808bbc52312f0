"""The lock-matrix CSV as a spreadsheet reads it: no cell can start a formula.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and some read a leading tab or carriage
return the same way). Every CSV cell is a position, a method, a path, `not shown`, a LABEL:PLAN column name or
a lock value, and the schemas allow each only in a form that starts with a letter, a digit or `/`: checked
here from the schemas themselves, for every string their patterns accept, and on the exported files.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import NOT_SHOWN_CELL, lock_matrix_csv
from download_fixtures import DOWNLOAD_SPECS, write_download_catalog
from fixture_facts import FIXTURE_CATALOG

SCHEMAS = Path(__file__).resolve().parents[2] / "catalog" / "schema"
FORMULA_START = re.compile(r"^[=+\-@\t\r]")


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


ENTRY = schema("listing")["properties"]["entries"]["items"]["properties"]
SERVICE = schema("service")["properties"]
PATTERNS = {
    "path": ENTRY["path"]["pattern"],
    "label": schema("version-label")["properties"]["label"]["pattern"],
    "plan entry": SERVICE["plan_entries"]["items"]["pattern"],
}
ENUMS = {
    "method": ENTRY["method"]["enum"],
    "lock value": SERVICE["lock_values"]["properties"]["values"]["items"]["enum"],
    "not shown": [NOT_SHOWN_CELL],
}


@pytest.mark.parametrize("field", list(PATTERNS))
@given(data=st.data())
def test_no_text_the_schema_accepts_starts_a_formula(field: str, data: st.DataObject) -> None:
    text = data.draw(st.from_regex(PATTERNS[field], fullmatch=True))
    assert not FORMULA_START.match(text), (field, text)


def test_no_fixed_word_starts_a_formula() -> None:
    assert [word for words in ENUMS.values() for word in words if FORMULA_START.match(word)] == []


@pytest.mark.parametrize("spec", ["fixture", *DOWNLOAD_SPECS])
def test_no_exported_cell_starts_a_formula(spec: str, tmp_path: Path) -> None:
    folder = FIXTURE_CATALOG if spec == "fixture" else write_download_catalog(tmp_path / "catalog", spec)
    rows = list(csv.reader(io.StringIO(lock_matrix_csv(load_catalog(folder)))))
    cells = [cell for row in rows for cell in row]
    assert cells and [cell for cell in cells if FORMULA_START.match(cell)] == []
