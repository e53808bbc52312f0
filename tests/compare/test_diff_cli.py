"""`catalog-docs diff`: the three formats, --exit-code, clear errors, and --against a git revision."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from catalog_docs import cli
from catalog_docs.compare.json_format import FORMAT_VERSION, schema
from fake_catalogs import FAKE_SPECS, write_catalog
from fixture_facts import FIXTURE_CATALOG

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = FIXTURE_CATALOG  # tests/fixture-catalog/: the real catalogue is for catalog/test_source_facts.py only
# Apart from the page snapshots, which own their folder.
SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots-diff"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


ID_SUFFIX = re.compile(r" (\[[a-z0-9-]+--[0-9a-f]{8}\]|`[a-z0-9-]+--[0-9a-f]{8}`)$", re.MULTILINE)


def without_ids(text: str) -> str:
    """Text or Markdown with the change id that ends each record's sentence taken off (test_ids.py checks them),
    so these tests read the sentences alone."""
    return ID_SUFFIX.sub("", text)


@cache
def _checked_schema() -> dict:
    """The published schema, itself checked against draft 2020-12's metaschema (once: it does not change)."""
    found = schema()
    jsonschema.Draft202012Validator.check_schema(found)
    return found


def _counted(data: dict) -> dict:
    assert data["format_version"] == FORMAT_VERSION
    assert data["counts"]["differences"] == len(data["changes"])
    return data


def valid(text: str) -> dict:
    """The diff JSON, checked against the published schema (every JSON output of these tests goes through here)."""
    data = json.loads(text)
    jsonschema.Draft202012Validator(_checked_schema()).validate(data)
    return _counted(data)


def valid_in_ajv(text: str, folder: Path) -> dict:
    """valid() for an output of thousands of records: the same published schema, checked by ajv (as
    test_real_outputs_are_valid_in_ajv_and_check_jsonschema checks the others), where Python's jsonschema spends
    most of the test on walking each record."""
    from catalog_docs.compare.json_format import SCHEMA_PATH
    from npm_tools import run_script

    file = folder / "diff.json"
    file.write_text(text, encoding="utf-8")
    _checked_schema()
    result = run_script("ajv-check.mjs", SCHEMA_PATH, file)
    assert result["compiled"], result["error"]
    assert result["results"] == {str(file): []}
    return _counted(json.loads(text))


def where(c: dict) -> tuple:
    """(kind, from label, from plan, to label, to plan, position, from value, to value) of one JSON record."""
    pos = c["to"]["position"] if c["to"]["position"] is not None else c["from"]["position"]
    return (c["kind"], c["from"]["label"], c["from"]["plan"], c["to"]["label"], c["to"]["plan"], pos,
            c["from"]["value"], c["to"]["value"])


@pytest.fixture(scope="module")
def fake_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_catalog(tmp_path_factory.mktemp("fake") / "catalog", FAKE_SPECS["plans-come-and-go"])


# --- FROM TO ---------------------------------------------------------------------------------------------

def test_json_for_the_fixture_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    # The fixture's first pair: PLAN B removed, 5 values of PLAN A close -> unlimited.
    code, out, _ = run(capsys, "diff", "FAKE 1.0", "FAKE 1.1", "--format", "json", "--catalog", str(FIXTURE))
    data = valid(out)
    assert code == 0
    assert data["mode"] == "labels"
    assert (data["from"], data["to"]) == ({"revision": None, "label": "FAKE 1.0", "plan": None, "name": None},
                                          {"revision": None, "label": "FAKE 1.1", "plan": None, "name": None})
    removed = [c for c in data["changes"] if c["kind"] == "plan-removed"]
    assert [(c["from"]["label"], c["from"]["plan"], c["to"]["label"], c["to"]["plan"]) for c in removed] == [
        ("FAKE 1.0", "PLAN B", "FAKE 1.1", None)]
    values = [c for c in data["changes"] if c["kind"] == "value-changed"]
    assert len(values) == 5
    assert {where(c)[:5] + where(c)[6:] for c in values} == {
        ("value-changed", "FAKE 1.0", "PLAN A", "FAKE 1.1", "PLAN A", "close", "unlimited")}
    assert "/fakeWidgetList" not in {c["to"]["path"] for c in values}
    assert [u["to"]["path"] for u in data["unchanged"]] == ["/fakeWidgetCreate", "/fakeWidgetList", None]
    # The removed plan entry's values come along, each on its label and plan entry.
    gone = [c for c in data["changes"] if c["kind"] == "value-removed"]
    assert len(gone) == 8 and {(c["from"]["label"], c["from"]["plan"]) for c in gone} == {("FAKE 1.0", "PLAN B")}


def test_text_puts_the_summary_before_the_changes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "FAKE 1.0", "FAKE 1.1", "--catalog", str(FIXTURE))
    assert code == 0
    assert out.startswith("FAKE 1.0 -> FAKE 1.1: 14 differences\n")  # 5 changed, 1 plan and its 8 values
    assert out.index("Summary") < out.index("FAKE 1.1 · plan entry PLAN A") < out.index("close -> unlimited (5 values)")
    assert ("  Plan entry PLAN B is no longer listed: FAKE 1.0 lists it (2nd among the plan entries, cited from "
            "§8 rule 1), FAKE 1.1 does not. Its values can still be seen under FAKE 1.0.") in out
    assert "/fakeWidgetList" not in out.split("plan entry PLAN B")[0]


def test_two_plan_entries(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "FAKE 1.0:PLAN A", "FAKE 1.0:PLAN B", "--format", "json",
                       "--catalog", str(FIXTURE))
    data = valid(out)
    assert code == 0 and len(data["changes"]) == 8 and data["mode"] == "plans"
    assert (data["from"]["plan"], data["to"]["plan"]) == ("PLAN A", "PLAN B")
    assert {where(c)[1:5] for c in data["changes"]} == {("FAKE 1.0", "PLAN A", "FAKE 1.0", "PLAN B")}


@pytest.mark.parametrize(("spec", "sides", "fmt", "name"), [
    # Plans added and removed and two transitions.
    ("plans-come-and-go", ("FAKE 1.0", "FAKE 3.0"), "markdown", "diff-fake-1.0-to-3.0.md"),
    # A plan entry listed again (compared with its previous label) beside one listed under both labels.
    ("relisted", ("FAKE 1.1", "FAKE 2.0"), "markdown", "diff-relisted-1.1-to-2.0.md"),
    ("relisted", ("FAKE 1.1", "FAKE 2.0"), "text", "diff-relisted-1.1-to-2.0.txt"),
    # A plan entry new everywhere; a plan entry dropped, with where it can still be seen.
    ("relisted", ("FAKE 2.0", "FAKE 3.0"), "text", "diff-relisted-2.0-to-3.0.txt"),
    ("relisted", ("FAKE 3.0", "FAKE 3.1"), "markdown", "diff-relisted-3.0-to-3.1.md"),
])
def test_snapshot(capsys: pytest.CaptureFixture[str], tmp_path: Path, request: pytest.FixtureRequest, spec: str,
                  sides: tuple[str, str], fmt: str, name: str) -> None:
    # Snapshots of pull-request comments and terminal output; regenerate with --update-goldens, read the diff.
    folder = write_catalog(tmp_path / "catalog", FAKE_SPECS[spec])
    code, out, _ = run(capsys, "diff", *sides, "--format", fmt, "--catalog", str(folder))
    snapshot = SNAPSHOTS / name
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
    (["FAKE 1.0:PLAN Z", "FAKE 2.0:PLAN A"],
     "plan entry 'PLAN Z' is not listed under 'FAKE 1.0'; listed there: 'PLAN A', 'PLAN B'"),
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


@pytest.fixture(scope="module")
def _history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose history is: no catalogue (tag `empty`), a catalogue (tag `v1`), a broken one
    (tag `broken`), the catalogue again (HEAD); plus a `docs/deep` folder to run from. Made once: each test
    takes a copy (`repo`)."""
    repo = tmp_path_factory.mktemp("history") / "repo"
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


@pytest.fixture
def repo(_history: Path, tmp_path: Path) -> Path:
    """A copy of that repository (`_history`) of the test's own, to edit and commit in."""
    return Path(shutil.copytree(_history, tmp_path / "repo", symlinks=True))


def test_against_a_revision_from_a_subfolder(capsys: pytest.CaptureFixture[str], repo: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    spec = FAKE_SPECS["plans-come-and-go"]
    edited = {**spec, "labels": {**spec["labels"], "FAKE 4.0": {"PLAN A": "uuuu"}}}
    edited["labels"]["FAKE 1.0"] = {"PLAN A": "uuuu", "PLAN B": "uuuu"}  # was ccuu
    write_catalog(repo / "catalog", edited)
    monkeypatch.chdir(repo / "docs" / "deep")

    code, out, err = run(capsys, "diff", "--against", "HEAD", "--format", "json", "--exit-code")
    data = valid(out)
    assert code == 1, err
    assert (data["mode"], data["from"], data["to"]) == ("revisions",
                                                        {"revision": "HEAD", "label": None, "plan": None, "name": None},
                                                        {"revision": None, "label": None, "plan": None,
                                                         "name": "main (working tree)"})
    got = [where(c) for c in data["changes"]]
    assert got == [
        ("value-changed", "FAKE 1.0", "PLAN A", "FAKE 1.0", "PLAN A", 1, "close", "unlimited"),
        ("value-changed", "FAKE 1.0", "PLAN A", "FAKE 1.0", "PLAN A", 2, "close", "unlimited"),
        # The added label with all its values, compared with the label before it (FAKE 3.0, PLAN A cucu).
        ("label-added", None, None, "FAKE 4.0", None, None, None, None),
        ("plan-added", None, None, "FAKE 4.0", "PLAN A", None, None, None),
        ("value-changed", "FAKE 3.0", "PLAN A", "FAKE 4.0", "PLAN A", 1, "close", "unlimited"),
        ("value-changed", "FAKE 3.0", "PLAN A", "FAKE 4.0", "PLAN A", 3, "close", "unlimited"),
    ]
    assert [(u["from"]["label"], u["to"]["label"], u["to"]["position"]) for u in data["unchanged"]
            if u["to"]["label"] == "FAKE 4.0"] == [("FAKE 3.0", "FAKE 4.0", 2), ("FAKE 3.0", "FAKE 4.0", 4)]
    label_added = next(c for c in data["changes"] if c["kind"] == "label-added")
    assert label_added["basis"]["label"] == "FAKE 3.0"


def test_against_the_same_revision_has_no_differences(capsys: pytest.CaptureFixture[str], repo: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "diff", "--against", "main", "--exit-code")
    assert code == 0 and out.startswith("main -> main (working tree): no differences")
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


# --- wording and size ---------------------------------------------------------------------------------------

def test_singular_and_plural(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = write_catalog(tmp_path / "catalog", {
        "entries": ["/fakeOnly", "/fakeOther"],
        "labels": {"FAKE 1": {"PLAN X": "cu"}, "FAKE 2": {"PLAN X": "uu"}},
    })
    _, out, _ = run(capsys, "diff", "FAKE 1", "FAKE 2", "--catalog", str(folder))
    assert out.startswith("FAKE 1 -> FAKE 2: 1 difference\n")
    assert "  Value changed close -> unlimited  " in out and "  Value unchanged  " in out
    assert "close -> unlimited (1 value)" in out and "1 value unchanged" in out
    _, md, _ = run(capsys, "diff", "FAKE 1", "FAKE 2", "--format", "markdown", "--catalog", str(folder))
    assert "**1 difference.**" in md and "| Value changed `close` → `unlimited` | 1 |" in md
    for wrong in ("1 differences", "1 values", "1 plan entries"):
        assert wrong not in out + md


@pytest.fixture(scope="module")
def large_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,200 entries: every value of PLAN A flips, PLAN B is dropped, PLAN C is new: 3,600 value records."""
    n = 1200
    return write_catalog(tmp_path_factory.mktemp("large") / "catalog", {
        "entries": [f"/fakeOperation{i:04d}" for i in range(n)],
        "labels": {"FAKE 1": {"PLAN A": "c" * n, "PLAN B": "cu" * (n // 2)},
                   "FAKE 2": {"PLAN A": "u" * n, "PLAN C": "uc" * (n // 2)}},
    })


def test_a_large_comment_stays_under_githubs_limit(capsys: pytest.CaptureFixture[str], large_dir: Path,
                                                    tmp_path: Path) -> None:
    labels = ["FAKE 1", "FAKE 2"]
    code, full, _ = run(capsys, "diff", labels[0], labels[-1], "--format", "json", "--catalog", str(large_dir))
    data = valid_in_ajv(full, tmp_path)
    assert data["counts"]["differences"] == 3 * 1200 + 2  # far more rows than fit
    code, out, _ = run(capsys, "diff", labels[0], labels[-1], "--format", "markdown", "--catalog", str(large_dir))
    assert code == 0 and len(out) < 65_536
    # It says what it left out and how to get everything.
    assert "Left out to keep this comment under 64,000 characters (GitHub's limit is 65,536): " in out
    assert f"catalog-docs diff '{labels[0]}' '{labels[-1]}' --format json" in out
    # The summary stays whole: every kind and transition the JSON counts.
    for kind, n in data["counts"]["by_kind"].items():
        if n and kind != "value-changed":
            assert f" | {n:,} |" in out, kind
    assert out.count("<details>") == out.count("</details>")
    # Rows went, not sections: every plan entry keeps its section, each shortened table says so.
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.compare.changes import compare_sides, parse_side
    from catalog_docs.compare.formats import Notes, format_markdown

    catalog = load_catalog(large_dir)
    whole = format_markdown(compare_sides(catalog, parse_side(labels[0], catalog), parse_side(labels[1], catalog)),
                            Notes(max_chars=10**9))
    assert len(whole) > 65_536 and out.count("#### ") == whole.count("#### ") == 3
    assert "whole section" not in out
    assert out.count("more rows left out (see the end of this comment)") == 5  # each of the five tables


def test_tables_shrink_first_then_sections_go_and_it_says_so(tmp_path: Path) -> None:
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.compare.changes import compare_sides, parse_side
    from catalog_docs.compare.formats import Notes, format_markdown

    catalog = load_catalog(write_catalog(tmp_path / "catalog", FAKE_SPECS["relisted"]))
    cmp = compare_sides(catalog, parse_side("FAKE 1.1", catalog), parse_side("FAKE 2.0", catalog))
    whole = format_markdown(cmp)
    assert "left out" not in whole.lower()
    # Far over budget: whole sections go from the end, and it says how many and how to get everything.
    tiny = format_markdown(cmp, Notes(max_chars=900))
    assert len(tiny) <= 900
    assert "whole section (" in tiny or "whole sections (" in tiny
    assert "`catalog-docs diff 'FAKE 1.1' 'FAKE 2.0' --format json` prints every record" in tiny
    assert tiny.startswith(whole[:whole.index("####")])  # the summary is never cut


# --- the JSON contract, checked by the tools its users run ----------------------------------------------------

def test_real_outputs_are_valid_in_ajv_and_check_jsonschema(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from catalog_docs.compare.json_format import SCHEMA_PATH
    from npm_tools import run_script

    relisted = write_catalog(tmp_path / "relisted", FAKE_SPECS["relisted"])
    runs = [("FAKE 1.1", "FAKE 2.0", "--catalog", str(relisted)), ("FAKE 2.0", "FAKE 3.1", "--catalog", str(relisted)),
            ("FAKE 1.0:PLAN B", "FAKE 2.0:PLAN B", "--catalog", str(relisted))]
    files = []
    for i, argv in enumerate(runs):
        _, out, _ = run(capsys, "diff", *argv, "--format", "json")
        files.append(tmp_path / f"diff-{i}.json")
        files[-1].write_text(out, encoding="utf-8")
    # --against: a label added and one removed, in a git history; the service renamed, an area added and one
    # renamed, a plan entry citing another section and two moved under a label.
    spec = FAKE_SPECS["plans-come-and-go"]
    labels = {k: v for k, v in spec["labels"].items() if k != "FAKE 2.0"} | {"FAKE 4.0": {"PLAN C": "uuuu"}}
    labels["FAKE 3.0"] = {k: labels["FAKE 3.0"][k] for k in ("PLAN A", "PLAN C", "PLAN B")}
    write_catalog(repo / "catalog", {**spec, "labels": labels})
    edit_yaml(repo / "catalog" / "service.yaml", lambda d: d.update(name="Faux Service", areas=[
        {**d["areas"][0], "name": "Fake area, renamed"}, {"id": "fake-new", "name": "Fake new area", "source": "§1"}]))
    edit_yaml(repo / "catalog" / "versions" / "FAKE-1.0.yaml", lambda d: d["plans"]["PLAN B"].update(source="§9"))
    monkeypatch.chdir(repo)
    _, out, _ = run(capsys, "diff", "--against", "HEAD", "--format", "json")
    kinds = {c["kind"] for c in valid(out)["changes"]}
    assert {"label-added", "label-removed", "plan-added", "value-removed", "plan-changed", "service-changed",
            "area-added", "area-changed"} <= kinds
    files.append(tmp_path / "diff-against.json")
    files[-1].write_text(out, encoding="utf-8")

    result = run_script("ajv-check.mjs", SCHEMA_PATH, *files)
    assert result["compiled"], result["error"]
    assert result["results"] == {str(f): [] for f in files}
    checker = Path(sys.executable).with_name("check-jsonschema")
    done = subprocess.run([checker, "--schemafile", SCHEMA_PATH, *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# --- --against REV: a plan entry's own fields, the service and its areas ---------------------------------------

def edit_yaml(path: Path, change: Callable[[Any], None]) -> None:
    """Load a catalogue file, let `change` edit the data in place, write it back."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def against_head(capsys: pytest.CaptureFixture[str], repo: Path, monkeypatch: pytest.MonkeyPatch,
                 ) -> tuple[dict, str, str]:
    """The JSON (checked against the schema), text and Markdown of `diff --against HEAD` in `repo`."""
    monkeypatch.chdir(repo)
    outs = [run(capsys, "diff", "--against", "HEAD", "--format", fmt)[1] for fmt in ("json", "text", "markdown")]
    return valid(outs[0]), without_ids(outs[1]), without_ids(outs[2])


def test_against_a_plan_entry_whose_source_changed_or_that_moved(capsys: pytest.CaptureFixture[str], repo: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # HEAD lists FAKE 3.0's plan entries as PLAN C, PLAN A, PLAN B; the working tree as PLAN A, PLAN C, PLAN B
    # (PLAN B keeps its place) and cites another section for PLAN A under FAKE 1.0. No value changes.
    versions = repo / "catalog" / "versions"
    edit_yaml(versions / "FAKE-1.0.yaml", lambda d: d["plans"]["PLAN A"].update(source="§8 rule 2"))
    edit_yaml(versions / "FAKE-3.0.yaml", lambda d: d.update(plans={k: d["plans"][k] for k in
                                                                    ("PLAN A", "PLAN C", "PLAN B")}))
    data, text, md = against_head(capsys, repo, monkeypatch)
    assert [(c["kind"], c["from"]["label"], c["from"]["plan"], c["to"]["label"], c["to"]["plan"], c["fields"])
            for c in data["changes"]] == [
        ("plan-changed", "FAKE 1.0", "PLAN A", "FAKE 1.0", "PLAN A", ["source"]),
        ("plan-changed", "FAKE 3.0", "PLAN A", "FAKE 3.0", "PLAN A", ["order"]),
        ("plan-changed", "FAKE 3.0", "PLAN C", "FAKE 3.0", "PLAN C", ["order"]),
    ]
    assert data["counts"]["by_kind"]["plan-changed"] == 3
    assert len(data["unchanged"]) == 4 * 7  # every value still compared, by plan entry name
    assert text.startswith("HEAD -> main (working tree): 3 differences\n")
    assert "  Plan entries changed  " in text and "Plan entry changed " not in text
    # Every format gives each changed field's value on both sides (its place among the plan entries from 1).
    assert [c["values"] for c in data["changes"]] == [{"source": {"from": "§8", "to": "§8 rule 2"}},
                                                       {"order": {"from": 2, "to": 1}}, {"order": {"from": 1, "to": 2}}]
    assert ("FAKE 1.0 · plan entry PLAN A\n  Plan entry PLAN A under FAKE 1.0 changed between HEAD and main (working "
            "tree): source §8 -> §8 rule 2.\n") in text
    assert ("  Plan entry PLAN C under FAKE 3.0 changed between HEAD and main (working tree): moved from 1st to 2nd "
            "among the plan entries.\n") in text
    assert "| Plan entries changed | 3 |" in md
    assert ("#### `FAKE 3.0` · plan entry `PLAN A`\n\n- Plan entry `PLAN A` under `FAKE 3.0` changed between `HEAD` "
            "and `main (working tree)`: moved from 2nd to 1st among the plan entries.") in md


def test_against_the_service_and_its_areas(capsys: pytest.CaptureFixture[str], repo: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    service = repo / "catalog" / "service.yaml"
    extra = [{"id": "fake-second", "name": "Fake second area", "source": "§1"},
             {"id": "fake-gone", "name": "Fake area to drop", "source": "§1"}]
    edit_yaml(service, lambda d: d["areas"].extend(extra))
    git(repo, "commit", "-q", "-am", "three areas")

    def edit(d: dict) -> None:
        d.update(name="Faux *Service* <b>", summary="Another fake summary.", lock_values={**d["lock_values"],
                 "source": "§8 rule 2"})
        old = {a["id"]: a for a in d["areas"]}
        d["areas"] = [old["fake-second"], {**old["fake-area"], "name": "Fake area, renamed"},
                      {"id": "fake-new", "name": "Fake new area", "source": "§1"}]
    edit_yaml(service, edit)
    data, text, md = against_head(capsys, repo, monkeypatch)
    assert [(c["kind"], c["from"]["service"], c["to"]["service"], c["from"]["area"], c["to"]["area"], c["fields"])
            for c in data["changes"]] == [
        ("service-changed", "Fake Service", "Faux *Service* <b>", None, None,
         ["name", "summary", "lock_values_source"]),
        ("area-removed", None, None, "fake-gone", None, ["order", "name", "source"]),
        ("area-changed", None, None, "fake-second", "fake-second", ["order"]),
        ("area-changed", None, None, "fake-area", "fake-area", ["order", "name"]),
        ("area-added", None, None, None, "fake-new", ["order", "name", "source"]),
    ]
    assert {k: n for k, n in data["counts"]["by_kind"].items() if n} == {
        "service-changed": 1, "area-added": 1, "area-removed": 1, "area-changed": 2}
    # Text: the summary counts each kind, then the records under one heading; catalogue text as it is.
    summary = text.split("\n\n")[1]
    for row in ("Service changed  ", "Area added  ", "Area removed  ", "Areas changed  "):
        assert f"  {row}" in summary
    assert "Areas added" not in summary and "Area changed " not in summary
    assert [c["values"] for c in data["changes"]] == [
        {"name": {"from": "Fake Service", "to": "Faux *Service* <b>"},
         "summary": {"from": "A fake service for tests.", "to": "Another fake summary."},
         "lock_values_source": {"from": "§8", "to": "§8 rule 2"}},
        {"order": {"from": 3, "to": None}, "name": {"from": "Fake area to drop", "to": None},
         "source": {"from": "§1", "to": None}},
        {"order": {"from": 2, "to": 1}},
        {"order": {"from": 1, "to": 2}, "name": {"from": "Fake area", "to": "Fake area, renamed"}},
        {"order": {"from": None, "to": 3}, "name": {"from": None, "to": "Fake new area"},
         "source": {"from": None, "to": "§1"}}]
    assert ("\nService and areas\n"
            "  Service Faux *Service* <b> changed between HEAD and main (working tree): name Fake Service -> Faux "
            "*Service* <b>; summary A fake service for tests. -> Another fake summary.; lock values source §8 -> "
            "§8 rule 2.\n"
            "  Area fake-gone removed at main (working tree); at HEAD it was 3rd among the areas, name Fake area to "
            "drop, cited from §1.\n"
            "  Area fake-second changed between HEAD and main (working tree): moved from 2nd to 1st among the areas.\n"
            "  Area fake-area changed between HEAD and main (working tree): moved from 1st to 2nd among the areas; "
            "name Fake area -> Fake area, renamed.\n"
            "  Area fake-new is new at main (working tree): 3rd among the areas, name Fake new area, cited from "
            "§1.\n") in text
    # Markdown: counted in the summary table; the service's name escaped as all catalogue text is.
    for row in ("| Service changed | 1 |", "| Area added | 1 |", "| Area removed | 1 |", "| Areas changed | 2 |"):
        assert row in md
    assert md.index("| Areas changed | 2 |") < md.index("#### Service and areas")
    assert ("- Service Faux &#42;Service&#42; &#60;b&#62; changed between `HEAD` and `main (working tree)`: name "
            "`Fake Service` → Faux &#42;Service&#42; &#60;b&#62;; summary `A fake service for tests.` → `Another fake "
            "summary.`; lock values source `§8` → `§8 rule 2`.") in md
    assert "*Service*" not in md and "<b>" not in md
    assert ("- Area `fake-area` changed between `HEAD` and `main (working tree)`: moved from 1st to 2nd among the "
            "areas; name `Fake area` → Fake area, renamed.") in md


def test_against_an_edit_that_changes_nothing_has_no_such_record(capsys: pytest.CaptureFixture[str], repo: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The same facts written another way (top-level keys reversed, flow style, a comment) are not a change.
    catalog = repo / "catalog"
    for path in [catalog / "service.yaml", *sorted((catalog / "versions").glob("*.yaml"))]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        path.write_text("# rewritten, same facts\n" + yaml.safe_dump(dict(reversed(data.items())), sort_keys=False,
                                                                     default_flow_style=True), encoding="utf-8")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "diff", "--against", "HEAD", "--exit-code")
    assert code == 0 and out.startswith("HEAD -> main (working tree): no differences")
    # A plan entry or an area added in front moves none of the others: the added one is the only record.
    edit_yaml(catalog / "service.yaml", lambda d: d["areas"].insert(0, {"id": "fake-new", "name": "Fake new area",
                                                                        "source": "§1"}))
    edit_yaml(catalog / "versions" / "FAKE-2.0.yaml",
              lambda d: d.update(plans={"PLAN B": {"source": "§8", "values": dict.fromkeys(
                  d["plans"]["PLAN A"]["values"], "close")}, **d["plans"]}))
    data, text, md = against_head(capsys, repo, monkeypatch)
    kinds = {c["kind"] for c in data["changes"]}
    assert kinds == {"area-added", "plan-added", "value-changed"}  # PLAN B compared with FAKE 1.0's listing
    for word in ("plan-changed", "service-changed", "area-changed"):
        assert data["counts"]["by_kind"][word] == 0
    for text_or_md in (text, md):
        # Only the added area has a place among the areas (its own fact); no other area moved.
        assert text_or_md.count("among the areas") == 1 and "Service changed" not in text_or_md
        assert ("Area fake-new is new at main (working tree): 1st among the areas, name Fake new area, cited from "
                "§1.") in text_or_md.replace("`", "")


def test_against_the_plan_entries_the_service_declares(capsys: pytest.CaptureFixture[str], repo: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Their order is the order of every page's plan columns; a name no label lists yet still adds a column.
    service = repo / "catalog" / "service.yaml"
    edit_yaml(service, lambda d: d.update(plan_entries=list(reversed(d["plan_entries"]))))
    data, text, md = against_head(capsys, repo, monkeypatch)
    assert [(c["kind"], c["fields"]) for c in data["changes"]] == [("service-changed", ["plan_entry_order"])]
    assert data["changes"][0]["values"] == {"plan_entry_order": {"from": ["PLAN A", "PLAN B", "PLAN C"],
                                                                 "to": ["PLAN C", "PLAN B", "PLAN A"]}}
    assert ("order of the plan entry names [PLAN A, PLAN B, PLAN C] -> [PLAN C, PLAN B, PLAN A]." in text
            and "| Service changed | 1 |" in md)
    git(repo, "commit", "-q", "-am", "plan columns reversed")
    edit_yaml(service, lambda d: d["plan_entries"].append("PLAN Z"))
    data, text, md = against_head(capsys, repo, monkeypatch)
    assert [(c["kind"], c["fields"]) for c in data["changes"]] == [("service-changed", ["plan_entries"])]
    assert "plan entry names [PLAN C, PLAN B, PLAN A] -> [PLAN C, PLAN B, PLAN A, PLAN Z]." in text


def test_against_statements_about_the_whole_catalogue_are_true(capsys: pytest.CaptureFixture[str], repo: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # FAKE 1.0 removed: its plan entries are still listed under later labels, and the diff says where.
    catalog = repo / "catalog"
    edit_yaml(catalog / "service.yaml", lambda d: d["version_labels"].remove("FAKE 1.0"))
    (catalog / "versions" / "FAKE-1.0.yaml").unlink()
    # PLAN B newly listed under FAKE 2.0: the same label on both sides, so the earlier side is named by revision.
    edit_yaml(catalog / "versions" / "FAKE-2.0.yaml", lambda d: d["plans"].update(
        {"PLAN B": {"source": "§8", "values": dict.fromkeys(d["plans"]["PLAN A"]["values"], "close")}}))
    data, text, md = against_head(capsys, repo, monkeypatch)
    removed = {c["from"]["plan"]: c["seen_under"] for c in data["changes"] if c["kind"] == "plan-removed"}
    assert removed == {"PLAN A": ["FAKE 2.0", "FAKE 3.0"], "PLAN B": ["FAKE 2.0", "FAKE 3.0"]}
    for out in (text, md):
        assert "No label lists it any more" not in out
    assert "Its values can still be seen under FAKE 2.0, FAKE 3.0." in text
    assert ("Plan entry PLAN B is newly listed under FAKE 2.0 at main (working tree), 3rd among the plan entries, "
            "cited from §8; at HEAD it is not.") in text
    assert "(not listed under FAKE 2.0)" not in text


def test_against_one_value_changed_names_the_two_revisions_in_its_table(capsys: pytest.CaptureFixture[str],
                                                                        repo: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The same label and plan entry on both sides: the columns are the revisions, never one name twice.
    path = repo / "catalog" / "versions" / "FAKE-2.0.yaml"
    edit_yaml(path, lambda d: d["plans"]["PLAN A"]["values"].update(
        {k: ("unlimited" if v == "close" else "close") for k, v in list(d["plans"]["PLAN A"]["values"].items())[:1]}))
    data, _text, md = against_head(capsys, repo, monkeypatch)
    assert [c["kind"] for c in data["changes"]] == ["value-changed"]
    head = next(line for line in md.splitlines() if line.startswith("| Position | Path |"))
    cells = [c.strip() for c in head.strip("|").split("|")]
    assert cells[2] != cells[3], head
    assert "HEAD" in cells[2] and "main (working tree)" in cells[3], head
