"""Stage 5: write generated files into the output folder (docs/) safely.

`write_output` owns the output folder, and only its own files in it:

- **Checked first.** Before anything is written, every generated path is checked: a hand-written file, a
  symbolic link, a folder or a special file there, a symbolic link on the way to it, or a hand-written file
  inside a generated folder stops the write with an error that names them. A stale file is removed only if
  it still holds the bytes catalog-docs wrote (the manifest records a digest of each file).
- **Staged, journalled, swapped.** Changed files and the new manifest are written into a hidden staging
  folder inside docs/; only when all of it is on disk is a journal written (atomically), which is the
  commit point. The swap then moves each file in (the old one into the staging folder), removes stale files
  and moves the manifest in last.
- **Faults and crashes.** A file-system fault before the journal leaves docs/ untouched; a fault during the
  swap puts every file back. A process killed at any moment leaves either no journal (docs/ as it was, plus
  a hidden staging folder) or a journal, and the next write (or `recover`, which the render and the mkdocs
  hook call first) completes the swap it records. Leftover staging folders are removed.
- **One writer at a time.** Writers take an exclusive lock on the output folder itself (flock), so two
  renders into the same docs/ run one after the other.

Page planning and rendering live in `render`; this module knows nothing of pages, only of paths and bytes.
It imports nothing beyond the standard library and two light modules, so the render fingerprint in
`incremental` can use it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import posixpath
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import MANIFEST

try:
    import fcntl
except ImportError:  # Windows: no flock; renders there are not serialised
    fcntl = None  # type: ignore[assignment]

JOURNAL = ".catalog-docs-journal.json"
"""The swap in progress, in the output folder: present only between the commit point and the end of a swap."""
STAGING_PREFIX = ".catalog-docs-staging-"
_LEFTOVER = re.compile(r"\.catalog-docs-(?:staging-)?[A-Za-z0-9_]{8}")
"""Staging folders of earlier runs (`.catalog-docs-XXXXXXXX` was the name before the journal existed)."""
LOCK_WAIT_S = 300.0
"""How long a writer waits for another one on the same folder before giving up with an error."""
GENERATOR = "catalog-docs render"


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


def _read_manifest(out_dir: Path) -> tuple[set[str], dict[str, str]]:
    """The files the last render wrote, and the digest of each (empty for a manifest older than digests)."""
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
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
        files = {str(p) for p in data["files"]}
        digests = data.get("digests") or {}
        if not isinstance(digests, dict):
            raise TypeError("digests is not a mapping")
        return files, {str(k): str(v) for k, v in digests.items()}
    except OSError as exc:
        raise _fault("read", path, exc) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CatalogDocsError(f"{path}: the render manifest is damaged ({exc}); delete it and the generated pages") from exc


def _manifest_text(files: dict[str, str], fingerprint: dict[str, str] | None) -> str:
    data: dict[str, Any] = {"generator": GENERATOR, "files": sorted(files), "digests": dict(sorted(files.items()))}
    if fingerprint is not None:
        data["fingerprint"] = fingerprint
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _signature(stats: dict[str, os.stat_result | None]) -> str:
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


def _safe_target(out_dir: Path, rel: str) -> Path:
    """The path of a generated file; refuses a relative path that would leave the output folder."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in rel or "\0" in rel:
        raise CatalogDocsError(f"refusing to write outside {out_dir}: {rel}")
    return out_dir.joinpath(*parts)


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Create out_dir if needed and hold an exclusive lock on it (the folder itself, so no lock file is left)."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CatalogDocsError(f"cannot write into {out_dir}: a file is there, not a folder; nothing was changed") from None
    except OSError as exc:
        raise _fault("create", out_dir, exc) from None
    if fcntl is None:  # no flock (Windows, where a folder cannot be opened either): write unserialised
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


def _kind(path: Path) -> str:
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


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    stale: dict[str, str | None]
    """Stale files that exist, with the digest they must still have (None: written before digests)."""
    replaced: tuple[str, ...] = ()
    """The changed files that exist now (the swap moves each aside); the others are new."""


def _plan(out_dir: Path, encoded: dict[str, bytes], owned: set[str], digests: dict[str, str],
          known: frozenset[str] = frozenset()) -> _Plan:
    """Check every generated and stale path before anything is written; what to write and to remove.
    `known`: files this process wrote with the same text, whose size, modification time and inode are still
    what they were after that write (`_Written`): unchanged without reading them again."""
    conflicts: list[str] = []
    unsafe: list[str] = []
    folder_kind: dict[str, str] = {"": "dir"}

    def folders_ok(rel: str) -> bool:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            kind = folder_kind.get(folder)
            if kind is None:
                kind = folder_kind[folder] = _kind(out_dir / folder)
            if kind == "link":
                unsafe.append(f"{out_dir / folder} (a symbolic link where catalog-docs writes a folder)")
                return False
            if kind in ("file", "special"):
                conflicts.append(folder)
                return False
            if kind != "dir":
                return True  # missing: created by the swap
        return True

    changed, unchanged, replaced = [], [], []
    for rel in sorted(known):
        if folders_ok(rel):
            (unchanged if rel in owned else conflicts).append(rel)
    for rel, data in encoded.items():
        target = _safe_target(out_dir, rel)
        if not folders_ok(rel):
            continue
        kind = _kind(target)
        if kind.startswith("absent"):
            changed.append(rel)
        elif kind == "link":
            unsafe.append(f"{target} (a symbolic link; catalog-docs never writes through one)")
        elif kind == "dir":
            unsafe.append(f"{target} (a folder where catalog-docs writes a file)")
        elif kind == "special":
            unsafe.append(f"{target} (a special file: a pipe, socket or device)")
        elif rel not in owned:
            conflicts.append(rel)
        else:
            try:
                same = target.read_bytes() == data
            except OSError as exc:
                raise _fault("read", target, exc) from None
            (unchanged if same else changed).append(rel)
            if not same:
                replaced.append(rel)
    stale: dict[str, str | None] = {}
    edited: list[str] = []
    for rel in sorted(owned - set(encoded) - known):
        target = _safe_target(out_dir, rel)
        if not folders_ok(rel):
            continue
        kind = _kind(target)
        if kind.startswith("absent"):
            continue
        if kind != "file":
            unsafe.append(f"{target} (listed as generated, but now a {'symbolic link' if kind == 'link' else kind})")
            continue
        want = digests.get(rel)
        if want is not None:
            try:
                if digest(target.read_bytes()) != want:
                    edited.append(rel)
                    continue
            except OSError as exc:
                raise _fault("read", target, exc) from None
        stale[rel] = want
    if conflicts:
        raise CatalogDocsError(
            "refusing to overwrite hand-written files (not written by catalog-docs): "
            + ", ".join(str(out_dir / c) for c in sorted(set(conflicts)))
            + "; move or rename them, or delete them if they are old generated pages"
        )
    if unsafe:
        raise CatalogDocsError("refusing to write at these generated paths: " + ", ".join(unsafe)
                               + "; remove them (catalog-docs writes only regular files in real folders)")
    if edited:
        raise CatalogDocsError(
            "generated files that are no longer generated but were changed since catalog-docs wrote them: "
            + ", ".join(str(out_dir / e) for e in edited)
            + "; catalog-docs removes only what it wrote: move or delete them"
        )
    strays = sorted(set(_strays(out_dir, set(encoded) | known, owned)))
    if strays:
        # A page inside a generated folder would pass for a generated page (and .gitignore hides it).
        raise CatalogDocsError(
            "hand-written files inside folders that catalog-docs generates: "
            + ", ".join(str(out_dir / s) for s in strays)
            + "; move them out of those folders (hand-written pages belong elsewhere in the docs folder)"
        )
    return _Plan(changed=tuple(changed), unchanged=tuple(unchanged), stale=stale, replaced=tuple(replaced))


def _strays(out_dir: Path, encoded: set[str], owned: set[str]) -> Iterator[str]:
    """Files, links and special files that catalog-docs did not write, inside a sub-folder it writes into
    (hidden ones aside, as mkdocs skips them too). Symbolic links to folders are listed, never followed."""
    folders = {posixpath.dirname(rel) for rel in encoded} - {""}
    tops = {f for f in folders if not any(f.startswith(g + "/") for g in folders)}
    known = set(encoded) | owned
    for folder in sorted(tops):
        base = out_dir / folder
        if _kind(base) != "dir":
            continue
        for here, dirs, names in os.walk(base):
            rel_here = Path(here).relative_to(out_dir).as_posix()
            for name in names + [d for d in dirs if os.path.islink(os.path.join(here, d))]:
                rel = f"{rel_here}/{name}"
                if rel not in known and not any(p.startswith(".") for p in rel.split("/")):
                    yield rel
            dirs[:] = [d for d in dirs if not d.startswith(".")]


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


def _remember(out_dir: Path, files: dict[str, str], digests: dict[str, str],
              stats: dict[str, os.stat_result | None]) -> None:
    written = {}
    for rel, text in files.items():
        key = _stat_key(stats.get(rel))
        if key is not None:
            written[rel] = _Written(text=text, digest=digests[rel], stat=key)
    _WRITTEN[str(out_dir.resolve())] = written


@paused_gc()
def write_output(files: dict[str, str], out_dir: Path, *, inputs: str | None = None) -> WriteResult:
    """Write generated files into out_dir: only changed ones, staged and journalled first, never over a
    hand-written file. With `inputs` (the render's input fingerprint) the manifest records the fingerprint
    that lets `incremental` skip the next render when nothing changed."""
    for rel in files:
        _safe_target(out_dir, rel)
    with _locked(out_dir):
        _recover_locked(out_dir)
        owned, old_digests = _read_manifest(out_dir)
        known = {rel: w for rel, w in _known(out_dir, files).items() if old_digests.get(rel) == w.digest}
        encoded = {rel: text.encode("utf-8") for rel, text in files.items() if rel not in known}
        plan = _plan(out_dir, encoded, owned, old_digests, frozenset(known))
        new_digests = {rel: known[rel].digest if rel in known else digest(encoded[rel]) for rel in files}
        final_stats: dict[str, os.stat_result | None] = {}

        def manifest_for(stats: dict[str, os.stat_result | None]) -> str:
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


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _stage(out_dir: Path, staging: Path, encoded: dict[str, bytes], plan: _Plan, manifest_for: Any) -> dict[str, Any]:
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
        stats: dict[str, os.stat_result | None] = {}
        for rel in plan.changed:
            _put(new / rel, encoded[rel])
            stats[rel] = (new / rel).stat()  # a rename keeps size and mtime: the swapped file's signature
        for rel in plan.unchanged:
            stats[rel] = _stat_or_none(out_dir / rel)
        rel = MANIFEST
        manifest = manifest_for(stats)
        _put(staging / "manifest", manifest.encode("utf-8"))
        journal = {"generator": GENERATOR, "staging": staging.name, "replace": list(plan.changed),
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


def _swap(out_dir: Path, staging: Path, journal: dict[str, Any], *, rollback_on_error: bool) -> None:
    """Move the staged files in (old ones aside), stale files aside, the manifest in last. Idempotent: a
    recovery runs it again after a crash and it picks up where the crashed run stopped. An OSError it
    raises names the generated path it was working on."""
    new, old = staging / "new", staging / "old"
    done: list[tuple[str, str]] = []  # ("replace" | "remove" | "manifest", rel), for the rollback
    created: list[Path] = []
    at = out_dir
    try:
        for rel in journal["replace"]:
            source, at, aside = new / rel, _safe_target(out_dir, rel), old / rel
            if _kind(source) != "file":
                continue  # moved in before a crash
            _make_folders(out_dir, at.parent, created)
            kind = _kind(at)
            if kind == "file" and _kind(aside).startswith("absent"):
                aside.parent.mkdir(parents=True, exist_ok=True)
                os.replace(at, aside)
            elif kind not in ("absent", "file"):
                raise OSError(errno.EEXIST, "something other than a generated file appeared there")
            done.append(("replace", rel))
            os.replace(source, at)
        for rel, want in journal["remove"].items():
            at, aside = _safe_target(out_dir, rel), old / rel
            if _kind(at) != "file" or not _kind(aside).startswith("absent"):
                continue
            if want is not None and digest(at.read_bytes()) != want:
                continue  # changed since the journal was written: not ours to remove
            aside.parent.mkdir(parents=True, exist_ok=True)
            os.replace(at, aside)
            done.append(("remove", rel))
        at = out_dir / MANIFEST
        staged_manifest = staging / "manifest"
        if _kind(staged_manifest) == "file":
            aside = old / MANIFEST
            if _kind(at) == "file" and _kind(aside).startswith("absent"):
                os.replace(at, aside)
            done.append(("manifest", MANIFEST))
            os.replace(staged_manifest, at)
        elif _read_text(at) != journal["manifest"]:
            staging.mkdir(exist_ok=True)
            _put(staging / "manifest.again", journal["manifest"].encode("utf-8"))
            os.replace(staging / "manifest.again", at)
    except OSError as exc:
        if rollback_on_error:
            _rollback(out_dir, staging, done, created)
        raise OSError(exc.errno, exc.strerror or str(exc), str(at)) from None


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None


def _make_folders(out_dir: Path, folder: Path, created: list[Path]) -> None:
    missing = []
    while folder != out_dir and _kind(folder).startswith("absent"):
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
        created.append(path)


def _rollback(out_dir: Path, staging: Path, done: list[tuple[str, str]], created: list[Path]) -> None:
    """Undo a swap that failed in this process: every file back where it was, new folders removed. If the
    rollback itself fails, the journal stays and the next run completes the swap instead."""
    old = staging / "old"
    try:
        for action, rel in reversed(done):
            target = out_dir / MANIFEST if action == "manifest" else _safe_target(out_dir, rel)
            aside = old / rel
            if action == "replace" and _kind(aside).startswith("absent"):
                if _kind(target) == "file":
                    target.unlink()
                continue
            if _kind(aside) == "file":
                os.replace(aside, target)
            elif action == "manifest" and _kind(target) == "file":
                target.unlink()
        for folder in reversed(created):
            folder.rmdir()
    except OSError:
        return
    try:
        (out_dir / JOURNAL).unlink()
    except OSError:
        return
    shutil.rmtree(staging, ignore_errors=True)


def _finish(out_dir: Path, staging: Path, journal: dict[str, Any]) -> None:
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


def _recover_locked(out_dir: Path) -> bool:
    """Complete a swap that a killed run left half done (its journal is there), and remove leftover
    staging folders. True when there was a journal."""
    journal_path = out_dir / JOURNAL
    kind = _kind(journal_path)
    if kind.startswith("absent"):
        _clean_leftovers(out_dir)
        return False
    if kind != "file":
        raise CatalogDocsError(f"{journal_path}: not a regular file; remove it and render again with --force")
    try:
        journal = json.loads(journal_path.read_bytes().decode("utf-8"))
        staging_name = journal["staging"]
        if not (isinstance(staging_name, str) and _LEFTOVER.fullmatch(staging_name)):
            raise ValueError(f"staging folder {staging_name!r}")
        for key, kind_ in (("replace", list), ("remove", dict), ("manifest", str)):
            if not isinstance(journal[key], kind_):
                raise TypeError(f"{key} is not a {kind_.__name__}")
    except OSError as exc:
        raise _fault("read", journal_path, exc) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise CatalogDocsError(f"{journal_path}: the journal of an interrupted render is damaged ({exc}); "
                               "delete it and render again with --force") from None
    staging = out_dir / staging_name
    try:
        _swap(out_dir, staging, journal, rollback_on_error=False)
        _finish(out_dir, staging, journal)
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
    True when a journal was found. Renders and the mkdocs hook call this before anything else."""
    if not needs_recovery(out_dir):
        return False
    with _locked(out_dir):
        return _recover_locked(out_dir)
