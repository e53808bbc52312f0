"""The site stage's files, none of them in docs/; every file is written, and every folder removed, through
`writing.py` (each path opened from a folder held, never through a link):

- `render_out`: `catalog-docs render --out DIR`, the pages as files for anyone who wants them. Everything is
  written into a folder this process has just made, then moved to DIR in one rename. A DIR that is not empty is
  refused unless `--replace`, which replaces only a folder the tool wrote (its mark, writing.MARK); the project,
  a folder it is in, docs/, catalog/, the home folder or a folder holding .git are refused whatever they hold.
- `EngineFolder`: the folder an engine without plugins (Zensical) builds from, made for that build under
  `build/catalog-docs/` (BUILD_ROOT): the rendered pages plus copies of the hand-written ones.
- `write_parts`: a download made in parts, written into a render's spill folder as its parts come.
- `clean`: removes site/ and the tool's own build folders, never through a link.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal
from catalog_docs.layout import BUILD_ROOT, SITE_DIR
from catalog_docs.site.handwritten import MAX_FILE_BYTES, DocsRefused
from catalog_docs.writing import (
    MARK,
    MARK_TEXT,
    Folder,
    WriteRefused,
    kind_of,
    open_anchor,
    open_path,
    open_within,
    parent_and_name,
    refuse_protected,
    write_file,
)
from catalog_docs.writing import write_tree as write_tree_into

_RENDER = "write the pages (render --out)"


def write_tree(files: Mapping[str, str | bytes], folder: Path) -> None:
    """Write `files` ({path with `/`: text or bytes}) into `folder`, an empty folder the caller has just made."""
    opened = open_path(folder, _RENDER)
    if opened is None:
        raise WriteRefused(f"cannot {_RENDER}: {for_terminal(folder)} does not exist")
    with opened:
        write_tree_into(files, opened)


def _refuse_existing(parent: Folder, name: str, shown: str, replace: bool) -> bool:
    """Whether `name` is there to be replaced; refused unless it is an empty folder, or with `replace` a folder
    carrying the tool's mark."""
    found = parent.lstat(name)
    if found is None:
        return False
    if not stat.S_ISDIR(found.st_mode):
        raise WriteRefused(f"{shown} is {kind_of(found.st_mode)}: render --out writes into a folder, never through a "
                           "link (nothing was written)")
    existing = parent.child(name)
    assert existing is not None
    with existing:
        if existing.is_empty():
            return True
        if not replace:
            raise WriteRefused(f"{shown} is not empty: render --out writes only into a new or empty folder; "
                               "--replace replaces a folder render --out wrote (nothing was written)")
        if not existing.marked():
            raise WriteRefused(f"{shown} was not written by render --out (it has no {MARK}): --replace replaces only "
                               "an empty folder or one render --out wrote (nothing was written)")
    return True


def render_out(files: Mapping[str, str], out: Path, *, replace: bool = False, projects: Sequence[Path] = ()
               ) -> None:
    """Write the rendered files into `out`: a new or empty folder, or with `replace` one an earlier render --out
    wrote, swapped whole. Refused in one line: `out` (or a folder on the way to it) a link, not a folder, not
    empty without `replace`, not the tool's with it, or a folder of `projects` that must never be written."""
    shown = for_terminal(out)
    refuse_protected(out, projects, _RENDER)
    parent, name = parent_and_name(out, _RENDER)
    with parent:
        there = _refuse_existing(parent, name, shown, replace)
        staged_name, staged = parent.new_folder(f".{name}.catalog-docs-")
        try:
            with staged:
                write_tree_into(files, staged)
                staged.create(MARK, MARK_TEXT)
            if there:
                aside_name, aside = parent.new_folder(f".{name}.catalog-docs-old-")
                with aside:
                    parent.move(name, aside, "old")  # the folder itself moves, a link in it is never followed
                parent.move(staged_name, parent, name)
                parent.remove(aside_name)
            else:
                parent.move(staged_name, parent, name)
        except OSError as exc:
            parent.remove(staged_name)
            raise CatalogDocsError(f"cannot {_RENDER}: {shown}: {exc.strerror or exc}") from None


def read_hand_written(path: Path, shown: str) -> bytes:
    """A hand-written file's bytes, for a build folder: opened without following a link or waiting on a pipe,
    and refused unless it is a regular file within MAX_FILE_BYTES (docs/ may have changed since it was listed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise DocsRefused(f"{for_terminal(shown)}: cannot be read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            raise DocsRefused(f"{for_terminal(shown)}: not a regular file of at most {MAX_FILE_BYTES} bytes")
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise DocsRefused(f"{for_terminal(shown)}: grew over {MAX_FILE_BYTES} bytes while it was read")
    return data


class EngineFolder:
    """A folder of the tool's own under BUILD_ROOT, made for one build or one preview: an engine without plugins
    builds from it. `update` makes it hold exactly the files given, writing only those that changed (each
    written beside and renamed in place, so a watching engine never reads half a file)."""

    def __init__(self, project: Path) -> None:
        what = "write the build folder"
        root = open_within(project, BUILD_ROOT, what, make=True)
        assert root is not None
        try:
            name, self._folder = root.new_folder("build-")
        except BaseException:
            root.close()
            raise
        self._root, self._name = root, name
        self.path = project / BUILD_ROOT / name
        self.rel = f"{BUILD_ROOT}/{name}"
        """The folder from the project's root."""
        self._held: dict[str, bytes] = {}

    def _sub(self, opened: dict[str, Folder], sub: str, *, make: bool) -> Folder | None:
        if sub not in opened:
            found = self._folder.walk(sub, make=make)
            if found is None:
                return None
            opened[sub] = found
        return opened[sub]

    def update(self, files: Mapping[str, bytes]) -> list[str]:
        """Make the folder hold `files`; returns the paths written or removed."""
        changed = []
        opened: dict[str, Folder] = {}
        try:
            for rel, data in sorted(files.items()):
                if self._held.get(rel) == data:
                    continue
                sub, _, name = rel.rpartition("/")
                folder = self._sub(opened, sub, make=True)
                assert folder is not None
                folder.put(name, data)
                self._held[rel] = data
                changed.append(rel)
            for rel in sorted(set(self._held) - set(files)):
                sub, _, name = rel.rpartition("/")
                folder = self._sub(opened, sub, make=False)
                if folder is not None:
                    folder.remove(name)
                del self._held[rel]
                changed.append(rel)
        finally:
            for folder in opened.values():
                folder.close()
        return changed

    def remove(self) -> None:
        """Remove the folder with everything in it (links inside as links)."""
        try:
            self._folder.close()
            self._root.remove(self._name)
        except OSError:  # pragma: no cover - a folder of the tool's own that cannot be removed is left
            pass
        finally:
            self._root.close()


def clean(project: Path, site: str = SITE_DIR) -> list[str]:
    """Remove `site/` and BUILD_ROOT of `project`, each walked from the project's root without following a link
    (a link, a file or a pipe on the way is refused); returns what was removed. Nothing else is touched."""
    removed = []
    with open_anchor(project, "remove the built site and build folders (clean)") as root:
        for rel in (site, BUILD_ROOT):
            sub, _, name = rel.rpartition("/")
            holder = root.walk(sub)
            if holder is None:
                continue
            with holder:
                found = holder.lstat(name)
                if found is None:
                    continue
                if not stat.S_ISDIR(found.st_mode):
                    raise holder.refuse(name, found)
                try:
                    holder.remove(name)
                except OSError as exc:
                    raise CatalogDocsError(f"cannot remove {for_terminal(project / rel)}: {exc.strerror or exc}"
                                           ) from None
            removed.append(rel)
    return removed


def write_parts(spill: Path, rel: str, parts: Callable[[], Iterable[str]]) -> str:
    """Write a file's parts into `spill/rel` as they come (writing.write_file: into a new file beside it, renamed
    when whole); returns "" (what the render's result holds in its place until it is left out)."""
    write_file(spill, rel, parts(), "write the downloads")
    return ""


def publish_into_site(site: Path, files: Mapping[str, str]) -> None:
    """Add `files` ({site path: text}: the pages' Markdown twins) to a site an engine without plugins has just built
    (Zensical builds every `.md` of its folder as a page, so they cannot go through the build folder), each through
    writing.write_file: never through a link, written beside its place and renamed over it."""
    for rel, text in sorted(files.items()):
        write_file(site, rel, text.encode("utf-8"), "publish the Markdown twins")
