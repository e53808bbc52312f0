"""The preview under `mkdocs serve`: everything only a server has lives in one `PreviewSession`, which the
plugin makes in on_startup when the command is `serve` (a build has none).

A broken catalogue keeps the last good pages on the server, with its errors shown on every page and in the
terminal, instead of failing the build: mkdocs serve waits, for every request, until a rebuild succeeds, so a
rebuild that raises leaves every request hanging. The session also keeps what the next rebuild needs: the last
build's texts (to tell which pages an edit changed) and its files and pages (taken again where an edit changed
nothing), what the last render worked out (pages.Reuse), the draft labels to mark, the render made as soon as an
edit is written (site/ahead.py), the theme's templates as Jinja compiled them (`CompiledTemplates`) and the collector
policy of a long-lived process (gcpause.keep_long_lived).
`mkdocs build` still fails on a broken catalogue.
"""

from __future__ import annotations

import html
import logging
import re
import sys
import traceback
from functools import partial
from pathlib import Path

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from catalog_docs.catalog.drafts import Draft
from catalog_docs.catalog.gcpause import keep_long_lived, let_go_of_long_lived
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.layout import TEMPLATES
from catalog_docs.site.ahead import Ahead
from catalog_docs.site.pages import Reuse, site_files
from catalog_docs.writing import remove_files_ending

BANNER_ID = "catalog-docs-errors"
DRAFT_ID = "catalog-docs-drafts"
NOTHING_YET = {"index.md": "# The catalogue has errors\n\nThey are listed above. Fix them and this page reloads "
                           "with the site.\n"}
"""What a preview shows when the catalogue has had errors since it started (no good pages to keep)."""
_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


class _QuietDirty(logging.Filter):
    """mkdocs warns on every --dirty rebuild that navigation may go stale; the site's navigation is a fixed
    list (mkdocs.yml nav), so the warning says nothing here and would bury the catalogue's errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


_QUIET_DIRTY = _QuietDirty()


def banner_html(lines: tuple[str, ...]) -> str:
    """The banner: every error as `file:line:column: message`, escaped (catalogue text is data)."""
    items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
    count = "1 error" if len(lines) == 1 else f"{len(lines)} errors"
    return (f'<div id="{BANNER_ID}" role="alert" style="background:#fde8e8;color:#5c0a0a;'
            f'border-bottom:3px solid #b3261e;padding:.8rem 1rem;font-size:.8rem;line-height:1.5">'
            f"<strong>The catalogue has {count}; this preview shows the last good pages.</strong> "
            f"Fix the file and the page reloads.<ul style=\"margin:.4rem 0 0 1.2rem\">{items}</ul></div>")


def draft_html(labels: tuple[str, ...]) -> str:
    """The draft mark: which labels on this site are copies not yet checked against the source (escaped)."""
    items = ", ".join(f"<code>{html.escape(label)}</code>" for label in labels)
    return (f'<div id="{DRAFT_ID}" role="note" style="background:#fff4d6;color:#3d2c00;border-bottom:3px dashed '
            f'#7a5a00;padding:.6rem 1rem;font-size:.8rem;line-height:1.5"><strong>Draft:</strong> this preview '
            f"shows draft version label{'s' if len(labels) > 1 else ''} {items}, copied and not yet checked "
            f"against the source. Its values are not facts of the source; make site will not publish it.</div>")


class CompiledTemplates(BytecodeCache):
    """The templates of the theme as Jinja compiled them in an earlier build of this server, in memory. mkdocs makes a
    new template environment for every build, which compiled the whole theme again on every rebuild; with this cache
    (Jinja's documented `BytecodeCache`, given to each new environment in on_env) Jinja compiles a template once,
    and again only when its source changed (it checks the source's checksum before it takes the code)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


class PreviewSession:
    """One `mkdocs serve`: its last good pages and errors, the last build's texts and files, the render reuse, the
    draft labels shown, the render made ahead, the compiled theme templates and the collector policy (see the
    module's doc). Owned by the plugin instance; `close` (on_shutdown) stops its thread and gives the process's
    settings back."""

    def __init__(self, *, dirty: bool) -> None:
        self.dirty = dirty
        self.errors: tuple[str, ...] = ()
        self.drafts: tuple[str, ...] = ()
        """Draft version labels of the last good render, each with its file (marked on every page)."""
        self.good: dict[str, str] | None = None
        """The last good render's files, served under the error banner while the catalogue is broken."""
        self.last: dict[str, str] = {}
        """The last build's files: one whose text is the same counts as unchanged under --dirty."""
        self.reuse = Reuse()
        self.files: dict[str, object] = {}
        """The last build's generated files (mkdocs `File`s, each with its page), by path."""
        self._files_for: tuple[str, ...] = ()
        """The layout those files were made for (plugin._layout_of)."""
        self._ahead: tuple[bool, Ahead] | None = None
        """The render made as soon as an edit is written (site/ahead.py), with the URL style it renders for."""
        self.compiled = CompiledTemplates()
        """The theme's templates as compiled in this server's earlier builds (on_env)."""
        for engine in ("mkdocs", "properdocs"):  # ProperDocs logs under its own name
            if dirty:
                logging.getLogger(f"{engine}.commands.build").addFilter(_QUIET_DIRTY)

    def watch(self, catalog_dir: Path, directory_urls: bool) -> None:
        """Render each edit of the catalogue or the templates as soon as it is written (on_serve)."""
        self._stop_ahead()
        ahead = Ahead([catalog_dir, TEMPLATES], partial(site_files, catalog_dir, directory_urls=directory_urls,
                                                        reuse=self.reuse))
        ahead.start()
        self._ahead = (directory_urls, ahead)

    def render(self, catalog_dir: Path, directory_urls: bool, site_dir: Path) -> dict[str, str]:
        """This rebuild's files: the render (made ahead when it could be), or, when the catalogue is broken, the
        last good files (NOTHING_YET before the first), with its errors recorded for the banner."""
        try:
            if self._ahead is not None and self._ahead[0] == directory_urls:
                texts = self._ahead[1].texts()
            else:
                texts = site_files(catalog_dir, directory_urls=directory_urls, reuse=self.reuse)
        except CatalogInvalid as exc:
            errors = [str(p) for p in exc.problems]
        except CatalogDocsError as exc:
            errors = [str(exc)]
        except Exception as exc:  # a bug (in a template, say): show it rather than hang every request
            traceback.print_exc()
            errors = [f"catalog-docs render failed: {type(exc).__name__}: {exc}"]
        else:
            self.record([], site_dir)
            self.drafts = tuple(_draft_line(d) for d in self.reuse.drafts_of(catalog_dir))
            self.good = texts
            keep_long_lived()
            return texts
        self.record(errors, site_dir)
        return self.good if self.good is not None else NOTHING_YET

    def keep_files(self, files: dict[str, object], layout: tuple[str, ...]) -> None:
        """Keep this build's generated files, with their pages, for the next rebuild (see kept_files)."""
        self.files, self._files_for = files, layout

    def kept_files(self, layout: tuple[str, ...]) -> dict[str, object]:
        """The last build's generated files, if they were made for `layout`: the plugin takes again those whose
        text a rebuild did not change."""
        return self.files if layout == self._files_for else {}

    def record(self, lines: list[str], site_dir: Path) -> None:
        """Remember this rebuild's errors (none after a good render) and tell the terminal.

        When they change under --dirty, the built pages are removed from the served folder, so mkdocs rebuilds
        every page (each then gains, updates or loses the banner) rather than only the pages the render rewrote.
        """
        new = tuple(lines)
        if new:
            shown = "\n".join(f"ERROR   -  {line}" for line in new)
            print(f"ERROR   -  catalog-docs: the catalogue has errors; serving the last good pages, with these "
                  f"errors shown on each:\n{shown}", file=sys.stderr, flush=True)
        elif self.errors:
            print("INFO    -  catalog-docs: the catalogue is valid again; the error banner is gone",
                  file=sys.stderr, flush=True)
        if new != self.errors and self.dirty:
            remove_files_ending(site_dir, ".html")
        self.errors = new

    def with_banner(self, page: str) -> str:
        """The page's HTML with the error banner (while the catalogue has errors) and the draft mark (while it
        holds draft labels) first in <body>; unchanged otherwise."""
        if not self.errors and not self.drafts:
            return page
        match = _BODY.search(page)
        if match is None:
            return page
        top = ((banner_html(self.errors) if self.errors else "")
               + (draft_html(self.drafts) if self.drafts else ""))
        return page[:match.end()] + top + page[match.end():]

    def _stop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead[1].stop()
            self._ahead = None

    def close(self) -> None:
        """The server stops: stop watching, and give the log filter and the collector back as they were."""
        self._stop_ahead()
        for engine in ("mkdocs", "properdocs"):
            logging.getLogger(f"{engine}.commands.build").removeFilter(_QUIET_DIRTY)
        let_go_of_long_lived()


def _draft_line(draft: Draft) -> str:
    return f"{draft.label} ({draft.file})"
