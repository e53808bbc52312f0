"""The catalogue's JSON Schemas are kept once. catalog/schema/ is the source (each YAML file names one, for
editors); the package's catalog/schemas/, which `check` validates against however the package is installed, is
a relative link to it in git, so the two cannot drift. A wheel carries them as files (tests/project/test_wheel.py).
Edit the schemas in catalog/schema/."""

from __future__ import annotations

import subprocess
from pathlib import Path

from catalog_docs.layout import SCHEMA_DIR

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "catalog" / "schema"


def test_the_package_links_to_the_schemas_editors_use() -> None:
    assert SCHEMA_DIR.is_symlink(), f"{SCHEMA_DIR} should be a link to {EDITORS}, not a copy of it"
    target = SCHEMA_DIR.readlink()
    assert not target.is_absolute(), f"{SCHEMA_DIR} links to {target}: a clone elsewhere needs a relative link"
    assert SCHEMA_DIR.resolve() == EDITORS.resolve()
    assert sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json")) == sorted(p.name for p in EDITORS.glob("*.json"))


def test_git_holds_each_schema_once() -> None:
    listed = subprocess.run(["git", "ls-files", "-s", "--", "scripts/catalog_docs/catalog/schemas", "catalog/schema"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
    modes = {line.split("\t", 1)[1]: line.split()[0] for line in listed}
    assert modes.pop("scripts/catalog_docs/catalog/schemas", None) == "120000", listed  # the link
    assert sorted(modes) == sorted(f"catalog/schema/{p.name}" for p in EDITORS.glob("*.json")), listed
    assert set(modes.values()) == {"100644"}, listed
