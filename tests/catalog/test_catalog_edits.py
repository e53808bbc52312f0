"""A legitimate edit of the real catalogue fails the source-facts tests and nothing else.

Two pieces hold it, neither of which runs the suite again:

- tests/guards.py fails any test that reads the project's own catalog/ without the `real_catalog` mark, so
  every other test runs on fixture catalogues and cannot notice an edit of catalog/;
- this file makes the edits a catalogue maintainer makes every day (a version label added with
  `catalog-docs new-label`, as the README says, and one lock value changed) in a fresh copy of the project, and
  runs the marked tests there (a few dozen, less a case whose catalogue reading another case repeats:
  SAME_DATA_AS) in a nested pytest.

An edit is judged by what it changes: the edited copy must collect the marked tests the unedited project collects
(this run's own collection, when it collected their files whole as `make test` does; else an unedited copy's), a
test that passed on the unedited copy and fails on the edited one must be a source-facts test, and the
source-facts tests named below must fail saying, in a reviewer's words, how the catalogue now differs from the
source. Tests that already failed before the edit (the real catalogue may already depart from the source, a label
it does not show yet added) are not the edit's doing. Only the tests that did not pass on the edited copy need
their unedited outcome, and only those that are not source-facts tests (a source-facts test may fail after a
legitimate edit whatever it did before): the unedited copy runs just them, usually none. (The suite itself runs
every marked test on the unedited project; running them all a second time here, on a copy, would tell nothing
more.)
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
import yaml

from catalog_docs import cli
from sitebuild import clone_project, copy_env

SOURCE_FACTS = "tests/catalog/test_source_facts.py::"
THIS = "tests/catalog/test_catalog_edits.py"
NESTED_ARGS = ["-m", "real_catalog", "--ignore", THIS, "-p", "no:cacheprovider", "-q"]
"""The nested selection: the tests that read the real catalogue (tests/guards.py allows no other to), less this
file (which would run itself again)."""
SAME_DATA_AS = {
    "tests/site/test_zensical_search.py::test_on_the_real_catalogue_each_query_finds_its_page_first[phone]":
        "tests/site/test_zensical_search.py::test_on_the_real_catalogue_each_query_finds_its_page_first[wide]",
    "tests/site/test_real_reading.py::test_every_reader_task_is_answered_on_the_real_site[phone]":
        "tests/site/test_real_reading.py::test_every_reader_task_is_answered_on_the_real_site[desktop]",
}
"""Marked cases the edited copy does not run again, each with the case of the selection that reads the same of the
catalogue: the phone's Zensical search types the wide screen's queries into the same index and ranks them with the
same script; what it adds (the search opened from the header's icon on a 390 px touch screen) is the theme's and
the viewport's, not the catalogue's, and the suite runs it on the real catalogue. The phone's reader tasks ask the
desktop's questions, worked out from the same catalogue, of the same pages. The unedited copy collects both,
so a renamed case fails here rather than running twice unnoticed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What a nested pytest run did: every test id with its outcome, and the message of each failure."""

    outcomes: dict[str, str]
    messages: dict[str, str]
    returncode: int
    output: str

    def ids(self, outcome: str) -> set[str]:
        return {t for t, o in self.outcomes.items() if o == outcome}


NOTHING_RUN = Outcome(outcomes={}, messages={}, returncode=0, output="(no test needed running on the unedited copy)")


def _test_id(case: ET.Element, project: Path) -> str:
    """The pytest node id of a JUnit test case (classname tests.site.test_x, or tests.site.test_x.TestClass for a
    test in a class; name test_y[param]): the module is the longest dotted prefix that is a file of the project."""
    parts = case.attrib["classname"].split(".")
    for end in range(len(parts), 0, -1):
        module = "/".join(parts[:end]) + ".py"
        if (project / module).is_file():
            return "::".join([module, *parts[end:], case.attrib["name"]])
    return case.attrib["classname"].replace(".", "/") + ".py::" + case.attrib["name"]


def start_nested(project: Path, report: Path, selection: list[str]) -> subprocess.Popen[str]:
    """Start the marked tests of `selection` (files or test ids) in a project copy; `finish_nested` waits for
    them."""
    # Its own temporary folder: pytest's shared numbered folders are pruned by whichever run starts last.
    skipped = [arg for case in SAME_DATA_AS for arg in ("--deselect", case)]
    cmd = [sys.executable, "-m", "pytest", *NESTED_ARGS, *skipped, "--junitxml", str(report),
           "--basetemp", str(report.parent / "tmp"), *selection]
    return subprocess.Popen(cmd, cwd=project, env=copy_env(project), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def finish_nested(run: subprocess.Popen[str], report: Path, project: Path) -> Outcome:
    try:
        output, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert report.is_file(), f"the nested pytest wrote no report:\n{output[-6000:]}"
    outcomes: dict[str, str] = {}
    messages: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        tid = _test_id(case, project)
        found = [child for child in case if child.tag in ("failure", "error", "skipped")]
        outcomes[tid] = found[0].tag if found else "passed"
        if found:
            messages[tid] = (found[0].attrib.get("message", "") + "\n" + (found[0].text or ""))
    return Outcome(outcomes=outcomes, messages=messages, returncode=run.returncode, output=output[-6000:])


def collect_nested(project: Path, folder: Path, files: list[str]) -> set[str]:
    """The ids of the marked tests of `files` that a project copy collects (none runs)."""
    cmd = [sys.executable, "-m", "pytest", *NESTED_ARGS, "--collect-only", "--basetemp", str(folder / "tmp"),
           *files]
    done = subprocess.run(cmd, cwd=project, env=copy_env(project), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the nested pytest could not collect the marked tests:\n{done.stdout[-6000:]}" \
        f"{done.stderr[-3000:]}"
    listed = done.stdout.split("\n\n", 1)[0]  # with -q: the ids, one a line; then a blank line and the count
    return {line for line in listed.splitlines() if "::" in line}


def rerun_on_unedited(after: Outcome, collected: set[str]) -> list[str]:
    """The tests whose outcome on the unedited copy the verdict needs: those of the selection that did not pass
    on the edited copy, less the source-facts tests (which may fail after a legitimate edit whatever they did
    before)."""
    return sorted(t for t, o in after.outcomes.items()
                  if o != "passed" and t in collected and not t.startswith(SOURCE_FACTS))


def assert_only_source_facts_change(collected: set[str], before: Outcome, after: Outcome,
                                    failing: dict[str, list[str]]) -> None:
    """The edit left the marked selection as an unedited copy collects it (`collected`) and every marked test as
    it was, except source-facts tests that now fail; the tests in `failing` fail after it, each saying what it
    should. `before` holds the unedited copy's outcomes of the tests `rerun_on_unedited` names."""
    assert set(after.outcomes) == collected, (
        f"the edited copy collected other tests than the unedited one: missing "
        f"{sorted(collected - set(after.outcomes))[:20]}, extra "
        f"{sorted(set(after.outcomes) - collected)[:20]}")
    assert collected, "the marked selection collected nothing"
    rerun = rerun_on_unedited(after, collected)
    unknown = [t for t in rerun if t not in before.outcomes]
    assert not unknown, f"these did not pass on the edited copy and were not run on the unedited one: {unknown}\n" \
        f"{before.output}"
    elsewhere = [t for t in rerun if before.outcomes[t] == "passed"]
    assert not elsewhere, "only source-facts tests may break after a legitimate catalogue edit; these did too:\n" + \
        "\n".join(f"{t} ({after.outcomes[t]}): {after.messages.get(t, '')[:1500]}" for t in elsewhere)
    assert all(t.startswith(SOURCE_FACTS) for t in failing)
    for test, sentences in failing.items():
        assert after.outcomes.get(test) == "failure", f"{test} should fail after the edit: {after.outcomes.get(test)}"
        for sentence in sentences:
            assert sentence in after.messages[test], \
                f"{test} should say {sentence!r}; it says:\n{after.messages[test]}"


def add_a_label(project: Path) -> dict[str, list[str]]:
    """A version label added as the README says (`catalog-docs new-label`); what the source facts must say."""
    service = yaml.safe_load((project / "catalog" / "service.yaml").read_text(encoding="utf-8"))
    last = service["version_labels"][-1]
    # Never the real next label, which may be added to catalog/ any day; like a real next label, it does not hold the
    # last one's name (a comparison titled with a label twice outranks that label's page in Zensical's search).
    new = f"{last.rsplit(' ', 1)[0]} 9.9.9-test-made"
    # cli.main in the copy, as the console script runs it (the README's examples run new-label end to end).
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(project), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["new-label", new, "--from", last])
    assert code == 0, out.getvalue() + err.getvalue()
    assert new in (project / "catalog" / "service.yaml").read_text(encoding="utf-8")
    # The label is a draft until checked against the source; once checked, the README says to delete the line.
    written = next((project / "catalog" / "versions").glob(f"{new.replace(' ', '-')}.yaml"))
    text = written.read_text(encoding="utf-8")
    assert "\ndraft: true\n" in text
    # As the README says: the copy is changed to what the source states (here, its first value), then checked.
    first = re.search(r": (close|unlimited)$", text, flags=re.M)
    assert first is not None, text
    flipped = "unlimited" if first.group(1) == "close" else "close"
    text = text[:first.start(1)] + flipped + text[first.end(1):]
    written.write_text(text.replace("\ndraft: true\n", "\n", 1), encoding="utf-8")
    return {
        "tests/catalog/test_source_facts.py::test_version_labels_and_their_plan_entries":
            [f"the catalogue lists version label {new}, which the source does not show (§9)"],
        "tests/catalog/test_source_facts.py::test_check_on_the_real_catalogue_prints_the_counts_of_the_source":
            [f"`catalog-docs check` counts {len(service['version_labels']) + 1} version labels, the source shows"],
    }


def change_a_value(project: Path) -> dict[str, list[str]]:
    """The first value of the first plan entry of the first version label, flipped; what the source facts say.
    (The first label: one the source shows, even when a label it does not show yet was added after the last.)"""
    versions = project / "catalog" / "versions"
    service = yaml.safe_load((project / "catalog" / "service.yaml").read_text(encoding="utf-8"))
    label = service["version_labels"][0]
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


def everyday_edits(project: Path) -> dict[str, list[str]]:
    """Both edits in one copy: each shows in its own source-facts tests and sentences, and a second edited copy
    would cost as much as the first (a build of the real site, the README's examples, a browser)."""
    return {**add_a_label(project), **change_a_value(project)}


def marked_files(tests: Path) -> list[str]:
    """The test files that use the mark (it is applied in the file that holds the test, as pytestmark or a
    decorator), less this one: the nested runs collect only these, not the whole suite."""
    return sorted(p.relative_to(tests.parent).as_posix() for p in tests.rglob("test_*.py")
                  if "real_catalog" in p.read_text(encoding="utf-8") and p.relative_to(tests.parent).as_posix() != THIS)


SELECTING_OPTIONS = ("keyword", "markexpr", "deselect", "lf", "stepwise")
"""pytest's options that leave tests of a collected file out of a run (-k, -m, --deselect, --last-failed,
--stepwise): with any of them set, this run's own collection is not taken for a whole one."""


def collected_in_this_run(session: pytest.Session, files: list[str]) -> set[str] | None:
    """The marked tests of `files` as this run collected them on the project itself (an unedited project, as the
    copy is before the edit), when it collected those files whole: each file named or under a folder named, no
    option selecting among their tests; else None (then a nested pytest collects them on the copy). `make test`
    collects every file, so its copy is collected once, by the edited run."""
    if any(getattr(session.config.option, name, None) for name in SELECTING_OPTIONS) or \
            any("::" in arg for arg in session.config.args):
        return None
    marked = {item.nodeid for item in session.items if item.get_closest_marker("real_catalog")}
    here = {item.nodeid.split("::", 1)[0] for item in session.items}
    if not set(files) <= here:
        return None
    return {test for test in marked if test.split("::", 1)[0] in files}


@dataclass(frozen=True, slots=True, kw_only=True)
class Runs:
    """What the nested runs found: the marked tests an unedited copy collects, the outcomes on the unedited copy of
    those `rerun_on_unedited` names, every outcome on the edited copy, and what its edits must fail."""

    collected: set[str]
    before: Outcome
    after: Outcome
    failing: dict[str, list[str]]


@pytest.fixture(scope="module")
def nested(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """The marked tests an unedited project collects (this run's own collection, or a copy's before its edit);
    the copy, edited, runs them (less SAME_DATA_AS); an unedited copy runs those the verdict needs its outcome of
    (usually none, so it is made only then)."""
    files = marked_files(Path(__file__).resolve().parents[1])
    edited_folder, unedited_folder = tmp_path_factory.mktemp("edited"), tmp_path_factory.mktemp("unedited")
    project = clone_project(edited_folder / "project")
    collected = collected_in_this_run(request.session, files)
    if collected is None:  # before the edit: what an unedited copy collects
        collected = collect_nested(project, unedited_folder, files)
    gone = [t for pair in SAME_DATA_AS.items() for t in pair if t not in collected]
    assert not gone, f"SAME_DATA_AS names cases the unedited copy does not collect: {gone}"
    collected -= set(SAME_DATA_AS)
    failing = everyday_edits(project)
    after = finish_nested(start_nested(project, edited_folder / "report.xml", files), edited_folder / "report.xml",
                          project)
    rerun = rerun_on_unedited(after, collected)
    before = NOTHING_RUN
    if rerun:
        unedited, report = clone_project(unedited_folder / "project"), unedited_folder / "report.xml"
        before = finish_nested(start_nested(unedited, report, rerun), report, unedited)
    return Runs(collected=collected, before=before, after=after, failing=failing)


@pytest.mark.site
@pytest.mark.real_catalog  # it copies the project, catalog/ included
def test_a_legitimate_edit_fails_only_the_source_facts(nested: Runs) -> None:
    assert len(nested.failing) == 3  # the label's two source-facts tests and the value's one
    assert not nested.before.ids("error"), f"marked tests had errors on the unedited copy:\n{nested.before.output}"
    files = {t.split("::", 1)[0] for t in nested.collected}
    for must in ("tests/catalog/test_source_facts.py", "tests/site/test_real_catalog_builds.py",
                 "tests/project/test_readme_examples.py"):
        assert must in files, f"{must} is not in the marked selection"
    assert_only_source_facts_change(nested.collected, nested.before, nested.after, nested.failing)


# --- the checker above fails when it should (so the tests above cannot pass vacuously) ----------------

_SF = SOURCE_FACTS + "test_x"
_SF2 = SOURCE_FACTS + "test_w"
_OTHER = "tests/site/test_real_catalog_builds.py::test_y"
_SAYS = {_SF: ["lists version label X"]}


def _outcome(**outcomes: str) -> Outcome:
    ids = {_SF: outcomes.get("sf", "failure"), _SF2: outcomes.get("sf2", "passed"),
           _OTHER: outcomes.get("other", "passed")}
    ids.update({f"tests/project/test_readme_examples.py::test_{k}": v for k, v in outcomes.items()
                if k.startswith("new")})
    return Outcome(outcomes=ids, messages={t: "the catalogue lists version label X" for t, o in ids.items()
                                           if o != "passed"}, returncode=1, output="")


CLEAN = _outcome(sf="passed")


def _check(before: Outcome, after: Outcome, failing: dict[str, list[str]]) -> None:
    """The checker, told what the fixture learns of an unedited copy whose marked tests do `before`: the tests it
    collects, and the outcomes of those the fixture runs there."""
    collected = set(before.outcomes)
    rerun = rerun_on_unedited(after, collected)
    ran = Outcome(outcomes={t: before.outcomes[t] for t in rerun},
                  messages={t: before.messages[t] for t in rerun if t in before.messages}, returncode=0, output="")
    assert_only_source_facts_change(collected, ran, after, failing)


@pytest.mark.parametrize(("before", "after", "failing"), [
    (CLEAN, _outcome(other="failure"), _SAYS),  # another test broke too
    (CLEAN, _outcome(other="error"), _SAYS),  # ...or errored
    (CLEAN, _outcome(other="skipped"), _SAYS),  # ...or was skipped by the edit
    (CLEAN, _outcome(sf="passed"), _SAYS),  # the source facts did not notice the edit
    (CLEAN, _outcome(newer="passed"), _SAYS),  # the edit changed which tests are collected
    (_outcome(sf="passed", newer="passed"), _outcome(), _SAYS),  # ...or a test vanished
    (CLEAN, _outcome(), {_SF: ["the source says unlimited"]}),  # the message says something else
], ids=["other-failure", "other-error", "skip", "not-noticed", "collected-more", "collected-fewer", "wrong-words"])
def test_the_checker_refuses(before: Outcome, after: Outcome, failing: dict[str, list[str]]) -> None:
    with pytest.raises(AssertionError):
        _check(before, after, failing)


def test_the_checker_refuses_a_verdict_without_the_unedited_outcome() -> None:
    """A test that did not pass on the edited copy, and whose outcome on the unedited one is unknown, is not taken
    as one that already failed."""
    after = _outcome(other="failure")
    with pytest.raises(AssertionError, match="not run on the unedited one"):
        assert_only_source_facts_change(set(after.outcomes), NOTHING_RUN, after, _SAYS)


def test_the_unedited_copy_runs_only_what_did_not_pass_on_the_edited_one_less_the_source_facts() -> None:
    newer = "tests/project/test_readme_examples.py::test_newer"
    after = _outcome(sf2="error", other="skipped", newer="failure", newest="passed")
    assert rerun_on_unedited(after, set(after.outcomes)) == [newer, _OTHER]
    assert rerun_on_unedited(after, set(after.outcomes) - {newer}) == [_OTHER]  # not collected there: refused above
    assert rerun_on_unedited(_outcome(), set(_outcome().outcomes)) == []


@pytest.mark.parametrize("before", [CLEAN, _outcome(sf2="failure", sf="passed"),
                                    _outcome(other="failure", sf="passed")],
                         ids=["clean", "source-facts-already-failing", "another-test-already-failing"])
def test_the_checker_accepts_exactly_the_expected_change(before: Outcome) -> None:
    """What failed before the edit (the real catalogue already departing from the source) is not the edit's."""
    after = _outcome(sf2=before.outcomes[_SF2], other=before.outcomes[_OTHER])
    _check(before, after, _SAYS)


# --- the unedited collection is this run's own only when this run collected the marked files whole ------------

class _Item:
    def __init__(self, nodeid: str, marked: bool) -> None:
        self.nodeid, self.marked = nodeid, marked

    def get_closest_marker(self, name: str) -> object | None:
        return object() if self.marked and name == "real_catalog" else None


_FILES = ["tests/catalog/test_source_facts.py", "tests/site/test_zensical_search.py"]
_ITEMS = [_Item(_SF, True), _Item(SOURCE_FACTS + "test_unmarked", False),
          _Item("tests/site/test_zensical_search.py::test_z[wide]", True), _Item(THIS + "::test_e", True),
          _Item("tests/site/test_other.py::test_o", True)]


def _session(items: list[_Item], args: tuple[str, ...] = ("tests",), **option: object) -> pytest.Session:
    options = {"keyword": "", "markexpr": "", "deselect": None, "lf": False, "stepwise": False, **option}
    return cast(pytest.Session, SimpleNamespace(items=items, config=SimpleNamespace(
        args=list(args), option=SimpleNamespace(**options))))


def test_this_runs_collection_is_taken_only_when_whole() -> None:
    assert collected_in_this_run(_session(_ITEMS), _FILES) == {_SF, "tests/site/test_zensical_search.py::test_z[wide]"}
    assert collected_in_this_run(_session(_ITEMS[:2]), _FILES) is None  # a marked file not collected
    assert collected_in_this_run(_session(_ITEMS, ("tests", _SF)), _FILES) is None  # a file's tests chosen by id
    for name, value in (("keyword", "facts"), ("markexpr", "real_catalog"), ("deselect", [_SF]), ("lf", True),
                        ("stepwise", True)):
        assert collected_in_this_run(_session(_ITEMS, **{name: value}), _FILES) is None, name
