"""The README's shell examples run as written, in order, in a fresh copy of the project.

Every line of every ```sh (or bash, shell, console) block of README.md is a command. They run one after
the other in one bash session (so `source .venv/bin/activate` carries over), in a fresh clone of the
project whose `.venv` is this checkout's, with no `.venv/bin` on PATH: a command the README does not say
how to reach fails as "command not found". Each must exit 0.

An example opts out only with a visible marker in its comment, and only for one of two reasons:

- `(starts a server)`: it serves until stopped (`make serve`);
- `(needs the network)`: it installs from package registries (`make test`, which also runs this test).

Which examples opt out is listed in OPTED_OUT below, so a new opt-out is a reviewed change of this file.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from sitebuild import ROOT, borrow_venv, clone_project, copy_env

README = ROOT / "README.md"
FENCE = re.compile(r"^```(sh|bash|shell|console)\s*$")
MARKERS = {"(starts a server)": "server", "(needs the network)": "network"}
"""The visible opt-out markers and their reasons; nothing else lets an example be skipped."""
OPTED_OUT = {"make serve": "server", "make test": "network"}
"""The examples that do not run here (the command before its comment), with why."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """One shell command of the README: where it is, what it says, and why it does not run (if it does not)."""

    line: int
    command: str
    opt_out: str | None

    @property
    def bare(self) -> str:
        """The command without its trailing comment."""
        return re.sub(r"\s+#.*$", "", self.command).strip()


def examples(text: str) -> list[Example]:
    """Every command of every shell block of a Markdown text, in order."""
    found = []
    in_block = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not in_block:
            in_block = bool(FENCE.match(line.strip()))
            continue
        if line.strip().startswith("```"):
            in_block = False
            continue
        command = line.strip()
        if not command or command.startswith("#"):
            continue
        reasons = [reason for marker, reason in MARKERS.items() if marker in command]
        found.append(Example(line=number, command=command.removeprefix("$ "), opt_out=reasons[0] if reasons else None))
    return found


def test_the_extractor_reads_blocks_markers_and_nothing_else() -> None:
    text = ("intro `catalog-docs check` in prose is not run\n\n```sh\n# a comment line\n"
            "make serve   # (starts a server) serves\ncatalog-docs check      # prints the counts\n\n```\n\n"
            "```json\n{\"a\": 1}\n```\n\n```bash\n"
            "make test  # (needs the network) installs\n$ catalog-docs diff A B > out.md\n```\n")
    got = [(e.line, e.bare, e.opt_out) for e in examples(text)]
    assert got == [(5, "make serve", "server"), (6, "catalog-docs check", None), (15, "make test", "network"),
                   (16, "catalog-docs diff A B > out.md", None)]


def test_only_the_listed_examples_opt_out_and_each_says_why() -> None:
    found = examples(README.read_text(encoding="utf-8"))
    assert {e.bare: e.opt_out for e in found if e.opt_out} == OPTED_OUT
    assert sum(1 for e in found if e.opt_out is None) >= 8, "the README shows far fewer examples than expected"


def _script(runnable: list[Example]) -> str:
    lines = ["set -u"]
    for e in runnable:
        where = shlex.quote(f"README.md:{e.line}: {e.command}")
        lines += [f"echo {shlex.quote('$ ' + e.bare)}", e.command,
                  f"status=$?; if [ $status -ne 0 ]; then echo {where} exited $status >&2; exit 1; fi"]
    return "\n".join(lines) + "\n"


def _outputs(command: str) -> list[str]:
    """Files a command says it writes: after `--out` or a `>` redirection."""
    words = shlex.split(re.sub(r"\s+#.*$", "", command))
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--out", ">")]


@pytest.mark.slow  # a clone of the project, and every example of the README run in it
@pytest.mark.real_catalog  # the README's examples name the real labels, so they run on the real catalogue
def test_the_readme_examples_run_as_written(tmp_path: Path) -> None:
    runnable = [e for e in examples(README.read_text(encoding="utf-8")) if e.opt_out is None]
    project = clone_project(tmp_path / "project")
    # What `make serve` (opted out) would have installed: the environment running these tests (borrowed, with
    # stamps of the copy's own, so an example's `make` target never reinstalls into it).
    borrow_venv(project)
    env = copy_env(project)
    env.pop("VIRTUAL_ENV", None)
    # As in a new terminal, Python keeps its bytecode caches (git-ignored), so each example does not compile the
    # package again.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # As in a new terminal: no .venv on PATH, so the README must say how to reach catalog-docs.
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if "/.venv/" not in p + "/")
    done = subprocess.run(["bash", "-c", _script(runnable)], cwd=project, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"a README example failed:\n{done.stderr[-3000:]}\n{done.stdout[-3000:]}"
    ran = [line for line in done.stdout.splitlines() if line.startswith("$ ")]
    assert ran == [f"$ {e.bare}" for e in runnable], "not every example ran"
    for e in runnable:
        for out in _outputs(e.command):
            written = project / out
            assert written.is_file() and written.stat().st_size > 0, f"README.md:{e.line}: {out} is empty"
    # The examples leave nothing behind in the working tree but what they are about: catalogue edits (new-label)
    # and git-ignored output (docs/, site/, .venv). A file written into the project root would show up in
    # every `git status` of a reader who tried them.
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=project,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    stray = [line for line in status if not line[3:].startswith("catalog/") and line[3:] != ".venv"]  # ours: a link
    assert not stray, f"the README examples left these files in the project: {stray}"


@pytest.mark.parametrize("command", ["catalog-docs check", "definitely-not-a-command --help"])
def test_a_command_not_on_path_fails_the_run(tmp_path: Path, command: str) -> None:
    # Guards the environment above: without the README's `source` line catalog-docs is not found.
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if "/.venv/" not in p + "/")
    script = _script([Example(line=1, command=command, opt_out=None)])
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and f"README.md:1: {command} exited 127" in done.stderr, done.stderr
