"""`catalog-docs render --out DIR`: the pages as files, written only into a folder the command made in that run,
with the tool's mark (writing.MARK). A DIR that is not empty is refused in one line (exit 2) unless --replace,
which swaps the whole folder if an earlier render --out wrote it (its mark); a link is never written or deleted
through, at DIR or inside the folder it replaces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.site.pages import site_files
from catalog_docs.site.twins import split_twins
from catalog_docs.writing import MARK, MARK_TEXT
from fixture_facts import FIXTURE_CATALOG
from sitebuild import files_under


def _render(capsys: pytest.CaptureFixture[str], out: Path, *more: str) -> tuple[int, str]:
    code = cli.main(["render", "--catalog", str(FIXTURE_CATALOG), "--out", str(out), *more])
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def pages() -> dict[str, bytes]:
    # The pages' Markdown twins are files of a built site, never of a docs folder (site/twins.py): left out.
    return {**{rel: text.encode("utf-8") for rel, text in split_twins(site_files(FIXTURE_CATALOG))[0].items()},
            MARK: MARK_TEXT}


@pytest.mark.parametrize("start", ["missing", "empty", "missing parents"])
def test_a_new_or_empty_folder_gets_exactly_the_pages(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      pages: dict[str, bytes], start: str) -> None:
    out = tmp_path / ("a/b/pages" if start == "missing parents" else "pages")
    if start == "empty":
        out.mkdir()
    code, err = _render(capsys, out)
    assert code == 0, err
    assert files_under(out) == pages
    assert sorted(p.name for p in out.parent.iterdir()) == ["pages"], "no staging folder is left"


def test_a_folder_that_is_not_empty_is_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    out = tmp_path / "pages"
    out.mkdir()
    (out / "mine.md").write_text("# mine\n", encoding="utf-8")
    code, err = _render(capsys, out)
    assert code == 2 and err.count("\n") == 1
    assert err == (f"catalog-docs: error: {out} is not empty: render --out writes only into a new or empty folder; "
                   "--replace replaces a folder render --out wrote (nothing was written)\n")
    code, err = _render(capsys, out, "--replace")
    assert code == 2 and err == (f"catalog-docs: error: {out} was not written by render --out (it has no {MARK}): "
                                 "--replace replaces only an empty folder or one render --out wrote (nothing was "
                                 "written)\n")
    assert files_under(out) == {"mine.md": b"# mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages"]


def test_replace_swaps_the_folder_and_never_follows_a_link_in_it(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path, pages: dict[str, bytes]) -> None:
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "keep.md").write_text("keep\n", encoding="utf-8")
    out = tmp_path / "pages"
    assert _render(capsys, out)[0] == 0  # an earlier render --out: its folder carries the mark
    (out / "operations" / "index.md").unlink()
    (out / "operations" / "index.md").symlink_to(outside / "deep" / "keep.md")
    (out / "linked").symlink_to(outside)
    (out / "old.md").write_text("old\n", encoding="utf-8")
    code, err = _render(capsys, out, "--replace")
    assert code == 0, err
    assert files_under(out) == pages and not any(p.is_symlink() for p in out.rglob("*"))
    assert files_under(outside) == {"deep/keep.md": b"keep\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside", "pages"], "nothing is left beside it"


@pytest.mark.parametrize("replace", [False, True])
@pytest.mark.parametrize("kind", ["link to a folder", "link to nothing", "file"])
def test_a_link_or_a_file_at_the_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   kind: str, replace: bool) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.md").write_text("keep\n", encoding="utf-8")
    out = tmp_path / "pages"
    if kind == "file":
        out.write_text("a file\n", encoding="utf-8")
    else:
        out.symlink_to(target if kind == "link to a folder" else tmp_path / "missing")
    code, err = _render(capsys, out, *(["--replace"] if replace else []))
    assert code == 2 and err.count("\n") == 1 and "nothing was written" in err
    assert ("is a symbolic link" in err) == (kind != "file")
    assert files_under(target) == {"keep.md": b"keep\n"} and not (tmp_path / "missing").exists()
    assert out.is_symlink() or out.read_text(encoding="utf-8") == "a file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages", "target"]


def test_an_invalid_catalogue_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "service.yaml").write_text("name: [\n", encoding="utf-8")
    code = cli.main(["render", "--catalog", str(catalog), "--out", str(tmp_path / "pages")])
    assert code == 1 and "service.yaml:" in capsys.readouterr().err
    assert not (tmp_path / "pages").exists()


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project (catalogue, docs/, .git), the current folder, beside a home folder and a repository."""
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    project = tmp_path / "work" / "project"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text("# hand-written\n", encoding="utf-8")
    (project / ".git").mkdir()
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "notes.md").write_text("mine\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    return project


@pytest.mark.parametrize(("out", "words"), [
    (".", "is the project"), ("..", "is a folder the project"), ("../..", "is a folder the project"),
    ("docs", "is in the project's docs/, which holds its hand-written pages"),
    ("docs/new", "is in the project's docs/"), ("catalog", "is in the project's catalog/, which holds its catalogue"),
    (".git", "is in the project's .git/"), ("HOME", "is the home folder"), ("REPO", "holds .git (a repository)"),
])
def test_replace_never_takes_the_project_its_folders_home_or_a_repository(
        capsys: pytest.CaptureFixture[str], checkout: Path, tmp_path: Path, out: str, words: str) -> None:
    target = {"HOME": str(tmp_path / "home"), "REPO": str(tmp_path / "repo")}.get(out, out)
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    code = cli.main(["render", "--out", target, "--replace"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err, err
    assert err.startswith("catalog-docs: error: cannot write the pages (render --out): ")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("where", ["catalog", "docs"])
def test_an_empty_docs_or_catalog_folder_is_not_written_either(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    (project / "docs").mkdir()
    monkeypatch.chdir(project)
    code = cli.main(["render", "--out", f"{where}/pages"])
    assert code == 2 and f"is in the project's {where}/" in capsys.readouterr().err
    assert not (project / where / "pages").exists()


def test_a_linked_catalog_folder_is_refused_in_one_line_and_named_with_catalog(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(FIXTURE_CATALOG, elsewhere)
    project = tmp_path / "project"
    project.mkdir()
    (project / "catalog").symlink_to(elsewhere)
    monkeypatch.chdir(project)
    assert cli.main(["check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "catalog is a symbolic link" in err and "--catalog DIR" in err, err
    assert cli.main(["check", "--catalog", str(elsewhere)]) == 0  # a catalogue elsewhere, named
