"""mkdocs hook (thin shell): render the catalogue into docs/ before every build and every `serve` reload
(skipped in milliseconds when nothing changed since the last render; see catalog_docs.incremental).

The render itself lives in `catalog_docs.render`; `catalog-docs render` runs the same function without
mkdocs, so any builder that reads mkdocs.yml (Zensical included) can build pre-rendered pages.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.exceptions import PluginError

from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.incremental import render_if_changed

log = logging.getLogger("mkdocs.hooks.catalog_docs")


def on_pre_build(config, **_kwargs) -> None:  # noqa: ANN001 - mkdocs passes its config object
    """Render before mkdocs collects files; a bad catalogue stops the build before anything is written."""
    catalog_dir = Path(config.config_file_path).parent / "catalog"
    try:
        result = render_if_changed(catalog_dir, Path(config.docs_dir))
    except CatalogInvalid as exc:
        raise PluginError("the catalogue has errors; nothing was rendered\n" + exc.report()) from None
    except CatalogDocsError as exc:
        raise PluginError(str(exc)) from None
    if result is None:
        log.info("catalog-docs: nothing changed since the last render")
        return
    log.info("catalog-docs: %d pages written, %d unchanged, %d removed",
             len(result.written), result.unchanged, len(result.removed))
