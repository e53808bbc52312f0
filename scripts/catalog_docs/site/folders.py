"""The only places the site stage writes files, none of them docs/:

- `render_out`: `catalog-docs render --out DIR`, the pages as files for anyone who wants them. Everything is
  written into a folder this process has just made, then moved to DIR in one rename; a DIR that is not empty is
  refused unless the whole folder is to be replaced (`--replace`), and a link is never written or deleted through.
- `EngineFolder`: the folder an engine without plugins (Zensical) builds from, made for that build under
  `build/catalog-docs/` (BUILD_ROOT): the rendered pages plus copies of the hand-written ones.
- `write_parts`: a download made in parts, written into a render's spill folder as its parts come.
- `clean`: removes site/ and the tool's own build folders, never through a link.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal
from catalog_docs.layout import BUILD_ROOT
from catalog_docs.site.handwritten import MAX_FILE_BYTES, DocsRefused
from catalog_docs.writing import write_file

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def check_writable_folder(folder: Path, what: str) -> None:
    """Create `folder` if needed and prove a file can be made in it (made and removed at once): one line
    naming the folder when it cannot, instead of a traceback half way through a build. Permission bits are
    not trusted to tell (root ignores them); a read-only mount, a file in the way or a full disk show here."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".catalog-docs-probe-")
    except FileExistsError:
        raise CatalogDocsError(f"cannot write {what} into {folder}: a file is there, not a folder; remove it or "
                               "choose another folder") from None
    except OSError as exc:
        raise CatalogDocsError(f"cannot write {what} into {folder}: {exc.strerror or exc}; make it a writable "
                               "folder or choose another") from None
    os.close(fd)
    Path(probe).unlink()


def _new_folder(parent: Path, prefix: str) -> Path:
    """A folder nobody else knows yet, made in `parent` (with the permissions of the umask, unlike mkdtemp)."""
    for _ in range(100):
        folder = parent / f"{prefix}{secrets.token_hex(6)}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise CatalogDocsError(f"cannot make a new folder in {parent}")  # pragma: no cover - 100 clashes of 48 bits


def _put(path: Path, data: bytes) -> None:
    fd = os.open(path, _CREATE, 0o666)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def write_tree(files: Mapping[str, str | bytes], folder: Path) -> None:
    """Write `files` ({path with `/`: text or bytes}) into `folder`, an empty folder this process has just made:
    every sub-folder is made here (never found), every file created new; no link can be on the way."""
    made: set[str] = set()
    for rel, content in sorted(files.items()):
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            sub = "/".join(parts[:depth])
            if sub not in made:
                (folder / sub).mkdir()
                made.add(sub)
        _put(folder / rel, content.encode("utf-8") if isinstance(content, str) else content)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _fault(what: str, path: Path, exc: OSError) -> CatalogDocsError:
    return CatalogDocsError(f"cannot write {what} into {path}: {exc.strerror or exc}")


def render_out(files: Mapping[str, str], out: Path, *, replace: bool = False) -> None:
    """Write the rendered files into `out`: a new or empty folder, or with `replace` any folder, swapped whole.
    Refused in one line: `out` a link (never followed), not a folder, or not empty without `replace`."""
    found = _lstat(out)
    shown = for_terminal(out)
    if found is not None:
        if stat.S_ISLNK(found.st_mode):
            raise CatalogDocsError(f"{shown} is a symbolic link: render --out writes into a folder, never through a "
                                   "link (nothing was written)")
        if not stat.S_ISDIR(found.st_mode):
            raise CatalogDocsError(f"{shown} is not a folder (nothing was written)")
        if any(os.scandir(out)) and not replace:
            raise CatalogDocsError(f"{shown} is not empty: render --out writes only into a new or empty folder; "
                                   "--replace replaces the whole folder (nothing was written)")
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staged = _new_folder(parent, f".{out.name}.catalog-docs-")
    except OSError as exc:
        raise _fault("the pages", parent, exc) from None
    try:
        write_tree(files, staged)
        if found is not None and replace:
            aside = _new_folder(parent, f".{out.name}.catalog-docs-old-")
            out.rename(aside / "old")  # the folder itself moves, a link in it is never followed
            staged.rename(out)
            shutil.rmtree(aside)  # removes links as links (the fd-based rmtree of Linux)
        else:
            staged.rename(out)  # replaces an empty folder; a folder filled meanwhile is refused
    except OSError as exc:
        shutil.rmtree(staged, ignore_errors=True)
        raise _fault("the pages", out, exc) from None


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


def _build_root(project: Path) -> Path:
    """BUILD_ROOT of `project`, made when missing; refused when it or `build` is a link or not a folder."""
    root = project
    for part in Path(BUILD_ROOT).parts:
        root = root / part
        found = _lstat(root)
        if found is None:
            root.mkdir()
        elif not stat.S_ISDIR(found.st_mode):  # a link is not a folder to lstat
            raise CatalogDocsError(f"{for_terminal(root)} is not a folder (a link is never followed): remove it, "
                                   "then build again")
    return root


class EngineFolder:
    """A folder of the tool's own under BUILD_ROOT, made for one build or one preview: an engine without plugins
    builds from it. `update` makes it hold exactly the files given, writing only those that changed (each
    written beside and renamed in place, so a watching engine never reads half a file)."""

    def __init__(self, project: Path) -> None:
        try:
            self.path = _new_folder(_build_root(project), "build-")
        except OSError as exc:
            raise _fault("the build folder", project / BUILD_ROOT, exc) from None
        self.rel = f"{BUILD_ROOT}/{self.path.name}"
        """The folder from the project's root."""
        self._held: dict[str, bytes] = {}

    def update(self, files: Mapping[str, bytes]) -> list[str]:
        """Make the folder hold `files`; returns the paths written or removed."""
        changed = []
        for rel, data in sorted(files.items()):
            if self._held.get(rel) == data:
                continue
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            part = target.with_name(f".{target.name}.part-{secrets.token_hex(4)}")
            _put(part, data)
            part.replace(target)
            self._held[rel] = data
            changed.append(rel)
        for rel in sorted(set(self._held) - set(files)):
            (self.path / rel).unlink(missing_ok=True)
            del self._held[rel]
            changed.append(rel)
        return changed

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def clean(project: Path, site: str = "site") -> list[str]:
    """Remove `site/` and BUILD_ROOT of `project`, each only when it is a folder (never a link's target);
    returns what was removed. Nothing else is touched: docs/ holds only hand-written files."""
    removed = []
    for rel in (site, BUILD_ROOT):
        path = project / rel
        found = _lstat(path)
        if found is None:
            continue
        if not stat.S_ISDIR(found.st_mode):
            raise CatalogDocsError(f"{for_terminal(path)} is not a folder (a link is never followed): not removed")
        try:
            shutil.rmtree(path)
        except OSError as exc:
            raise CatalogDocsError(f"cannot remove {for_terminal(path)}: {exc.strerror or exc}") from None
        removed.append(rel)
    return removed


def write_parts(spill: Path, rel: str, parts: Callable[[], Iterable[str]]) -> str:
    """Write a file's parts into `spill/rel` as they come (writing.write_file: into a new file beside it, renamed
    when whole); returns "" (what the render's result holds in its place until it is left out)."""
    write_file(spill, rel, parts(), "write the downloads")
    return ""
