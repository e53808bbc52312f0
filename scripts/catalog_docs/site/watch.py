"""The preview loop for engines that run no hooks (Zensical): re-render into docs/ whenever the catalogue or
a template changes, and let the engine's own watcher rebuild and reload the open page.

mkdocs and ProperDocs render through the hook (`mkdocs_hook`), which also shows a broken catalogue's errors on
every page. Here the same happens through docs/ itself: while the catalogue has errors, every generated page
is rewritten as the last good page with a banner of the errors at its top (written by the same crash-safe
writer, and recorded in the manifest without a fingerprint), so the engine serves them; the next valid render
replaces them. The terminal prints the same errors.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from catalog_docs.catalog.drafts import find_drafts
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.layout import PACKAGE_DIR
from catalog_docs.site.incremental import render_if_changed
from catalog_docs.site.preview import BANNER_ID, banner_html
from catalog_docs.site.write import WriteResult, read_own_files, write_output

TEMPLATES = PACKAGE_DIR / "site" / "templates"
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def render_or_show_errors(catalog_dir: Path, docs: Path, *, say: Callable[[str], None] = print) -> list[str]:
    """One pass of the loop: render if anything changed; on errors, put them on every page. Returns the
    errors (empty after a good render)."""
    try:
        result = render_if_changed(catalog_dir, docs)
    except CatalogInvalid as exc:
        lines = [str(p) for p in exc.problems]
    except CatalogDocsError as exc:
        lines = [str(exc)]
    else:
        if result is not None:
            say(f"catalog-docs: {len(result.written)} pages written, {result.unchanged} unchanged, "
                f"{len(result.removed)} removed")
            for draft in find_drafts(catalog_dir):
                say(f"WARNING -  catalog-docs: version label {draft.label!r} is a draft ({draft.file}); "
                    f"make site will not publish it until it is checked and `draft: true` is deleted")
        return []
    shown = "\n".join(f"ERROR   -  {line}" for line in lines)
    say(f"ERROR   -  catalog-docs: the catalogue has errors; serving the last good pages, with these errors "
        f"shown on each:\n{shown}")
    show_errors(docs, lines)
    return lines


def with_banner(page: str, lines: Sequence[str]) -> str:
    """A generated Markdown page with the error banner first in its body (after its front matter), in place
    of any banner it had."""
    page = _strip_banner(page)
    front = _FRONT_MATTER.match(page)
    cut = front.end() if front else 0
    return page[:cut] + "\n" + banner_html(tuple(lines)) + "\n\n" + page[cut:]


def _strip_banner(page: str) -> str:
    start = page.find(f'<div id="{BANNER_ID}"')
    if start < 0:
        return page
    end = page.find("</div>", start)
    return page[: start - 1] + page[end + len("</div>") + 2:] if end >= 0 else page


def show_errors(docs: Path, lines: Sequence[str]) -> WriteResult | None:
    """Rewrite the last good pages with the banner on each; downloads stay as they were. Nothing is written
    when docs/ holds no earlier render (there are no good pages to show)."""
    try:
        written = read_own_files(docs)
    except CatalogDocsError:
        return None  # a manifest the writer refuses: the next render names it
    if written is None:
        return None  # a page went missing or changed: leave docs/ alone rather than drop it from the manifest
    pages = {rel: with_banner(text, lines) if rel.endswith(".md") else text for rel, text in written.items()}
    # No fingerprint: the next render_if_changed renders afresh and replaces every bannered page.
    return write_output(pages, docs)


def watch(catalog_dir: Path, docs: Path, command: Sequence[str] = (), *, stop: threading.Event | None = None,
          say: Callable[[str], None] = print) -> int:
    """Render once, then start `command` (the engine's own server, if given) and re-render on every change
    under the catalogue folder or the templates until it exits or `stop` is set. Returns its exit code."""
    import watchfiles

    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():  # `kill` stops the server too, as Ctrl-C does
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    render_or_show_errors(catalog_dir, docs, say=say)
    proc = subprocess.Popen(list(command)) if command else None
    if proc is not None:
        threading.Thread(target=_stop_when_done, args=(proc, stop), daemon=True).start()
    say(f"catalog-docs: watching {catalog_dir} and the templates; every change re-renders into {docs}")
    try:
        for _changes in watchfiles.watch(catalog_dir, TEMPLATES, stop_event=stop, debounce=200, step=50,
                                         raise_interrupt=False):
            render_or_show_errors(catalog_dir, docs, say=say)
    finally:
        stopped_here = proc is not None and _stop(proc)
    if proc is None or stopped_here:
        return 0
    return proc.returncode if proc.returncode >= 0 else 128 - proc.returncode


def _stop_when_done(proc: subprocess.Popen[bytes], stop: threading.Event) -> None:
    proc.wait()
    stop.set()


def _stop(proc: subprocess.Popen[bytes]) -> bool:
    """Stop the engine's server if it still runs (politely, then not); True when it was still running."""
    if proc.poll() is not None:
        return False
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return True


def main_say(message: str) -> None:
    """Print to the terminal at once, as the engines print their own log lines."""
    print(message, file=sys.stderr, flush=True)

