"""A legitimate edit of the real catalogue fails the source-facts test and nothing else.

Each test copies the project, makes one edit a catalogue maintainer makes every day (a version label
added with `catalog-docs new-label`, as the README describes; one lock value changed), and runs the
non-browser test suite on the copy in a nested pytest. It then checks that:

- the nested run collected exactly the tests that the same selection collects on the unedited project
  (so no test vanished, was skipped or was deselected by the edit);
- every test passed except the source-facts tests named below, which failed;
- their failure messages say, in a reviewer's words, how the catalogue now differs from the source.

Page snapshots, site, diff and export tests run on fixture catalogues under tests/, so they pass.
Browser tests build the same fixture site as the non-browser site tests, so they are left out, and the
two nested runs go side by side, to keep this short.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from sitebuild import BIN, ROOT, clone_project, copy_env

pytestmark = pytest.mark.site

THIS = "tests/catalog/test_catalog_edits.py"
NESTED_ARGS = ["-m", "not browser and not serve", "-p", "no:cacheprovider", "--ignore", THIS]
"""The nested selection: every test but the browser and live-server ones (they run on fixture catalogues, never
on catalog/, and two nested runs side by side starve their timing) and this file (which would run itself again)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What a nested pytest run did: every test id with its outcome, and the message of each failure."""

    outcomes: dict[str, str]
    messages: dict[str, str]
    returncode: int
    output: str

    def ids(self, outcome: str) -> set[str]:
        return {t for t, o in self.outcomes.items() if o == outcome}


def _test_id(case: ET.Element) -> str:
    """The pytest node id of a JUnit test case (classname tests.test_x, name test_y[param])."""
    return case.attrib["classname"].replace(".", "/") + ".py::" + case.attrib["name"]


def start_nested(project: Path, report: Path) -> subprocess.Popen[str]:
    """Start the nested run in a project copy; `finish_nested` waits for it. The two edits run side by side."""
    # Its own temporary folder: pytest's shared numbered folders are pruned by whichever run starts last.
    cmd = [sys.executable, "-m", "pytest", *NESTED_ARGS, "-q", "--junitxml", str(report),
           "--basetemp", str(report.parent / "tmp")]
    return subprocess.Popen(cmd, cwd=project, env=copy_env(project), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def finish_nested(run: subprocess.Popen[str], report: Path) -> Outcome:
    output, _ = run.communicate(timeout=900)
    assert report.is_file(), f"the nested pytest wrote no report:\n{output[-6000:]}"
    outcomes: dict[str, str] = {}
    messages: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        tid = _test_id(case)
        found = [child for child in case if child.tag in ("failure", "error", "skipped")]
        outcomes[tid] = found[0].tag if found else "passed"
        if found:
            messages[tid] = (found[0].attrib.get("message", "") + "\n" + (found[0].text or ""))
    return Outcome(outcomes=outcomes, messages=messages, returncode=run.returncode, output=output[-6000:])


@pytest.fixture(scope="module")
def expected_ids() -> set[str]:
    """The tests the nested selection collects on the unedited project."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", *NESTED_ARGS], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    ids = {line for line in done.stdout.splitlines() if "::" in line}
    # Enough to be the whole suite: the loader, render, site, diff, export and source-facts tests.
    files = {i.split("::", 1)[0] for i in ids}
    for must in ("tests/catalog/test_source_facts.py", "tests/site/test_site_e2e.py",
                 "tests/site/test_render_snapshots.py", "tests/catalog/test_golden.py",
                 "tests/downloads/test_exports.py", "tests/site/test_real_catalog_builds.py"):
        assert must in files, f"{must} is not in the nested selection"
    assert len(ids) > 300, len(ids)
    return ids


def assert_only_source_facts_fail(result: Outcome, expected_ids: set[str], failing: dict[str, list[str]]) -> None:
    """The run collected every expected test; exactly `failing` failed, each saying what it should."""
    got = set(result.outcomes)
    assert got == expected_ids, (f"the nested run collected other tests than the unedited project: "
                                 f"missing {sorted(expected_ids - got)[:20]}, extra {sorted(got - expected_ids)[:20]}")
    assert not result.ids("error") and not result.ids("skipped"), (
        f"errors {sorted(result.ids('error'))}, skipped {sorted(result.ids('skipped'))}\n{result.output}")
    failed = result.ids("failure")
    unexpected = sorted(failed - set(failing))
    assert not unexpected, "only source-facts tests may fail after a legitimate catalogue edit; these did too:\n" + \
        "\n".join(f"{t}: {result.messages[t][:1500]}" for t in unexpected)
    assert failed == set(failing), \
        f"these source-facts tests should have failed but passed: {sorted(set(failing) - failed)}"
    assert all(t.startswith("tests/catalog/test_source_facts.py::") for t in failing)
    assert result.returncode == 1, result.output
    assert len(result.ids("passed")) == len(expected_ids) - len(failing)
    for test, sentences in failing.items():
        for sentence in sentences:
            assert sentence in result.messages[test], \
                f"{test} should say {sentence!r}; it says:\n{result.messages[test]}"


def add_a_label(project: Path) -> dict[str, list[str]]:
    """A version label added as the README says (`catalog-docs new-label`); what the source facts must say."""
    service = yaml.safe_load((project / "catalog" / "service.yaml").read_text(encoding="utf-8"))
    last = service["version_labels"][-1]
    new = f"{last} test-made"  # never the real next label, which may be added to catalog/ any day
    added = subprocess.run([str(BIN / "catalog-docs"), "new-label", new, "--from", last], cwd=project,
                           env=copy_env(project), capture_output=True, text=True, timeout=120)
    assert added.returncode == 0, added.stdout + added.stderr
    assert new in (project / "catalog" / "service.yaml").read_text(encoding="utf-8")
    # The label is a draft until checked against the source; once checked, the README says to delete the line.
    written = next((project / "catalog" / "versions").glob(f"{new.replace(' ', '-')}.yaml"))
    text = written.read_text(encoding="utf-8")
    assert "\ndraft: true\n" in text
    written.write_text(text.replace("\ndraft: true\n", "\n", 1), encoding="utf-8")
    return {
        "tests/catalog/test_source_facts.py::test_version_labels_and_their_plan_entries":
            [f"the catalogue lists version label {new}, which the source does not show (§9)"],
        "tests/catalog/test_source_facts.py::test_check_on_the_real_catalogue_prints_the_counts_of_the_source":
            [f"`catalog-docs check` counts {len(service['version_labels']) + 1} version labels, the source shows"],
    }


def change_a_value(project: Path) -> dict[str, list[str]]:
    """The first value of the first plan entry of the last version label, flipped; what the source facts say."""
    versions = project / "catalog" / "versions"
    service = yaml.safe_load((project / "catalog" / "service.yaml").read_text(encoding="utf-8"))
    label = service["version_labels"][-1]
    path = next(p for p in sorted(versions.glob("*.yaml"))
                if yaml.safe_load(p.read_text(encoding="utf-8"))["label"] == label)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    plan, body = next(iter(data["plans"].items()))
    key, old = next(iter(body["values"].items()))
    new = {"close": "unlimited", "unlimited": "close"}[old]
    text = path.read_text(encoding="utf-8")
    line = f"      {key}: {old}\n"
    assert line in text, line
    path.write_text(text.replace(line, f"      {key}: {new}\n", 1), encoding="utf-8")
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["plans"][plan]["values"][key] == new
    return {"tests/catalog/test_source_facts.py::test_every_value_under_every_label_and_plan_entry":
            [f"value of {key} under {label} / {plan} is {new}, the source says {old} (§8)"]}


EDITS = {"label-added": add_a_label, "value-changed": change_a_value}


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Outcome, dict[str, list[str]]]]:
    """Each edit made in its own fresh copy of the project, and the nested runs on them (side by side)."""
    started = {}
    for name, edit in EDITS.items():
        folder = tmp_path_factory.mktemp(name)
        project = clone_project(folder / "project")
        failing = edit(project)
        started[name] = (start_nested(project, folder / "report.xml"), folder / "report.xml", failing)
    return {name: (finish_nested(run, report), failing) for name, (run, report, failing) in started.items()}


@pytest.mark.parametrize("edit", EDITS)
def test_a_legitimate_edit_fails_only_the_source_facts(nested: dict[str, tuple[Outcome, dict[str, list[str]]]],
                                                       expected_ids: set[str], edit: str) -> None:
    result, failing = nested[edit]
    assert_only_source_facts_fail(result, expected_ids, failing)


# --- the checker above fails when it should (so the two tests above cannot pass vacuously) -------------

_SF = "tests/catalog/test_source_facts.py::test_x"
_OTHER = "tests/site/test_site_e2e.py::test_y"


def _outcome(**outcomes: str) -> Outcome:
    ids = {_SF: outcomes.get("sf", "failure"), _OTHER: outcomes.get("other", "passed")}
    return Outcome(outcomes=ids, messages={t: "the catalogue lists version label X" for t, o in ids.items()
                                           if o != "passed"}, returncode=1, output="")


@pytest.mark.parametrize(("outcome", "expected", "failing"), [
    (_outcome(other="failure"), {_SF, _OTHER}, {_SF: []}),  # another test failed too
    (_outcome(other="skipped"), {_SF, _OTHER}, {_SF: []}),  # a test was skipped
    (_outcome(sf="passed"), {_SF, _OTHER}, {_SF: []}),  # the source facts did not notice the edit
    (_outcome(), {_SF, _OTHER, "tests/catalog/test_golden.py::test_z"}, {_SF: []}),  # a test was not collected
    (_outcome(), {_SF, _OTHER}, {_SF: ["the source says unlimited"]}),  # the message says something else
], ids=["other-failure", "skip", "not-noticed", "not-collected", "wrong-words"])
def test_the_checker_refuses(outcome: Outcome, expected: set[str], failing: dict[str, list[str]]) -> None:
    with pytest.raises(AssertionError):
        assert_only_source_facts_fail(outcome, expected, failing)


def test_the_checker_accepts_exactly_the_expected_failure() -> None:
    assert_only_source_facts_fail(_outcome(), {_SF, _OTHER}, {_SF: ["lists version label X"]})
