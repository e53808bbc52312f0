"""Every command finds the catalogue from any folder of the checkout, and every message names a file by its path
from the folder the command ran in.

The checkout has three folders named `catalog/`: the catalogue, the package's code (scripts/catalog_docs/catalog/)
and its tests (tests/catalog/). From tests/, scripts/catalog_docs/ or scripts/catalog_docs/site/ the nearest
`catalog/` is code; the catalogue is recognised by what it holds. The commands run on a fake project laid out like
the checkout; one test also checks the layout of this checkout itself (where, not what: no data is read).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.catalog.locate import find_project, shown_path
from fake_catalogs import FAKE_SPECS, write_catalog

ROOT = Path(__file__).resolve().parents[2]
CODE_FOLDERS = ["tests", "scripts/catalog_docs", "scripts/catalog_docs/site"]
"""The folders whose nearest `catalog/` folder is not the catalogue (issue 27)."""
SPEC = FAKE_SPECS["plans-come-and-go"]  # labels FAKE 1.0, FAKE 2.0, FAKE 3.0


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fake project laid out like this checkout: the catalogue, and code and test folders named catalog/."""
    root = tmp_path / "project"
    write_catalog(root / "catalog", SPEC)
    (root / "mkdocs.yml").write_text("site_name: Fake\n", encoding="utf-8")
    for code in ("scripts/catalog_docs/catalog", "tests/catalog"):
        (root / code).mkdir(parents=True)
        (root / code / "__init__.py").write_text("", encoding="utf-8")
        (root / code / "load.py").write_text("# code, not a catalogue\n", encoding="utf-8")
    (root / "scripts/catalog_docs/site").mkdir()
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_this_checkout_is_found_from_each_code_folder() -> None:
    for folder in CODE_FOLDERS:
        assert (ROOT / folder / "catalog").is_dir() or folder.endswith("site"), folder
        assert find_project(ROOT / folder) == ROOT, folder


@pytest.mark.parametrize("where", CODE_FOLDERS)
def test_every_command_works_from_a_folder_whose_catalog_is_code(capsys: pytest.CaptureFixture[str], project: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.chdir(project / where)
    up = "../" * len(Path(where).parts)
    code, out, err = run(capsys, "check")
    assert code == 0 and "3 version labels" in out, err
    code, out, err = run(capsys, "export", "--format", "json")
    assert code == 0 and [v["label"] for v in json.loads(out)["versions"]] == ["FAKE 1.0", "FAKE 2.0", "FAKE 3.0"]
    code, out, err = run(capsys, "diff", "FAKE 1.0", "FAKE 2.0", "--exit-code")
    assert code == 1 and out.startswith("FAKE 1.0 -> FAKE 2.0"), err
    code, out, err = run(capsys, "new-label", "FAKE 9.0-x", "--from", "FAKE 3.0")
    assert code == 0, err
    assert f"wrote {up}catalog/versions/FAKE-9.0-x.yaml" in out
    assert (project / "catalog/versions/FAKE-9.0-x.yaml").is_file()
    code, out, err = run(capsys, "check")
    assert code == 0 and f"draft: version label 'FAKE 9.0-x' ({up}catalog/versions/FAKE-9.0-x.yaml)" in out, err
    code, out, err = run(capsys, "render", "--out", "rendered")
    assert code == 0 and (project / where / "rendered/versions/FAKE-2.0.md").is_file(), err
    assert not (project / "docs").exists()
    (project / "build/catalog-docs/build-0").mkdir(parents=True)
    code, out, err = run(capsys, "clean")
    assert code == 0 and not (project / "build/catalog-docs").exists() and (project / "build").is_dir(), err
    assert sorted(p.name for p in (project / "scripts/catalog_docs/catalog").iterdir()) == ["__init__.py", "load.py"]


def test_a_catalogue_missing_a_file_is_still_found_and_the_file_named(capsys: pytest.CaptureFixture[str],
                                                                      project: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "catalog/service.yaml").unlink()
    monkeypatch.chdir(project / "tests")
    code, _, err = run(capsys, "check")
    assert code == 1 and err.startswith("../catalog/service.yaml:1:1: (catalogue): expected the file service.yaml"), err


def test_a_folder_named_catalog_that_holds_no_catalogue_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "notes.txt").write_text("not a catalogue\n", encoding="utf-8")
    assert find_project(tmp_path) is None
    for entry in ("service.yaml", "listing.yaml", "not-shown.yaml", "versions"):
        shutil.rmtree(tmp_path / "catalog")
        (tmp_path / "catalog").mkdir()
        (tmp_path / "catalog" / "versions").mkdir() if entry == "versions" else (tmp_path / "catalog" / entry).touch()
        assert find_project(tmp_path) == tmp_path.resolve(), entry


@pytest.mark.parametrize("where", [".", "tests", "scripts/catalog_docs/site", "catalog/versions"])
def test_errors_name_files_from_the_current_folder(capsys: pytest.CaptureFixture[str], project: Path,
                                                   monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    version = project / "catalog/versions/FAKE-2.0.yaml"
    text = version.read_text(encoding="utf-8")
    assert text.count('source: "\\xA79"\n') == 1
    version.write_text(text.replace('source: "\\xA79"\n', "source: nine\n"), encoding="utf-8")
    monkeypatch.chdir(project / where)
    shown = {".": "catalog/versions/FAKE-2.0.yaml", "tests": "../catalog/versions/FAKE-2.0.yaml",
             "scripts/catalog_docs/site": "../../../catalog/versions/FAKE-2.0.yaml",
             "catalog/versions": "FAKE-2.0.yaml"}[where]
    assert Path(shown).resolve() == version.resolve()  # the path opens the file from here
    for argv in (["check"], ["render", "--out", "rendered"], ["build"], ["export", "--format", "csv"],
                 ["diff", "FAKE 1.0", "FAKE 2.0"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and out == "", argv
        assert err.startswith(f"{shown}:") and "expected a source section" in err, (argv, err)


def test_a_named_catalogue_is_named_as_given(capsys: pytest.CaptureFixture[str], project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "catalog/listing.yaml").write_text("entries: {}\n", encoding="utf-8")
    monkeypatch.chdir(project / "tests")
    for given, shown in (("../catalog", "../catalog/listing.yaml"), ("../tests/../catalog", "../catalog/listing.yaml"),
                         (str(project / "catalog"), str(project / "catalog/listing.yaml"))):
        code, _, err = run(capsys, "check", "--catalog", given)
        assert code == 1 and err.startswith(f"{shown}:"), err


def test_shown_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a/b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a/b")
    assert shown_path(Path("x/y.yaml")) == "x/y.yaml"
    assert shown_path(Path("../b/x/y.yaml")) == "x/y.yaml"  # the shortest way from here
    assert shown_path(tmp_path / "a/b/c.yaml") == "c.yaml"
    assert shown_path(tmp_path / "a/c.yaml") == str(tmp_path / "a/c.yaml")  # absolute unless under this folder
    assert shown_path(Path("../c.yaml")) == "../c.yaml"
