"""Names and folders that several stages share. A light module (standard library only), imported by
mkdocs.yml's docs_dir tag without Jinja or jsonschema."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_DIR / "site" / "templates"
"""The page templates (Jinja2), which the preview loops watch as they watch the catalogue."""
SCHEMA_DIR = PACKAGE_DIR / "catalog" / "schemas"
"""The JSON Schemas every catalogue is validated against. Git holds them once, in the repository's catalog/schema/
(each YAML file names one, for editors); this folder is a relative link to it, and a wheel built from the checkout
carries them as files, so the package works however it is installed (tests/catalog/test_schema_copies.py,
tests/project/test_wheel.py)."""
DOWNLOAD_SCHEMA_DIR = PACKAGE_DIR / "schemas"
"""The JSON Schemas of the downloads (`<name>.schema.json`), published as /downloads/<name>.schema.json."""
BUILD_ROOT = "build/catalog-docs"
"""Where, in the project, the tool makes its own build folders (for engines without plugins); git ignores
`build/`, and `catalog-docs clean` removes this folder of it (not hidden: Zensical reads no docs folder under a
hidden one). Nothing of the tool's is ever written into docs/."""
ENGINE_DOCS_ENV = "CATALOG_DOCS_ENGINE_DOCS"
"""The environment variable through which `catalog-docs build` and `catalog-docs watch` tell the engine they run
(Zensical) which build folder to read as its docs folder (see site/zensical_guard.py)."""
