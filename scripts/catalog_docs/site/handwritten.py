"""What people put in docs/: read as data, never written.

The generated pages never go into docs/ (the mkdocs plugin adds them in memory; other engines build from a
folder the tool makes for that build). docs/ holds only hand-written pages and files, and every engine reads
them: mkdocs walks docs/ following links, and reads or copies every file it finds. So before an engine reads
it, docs/ is listed here without following anything, and a state no engine can read safely stops the build
with one line per thing found: docs/ itself a link, a link anywhere in it (a link loop makes mkdocs' walk
endless, a link to /dev/zero its read), a pipe, device or socket (a read waits for ever), a file over
MAX_FILE_BYTES (a sparse file of gigabytes is copied whole into site/), or more than MAX_ENTRIES entries.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal
from catalog_docs.writing import MARK

MAX_FILE_BYTES = 100 * 1024 * 1024
"""The largest hand-written file an engine is given (a picture or a PDF is well below)."""
MAX_ENTRIES = 10_000
"""At most this many files and folders in docs/."""
_SHOWN_PROBLEMS = 10
OLD_MANIFEST = ".catalog-docs-manifest.json"
"""Where catalog-docs before issue 32 listed the pages it wrote into docs/: only named in a hint, never read."""


class DocsRefused(CatalogDocsError):
    """docs/ holds something no engine can read safely: nothing was built. One problem per line."""

    def __str__(self) -> str:
        return "\n".join(for_terminal(line) for line in Exception.__str__(self).split("\n"))

    def report(self) -> str:
        return "\n".join(f"catalog-docs: error: {line}" for line in str(self).split("\n"))


@dataclass(frozen=True, slots=True, kw_only=True)
class HandWritten:
    """The hand-written files of docs/, as {path relative to docs/, with `/`: absolute path}."""

    folder: Path
    files: dict[str, Path]


def _kind(mode: int) -> str | None:
    if stat.S_ISLNK(mode):
        return "a symbolic link (the engines follow links; put the file itself here)"
    if stat.S_ISFIFO(mode):
        return "a named pipe, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return "not a file or folder"
    return None


def _problem(name: str, st: os.stat_result) -> str | None:
    """What is wrong with one entry of docs/, from its name and metadata; None: a folder, or a file to read."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "a name that is not UTF-8"
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_FILE_BYTES:
        return f"{st.st_size} bytes, over the {MAX_FILE_BYTES // (1024 * 1024)} MiB a hand-written file may have"
    return _kind(st.st_mode)


def _top(docs: Path, shown: str) -> bool:
    """Whether `docs` exists; refused when it is anything but a folder (a link to one included)."""
    try:
        top = os.lstat(docs)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise DocsRefused(f"cannot read {shown}/: {exc.strerror}") from None
    if stat.S_ISLNK(top.st_mode):
        raise DocsRefused(f"{shown} is a symbolic link: the hand-written pages must be a folder of the project "
                          f"(nothing was built; replace the link with the folder)")
    if not stat.S_ISDIR(top.st_mode):
        raise DocsRefused(f"{shown} is not a folder (nothing was built)")
    return True


def _refused(problems: list[str], shown: str) -> DocsRefused:
    more = len(problems) - _SHOWN_PROBLEMS
    lines = sorted(problems)[:_SHOWN_PROBLEMS] + ([f"... and {more} more"] if more > 0 else [])
    return DocsRefused("\n".join([*lines, f"{shown}/ must hold only files and folders: nothing was built"]))


def hand_written(docs: Path, shown: str = "docs") -> HandWritten:
    """Every regular file under `docs` (none when it does not exist). Raises DocsRefused, one line per
    problem (`shown` names the folder in them), when anything in it is not a regular file or folder, is too
    big, or there are too many entries. Nothing is opened and no link is followed."""
    if not _top(docs, shown):
        return HandWritten(folder=docs, files={})
    files: dict[str, Path] = {}
    problems: list[str] = []
    count = 0
    pending = [("", docs)]
    while pending:
        rel_dir, folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problems.append(f"{for_terminal(shown + '/' + rel_dir)}: cannot be listed: {exc.strerror}")
            continue
        for entry in entries:
            count += 1
            if count > MAX_ENTRIES:
                raise DocsRefused(f"{shown}/ holds more than {MAX_ENTRIES} files and folders (nothing was built)")
            rel = rel_dir + entry.name
            st = entry.stat(follow_symlinks=False)
            problem = _problem(entry.name, st)
            if problem is not None:
                problems.append(f"{for_terminal(shown + '/' + rel)}: {problem}")
            elif stat.S_ISDIR(st.st_mode):
                pending.append((rel + "/", Path(entry.path)))
            else:
                files[rel] = Path(entry.path)
    if problems:
        raise _refused(problems, shown)
    return HandWritten(folder=docs, files=dict(sorted(files.items())))


def dest_of(rel: str, directory_urls: bool) -> str:
    """The built file a docs path becomes, as mkdocs and Zensical name it (`operations/x.md` ->
    `operations/x/index.html`; `README.md` and `index.md` -> the folder's `index.html`; other files keep their
    path)."""
    if not rel.endswith(".md"):
        return rel
    folder, _, name = rel[:-3].rpartition("/")
    prefix = f"{folder}/" if folder else ""
    if name in ("index", "README"):
        return f"{prefix}index.html"
    return f"{prefix}{name}/index.html" if directory_urls else f"{prefix}{name}.html"


ENGINE_OUTPUTS = {
    "404.html": "the theme's page for a missing address",
    "sitemap.xml": "the sitemap",
    "sitemap.xml.gz": "the compressed sitemap of mkdocs and ProperDocs",
    "search/search_index.json": "the search index of mkdocs and ProperDocs",
    "search.json": "Zensical's search index",
}
"""What the engines write of their own besides the theme's files and the generated ones. Held to every engine's
real output: tests/site/test_engines.py::test_every_file_an_engine_writes_is_protected_from_docs fails on a file
a build writes that neither docs/, the catalogue, a theme folder nor this table accounts for."""

_NOT_COPIED = (".py", ".pyc", ".html")
"""Theme files that are templates or code, which no engine copies into the site as they are."""


def theme_outputs(theme_dirs: Iterable[Path], custom: Path | None) -> dict[str, str]:
    """{built path: where it comes from} for every file of the theme folders (`custom`, mkdocs.yml's custom_dir,
    first, then the theme's own) that an engine copies into the site: all but templates, code, hidden files and
    folders, the theme's configuration and translations (what mkdocs leaves out, Files.add_files_from_theme). The
    first folder that holds a path gives it, as the engines take them."""
    found: dict[str, str] = {}
    for theme in theme_dirs:
        shown = f"{theme.name}/" if theme == custom else f"the {theme.parent.name} theme's "
        pending = [("", theme)]
        while pending:
            rel_dir, folder = pending.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                rel = rel_dir + entry.name
                if entry.name.startswith(".") or entry.name == "__pycache__" or rel in ("locales", "mkdocs_theme.yml"):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append((rel + "/", Path(entry.path)))
                elif not entry.name.lower().endswith(_NOT_COPIED):
                    found.setdefault(rel, shown + rel)
    return found


def site_own_files(theme_dirs: Iterable[Path], custom: Path | None) -> dict[str, str]:
    """{built path: what writes it} for every file the site writes of its own, besides the generated pages and
    downloads: the theme folders' files (theme_outputs), the engines' fixed outputs (ENGINE_OUTPUTS) and the mark the
    tool leaves in the site folder."""
    own = {rel: f"the site writes itself (from {source})" for rel, source in theme_outputs(theme_dirs, custom).items()}
    own.update((rel, f"the site writes itself ({what})") for rel, what in ENGINE_OUTPUTS.items() if rel not in own)
    own.setdefault(MARK, "the site writes itself (the mark of the tool's output, writing.MARK)")
    return own


def folded(path: str) -> str:
    """A built path as a case-insensitive disk or server may take it: Unicode's canonical caseless form (NFD, case
    folded, NFD again), in NFC. Two paths with the same folded form may be one file."""
    if path.isascii():  # every generated path: the same form, sooner
        return path.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", unicodedata.normalize("NFD", path).casefold()))


def _folders(path: str) -> Iterator[str]:
    parts = path.split("/")
    for depth in range(1, len(parts)):
        yield "/".join(parts[:depth])


class _Taken:
    """The built paths the site writes, looked up by folded path and by folder: `generated` ({built path: the
    generated file's path}) and `own` ({built path: what writes it})."""

    def __init__(self, generated: Mapping[str, str], own: Mapping[str, str]) -> None:
        self.generated, self.own = generated, own
        self.by_fold = {folded(path): path for path in own} | {folded(path): path for path in generated}
        self.by_folder: dict[str, str] = {}
        for key, path in self.by_fold.items():
            cut = key.rfind("/")
            while cut > 0 and key[:cut] not in self.by_folder:  # a folder seen already has its parents too
                self.by_folder[key[:cut]] = path
                cut = key.rfind("/", 0, cut)

    def _writer(self, path: str) -> str:
        page = self.generated.get(path)
        return f"the catalogue generates (its page {page})" if page is not None else self.own[path]

    def clash(self, dest: str) -> str | None:
        """How a hand-written file built at `dest` clashes with a file the site writes, or None."""
        if dest in self.generated or dest in self.own:
            return f"which {self._writer(dest)}"
        key = folded(dest)
        path = self.by_fold.get(key)
        if path is not None:
            return f"which differs only in case or Unicode form from {path}, which {self._writer(path)}"
        path = next((self.by_fold[f] for f in _folders(key) if f in self.by_fold), None)
        if path is not None:
            return f"which needs a folder where {path} is, which {self._writer(path)}"
        path = self.by_folder.get(key)
        if path is not None:
            return f"where {path} needs a folder, which {self._writer(path)}"
        return None


def refuse_collisions(generated: Iterable[str], hand: list[str], directory_urls: bool, shown: str = "docs",
                      own: Mapping[str, str] | None = None) -> None:
    """A hand-written file at a URL the catalogue generates (`generated`: their paths) or at a path the site writes
    of its own (`own`: site_own_files) is an error naming both (never replaced): the same path, the same but for
    case or Unicode form (one file on a case-insensitive disk), or a file where the other needs a folder."""
    if not hand:
        return
    index = _Taken({dest_of(rel, directory_urls): rel for rel in generated}, own or {})
    clashes = []
    for rel in hand:
        dest = dest_of(rel, directory_urls)
        clash = index.clash(dest)
        if clash is not None:
            clashes.append(f"{for_terminal(shown + '/' + rel)} is hand-written at {for_terminal(dest)}, {clash}: "
                           "rename or move the hand-written file")
    if not clashes:
        return
    if OLD_MANIFEST in hand:
        clashes.append(f"{shown}/{OLD_MANIFEST} is there: these are pages an older catalog-docs rendered into "
                       f"{shown}/, which it no longer does (the pages are made in memory): delete them and it")
    raise DocsRefused("\n".join([*clashes, "nothing was built"]))
