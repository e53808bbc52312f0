"""The review gate: `catalog-docs diff --fail-on KIND[:published][,...] --acknowledged FILE` (compare/gate.py).

Exit codes: 1 when a change a selector picks is not acknowledged, 0 otherwise; 2 for an unknown kind or an
acknowledgements file that does not check. Acknowledged changes show their reason in every format; an
acknowledgement that matches no change is reported by its id.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.catalog.model import Catalog
from catalog_docs.compare.changes import compare_catalogs
from catalog_docs.compare.gate import Acknowledgement, Selector, review
from catalog_docs.compare.json_format import schema
from catalog_docs.compare.rules import KIND_IDS
from catalog_docs.errors import Problem
from catalog_edits import edited, loaded_from_files, loaded_from_memory, read_docs
from fake_catalogs import FAKE_SPECS, write_catalog
from fixture_facts import FIXTURE_CATALOG


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Fake Tester", "GIT_AUTHOR_EMAIL": "fake@example.invalid",
           "GIT_COMMITTER_NAME": "Fake Tester", "GIT_COMMITTER_EMAIL": "fake@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def edit_yaml(path: Path, change: Callable[[Any], object]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def flip_first(plan: dict) -> None:
    key = next(iter(plan["values"]))
    plan["values"][key] = "close" if plan["values"][key] == "unlimited" else "unlimited"


@pytest.fixture(scope="module")
def _repo_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose HEAD has FAKE 1.0 and FAKE 2.0 published and FAKE 3.0 a draft; the working tree
    changes one value of FAKE 1.0 (published) and one of FAKE 3.0 (the draft). Made once: each test takes a
    copy (`repo`)."""
    repo = tmp_path_factory.mktemp("gate") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "feature-fake")
    write_catalog(repo / "catalog", FAKE_SPECS["plans-come-and-go"])
    versions = repo / "catalog" / "versions"
    edit_yaml(versions / "FAKE-3.0.yaml", lambda d: d.update(draft=True))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "catalogue")
    edit_yaml(versions / "FAKE-1.0.yaml", lambda d: flip_first(d["plans"]["PLAN A"]))
    edit_yaml(versions / "FAKE-3.0.yaml", lambda d: flip_first(d["plans"]["PLAN A"]))
    return repo


@pytest.fixture
def repo(_repo_made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of that repository of the test's own, the working folder."""
    repo = Path(shutil.copytree(_repo_made, tmp_path / "repo", symlinks=True))
    monkeypatch.chdir(repo)
    monkeypatch.delenv("SITE_URL", raising=False)
    return repo


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["diff", "--against", "HEAD", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def changes(capsys: pytest.CaptureFixture[str]) -> list[dict]:
    code, out, _ = run(capsys, "--format", "json")
    assert code == 0
    return json.loads(out)["changes"]


def test_fail_on_a_kind_exits_1_only_when_such_a_change_is_there(capsys: pytest.CaptureFixture[str],
                                                                  repo: Path) -> None:
    assert run(capsys, "--fail-on", "value-changed")[0] == 1
    assert run(capsys, "--fail-on", "label-removed,plan-added")[0] == 0
    assert run(capsys, "--fail-on", "label-removed", "--fail-on", "value-changed")[0] == 1  # repeated: all count
    assert run(capsys)[0] == 0  # no gate, no --exit-code


def test_published_counts_only_labels_that_are_not_drafts(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    # Two value changes: FAKE 1.0 (published) and FAKE 3.0 (a draft at HEAD).
    code, out, _ = run(capsys, "--fail-on", "value-changed:published", "--format", "json")
    data = json.loads(out)
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert code == 1
    by_label = {c["to"]["label"]: c["id"] for c in data["changes"]}
    assert data["gate"]["failing"] == [by_label["FAKE 1.0"]]
    assert data["gate"]["fail_on"] == ["value-changed:published"] and data["gate"]["passed"] is False
    # The draft published in the working tree is still a draft at HEAD: its values are work in progress.
    edit_yaml(repo / "catalog" / "versions" / "FAKE-1.0.yaml", lambda d: flip_first(d["plans"]["PLAN A"]))
    assert run(capsys, "--fail-on", "value-changed:published")[0] == 0


@pytest.mark.parametrize(("selector", "message"), [
    ("value-changd", "unknown change kind 'value-changd'; valid kinds: " + ", ".join(KIND_IDS)),
    ("value-changed:drafts", "expected KIND or KIND:published after the kind, found ':drafts'"),
    ("", "unknown change kind ''"),
])
def test_an_unknown_kind_is_a_usage_error_that_lists_the_kinds(capsys: pytest.CaptureFixture[str], repo: Path,
                                                               selector: str, message: str) -> None:
    code, out, err = run(capsys, "--fail-on", selector)
    assert code == 2 and out == ""
    assert err.startswith("catalog-docs: error: --fail-on: ") and message in err


def test_exit_code_still_follows_git_diff(capsys: pytest.CaptureFixture[str], repo: Path, tmp_path: Path) -> None:
    assert run(capsys, "--exit-code")[0] == 1
    ids = [c["id"] for c in changes(capsys)]
    acks = tmp_path / "acks.yaml"
    acks.write_text(yaml.safe_dump([{"id": i, "reason": "Fake reason."} for i in ids]), encoding="utf-8")
    # Acknowledged changes pass the gate, but they are still differences for --exit-code.
    assert run(capsys, "--fail-on", "value-changed", "--acknowledged", str(acks))[0] == 0
    assert run(capsys, "--fail-on", "value-changed", "--acknowledged", str(acks), "--exit-code")[0] == 1


def test_acknowledged_changes_pass_and_show_their_reason_in_every_format(capsys: pytest.CaptureFixture[str],
                                                                        repo: Path, tmp_path: Path) -> None:
    records = changes(capsys)
    published = next(c["id"] for c in records if c["to"]["label"] == "FAKE 1.0")
    reason = "Fake *reason* <b>bold</b> | pipe \x1b[31mred"
    acks = tmp_path / "acks.yaml"
    acks.write_text(yaml.safe_dump([{"id": published, "reason": reason},
                                    {"id": "value-changed--fake-0-0--plan-z--fakegone--0000beef",
                                     "reason": "Fake stale one."}]), encoding="utf-8")
    gate = ("--fail-on", "value-changed:published", "--acknowledged", str(acks))
    code, out, err = run(capsys, *gate, "--format", "json")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert [c["acknowledged"] for c in data["changes"] if c["id"] == published] == [{"reason": reason,
                                                                                       "by": published}]
    assert all(c["acknowledged"] is None for c in data["changes"] if c["id"] != published)
    assert data["gate"] == {"fail_on": ["value-changed:published"], "passed": True, "failing": [],
                            "acknowledged": [published], "covered": [], "file": str(acks),
                            "stale": [{"id": "value-changed--fake-0-0--plan-z--fakegone--0000beef",
                                       "reason": "Fake stale one."}]}
    # A stale acknowledgement is reported by its id on stderr too, and does not fail the gate.
    assert "value-changed--fake-0-0--plan-z--fakegone--0000beef" in err and "matches no change" in err

    code, text, _ = run(capsys, *gate)
    assert code == 0
    row = next(line for line in text.splitlines() if published in line)
    # The terminal gets the reason with its control character shown, never raw.
    assert row.endswith(f"{published}  (acknowledged: Fake *reason* <b>bold</b> | pipe \\x1b[31mred)")
    assert "\x1b" not in text
    # FAKE 3.0 is a draft at HEAD and still one: publishing refuses it, so the branch is not ready to merge.
    assert ("Not ready to merge: keeps draft label FAKE 3.0: publishing refuses it until draft: true is removed "
            "from catalog/versions/FAKE-3.0.yaml.\n  Review gate passes: no change it selects is left "
            "unacknowledged.\n  It holds, until each is acknowledged with a reason, these changes to a version label "
            "already published (not a draft): values changed.") in text
    assert "Stale: 1 acknowledgement in " in text and "value-changed--fake-0-0--plan-z--fakegone--0000beef: " \
        "Fake stale one." in text

    code, md, _ = run(capsys, *gate, "--format", "markdown")
    assert code == 0
    row = next(line for line in md.splitlines() if published in line)
    # In a table cell the reason is escaped: no emphasis, no HTML, no cell break.
    assert "(acknowledged: Fake &#42;reason&#42; &#60;b&#62;bold&#60;/b&#62; &#124; pipe" in row
    assert row.count("|") == 6  # five cells
    assert "**Not ready to merge: keeps draft label `FAKE 3.0`: publishing refuses it until `draft: true` is " \
        "removed from `catalog/versions/FAKE-3.0.yaml`.**\n\nReview gate passes: no change it selects is left " \
        "unacknowledged." in md and "--fail-on" not in md
    assert "- `value-changed--fake-0-0--plan-z--fakegone--0000beef`: Fake stale one&#46;" in md


def test_unacknowledged_changes_are_named_and_marked(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    records = changes(capsys)
    published = next(c["id"] for c in records if c["to"]["label"] == "FAKE 1.0")
    code, text, _ = run(capsys, "--fail-on", "value-changed:published")
    assert code == 1
    assert "Review gate holds 1 change (1 decision) until it is acknowledged." in text
    assert f"\n    {published}\n" in text  # the id to acknowledge, under its decision
    assert f"{published}  (needs acknowledgement)" in text
    assert text.count("needs acknowledgement") == 1  # its row; the draft's change is not marked


@pytest.mark.parametrize(("content", "expected"), [
    ("- {id: value-changed--a--1234abcd}\n", ["acks.yaml:1:3: acknowledged[0]: expected the keys id and reason, "
                                              "found no reason"]),
    ("- id: value-changed--a--1234abcd\n  reason: ok\n  who: me\n",
     ["acks.yaml:3:3: acknowledged[0]: expected only the keys id and reason, found 'who'"]),
    ("- id: not an id\n  reason: ok\n- id: 12\n  reason: ''\n",
     ["acks.yaml:1:7: acknowledged[0].id: expected a change id as catalog-docs diff prints it (KIND--...--HASH), "
      "found 'not an id' (copy it from the diff output)",
      "acks.yaml:3:7: acknowledged[1].id: expected a change id, found 12 (int)",
      "acks.yaml:4:11: acknowledged[1].reason: expected a reason (non-empty text), found ''"]),
    ("- id: value-changed--a--1234abcd\n  reason: one\n- id: value-changed--a--1234abcd\n  reason: two\n",
     ["acks.yaml:3:3: acknowledged[1].id: expected each id once, found 'value-changed--a--1234abcd' again "
      "(first on line 1)"]),
    ("id: value-changed--a--1234abcd\n", ["acks.yaml:1:1: acknowledged: expected a list of {id, reason}, "
                                         "found a mapping"]),
    ("- [unclosed\n", ["acks.yaml:2:1: (file): expected YAML, found"]),
    ("- id: value-changed--a--1234abcd\n  reason: \"\\x1b[31m\"\n- 3\n",
     ["acks.yaml:3:3: acknowledged[1]: expected a mapping {id: CHANGE-ID, reason: TEXT}, found 3 (int)"]),
    # A raw control character: YAML refuses it; the message shows it escaped, never raw.
    ("- id: value-changed--a--1234abcd\n  reason: \x1b[31m\n",
     ["acks.yaml:2:11: (file): expected YAML, found the character U+001B, which YAML does not allow"]),
])
def test_a_bad_acknowledgements_file_is_reported_at_file_line_column(capsys: pytest.CaptureFixture[str], repo: Path,
                                                                     content: str, expected: list[str]) -> None:
    (repo / "acks.yaml").write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "--fail-on", "value-changed", "--acknowledged", "acks.yaml")
    assert code == 2 and out == ""
    lines = err.splitlines()
    for want, got in zip(expected, lines, strict=False):
        assert got.startswith(want), (got, want)
    assert lines[-1] == ("1 error" if len(expected) == 1 else f"{len(expected)} errors")


def test_stale_acknowledgements_are_reported_when_nothing_differs(capsys: pytest.CaptureFixture[str],
                                                                  repo: Path) -> None:
    git(repo, "commit", "-q", "-am", "the values changed")
    (repo / "acks.yaml").write_text("- {id: value-changed--fake-1-0--plan-a--fakealpha--0000beef, reason: Fake.}\n",
                                    encoding="utf-8")
    for fmt in ("text", "markdown", "json"):
        code, out, err = run(capsys, "--fail-on", "value-changed", "--acknowledged", "acks.yaml", "--format", fmt)
        assert code == 0, fmt
        assert "value-changed--fake-1-0--plan-a--fakealpha--0000beef" in out and "matches no change" in err, fmt


def test_an_empty_or_missing_acknowledgements_file(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    (repo / "acks.yaml").write_text("# nothing acknowledged yet\n", encoding="utf-8")
    assert run(capsys, "--fail-on", "value-changed", "--acknowledged", "acks.yaml")[0] == 1
    code, out, err = run(capsys, "--fail-on", "value-changed", "--acknowledged", "no-such.yaml")
    assert code == 2 and out == "" and "--acknowledged: cannot read no-such.yaml" in err


PAIRS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE = read_docs(FIXTURE_CATALOG)


@PAIRS
@given(st.data())
def test_the_gate_fails_exactly_on_selected_unacknowledged_changes(data: st.DataObject) -> None:
    _gate_fails_exactly_on_selected_unacknowledged_changes(data, loaded_from_memory)


@settings(max_examples=1, deadline=None)
@given(st.data())
def test_the_gate_fails_exactly_on_selected_unacknowledged_changes_loaded_from_files(data: st.DataObject) -> None:
    """The property's examples load their catalogues from memory (catalog_edits.load_docs, as a git revision's
    are loaded); this one loads them from folders, as `check` does."""
    _gate_fails_exactly_on_selected_unacknowledged_changes(data, loaded_from_files)


def _gate_fails_exactly_on_selected_unacknowledged_changes(
        data: st.DataObject, load: Callable[..., list[Catalog]]) -> None:
    a_docs, _ = edited(BASE, data, 0, 2)
    b_docs, _ = edited(a_docs, data, 1, 4)
    a, b = load(a_docs, b_docs)
    cmp = compare_catalogs(a, b, "main")
    kinds = data.draw(st.sets(st.sampled_from(KIND_IDS)))
    scope = data.draw(st.sampled_from(["any", "published"]))
    selectors = tuple(Selector(kind=k, scope=scope) for k in sorted(kinds))  # type: ignore[arg-type]
    published = frozenset(v.label for v in a.versions if not v.draft)
    named = data.draw(st.sets(st.sampled_from([c.id for c in cmp.changes]))) if cmp.changes else set()
    # Some pasted with the reason still empty: they acknowledge nothing, and the review names them.
    empty = data.draw(st.sets(st.sampled_from(sorted(named)))) if named else set()
    acked = named - empty
    stale = [Acknowledgement(id=f"label-added--fake-gone--{n:08x}", reason="Fake.") for n in range(2)]
    blank = Problem(file="acks.yaml", line=2, column=10, key_path="acknowledged[0].reason",
                    expected="a reason (non-empty text)", found="nothing")
    acks = (*(Acknowledgement(id=i, reason="", missing=blank) if i in empty else Acknowledgement(id=i, reason="Fake.")
              for i in sorted(named)), *stale)
    got = review(cmp, selectors, acks, published)
    assert {a.id for a in got.unreasoned} == empty and not empty & got.acknowledged.keys()
    picked = [c for c in cmp.changes if c.kind in kinds and (scope == "any" or c.label in published)]
    covered = _implied(cmp.changes, acked)
    assert got.covered.keys() == covered - acked
    assert list(got.failing) == [c for c in picked if c.id not in acked | covered]
    assert got.passed == all(c.id in acked | covered for c in picked)
    # One acknowledgement per decision lets everything through.
    settle = tuple(Acknowledgement(id=i, reason="Fake.") for i in {i for d in got.decisions if d.held for i in d.ids}
                   | acked)
    assert review(cmp, selectors, settle, published).passed


def _implied(changes: tuple, acked: set[str]) -> set[str]:
    """What the acknowledged records cover, read off the order and grouping of the records (an oracle apart from
    the gate's rules): an added or removed plan entry listing is followed by its value records, grouped under the
    same label and plan entry; an added or removed label by its listings and their values, under that label."""
    out: set[str] = set()
    label: tuple[str | None, str] | None = None
    plan: tuple[str | None, str | None, str] | None = None
    for c in changes:
        if c.kind in ("label-added", "label-removed"):
            label, plan = (c.label, c.id) if c.id in acked else None, None
            continue
        if label is not None and c.label != label[0]:
            label = None
        if c.kind in ("plan-added", "plan-removed"):
            plan = (c.label, c.plan, c.id) if c.id in acked else None
            if label is not None:
                out.add(c.id)
        elif c.kind.startswith("value-") and (label is not None
                                              or (plan is not None and (c.label, c.plan) == plan[:2])):
            out.add(c.id)
    return out
