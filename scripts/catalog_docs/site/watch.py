"""Engines that run no plugins (Zensical) build from a folder of the tool's own, never from docs/:
`catalog-docs build -- COMMAND` (make site) makes it for one build, and `catalog-docs watch -- COMMAND`
(make serve) keeps it up to date while the engine's server runs, re-rendering whenever the catalogue, a
template or a hand-written page changes; the engine's own watcher rebuilds and reloads the open page.

The folder (site/folders.py, EngineFolder) holds the rendered pages and copies of the hand-written files of
docs/, listed and read without following anything (site/handwritten.py), and is removed when the command ends.
The engine learns where it is from the environment (ENGINE_DOCS_ENV, read by mkdocs.yml's docs_dir tag).

mkdocs and ProperDocs render through the plugin (`site/plugin.py`), which also shows a broken catalogue's errors on
every page. Here the same happens through the folder: while the catalogue has errors, every generated page is the
last good page with a banner of the errors at its top; the next valid render replaces them. The terminal prints
the same errors.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from catalog_docs.catalog.drafts import find_drafts, refuse_drafts
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.escape import for_terminal
from catalog_docs.layout import ENGINE_DOCS_ENV, SITE_DIR, SITE_URL_ENV, TEMPLATES
from catalog_docs.site.feed import site_address
from catalog_docs.site.folders import EngineFolder, publish_into_site, read_hand_written
from catalog_docs.site.handwritten import hand_written, refuse_collisions, site_own_files
from catalog_docs.site.pages import Reuse, directory_urls_of, site_files
from catalog_docs.site.preview import BANNER_ID, NOTHING_YET, banner_html
from catalog_docs.site.twins import missing_twins, split_twins
from catalog_docs.writing import prepare_engine_folder, prepare_site_dir

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
EXCLUDED = frozenset({"README.md"})
"""Hand-written files mkdocs.yml's exclude_docs keeps out of the site (copied, but never a clash)."""


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


def engine_theme_dirs(project: Path) -> tuple[list[Path], Path | None]:
    """The theme folders Zensical copies files from into the site, and which of them is mkdocs.yml's `custom_dir`
    (read as directory_urls_of reads its setting): that folder first, then Zensical's own theme, when installed."""
    dirs = []
    try:
        config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    except OSError:
        config = ""
    found = re.search(r"^\s+custom_dir:\s*[\"']?([^\"'\s#]+)", config, re.MULTILINE)
    custom = project / found.group(1) if found else None
    if custom is not None:
        dirs.append(custom)
    spec = importlib.util.find_spec("zensical")
    if spec is not None and spec.origin is not None:
        dirs.append(Path(spec.origin).parent / "templates")
    return dirs, custom


def engine_files(texts: Mapping[str, str], docs: Path, directory_urls: bool,
                 own: Mapping[str, str] | None = None) -> dict[str, bytes]:
    """What an engine's build folder holds: the hand-written files of `docs` and the generated ones. Raises
    DocsRefused for a docs/ no engine can read safely and for a hand-written file at a generated URL or at a path
    the site writes of its own (`own`, handwritten.site_own_files)."""
    hand = hand_written(docs)
    refuse_collisions(dict(texts), [rel for rel in hand.files if rel not in EXCLUDED], directory_urls, own=own)
    files = {rel: read_hand_written(path, f"docs/{rel}") for rel, path in hand.files.items()}
    files.update((rel, text.encode("utf-8")) for rel, text in texts.items())
    return files


def _engine_env(folder: EngineFolder) -> dict[str, str]:
    """The engine's environment: the build folder, from the project's root (Zensical takes docs_dir relative)."""
    return {**os.environ, ENGINE_DOCS_ENV: folder.rel}


def _prepare_engine_outputs(project: Path) -> None:
    """The folders the engine writes of its own accord (the site folder, which it empties, and its .cache), checked
    and cleared of links first, as the plugin does for mkdocs (writing.prepare_site_dir)."""
    prepare_site_dir(project / SITE_DIR, project)
    prepare_engine_folder(project, ".cache", "let the engine write its cache (.cache)")


def build(catalog_dir: Path, docs: Path, command: Sequence[str], *, publish: bool = False) -> int:
    """Render, lay out a build folder, run `command` (an engine's build) on it, remove the folder; returns the
    command's exit code. A broken catalogue or docs/, or a bad SITE_URL, raises before anything runs."""
    site_address(os.environ.get(SITE_URL_ENV))
    if publish:
        refuse_drafts(catalog_dir)
    directory_urls = directory_urls_of(catalog_dir.parent)
    own = site_own_files(*engine_theme_dirs(catalog_dir.parent))
    texts, twins = split_twins(site_files(catalog_dir, directory_urls=directory_urls, search_boost=False))
    missing = missing_twins([rel for rel in texts if rel.endswith(".md")], twins, directory_urls)
    if missing:
        raise CatalogDocsError("these pages have no Markdown twin (site/twins.py); nothing was built: "
                               + ", ".join(for_terminal(rel) for rel in missing))
    files = engine_files(texts, docs, directory_urls, own)
    if command:
        _prepare_engine_outputs(catalog_dir.parent)
    folder = EngineFolder(catalog_dir.parent)
    try:
        folder.update(files)
        if not command:
            return 0
        done = subprocess.run(list(command), env=_engine_env(folder), check=False)
        if done.returncode == 0:  # the twins are files of the built site, not pages of the engine's folder
            publish_into_site(catalog_dir.parent / SITE_DIR, twins)
        return done.returncode if done.returncode >= 0 else 128 - done.returncode
    finally:
        folder.remove()


class _Preview:
    """The build folder of one `watch`, and the last good pages shown in it."""

    def __init__(self, catalog_dir: Path, docs: Path, say: Callable[[str], None]) -> None:
        self.catalog_dir, self.docs, self.say = catalog_dir, docs, say
        self.directory_urls = directory_urls_of(catalog_dir.parent)
        self.folder = EngineFolder(catalog_dir.parent)
        self.good: dict[str, str] | None = None
        self.reuse = Reuse()

    def refresh(self) -> list[str]:
        """One pass of the loop: render; on errors, put them on every page. Returns the errors."""
        try:
            self.good = site_files(self.catalog_dir, directory_urls=self.directory_urls, reuse=self.reuse,
                                   search_boost=False)
            lines: list[str] = []
        except CatalogInvalid as exc:
            lines = [str(p) for p in exc.problems]
        except CatalogDocsError as exc:
            lines = [str(exc)]
        pages = split_twins(self.good)[0] if self.good is not None else NOTHING_YET
        if lines:
            shown = "\n".join(f"ERROR   -  {line}" for line in lines)
            self.say(f"ERROR   -  catalog-docs: the catalogue has errors; serving the last good pages, with these "
                     f"errors shown on each:\n{shown}")
            pages = {rel: with_banner(text, lines) if rel.endswith(".md") else text for rel, text in pages.items()}
        else:
            for draft in find_drafts(self.catalog_dir):
                self.say(f"WARNING -  catalog-docs: version label {draft.label!r} is a draft ({draft.file}); "
                         f"make site will not publish it until it is checked and `draft: true` is deleted")
        try:
            own = site_own_files(*engine_theme_dirs(self.catalog_dir.parent))
            changed = self.folder.update(engine_files(pages, self.docs, self.directory_urls, own))
        except CatalogDocsError as exc:
            self.say("\n".join(f"ERROR   -  {line}" for line in str(exc).splitlines()))
            return [*lines, str(exc)]
        if not lines:
            self.say(f"catalog-docs: {len(changed)} files updated in {self.folder.path}")
        return lines


def watch(catalog_dir: Path, docs: Path, command: Sequence[str] = (), *, stop: threading.Event | None = None,
          say: Callable[[str], None] = print) -> int:
    """Render once into a build folder of its own, then start `command` (the engine's own server, if given) on
    it and render again on every change under the catalogue folder, the templates or docs/ until it exits or
    `stop` is set. Removes the folder; returns the command's exit code."""
    site_address(os.environ.get(SITE_URL_ENV))  # the engine reads it from mkdocs.yml: refused before it runs
    if command:
        _prepare_engine_outputs(catalog_dir.parent)
    stop = stop or threading.Event()
    previous = None
    if threading.current_thread() is threading.main_thread():  # `kill` stops the server too, as Ctrl-C does
        previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    preview = _Preview(catalog_dir, docs, say)
    proc = None
    try:
        preview.refresh()
        proc = subprocess.Popen(list(command), env=_engine_env(preview.folder)) if command else None
        if proc is not None:
            threading.Thread(target=_stop_when_done, args=(proc, stop), daemon=True).start()
        # docs/ is watched only as the folder it is (a link there is refused by every pass anyway).
        watched = [catalog_dir, TEMPLATES, *([docs] if docs.is_dir() and not docs.is_symlink() else [])]
        say(f"catalog-docs: watching {', '.join(map(str, watched))}; every change renders into {preview.folder.path}")
        try:
            _watch(watched, stop, preview)
        except RuntimeError as exc:  # watchfiles gives up on a name it cannot decode (not UTF-8) in docs/
            say(f"ERROR   -  catalog-docs: {docs} cannot be watched ({for_terminal(exc)}); watching the catalogue "
                "and the templates only: restart to see edits of hand-written pages")
            _watch(watched[:2], stop, preview)
    finally:
        stopped_here = proc is not None and _stop(proc)
        preview.folder.remove()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if proc is None or stopped_here:
        return 0
    return proc.returncode if proc.returncode >= 0 else 128 - proc.returncode


def _watch(paths: list[Path], stop: threading.Event, preview: _Preview) -> None:
    import watchfiles

    for _changes in watchfiles.watch(*paths, stop_event=stop, debounce=200, step=50, raise_interrupt=False):
        preview.refresh()


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
