"""Zensical runs no hooks, so it cannot render the catalogue before it builds: on a fresh clone, whose docs/
holds no generated page, a plain `zensical build -f mkdocs.yml` would build a site of one 404 page and exit 0.

mkdocs.yml gives its `docs_dir` through `docs_dir()` below (a YAML tag every engine's loader resolves while
it reads the file). Under mkdocs and ProperDocs it only returns the folder: their hook renders the pages
before each build. Under Zensical it stops the build with one line saying what to run first, when the folder
holds no render's manifest.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType

from catalog_docs.layout import MANIFEST

FIRST = "run `catalog-docs render` first, or build with `make site BUILDER=zensical`, which does"


def _zensical_config_file() -> Path | None:
    """The configuration file Zensical is reading: `parse_mkdocs_config(path)`'s argument, found up the stack
    (the loader that calls us is given the file's text alone)."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "parse_mkdocs_config" and frame.f_globals.get("__name__") == "zensical.config":
            path = frame.f_locals.get("path")
            return Path(path) if isinstance(path, str) else None
        frame = frame.f_back
    return None


def docs_dir(name: str) -> str:
    """mkdocs.yml's docs folder, `name`, as given. Under Zensical, first checks that a render wrote it; exits
    with one line (SystemExit: Zensical prints it and exits 1) when none did."""
    if "zensical.config" not in sys.modules:
        return name
    config = _zensical_config_file()
    base = config.resolve().parent if config is not None else Path.cwd()
    folder = base / name
    if not (folder / MANIFEST).is_file():
        raise SystemExit(f"catalog-docs: {name}/ holds no pages rendered from the catalogue: {FIRST}")
    return name
