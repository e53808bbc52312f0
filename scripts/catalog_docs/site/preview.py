"""The preview loop under `mkdocs serve`: a broken catalogue keeps the last good pages on the server, with
its errors shown on every page and in the terminal, instead of failing the build.

mkdocs serve waits, for every request, until a rebuild succeeds: a rebuild that raises leaves every request
hanging. So while serving, the plugin records the errors here and lets the build go on with the pages of the
last good render, which it keeps in memory. `mkdocs build` still fails.
"""

from __future__ import annotations

import html
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from catalog_docs.writing import remove_files_ending

BANNER_ID = "catalog-docs-errors"
DRAFT_ID = "catalog-docs-drafts"
NOTHING_YET = {"index.md": "# The catalogue has errors\n\nThey are listed above. Fix them and this page reloads "
                           "with the site.\n"}
"""What a preview shows when the catalogue has had errors since it started (no good pages to keep)."""
_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


@dataclass(slots=True)
class _Session:
    """What one `mkdocs serve` process knows between rebuilds (mutable: it changes on every rebuild)."""

    serving: bool = False
    dirty: bool = False
    errors: tuple[str, ...] = field(default_factory=tuple)
    drafts: tuple[str, ...] = ()
    """Draft version labels of the last good render, each with its file (marked on every page)."""


_session = _Session()


class _QuietDirty(logging.Filter):
    """mkdocs warns on every --dirty rebuild that navigation may go stale; the site's navigation is a fixed
    list (mkdocs.yml nav), so the warning says nothing here and would bury the catalogue's errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


_QUIET_DIRTY = _QuietDirty()


def start(*, command: str, dirty: bool) -> None:
    """Called once per mkdocs process (on_startup): note whether it serves, and with --dirty."""
    _session.serving = command == "serve"
    _session.dirty = dirty
    _session.errors = ()
    for engine in ("mkdocs", "properdocs"):  # ProperDocs logs under its own name
        build_log = logging.getLogger(f"{engine}.commands.build")
        if _session.serving and dirty:
            build_log.addFilter(_QUIET_DIRTY)
        else:
            build_log.removeFilter(_QUIET_DIRTY)


def serving() -> bool:
    return _session.serving


def errors() -> tuple[str, ...]:
    return _session.errors


def record(lines: list[str], site_dir: Path) -> None:
    """Remember this rebuild's errors (none after a good render) and tell the terminal.

    When they change under --dirty, the built pages are removed from the served folder, so mkdocs rebuilds
    every page (each then gains, updates or loses the banner) rather than only the pages the render rewrote.
    """
    new = tuple(lines)
    if new:
        shown = "\n".join(f"ERROR   -  {line}" for line in new)
        print(f"ERROR   -  catalog-docs: the catalogue has errors; serving the last good pages, with these "
              f"errors shown on each:\n{shown}", file=sys.stderr, flush=True)
    elif _session.errors:
        print("INFO    -  catalog-docs: the catalogue is valid again; the error banner is gone",
              file=sys.stderr, flush=True)
    if new != _session.errors and _session.dirty:
        remove_files_ending(site_dir, ".html")
    _session.errors = new


def banner_html(lines: tuple[str, ...]) -> str:
    """The banner: every error as `file:line:column: message`, escaped (catalogue text is data)."""
    items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
    count = "1 error" if len(lines) == 1 else f"{len(lines)} errors"
    return (f'<div id="{BANNER_ID}" role="alert" style="background:#fde8e8;color:#5c0a0a;'
            f'border-bottom:3px solid #b3261e;padding:.8rem 1rem;font-size:.8rem;line-height:1.5">'
            f"<strong>The catalogue has {count}; this preview shows the last good pages.</strong> "
            f"Fix the file and the page reloads.<ul style=\"margin:.4rem 0 0 1.2rem\">{items}</ul></div>")


def record_drafts(labels: list[str]) -> None:
    """Remember the draft labels the preview shows (none after they are all checked)."""
    _session.drafts = tuple(labels)


def draft_html(labels: tuple[str, ...]) -> str:
    """The draft mark: which labels on this site are copies not yet checked against the source (escaped)."""
    items = ", ".join(f"<code>{html.escape(label)}</code>" for label in labels)
    return (f'<div id="{DRAFT_ID}" role="note" style="background:#fff4d6;color:#3d2c00;border-bottom:3px dashed '
            f'#7a5a00;padding:.6rem 1rem;font-size:.8rem;line-height:1.5"><strong>Draft:</strong> this preview '
            f"shows draft version label{'s' if len(labels) > 1 else ''} {items}, copied and not yet checked "
            f"against the source. Its values are not facts of the source; make site will not publish it.</div>")


def with_banner(page: str) -> str:
    """The page's HTML with the error banner (while the catalogue has errors) and the draft mark (while it holds
    draft labels) first in <body>; unchanged otherwise."""
    if not _session.errors and not _session.drafts:
        return page
    match = _BODY.search(page)
    if match is None:
        return page
    top = ((banner_html(_session.errors) if _session.errors else "")
           + (draft_html(_session.drafts) if _session.drafts else ""))
    return page[:match.end()] + top + page[match.end():]
