"""mkdocs hook (thin shell): render the catalogue into docs/ before every build and every `serve` reload
(skipped in milliseconds when nothing changed since the last render; see catalog_docs.site.incremental).

A broken catalogue stops `mkdocs build`. Under `mkdocs serve` it does not: the server keeps the last good
pages and shows the errors on each (see catalog_docs.site.preview).

The render itself lives in `catalog_docs.site.render`; `catalog-docs render` runs the same function without
mkdocs, so any builder that reads mkdocs.yml (Zensical included) can build pre-rendered pages.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from mkdocs.exceptions import PluginError

from catalog_docs.catalog.drafts import find_drafts, refuse_drafts
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.site import preview
from catalog_docs.site.incremental import render_if_changed

log = logging.getLogger("mkdocs.hooks.catalog_docs")


def on_startup(command, dirty, **_kwargs) -> None:
    preview.start(command=command, dirty=dirty)


def on_serve(server, config, **_kwargs):
    """One save, one rebuild: the server stops reacting to the pages the render itself writes."""
    preview.watch_docs_quietly(server, Path(config.docs_dir))
    return server


def on_pre_build(config, **_kwargs) -> None:
    """Render before mkdocs collects files; a bad catalogue stops the build before anything is written."""
    catalog_dir = Path(config.config_file_path).parent / "catalog"
    try:
        # While serving, a skipped render still readies the reuse of pages for the first edit (incremental).
        result = render_if_changed(catalog_dir, Path(config.docs_dir), directory_urls=config.use_directory_urls,
                                   keep_warm=preview.serving())
    except CatalogInvalid as exc:
        if not preview.serving():
            raise PluginError("the catalogue has errors; nothing was rendered\n" + exc.report()) from None
        preview.record([str(p) for p in exc.problems], Path(config.site_dir))
        return
    except CatalogDocsError as exc:
        if not preview.serving():
            raise PluginError(str(exc)) from None
        preview.record([str(exc)], Path(config.site_dir))
        return
    except Exception as exc:  # a bug (in a template, say): while serving, show it rather than hang every request
        if not preview.serving():
            raise
        traceback.print_exc()
        preview.record([f"catalog-docs render failed: {type(exc).__name__}: {exc}"], Path(config.site_dir))
        return
    if preview.serving():
        preview.record([], Path(config.site_dir))
        preview.rendered(Path(config.docs_dir))
        preview.record_drafts([f"{d.label} ({d.file})" for d in find_drafts(catalog_dir)])
    elif config.strict:
        try:
            refuse_drafts(catalog_dir)
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None
    if result is None:
        log.info("catalog-docs: nothing changed since the last render")
        return
    log.info("catalog-docs: %d pages written, %d unchanged, %d removed",
             len(result.written), result.unchanged, len(result.removed))


def on_post_page(output, **_kwargs) -> str:
    return preview.with_banner(output)


def on_post_template(output_content, **_kwargs) -> str:
    return preview.with_banner(output_content)
