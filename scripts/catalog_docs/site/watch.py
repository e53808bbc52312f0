"""Engines that run no plugins (Zensical) build from a folder of the tool's own, never from docs/:
`catalog-docs build -- COMMAND` (make site) makes it for one build, and `catalog-docs watch -- COMMAND`
(make serve) keeps it up to date while the engine's server runs, re-rendering whenever the catalogue, a
template or a hand-written page changes; the engine's own watcher rebuilds and reloads the open page.

The folder (site/folders.py, EngineFolder) holds the rendered pages and copies of the hand-written files of
docs/, listed and read without following anything (site/handwritten.py), and is removed when the command ends.
The engine learns where it is from the environment (ENGINE_DOCS_ENV, read by mkdocs.yml's docs_dir tag). Files
that are not pages (llms.txt, llms-full.txt, the feeds, the downloads) are in it too, and the engine copies them
into its site as it does every static file of its docs folder. The pages' Markdown twins cannot be: the engine
builds every `.md` there as a page. `build` writes them into the site once the engine has built it; `watch` keeps
them in the site its server serves (_ServedTwins).

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
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

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
from catalog_docs.writing import keep_files, prepare_engine_folder, prepare_site_dir

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


def engine_project(catalog_dir: Path) -> Path:
    """The project whose build/catalog-docs/ and site/ `build` and `watch` write: the folder holding the catalogue
    folder (relative to the current folder when the catalogue's path is), which must also hold the mkdocs.yml the
    engines read. Any other folder is refused before anything is written: `--catalog tests/fixture-catalog` once
    wrote into tests/build/ and tests/site/, and `build` run inside catalog/ into catalog/site/."""
    parent = Path(os.path.normpath(Path.cwd() / catalog_dir)).parent  # `..` undone by name, no link followed
    project = parent if catalog_dir.is_absolute() else Path(os.path.relpath(parent))
    if not (project / "mkdocs.yml").is_file():
        raise CatalogDocsError(f"{for_terminal(str(catalog_dir))}: build and watch write into the project that "
                               f"holds the catalogue folder (its build/ and site/), and {for_terminal(str(project))} "
                               "holds no mkdocs.yml: name the catalog/ folder of a project (nothing was written)")
    return project


def _prepare_engine_outputs(project: Path) -> None:
    """The folders the engine writes of its own accord (the site folder, which it empties, and its .cache), checked
    and cleared of links first, as the plugin does for mkdocs (writing.prepare_site_dir)."""
    prepare_site_dir(project / SITE_DIR, project)
    prepare_engine_folder(project, ".cache", "let the engine write its cache (.cache)")


def build(catalog_dir: Path, docs: Path, command: Sequence[str], *, publish: bool = False) -> int:
    """Render, lay out a build folder, run `command` (an engine's build) on it, remove the folder; returns the
    command's exit code. A broken catalogue or docs/, or a bad SITE_URL, raises before anything runs."""
    site_address(os.environ.get(SITE_URL_ENV))
    project = engine_project(catalog_dir)
    if publish:
        refuse_drafts(catalog_dir)
    directory_urls = directory_urls_of(project)
    own = site_own_files(*engine_theme_dirs(project))
    texts, twins = split_twins(site_files(catalog_dir, directory_urls=directory_urls, search_boost=False))
    missing = missing_twins([rel for rel in texts if rel.endswith(".md")], twins, directory_urls)
    if missing:
        raise CatalogDocsError("these pages have no Markdown twin (site/twins.py); nothing was built: "
                               + ", ".join(for_terminal(rel) for rel in missing))
    files = engine_files(texts, docs, directory_urls, own)
    if command:
        _prepare_engine_outputs(project)
    folder = EngineFolder(project)
    try:
        folder.update(files)
        if not command:
            return 0
        done = subprocess.run(list(command), env=_engine_env(folder), check=False)
        if done.returncode == 0:  # the twins are files of the built site, not pages of the engine's folder
            publish_into_site(project / SITE_DIR, twins)
        return done.returncode if done.returncode >= 0 else 128 - done.returncode
    finally:
        folder.remove()


class _ServedTwins:
    """The pages' Markdown twins in the site folder an engine's server serves (`watch` with a command).

    Zensical's server empties its site folder whenever a file it watches changes (the build folder above all),
    then builds it again; a file added to a folder while it empties it stops the server. So the
    twins are written only by `follow`, never while the build folder changes (one lock), nor between a change of
    the build folder and the moment the engine has emptied the site after it (a file of its own gone), and each
    twin only where its page's HTML already is; every time the site folder changes and then is quiet for a moment,
    the twins missing there and those a render changed are written (writing.keep_files)."""

    GIVE_UP = 10.0
    """Seconds after a change of the build folder without the engine emptying its site: the twins are written."""

    def __init__(self, site: Path, say: Callable[[str], None]) -> None:
        self.site, self.say = Path(os.path.abspath(site)), say  # noqa: PTH100  # as watchfiles names its paths
        self._texts: dict[str, bytes] = {}
        self._pending: set[str] = set()
        """Twins a render changed and `follow` has not written yet."""
        self._changed_at: float | None = None
        """When the build folder last changed, until the engine has emptied its site after it."""
        self._started = False
        """Whether the engine has written its site once: until then any file of its own shows its build began."""
        self._lock = threading.Lock()
        self._said = ""
        self._thread: threading.Thread | None = None

    def change(self, update: Callable[[], list[str]], twins: Mapping[str, str]) -> list[str]:
        """Run `update` (a change of the build folder; returns what it changed) and take the `twins` of the pages
        it holds, while `follow` writes nothing."""
        texts = {rel: text.encode("utf-8") for rel, text in twins.items()}
        with self._lock:
            changed = update()
            self._pending = {rel for rel, data in texts.items() if self._texts.get(rel) != data or rel in self._pending}
            self._texts = texts
            if changed:
                self._changed_at = time.monotonic()
        return changed

    def _engines(self, changes: set[tuple[Any, str]]) -> bool:
        """Whether the engine emptied its site: it removed a file of its own (not a twin, nor a file being written
        here), or, before its first build, wrote one."""
        for change, path in changes:
            rel = Path(path).relative_to(self.site).as_posix() if Path(path).is_relative_to(self.site) else ""
            if (rel and rel not in self._texts and not rel.rpartition("/")[2].startswith(".")
                    and (change.name == "deleted" or not self._started)):
                self._started = True
                return True
        return False

    def _keep(self, changes: set[tuple[Any, str]]) -> None:
        with self._lock:
            if not changes and not self._pending and self._changed_at is None:
                return  # quiet, and nothing to write: no file is looked at
            if self._changed_at is not None:
                if not self._engines(changes) and time.monotonic() - self._changed_at < self.GIVE_UP:
                    return
                self._changed_at = None
            written = keep_files(self.site, self._texts, _PUBLISH_TWINS, rewrite=self._pending, beside=_page_of)
            self._pending -= set(written)

    def follow(self, stop: threading.Event) -> None:
        """Until `stop` is set: whenever the site folder has changed and is quiet for a moment (and every second
        besides), write the twins missing there or changed (see the class)."""
        import watchfiles

        for changes in watchfiles.watch(self.site, stop_event=stop, debounce=1600, step=300, rust_timeout=1000,
                                        yield_on_timeout=True, raise_interrupt=False):
            try:
                self._keep(changes)
                self._said = ""
            except CatalogDocsError as exc:  # said once, not at every change of the folder
                if str(exc) != self._said:
                    self._said = str(exc)
                    self.say(f"ERROR   -  catalog-docs: {exc}")

    def start(self, stop: threading.Event) -> None:
        """`follow` in a thread of its own, until `stop` is set (see `end`)."""
        self._thread = threading.Thread(target=self.follow, args=(stop,), daemon=True)
        self._thread.start()

    def end(self, stop: threading.Event) -> None:
        """Stop `follow` (the engine's server has ended: nothing serves the site folder any more)."""
        if self._thread is not None:
            stop.set()
            self._thread.join()


def _page_of(twin: str) -> str:
    """The built page beside a twin (`index.md`: `index.html`; `x.md`: `x.html`)."""
    return twin[: -len(".md")] + ".html"


_PUBLISH_TWINS = "publish the Markdown twins"


class _Preview:
    """The build folder of one `watch`, and the last good pages shown in it; with `site` (an engine's server
    serves that folder), the twins of those pages there too."""

    def __init__(self, catalog_dir: Path, docs: Path, say: Callable[[str], None], *, project: Path,
                 site: Path | None = None) -> None:
        self.catalog_dir, self.docs, self.say, self.project = catalog_dir, docs, say, project
        self.directory_urls = directory_urls_of(project)
        self.folder = EngineFolder(project)
        self.good: dict[str, str] | None = None
        self.reuse = Reuse()
        self.twins = _ServedTwins(site, say) if site is not None else None

    def start(self, stop: threading.Event) -> None:
        """Keep the twins in the site folder, if it has one, until `stop` is set or `close`."""
        if self.twins is not None:
            self.twins.start(stop)

    def close(self, stop: threading.Event) -> None:
        """Stop keeping the twins, and remove the build folder."""
        if self.twins is not None:
            self.twins.end(stop)
        self.folder.remove()

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
        pages, twins = split_twins(self.good) if self.good is not None else (NOTHING_YET, {})
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
            own = site_own_files(*engine_theme_dirs(self.project))
            files = engine_files(pages, self.docs, self.directory_urls, own)
            if self.twins is None:
                changed = self.folder.update(files)
            else:
                changed = self.twins.change(partial(self.folder.update, files), twins)
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
    project = engine_project(catalog_dir)
    if command:
        _prepare_engine_outputs(project)
    stop = stop or threading.Event()
    previous = None
    if threading.current_thread() is threading.main_thread():  # `kill` stops the server too, as Ctrl-C does
        previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    preview = _Preview(catalog_dir, docs, say, project=project, site=project / SITE_DIR if command else None)
    proc = None
    try:
        preview.refresh()
        preview.start(stop)
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
        preview.close(stop)
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
