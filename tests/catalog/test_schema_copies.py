"""The catalogue's JSON Schemas exist twice: in the package (what `check` validates against, however the
package is installed) and in the repository's catalog/schema/ (what each YAML file names for editors). They
must be the same files, byte for byte."""

from __future__ import annotations

from pathlib import Path

from catalog_docs.layout import SCHEMA_DIR

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "catalog" / "schema"


def test_the_package_ships_exactly_the_schemas_editors_use() -> None:
    shipped = {p.name: p.read_bytes() for p in SCHEMA_DIR.glob("*.json")}
    edited = {p.name: p.read_bytes() for p in EDITORS.glob("*.json")}
    assert shipped, f"no schemas in {SCHEMA_DIR}"
    assert sorted(shipped) == sorted(edited), f"{SCHEMA_DIR} and {EDITORS} hold different files"
    differ = [name for name in shipped if shipped[name] != edited[name]]
    assert not differ, (f"{differ} differ: edit catalog/schema/, then copy it over "
                        f"(cp catalog/schema/*.schema.json {SCHEMA_DIR.relative_to(ROOT)}/)")
