"""Stage 5: write generated files into the output folder (docs/) safely.

`write_output` owns the output folder: it writes only files whose content changed, never touches a file
it did not write (a manifest records what it wrote), removes only its own stale files, and stages every
new file before swapping it in. Page planning and rendering live in `render`; this module knows nothing
of pages, only of paths and bytes.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import CatalogDocsError
from .export import to_json
from .gcpause import paused_gc
from .layout import MANIFEST


@dataclass(frozen=True, slots=True, kw_only=True)
class WriteResult:
    """What a render did to the output folder."""

    written: tuple[str, ...]
    unchanged: int
    removed: tuple[str, ...]


def _read_manifest(out_dir: Path) -> set[str]:
    path = out_dir / MANIFEST
    if not path.is_file():
        return set()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(p) for p in data["files"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise CatalogDocsError(f"{path}: the render manifest is damaged ({exc}); delete it and the generated pages") from exc


def _safe_target(out_dir: Path, rel: str) -> Path:
    target = (out_dir / rel).resolve()
    if out_dir.resolve() not in target.parents:
        raise CatalogDocsError(f"refusing to write outside {out_dir}: {rel}")
    return target


@paused_gc()
def write_output(files: dict[str, str], out_dir: Path) -> WriteResult:
    """Write generated files into out_dir: only changed ones, staged first, never over a hand-written file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    owned = _read_manifest(out_dir)
    encoded = {rel: text.encode("utf-8") for rel, text in files.items()}
    conflicts = sorted(rel for rel in encoded if rel not in owned and (out_dir / rel).exists())
    if conflicts:
        raise CatalogDocsError(
            "refusing to overwrite hand-written files (not written by catalog-docs): "
            + ", ".join(str(out_dir / c) for c in conflicts)
            + "; move or rename them, or delete them if they are old generated pages"
        )
    strays = sorted(set(_strays(out_dir, encoded, owned)))
    if strays:
        # A page inside a generated folder would pass for a generated page (and .gitignore hides it).
        raise CatalogDocsError(
            "hand-written files inside folders that catalog-docs generates: "
            + ", ".join(str(out_dir / s) for s in strays)
            + "; move them out of those folders (hand-written pages belong elsewhere in the docs folder)"
        )
    changed = []
    for rel, data in encoded.items():
        target = _safe_target(out_dir, rel)
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            pass
        changed.append(rel)
    stale = sorted(rel for rel in owned if rel not in encoded)
    manifest_path = out_dir / MANIFEST
    if changed:
        # Claim the new files before they appear, so an interrupted run never leaves files it does not own.
        manifest_path.write_text(to_json({"generator": "catalog-docs render", "files": sorted(owned | set(encoded))}),
                                 encoding="utf-8")
    staging = Path(tempfile.mkdtemp(prefix=".catalog-docs-", dir=out_dir))
    try:
        for folder in sorted({posixpath.dirname(rel) for rel in changed}):
            (staging / folder).mkdir(parents=True, exist_ok=True)
        for rel in changed:
            with open(staging / rel, "wb") as f:
                f.write(encoded[rel])
        for rel in changed:  # swap in: each replace is atomic, and all content is already on disk
            target = _safe_target(out_dir, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    removed = []
    for rel in stale:
        target = _safe_target(out_dir, rel)
        if target.is_file():
            target.unlink()
            removed.append(rel)
        _prune_empty(out_dir, target.parent)
    manifest = to_json({"generator": "catalog-docs render", "files": sorted(encoded)})
    if not manifest_path.is_file() or manifest_path.read_text(encoding="utf-8") != manifest:
        manifest_path.write_text(manifest, encoding="utf-8")
    return WriteResult(written=tuple(changed), unchanged=len(encoded) - len(changed), removed=tuple(removed))


def _strays(out_dir: Path, encoded: dict[str, bytes], owned: set[str]) -> Iterator[str]:
    """Files that catalog-docs did not write, inside a sub-folder it writes into (hidden files aside,
    as mkdocs skips them too)."""
    folders = {posixpath.dirname(rel) for rel in encoded} - {""}
    known = set(encoded) | owned
    for folder in folders:
        base = out_dir / folder
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            rel = path.relative_to(out_dir).as_posix()
            if path.is_file() and rel not in known and not any(p.startswith(".") for p in rel.split("/")):
                yield rel


def _prune_empty(out_dir: Path, folder: Path) -> None:
    root = out_dir.resolve()
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()  # only succeeds on an empty folder
        except OSError:
            return
        folder = folder.parent
