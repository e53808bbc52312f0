"""Stage 5: write generated files into the output folder (docs/) safely.

`write_output` owns the output folder, and only its own files in it:

- **Only under the generated folders.** Every path it writes, replaces or removes starts with one of
  `layout.GENERATED_ROOTS` (`operations/`, `index.md`, ...). A manifest or journal found in docs/ that names
  anything else was not written by catalog-docs: it is refused, and nothing it names is touched. (The manifest
  is the writer's only record, so one planted inside the generated folders is taken at its word: it can claim a
  file there whose exact bytes it knows. A hand-written file is refused there by every render anyway.)
- **Checked first.** Before anything is written, every generated path is checked: a hand-written file, a
  symbolic link, a folder or a special file there, a symbolic link on the way to it, or a hand-written file
  inside a generated folder stops the write with an error that names them. A stale file is removed only if
  it still holds the bytes catalog-docs wrote (the manifest records a digest of each file; a file without
  one is never removed).
- **Staged, journalled, swapped.** Changed files and the new manifest are written into a hidden staging
  folder inside docs/; only when all of it is on disk is a journal written (atomically), which is the
  commit point. The swap then moves each file in (the old one into the staging folder), removes stale files
  and moves the manifest in last.
- **Faults and crashes.** A file-system fault before the journal leaves docs/ untouched; a fault during the
  swap puts every file back. A process killed at any moment leaves either no journal (docs/ as it was, plus
  a hidden staging folder) or a journal, and the next write (or `recover`, which the render and the mkdocs
  hook call first) completes the swap it records. Leftover staging folders are removed.
- **A journal is data until proven.** docs/ may hold anything, planted or left over. Recovery completes a
  journal only when its staging folder is a real folder that holds the files the journal names, with the
  digests its manifest records, every folder on the way to every path it names is a real folder (checked
  without following links), and each file it would replace or remove is one the current manifest lists.
  Otherwise it refuses with `RecoveryRefused`, naming the journal and the reason, and touches nothing.
- **One writer at a time.** Writers take an exclusive lock on the output folder itself (flock), so two
  renders into the same docs/ run one after the other.

Page planning and rendering live in `render`; this module knows nothing of pages, only of paths and bytes.
It imports nothing beyond the standard library and two light modules, so the render fingerprint in
`incremental` can use it.
"""

from __future__ import annotations

# Every rename is os.replace (not Path.replace): the one call the fault and crash tests intercept.
# ruff: noqa: PTH105
import errno
import hashlib
import json
import os
import posixpath
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypedDict

from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import GENERATED_ROOTS, MANIFEST

if sys.platform != "win32":  # Windows has no flock: renders there are not serialised
    import fcntl

JOURNAL = ".catalog-docs-journal.json"
"""The swap in progress, in the output folder: present only between the commit point and the end of a swap."""
STAGING_PREFIX = ".catalog-docs-staging-"
_LEFTOVER = re.compile(r"\.catalog-docs-(?:staging-)?[A-Za-z0-9_]{8}")
"""Staging folders of earlier runs (`.catalog-docs-XXXXXXXX` was the name before the journal existed)."""
_DIGEST = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]*")
_UNCLEAN = re.compile(r"(?:^|/)\.{0,2}(?:/|$)|[\\\0]")
"""What a relative path of real names never holds: an empty, `.` or `..` part (a leading `/` included), a
backslash or a NUL. One search per path: the writer checks every path of every render."""
LOCK_WAIT_S = 300.0
"""How long a writer waits for another one on the same folder before giving up with an error."""
GENERATOR = "catalog-docs render"
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest manifest or journal read (one of 100,000 pages is about 15 MB): a bigger one was planted."""

Kind = Literal["absent", "absent-under-file", "dir", "file", "link", "special"]
Stats = dict[str, os.stat_result | None]


class RecoveryRefused(CatalogDocsError):
    """A journal in the output folder that catalog-docs cannot prove it wrote; nothing was touched."""


class Journal(TypedDict):
    """The journal's JSON: the staging folder's name, the files to move in and to remove (each with the
    digest it must still have), and the manifest's text (moved in last)."""

    generator: str
    staging: str
    replace: list[str]
    remove: dict[str, str]
    manifest: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WriteResult:
    """What a render did to the output folder."""

    written: tuple[str, ...]
    unchanged: int
    removed: tuple[str, ...]


def _fault(action: str, path: Path | str, exc: OSError, *, untouched: bool = True) -> CatalogDocsError:
    """One line naming the path and the cause of a file-system fault."""
    cause = exc.strerror or str(exc)
    tail = ("; nothing was changed" if untouched else
            "; the next render completes the interrupted one")
    return CatalogDocsError(f"cannot {action} {path}: {cause}{tail}")


def digest(data: bytes) -> str:
    """The digest the manifest records for a file it wrote (checked before the file is ever removed)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# --- paths -------------------------------------------------------------------------------------------------


def _clean_rel(rel: object) -> bool:
    """A relative path of real names (no empty, `.` or `..` part, no backslash or NUL)."""
    return isinstance(rel, str) and _UNCLEAN.search(rel) is None


def generated(rel: object) -> bool:
    """Whether `rel` is a path catalog-docs may write, replace or remove: clean, under a generated root."""
    return isinstance(rel, str) and _UNCLEAN.search(rel) is None and rel.partition("/")[0] in GENERATED_ROOTS


def _safe_target(out_dir: Path, rel: str) -> Path:
    """The path of a generated file; refuses a relative path that would leave the output folder."""
    if not _clean_rel(rel):
        raise CatalogDocsError(f"refusing to write outside {out_dir}: {rel}")
    return out_dir.joinpath(*rel.split("/"))


def _kind(path: Path) -> Kind:
    """absent, dir, file, link or special: what is at a path, without following a link."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return "absent"
    except NotADirectoryError:
        return "absent-under-file"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "special"


def _blocked_folder(base: Path, rel: str) -> str | None:
    """The first folder between base and rel's file that is a link or not a folder, described (checked
    with lstat, component by component: a link is never followed); None when each is a folder or missing."""
    path = base
    for part in rel.split("/")[:-1]:
        path = path / part
        kind = _kind(path)
        if kind == "dir":
            continue
        if kind.startswith("absent"):
            return None
        return f"{path} is a symbolic link" if kind == "link" else f"{path} is not a folder"
    return None


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None


def _digest_of(path: Path) -> str:
    """The digest of the file at path, read in blocks (a planted file may be of any size), never through a
    link at its last component (O_NOFOLLOW: every folder on the way was checked before)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=16)).hexdigest()


def _file_digest(path: Path) -> str | None:
    """The digest of a regular file (never through a link); None when something else, or nothing, is there."""
    if _kind(path) != "file":
        return None
    try:
        return _digest_of(path)
    except OSError:
        return None


# --- the manifest ------------------------------------------------------------------------------------------


def _read_manifest(out_dir: Path) -> tuple[set[str], dict[str, str]]:
    """The files the last render wrote, and the digest of each (empty for a manifest older than digests).
    A manifest that names a path outside the generated folders was not written here: refused."""
    path = out_dir / MANIFEST
    try:
        st = path.lstat()
    except FileNotFoundError:
        return set(), {}
    except OSError as exc:
        raise _fault("read", path, exc) from None
    if not stat.S_ISREG(st.st_mode):
        raise CatalogDocsError(f"{path}: the render manifest is not a regular file (a link or a folder); "
                               "remove it and the generated pages")
    if st.st_size > MAX_RECORD_BYTES:
        raise CatalogDocsError(f"{path}: the render manifest is {st.st_size} bytes, more than catalog-docs writes; "
                               "delete it and the generated pages")
    try:
        files, digests = _manifest_entries(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise _fault("read", path, exc) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CatalogDocsError(f"{path}: the render manifest is damaged ({exc}); delete it and the generated "
                               "pages") from None
    return files, digests


def read_own_files(out_dir: Path) -> dict[str, str] | None:
    """The text of every file the last render wrote, as its manifest lists it; None when there is no manifest,
    or when any file is not provably ours (a link on its way or at it, another kind of file, a digest that is
    not the manifest's). The manifest is read as `write_output` reads it, so a planted one is refused."""
    files, digests = _read_manifest(out_dir)
    if not files:
        return None
    texts: dict[str, str] = {}
    for rel in sorted(files):
        path = out_dir.joinpath(*rel.split("/"))
        if _blocked_folder(out_dir, rel) is not None or _file_digest(path) != digests.get(rel):
            return None
        text = _read_text(path)
        if text is None:
            return None
        texts[rel] = text
    return texts


def _manifest_entries(text: str) -> tuple[set[str], dict[str, str]]:
    """The files and digests of a manifest's text; ValueError or TypeError for one catalog-docs cannot
    have written (not JSON, a path outside the generated folders, a digest that is not one)."""
    data = json.loads(text)
    files = data["files"]
    digests = data.get("digests") or {}
    if not isinstance(files, list) or not isinstance(digests, dict):
        raise TypeError("files is not a list or digests is not a mapping")
    named = set(files) | set(digests)
    for rel in named:
        if not generated(rel):
            raise ValueError(f"it lists {rel!r}, which catalog-docs never writes")
    values = list(digests.values())
    if not (all(isinstance(v, str) and len(v) == 32 for v in values) and _HEX.fullmatch("".join(values))):
        bad = next(v for v in values if not (isinstance(v, str) and _DIGEST.fullmatch(v)))
        raise ValueError(f"{bad!r} is not a digest")
    return set(files), dict(digests)


def _manifest_text(files: dict[str, str], fingerprint: dict[str, str] | None) -> str:
    data: dict[str, object] = {"generator": GENERATOR, "files": sorted(files), "digests": dict(sorted(files.items()))}
    if fingerprint is not None:
        data["fingerprint"] = fingerprint
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _signature(stats: Stats) -> str:
    """The hash the fingerprint keeps of generated files' sizes and modification times (None: missing)."""
    sig = hashlib.sha256()
    for rel in sorted(stats):
        st = stats[rel]
        line = f"{rel}\0missing\n" if st is None else f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n"
        sig.update(line.encode())
    return sig.hexdigest()


def output_signature(out_dir: Path, files: list[str]) -> str:
    """A hash of the size and modification time of each generated file (missing files count too)."""
    return _signature({rel: _stat_or_none(out_dir / rel) for rel in files})


# --- the lock ----------------------------------------------------------------------------------------------


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Create out_dir if needed and hold an exclusive lock on it (the folder itself, so no lock file is left)."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CatalogDocsError(f"cannot write into {out_dir}: a file is there, not a folder; "
                               "nothing was changed") from None
    except OSError as exc:
        raise _fault("create", out_dir, exc) from None
    if sys.platform == "win32":  # no flock, and a folder cannot be opened either: write unserialised
        yield
        return
    try:
        fd = os.open(out_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise _fault("open", out_dir, exc) from None
    try:
        _wait_for_lock(fd, out_dir)
        yield
    finally:
        os.close(fd)  # releases the lock


def _wait_for_lock(fd: int, out_dir: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise CatalogDocsError(f"{out_dir}: another catalog-docs render has been writing here for "
                                       f"{LOCK_WAIT_S:.0f} s; wait for it or stop it") from None
            time.sleep(0.05)
        except OSError:
            return  # a file system without locks (some network mounts): write unserialised


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


# --- the plan: every path checked before anything is written -----------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    stale: dict[str, str]
    """Stale files that exist, with the digest they must still have."""
    replaced: tuple[str, ...] = ()
    """The changed files that exist now (the swap moves each aside); the others are new."""


_UNSAFE_AT_TARGET: dict[str, str] = {
    "link": "a symbolic link; catalog-docs never writes through one",
    "dir": "a folder where catalog-docs writes a file",
    "special": "a special file: a pipe, socket or device",
}


@dataclass(slots=True, kw_only=True)
class _Planner:
    """What `_plan` finds, path by path: each list is one kind of refusal (mutable while it plans)."""

    out_dir: Path
    owned: set[str]
    digests: dict[str, str]
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    stale: dict[str, str] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    unsafe: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    unproven: list[str] = field(default_factory=list)
    folder_kind: dict[str, Kind] = field(default_factory=lambda: {"": "dir"})

    def folders_ok(self, rel: str) -> bool:
        """Each folder on the way to rel is a real folder or missing (created by the swap); one lstat per folder."""
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            kind = self.folder_kind.get(folder)
            if kind is None:
                kind = self.folder_kind[folder] = _kind(self.out_dir / folder)
            if kind == "link":
                self.unsafe.append(f"{self.out_dir / folder} (a symbolic link where catalog-docs writes a folder)")
                return False
            if kind in ("file", "special"):
                self.conflicts.append(folder)
                return False
            if kind != "dir":
                return True
        return True

    def known(self, rel: str) -> None:
        """A file this process wrote with the same text, untouched since: unchanged without reading it."""
        if self.folders_ok(rel):
            (self.unchanged if rel in self.owned else self.conflicts).append(rel)

    def to_write(self, rel: str, data: bytes) -> None:
        """A generated file: new, changed, unchanged, or refused (what is there is not ours to replace)."""
        target = _safe_target(self.out_dir, rel)
        if not self.folders_ok(rel):
            return
        kind = _kind(target)
        if kind.startswith("absent"):
            self.changed.append(rel)
        elif kind in _UNSAFE_AT_TARGET:
            self.unsafe.append(f"{target} ({_UNSAFE_AT_TARGET[kind]})")
        elif rel not in self.owned:
            self.conflicts.append(rel)
        elif self._same(target, data):
            self.unchanged.append(rel)
        else:
            self.changed.append(rel)
            self.replaced.append(rel)

    @staticmethod
    def _same(target: Path, data: bytes) -> bool:
        try:
            return target.read_bytes() == data
        except OSError as exc:
            raise _fault("read", target, exc) from None

    def to_remove(self, rel: str) -> None:
        """A file the last render wrote and this one does not: removed only if it holds what was written."""
        target = _safe_target(self.out_dir, rel)
        if not self.folders_ok(rel):
            return
        kind = _kind(target)
        if kind.startswith("absent"):
            return
        if kind != "file":
            what = "symbolic link" if kind == "link" else kind
            self.unsafe.append(f"{target} (listed as generated, but now a {what})")
            return
        want = self.digests.get(rel)
        if want is None:
            self.unproven.append(rel)  # a manifest older than digests: nothing proves the bytes are ours
            return
        try:
            if _digest_of(target) != want:
                self.edited.append(rel)
                return
        except OSError as exc:
            raise _fault("read", target, exc) from None
        self.stale[rel] = want

    def refusals(self) -> Iterator[str]:
        """One message per kind of refusal found, in the order a reader should fix them."""
        out = self.out_dir
        if self.conflicts:
            yield ("refusing to overwrite hand-written files (not written by catalog-docs): "
                   + ", ".join(str(out / c) for c in sorted(set(self.conflicts)))
                   + "; move or rename them, or delete them if they are old generated pages")
        if self.unsafe:
            yield ("refusing to write at these generated paths: " + ", ".join(self.unsafe)
                   + "; remove them (catalog-docs writes only regular files in real folders)")
        if self.edited:
            yield ("generated files that are no longer generated but were changed since catalog-docs wrote them: "
                   + ", ".join(str(out / e) for e in self.edited)
                   + "; catalog-docs removes only what it wrote: move or delete them")
        if self.unproven:
            yield ("files that are no longer generated, which the manifest lists without a digest, so nothing "
                   "proves catalog-docs wrote them: " + ", ".join(str(out / e) for e in self.unproven)
                   + "; delete them if they are old generated pages, or move them")


def _plan(out_dir: Path, encoded: dict[str, bytes], owned: set[str], digests: dict[str, str],
          known: frozenset[str] = frozenset()) -> _Plan:
    """Check every generated and stale path before anything is written; what to write and to remove.
    `known`: files this process wrote with the same text, whose size, modification time and inode are still
    what they were after that write (`_Written`): unchanged without reading them again."""
    planner = _Planner(out_dir=out_dir, owned=owned, digests=digests)
    for rel in sorted(known):
        planner.known(rel)
    for rel, data in encoded.items():
        planner.to_write(rel, data)
    for rel in sorted(owned - set(encoded) - known):
        planner.to_remove(rel)
    first = next(planner.refusals(), None)
    if first is not None:
        raise CatalogDocsError(first)
    strays = sorted(set(_strays(out_dir, set(encoded) | known, owned)))
    if strays:
        # A page inside a generated folder would pass for a generated page (and .gitignore hides it).
        raise CatalogDocsError(
            "hand-written files inside folders that catalog-docs generates: "
            + ", ".join(str(out_dir / s) for s in strays)
            + "; move them out of those folders (hand-written pages belong elsewhere in the docs folder)"
        )
    return _Plan(changed=tuple(planner.changed), unchanged=tuple(planner.unchanged), stale=planner.stale,
                 replaced=tuple(planner.replaced))


def _top_folders(files: Iterable[str]) -> list[str]:
    """The outermost sub-folders that generated files sit in (`operations`, not `operations/x`)."""
    folders = {posixpath.dirname(rel) for rel in files} - {""}
    return sorted(f for f in folders if not any(f.startswith(g + "/") for g in folders))


def _strays(out_dir: Path, encoded: set[str], owned: set[str]) -> Iterator[str]:
    """Files, links and special files that catalog-docs did not write, inside a sub-folder it writes into
    (hidden ones aside, as mkdocs skips them too). Symbolic links to folders are listed, never followed."""
    known = encoded | owned
    for folder in _top_folders(encoded):
        base = out_dir / folder
        if _kind(base) == "dir":
            yield from (rel for rel in _entries_under(out_dir, base) if rel not in known)


def _entries_under(out_dir: Path, base: Path) -> Iterator[str]:
    """Every visible file, link and special file under base (links to folders included, never followed)."""
    for here, dirs, names in os.walk(base):
        rel_here = Path(here).relative_to(out_dir).as_posix()
        for name in names + [d for d in dirs if (Path(here) / d).is_symlink()]:
            rel = f"{rel_here}/{name}"
            if not any(p.startswith(".") for p in rel.split("/")):
                yield rel
        dirs[:] = [d for d in dirs if not d.startswith(".")]


# --- staging -----------------------------------------------------------------------------------------------


def _prune_empty(out_dir: Path, folder: Path) -> None:
    while folder != out_dir and out_dir in folder.parents:
        try:
            folder.rmdir()  # only succeeds on an empty folder
        except OSError:
            return
        folder = folder.parent


def _put(path: Path, data: bytes) -> None:
    """Write a new file (never through a link: O_EXCL, O_NOFOLLOW)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _clean_leftovers(out_dir: Path, keep: str | None = None) -> None:
    """Remove staging folders that earlier runs left behind (never a link: only real folders of our name)."""
    try:
        entries = list(os.scandir(out_dir))
    except OSError:
        return
    for entry in entries:
        if entry.name != keep and _LEFTOVER.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)


def _make_staging(out_dir: Path) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out_dir))
    except OSError as exc:
        raise _fault("write into", out_dir, exc) from None


def _replace_manifest_only(out_dir: Path, text: str) -> None:
    staging = _make_staging(out_dir)
    try:
        _put(staging / "manifest", text.encode("utf-8"))
        os.replace(staging / "manifest", out_dir / MANIFEST)
    except OSError as exc:
        raise _fault("write", out_dir / MANIFEST, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@dataclass(frozen=True, slots=True)
class _Written:
    """A file as this process last wrote (or found) it: the text object, its digest, and the file's stat."""

    text: str
    digest: str
    stat: tuple[int, int, int, int]


_WRITTEN: dict[str, dict[str, _Written]] = {}
"""Per output folder (resolved): what this process wrote there last. A preview renders the same folder
again and again with mostly the same page texts (the render reuses them); a file whose text is the same
object and whose stat is unchanged since is not read, encoded and hashed again."""


def _stat_key(st: os.stat_result | None) -> tuple[int, int, int, int] | None:
    if st is None or not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev)


def _known(out_dir: Path, files: dict[str, str]) -> dict[str, _Written]:
    """The files of `files` this process wrote last with the very same text, untouched since. The record is
    taken out: only a write that completes puts one back."""
    last = _WRITTEN.pop(str(out_dir.resolve()), {})
    out = {}
    for rel, text in files.items():
        w = last.get(rel)
        if w is not None and w.text is text and _stat_key(_stat_or_none(out_dir / rel)) == w.stat:
            out[rel] = w
    return out


def _remember(out_dir: Path, files: dict[str, str], digests: dict[str, str], stats: Stats) -> None:
    written = {}
    for rel, text in files.items():
        key = _stat_key(stats.get(rel))
        if key is not None:
            written[rel] = _Written(text=text, digest=digests[rel], stat=key)
    _WRITTEN[str(out_dir.resolve())] = written


def _check_files(out_dir: Path, files: Iterable[str]) -> None:
    """Every path to write is clean and under a generated root (the render never makes another)."""
    for rel in files:
        if _UNCLEAN.search(rel) is not None:
            _safe_target(out_dir, rel)  # raises, naming it
        if rel.partition("/")[0] not in GENERATED_ROOTS:
            raise CatalogDocsError(f"refusing to write {rel} into {out_dir}: catalog-docs writes only under "
                                   + ", ".join(sorted(GENERATED_ROOTS)))


@paused_gc()
def write_output(files: dict[str, str], out_dir: Path, *, inputs: str | None = None) -> WriteResult:
    """Write generated files into out_dir: only changed ones, staged and journalled first, never over a
    hand-written file. With `inputs` (the render's input fingerprint) the manifest records the fingerprint
    that lets `incremental` skip the next render when nothing changed."""
    _check_files(out_dir, files)
    with _locked(out_dir):
        _recover_locked(out_dir)
        owned, old_digests = _read_manifest(out_dir)
        known = {rel: w for rel, w in _known(out_dir, files).items() if old_digests.get(rel) == w.digest}
        encoded = {rel: text.encode("utf-8") for rel, text in files.items() if rel not in known}
        plan = _plan(out_dir, encoded, owned, old_digests, frozenset(known))
        new_digests = {rel: known[rel].digest if rel in known else digest(encoded[rel]) for rel in files}
        final_stats: Stats = {}

        def manifest_for(stats: Stats) -> str:
            final_stats.update(stats)
            fingerprint = None
            if inputs is not None:
                fingerprint = {"inputs": inputs, "outputs": _signature(stats)}
            return _manifest_text(new_digests, fingerprint)

        if not plan.changed and not plan.stale:
            text = manifest_for({rel: _stat_or_none(out_dir / rel) for rel in files})
            if _read_text(out_dir / MANIFEST) != text:
                _replace_manifest_only(out_dir, text)
            _remember(out_dir, files, new_digests, final_stats)
            return WriteResult(written=(), unchanged=len(files), removed=())

        staging = _make_staging(out_dir)
        try:
            journal = _stage(out_dir, staging, encoded, plan, manifest_for)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        try:
            _swap(out_dir, staging, journal, rollback_on_error=True)
        except OSError as exc:
            rolled_back = not (out_dir / JOURNAL).exists()
            raise _fault("write", exc.filename, exc, untouched=rolled_back) from None
        _finish(out_dir, staging, journal)
        _remember(out_dir, files, new_digests, final_stats)
        return WriteResult(written=plan.changed, unchanged=len(plan.unchanged), removed=tuple(plan.stale))


def _stage(out_dir: Path, staging: Path, encoded: dict[str, bytes], plan: _Plan,
           manifest_for: Callable[[Stats], str]) -> Journal:
    """Write every changed file and the manifest into the staging folder, then the journal (the commit
    point). Any fault here leaves the output folder as it was."""
    new, old = staging / "new", staging / "old"
    rel = ""
    try:
        for folder in sorted({posixpath.dirname(r) for r in plan.changed} | {""}):
            (new / folder).mkdir(parents=True, exist_ok=True)
        # Folders for the files the swap moves aside (each costs the file system as much as a file; a first
        # render into an empty docs/ moves nothing aside).
        for folder in sorted({posixpath.dirname(r) for r in (*plan.replaced, *plan.stale)} | {""}):
            (old / folder).mkdir(parents=True, exist_ok=True)
        stats: Stats = {}
        for rel in plan.changed:
            _put(new / rel, encoded[rel])
            stats[rel] = (new / rel).stat()  # a rename keeps size and mtime: the swapped file's signature
        for rel in plan.unchanged:
            stats[rel] = _stat_or_none(out_dir / rel)
        rel = MANIFEST
        manifest = manifest_for(stats)
        _put(staging / "manifest", manifest.encode("utf-8"))
        journal: Journal = {"generator": GENERATOR, "staging": staging.name, "replace": list(plan.changed),
                            "remove": plan.stale, "manifest": manifest}
        rel = JOURNAL
        _put(staging / "journal", json.dumps(journal, ensure_ascii=False).encode("utf-8"))
        fd = os.open(staging / "journal", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(staging / "journal", out_dir / JOURNAL)  # the commit point
    except OSError as exc:
        raise _fault("write", out_dir / rel if rel else out_dir, exc) from None
    return journal


# --- the swap ----------------------------------------------------------------------------------------------

Step = Literal["replace", "remove", "manifest"]


@dataclass(slots=True, kw_only=True)
class _SwapLog:
    """What a swap did so far (for its rollback), and the path it is working on (for its error)."""

    done: list[tuple[Step, str]] = field(default_factory=list)
    created: list[Path] = field(default_factory=list)
    at: Path


def _swap(out_dir: Path, staging: Path, journal: Journal, *, rollback_on_error: bool) -> None:
    """Move the staged files in (old ones aside), stale files aside, the manifest in last. Idempotent: a
    recovery runs it again after a crash and it picks up where the crashed run stopped. An OSError it
    raises names the generated path it was working on."""
    log = _SwapLog(at=out_dir)
    try:
        for rel in journal["replace"]:
            _move_in(out_dir, staging, rel, log)
        for rel, want in journal["remove"].items():
            _move_stale_aside(out_dir, staging, rel, want, log)
        _move_manifest_in(out_dir, staging, journal["manifest"], log)
    except OSError as exc:
        if rollback_on_error:
            _rollback(out_dir, staging, log)
        raise OSError(exc.errno, exc.strerror or str(exc), str(log.at)) from None


def _move_in(out_dir: Path, staging: Path, rel: str, log: _SwapLog) -> None:
    """One staged file in, the file it replaces aside (skipped when it was moved in before a crash)."""
    source, aside = staging / "new" / rel, staging / "old" / rel
    log.at = at = _safe_target(out_dir, rel)
    if _kind(source) != "file":
        return
    _make_folders(out_dir, at.parent, log.created)
    kind = _kind(at)
    if kind == "file" and _kind(aside).startswith("absent"):
        aside.parent.mkdir(parents=True, exist_ok=True)
        os.replace(at, aside)
    elif kind not in ("absent", "file"):
        raise OSError(errno.EEXIST, "something other than a generated file appeared there")
    log.done.append(("replace", rel))
    os.replace(source, at)


def _move_stale_aside(out_dir: Path, staging: Path, rel: str, want: str, log: _SwapLog) -> None:
    """A stale file into the staging folder (removed with it), if it still holds the bytes written."""
    aside = staging / "old" / rel
    log.at = at = _safe_target(out_dir, rel)
    if _kind(at) != "file" or not _kind(aside).startswith("absent"):
        return
    if _digest_of(at) != want:
        return  # changed since the journal was written: not ours to remove
    aside.parent.mkdir(parents=True, exist_ok=True)
    os.replace(at, aside)
    log.done.append(("remove", rel))


def _move_manifest_in(out_dir: Path, staging: Path, text: str, log: _SwapLog) -> None:
    """The new manifest in, the old one aside: last, so an interrupted swap still lists every old file."""
    log.at = at = out_dir / MANIFEST
    staged = staging / "manifest"
    if _kind(staged) == "file":
        aside = staging / "old" / MANIFEST
        if _kind(at) == "file" and _kind(aside).startswith("absent"):
            os.replace(at, aside)
        log.done.append(("manifest", MANIFEST))
        os.replace(staged, at)
    elif _read_text(at) != text:
        staging.mkdir(exist_ok=True)
        _put(staging / "manifest.again", text.encode("utf-8"))
        os.replace(staging / "manifest.again", at)


def _make_folders(out_dir: Path, folder: Path, created: list[Path]) -> None:
    missing = []
    while folder != out_dir and _kind(folder).startswith("absent"):
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
        created.append(path)


def _rollback(out_dir: Path, staging: Path, log: _SwapLog) -> None:
    """Undo a swap that failed in this process, step by step in reverse: each new file back into the
    staging folder, each old one back where it was, new folders removed. If the rollback itself fails, the
    journal stays and describes the state reached (every staged file is in the staging folder or in place),
    so the next run completes the swap instead."""
    old = staging / "old"
    try:
        for action, rel in reversed(log.done):
            target = out_dir / MANIFEST if action == "manifest" else _safe_target(out_dir, rel)
            back = staging / "manifest" if action == "manifest" else staging / "new" / rel
            if action != "remove" and _kind(target) == "file" and _kind(back).startswith("absent"):
                os.replace(target, back)
            if _kind(old / rel) == "file":
                os.replace(old / rel, target)
        for folder in reversed(log.created):
            folder.rmdir()
    except OSError:
        return
    try:
        (out_dir / JOURNAL).unlink()
    except OSError:
        return
    shutil.rmtree(staging, ignore_errors=True)


def _finish(out_dir: Path, staging: Path, journal: Journal) -> None:
    """After a complete swap: forget the journal, drop the staging folder, prune emptied folders."""
    try:
        (out_dir / JOURNAL).unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise _fault("remove", out_dir / JOURNAL, exc, untouched=False) from None
    shutil.rmtree(staging, ignore_errors=True)
    for rel in journal["remove"]:
        _prune_empty(out_dir, _safe_target(out_dir, rel).parent)


# --- recovery: a journal found in docs/ is checked before it is acted on -----------------------------------


def _refused(journal_path: Path, why: str) -> RecoveryRefused:
    """The one line of a refused recovery: the journal, why, and what to do."""
    return RecoveryRefused(
        f"{journal_path}: refusing to complete the interrupted render it records: {why}; nothing was changed. "
        f"If catalog-docs did not leave it there, delete it and any {STAGING_PREFIX}* folder beside it, "
        "check the folders it names, then render again")


def _read_journal(journal_path: Path) -> Journal:
    """The journal's JSON, its shape checked (RecoveryRefused for anything catalog-docs cannot have written)."""
    try:
        if journal_path.lstat().st_size > MAX_RECORD_BYTES:
            raise ValueError("it is larger than any journal catalog-docs writes")
        data = json.loads(journal_path.read_bytes().decode("utf-8"))
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        staging = data["staging"]
        if not (isinstance(staging, str) and _LEFTOVER.fullmatch(staging)):
            raise ValueError(f"staging folder {staging!r}")
        replace, remove, manifest = data["replace"], data["remove"], data["manifest"]
        if not (isinstance(replace, list) and isinstance(remove, dict) and isinstance(manifest, str)):
            raise TypeError("replace, remove or manifest is not a list, a mapping and a text")
    except OSError as exc:
        raise _fault("read", journal_path, exc) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise _refused(journal_path, f"the journal of an interrupted render is damaged ({exc})") from None
    return {"generator": str(data.get("generator")), "staging": staging, "replace": replace, "remove": remove,
            "manifest": manifest}


@dataclass(frozen=True, slots=True, kw_only=True)
class _Recovery:
    """A journal found in the output folder, with what it is checked against."""

    out_dir: Path
    journal: Journal
    staging: Path
    promised: dict[str, str]
    """The digests the journal's manifest records: what each replaced file holds once moved in."""
    owned: dict[str, str]
    """The digests the current manifest records: the files catalog-docs wrote here before the swap."""


def _paths_are_generated(r: _Recovery) -> str | None:
    for rel in [*r.journal["replace"], *r.journal["remove"]]:
        if not generated(rel):
            return f"it names {rel!r}, which catalog-docs never writes"
    bad = [value for value in r.journal["remove"].values() if not (isinstance(value, str) and _DIGEST.fullmatch(value))]
    return f"it removes a file by the digest {bad[0]!r}, which is not one" if bad else None


def _manifest_agrees(r: _Recovery) -> str | None:
    replace, remove = set(r.journal["replace"]), set(r.journal["remove"])
    missing = sorted(replace - set(r.promised))
    if missing:
        return f"its manifest has no digest for {missing[0]!r}, which it moves in"
    kept = sorted(remove & set(r.promised))
    return f"it removes {kept[0]!r}, which its own manifest keeps" if kept else None


def _staging_is_a_folder(r: _Recovery) -> str | None:
    for path in (r.staging, r.staging / "new", r.staging / "old"):
        kind = _kind(path)
        if kind != "dir" and not (path != r.staging and kind == "absent"):
            return f"its staging folder {path} is {'missing' if kind.startswith('absent') else 'not a real folder'}"
    return None


def _no_link_on_the_way(r: _Recovery) -> str | None:
    """Every folder between docs/ (or the staging folder) and every path the journal names is a real one."""
    for rel in [*r.journal["replace"], *r.journal["remove"]]:
        for base in (r.out_dir, r.staging / "new", r.staging / "old"):
            blocked = _blocked_folder(base, rel)
            if blocked is not None:
                return f"on the way to {rel}, {blocked}"
    return None


def _staging_holds_its_files(r: _Recovery) -> str | None:
    """Each file to move in is staged with the digest the journal's manifest records, or is in place."""
    for rel in r.journal["replace"]:
        want = r.promised[rel]
        source = r.staging / "new" / rel
        if _kind(source) == "absent":
            if _file_digest(r.out_dir / rel) != want:
                return f"its staging folder does not hold {rel}, and {r.out_dir / rel} is not the file it records"
        elif _file_digest(source) != want:
            return f"{source} is not the file its manifest records"
    staged = r.staging / "manifest"
    if _kind(staged) != "absent" and _read_text(staged) != r.journal["manifest"]:
        return f"{staged} is not the manifest it records"
    return None


def _replaces_only_ours(r: _Recovery) -> str | None:
    """A file still to be replaced is one the current manifest lists (or already the new one)."""
    for rel in r.journal["replace"]:
        target = r.out_dir / rel
        kind = _kind(target)
        if kind.startswith("absent") or _kind(r.staging / "new" / rel) == "absent":
            continue
        if kind != "file" or (rel not in r.owned and _file_digest(target) != r.promised[rel]):
            return f"it would replace {target}, which catalog-docs did not write"
    return None


_JOURNAL_CHECKS: tuple[Callable[[_Recovery], str | None], ...] = (
    _paths_are_generated,
    _manifest_agrees,
    _staging_is_a_folder,
    _no_link_on_the_way,
    _staging_holds_its_files,
    _replaces_only_ours,
)
"""What a journal must pass before recovery touches anything, in order (each returns why it fails, or None)."""


def _checked_recovery(out_dir: Path, journal_path: Path) -> _Recovery:
    """The journal, checked by every rule; its removals limited to the files the current manifest lists with
    the same digest (the rest are not ours to remove). RecoveryRefused at the first rule it fails."""
    journal = _read_journal(journal_path)
    try:
        _owned_files, owned = _read_manifest(out_dir)
        promised_files, promised = _manifest_entries(journal["manifest"])
    except CatalogDocsError as exc:
        raise _refused(journal_path, str(exc)) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _refused(journal_path, f"the manifest it records is damaged ({exc})") from None
    if set(promised) != promised_files:
        raise _refused(journal_path, "the manifest it records lists files without their digests")
    r = _Recovery(out_dir=out_dir, journal=journal, staging=out_dir / journal["staging"], promised=promised,
                  owned=owned)
    for check in _JOURNAL_CHECKS:
        why = check(r)
        if why is not None:
            raise _refused(journal_path, why)
    ours = {rel: want for rel, want in journal["remove"].items() if owned.get(rel) == want}
    return _Recovery(out_dir=out_dir, journal={**journal, "remove": ours}, staging=r.staging, promised=promised,
                     owned=owned)


def _recover_locked(out_dir: Path) -> bool:
    """Complete a swap that a killed run left half done (its journal is there, and passes every check),
    and remove leftover staging folders. True when there was a journal."""
    journal_path = out_dir / JOURNAL
    kind = _kind(journal_path)
    if kind.startswith("absent"):
        _clean_leftovers(out_dir)
        return False
    if kind != "file":
        raise _refused(journal_path, "it is not a regular file")
    r = _checked_recovery(out_dir, journal_path)
    try:
        _swap(out_dir, r.staging, r.journal, rollback_on_error=False)
        _finish(out_dir, r.staging, r.journal)
    except OSError as exc:
        raise _fault("complete the interrupted render in", exc.filename or out_dir, exc, untouched=False) from None
    _clean_leftovers(out_dir)
    return True


def needs_recovery(out_dir: Path) -> bool:
    """Whether an interrupted render left a journal or a staging folder behind (cheap: one folder listing)."""
    try:
        return any(e.name == JOURNAL or _LEFTOVER.fullmatch(e.name) for e in os.scandir(out_dir))
    except OSError:
        return False


def recover(out_dir: Path) -> bool:
    """Complete an interrupted render's swap (under the writer's lock) and clean leftover staging folders;
    True when a journal was found and completed. RecoveryRefused when the journal fails a check (nothing is
    touched then). Renders and the mkdocs hook call this before anything else."""
    if not needs_recovery(out_dir):
        return False
    with _locked(out_dir):
        return _recover_locked(out_dir)
