"""Where the catalogue is: one rule for every command, so each works the same from any folder of the checkout.

The project is the nearest folder, starting at the current one and going up, that holds a `catalog/`
folder; its `catalog/` is the catalogue and its `docs/` receives the rendered pages. `--catalog DIR`
and `--out DIR` name other folders. No git is needed (a downloaded copy of the repository works too).
"""

from __future__ import annotations

import os
from pathlib import Path

from catalog_docs.errors import CatalogDocsError

CATALOG = "catalog"
DOCS = "docs"


def find_project(cwd: Path | None = None) -> Path | None:
    """The nearest folder at or above `cwd` that holds a `catalog/` folder, or None."""
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CATALOG).is_dir():
            return folder
    return None


def find_catalog_dir(explicit: Path | None, cwd: Path | None = None) -> Path:
    """The catalogue folder: the one given, else `catalog/` of the project around `cwd` (relative to the
    current folder when `cwd` is not given, so error locations read `../catalog/listing.yaml:3:5`)."""
    if explicit is not None:
        if not explicit.is_dir():
            raise CatalogDocsError(f"{explicit}: no such catalogue folder")
        return explicit
    project = find_project(cwd)
    if project is None:
        start = (cwd or Path.cwd()).resolve()
        raise CatalogDocsError(f"no {CATALOG}/ folder in {start} or any folder above it; run catalog-docs "
                               f"inside the repository, or pass --catalog DIR")
    return _near(project / CATALOG, cwd)


def default_out_dir(cwd: Path | None = None) -> Path:
    """Where `clean` removes pages from when --out is not given: `docs/` of the project around `cwd` (else ./docs)."""
    project = find_project(cwd)
    return _near(project / DOCS, cwd) if project is not None else (cwd or Path()) / DOCS


def out_dir_beside(catalog: Path) -> Path:
    """Where `render` writes when --out is not given: `docs/` beside the catalogue folder it renders (the
    project's `docs/` for the catalogue found; `other/docs/` for `--catalog other/catalog`, never the
    `docs/` of the project the command happens to run in), relative to the current folder."""
    return Path(os.path.relpath(catalog.resolve().parent / DOCS))


def _near(path: Path, cwd: Path | None) -> Path:
    return Path(os.path.relpath(path)) if cwd is None else path
