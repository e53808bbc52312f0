"""`mkdocs build` into a site folder it cannot write gets one line naming the folder, not mkdocs' traceback
(issue 26, item 7). The plugin proves the folder writable before it renders: it writes the tool's mark there
(writing.prepare_site_dir). Root ignores permission bits, so the cases are ones root cannot bypass either: a file
where the folder goes, a file on the way to it (ENOTDIR), and a read-only bind mount in a private mount namespace."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from catalog_docs.errors import CatalogDocsError
from catalog_docs.writing import MARK, prepare_site_dir
from sitebuild import BIN, build, copy_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", ["a file there", "a file on the way"])
def test_an_unwritable_folder_is_one_line_naming_it(tmp_path: Path, case: str) -> None:
    (tmp_path / "blocker").write_bytes(b"x")
    folder = tmp_path / "blocker" if case == "a file there" else tmp_path / "blocker" / "site"
    with pytest.raises(CatalogDocsError) as info:
        prepare_site_dir(folder, tmp_path)
    message = str(info.value)
    assert message == (f"cannot write the built site: {tmp_path / 'blocker'} is a file where a folder should be (a "
                       "link is never followed); remove it or choose another folder")
    assert (tmp_path / "blocker").read_bytes() == b"x"


def test_a_writable_folder_is_made_and_holds_only_the_mark(tmp_path: Path) -> None:
    prepare_site_dir(tmp_path / "a" / "site", tmp_path)
    assert [p.name for p in (tmp_path / "a" / "site").iterdir()] == [MARK]


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.mark.site
@pytest.mark.parametrize("case", ["a file there", "a file on the way"])
def test_mkdocs_build_into_an_unwritable_site_folder_says_so_in_one_line(tmp_path: Path, case: str) -> None:
    project = copy_project(tmp_path / "project", ROOT / "tests" / "fixture-catalog")  # its own: site/ is broken
    (project / "site").write_bytes(b"not a folder")
    site = project / "site" if case == "a file there" else project / "site" / "inner"
    result = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site)], cwd=project,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode != 0
    assert f"cannot write the built site: {project / 'site'} is a file where a folder" in _one_error_line(result.stderr)
    assert (project / "site").read_bytes() == b"not a folder"
    assert sorted(p.name for p in (project / "docs").iterdir()) == ["README.md"], "docs/ holds only what it held"


def _can_bind_read_only() -> bool:
    if not shutil.which("unshare"):
        return False
    bind = "mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp /tmp"
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", bind], capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.site
@pytest.mark.skipif(not _can_bind_read_only(), reason="no private mount namespace here (unshare -rm)")
def test_mkdocs_build_into_a_read_only_site_folder_says_so_in_one_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project", ROOT / "tests" / "fixture-catalog")
    site = project / "site"
    site.mkdir()
    assert build(project).returncode == 0  # a first build works; then site/ becomes a read-only mount
    before = sorted(p.relative_to(site).as_posix() for p in site.rglob("*"))
    script = (f"mount --bind {site} {site} && mount -o remount,bind,ro {site} {site} && "
              f"exec {BIN / 'mkdocs'} build --strict --site-dir {site}")
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=project, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode != 0
    assert f"cannot write the built site: {site}: Read-only file system" in _one_error_line(result.stderr)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == before
