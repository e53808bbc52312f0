"""`catalog-docs diff`: the three formats, --exit-code, clear errors, and --against a git revision."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from catalog_docs import cli
from fake_catalogs import FAKE_SPECS, write_catalog

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "catalog"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots-diff"  # apart from the page snapshots, which own their folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


@pytest.fixture(scope="module")
def fake_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_catalog(tmp_path_factory.mktemp("fake") / "catalog", FAKE_SPECS["plans-come-and-go"])


# --- FROM TO ---------------------------------------------------------------------------------------------

def test_json_for_the_real_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    # The example: UPI_N 3.0.0 removed, 22 values of UPI_N 1.0.0 close -> unlimited.
    code, out, _ = run(capsys, "diff", "UPI_N 1.0.1", "UPI_N 1.1.0", "--format", "json", "--catalog", str(REAL))
    data = json.loads(out)
    assert code == 0
    assert (data["from"], data["to"]) == ("UPI_N 1.0.1", "UPI_N 1.1.0")
    assert data["plans_removed"] == ["UPI_N 3.0.0"] and data["plans_added"] == []
    values = [c for c in data["changes"] if c["kind"] == "value-changed"]
    assert len(values) == 22
    assert all({"kind", "plan", "position", "path", "from", "to"} <= c.keys() for c in data["changes"])
    assert {(c["plan"], c["from"], c["to"]) for c in values} == {("UPI_N 1.0.0", "close", "unlimited")}
    assert "/transactionStatusQuery" not in {c["path"] for c in values}
    assert [u["path"] for u in data["unchanged"]] == ["/transactionStatusQuery"]


def test_text_puts_the_summary_before_the_changes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "UPI_N 1.0.1", "UPI_N 1.1.0", "--catalog", str(REAL))
    assert code == 0
    assert out.startswith("UPI_N 1.0.1 -> UPI_N 1.1.0: 23 differences\n")
    assert out.index("Summary") < out.index("Changes") < out.index("close -> unlimited (22)")
    assert "  UPI_N 3.0.0 (listed under UPI_N 1.0.1, not listed under UPI_N 1.1.0)" in out
    assert "/transactionStatusQuery" not in out


def test_two_plan_entries(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "UPI_N 1.0.1:UPI_N 1.0.0", "UPI_N 1.0.1:UPI_N 3.0.0", "--format", "json",
                       "--catalog", str(REAL))
    data = json.loads(out)
    assert code == 0 and len(data["changes"]) == 23
    assert {c["plan"] for c in data["changes"]} == {"UPI_N 1.0.0 -> UPI_N 3.0.0"}


def test_markdown_snapshot(capsys: pytest.CaptureFixture[str], fake_dir: Path, request: pytest.FixtureRequest) -> None:
    # Snapshot of a pull-request comment: plans added and removed and two transitions (fake catalogue
    # plans-come-and-go, FAKE 1.0 -> FAKE 3.0).
    code, out, _ = run(capsys, "diff", "FAKE 1.0", "FAKE 3.0", "--format", "markdown", "--catalog", str(fake_dir))
    snapshot = SNAPSHOTS / "diff-fake-1.0-to-3.0.md"
    if request.config.getoption("--update-goldens"):
        snapshot.write_text(out, encoding="utf-8")
    assert code == 0
    assert out == snapshot.read_text(encoding="utf-8")


def test_exit_code_follows_git_diff(capsys: pytest.CaptureFixture[str], fake_dir: Path, tmp_path: Path) -> None:
    assert run(capsys, "diff", "FAKE 1.0", "FAKE 2.0", "--exit-code", "--catalog", str(fake_dir))[0] == 1
    assert run(capsys, "diff", "FAKE 1.0", "FAKE 2.0", "--catalog", str(fake_dir))[0] == 0
    same = write_catalog(tmp_path / "same", FAKE_SPECS["nothing-changes"])
    code, out, _ = run(capsys, "diff", "FAKE 1", "FAKE 2", "--exit-code", "--catalog", str(same))
    assert code == 0 and out.startswith("FAKE 1 -> FAKE 2: no differences")


@pytest.mark.parametrize(("argv", "message"), [
    (["NOPE 9", "FAKE 2.0"], "unknown version label 'NOPE 9'; valid labels: 'FAKE 1.0', 'FAKE 2.0', 'FAKE 3.0'"),
    (["FAKE 1.0:PLAN Z", "FAKE 2.0:PLAN A"], "plan entry 'PLAN Z' is not listed under 'FAKE 1.0'; listed there: 'PLAN A', 'PLAN B'"),
    (["FAKE 1.0:", "FAKE 2.0"], "valid here: 'FAKE 1.0:PLAN A', 'FAKE 1.0:PLAN B'"),
    (["FAKE 1.0:PLAN A", "FAKE 2.0"], "compare a label with a label, or LABEL:PLAN with LABEL:PLAN"),
    (["FAKE 1.0"], "expected FROM TO (each LABEL or LABEL:PLAN), or --against REV"),
    (["FAKE 1.0", "FAKE 2.0", "--against", "HEAD"], "give either FROM TO or --against REV, not both"),
])
def test_bad_arguments_are_clear_errors(capsys: pytest.CaptureFixture[str], fake_dir: Path, argv: list[str],
                                        message: str) -> None:
    code, out, err = run(capsys, "diff", *argv, "--catalog", str(fake_dir))
    assert code == 2 and out == ""
    assert err.startswith("catalog-docs: error: ") and message in err


def test_a_broken_catalogue_is_reported_not_diffed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = write_catalog(tmp_path / "catalog", FAKE_SPECS["nothing-changes"])
    (broken / "listing.yaml").write_text("source: '§4'\nentries: 7\n", encoding="utf-8")
    code, out, err = run(capsys, "diff", "FAKE 1", "FAKE 2", "--exit-code", "--catalog", str(broken))
    assert code == 1 and out == ""  # 1 as in every command for an invalid catalogue; nothing on stdout
    assert "listing.yaml:2:" in err
    assert err.rstrip().splitlines()[-1].endswith(("1 error", "errors"))


# --- --against REV -----------------------------------------------------------------------------------------

def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Fake Tester", "GIT_AUTHOR_EMAIL": "fake@example.invalid",
           "GIT_COMMITTER_NAME": "Fake Tester", "GIT_COMMITTER_EMAIL": "fake@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose history is: no catalogue (tag `empty`), a catalogue (tag `v1`), a broken one
    (tag `broken`), the catalogue again (HEAD); plus a `docs/deep` folder to run from."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("fake project\n", encoding="utf-8")
    (repo / "docs" / "deep").mkdir(parents=True)
    (repo / "docs" / "deep" / "keep.md").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    git(repo, "tag", "empty")
    write_catalog(repo / "catalog", FAKE_SPECS["plans-come-and-go"])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "catalogue")
    git(repo, "tag", "v1")
    listing = repo / "catalog" / "listing.yaml"
    good = listing.read_text(encoding="utf-8")
    listing.write_text(good.replace("position: 2", "position: 7"), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "broken")
    git(repo, "tag", "broken")
    listing.write_text(good, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "fixed")
    return repo


def test_against_a_revision_from_a_subfolder(capsys: pytest.CaptureFixture[str], repo: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    spec = FAKE_SPECS["plans-come-and-go"]
    edited = {**spec, "labels": {**spec["labels"], "FAKE 4.0": {"PLAN A": "uuuu"}}}
    edited["labels"]["FAKE 1.0"] = {"PLAN A": "uuuu", "PLAN B": "uuuu"}  # was ccuu
    write_catalog(repo / "catalog", edited)
    monkeypatch.chdir(repo / "docs" / "deep")

    code, out, err = run(capsys, "diff", "--against", "HEAD", "--format", "json", "--exit-code")
    data = json.loads(out)
    assert code == 1, err
    assert (data["from"], data["to"]) == ("HEAD", "working tree")
    assert [(c["kind"], c["label"], c["plan"], c["path"], c["from"], c["to"]) for c in data["changes"]] == [
        ("value-changed", "FAKE 1.0", "PLAN A", "/fakeAlpha", "close", "unlimited"),
        ("value-changed", "FAKE 1.0", "PLAN A", "/fakeBeta", "close", "unlimited"),
        ("label-added", "FAKE 4.0", None, None, None, None),
    ]


def test_against_the_same_revision_has_no_differences(capsys: pytest.CaptureFixture[str], repo: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "diff", "--against", "main", "--exit-code")
    assert code == 0 and out.startswith("main -> working tree: no differences")
    code, out, _ = run(capsys, "diff", "--against", "v1", "--exit-code", "--format", "markdown")
    assert code == 0 and "No differences." in out


def test_against_an_unknown_revision(capsys: pytest.CaptureFixture[str], repo: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "diff", "--against", "no-such-branch")
    assert code == 2 and out == ""
    assert "unknown git revision 'no-such-branch'; branches and tags here: main, broken, empty, v1" in err


def test_against_a_revision_without_the_catalogue(capsys: pytest.CaptureFixture[str], repo: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, _, err = run(capsys, "diff", "--against", "empty")
    assert code == 2
    assert "the catalogue folder catalog/ does not exist at revision 'empty'" in err


def test_against_a_revision_whose_catalogue_does_not_load(capsys: pytest.CaptureFixture[str], repo: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "diff", "--against", "broken")
    assert code == 1 and out == ""  # an invalid catalogue, as in every command
    assert "the catalogue at revision 'broken' does not load:" in err
    assert "broken:catalog/listing.yaml:" in err  # that revision's errors, named as git names them
    assert "entries[2].position" in err or "position 2" in err
    assert err.rstrip().splitlines()[-1].endswith(("1 error", "errors"))


def test_against_outside_a_git_checkout(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    write_catalog(tmp_path / "catalog", FAKE_SPECS["nothing-changes"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    code, _, err = run(capsys, "diff", "--against", "main")
    assert code == 2
    assert f"{tmp_path.resolve() / 'catalog'} is not inside a git checkout; --against needs a git repository" in err
