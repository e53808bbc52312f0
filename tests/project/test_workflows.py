"""The GitHub Actions workflow passes actionlint (with ShellCheck over its `run:` scripts) and zizmor (at the
regular and pedantic personas), and does what the README says: check, tests and one diff comment updated in
place on a pull request; Pages deploy from main. The shell scripts CI runs pass ShellCheck too."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
CI = ROOT / ".github" / "workflows" / "ci.yml"


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run([str(BIN / "actionlint"), "-color=false", f"-shellcheck={BIN / 'shellcheck'}",
                           *map(str, files)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)


def test_workflows_pass_actionlint() -> None:
    assert WORKFLOWS, "no workflow under .github/workflows/"
    result = actionlint(*WORKFLOWS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_and_shellcheck_catch_mistakes(tmp_path: Path) -> None:
    """The lint is live: a bad expression and an unquoted variable in a run: script are both reported."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ github.nope }}\n"
                   "      - run: rm -rf $FOLDER/\n", encoding="utf-8")
    out = actionlint(bad).stdout
    assert '"nope"' in out and "SC2086" in out, out


@pytest.mark.parametrize("script", [".ci/run", *sorted(p.relative_to(ROOT).as_posix()
                                                       for p in (ROOT / "scripts").glob("*.sh"))])
def test_ci_shell_scripts_pass_shellcheck(script: str) -> None:
    result = subprocess.run([str(BIN / "shellcheck"), script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def _runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_pull_requests_get_checks_tests_and_one_diff_comment() -> None:
    ci = yaml.safe_load(CI.read_text(encoding="utf-8"))
    triggers = ci[True]  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in triggers and triggers["push"]["branches"] == ["main"]
    test = ci["jobs"]["test"]
    assert "make check" in _runs(test) and "bash .ci/run" in _runs(test)
    comment = ci["jobs"]["diff-comment"]
    assert "github.event_name == 'pull_request'" in comment["if"]
    assert comment["permissions"]["pull-requests"] == "write"
    script = _runs(comment)
    assert ('catalog-docs diff --against "origin/$BASE_REF" --new-name "$HEAD_REF" --format markdown \\\n'
            '    --max-chars 64000 --fail-on "$GATE" "${acknowledged[@]}"') in script
    assert "head -c" not in script  # the tool keeps the comment whole; the workflow posts it as written
    # One comment per pull request: found by its marker and edited (PATCH); posted only when missing.
    assert script.count("<!-- catalog-docs-diff -->") == 2
    assert "--method PATCH" in script and script.index("--method PATCH") < script.index("--method POST")


def test_the_diff_comment_names_the_head_branch_and_gates_the_pull_request() -> None:
    from catalog_docs.compare.gate import parse_fail_on

    steps = yaml.safe_load(CI.read_text(encoding="utf-8"))["jobs"]["diff-comment"]["steps"]
    names = [step.get("name", "") for step in steps]
    diff = next(step for step in steps if step.get("id") == "diff")
    assert diff["env"]["HEAD_REF"] == "${{ github.head_ref }}"  # the pull request's branch, through env:
    selectors = {str(s) for s in parse_fail_on(diff["env"]["GATE"])}  # every selector is a real kind
    assert {"value-changed:published", "label-removed:published", "entry-removed"} <= selectors
    assert not any(s.startswith(("label-added", "plan-added", "value-added", "entry-added")) for s in selectors)
    # The gate fails the job only after the comment is posted, so the reviewer reads what it holds.
    fail = next(i for i, step in enumerate(steps) if step.get("if") == "steps.diff.outputs.status != '0'")
    assert fail == len(steps) - 1 and names.index("Post the comment, or update the one posted before") < fail


def test_main_builds_and_deploys_pages_after_the_tests() -> None:
    jobs = yaml.safe_load(CI.read_text(encoding="utf-8"))["jobs"]
    build, deploy = jobs["pages-build"], jobs["pages-deploy"]
    assert "refs/heads/main" in build["if"] and build["needs"] == "test"
    assert "make site" in _runs(build)
    assert any(step.get("uses", "").startswith("actions/upload-pages-artifact@") for step in build["steps"])
    assert deploy["needs"] == "pages-build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(step.get("uses", "").startswith("actions/deploy-pages@") for step in deploy["steps"])


# --- the workflow's own security (zizmor) ----------------------------------------------------------------

DEPENDABOT = ROOT / ".github" / "dependabot.yml"
SHA_PIN = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def zizmor(*paths: Path, persona: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "zizmor"), "--offline", "--no-progress", "--format", "json",
                           f"--persona={persona}", *map(str, paths)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("persona", ["regular", "pedantic"])
def test_zizmor_finds_nothing(persona: str) -> None:
    result = zizmor(ROOT / ".github", persona=persona)
    findings = json.loads(result.stdout or "[]")
    assert [(f["ident"], f["desc"]) for f in findings] == [], result.stderr
    assert result.returncode == 0, result.stderr


def test_zizmor_is_live(tmp_path: Path) -> None:
    """The audit runs for real: an action on a tag, a checkout that keeps its token and an expression
    expanded inside a script are each reported."""
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text("on: pull_request\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
                   "    permissions: {}\n    steps:\n      - uses: actions/checkout@v6\n"
                   "      - run: echo ${{ github.head_ref }}\n", encoding="utf-8")
    found = {f["ident"] for f in json.loads(zizmor(bad, persona="pedantic").stdout)}
    assert {"unpinned-uses", "artipacked", "template-injection"} <= found, found


def _steps() -> list[dict]:
    jobs = yaml.safe_load(CI.read_text(encoding="utf-8"))["jobs"]
    return [step for job in jobs.values() for step in job.get("steps", [])]


def test_actions_are_pinned_to_commits_with_their_version_named() -> None:
    text = CI.read_text(encoding="utf-8")
    uses = [step["uses"] for step in _steps() if "uses" in step]
    assert uses and all(SHA_PIN.match(u) for u in uses), uses
    for ref in uses:  # the version beside each SHA, for the reader and for Dependabot
        assert re.search(re.escape(ref) + r"\s+# v\d+\.\d+\.\d+\n", text), ref


def test_checkouts_drop_their_credentials_and_scripts_expand_nothing() -> None:
    checkouts = [s for s in _steps() if s.get("uses", "").startswith("actions/checkout@")]
    assert checkouts and all(s["with"]["persist-credentials"] is False for s in checkouts)
    assert all("${{" not in s.get("run", "") for s in _steps())  # values reach scripts through env:


def test_every_job_states_its_permissions_and_the_container_is_pinned() -> None:
    ci = yaml.safe_load(CI.read_text(encoding="utf-8"))
    assert ci["permissions"] == {}
    assert all("permissions" in job for job in ci["jobs"].values())
    image = ci["jobs"]["test"]["container"]["image"]
    assert re.fullmatch(r"python:3\.11-bookworm@sha256:[0-9a-f]{64}", image), image


def test_dependabot_keeps_actions_and_python_packages_current() -> None:
    config = yaml.safe_load(DEPENDABOT.read_text(encoding="utf-8"))
    ecosystems = {u["package-ecosystem"]: u for u in config["updates"]}
    assert set(ecosystems) == {"github-actions", "pip"}
    assert all(u["directory"] == "/" and u["schedule"]["interval"] for u in ecosystems.values())
