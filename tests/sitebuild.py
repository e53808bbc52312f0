"""Shared helpers for tests that render and build the site from a copy of the project."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def copy_project(dest: Path, catalog: Path | None = None) -> Path:
    """Copy what a build needs (mkdocs.yml, docs/ hand-written files, overrides/, scripts/) into dest, with
    `catalog` (the real catalog/ when None; tests use tests/fixture-catalog/) as its catalog/."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(ROOT / "overrides", dest / "overrides")
    shutil.copytree(ROOT / "scripts", dest / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(catalog or ROOT / "catalog", dest / "catalog")
    docs = dest / "docs"
    docs.mkdir()
    for rel in tracked_docs():
        target = docs / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "docs" / rel, target)
    return dest


def tracked_docs() -> list[str]:
    """Hand-written files under docs/ (the ones git tracks; generated pages are ignored)."""
    out = subprocess.run(["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line[len("docs/"):] for line in out.splitlines() if line]


def build(project: Path, *, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """Run `mkdocs build` in a project copy (its hook renders the catalogue first)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cmd = [str(BIN / "mkdocs"), "build", "--site-dir", str(project / "site")]
    if strict:
        cmd.append("--strict")
    return subprocess.run(cmd, cwd=project, capture_output=True, text=True, env=env, timeout=600)
