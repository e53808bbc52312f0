"""Reading the catalogue as it is at a git revision (for `catalog-docs diff --against REV`).

The files of the catalogue folder at REV are copied out of git into a temporary folder and loaded with the
same `load_catalog` as the working tree, so both sides are validated by the same rules (and the same,
current, JSON Schemas).
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from pathlib import Path

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogDocsError, CatalogInvalid


class RevisionCatalogInvalid(CatalogDocsError):
    """The catalogue at a git revision does not load; carries that revision's problems."""

    def __init__(self, rev: str, invalid: CatalogInvalid) -> None:
        self.rev = rev
        self.invalid = invalid
        super().__init__(f"the catalogue at revision {rev!r} does not load:\n{invalid.report()}")


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise CatalogDocsError("git is not installed or not on PATH; --against needs git") from None


def _toplevel(folder: Path) -> Path | None:
    result = _git(["rev-parse", "--show-toplevel"], folder)
    return Path(result.stdout.decode().strip()) if result.returncode == 0 else None


def catalog_at_revision(catalog_dir: Path, rev: str) -> Catalog:
    """Load the catalogue folder `catalog_dir` as it is at git revision `rev` (a branch, tag, commit, HEAD~3)."""
    folder = catalog_dir if catalog_dir.is_dir() else catalog_dir.parent
    if not folder.is_dir():
        raise CatalogDocsError(f"{catalog_dir}: no such folder; pass --catalog DIR or run inside the repository")
    top = _toplevel(folder)
    if top is None:
        raise CatalogDocsError(f"{folder.resolve()} is not inside a git checkout; --against needs a git repository")
    if rev.startswith("-") or not rev.strip():
        raise CatalogDocsError(f"{rev!r} is not a git revision")
    resolved = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], top)
    if resolved.returncode != 0:
        refs = _git(["for-each-ref", "--count=20", "--format=%(refname:short)", "refs/heads", "refs/tags"], top)
        known = ", ".join(refs.stdout.decode().split()) or "none"
        raise CatalogDocsError(f"unknown git revision {rev!r}; branches and tags here: {known} "
                               "(or a commit, or HEAD~N)")
    commit = resolved.stdout.decode().strip()
    try:
        prefix = catalog_dir.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        raise CatalogDocsError(f"{catalog_dir} is not inside the git checkout at {top}") from None
    listed = _git(["ls-tree", "-r", "-z", "--name-only", commit, "--", f"{prefix}/"], top)
    names = [n for n in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    if listed.returncode != 0 or not names:
        raise CatalogDocsError(f"the catalogue folder {prefix}/ does not exist at revision {rev!r} "
                               f"({commit[:12]}); nothing to compare against")
    with tempfile.TemporaryDirectory(prefix="catalog-docs-rev-") as tmp:
        root = Path(tmp) / "catalog"
        for name in names:
            blob = _git(["cat-file", "blob", f"{commit}:{name}"], top)
            if blob.returncode != 0:
                continue  # a submodule or other non-file entry: not part of a catalogue
            target = root / Path(name).relative_to(prefix)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob.stdout)
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
