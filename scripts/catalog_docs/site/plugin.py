"""The mkdocs plugin `catalog-docs` (thin shell; mkdocs and ProperDocs): the generated pages and downloads join
the site in memory, with `File.generated` in `on_files`, as mkdocs-gen-files and Material's blog add theirs.
Nothing is written into docs/, which holds only what people put there: their pages are built beside the
generated ones, and a hand-written file at a URL the catalogue generates stops the build, naming both.

A broken catalogue stops `mkdocs build` with its errors, and so does a docs/ no engine can read safely
(site/handwritten.py) and a site folder that cannot be written: each as one line per problem, no traceback.
Under `mkdocs serve` a broken catalogue does not: the plugin picks build or serve once, in on_startup, and a
server's hooks hand over to its `preview.PreviewSession`, which keeps the last good pages and shows the errors
on each.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
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
from catalog_docs.layout import SITE_URL_ENV
from catalog_docs.site.feed import site_address
from catalog_docs.site.fences import lift_blocks, restore_blocks
from catalog_docs.site.handwritten import hand_written, refuse_collisions, site_own_files
from catalog_docs.site.pages import site_files_apart
from catalog_docs.site.preview import PreviewSession
from catalog_docs.site.twins import TWIN_PREFIX, missing_twins, split_twins

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.plugins.catalog_docs")


class GeneratedFile(File):
    """A generated page or download, its text in memory. mkdocs counts every such file modified on every
    rebuild; under `serve --dirty` one whose text is the last build's, and whose built file is still there, is
    not, so one edit rebuilds only the pages whose text it changed."""

    unchanged = False

    def is_modified(self) -> bool:
        return not self.unchanged or not os.path.isfile(self.abs_dest_path)  # noqa: PTH113  # no Path per file

    def copy_file(self, dirty: bool = False) -> None:
        """Write a download into the site (through writing.py, never through a link), then let its text go, which
        the rest of the build need not hold; a write that fails fails the build, naming the file."""
        if dirty and not self.is_modified():
            return
        try:
            writing.write_file(Path(self.dest_dir), self.dest_uri, self.content_bytes, "write the site's downloads")
        except (OSError, CatalogDocsError) as exc:
            raise PluginError(f"{for_terminal(self.abs_dest_path)} could not be written: {for_terminal(exc)}") from None
        self.content_bytes = b""

    def release(self) -> None:
        """Let a page's text go once mkdocs has read it (into page.markdown, a copy without its front matter):
        a build holds every page's Markdown once, as a build of files on disk does, not twice."""
        self.content_bytes = b""


def new_file(config: MkDocsConfig, key: str, text: str) -> GeneratedFile:
    """A generated file for a key of the render's result. A page's Markdown twin (`twin:operations/x/index.md`) is a
    file mkdocs copies, not a page it builds: `File.generated` makes it under a name that is not Markdown
    (`is_documentation_page()` reads the name's ending), and its documented `dest_uri` puts it at the twin's
    address (`operations/x/index.md`)."""
    twin = key.startswith(TWIN_PREFIX)
    file = GeneratedFile.generated(config, key + ".txt" if twin else key, content=text)
    assert isinstance(file, GeneratedFile)  # File.generated makes an instance of the class it is called on
    if twin:
        file.dest_uri = key[len(TWIN_PREFIX):]
    return file


def refuse_missing_twins(config: MkDocsConfig, texts: dict[str, str]) -> None:
    """A build (not a server) fails when a generated page has no Markdown twin."""
    pages, twins = split_twins(texts)
    missing = missing_twins([rel for rel in pages if rel.endswith(".md")], twins, config.use_directory_urls)
    if missing:
        raise PluginError("catalog-docs: these pages have no Markdown twin (site/twins.py); nothing was built: "
                          + ", ".join(for_terminal(rel) for rel in missing))


def _layout_of(config: MkDocsConfig) -> tuple[str, ...]:
    """What a generated file's paths and its page's URLs, links and navigation title are made from: a rebuild
    under another (mkdocs.yml edited while serving) makes every file and page afresh."""
    return tuple(map(str, (config.docs_dir, config.site_dir, config.use_directory_urls, config.site_url,
                           config.repo_url, config.edit_uri, config.edit_uri_template, config.nav)))


class Options(Config):  # type: ignore[no-untyped-call]  # mkdocs' Config.__init_subclass__ is untyped
    """The plugin takes no options: the catalogue is catalog/ beside mkdocs.yml, as for every command."""


class CatalogDocsPlugin(BasePlugin[Options]):  # type: ignore[no-untyped-call]  # as above, BasePlugin's
    """`plugins: - catalog-docs` in mkdocs.yml. One instance lives for a whole `mkdocs serve` (it has
    on_startup), so its preview session lives from one rebuild to the next."""

    def __init__(self) -> None:
        self._session: PreviewSession | None = None
        """Under `serve` (on_startup), everything only a server has; None in a build."""
        self._hand: list[str] = []
        """The hand-written files of docs/ that the site includes (listed in on_config)."""
        self._texts: dict[str, str] = {}
        """This build's files (rendered in on_pre_build, added in on_files)."""
        self._spill: writing.Folder | None = None
        """In a build, the temporary folder the downloads are written into as they are made (render_pages'
        `spill`), which mkdocs copies them from; removed when the build ends."""
        self._blocks: dict[str, list[str]] = {}
        """The HTML blocks taken out of each page being built (on_page_markdown), until its HTML is made."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        if self._session is not None:
            self._session.close()
        self._session = PreviewSession(dirty=dirty) if command == "serve" else None

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
        catalog_dir = Path(config.config_file_path).parent / "catalog"
        if self._session is not None:  # serve builds into a temporary folder of its own
            self._texts = self._session.render(catalog_dir, config.use_directory_urls, Path(config.site_dir))
        else:
            self._texts = self._build_render(config, catalog_dir)
        try:
            custom = config.theme.custom_dir
            own = site_own_files(map(Path, config.theme.dirs), Path(custom) if custom else None)
            refuse_collisions([*split_twins(self._texts)[0], *self._spilled()], self._hand, config.use_directory_urls,
                              own=own)
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None

    def _build_render(self, config: MkDocsConfig, catalog_dir: Path) -> dict[str, str]:
        """A build's render: every error a PluginError (mkdocs prints it and stops), drafts refused when strict."""
        try:
            writing.prepare_site_dir(Path(config.site_dir), Path(config.config_file_path).parent)
        except CatalogDocsError as exc:
            raise PluginError(str(exc)) from None
        self._drop_spill()
        try:
            self._spill = writing.temporary_folder("catalog-docs-downloads-", "write the downloads")
        except (OSError, CatalogDocsError):  # no temporary folder to write into: the downloads are held whole
            self._spill = None
        spill = None if self._spill is None else self._spill.path
        try:
            texts = site_files_apart(catalog_dir, directory_urls=config.use_directory_urls, spill=spill)
            if config.strict:
                refuse_drafts(catalog_dir)
        except CatalogInvalid as exc:
            self._drop_spill()
            raise PluginError("the catalogue has errors; nothing was built\n" + exc.report()) from None
        except CatalogDocsError as exc:
            self._drop_spill()
            raise PluginError(str(exc)) from None
        log.info("catalog-docs: %d pages and downloads rendered from the catalogue, in memory",
                 len(texts) + len(self._spilled()))
        return texts

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Every generated file joins the site; a hand-written one at the same URL is refused, naming both
        (already in on_pre_build, before the site folder is emptied; here again for a docs/ changed since)."""
        if self._session is None:
            refuse_missing_twins(config, self._texts)
        generated = dict(self._generated(config, self._texts))
        made: dict[str, File] = {file.dest_uri: file for file in generated.values()}
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
        if self._session is not None:  # only a server compares the next build's texts with these
            self._session.last = self._texts
            self._session.keep_files(dict(generated), _layout_of(config))
        self._texts = {}
        return files

    def _generated(self, config: MkDocsConfig, texts: dict[str, str]) -> Iterator[tuple[str, GeneratedFile]]:
        """A file per generated text (by the text's key), marked unchanged when a server built the same text last
        time. A server takes the last build's file of an unchanged text again, with its page: mkdocs makes a page
        only for a file that has none (`File.page`), and a rebuild need not make a thousand it would not build."""
        session = self._session
        last = session.last if session is not None else {}
        kept = session.kept_files(_layout_of(config)) if session is not None else {}
        for key, text in texts.items():
            unchanged = last.get(key) == text
            old = kept.get(key) if unchanged else None
            if isinstance(old, GeneratedFile) and (old.page is not None or not old.is_documentation_page()):
                old.unchanged = True
                if old.is_modified():  # its built file is gone: it is read or written again (its text was let go)
                    old.content_string = text
                yield key, old
                continue
            file = new_file(config, key, text)
            file.unchanged = unchanged
            yield key, file

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

    def on_build_error(self, *, error: Exception) -> None:
        self._drop_spill()

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        """Under serve, the build's template environment takes the templates the server compiled before (Jinja's
        documented `overlay`, with the session's bytecode cache): a rebuild no longer compiles the theme again."""
        return env if self._session is None else env.overlay(bytecode_cache=self._session.compiled)

    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder: object) -> LiveReloadServer:
        """Watch the catalogue and the templates, to render each edit as soon as it is written (site/ahead.py)."""
        if self._session is not None:
            self._session.watch(Path(config.config_file_path).parent / "catalog", config.use_directory_urls)
        return server

    def on_shutdown(self) -> None:
        self._drop_spill()
        if self._session is not None:
            self._session.close()
            self._session = None

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

    def on_post_page(self, output: str, **_kwargs: object) -> str:
        return output if self._session is None else self._session.with_banner(output)

    def on_post_template(self, output_content: str, **_kwargs: object) -> str:
        return output_content if self._session is None else self._session.with_banner(output_content)
