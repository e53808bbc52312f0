"""The in-browser compare of /compare/ (overrides/assets/compare.js) equals `catalog-docs diff --format json`.

compare.js holds a pure function over catalog.json; node runs it on every pair of sides of several
catalogues and its output must equal `comparison_data(compare_sides(...))` record for record.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import compare_sides, parse_side
from catalog_docs.compare.json_format import comparison_data
from catalog_docs.downloads.export import catalog_data
from catalog_docs.errors import CatalogDocsError
from fake_catalogs import FAKE_SPECS, write_catalog
from fixture_facts import FIXTURE_CATALOG

ROOT = Path(__file__).resolve().parents[2]
COMPARE_JS = ROOT / "overrides" / "assets" / "compare.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# Reads {"data": catalog.json, "pairs": [[from, to], ...]} on stdin; prints one result or error per pair.
RUNNER = """
const compare = require(process.argv[1]);
let input = "";
process.stdin.on("data", d => input += d).on("end", () => {
  const {data, pairs} = JSON.parse(input);
  const out = pairs.map(([a, b]) => {
    try { return {result: compare.compareSides(data, a, b)}; } catch (e) { return {error: e.message}; }
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def _node(data: dict, pairs: list[tuple[str, str]]) -> list[dict]:
    assert NODE is not None
    done = subprocess.run([NODE, "-e", RUNNER, str(COMPARE_JS)], input=json.dumps({"data": data, "pairs": pairs}),
                          capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def _python(catalog: Catalog, a: str, b: str) -> dict:
    try:
        return {"result": comparison_data(compare_sides(catalog, parse_side(a, catalog), parse_side(b, catalog)))}
    except CatalogDocsError as exc:
        return {"error": str(exc)}


@pytest.mark.parametrize("name", ["fixture", *FAKE_SPECS])
def test_browser_diff_equals_cli_json_for_every_pair(name: str, tmp_path: Path) -> None:
    folder = FIXTURE_CATALOG if name == "fixture" else write_catalog(tmp_path / "catalog", FAKE_SPECS[name])
    catalog = load_catalog(folder)
    labels = [v.label for v in catalog.versions]
    plans = [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans]
    pairs = [(a, b) for a in labels for b in labels] + [(a, b) for a in plans for b in plans]
    # catalog.json goes through JSON text, exactly as the browser fetches it.
    got = _node(json.loads(json.dumps(catalog_data(catalog))), pairs)
    assert len(got) == len(pairs)
    for (a, b), js in zip(pairs, got, strict=True):
        assert js == _python(catalog, a, b), (a, b)


def test_errors_match_the_cli(tmp_path: Path) -> None:
    catalog = load_catalog(write_catalog(tmp_path / "catalog", FAKE_SPECS["plans-come-and-go"]))
    pairs = [("NOPE", "FAKE 1.0"), ("FAKE 2.0:PLAN B", "FAKE 1.0:PLAN A"), ("FAKE 1.0", "FAKE 2.0:PLAN A"),
             ("FAKE 1.0:a:b", "FAKE 1.0"), ("FAKE 3.0:", "FAKE 1.0:PLAN A"), ("", "FAKE 1.0")]
    got = _node(catalog_data(catalog), pairs)
    for (a, b), js in zip(pairs, got, strict=True):
        assert "error" in js, (a, b)
        assert js == _python(catalog, a, b), (a, b)
