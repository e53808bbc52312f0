"""Render only when something changed: the shell-facing render step of `catalog-docs render` and the hook.

A render records a fingerprint in the manifest: a hash of everything the pages are made from (the
catalogue files, the JSON Schemas, this package's code and templates) and the size and modification
time of every page it left behind. When both still match, the pages on disk are exactly what a render
would write, so the next render (the mkdocs hook of `make site` after an unchanged catalogue, the hook
after `make serve` has just rendered, every `mkdocs serve` reload) costs a few milliseconds instead of a
full load and render.

When something did change, a render in a long-lived process (the `mkdocs serve` preview, `watch.py`) reuses
what the last render in this process worked out from inputs that did not: the located parse and schema check
of every catalogue file whose bytes are the same (validate.LoadCache) and every page and download whose
inputs are the same (render.PageMemo). Both start afresh when the package code or templates change.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog_docs.catalog.files import MAX_BYTES, catalogue_sources, looks_like_catalogue
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import MANIFEST, PACKAGE_DIR, SCHEMA_DIR
from catalog_docs.site.history import LabelHistory, label_history
from catalog_docs.site.write import output_signature, recover

if TYPE_CHECKING:
    from catalog_docs.site.write import WriteResult

# The render and validate modules (Jinja, jsonschema) are imported only when a render is due: skipping
# one then costs the hashing alone, which is what keeps `make site` close to a bare `mkdocs build`.


def _file_digest(path: Path) -> bytes:
    """A catalogue file hashed whole, up to the loader's limit; a bigger one (refused) by size and time."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # classified as a regular file just before
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return f"{stat.S_IFMT(st.st_mode)}:{st.st_size}:{st.st_mtime_ns}".encode()
        with os.fdopen(os.dup(fd), "rb") as f:
            return hashlib.sha256(f.read(MAX_BYTES + 1)).digest()
    finally:
        os.close(fd)


def input_fingerprint(catalog_dir: Path, code: bytes | None = None) -> str:
    """A hash of every input of a render: the catalogue entries the loader reads (each with its kind, so a
    dangling link or a pipe counts), schemas, package code and templates (`code`: code_digest(), when the
    caller has it already)."""
    digest = hashlib.sha256()
    digest.update(_catalogue_digest(catalog_dir))
    digest.update(code_digest() if code is None else code)
    return digest.hexdigest()


def _catalogue_digest(catalog_dir: Path) -> bytes:
    digest = hashlib.sha256()
    for source in catalogue_sources(catalog_dir):
        rel = source.path.relative_to(catalog_dir).as_posix()
        digest.update(f"catalog:{rel}\0{source.role}\0{source.kind}\0{source.mode}\0{source.target}\0".encode())
        if source.kind == "file":
            digest.update(_file_digest(source.path))
    return digest.digest()


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


def _warm(catalog_dir: Path, out_dir: Path, manifest: dict[str, Any], code: bytes, inputs: str,
          directory_urls: bool, history: LabelHistory) -> None:
    """See render_if_changed's keep_warm. Each page is read back only when its bytes have the digest the
    manifest recorded when the render wrote it."""
    reuse = _reuse.for_code(code)
    if reuse.warm == (catalog_dir, out_dir, inputs):
        return
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import remember_pages
    from catalog_docs.site.write import digest, generated

    digests = manifest.get("digests")
    if not isinstance(digests, dict):
        return

    def read(rel: str, _key: bytes) -> str | None:
        if not generated(rel):  # the manifest came from docs/: a name outside the generated folders is not read
            return None
        try:
            data = (out_dir / rel).read_bytes()
        except OSError:
            return None
        return data.decode("utf-8") if digests.get(rel) == digest(data) else None

    try:
        remember_pages(load_catalog(catalog_dir, cache=reuse.load), reuse.pages, read, directory_urls=directory_urls,
                       history=history)
    except (CatalogDocsError, OSError, UnicodeDecodeError):  # only a speed-up: the next render does it all
        return
    reuse.warm = (catalog_dir, out_dir, inputs)


class _Reuse:
    """What renders in this process keep for the next one (see the module's doc): made on first use, so a
    skipped render imports neither Jinja nor jsonschema."""

    def __init__(self) -> None:
        self.code: bytes | None = None
        self.load: Any = None
        self.pages: Any = None
        self.warm: tuple[Path, Path, str] | None = None
        """The catalogue, docs folder and inputs whose pages the memo was last filled with from disk."""

    def for_code(self, code: bytes) -> _Reuse:
        if code != self.code or self.load is None:
            from catalog_docs.catalog.validate import LoadCache
            from catalog_docs.site.render import PageMemo

            self.code, self.load, self.pages, self.warm = code, LoadCache(), PageMemo(), None
        return self

    def clear(self) -> None:
        self.code = self.load = self.pages = self.warm = None


_reuse = _Reuse()


def clear_reuse() -> None:
    """Forget what earlier renders in this process worked out (the next render starts cold)."""
    _reuse.clear()


def _manifest(out_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), list) else None


def directory_urls_of(project: Path) -> bool:
    """The `use_directory_urls` setting of the mkdocs.yml in `project` (true when absent, as in mkdocs and
    Zensical): links inside the pages' HTML tables are written as the built pages' URLs."""
    try:
        config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    except OSError:
        return True
    found = re.search(r"^use_directory_urls:\s*(\w+)\s*(?:#.*)?$", config, re.MULTILINE)
    return not (found and found.group(1).lower() in ("false", "no", "off"))


def render_if_changed(catalog_dir: Path, out_dir: Path, *, force: bool = False,
                      directory_urls: bool | None = None, keep_warm: bool = False) -> WriteResult | None:
    """Load, validate and render the catalogue into out_dir, unless the last render's fingerprint shows
    that nothing it depends on changed; None then (nothing was read beyond the fingerprint).
    `directory_urls` is the builder's `use_directory_urls` (by default read from the mkdocs.yml beside
    the catalogue folder). `keep_warm` (the preview): when the render is skipped and this process has not
    rendered these pages yet, load the catalogue and take the pages on disk into the memo, so the next
    edit renders only what it touches."""
    if directory_urls is None:
        directory_urls = directory_urls_of(catalog_dir.parent)
    if not catalog_dir.is_dir() or not looks_like_catalogue(catalog_dir):
        from catalog_docs.catalog.validate import load_catalog
        from catalog_docs.site.render import render

        return render(load_catalog(catalog_dir), out_dir, directory_urls=directory_urls)  # reports the missing folder
    try:
        code = code_digest()
        history = label_history(catalog_dir)
        # The history is an input too: committing a label's file changes the date its changelog entry gives.
        inputs = (input_fingerprint(catalog_dir, code) + ("" if directory_urls else ":flat-urls")
                  + ":history:" + history.stamp())
    except OSError as exc:
        raise CatalogDocsError(f"cannot read {exc.filename}: {exc.strerror}") from exc
    # An interrupted render is completed before its pages are trusted; after one, render in full anyway: the
    # journal's fingerprint came from docs/, and only a render proves the pages are the catalogue's.
    recovered = recover(out_dir)
    manifest = _manifest(out_dir)
    if not (force or recovered) and manifest is not None:
        stamp = manifest.get("fingerprint") or {}
        if stamp.get("inputs") == inputs and stamp.get("outputs") == output_signature(out_dir, manifest["files"]):
            if keep_warm:
                _warm(catalog_dir, out_dir, manifest, code, inputs, directory_urls, history)
            return None
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import render_pages
    from catalog_docs.site.write import write_output

    # A load or render that fails leaves both as they were: each keeps only results keyed on their inputs.
    reuse = _reuse.for_code(code)
    files = render_pages(load_catalog(catalog_dir, cache=reuse.load), directory_urls=directory_urls, memo=reuse.pages,
                         history=history)
    reuse.warm = (catalog_dir, out_dir, inputs)  # the memo holds these very pages: a skip needs no warm-up
    # The fingerprint goes into the manifest, which the writer moves in last.
    return write_output(files, out_dir, inputs=inputs)
