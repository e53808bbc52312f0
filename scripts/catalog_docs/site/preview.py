"""The preview loop under `mkdocs serve`: a broken catalogue keeps the last good pages on the server, with
its errors shown on every page and in the terminal, instead of failing the build.

mkdocs serve waits, for every request, until a rebuild succeeds: a rebuild that raises leaves every request
hanging. So while serving, the hook records the errors here and lets the build go on from the pages the
last good render left in docs/ (a failed render writes nothing). `mkdocs build` still fails.

mkdocs loads the hook file afresh on every rebuild, while this module is imported once per process, so the
serving state lives here.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from catalog_docs.layout import GENERATED_ROOTS, MANIFEST

BANNER_ID = "catalog-docs-errors"
DRAFT_ID = "catalog-docs-drafts"
_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


@dataclass(slots=True)
class _Session:
    """What one `mkdocs serve` process knows between rebuilds (mutable: it changes on every rebuild)."""

    serving: bool = False
    dirty: bool = False
    errors: tuple[str, ...] = field(default_factory=tuple)
    drafts: tuple[str, ...] = ()
    """Draft version labels of the last good render, each with its file (marked on every page)."""
    roots: frozenset[str] = frozenset()
    """First path segments of the generated pages in docs/ (see watch_docs_quietly)."""


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
        for page in site_dir.rglob("*.html"):
            page.unlink(missing_ok=True)
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


def generated_roots(docs_dir: Path) -> frozenset[str]:
    """The first path segments of every page the last render wrote (`operations`, `index.md`, ...), from
    its manifest: events under them come from a render, never from a person (the render refuses a
    hand-written page there)."""
    try:
        files = json.loads((docs_dir / MANIFEST).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return frozenset()
    # The manifest came from docs/: a planted one naming docs/README.md must not hide its edits.
    return frozenset(str(f).split("/", 1)[0] for f in files if isinstance(f, str)) & GENERATED_ROOTS


def _from_render(path: str, docs: str) -> bool:
    rel = os.path.relpath(path, docs)
    first = rel.split(os.sep, 1)[0]
    return first.startswith(".catalog-docs") or first in _session.roots


def watch_docs_quietly(server: object, docs_dir: Path) -> bool:
    """One save, one rebuild, one reload: the server's own watch of docs/ is replaced by one that ignores
    what the render writes there. Without it, a catalogue edit rebuilt twice (the edit, then the pages the
    hook rendered during that rebuild) and the browser reloaded twice, losing its scroll position.

    Hand-written files in docs/ still trigger a rebuild. Needs the MkDocs 1.x live-reload server (mkdocs and
    ProperDocs share it); with any other server nothing changes and False is returned."""
    docs = os.path.abspath(docs_dir)  # noqa: PTH100  # the server keys its watches by abspath (links kept)
    try:
        # Private attributes of mkdocs' LiveReloadServer, which types it without them (checked in try/except).
        watched, observer, cond = server._watched_paths, server.observer, server._rebuild_cond  # type: ignore[attr-defined]
    except AttributeError:
        return False
    if docs not in watched:
        return False
    import watchdog.events  # the server's own dependency

    _session.roots = generated_roots(Path(docs))

    def callback(event: watchdog.events.FileSystemEvent) -> None:
        if event.is_directory:
            return
        paths = [p for p in (event.src_path, getattr(event, "dest_path", "")) if p]
        if all(_from_render(os.fsdecode(p), docs) for p in paths):
            return
        with cond:
            server._want_rebuild = True  # type: ignore[attr-defined]  # private, as above
            cond.notify_all()

    server.unwatch(docs)  # type: ignore[attr-defined]
    handler = watchdog.events.FileSystemEventHandler()
    handler.on_any_event = callback  # type: ignore[method-assign]
    observer.schedule(handler, docs, recursive=True)
    return True


def rendered(docs_dir: Path) -> None:
    """After each render under serve: a new label or plan entry may add a folder of generated pages."""
    if _session.serving:
        _session.roots = generated_roots(docs_dir)

