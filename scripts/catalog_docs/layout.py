"""Names and folders that several stages share. A light module (standard library only), so the
render fingerprint in `incremental` can use them without importing Jinja or jsonschema."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_DIR = PACKAGE_DIR / "catalog" / "schemas"
"""The JSON Schemas every catalogue is validated against. Git holds them once, in the repository's catalog/schema/
(each YAML file names one, for editors); this folder is a relative link to it, and a wheel built from the checkout
carries them as files, so the package works however it is installed (tests/catalog/test_schema_copies.py,
tests/project/test_wheel.py)."""
DOWNLOAD_SCHEMA_DIR = PACKAGE_DIR / "schemas"
"""The JSON Schemas of the downloads (`<name>.schema.json`), published as /downloads/<name>.schema.json."""
MANIFEST = ".catalog-docs-manifest.json"
"""The render's record, in the output folder, of the files it wrote (and of its fingerprint)."""
GENERATED_ROOTS = frozenset({"index.md", "legend.md", "operations", "versions", "plans", "compare", "matrix",
                             "not-shown", "sources", "downloads", "changelog", "feed.xml"})
"""The first path segment of every file the render writes into docs/ (as .gitignore lists them). The writer
writes, replaces and removes files only under these: a manifest or journal found in docs/ that names anything
else (docs/README.md, a hand-written page) was not written by catalog-docs, and nothing it names is touched.
tests/site/test_planted_docs.py holds the render's pages and .gitignore to this list."""
