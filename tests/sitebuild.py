"""Shared helpers for tests that render and build the site from a copy of the project."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def copy_project(dest: Path, catalog: Path | None = None) -> Path:
    """Copy what a build needs (mkdocs.yml, docs/ hand-written files, overrides/, scripts/) into dest, with
    `catalog` (the real catalog/ when None; tests use tests/fixture-catalog/) as its catalog/."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(ROOT / "overrides", dest / "overrides")
    # With the checkout's bytecode caches (valid for the copy: copied files keep their times), so a process run in
    # the copy (copy_env: no cache written) does not compile the package again; not a cache file being written.
    shutil.copytree(ROOT / "scripts", dest / "scripts", ignore=shutil.ignore_patterns("*.pyc.*"))
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
    """Run `mkdocs build` in a project copy (its plugin renders the catalogue, in memory)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cmd = [str(BIN / "mkdocs"), "build", "--site-dir", str(project / "site")]
    if strict:
        cmd.append("--strict")
    return subprocess.run(cmd, cwd=project, capture_output=True, text=True, env=env, timeout=600)


ZENSICAL_BUILD = [str(BIN / "catalog-docs"), "build", "--publish", "--", str(BIN / "zensical"), "build", "--strict",
                  "--clean", "-f", "mkdocs.yml"]
"""`make site BUILDER=zensical`, as the Makefile has it (tests/site/test_engines.py runs the Makefile's own line)."""


def build_zensical(project: Path) -> subprocess.CompletedProcess[str]:
    """Build a project copy with Zensical, through `catalog-docs build` and its build folder."""
    return subprocess.run(ZENSICAL_BUILD, cwd=project, capture_output=True, text=True, env=copy_env(project),
                          timeout=600)


def clone_project(dest: Path, *, branch: str = "main") -> Path:
    """The project as a fresh clone has it: every tracked (and new, not ignored) file, committed on `branch`
    of a new repository in dest. The npm test tools (`make tools`) are linked in, read only."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_symlink() and not src.readlink().is_absolute():
            # A clone has a link of the repository as a link (scripts/catalog_docs/catalog/schemas); the links to
            # the npm tools below (absolute, untracked) are made afresh.
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).symlink_to(src.readlink())
        elif src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    for tools in ("node_modules", "tools/lighthouse/node_modules"):  # installed by `make tools`, not tracked
        if (ROOT / tools).is_dir():
            (dest / tools).parent.mkdir(parents=True, exist_ok=True)
            (dest / tools).symlink_to(ROOT / tools)
    who = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    for git in (["init", "-q", "-b", branch], ["add", "-A"], [*who, "commit", "-q", "-m", "copy of the project"]):
        subprocess.run(["git", *git], cwd=dest, check=True, capture_output=True)
    return dest


def copy_env(project: Path) -> dict[str, str]:
    """The environment for commands run in a project copy: its own package first on the path, before the
    editable install of the original checkout that .venv holds; no bytecode cache is written into the copy (it
    is no write of the tool's, and would read as one to a test that compares the copy before and after)."""
    return {**os.environ, "PYTHONPATH": str(project / "scripts"), "NO_MKDOCS_2_WARNING": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


def borrow_venv(project: Path) -> None:
    """Give a project copy this test run's installed tools, with install stamps of its own that are up to date:
    a `make` target run in the copy installs nothing, and never reinstalls into the shared environment (which
    would point its scripts at the temporary copy)."""
    venv = project / ".venv"
    venv.mkdir()
    ours = Path(sys.prefix)
    for name in ("bin", "lib"):
        (venv / name).symlink_to(ours / name)
    shutil.copy2(ours / "pyvenv.cfg", venv / "pyvenv.cfg")
    for stamp in (".installed-site", ".installed-test"):
        (venv / stamp).touch()


def shared_build(tmp_path_factory: pytest.TempPathFactory, name: str, catalog: Path, *,
                 engine: str = "mkdocs") -> Path:
    """A project with `catalog`, built strictly once per run however many workers ask (with mkdocs, or with
    Zensical as `make site BUILDER=zensical` does); returns its site folder."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    base = tmp_path_factory.getbasetemp()
    root = base.parent if worker else base  # every worker's basetemp sits in the run's common folder
    project, done = root / f"shared-{name}", root / f"shared-{name}.built"
    with FileLock(str(root / f"shared-{name}.lock")):
        if not done.exists():
            if project.exists():
                shutil.rmtree(project)  # a build that failed in another worker: try again, to report its error here
            copy_project(project, catalog=catalog)
            result = build_zensical(project) if engine == "zensical" else build(project)
            assert result.returncode == 0, result.stdout + result.stderr
            assert "WARNING" not in result.stdout + result.stderr, result.stdout + result.stderr
            done.touch()
    return project / "site"


SHM = Path("/dev/shm")
SHM_FREE = 256 * 1024**2
"""The room a test's folder in memory must leave free (a container's /dev/shm may be 64 MB)."""


@contextmanager
def in_memory_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Path]:
    """A folder of a test's own in /dev/shm (tmpfs: making and removing thousands of files, pipes and links costs
    the kernel far less than on a journalled disk), removed when the test is done; a folder of pytest's temporary
    ones where /dev/shm is missing, not writable or short of room."""
    try:
        usable = os.access(SHM, os.W_OK | os.X_OK) and shutil.disk_usage(SHM).free > SHM_FREE
    except OSError:
        usable = False
    if not usable:
        yield tmp_path_factory.mktemp(name)
        return
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=SHM))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def files_under(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by its path there, with its bytes: a tree compared before and after a command."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def tree_entries(folder: str, rel: str = "") -> Iterator[tuple[str, str, os.stat_result]]:
    """Every entry under `folder`, links not followed, a folder before the entries in it: its path under `folder`
    (`rel` and '/' between names), its path, its lstat. os.scandir's listing: the tests' snapshots of whole trees."""
    with os.scandir(folder) as entries:
        for entry in entries:
            st_ = entry.stat(follow_symlinks=False)
            yield rel + entry.name, entry.path, st_
            if stat.S_ISDIR(st_.st_mode):
                yield from tree_entries(entry.path, rel + entry.name + "/")


def cli_here(argv: list[str], project: Path, capsys: pytest.CaptureFixture[str], time_limit: float,
             what: str) -> tuple[int, str, str]:
    """`cli.main(argv)` run in `project` (the current folder changed for the call and put back), in a thread given
    `time_limit` seconds, so a hang fails the test instead of stopping it: its exit code, stdout and stderr. An
    exception it lets out fails the test with its traceback."""
    from catalog_docs import cli

    outcome: list[int | BaseException] = []

    def run() -> None:
        try:
            outcome.append(cli.main(argv))
        except BaseException as exc:  # reported below, traceback and all
            outcome.append(exc)

    capsys.readouterr()
    thread = threading.Thread(target=run, daemon=True)
    old = Path.cwd()
    os.chdir(project)
    try:
        thread.start()
        thread.join(time_limit)
    finally:
        os.chdir(old)
    assert not thread.is_alive(), f"{what} did not finish within {time_limit} s"
    printed = capsys.readouterr()
    if isinstance(outcome[0], BaseException):
        raise AssertionError(f"{what} raised (a traceback)") from outcome[0]
    return outcome[0], printed.out, printed.err
