"""Zensical runs no plugins, so it cannot add the generated pages itself: it builds from a folder that
`catalog-docs build` (make site) or `catalog-docs watch` (make serve) makes for that build under BUILD_ROOT
(`build/catalog-docs/`): the rendered pages plus copies of the hand-written ones of docs/. Never from docs/.

mkdocs.yml gives its `docs_dir` through `docs_dir()` below (a YAML tag every engine's loader resolves while
it reads the file). Under mkdocs and ProperDocs it only returns the folder: their plugin adds the pages in
memory. Under Zensical it returns the build folder named in the environment by `catalog-docs build` or
`watch` (from the project's root: Zensical takes no absolute docs_dir, nor one under a hidden folder), and
stops a plain `zensical build` with one line saying what to run instead.
"""

from __future__ import annotations

import os
import re
import sys

from catalog_docs.layout import BUILD_ROOT, ENGINE_DOCS_ENV

FIRST = ("Zensical runs no plugins, so it cannot render the catalogue: build with `make site BUILDER=zensical` "
         "(or `catalog-docs build -- zensical build -f mkdocs.yml`), preview with `make serve BUILDER=zensical`")


def docs_dir(name: str) -> str:
    """mkdocs.yml's docs folder, `name`, as given; under Zensical, the build folder made for it. Exits with one
    line (SystemExit: Zensical prints it and exits 1) when Zensical was not started by catalog-docs."""
    if "zensical.config" not in sys.modules:
        return name
    folder = os.environ.get(ENGINE_DOCS_ENV, "")
    if not re.fullmatch(re.escape(BUILD_ROOT) + r"/build-[0-9a-f]{12}", folder):
        raise SystemExit(f"catalog-docs: {FIRST}")
    return folder
