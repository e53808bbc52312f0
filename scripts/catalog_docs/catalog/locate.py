"""Where the catalogue is: one rule for every command, so each works the same from any folder of the checkout.

The project is the nearest folder, starting at the current one and going up, that holds a catalogue: a
`catalog/` folder holding service.yaml, listing.yaml, not-shown.yaml or versions/. The checkout has other folders
named `catalog/` (the package's code in scripts/catalog_docs/, its tests in tests/), which a name alone would take
for it. The project's `catalog/` is the catalogue and its `docs/` holds the hand-written pages. `--catalog DIR` names
another catalogue. No git is needed (a downloaded copy of the repository works too).
"""

from __future__ import annotations

import os
from pathlib import Path

from catalog_docs.catalog.files import FIXED_FILES, VERSIONS_DIR
from catalog_docs.errors import CatalogDocsError

CATALOG = "catalog"
DOCS = "docs"


CATALOGUE_ENTRIES = (*FIXED_FILES, VERSIONS_DIR)
"""What a catalogue folder holds (any one of them is enough: a catalogue missing a file is still found, and
`check` names what is missing)."""


def holds_catalogue(folder: Path) -> bool:
    """Whether `folder` is a catalogue folder by what it holds, not by its name."""
    return folder.is_dir() and any(os.path.lexists(folder / name) for name in CATALOGUE_ENTRIES)


def refuse_linked_catalog(project: Path) -> None:
    """Refuse a project whose `catalog/` is a symbolic link: the catalogue is a folder of the project, and a link
    would have every command and watcher read (and new-label write) wherever it points."""
    if (project / CATALOG).is_symlink():
        raise CatalogDocsError(f"{project / CATALOG} is a symbolic link: the catalogue must be a folder of the project "
                               "(a link is never followed); name a catalogue elsewhere with --catalog DIR")


def find_project(cwd: Path | None = None) -> Path | None:
    """The nearest folder at or above `cwd` whose `catalog/` folder holds a catalogue, or None; a `catalog/`
    that is a link is refused (refuse_linked_catalog)."""
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if holds_catalogue(folder / CATALOG):
            refuse_linked_catalog(folder)
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
        raise CatalogDocsError(f"no {CATALOG}/ folder in {start} or any folder above it (a catalogue folder holds "
                               f"{', '.join(CATALOGUE_ENTRIES)}); run catalog-docs inside the repository, or pass "
                               "--catalog DIR")
    return _near(project / CATALOG, cwd)


def out_dir_beside(catalog: Path) -> Path:
    """The hand-written pages that go with a catalogue: `docs/` beside the catalogue folder (the project's
    `docs/` for the catalogue found; `other/docs/` for `--catalog other/catalog`, never the `docs/` of the
    project the command happens to run in), relative to the current folder. Read, never written."""
    return Path(os.path.relpath(catalog.resolve().parent / DOCS))


def _near(path: Path, cwd: Path | None) -> Path:
    return Path(os.path.relpath(path)) if cwd is None else path


def shown_path(path: Path) -> str:
    """How a message names a file: by its path from the current folder (`catalog/versions/X.yaml` at the project's
    root, `../catalog/versions/X.yaml` in tests/, as `find_catalog_dir` gives the folder), so it opens from where
    the command ran. A relative path is given its shortest form (`../versions/X.yaml` in catalog/versions/ is
    `X.yaml`); an absolute one is made relative only when it lies under the current folder."""
    if path.is_absolute():
        try:
            return str(path.relative_to(Path.cwd()))
        except ValueError:
            return str(path)
    # The current folder is a physical path, so undoing a '..' of `path` on it is what the system does too.
    return os.path.relpath(os.path.normpath(Path.cwd() / path))
