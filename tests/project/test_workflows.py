"""The GitHub Actions workflow passes actionlint (with ShellCheck over its `run:` scripts), and does what the
README says: check, tests and one diff comment updated in place on a pull request; Pages deploy from main.
The shell scripts CI runs pass ShellCheck too."""

from __future__ import annotations

import os
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
                                                       for p in (ROOT / "scripts").glob("ensure-*.sh"))])
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
    assert 'catalog-docs diff --against "origin/$BASE_REF" --format markdown' in script
    # One comment per pull request: found by its marker and edited (PATCH); posted only when missing.
    assert script.count("<!-- catalog-docs-diff -->") == 2
    assert "--method PATCH" in script and script.index("--method PATCH") < script.index("--method POST")


def test_main_builds_and_deploys_pages_after_the_tests() -> None:
    jobs = yaml.safe_load(CI.read_text(encoding="utf-8"))["jobs"]
    build, deploy = jobs["pages-build"], jobs["pages-deploy"]
    assert "refs/heads/main" in build["if"] and build["needs"] == "test"
    assert "make site" in _runs(build)
    assert any(step.get("uses", "").startswith("actions/upload-pages-artifact@") for step in build["steps"])
    assert deploy["needs"] == "pages-build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(step.get("uses", "").startswith("actions/deploy-pages@") for step in deploy["steps"])
