"""Names and folders that several stages share. A light module (standard library only), so the
render fingerprint in `incremental` can use them without importing Jinja or jsonschema."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_DIR = PACKAGE_DIR / "catalog" / "schemas"
"""The JSON Schemas every catalogue is validated against. The package ships them, so it works however it is
installed (a wheel, an editable install, a catalogue anywhere); the repository's catalog/schema/ holds the same
files for editors (each YAML file names one), and tests/catalog/test_schema_copies.py keeps the two identical."""
DOWNLOAD_SCHEMA_DIR = PACKAGE_DIR / "schemas"
"""The JSON Schemas of the downloads (`<name>.schema.json`), published as /downloads/<name>.schema.json."""
MANIFEST = ".catalog-docs-manifest.json"
"""The render's record, in the output folder, of the files it wrote (and of its fingerprint)."""
