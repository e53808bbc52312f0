"""The site's generated files, in memory: {path as if under docs/: text}. Every shell starts here: the mkdocs
plugin (mkdocs, ProperDocs), the build folder of other engines (Zensical) and `catalog-docs render --out`.

A render in a long-lived loop (the `mkdocs serve` preview, `catalog-docs watch`) reuses what the loop's last
render worked out from inputs that did not change (a `Reuse` the loop owns): the located parse and schema check
of every catalogue file whose bytes are the same (validate.LoadCache) and every page and download whose inputs
are the same (keys.PageMemo). Both start afresh when the package's code or templates change.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog_docs.layout import PACKAGE_DIR, SCHEMA_DIR
from catalog_docs.site.history import label_history

if TYPE_CHECKING:
    from catalog_docs.catalog.drafts import Draft
    from catalog_docs.catalog.model import Catalog


def code_digest() -> bytes:
    """A hash of the JSON Schemas, this package's code and templates."""
    digest = hashlib.sha256()
    groups = (
        ("schema", SCHEMA_DIR, sorted(SCHEMA_DIR.glob("*.json"))),
        ("package", PACKAGE_DIR, sorted(p for p in PACKAGE_DIR.rglob("*") if p.suffix in (".py", ".j2")
                                        or p.parent.name == "assets")),
    )
    for group, base, paths in groups:
        for path in paths:
            digest.update(f"{group}:{path.relative_to(base).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


class Reuse:
    """What a loop's renders keep for its next one (see the module's doc), owned by the loop (the preview's
    session, a `watch`); a new one starts cold."""

    def __init__(self) -> None:
        self.code: bytes | None = None
        self.load: Any = None
        self.pages: Any = None
        self.drafts: tuple[tuple[str, str], ...] = ()
        """The last render's draft labels, each as (its file's name, the label) (see drafts_of)."""
        self.warned: set[str] = set()
        """The history's warnings already printed: each once per loop."""

    def for_code(self, code: bytes) -> Reuse:
        if code != self.code or self.load is None:
            from catalog_docs.catalog.validate import LoadCache
            from catalog_docs.site.keys import PageMemo

            self.code, self.load, self.pages = code, LoadCache(), PageMemo()
        return self

    def drafts_of(self, catalog_dir: Path) -> list[Draft]:
        """The draft labels of the catalogue the last render with this reuse rendered, as `find_drafts` lists them
        (in file-name order), without reading the version files again: the preview asks after every render."""
        from catalog_docs.catalog.drafts import Draft
        from catalog_docs.catalog.files import VERSIONS_DIR
        from catalog_docs.catalog.locate import shown_path

        return [Draft(label=label, file=shown_path(catalog_dir / VERSIONS_DIR / name)) for name, label in self.drafts]


def directory_urls_of(project: Path) -> bool:
    """The `use_directory_urls` setting of the mkdocs.yml in `project` (true when absent, as in mkdocs and
    Zensical): links inside the pages' HTML tables are written as the built pages' URLs."""
    try:
        config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    except OSError:
        return True
    found = re.search(r"^use_directory_urls:\s*(\w+)\s*(?:#.*)?$", config, re.MULTILINE)
    return not (found and found.group(1).lower() in ("false", "no", "off"))


def _warn(lines: tuple[str, ...], warned: set[str]) -> None:
    """Each warning of the history once (once per loop: `warned` holds those printed), on standard error: a
    warning mkdocs counted would stop every strict build, which one odd commit must not do."""
    for line in lines:
        if line not in warned:
            warned.add(line)
            print(f"catalog-docs: warning: {line}", file=sys.stderr, flush=True)


def site_files(catalog_dir: Path, *, directory_urls: bool | None = None, reuse: Reuse | None = None,
               spill: Path | None = None, search_boost: bool = True) -> dict[str, str]:
    """Load, validate and render the catalogue: every generated page and download, in memory. `directory_urls`
    is the builder's `use_directory_urls` (by default read from the mkdocs.yml beside the catalogue folder).
    `reuse` (the preview loops): what the loop's last render worked out, kept there for the next one.
    `spill` (without `reuse`): write the downloads into this folder as they are made, and leave them out of the
    result (render.render_pages). `search_boost`: whether the engine's search has a boost (False for Zensical's;
    render.render_pages). Raises CatalogInvalid (every error located) or CatalogDocsError."""
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import render_pages

    if directory_urls is None:
        directory_urls = directory_urls_of(catalog_dir.parent)
    history = label_history(catalog_dir)
    _warn(history.warnings, set() if reuse is None else reuse.warned)
    if reuse is None:
        catalog = load_catalog(catalog_dir)
        texts = render_pages(catalog, directory_urls=directory_urls, history=history, spill=spill,
                             search_boost=search_boost)
        return texts | catalogue_sources(catalog_dir, catalog)
    kept = reuse.for_code(code_digest())
    # A load or render that fails leaves both as they were: each keeps only results keyed on their inputs.
    catalog = load_catalog(catalog_dir, cache=kept.load)
    texts = render_pages(catalog, directory_urls=directory_urls, memo=kept.pages, history=history,
                         search_boost=search_boost)
    kept.drafts = tuple(sorted((f"{v.slug}.yaml", v.label) for v in catalog.versions if v.draft))
    return texts | catalogue_sources(catalog_dir, catalog)


SOURCES_DIR = "downloads/catalog"
"""Where the site publishes the catalogue's own YAML files, beside the downloads: every generated page links the
file (and line) its facts come from there (templates' `source_note`)."""


def catalogue_sources(catalog_dir: Path, catalog: Catalog) -> dict[str, str]:
    """The catalogue's files as the site publishes them (`downloads/catalog/listing.yaml`, ...): the files the
    catalogue was just loaded from, which the loader checked (regular, inside the folder, UTF-8, within its
    size limit)."""
    from catalog_docs.catalog.files import FIXED_FILES, VERSIONS_DIR

    names = [*FIXED_FILES, *(f"{VERSIONS_DIR}/{v.slug}.yaml" for v in catalog.versions)]
    return {f"{SOURCES_DIR}/{name}": (catalog_dir / name).read_text(encoding="utf-8") for name in names}


APART_MIN_BYTES = 1_000_000
"""A catalogue folder of at least this many bytes is rendered in a process of its own (site_files_apart)."""


def site_files_apart(catalog_dir: Path, *, directory_urls: bool | None = None, spill: Path | None = None
                     ) -> dict[str, str]:
    """`site_files` (without reuse) in a forked process that sends the texts back as it goes, for a build: what
    the load and render leave behind (the freed parse trees, comparisons and rows, scattered over memory the
    allocator keeps: 240 MB at 10,000 operations) stays in that process, and this one holds only the texts
    while mkdocs builds. A small catalogue, or a process that cannot fork safely (threads), renders here; so
    does one whose render process fails, which then raises here what it raised there."""
    from catalog_docs.site.workers import Answer

    size = sum(p.stat().st_size for p in catalog_dir.rglob("*.yaml") if p.is_file())
    if size < APART_MIN_BYTES or not hasattr(os, "fork") or threading.active_count() > 1:
        return site_files(catalog_dir, directory_urls=directory_urls, spill=spill)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the render process: render, send the texts in batches, leave without the parent's exit code
        _render_and_send(catalog_dir, directory_urls, spill, read_fd, write_fd)
    os.close(write_fd)
    answer = Answer(read_fd)
    answer.run()  # here: this process has nothing else to do meanwhile
    os.waitpid(pid, 0)
    if answer.status != "ok":  # an invalid catalogue, a bug: the same render here raises it as its own
        return site_files(catalog_dir, directory_urls=directory_urls, spill=spill)
    return answer.texts


SEND_BATCH = 64
"""Texts sent at a time by the render process of site_files_apart."""


def _render_and_send(catalog_dir: Path, directory_urls: bool | None, spill: Path | None, read_fd: int,
                     write_fd: int) -> None:
    status = 1
    try:
        os.close(read_fd)
        with os.fdopen(write_fd, "wb") as pipe:
            try:
                texts = site_files(catalog_dir, directory_urls=directory_urls, spill=spill)
            except BaseException:
                pipe.write(pickle.dumps(("failed", None)))
                raise
            batch: dict[str, str] = {}
            for path in list(texts):
                batch[path] = texts.pop(path)
                if len(batch) == SEND_BATCH:
                    pipe.write(pickle.dumps(("texts", batch), protocol=pickle.HIGHEST_PROTOCOL))
                    batch = {}
            pipe.write(pickle.dumps(("texts", batch), protocol=pickle.HIGHEST_PROTOCOL))
            pipe.write(pickle.dumps(("ok", {})))
        status = 0
    finally:
        os._exit(status)
