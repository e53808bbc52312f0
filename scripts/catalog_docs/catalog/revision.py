"""Reading the catalogue as it is at a git revision (for `catalog-docs diff --against REV`).

A revision is data written by someone the reviewer may not know, so nothing in it is trusted:

- Its tree is listed once (`git ls-tree -r -l`, which gives every blob's size), and every entry under the
  catalogue folder is checked before anything is read or written: a name with a `.`, `..` or `.git`
  component, an empty component, a backslash or NUL, an absolute name, a symbolic link or a submodule
  refuses the whole revision with one line naming the entry (exit 2), and nothing is written anywhere.
- The blobs are read through one `git cat-file --batch` stream, one at a time, never more than the loader's
  size limit each: a blob over the limit is never read (its size came with the listing).
- The files are then laid out in a temporary folder this module creates, under the names it has just
  checked, and loaded with the same `load_catalog` as the working tree, so both sides pass the same rules
  (and the same, current, JSON Schemas). A blob over the limit is laid out as a sparse file of its size, so
  the loader refuses it with the very error a working-tree file of that size gets, without reading it.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from catalog_docs.catalog.files import MAX_BYTES, VERSIONS_DIR
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogDocsError, CatalogInvalid


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
    name), so only that folder is made."""
    return parts[:2] if parts[0] == VERSIONS_DIR else parts[:1]


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


def _lay_out(entries: list[TreeEntry], top: Path, root: Path) -> None:
    """Write the checked entries the loader looks at into `root`, a folder this module just made."""
    root.mkdir()
    stream = _BlobStream(top)
    try:
        for entry in entries:
            kept = _laid_out(entry.parts)
            target = root.joinpath(*kept)
            if kept != entry.parts:
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            size = entry.size or 0
            if size > MAX_BYTES:
                # Never read: a sparse stand-in of the same size, which the loader refuses by its size alone.
                with target.open("xb") as out:
                    out.truncate(size)
            else:
                target.write_bytes(stream.read(entry))
    finally:
        stream.close()


def catalog_at_revision(catalog_dir: Path, rev: str) -> Catalog:
    """Load the catalogue folder `catalog_dir` as it is at git revision `rev` (a branch, tag, commit, HEAD~3)."""
    top, prefix = _checkout(catalog_dir)
    commit = _commit(top, rev)
    entries = revision_entries(top, commit, prefix, rev)
    with tempfile.TemporaryDirectory(prefix="catalog-docs-rev-") as tmp:
        root = Path(tmp) / "catalog"
        _lay_out(entries, top, root)
        try:
            return load_catalog(root)
        except CatalogInvalid as exc:
            # Name the files as git does (`REV:catalog/listing.yaml`), not by the temporary copy.
            problems = [dataclasses.replace(p, file=_revision_name(p.file, root, rev, prefix)) for p in exc.problems]
            raise RevisionCatalogInvalid(rev, CatalogInvalid(problems)) from None


def _revision_name(shown: str, root: Path, rev: str, prefix: str) -> str:
    """`REV:catalog/listing.yaml` for a file of the temporary copy, however the loader displayed it."""
    for form in (str(root), str(root.resolve()), _relative(root)):
        if form and shown.startswith(form):
            return f"{rev}:{prefix}{shown[len(form):]}"
    return shown


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return ""

