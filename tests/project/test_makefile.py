"""Make targets a new user runs first: help names HOST and PORT, clean works on a fresh clone, and a busy
port stops `make serve` with one line naming PORT= (no traceback)."""

from __future__ import annotations

import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from catalog_docs.devtools.portcheck import port_problem
from sitebuild import borrow_venv, tracked_docs, tree_entries

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None or shutil.which("git") is None,
                                reason="needs make and git")


def clone(tmp_path: Path, name: str = "clone") -> Path:
    """A fresh clone of the committed project (no .venv, nothing rendered), at tmp_path/name. Its object files
    are hard links to this repository's, as git makes a local clone (git never writes an object file in place,
    and removing a link removes nothing here); copying the whole object store was most of this file's time."""
    dest = tmp_path / name
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    return dest


def make(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", *args], cwd=project, capture_output=True, text=True,
                          timeout=120)


def test_help_lists_host_and_port() -> None:
    out = make(ROOT, "help").stdout
    assert "HOST=127.0.0.1" in out and "PORT=8000" in out
    assert "make serve" in out and "make upgrade" in out


def test_clean_works_on_a_fresh_clone(tmp_path: Path) -> None:
    project = clone(tmp_path)
    result = make(project, "clean")
    assert result.returncode == 0, result.stderr
    assert not (project / ".venv").exists(), "clean must not install anything"


def test_clean_removes_the_site_and_build_folders_and_never_touches_docs(tmp_path: Path) -> None:
    project = clone(tmp_path)
    (project / "docs" / "about.md").write_text("# About\n", encoding="utf-8")
    (project / "site").mkdir()
    (project / "build" / "catalog-docs" / "build-0").mkdir(parents=True)
    (project / "build" / "comment.md").write_text("mine\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep\n", encoding="utf-8")
    (project / "site" / "linked").symlink_to(outside)
    docs_before = {p.relative_to(project).as_posix(): p.read_bytes() for p in (project / "docs").rglob("*")}
    result = make(project, "clean")
    assert result.returncode == 0, result.stderr
    assert not (project / "site").exists() and not (project / "build" / "catalog-docs").exists()
    assert (project / "build" / "comment.md").read_text(encoding="utf-8") == "mine\n"
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "keep\n"  # a link is removed, not followed
    assert {p.relative_to(project).as_posix(): p.read_bytes() for p in (project / "docs").rglob("*")} == docs_before
    hand_written = {rel.split("/", 1)[0] for rel in tracked_docs()}  # docs/README.md, the repository's own
    assert sorted(p.name for p in (project / "docs").iterdir()) == sorted({"about.md", *hand_written})


@pytest.mark.parametrize("link", ["build", "site"])
def test_clean_refuses_a_committed_link_to_the_checkouts_parent_and_deletes_nothing(tmp_path: Path, link: str) -> None:
    # Issue 40: with `build -> ..` in a checkout named catalog-docs, clean deleted the whole checkout, .git included.
    project = clone(tmp_path, "catalog-docs")
    (project / link).symlink_to("..")
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    result = make(project, "clean")
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("catalog-docs: error:")]
    assert len(errors) == 1 and "is a symbolic link" in errors[0] and "Traceback" not in result.stderr, result.stderr
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def _tree(folder: Path) -> dict[str, bytes]:
    """Every entry under `folder`, links not followed: a file by its bytes, anything else as "/"."""
    return {rel: Path(path).read_bytes() if stat.S_ISREG(st_.st_mode) else b"/"
            for rel, path, st_ in tree_entries(str(folder))}


@pytest.mark.parametrize(("target", "link"), [
    ("node_modules/.installed", "node_modules"),
    ("install", ".venv"),
    ("tools/lighthouse/node_modules/.bin/lighthouse", "tools/lighthouse/node_modules"),
    ("tools/lighthouse/node_modules/.bin/lighthouse", "tools/lighthouse"),
])
def test_an_install_step_refuses_a_linked_folder_and_touches_nothing_through_it(tmp_path: Path, target: str,
                                                                                  link: str) -> None:
    # `npm ci` empties node_modules through a link as readily as a folder (a clone whose node_modules linked to
    # another checkout's emptied that one), and venv and pip write into .venv: a link committed in a branch would
    # have `make install` or `make test` delete or write outside the checkout.
    project = clone(tmp_path)
    outside = tmp_path / "outside"
    if (project / link).is_dir():  # a tracked folder (tools/lighthouse): its files, moved elsewhere
        shutil.move(project / link, outside)
    else:
        outside.mkdir()
    (outside / "keep.txt").write_text("keep\n", encoding="utf-8")
    (project / link).symlink_to(outside)
    before = _tree(outside)
    result = make(project, target)
    assert result.returncode != 0
    refusals = [line for line in result.stderr.splitlines() if line.startswith(f"make: {link} is a symbolic link")]
    assert len(refusals) == 1 and "remove the link" in refusals[0], result.stderr
    assert "npm" not in result.stdout and "pip" not in result.stdout, result.stdout  # stopped before any install
    assert _tree(outside) == before


def test_a_busy_port_is_one_line_naming_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert "PORT=" in (port_problem("127.0.0.1", port) or "")
        result = subprocess.run([sys.executable, "-m", "catalog_docs.devtools.portcheck", "127.0.0.1", str(port)],
                                capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "PORT=" in lines[0], result.stderr
    assert result.stdout == ""


def test_make_serve_stops_on_a_busy_port_before_mkdocs_starts(tmp_path: Path) -> None:
    project = clone(tmp_path)
    borrow_venv(project)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = make(project, "serve", f"PORT={busy.getsockname()[1]}")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "mkdocs serve" not in result.stdout
    assert "PORT=" in result.stderr.splitlines()[0]


def test_a_free_port_and_a_bad_host() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert port_problem("127.0.0.1", port) is None
    assert "HOST=" in (port_problem("no-such-host.invalid", port) or "")


def test_make_serve_says_what_it_installs_and_where_it_serves(tmp_path: Path) -> None:
    # Was: a fresh clone's `make serve` sat silent for about 45 s while pip installed quietly.
    project = clone(tmp_path)
    result = make(project, "-n", "serve", "PORT=8123")  # what make would run on a fresh clone, in order
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()

    def first(words: str) -> int:
        return next(i for i, line in enumerate(lines) if words in line)
    said = first("echo \"make: installing what building the site needs into .venv/ from requirements/site.txt")
    assert first("echo \"make: creating the Python environment .venv/") < first("-m venv .venv") < said
    assert said < first("pip install --quiet --require-hashes -r requirements/site.txt")
    address = first("echo \"make: rendering the pages, then serving them at http://127.0.0.1:8123/ with mkdocs")
    assert first("portcheck 127.0.0.1 8123") < address < first("mkdocs serve --dirty")
