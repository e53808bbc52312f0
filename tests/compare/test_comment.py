"""The pull-request comment as GitHub shows it (`catalog-docs diff --format markdown`), rendered with cmarkgfm,
GitHub's own Markdown library: the verdict and what needs a decision first, the ids to acknowledge as YAML
ready to paste, one acknowledgement per decision, a comment kept whole within --max-chars, and nothing in it
that GitHub would turn into a mention or a link to an issue."""

from __future__ import annotations

import re
import subprocess
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
import yaml

from catalog_docs import cli
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Comparison, compare_catalogs
from catalog_docs.compare.formats import COMMENT_BUDGET, Notes, format_markdown
from catalog_docs.compare.gate import Acknowledgement, parse_fail_on, review
from fake_catalogs import write_catalog
from review_cases import GATE, decision_pair, decision_spec, mass_pair

BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "li", "summary", "pre"}


class _Rendered(HTMLParser):
    """The rendered comment as lines (one per paragraph, heading, table row, list item, fold title) and its
    text outside code, pre and links (where GitHub looks for mentions and references)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.free: list[str] = []
        self.open: list[str] = []
        self.details = 0
        self.closed = 0
        self._line: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)
        self.details += tag == "details"

    def handle_endtag(self, tag: str) -> None:
        self.closed += tag == "details"
        if tag in BLOCKS and self._line:
            self.lines.append(" ".join("".join(self._line).split()))
            self._line = []
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if any(t in BLOCKS for t in self.open):
            self._line.append(data)
        if not {"code", "pre", "a"} & set(self.open):
            self.free.append(data)


def render(markdown: str) -> _Rendered:
    """As GitHub renders a comment: GFM with its raw HTML (its sanitizer keeps <details>, <summary>, <code>)."""
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    parsed = _Rendered()
    parsed.feed(html)
    return parsed


def _comment(cmp: Comparison, acks: tuple[Acknowledgement, ...] = (), max_chars: int = COMMENT_BUDGET,
             published: frozenset[str] | None = None) -> tuple[str, object]:
    labels = published if published is not None else frozenset(v for v in ("FAKE 1.0", "FAKE 1.1"))
    r = review(cmp, parse_fail_on(GATE), acks, labels)
    return format_markdown(cmp, Notes(review=r, max_chars=max_chars)), r


@pytest.fixture
def decision(tmp_path: Path) -> Comparison:
    old, new = decision_pair(tmp_path)
    return compare_catalogs(old, new, "origin/main", "fake-branch")


def test_the_verdict_and_what_needs_a_decision_come_first_within_40_rendered_lines(decision: Comparison) -> None:
    # Was: 25 ids of ~70 characters in one paragraph under "Review gate", before any table.
    md, _ = _comment(decision)
    lines = render(md).lines
    assert lines[0] == "Catalogue diff: origin/main → fake-branch"
    assert lines[1] == "Review gate holds 26 changes (2 decisions) until they are acknowledged."
    table = lines.index("Needs a decision Held Acknowledge")
    rows = lines[table + 1:table + 3]
    assert rows == ["Values changed under FAKE 1.1, plan entry PLAN A: close → unlimited 2 2 ids",
                    "Plan entry PLAN B no longer listed under FAKE 1.1 24 its one id (covers its 23 values)"]
    assert table + 2 < 40
    # Then the ids, folded, with where they go, before the diff itself.
    fold = lines.index("3 ids to acknowledge, as YAML for .github/catalog-acknowledged.yaml")
    assert fold < lines.index("26 differences.") < 40
    assert lines[fold + 1].startswith("Once each change is checked, add these lines to "
                                      ".github/catalog-acknowledged.yaml in this pull request")
    # Each of the 23 values says it goes with its plan entry's decision, not with an id of its own.
    assert md.count("(needs acknowledgement, with its plan entry)") == 23


def _pasted(md: str) -> list[dict[str, object]]:
    block = re.search(r"```yaml\n(.*?)```", md, re.DOTALL)
    assert block is not None
    return yaml.safe_load(block.group(1))


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, draft: bool = False) -> Path:
    """A git repository whose HEAD holds the earlier side of `decision_spec` and whose working tree the later one
    (with `draft`, also a new label FAKE 2.0 made by new-label: a draft)."""
    repo = tmp_path / "repo"

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=Fake", "-c", "user.email=fake@example.invalid", *args], cwd=repo,
                       check=True, capture_output=True)
    old, new = decision_spec()
    write_catalog(repo / "catalog", old)
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "fake")
    write_catalog(repo / "catalog", new)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("SITE_URL", raising=False)
    if draft:
        assert cli.main(["new-label", "FAKE 2.0", "--from", "FAKE 1.1"]) == 0
    return repo


def test_the_pasted_yaml_holds_until_each_reason_is_written_and_the_verdict_names_its_lines(
        decision: Comparison, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: the pasted YAML with its reasons still empty made the whole comment "could not compare (exit 2)".
    md, _ = _comment(decision)
    items = _pasted(md)
    assert [set(i) for i in items] == [{"id", "reason"}] * 3 and all(i["reason"] is None for i in items)
    repo = _repo(tmp_path, monkeypatch)
    acks = repo / "acks.yaml"
    block = re.search(r"```yaml\n(.*?)```", md, re.DOTALL)
    assert block is not None
    acks.write_text(block.group(1), encoding="utf-8")
    gate = ["diff", "--against", "HEAD", "--fail-on", GATE, "--acknowledged", "acks.yaml"]
    # As pasted: a comment all the same, whose verdict names the lines that need a reason; the gate still holds.
    assert cli.main([*gate, "--format", "markdown"]) == 1
    out, err = capsys.readouterr()
    lines = render(out).lines
    assert lines[1:4] == ["Not ready to merge:",
                          "Review gate holds 26 changes (2 decisions) until they are acknowledged.",
                          "Lines 2, 4 and 6 of acks.yaml acknowledge changes without a reason: write why each is "
                          "right there."]
    assert "(needs acknowledgement: the reason on line 6 is empty)" in out
    # Each is reported where it is, as a warning, at file:line:column.
    assert "acks.yaml:2:10: acknowledged[0].reason: expected a reason (non-empty text), found nothing" in err
    assert "Traceback" not in err
    # One reason written: its change passes, the other two lines are still named.
    filled = block.group(1).replace("reason:  # why this change is right", "reason: Fake, checked.", 1)
    acks.write_text(filled, encoding="utf-8")
    assert cli.main([*gate, "--format", "markdown"]) == 1
    assert "Lines 4 and 6 of `acks.yaml` acknowledge changes without a reason" in capsys.readouterr().out
    # With a reason each: three acknowledgements pass 26 changes.
    acks.write_text(yaml.safe_dump([{"id": i["id"], "reason": "Fake: checked."} for i in items]), encoding="utf-8")
    assert cli.main([*gate, "--format", "markdown"]) == 0
    out, err = capsys.readouterr()
    assert "**Review gate passes: no change it selects is left unacknowledged.**" in out and err == ""
    assert "Acknowledged: 3 changes, each marked with its reason; they cover 23 more changes" in out
    assert out.count("(covered by its plan entry&#39;s acknowledgement: Fake&#58; checked&#46;)") == 23 or \
        out.count("covered by its plan entry's acknowledgement: Fake&#58; checked&#46;") == 23


def test_a_draft_label_in_the_branch_is_part_of_the_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: "Review gate passes" on a branch that adds a draft label, which publishing refuses.
    repo = _repo(tmp_path, monkeypatch, draft=True)
    capsys.readouterr()  # what new-label printed
    gate = ["diff", "--against", "HEAD", "--fail-on", GATE, "--format", "markdown"]
    assert cli.main(gate) == 1
    lines = render(capsys.readouterr().out).lines
    draft = ("Adds draft label FAKE 2.0: publishing refuses it until draft: true is removed from "
             "catalog/versions/FAKE-2.0.yaml.")
    assert lines[1:4] == ["Not ready to merge:", draft,
                          "Review gate holds 26 changes (2 decisions) until they are acknowledged."]
    # Every change acknowledged: the gate passes, and the draft is still the verdict, with the gate's pass after it.
    md, _ = _comment(compare_catalogs(*decision_pair(tmp_path / "pair"), "HEAD"))
    acks = repo / "acks.yaml"
    acks.write_text(yaml.safe_dump([{"id": i["id"], "reason": "Fake."} for i in _pasted(md)]), encoding="utf-8")
    assert cli.main([*gate, "--acknowledged", "acks.yaml"]) == 0
    lines = render(capsys.readouterr().out).lines
    assert lines[1] == "Not ready to merge: a" + draft[1:]
    assert lines[2] == "Review gate passes: no change it selects is left unacknowledged."
    # Published: no draft left, nothing blocks.
    version = repo / "catalog" / "versions" / "FAKE-2.0.yaml"
    version.write_text(version.read_text(encoding="utf-8").replace("draft: true\n", ""), encoding="utf-8")
    assert cli.main([*gate, "--acknowledged", "acks.yaml"]) == 0
    assert render(capsys.readouterr().out).lines[1] == "Review gate passes: no change it selects is left " \
                                                       "unacknowledged."


def test_the_gate_is_said_in_words_not_as_its_flags(decision: Comparison) -> None:
    # Was: "It selects --fail-on `value-changed:published,…,entry-changed`".
    md, _ = _comment(decision)
    rule = next(line for line in render(md).lines if line.startswith("It holds"))
    assert rule == ("It holds, until each is acknowledged with a reason, these changes to a version label already "
                    "published (not a draft): values changed, values no longer listed, plan entry listings removed, "
                    "plan entries changed, version labels removed, version labels changed; and these anywhere: "
                    "listing entries removed, listing entries changed. Acknowledging a plan entry's or a label's "
                    "removal or addition covers the values it implies.")
    assert "--fail-on" not in md.split("#### ")[0] and ":published" not in md


def test_one_acknowledgement_of_a_removal_covers_its_values_and_partial_and_stale_stay_reported(
        decision: Comparison) -> None:
    plan = next(c for c in decision.changes if c.kind == "plan-removed")
    values = [c for c in decision.changes if c.kind == "value-removed"]
    changed = [c for c in decision.changes if c.kind == "value-changed"]
    md, r = _comment(decision, (Acknowledgement(id=plan.id, reason="Fake: retired."),))
    assert r.covered == {c.id: plan.id for c in values}  # type: ignore[attr-defined]
    assert [c.id for c in r.failing] == [c.id for c in changed]  # type: ignore[attr-defined]
    assert "Review gate holds 2 changes (1 decision)" in md
    # One of two changed values acknowledged: the decision stays, and says it is partly done.
    stale = Acknowledgement(id="value-changed--fake-9-9--plan-z--fakegone--0000beef", reason="Fake: old.")
    md, r = _comment(decision, (Acknowledgement(id=changed[0].id, reason="Fake: fine."), stale))
    row = next(x for x in md.splitlines() if x.startswith("| Values changed under"))
    assert "| 1 of 2 (1 acknowledged) | 1 id |" in row
    assert "Stale: 1 acknowledgement" in md and stale.id in md
    # Acknowledging a value does not cover its plan entry's removal: that is another decision.
    assert any(c.id == plan.id for c in r.failing)  # type: ignore[attr-defined]


def test_acknowledging_a_label_removal_covers_its_plan_entry_listings_and_values(tmp_path: Path) -> None:
    old, new = decision_spec()
    new = {**old, "labels": {"FAKE 1.0": old["labels"]["FAKE 1.0"]}}
    a = compare_catalogs(load_catalog(write_catalog(tmp_path / "old", old)),
                         load_catalog(write_catalog(tmp_path / "new", new)), "main")
    label = next(c for c in a.changes if c.kind == "label-removed")
    _, r = _comment(a, (Acknowledgement(id=label.id, reason="Fake."),))
    assert r.passed  # type: ignore[attr-defined]
    assert set(r.covered) == {c.id for c in a.changes if c is not label}  # type: ignore[attr-defined]
    md, r = _comment(a)
    assert "| Version label `FAKE 1.1` removed | 49 | its one id (covers its 48 plan entry listings and values) |" \
        in md


@pytest.mark.parametrize("max_chars", [COMMENT_BUDGET, 20_000, 4_000])
def test_the_largest_comment_stays_whole_within_max_chars(tmp_path: Path, max_chars: int) -> None:
    old, new = mass_pair(tmp_path)
    cmp = compare_catalogs(old, new, "origin/main", "fake-branch-ä")
    assert len(cmp.changes) > 2_000
    md, _ = _comment(cmp, max_chars=max_chars, published=frozenset(v.label for v in old.versions))
    assert len(md) <= max_chars  # characters, not bytes: the branch name is not ASCII
    shown = render(md)
    assert shown.details == shown.closed == md.count("<details>") == md.count("</details>")
    # The footer is last, whole, and names the command that prints everything.
    assert shown.lines[-1].startswith("Left out to keep this comment under ") and \
        shown.lines[-1].endswith("every id the gate holds).")
    assert "catalog-docs diff --against origin/main --format json" in shown.lines[-1]
    # Cut only between records: every table row has all its cells, every YAML item is whole and parses.
    for line in md.splitlines():
        if line.startswith("| ") and not line.startswith("| Change |") and "---" not in line:
            assert line.endswith(" |") and line.count(" | ") in (1, 2, 4), line
    items = _pasted(md) if "```yaml" in md else []
    assert items or max_chars < 20_000  # the smallest comments have room for little more than the decisions
    assert all(set(i) == {"id", "reason"} for i in items)
    ids = {c.id for c in cmp.changes}
    assert all(i["id"] in ids for i in items)
    # The verdict and the decisions always stay.
    assert shown.lines[1].startswith("Review gate holds ")


def test_the_workflow_posts_what_the_tool_wrote() -> None:
    workflow = (Path(__file__).resolve().parents[2] / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    assert "head -c" not in workflow and "diff.cut" not in workflow
    assert "--max-chars 64000" in workflow
    steps = yaml.safe_load(workflow)["jobs"]["diff-comment"]["steps"]
    gate = next(s["env"]["GATE"] for s in steps if "GATE" in s.get("env", {}))
    assert gate.replace(" ", "") == GATE  # the policy the tests here run


MENTION = re.compile(r"(?:^|\W)@[a-z0-9]", re.IGNORECASE)
"""GitHub's mention filter: `@` then a user or team name, outside code, pre and links."""
ISSUE = re.compile(r"(?:^|\W)(?:[\w.-]+/[\w.-]+)?#\d|\bGH-\d", re.IGNORECASE)
"""GitHub's issue and pull request references: `#12`, `owner/repo#12`, `GH-12`."""


def test_nothing_in_the_comment_mentions_anyone_or_links_an_issue(tmp_path: Path) -> None:
    old, new = decision_pair(tmp_path)
    cmp = compare_catalogs(old, new, "origin/main")
    cmp = replace(cmp, after=replace(cmp.after, name="fix-#12 for @fake-user (GH-7, fake/repo#9)"))
    plan = next(c for c in cmp.changes if c.kind == "plan-removed")
    reason = "Agreed with @fake-reviewer in #34 and fake/repo#35, see GH-36"
    stale = Acknowledgement(id="plan-removed--fake-0--plan-z--0000beef", reason="ping @fake-team #1")
    md, _ = _comment(cmp, (Acknowledgement(id=plan.id, reason=reason), stale))
    shown = render(md)
    free = "".join(shown.free)
    assert not MENTION.search(free), MENTION.search(free)
    assert not ISSUE.search(free), ISSUE.search(free)
    # Every one of them is still there to read, with an invisible word joiner after the @ or #.
    text = free.replace("\u2060", "")
    for words in ("fix-#12 for @fake-user (GH-7, fake/repo#9)", "@fake-reviewer in #34", "ping @fake-team #1"):
        assert words in text or words.replace("(", "").replace(")", "") in text, words
