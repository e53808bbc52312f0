"""mkdocs hook (thin shell): render the catalogue into docs/ before every build and every `serve` reload
(skipped in milliseconds when nothing changed since the last render; see catalog_docs.site.incremental).

A broken catalogue stops `mkdocs build`, and so do a docs/ whose leftovers the writer refuses to act on (a
planted journal, say) and a site folder that cannot be written: each as one line, no traceback. Under
`mkdocs serve` a broken catalogue does not: the server keeps the last good pages and shows the errors on each
(see catalog_docs.site.preview).

The render itself lives in `catalog_docs.site.render`; `catalog-docs render` runs the same function without
mkdocs, so any builder that reads mkdocs.yml (Zensical included) can build pre-rendered pages.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.exceptions import PluginError

from catalog_docs.catalog.drafts import find_drafts, refuse_drafts
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.site import preview
from catalog_docs.site.incremental import render_if_changed
from catalog_docs.site.write import WriteResult, check_writable_folder

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer

log = logging.getLogger("mkdocs.hooks.catalog_docs")


def on_startup(command: str, dirty: bool, **_kwargs: object) -> None:
    preview.start(command=command, dirty=dirty)


def on_serve(server: LiveReloadServer, config: MkDocsConfig, **_kwargs: object) -> LiveReloadServer:
    """One save, one rebuild: the server stops reacting to the pages the render itself writes."""
    preview.watch_docs_quietly(server, Path(config.docs_dir))
    return server


def on_pre_build(config: MkDocsConfig, **_kwargs: object) -> None:
    """Render before mkdocs collects files; a bad catalogue stops the build before anything is written."""
    catalog_dir = Path(config.config_file_path).parent / "catalog"
    if not preview.serving():  # serve builds into a temporary folder of its own
        _site_dir_writable(Path(config.site_dir))
    result = _render(catalog_dir, config)
    if result is False:
        return  # serving: the errors are shown on every page
    if preview.serving():
        preview.record([], Path(config.site_dir))
        preview.rendered(Path(config.docs_dir))
        preview.record_drafts([f"{d.label} ({d.file})" for d in find_drafts(catalog_dir)])
    elif config.strict:
        try:
            refuse_drafts(catalog_dir)
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None
    _say(result)


def _site_dir_writable(site_dir: Path) -> None:
    try:
        check_writable_folder(site_dir, "the built site")
    except CatalogDocsError as exc:
        raise PluginError(str(exc)) from None


def _render(catalog_dir: Path, config: MkDocsConfig) -> WriteResult | Literal[False] | None:
    """The render (None: skipped, nothing changed); while serving, False after errors it has shown. Outside
    `serve` every error is a PluginError: mkdocs prints its one line and stops."""
    site_dir = Path(config.site_dir)
    try:
        # While serving, a skipped render still readies the reuse of pages for the first edit (incremental).
        return render_if_changed(catalog_dir, Path(config.docs_dir), directory_urls=config.use_directory_urls,
                                 keep_warm=preview.serving())
    except CatalogInvalid as exc:
        if not preview.serving():
            raise PluginError("the catalogue has errors; nothing was rendered\n" + exc.report()) from None
        preview.record([str(p) for p in exc.problems], site_dir)
    except CatalogDocsError as exc:  # a refused recovery among them: the journal named, with what to do
        if not preview.serving():
            raise PluginError(str(exc)) from None
        preview.record([str(exc)], site_dir)
    except Exception as exc:  # a bug (in a template, say): while serving, show it rather than hang every request
        if not preview.serving():
            raise
        traceback.print_exc()
        preview.record([f"catalog-docs render failed: {type(exc).__name__}: {exc}"], site_dir)
    return False


def _say(result: WriteResult | None) -> None:
    if result is None:
        log.info("catalog-docs: nothing changed since the last render")
    else:
        log.info("catalog-docs: %d pages written, %d unchanged, %d removed",
                 len(result.written), result.unchanged, len(result.removed))


def on_post_page(output: str, **_kwargs: object) -> str:
    return preview.with_banner(output)


def on_post_template(output_content: str, **_kwargs: object) -> str:
    return preview.with_banner(output_content)
