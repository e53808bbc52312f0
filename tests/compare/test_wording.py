"""A reviewer reads the diff as plain English (issue 27, item 3): each change a sentence or a table row with both
sides named, no raw field names, no yes/no flags; text and Markdown alike."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Side, compare_catalogs, compare_sides
from catalog_docs.compare.formats import format_markdown, format_text
from catalog_edits import edited, loaded_from_files, loaded_from_memory, read_docs
from fake_catalogs import FAKE_SPECS, write_catalog
from fixture_facts import FIXTURE_CATALOG


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Fake Tester", "GIT_AUTHOR_EMAIL": "fake@example.invalid",
           "GIT_COMMITTER_NAME": "Fake Tester", "GIT_COMMITTER_EMAIL": "fake@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def _repo_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository on branch `fake-head` whose working tree adds a label and stops listing a plan entry. Made
    once: each test takes a copy (`repo`)."""
    repo = tmp_path_factory.mktemp("wording") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "fake-head")
    write_catalog(repo / "catalog", FAKE_SPECS["plans-come-and-go"])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "catalogue")
    catalog = repo / "catalog"
    service = yaml.safe_load((catalog / "service.yaml").read_text(encoding="utf-8"))
    service["version_labels"].append("FAKE 4.0")
    (catalog / "service.yaml").write_text(yaml.safe_dump(service, sort_keys=False), encoding="utf-8")
    label = yaml.safe_load((catalog / "versions" / "FAKE-3.0.yaml").read_text(encoding="utf-8"))
    label["label"] = "FAKE 4.0"
    (catalog / "versions" / "FAKE-4.0.yaml").write_text(yaml.safe_dump(label, sort_keys=False), encoding="utf-8")
    old = yaml.safe_load((catalog / "versions" / "FAKE-2.0.yaml").read_text(encoding="utf-8"))
    del old["plans"]["PLAN C"]
    (catalog / "versions" / "FAKE-2.0.yaml").write_text(yaml.safe_dump(old, sort_keys=False), encoding="utf-8")
    return repo


@pytest.fixture
def repo(_repo_made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of that repository of the test's own, the working folder."""
    repo = Path(shutil.copytree(_repo_made, tmp_path / "repo", symlinks=True))
    monkeypatch.chdir(repo)
    monkeypatch.delenv("SITE_URL", raising=False)
    return repo


def both(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    outs = []
    for fmt in ("text", "markdown"):
        assert cli.main(["diff", *argv, "--format", fmt]) == 0
        outs.append(capsys.readouterr().out)
    return outs[0], outs[1].replace("`", "")


def test_a_plan_entry_no_longer_listed_reads_as_removed(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    # Was: "Plan entry PLAN C listed under FAKE 2.0 (not listed under it in the working tree; was place among ...)".
    for out in both(capsys, "--against", "HEAD"):
        assert ("Plan entry PLAN C is no longer listed under FAKE 2.0 at fake-head (working tree); at HEAD it was, "
                "2nd among the plan entries, cited from §8.") in out
        assert "listed under FAKE 2.0 (" not in out
    # Between two labels: which label lists it, and which does not.
    folder = write_catalog(repo / "labels", FAKE_SPECS["plans-come-and-go"])
    for out in both(capsys, "FAKE 1.0", "FAKE 2.0", "--catalog", str(folder)):
        assert ("Plan entry PLAN B is no longer listed: FAKE 1.0 lists it (2nd among the plan entries, cited from "
                "§8), FAKE 2.0 does not.") in out


def test_an_added_label_reads_as_words_not_fields(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    # Was: "Version label FAKE 4.0 added, after FAKE 3.0: place among labels 4; source §9; ...; draft no."
    for out in both(capsys, "--against", "HEAD"):
        line = next(x for x in out.splitlines() if "Version label FAKE 4.0" in x and x.startswith(("  ", "- ")))
        assert line.lstrip("- ").startswith(
            "Version label FAKE 4.0 is new at fake-head (working tree), after FAKE 3.0: 4th among the labels, "
            "cited from §9, plan table title"), line
        assert line.rstrip().split(" [")[0].split(" label-added")[0].endswith("not a draft."), line
        assert "place among" not in out and not re.search(r"\b(yes|no)[.;]", out)


def test_the_comment_header_names_the_pull_requests_head(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    # Was: "### Catalogue diff: `HEAD` → `working tree`", whatever branch was checked out.
    assert cli.main(["diff", "--against", "HEAD", "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("### Catalogue diff: `HEAD` → `fake-head (working tree)`\n")
    assert cli.main(["diff", "--against", "HEAD", "--format", "markdown", "--new-name", "fake-feature"]) == 0
    assert capsys.readouterr().out.startswith("### Catalogue diff: `HEAD` → `fake-feature`\n")
    # Detached (as CI checks out a pull request): the short commit.
    git(repo, "checkout", "-q", "--detach")
    assert cli.main(["diff", "--against", "HEAD", "--format", "text"]) == 0
    assert re.match(r"HEAD -> [0-9a-f]{7,} \(working tree\): ", capsys.readouterr().out)
    # Between two labels the sides are the labels: --new-name has nothing to name.
    assert cli.main(["diff", "FAKE 1.0", "FAKE 2.0", "--new-name", "x"]) == 2
    assert "--new-name names the working tree: give it with --against REV" in capsys.readouterr().err


def test_the_no_longer_listed_table_says_whose_value_each_column_is(capsys: pytest.CaptureFixture[str],
                                                                   repo: Path) -> None:
    # Was: one "Value" column, under no label or side.
    _, md = both(capsys, "--against", "HEAD")
    section = md[md.index("#### FAKE 2.0 · plan entry PLAN C"):]
    head = next(x for x in section.splitlines() if x.startswith("| Position"))
    assert head == "| Position | Path | FAKE 2.0 (HEAD) | FAKE 2.0 (fake-head (working tree)) | Change id |"
    row = next(x for x in section.splitlines() if x.startswith("| 1 |"))
    assert re.match(r"\| 1 \| /fakeAlpha \| (close|unlimited) \| not listed \| value-removed--", row), row
    # Its title reads in one pass, earlier side first, the label named once.
    assert re.search(r"\*\*\d+ values?: (close|unlimited) under FAKE 2\.0 at HEAD, not listed at fake-head "
                     r"\(working tree\)\*\*", section), section


RAW_FIELDS = re.compile(r"\b(plan_table|value_column|plan_table_source|base_url_source|lock_values_source|"
                        r"plan_entries|plan_entry_order|version_marker|not_shown|place among|draft (yes|no))\b")
PAIRS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


BASE = read_docs(FIXTURE_CATALOG)


@PAIRS
@given(st.data())
def test_no_raw_field_names_and_no_yes_no_flags_for_any_edit(data: st.DataObject) -> None:
    _no_raw_field_names_and_no_yes_no_flags(data, loaded_from_memory)


@settings(max_examples=1, deadline=None)
@given(st.data())
def test_no_raw_field_names_and_no_yes_no_flags_for_an_edit_loaded_from_files(data: st.DataObject) -> None:
    """The property's examples load their catalogues from memory (catalog_edits.load_docs, as a git revision's
    are loaded); this one loads them from folders, as `check` does."""
    _no_raw_field_names_and_no_yes_no_flags(data, loaded_from_files)


def _no_raw_field_names_and_no_yes_no_flags(data: st.DataObject,
                                            load: Callable[..., list[Catalog]]) -> None:
    a_docs, _ = edited(BASE, data, 0, 2)
    b_docs, steps = edited(a_docs, data, 1, 4)
    a, b = load(a_docs, b_docs)
    comparisons = [compare_catalogs(a, b, "main"), compare_catalogs(b, a, "main")]
    comparisons += [compare_sides(b, Side(label=x.label), Side(label=y.label)) for x in b.versions for y in b.versions]
    for cmp in comparisons:
        for out in (format_text(cmp), format_markdown(cmp)):
            assert not RAW_FIELDS.search(out), (steps, RAW_FIELDS.search(out))
            assert not re.search(r"\b(yes|no)[.;,)]", out), steps
            assert "| Value |" not in out, steps


def test_a_new_labels_previous_label_column_names_its_side(tmp_path: Path) -> None:
    # Was: "| FAKE 1.0 | FAKE 2.0 (feature) |": the previous label's column did not say which catalogue it was
    # read from (the later one: a new label's values are compared with its previous label as listed there).
    entries = ["/fakeAlpha", "/fakeBeta"]
    old = write_catalog(tmp_path / "old", {"entries": entries, "labels": {"FAKE 1.0": {"PLAN A": "cc"}}})
    new = write_catalog(tmp_path / "new", {"entries": entries, "labels": {"FAKE 1.0": {"PLAN A": "cc"},
                                                                          "FAKE 2.0": {"PLAN A": "cu"}}})
    cmp = compare_catalogs(load_catalog(old), load_catalog(new), "main", "feature")
    md = format_markdown(cmp)
    assert "| Position | Path | `FAKE 1.0` (previous label, `feature`) | `FAKE 2.0` (`feature`) | Change id |" in md
    text = format_text(cmp)
    assert "close -> unlimited (1 value, FAKE 1.0 -> FAKE 2.0)" in text
    # The any-pair and label forms name a plan entry in words, never as LABEL:PLAN.
    catalog = load_catalog(new)
    plans = compare_sides(catalog, Side(label="FAKE 1.0", plan="PLAN A"), Side(label="FAKE 2.0", plan="PLAN A"))
    shown = format_markdown(plans) + format_text(plans)
    assert "PLAN A under FAKE 1.0" in shown.replace("`", "") and "FAKE 1.0:PLAN A" not in shown.split("catalog-docs")[0]
