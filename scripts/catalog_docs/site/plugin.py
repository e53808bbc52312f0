"""The mkdocs plugin `catalog-docs` (thin shell; mkdocs and ProperDocs): the generated pages and downloads join
the site in memory, with `File.generated` in `on_files`, as mkdocs-gen-files and Material's blog add theirs.
Nothing is written into docs/, which holds only what people put there: their pages are built beside the
generated ones, and a hand-written file at a URL the catalogue generates stops the build, naming both.

A broken catalogue stops `mkdocs build` with its errors, and so does a docs/ no engine can read safely
(site/handwritten.py) and a site folder that cannot be written: each as one line per problem, no traceback.
Under `mkdocs serve` a broken catalogue does not: the server keeps the last good pages, from memory, and shows
the errors on each (site/preview.py).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import traceback
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files

from catalog_docs import writing
from catalog_docs.catalog.drafts import refuse_drafts
from catalog_docs.catalog.locate import refuse_linked_catalog
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.escape import for_terminal
from catalog_docs.layout import SITE_URL_ENV, TEMPLATES
from catalog_docs.site import preview
from catalog_docs.site.ahead import Ahead
from catalog_docs.site.feed import site_address
from catalog_docs.site.fences import lift_blocks, restore_blocks
from catalog_docs.site.handwritten import hand_written, refuse_collisions, site_own_files
from catalog_docs.site.pages import reused_drafts, site_files, site_files_apart
from catalog_docs.site.twins import TWIN_PREFIX, missing_twins, split_twins

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.plugins.catalog_docs")

class GeneratedFile(File):
    """A generated page or download, its text in memory. mkdocs counts every such file modified on every
    rebuild; under `serve --dirty` one whose text is the last build's, and whose built file is still there, is
    not, so one edit rebuilds only the pages whose text it changed."""

    unchanged = False
    _modified: bool | None = None

    def is_modified(self) -> bool:
        # Asked twice a build (read, then write) of each of a thousand files: the built file is looked for once.
        if self._modified is None:
            self._modified = not self.unchanged or not os.path.isfile(self.abs_dest_path)  # noqa: PTH113  # no Path object per file
        return self._modified

    def kept_for_next_build(self) -> bool:
        """Whether a server's next build, whose text for this file is this build's, may take it again as it is,
        with its page: its built page is still there, so mkdocs will neither read nor write it. The page lets go
        of what its last build left (Markdown, HTML, table of contents, links), which a build reads only on the
        pages it builds."""
        if self.page is None:
            return False
        self.unchanged, self._modified = True, None
        if self.is_modified():
            return False
        page = self.page
        page.markdown = page.content = None
        page.toc = []  # type: ignore[assignment]  # mkdocs types it as its TableOfContents, a list
        page.links_to_anchors = page.present_anchor_ids = None
        return True

    def copy_file(self, dirty: bool = False) -> None:
        """Write a download into the site, then let its text go: at 10,000 operations catalog.json and
        openapi.yaml are 170 MB of text, which the rest of the build need not hold. Under `serve` the writing
        goes on in a thread while mkdocs builds the pages (a write lets other threads run), and the build waits
        for it at its end (_wait_for_writes): 0.03 s of an edit at 1,000 operations."""
        if not preview.serving():
            super().copy_file(dirty)
            self.content_bytes = b""
            return
        if dirty and not self.is_modified():
            return
        data, target = self.content_bytes, self.abs_dest_path
        self.content_bytes = b""
        failed: list[OSError] = []
        writer = threading.Thread(target=_write, args=(data, self.dest_dir, self.dest_uri, failed),
                                  name="catalog-docs-write", daemon=True)
        writer.start()
        _writes.append((writer, target, failed))

    def release(self) -> None:
        """Let a page's text go once mkdocs has read it (into page.markdown, a copy without its front matter):
        a build holds every page's Markdown once, as a build of files on disk does, not twice."""
        self.content_bytes = b""


def twin_file(config: MkDocsConfig, path: str, text: str) -> File:
    """A page's Markdown twin as a file mkdocs copies, not a page it builds: `File.generated` makes it under a name
    that is not Markdown (`is_documentation_page()` reads the name's ending), and its documented `dest_uri` puts it
    at the twin's address (`operations/x/index.md`)."""
    file = File.generated(config, TWIN_PREFIX + path + ".txt", content=text)
    file.dest_uri = path
    return file


def _twin_files(config: MkDocsConfig, texts: dict[str, str], twins: dict[str, str]) -> dict[str, File]:
    """The twins as files by their address; a build (not a server) fails when a generated page has none."""
    missing = missing_twins([rel for rel in texts if rel.endswith(".md")], twins, config.use_directory_urls)
    if missing and not preview.serving():
        raise PluginError("catalog-docs: these pages have no Markdown twin (site/twins.py); nothing was built: "
                          + ", ".join(for_terminal(rel) for rel in missing))
    return {path: twin_file(config, path, text) for path, text in twins.items()}


_writes: list[tuple[threading.Thread, str, list[OSError]]] = []
"""The downloads a preview build is writing (GeneratedFile.copy_file): each thread, its file and its error."""


def _write(data: bytes, site_dir: str, rel: str, failed: list[OSError]) -> None:
    try:
        writing.write_file(Path(site_dir), rel, data, "write the site's downloads")
    except (OSError, CatalogDocsError) as exc:
        failed.append(exc if isinstance(exc, OSError) else OSError(str(exc)))


def _wait_for_writes() -> None:
    """Wait for the downloads a preview build is writing; a write that failed fails the build, naming its file."""
    problems = []
    for writer, target, failed in _writes:
        writer.join()
        problems += [f"{for_terminal(target)} could not be written: {for_terminal(exc)}" for exc in failed]
    _writes.clear()
    if problems:
        raise PluginError("\n".join(problems))


GC_AFTER_REBUILD_S = 1.0
"""How long after a preview rebuild its garbage is collected: once the edited page has been served."""

_gc_timer: list[threading.Timer] = []


def _pause_gc_while_serving() -> None:
    """No cyclic collection during a preview rebuild. A server keeps the last render's pages, comparisons and
    parsed files for the next edit (250,000 objects at 1,000 operations), and each full collection that a
    rebuild's allocations set off walks all of them: 0.04-0.19 s of an edit. The rebuild's own cycles are
    collected after it (_collect_after_serving)."""
    for timer in _gc_timer:
        timer.cancel()
    _gc_timer.clear()
    gc.disable()


def _collect_after_serving() -> None:
    """Turn collection back on after a preview rebuild, and collect its garbage, once its pages are served: turned
    on at once, the collector would walk the rebuild's young objects on the next allocation (0.02 s at 1,000
    operations), before the server answers."""
    if not preview.serving() or gc.isenabled():
        return
    timer = threading.Timer(GC_AFTER_REBUILD_S, _enable_and_collect)
    timer.daemon = True
    _gc_timer.append(timer)
    timer.start()


def _enable_and_collect() -> None:
    gc.enable()
    gc.collect()


def _layout_of(config: MkDocsConfig) -> tuple[str, ...]:
    """What a generated file's paths and its page's URLs are made from."""
    return (config.docs_dir, config.site_dir, str(config.use_directory_urls), str(config.site_url))


class Options(Config):  # type: ignore[no-untyped-call]  # mkdocs' Config.__init_subclass__ is untyped
    """The plugin takes no options: the catalogue is catalog/ beside mkdocs.yml, as for every command."""


class CatalogDocsPlugin(BasePlugin[Options]):  # type: ignore[no-untyped-call]  # as above, BasePlugin's
    """`plugins: - catalog-docs` in mkdocs.yml. One instance lives for a whole `mkdocs serve` (it has
    on_startup), so the last good pages and the last build's texts are kept between rebuilds."""

    def __init__(self) -> None:
        self._good: dict[str, str] | None = None
        self._hand: list[str] = []
        """The hand-written files of docs/ that the site includes (listed in on_config)."""
        self._texts: dict[str, str] = {}
        """This build's files (rendered in on_pre_build, added in on_files)."""
        self._last: dict[str, str] = {}
        self._spill: writing.Folder | None = None
        """Outside `serve`, the temporary folder the downloads are written into as they are made (render_pages'
        `spill`), which mkdocs copies them from; removed when the build ends."""
        self._encoded: dict[str, tuple[str, bytes]] = {}
        """The downloads the render made ahead changed, each text with its bytes (_render_ahead)."""
        self._kept: dict[str, GeneratedFile] = {}
        """Under `serve`, the last build's generated files by path, each with its page (mkdocs makes a page object
        for every page on every rebuild: 0.03 s at 1,000 operations, for pages an edit does not change)."""
        self._kept_for: tuple[str, ...] = ()
        """The folders, URL style and address those files were made for: another layout makes them afresh."""
        self._blocks: dict[str, list[str]] = {}
        """The HTML blocks taken out of each page being built (on_page_markdown), until its HTML is made."""
        self._ahead: tuple[bool, Ahead] | None = None
        """Under `serve`: the render made as soon as an edit is written (site/ahead.py), with the URL style it
        renders for."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        preview.start(command=command, dirty=dirty)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """The site's address is checked (feed.site_address), and docs/ is listed, without following anything,
        before mkdocs walks and reads it."""
        docs = Path(config.docs_dir)
        try:
            site_address(config.site_url, f"site_url in mkdocs.yml (${SITE_URL_ENV})")
            refuse_linked_catalog(Path(config.config_file_path).parent)
            found = hand_written(docs, shown=os.path.relpath(docs, Path(config.config_file_path).parent))
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None
        excluded = config.exclude_docs
        self._hand = [rel for rel in found.files if excluded is None or not excluded.match_file(rel)]
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Render before mkdocs empties the site folder: a broken catalogue leaves the last site as it was."""
        if preview.serving():
            _pause_gc_while_serving()
        if not preview.serving():  # serve builds into a temporary folder of its own
            try:
                writing.prepare_site_dir(Path(config.site_dir), Path(config.config_file_path).parent)
            except CatalogDocsError as exc:
                raise PluginError(str(exc)) from None
        self._texts = self._render(config)
        if preview.serving():  # again: a render made ahead turns collection back on when it ends
            _pause_gc_while_serving()
        try:
            custom = config.theme.custom_dir
            own = site_own_files(map(Path, config.theme.dirs), Path(custom) if custom else None)
            refuse_collisions([*split_twins(self._texts)[0], *self._spilled()], self._hand, config.use_directory_urls,
                              own=own)
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Every generated file joins the site; a hand-written one at the same URL is refused, naming both
        (already in on_pre_build, before the site folder is emptied; here again for a docs/ changed since)."""
        texts, twins = split_twins(self._texts)
        made: dict[str, File] = {file.dest_uri: file for file in self._generated(config, texts)}
        made.update(_twin_files(config, texts, twins))
        for rel, path in self._spilled().items():
            spilled = File.generated(config, rel, abs_src_path=str(path))
            made[spilled.dest_uri] = spilled
        docs = os.path.normpath(config.docs_dir)
        clashes = []
        for file in list(files):
            clash = made.get(file.dest_uri)
            if clash is None or file.inclusion.is_excluded():  # type: ignore[no-untyped-call]  # untyped in mkdocs
                continue
            if file.src_dir is not None and os.path.normpath(file.src_dir) == docs:
                clashes.append(f"{for_terminal('docs/' + file.src_uri)} is hand-written at {file.dest_uri}, which "
                               f"the catalogue generates (its page {clash.src_uri}): rename or move the hand-written "
                               "file")
            else:
                files.remove(file)  # a theme's file: a generated one takes its place, as a docs/ file would
        if clashes:
            raise PluginError("\n".join([*clashes, "nothing was built"]))
        for file in made.values():
            files.append(file)
        # Only a server compares the next build's texts with these; a build keeps them only in its files.
        self._last = self._texts if preview.serving() else {}
        self._encoded = {}  # those this build did not take are of a render it did not use
        if preview.serving():  # and takes the files of unchanged pages again, with their pages
            self._kept = {f.src_uri: f for f in made.values() if isinstance(f, GeneratedFile)}
            self._kept_for = _layout_of(config)
        self._texts = {}
        return files

    def _generated(self, config: MkDocsConfig, texts: dict[str, str]) -> Iterator[GeneratedFile]:
        """A file per generated text: the last build's file (and page) when a server may take it again
        (GeneratedFile.kept_for_next_build), else a new one."""
        kept = self._kept if self._kept_for == _layout_of(config) else {}
        for rel, text in texts.items():
            unchanged = self._last.get(rel) == text
            old = kept.get(rel)
            if old is not None and unchanged and old.kept_for_next_build():
                yield old
                continue
            encoded = self._encoded.pop(rel, None)
            content = encoded[1] if encoded is not None and encoded[0] is text else text
            file = GeneratedFile.generated(config, rel, content=content)
            assert isinstance(file, GeneratedFile)  # File.generated makes an instance of the class it is called on
            file.unchanged = unchanged
            yield file

    def _spilled(self) -> dict[str, Path]:
        """The downloads this build wrote into its spill folder, by their path under docs/."""
        if self._spill is None:
            return {}
        spill = self._spill.path
        return {path.relative_to(spill).as_posix(): path for path in sorted(spill.rglob("*")) if path.is_file()}

    def _drop_spill(self) -> None:
        if self._spill is not None:
            try:
                self._spill.remove_self()
            except OSError:  # the system's temporary folder is emptied in time anyway
                log.debug("catalog-docs: the downloads' temporary folder was not removed", exc_info=True)
            self._spill = None

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self._drop_spill()
        try:
            _wait_for_writes()
        finally:
            _collect_after_serving()

    def on_build_error(self, *, error: Exception) -> None:
        self._drop_spill()
        try:
            _wait_for_writes()
        except PluginError as exc:  # the build fails already: its own error is the one mkdocs shows
            log.error("%s", exc)
        _collect_after_serving()

    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder: object) -> LiveReloadServer:
        """Watch the catalogue and the templates, to render each edit as soon as it is written (site/ahead.py)."""
        self._stop_ahead()
        urls = config.use_directory_urls
        catalog_dir = Path(config.config_file_path).parent / "catalog"
        ahead = Ahead([catalog_dir, TEMPLATES], partial(self._render_ahead, catalog_dir, urls))
        ahead.start()
        self._ahead = (urls, ahead)
        return server

    def _render_ahead(self, catalog_dir: Path, urls: bool) -> dict[str, str]:
        """The render made ahead (site/ahead.py), with the downloads it changed encoded there too, for the build
        to write as they are (on_files): 0.02 s of an edit at 1,000 operations, off the rebuild."""
        texts = site_files(catalog_dir, directory_urls=urls, reuse=True)
        last = self._last
        self._encoded = {rel: (text, text.encode()) for rel, text in texts.items()
                         if not rel.endswith(".md") and last.get(rel) is not text}
        return texts

    def _stop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead[1].stop()
            self._ahead = None

    def on_shutdown(self) -> None:
        self._drop_spill()
        self._stop_ahead()

    def on_page_markdown(self, markdown: str, *, page: Page, **_kwargs: object) -> str:
        """A generated page's text is let go (GeneratedFile.release) and its HTML blocks are taken out of the
        Markdown, to be put back into the HTML (fences.lift_blocks): Markdown has no reason to go over tables."""
        if not isinstance(page.file, GeneratedFile):
            return markdown
        page.file.release()
        lifted, blocks = lift_blocks(markdown)  # mkdocs leaves Markdown's tab length at its default
        if blocks:
            self._blocks[page.file.src_uri] = blocks
        return lifted

    @event_priority(100)  # before any other plugin reads the page's HTML (catalog-search, the theme's search)
    def on_page_content(self, html: str, *, page: Page, **_kwargs: object) -> str:
        blocks = self._blocks.pop(page.file.src_uri, None)
        if blocks is None:
            return html
        try:
            return restore_blocks(html, blocks)
        except ValueError as exc:
            raise PluginError(f"catalog-docs: {page.file.src_uri}: {exc}") from None

    def _render(self, config: MkDocsConfig) -> dict[str, str]:
        """The generated files. Outside `serve` every error is a PluginError (mkdocs prints it and stops);
        while serving, the last good files, with the errors recorded for the banner."""
        catalog_dir = Path(config.config_file_path).parent / "catalog"
        serving = preview.serving()
        self._drop_spill()
        if not serving:  # a server keeps every text to compare with the next build's; a build writes them out
            try:
                self._spill = writing.temporary_folder("catalog-docs-downloads-", "write the downloads")
            except (OSError, CatalogDocsError):  # no temporary folder: the downloads are held whole, as served
                self._spill = None
        try:
            texts = self._site_files(catalog_dir, config.use_directory_urls)
        except CatalogInvalid as exc:
            if not serving:
                raise PluginError("the catalogue has errors; nothing was built\n" + exc.report()) from None
            errors = [str(p) for p in exc.problems]
        except CatalogDocsError as exc:
            if not serving:
                raise PluginError(str(exc)) from None
            errors = [str(exc)]
        except Exception as exc:  # a bug (in a template, say): while serving, show it rather than hang every request
            if not serving:
                raise
            traceback.print_exc()
            errors = [f"catalog-docs render failed: {type(exc).__name__}: {exc}"]
        else:
            return self._rendered(texts, config, catalog_dir)
        self._drop_spill()
        preview.record(errors, Path(config.site_dir))
        return self._good if self._good is not None else preview.NOTHING_YET

    def _site_files(self, catalog_dir: Path, urls: bool) -> dict[str, str]:
        """The render: a server's keyed one (made ahead when it could be), else a build's, in a process apart."""
        if not preview.serving():
            spill = None if self._spill is None else self._spill.path
            return site_files_apart(catalog_dir, directory_urls=urls, spill=spill)
        if self._ahead is not None and self._ahead[0] == urls:
            return self._ahead[1].texts()
        return site_files(catalog_dir, directory_urls=urls, reuse=True)

    def _rendered(self, texts: dict[str, str], config: MkDocsConfig, catalog_dir: Path) -> dict[str, str]:
        """A good render: the drafts refused (a strict build) or marked (a server), which keeps the pages."""
        if preview.serving():
            preview.record([], Path(config.site_dir))
            preview.record_drafts([f"{d.label} ({d.file})" for d in reused_drafts(catalog_dir)])
        elif config.strict:
            try:
                refuse_drafts(catalog_dir)
            except CatalogDocsError as exc:
                raise PluginError(str(exc)) from None
        log.info("catalog-docs: %d pages and downloads rendered from the catalogue, in memory",
                 len(texts) + len(self._spilled()))
        if preview.serving():  # the last good pages, shown under the error banner while the catalogue is broken
            self._good = texts
        return texts

    def on_post_page(self, output: str, **_kwargs: object) -> str:
        return preview.with_banner(output)

    def on_post_template(self, output_content: str, **_kwargs: object) -> str:
        return preview.with_banner(output_content)
