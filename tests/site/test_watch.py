"""Engines without plugins (Zensical) build from a folder of the tool's own (`catalog-docs build` and `watch`):
the error banner goes into the last good pages after the front matter, is replaced rather than stacked, escapes
catalogue text and comes out without a trace; the folder holds the generated pages and copies of the hand-written
ones, follows every change, is refused a clash or an unsafe docs/, and is gone when the command ends. docs/ is
never written. Under an engine's server, the pages' Markdown twins are kept in the site it serves, each beside its
page, and only once the engine has emptied the site after a change of its folder."""

from __future__ import annotations

import shutil
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import BUILD_ROOT
from catalog_docs.site.folders import EngineFolder
from catalog_docs.site.watch import _page_of, _ServedTwins, _strip_banner, build, engine_files, watch, with_banner
from catalog_docs.writing import WriteRefused, keep_files
from fixture_facts import FIXTURE_CATALOG
from sitebuild import files_under

PAGE = "---\ntitle: \"Fake page\"\n---\n\n# Fake page\n\nBody text.\n"
LINES = st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=4)


@given(LINES, LINES)
def test_the_banner_is_replaced_not_stacked_and_leaves_no_trace(first: list[str], second: list[str]) -> None:
    once = with_banner(PAGE, first)
    assert once.startswith("---\ntitle: \"Fake page\"\n---\n\n<div id=\"catalog-docs-errors\"")
    assert with_banner(once, second) == with_banner(PAGE, second)
    assert _strip_banner(once) == PAGE


def test_the_banner_escapes_catalogue_text() -> None:
    shown = with_banner(PAGE, ["listing.yaml:3:9: path: found '<script>alert(1)</script>'"])
    assert "&lt;script&gt;" in shown and "<script>" not in shown


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    (project / "mkdocs.yml").write_text("site_name: Fake\n", encoding="utf-8")  # what makes it a project to build
    (project / "docs" / "notes").mkdir(parents=True)
    (project / "docs" / "README.md").write_text("# not published\n", encoding="utf-8")
    (project / "docs" / "notes" / "about.md").write_text("# About\n", encoding="utf-8")
    return project


def test_the_folder_holds_the_pages_and_the_hand_written_files(tmp_path: Path) -> None:
    project = _project(tmp_path)
    files = engine_files({"index.md": PAGE, "downloads/x.csv": "a\n"}, project / "docs", True)
    assert files == {"index.md": PAGE.encode(), "downloads/x.csv": b"a\n", "README.md": b"# not published\n",
                     "notes/about.md": b"# About\n"}
    folder = EngineFolder(project)
    assert folder.path.parent == project / BUILD_ROOT
    assert sorted(folder.update(files)) == sorted(files)
    assert files_under(folder.path) == files
    assert folder.update(files) == []  # nothing changed, nothing written
    assert folder.update({**files, "index.md": b"changed"}) == ["index.md"]
    assert folder.update({"index.md": b"changed"}) == sorted(set(files) - {"index.md"})
    assert files_under(folder.path) == {"index.md": b"changed"}
    folder.remove()
    assert not folder.path.exists()


@pytest.mark.parametrize("planted", ["link", "fifo", "clash"])
def test_an_unsafe_docs_or_a_clash_is_refused_before_anything_runs(tmp_path: Path, planted: str) -> None:
    import os

    project = _project(tmp_path)
    docs = project / "docs"
    if planted == "link":
        (docs / "notes" / "secret.md").symlink_to("/etc/hostname")
    elif planted == "fifo":
        os.mkfifo(docs / "notes" / "pipe.md")
    else:
        (docs / "legend.md").write_text("# mine\n", encoding="utf-8")
    before = files_under(docs)
    marker = tmp_path / "ran"
    with pytest.raises(CatalogDocsError, match="nothing was built"):
        build(project / "catalog", docs, [sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    assert not marker.exists() and files_under(docs) == before
    assert not any((project / BUILD_ROOT).iterdir()) if (project / BUILD_ROOT).exists() else True


@pytest.mark.parametrize("command", ["build", "watch"])
def test_a_catalogue_outside_a_project_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    # `--catalog tests/fixture-catalog` once made tests/build/ and wrote the twins into tests/site/, among the tests:
    # the folder holding the catalogue is the project build and watch write in, and it must be one (mkdocs.yml).
    holder = tmp_path / "tests"
    shutil.copytree(FIXTURE_CATALOG, holder / "fixture-catalog")
    (holder / "site").mkdir()
    (holder / "site" / "test_x.py").write_text("# a test\n", encoding="utf-8")
    before = files_under(tmp_path)
    marker = tmp_path.parent / f"{tmp_path.name}-ran"
    code = cli.main([command, "--catalog", str(holder / "fixture-catalog"), "--", sys.executable, "-c",
                     f"open({str(marker)!r}, 'w')"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"{holder} holds no mkdocs.yml" in err and "nothing was written" in err, err
    assert not marker.exists() and files_under(tmp_path) == before
    assert sorted(p.name for p in holder.iterdir()) == ["fixture-catalog", "site"]


def test_build_run_inside_the_catalogue_writes_in_the_project_not_in_the_catalogue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The catalogue found from inside catalog/ is `.`, whose parent is itself: the project is the folder above it.
    project = _project(tmp_path)
    before = files_under(project / "catalog")
    monkeypatch.chdir(project / "catalog")
    assert cli.main(["build", "--", sys.executable, "-c", "pass"]) == 0
    assert files_under(project / "catalog") == before and sorted(p.name for p in (project / "catalog").iterdir()) \
        == sorted(p.name for p in FIXTURE_CATALOG.iterdir())
    assert (project / "site" / "index.md").is_file()  # the twins, published into the project's site


def test_build_runs_the_engine_on_its_folder_and_removes_it(tmp_path: Path) -> None:
    project = _project(tmp_path)
    seen = tmp_path / "seen"
    # The folder is named from the project's root, as Zensical reads docs_dir from the folder of mkdocs.yml.
    script = (f"import os, pathlib; d = pathlib.Path({str(project)!r}) / os.environ['CATALOG_DOCS_ENGINE_DOCS']; "
              f"pathlib.Path({str(seen)!r}).write_text('\\n'.join(sorted(p.relative_to(d).as_posix() "
              "for p in d.rglob('*.md'))) + '\\n' + os.environ['CATALOG_DOCS_ENGINE_DOCS']); raise SystemExit(3)")
    before = files_under(project / "docs")
    assert build(project / "catalog", project / "docs", [sys.executable, "-c", script]) == 3
    listed = seen.read_text(encoding="utf-8").splitlines()
    assert listed[-1].startswith(f"{BUILD_ROOT}/build-")
    assert {"index.md", "legend.md", "notes/about.md", "README.md", "operations/fakeWidgetList.md"} <= set(listed)
    assert not (project / listed[-1]).exists()
    assert files_under(project / "docs") == before


def test_watch_follows_catalogue_and_hand_written_edits_then_removes_its_folder(tmp_path: Path) -> None:
    project = _project(tmp_path)
    stop, said = threading.Event(), []
    runner = threading.Thread(target=watch, args=(project / "catalog", project / "docs"),
                              kwargs={"stop": stop, "say": said.append})
    runner.start()
    try:
        folder = _wait(lambda: next((project / BUILD_ROOT).glob("build-*/index.md"), None)).parent
        _wait(lambda: any("watching" in line for line in said))
        about = project / "docs" / "notes" / "about.md"
        _edit_until(about, "# About, edited\n",
                    lambda: (folder / "notes" / "about.md").read_text(encoding="utf-8") == "# About, edited\n")
        version = project / "catalog" / "versions" / "FAKE-1.1.yaml"
        good = version.read_text(encoding="utf-8")
        _edit_until(version, good.replace("/fakeWidgetList: close", "/fakeWidgetList: closd"),
                    lambda: "catalog-docs-errors" in (folder / "operations" / "fakeWidgetList.md").read_text("utf-8"))
        assert "closd" in (folder / "index.md").read_text(encoding="utf-8")
        _edit_until(version, good, lambda: "catalog-docs-errors" not in (folder / "index.md").read_text("utf-8"))
    finally:
        stop.set()
        runner.join(60)
    assert not runner.is_alive() and not folder.exists()
    assert files_under(project / "docs") == {"README.md": b"# not published\n", "notes/about.md": b"# About, edited\n"}


def _edit_until(path: Path, text: str, condition, timeout: float = 60) -> None:  # type: ignore[no-untyped-def]
    """Write `text` into `path` (again every few seconds: a watcher may have started after the first write)
    until `condition` holds."""
    deadline = time.monotonic() + timeout
    while True:
        path.write_text(text, encoding="utf-8")
        try:
            _wait(condition, timeout=3)
        except AssertionError:
            assert time.monotonic() < deadline, f"{path.name}: the edit did not arrive within {timeout} s"
        else:
            return


def _wait(condition, timeout: float = 60):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = condition()
        except OSError:
            found = None
        if found:
            return found
        assert time.monotonic() < deadline, "not within the time limit"
        time.sleep(0.1)


def test_keep_files_writes_the_missing_and_the_changed_beside_their_pages_never_through_a_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "index.html").write_text("home", encoding="utf-8")
    (site / "a" / "index.html").write_text("page a", encoding="utf-8")
    twins = {"index.md": b"R", "a/index.md": b"A", "b/index.md": b"B"}
    # b's page is not built yet: its twin waits, and no folder is made for it.
    assert keep_files(site, twins, "publish", beside=_page_of) == ["a/index.md", "index.md"]
    assert not (site / "b").exists()
    assert keep_files(site, twins, "publish", beside=_page_of) == []
    (site / "a" / "index.md").unlink()  # the engine emptied the folder: put back
    assert keep_files(site, twins, "publish", beside=_page_of) == ["a/index.md"]
    changed = {**twins, "a/index.md": b"A2"}
    assert keep_files(site, changed, "publish", rewrite=["a/index.md"], beside=_page_of) == ["a/index.md"]
    assert (site / "a" / "index.md").read_bytes() == b"A2"
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"not ours")
    (site / "index.md").unlink()
    (site / "index.md").symlink_to(outside)
    with pytest.raises(WriteRefused):
        keep_files(site, changed, "publish", rewrite=["index.md"], beside=_page_of)
    assert outside.read_bytes() == b"not ours"


def test_served_twins_wait_for_the_engine_to_empty_its_site_after_a_change(tmp_path: Path) -> None:
    from watchfiles import Change

    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    twins = _ServedTwins(site, print)
    twins.change(lambda: ["index.md"], {"a/index.md": "A"})  # the first render, before the engine runs
    (site / "a" / "index.html").write_text("page a", encoding="utf-8")
    twins._keep(set())  # nothing from the engine yet: nothing written
    twins._keep({(Change.added, str(site / "a" / ".index.md.part-1a2b3c4d"))})  # nor for a file of ours
    assert not (site / "a" / "index.md").exists()
    twins._keep({(Change.added, str(site / "a" / "index.html"))})  # its first build writes its pages
    assert (site / "a" / "index.md").read_bytes() == b"A"
    # A change of the build folder: the engine will empty the site. A page it writes meanwhile (its last build
    # still going) is no sign of that; a file of its own removed is.
    twins.change(lambda: ["a.md"], {"a/index.md": "A2"})
    twins._keep({(Change.modified, str(site / "a" / "index.html"))})
    assert (site / "a" / "index.md").read_bytes() == b"A"
    twins._keep({(Change.deleted, str(site / "a" / "index.html"))})
    assert (site / "a" / "index.md").read_bytes() == b"A2"
    # A render that changes no file of the build folder (no rebuild coming) is written at the next look.
    twins.change(lambda: [], {"a/index.md": "A3"})
    twins._keep(set())
    assert (site / "a" / "index.md").read_bytes() == b"A3"
