"""Reading the catalogue as it is at a git revision (for `catalog-docs diff --against REV`).

A revision is data written by someone the reviewer may not know, so nothing in it is trusted:

- Its tree is listed once (`git ls-tree -r -l`, which gives every blob's size), and every entry under the
  catalogue folder is checked before anything is read or written: a name with a `.`, `..` or `.git`
  component, an empty component, a backslash or NUL, an absolute name, a symbolic link or a submodule
  refuses the whole revision with one line naming the entry (exit 2), and nothing is written anywhere.
- Before anything is read, the listing is held to limits: at most MAX_ENTRIES entries, and at most
  MAX_TOTAL_BYTES in the files the loader would read (a few dozen entries naming one compressible blob would
  otherwise be read, and parsed, many times over).
- The blobs are read into memory through one `git cat-file --batch` stream, one at a time (each object once),
  never more than the loader's size limit each: a blob over the limit is never read (its size came with the
  listing), and the loader refuses it with the very error a working-tree file of that size gets.
- The files are loaded from memory (`validate.load_catalog_from_memory`) by the same rules as the working tree
  (and the same, current, JSON Schemas), named as git names them (`REV:catalog/listing.yaml`). Nothing is ever
  written: no temporary folder, no file.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from catalog_docs.catalog.files import MAX_BYTES, VERSIONS_DIR
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog_from_memory
from catalog_docs.errors import CatalogDocsError, CatalogInvalid

MAX_ENTRIES = 10_000
"""At most this many tree entries under the catalogue folder (a catalogue has a few dozen files)."""
MAX_TOTAL_BYTES = 32 * 1024 * 1024
"""At most this many bytes in the files the loader reads, summed (a synthetic catalogue of 1,000 operations and
20 labels has about 5 MB; each file is held to the loader's own 4 MiB besides)."""


class RevisionCatalogInvalid(CatalogDocsError):
    """The catalogue at a git revision does not load; carries that revision's problems."""

    exit_code = 1  # an invalid catalogue, wherever it is found

    def __init__(self, rev: str, invalid: CatalogInvalid) -> None:
        self.rev = rev
        self.invalid = invalid
        super().__init__(f"the catalogue at revision {rev!r} does not load")

    def report(self) -> str:
        """A heading line, then every problem on its own line, then the count."""
        return f"catalog-docs: error: {self}:\n{self.invalid.report()}"


class RevisionRefused(CatalogDocsError):
    """The revision's tree holds an entry no checkout should write (a `..`, a link, a submodule...)."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TreeEntry:
    """One entry of `git ls-tree -r -l` under the catalogue folder."""

    mode: str
    """Git's mode: 100644 or 100755 for a file, 120000 for a symbolic link, 160000 for a submodule."""
    oid: str
    size: int | None
    """The blob's size in bytes (None for a submodule, which has none)."""
    name: str
    """The full name in the tree, as git prints it (`catalog/versions/X.yaml`)."""
    parts: tuple[str, ...]
    """The name's components below the catalogue folder (`versions`, `X.yaml`)."""


_FILE_MODES = frozenset({"100644", "100755", "100664"})  # 100664: a plain file in trees of very old gits
_MODE_WORDS = {"120000": "a symbolic link", "160000": "a submodule (gitlink)", "040000": "a folder"}


def _component_refusal(part: str) -> str | None:
    """Why one name component may not be written, or None."""
    if part in ("", ".", ".."):
        return f"a {part!r} component" if part else "an empty component"
    # `.git` in any case, and with the dots and spaces Windows drops from a name's end (`.git.`, `.GIT `).
    if part.rstrip(". ").lower() == ".git":
        return "a '.git' component"
    return None


def _name_refusal(entry: TreeEntry) -> str | None:
    if entry.name.startswith("/"):
        return "an absolute name"
    for char, word in (("\\", "a backslash"), ("\0", "a NUL character")):
        if char in entry.name:
            return f"{word} in its name"
    return next((why for why in map(_component_refusal, entry.parts) if why is not None), None)


def _mode_refusal(entry: TreeEntry) -> str | None:
    if entry.mode in _FILE_MODES and entry.size is not None:
        return None
    return _MODE_WORDS.get(entry.mode, f"an entry of mode {entry.mode}") + ", which a catalogue never holds"


_RULES: tuple[Callable[[TreeEntry], str | None], ...] = (_name_refusal, _mode_refusal)
"""Each rule says why an entry refuses the revision, or None; the first that speaks wins."""


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "--literal-pathspecs", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise CatalogDocsError("git is not installed or not on PATH; --against needs git") from None


def _toplevel(folder: Path) -> Path | None:
    result = _git(["rev-parse", "--show-toplevel"], folder)
    # The checkout's own path, in the file system's encoding (it need not be UTF-8).
    return Path(os.fsdecode(result.stdout.rstrip(b"\n"))) if result.returncode == 0 else None


def _checkout(catalog_dir: Path) -> tuple[Path, str]:
    """The checkout's top folder and the catalogue folder's name in its tree (`catalog`)."""
    folder = catalog_dir if catalog_dir.is_dir() else catalog_dir.parent
    if not folder.is_dir():
        raise CatalogDocsError(f"{catalog_dir}: no such folder; pass --catalog DIR or run inside the repository")
    top = _toplevel(folder)
    if top is None:
        raise CatalogDocsError(f"{folder.resolve()} is not inside a git checkout; --against needs a git repository")
    try:
        prefix = catalog_dir.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        raise CatalogDocsError(f"{catalog_dir} is not inside the git checkout at {top}") from None
    return top, prefix


def _commit(top: Path, rev: str) -> str:
    if rev.startswith("-") or not rev.strip():
        raise CatalogDocsError(f"{rev!r} is not a git revision")
    resolved = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], top)
    if resolved.returncode != 0:
        refs = _git(["for-each-ref", "--count=20", "--format=%(refname:short)", "refs/heads", "refs/tags"], top)
        known = ", ".join(refs.stdout.decode().split()) or "none"
        raise CatalogDocsError(f"unknown git revision {rev!r}; branches and tags here: {known} "
                               "(or a commit, or HEAD~N)")
    return resolved.stdout.decode().strip()


def _parse_listing(raw: bytes, below: str) -> Iterator[TreeEntry]:
    """The records of `git ls-tree -r -l -z`: `<mode> <type> <oid> <size>\\t<name>`, NUL-terminated;
    `below` is the catalogue folder's name with a slash (empty when it is the checkout's top)."""
    for record in raw.split(b"\0"):
        if not record:
            continue
        meta, _, raw_name = record.partition(b"\t")
        mode, _kind, oid, size = meta.decode("ascii").split()
        name = raw_name.decode("utf-8", "surrogateescape")
        # An entry that is the catalogue folder itself (a link or submodule named `catalog`) has no parts.
        parts = tuple(name[len(below):].split("/")) if name.startswith(below) else ()
        yield TreeEntry(mode=mode, oid=oid, size=int(size) if size.isdigit() else None, name=name, parts=parts)


def revision_entries(top: Path, commit: str, prefix: str, rev: str) -> list[TreeEntry]:
    """Every entry under the catalogue folder at `commit`, each checked; RevisionRefused at the first bad one."""
    pathspec = [] if prefix == "." else ["--", f"{prefix}/", prefix]
    listed = _git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit, *pathspec], top)
    if listed.returncode != 0:  # a tree git itself cannot parse (an empty name, a truncated entry...)
        cause = listed.stderr.decode("utf-8", "replace").strip().removeprefix("fatal: ").split("\n")[0]
        raise RevisionRefused(f"revision {rev!r} refused: git cannot read its tree ({cause}); "
                              "nothing was read from it or written")
    entries = list(_parse_listing(listed.stdout, "" if prefix == "." else f"{prefix}/"))
    if not entries:
        raise CatalogDocsError(f"the catalogue folder {prefix}/ does not exist at revision {rev!r} "
                               f"({commit[:12]}); nothing to compare against")
    folders = {entry.parts[:n] for entry in entries for n in range(1, len(entry.parts))}
    seen: set[tuple[str, ...]] = set()
    for entry in entries:
        why = _refusal(entry, seen, folders)
        if why is not None:
            raise RevisionRefused(f"revision {rev!r} refused: its tree entry {entry.name!r} is {why}; "
                                  "nothing was read from it or written")
        seen.add(entry.parts)
    return entries


def _refusal(entry: TreeEntry, seen: set[tuple[str, ...]], folders: set[tuple[str, ...]]) -> str | None:
    """Why the entry refuses the revision, or None: the rules on the entry alone, then its place in the tree
    (a name given twice, or as both a file and a folder, is a tree git itself calls broken)."""
    if not entry.parts:
        return "the catalogue folder itself, not a file in it"
    why = next((w for w in (rule(entry) for rule in _RULES) if w is not None), None)
    if why is None and (entry.parts in seen or entry.parts in folders):
        why = "a name the tree gives twice"
    return why


def _laid_out(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The part of an entry's name the loader looks at: a top-level entry, or one in versions/. A deeper
    file is never read, only the folder that holds it is seen (and refused when it has a catalogue file's
    name)."""
    return parts[:2] if parts[0] == VERSIONS_DIR else parts[:1]


def _limits(entries: list[TreeEntry], rev: str) -> None:
    """Refuse a revision over the limits, from its listing alone (nothing has been read yet)."""
    if len(entries) > MAX_ENTRIES:
        raise RevisionRefused(f"revision {rev!r} refused: its catalogue folder has {len(entries)} entries, over "
                              f"the {MAX_ENTRIES} a catalogue may have; nothing was read from it or written")
    total = sum(e.size or 0 for e in entries if _laid_out(e.parts) == e.parts and (e.size or 0) <= MAX_BYTES)
    if total > MAX_TOTAL_BYTES:
        raise RevisionRefused(f"revision {rev!r} refused: its catalogue files hold {total} bytes, over the "
                              f"{MAX_TOTAL_BYTES} a catalogue may have; nothing was read from it or written")


class _BlobStream:
    """One `git cat-file --batch` process: blobs read one at a time, by object id, each of a known size."""

    def __init__(self, top: Path) -> None:
        try:
            self._proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=top, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            raise CatalogDocsError("git is not installed or not on PATH; --against needs git") from None
        assert self._proc.stdin is not None  # both pipes were asked for
        assert self._proc.stdout is not None
        self._in: IO[bytes] = self._proc.stdin
        self._out: IO[bytes] = self._proc.stdout

    def read(self, entry: TreeEntry) -> bytes:
        """The blob's bytes; its size was checked against the limit before it was asked for."""
        self._in.write(f"{entry.oid}\n".encode("ascii"))
        self._in.flush()
        header = self._out.readline().split()
        data = self._out.read(entry.size or 0) if header[1:] == [b"blob", str(entry.size).encode()] else b""
        if len(data) != entry.size or self._out.read(1) != b"\n":  # a newline ends each object
            raise CatalogDocsError(f"git cat-file could not read {entry.name!r} ({entry.oid})")
        return data

    def close(self) -> None:
        self._in.close()
        self._out.close()
        self._proc.wait()


def _read(entries: list[TreeEntry], top: Path) -> dict[tuple[str, ...], bytes | int]:
    """The checked entries, in memory: each file the loader reads by its bytes (each object read once), one
    over the limit by its size alone, and a deeper entry (never read) by its size, so that the folder
    holding it is seen."""
    files: dict[tuple[str, ...], bytes | int] = {}
    blobs: dict[str, bytes] = {}
    stream = _BlobStream(top)
    try:
        for entry in entries:
            size = entry.size or 0
            if _laid_out(entry.parts) != entry.parts or size > MAX_BYTES:
                files[entry.parts] = size
                continue
            if entry.oid not in blobs:
                blobs[entry.oid] = stream.read(entry)
            files[entry.parts] = blobs[entry.oid]
    finally:
        stream.close()
    return files


def catalog_at_revision(catalog_dir: Path, rev: str) -> Catalog:
    """Load the catalogue folder `catalog_dir` as it is at git revision `rev` (a branch, tag, commit, HEAD~3),
    in memory."""
    top, prefix = _checkout(catalog_dir)
    commit = _commit(top, rev)
    entries = revision_entries(top, commit, prefix, rev)
    _limits(entries, rev)
    files = _read(entries, top)
    folder = "" if prefix == "." else f"{prefix}/"
    try:
        return load_catalog_from_memory(files, lambda parts: f"{rev}:{folder}{'/'.join(parts)}")
    except CatalogInvalid as exc:
        raise RevisionCatalogInvalid(rev, exc) from None
