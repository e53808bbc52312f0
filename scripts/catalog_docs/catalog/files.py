"""Which entries of a catalogue folder the loader reads, and what each one is, from its metadata alone.

The loader (`validate`) reads exactly these: a broken entry (a dangling link, a pipe) fails `check` from its
metadata, and a folder that is not a catalogue is never walked. Standard library only.

Symbolic links: a link inside the catalogue folder is followed when its target is a regular file inside the
same folder (resolved, links included). A link whose target lies outside the folder is refused with its
location: catalogue files are reviewed in the repository, and a link would bring in a file nobody reviewed
(or make `check` read and quote any file the user can read).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

FIXED_FILES: dict[str, Role] = {"service.yaml": "service", "listing.yaml": "listing", "not-shown.yaml": "not-shown"}
VERSIONS_DIR = "versions"

MAX_BYTES = 4 * 1024 * 1024
"""No catalogue file is larger than this (the loader refuses a bigger one); the synthetic 1,000-operation
listing is about 300 KB."""

Role = Literal["service", "listing", "not-shown", "version-label", "unexpected", "unexpected-in-versions"]
Kind = Literal["file", "missing", "dangling-link", "outside-link", "special", "folder"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """One entry the loader looks at: its path, what it should be, and what it is."""

    path: Path
    role: Role
    kind: Kind
    mode: int = 0
    """The mode of what the path leads to (for a special file or a folder, to name it)."""
    target: str = ""
    """Where a link outside the folder points."""


def classify(path: Path, root: Path) -> tuple[Kind, int, str]:
    """What a path is, without opening it: (kind, mode, link target outside root)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return "missing", 0, ""
    except OSError:
        return "special", 0, ""
    if stat.S_ISLNK(st.st_mode):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return "dangling-link", 0, ""
        if target != root and root not in target.parents:
            return "outside-link", 0, str(target)
        st = target.stat()
    if stat.S_ISREG(st.st_mode):
        return "file", st.st_mode, ""
    return ("folder" if stat.S_ISDIR(st.st_mode) else "special"), st.st_mode, ""


def memory_sources(root: Path, names: Collection[tuple[str, ...]]) -> list[Source]:
    """catalogue_sources for a catalogue held in memory (a git revision's files, `names` their components below
    the catalogue folder, each a regular file): the same entries in the same order, each named under `root`.
    A name that is only a prefix of others is a folder; there are no links or special files in memory."""
    folders = {parts[:n] for parts in names for n in range(1, len(parts))}

    def source(parts: tuple[str, ...], role: Role) -> Source:
        kind: Kind = "file" if parts in names else "folder" if parts in folders else "missing"
        mode = stat.S_IFREG | 0o644 if kind == "file" else stat.S_IFDIR | 0o755 if kind == "folder" else 0
        return Source(path=root.joinpath(*parts), role=role, kind=kind, mode=mode)

    out = [source((name,), role) for name, role in FIXED_FILES.items()]
    tops = sorted({parts[0] for parts in names})
    out += [source((name,), "unexpected") for name in tops
            if Path(name).suffix in (".yaml", ".yml") and name not in FIXED_FILES]
    if (VERSIONS_DIR,) in folders:
        for name in sorted({parts[1] for parts in names if len(parts) > 1 and parts[0] == VERSIONS_DIR}):
            role = _version_entry_role(name, (VERSIONS_DIR, name) in folders)
            if role is not None:
                out.append(source((VERSIONS_DIR, name), role))
    return out


def _version_entry_role(name: str, folder: bool) -> Role | None:
    """What an entry of versions/ is to the loader (None: not looked at), as catalogue_sources decides."""
    if Path(name).suffix == ".yaml":
        return "version-label"
    if name.startswith(".") or folder:
        return None
    return "unexpected-in-versions"


def looks_like_catalogue(catalog_dir: Path) -> bool:
    """Whether the folder holds any of the fixed files (by name); else nothing in it is hashed or walked."""
    return any(os.path.lexists(catalog_dir / name) for name in FIXED_FILES)


def catalogue_sources(catalog_dir: Path) -> list[Source]:
    """Every entry the loader reads or reports, in a stable order: the fixed files, unexpected YAML files at
    the top, and every entry of versions/ but folders and hidden files that are not .yaml. Reads folder listings
    and metadata only."""
    root = catalog_dir.resolve()
    out: list[Source] = []
    for name, role in FIXED_FILES.items():
        kind, mode, target = classify(catalog_dir / name, root)
        out.append(Source(path=catalog_dir / name, role=role, kind=kind, mode=mode, target=target))
    for entry in sorted(os.scandir(catalog_dir), key=lambda e: e.name):
        if Path(entry.name).suffix in (".yaml", ".yml") and entry.name not in FIXED_FILES:
            path = catalog_dir / entry.name
            kind, mode, target = classify(path, root)
            out.append(Source(path=path, role="unexpected", kind=kind, mode=mode, target=target))
    vdir = catalog_dir / VERSIONS_DIR
    kind, mode, target = classify(vdir, root)
    if kind == "outside-link":
        out.append(Source(path=vdir, role="unexpected", kind=kind, target=target))
    elif kind == "folder":
        for entry in sorted(os.scandir(vdir), key=lambda e: e.name):
            path = vdir / entry.name
            if path.suffix != ".yaml" and entry.name.startswith("."):
                continue
            kind, mode, target = classify(path, root)
            if path.suffix == ".yaml":
                out.append(Source(path=path, role="version-label", kind=kind, mode=mode, target=target))
            elif kind != "folder":
                out.append(Source(path=path, role="unexpected-in-versions", kind=kind, mode=mode, target=target))
    return out
