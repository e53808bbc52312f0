"""The README's shell examples run as written, in order, in a fresh copy of the project.

Every line of every ```sh (or bash, shell, console) block of README.md is a command. They run one after
the other, in a fresh clone of the project whose `.venv` is this checkout's. Each must exit 0.

- The first `catalog-docs` line of each command (check, diff, ...), and every line that is not a plain
  `catalog-docs ...` (with at most a `> FILE`), run in one bash session (so `source .venv/bin/activate`
  carries over), with no `.venv/bin` on PATH: a command the README does not say how to reach fails as
  "command not found".
- A later line of a command already run end to end there is split into words as bash splits it and given,
  those very words, to `cli.main` in this process (its output written where its `> FILE` says): the same code
  as the console script, without the start of a Python process per line.

An example opts out only with a visible marker in its comment, and only for one of two reasons:

- `(starts a server)`: it serves until stopped (`make serve`);
- `(needs the network)`: it installs from package registries (`make test`, which also runs this test).

Which examples opt out is listed in OPTED_OUT below, so a new opt-out is a reviewed change of this file.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitebuild import ROOT, borrow_venv, cli_here, clone_project, copy_env

README = ROOT / "README.md"
FENCE = re.compile(r"^```(sh|bash|shell|console)\s*$")
MARKERS = {"(starts a server)": "server", "(needs the network)": "network"}
"""The visible opt-out markers and their reasons; nothing else lets an example be skipped."""
OPTED_OUT = {"make serve": "server", "make test": "network"}
"""The examples that do not run here (the command before its comment), with why."""
STEP_TIME_LIMIT_S = 300.0
"""How long one example may run before the test gives up on it (a hang fails instead of stopping the run)."""
SHELL_SYNTAX = frozenset("$`\\*?[]~{}#;&|<>()!")
"""Characters that make a line more than words for bash to split (expansions, globs, operators, comments):
such a line always runs in bash."""


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


class Shell:
    """One bash session that runs the README's lines one at a time, in order, so what a line sets (`source`)
    carries over to the next: it reads its script from a pipe, tells each line's exit status on another, and
    reads nothing from stdin. Its stdout and stderr go to files, read when a line fails."""

    def __init__(self, cwd: Path, env: dict[str, str], logs: Path) -> None:
        logs.mkdir(parents=True, exist_ok=True)
        self.out, self.err = logs / "stdout", logs / "stderr"
        script_r, self._script_w = os.pipe()
        self._status_r, status_w = os.pipe()
        self._status_fd = status_w
        with self.out.open("w") as out, self.err.open("w") as err:
            self.proc = subprocess.Popen(["bash", f"/dev/fd/{script_r}"], pass_fds=(script_r, status_w), cwd=cwd,
                                         env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        os.close(script_r)
        os.close(status_w)

    def __enter__(self) -> Shell:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is not None:
            self.proc.kill()  # a line failed or hangs: nothing after it runs
        os.close(self._script_w)  # bash reads the end of its script and exits
        os.close(self._status_r)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def run(self, e: Example) -> int:
        """Run one README line as written (announced on stdout as `$ command`); its exit status."""
        step = f"echo {shlex.quote('$ ' + e.bare)}\n{e.command}\necho $? >&{self._status_fd}\n"
        os.write(self._script_w, step.encode())
        said = b""
        deadline = time.monotonic() + STEP_TIME_LIMIT_S
        while not said.endswith(b"\n"):
            ready, _, _ = select.select([self._status_r], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"README.md:{e.line}: {e.command} did not finish within {STEP_TIME_LIMIT_S} s"
            chunk = os.read(self._status_r, 64)
            assert chunk, f"README.md:{e.line}: {e.command} ended the shell\n{self.tail()}"
            said += chunk
        return int(said.decode())

    def tail(self) -> str:
        return f"{self.err.read_text(errors='replace')[-3000:]}\n{self.out.read_text(errors='replace')[-3000:]}"

    def announced(self) -> list[str]:
        """The `$ command` lines the session printed: the lines it ran, in order."""
        return [line for line in self.out.read_text(errors="replace").splitlines() if line.startswith("$ ")]


def in_process(e: Example) -> tuple[list[str], str | None] | None:
    """The words after `catalog-docs`, and the file after `>` (if any), of a line that is only that; None for a
    line bash must run (anything else, or any expansion, glob, operator or escape)."""
    body, redirected, out = e.bare.partition(" > ")
    if any(c in SHELL_SYNTAX for c in body + out):
        return None
    try:
        words, target = shlex.split(body), shlex.split(out)
    except ValueError:  # a quote left open: the ` > ` is inside a quoted word, not a redirection
        return None
    if not words or words[0] != "catalog-docs" or len(words) < 2 or (redirected and len(target) != 1):
        return None
    return words[1:], target[0] if redirected else None


def end_to_end(runnable: list[Example]) -> list[Example]:
    """The lines bash runs: all but the later lines of a `catalog-docs` command whose first line it runs."""
    seen: set[str] = set()
    chosen = []
    for e in runnable:
        split = in_process(e)
        if split is None or split[0][0] not in seen:
            chosen.append(e)
        if split is not None:
            seen.add(split[0][0])
    return chosen


def _commands(lines: list[Example]) -> set[str]:
    """The `catalog-docs` commands (check, diff, ...) of the lines that could run in process."""
    return {split[0][0] for split in map(in_process, lines) if split is not None}


def _line(command: str) -> Example:
    return Example(line=1, command=command, opt_out=None)


def test_only_a_plain_catalog_docs_line_runs_in_process_and_each_command_once_in_bash() -> None:
    assert in_process(_line('catalog-docs diff "A 1" B  # two labels')) == (["diff", "A 1", "B"], None)
    assert in_process(_line("catalog-docs diff A B --format json > build/out.json")) == \
        (["diff", "A", "B", "--format", "json"], "build/out.json")
    for bash_only in ("catalog-docs check | head", "catalog-docs diff $LABEL B", "FOO=1 catalog-docs check",
                      "catalog-docs check > a > b", "catalog-docs check>out", "catalog-docs check 2> err",
                      "catalog-docs diff A\\ 1 B", "catalog-docs export --out ~/x", "catalog-docs check; ls",
                      "catalog-docs check && ls", "catalog-docs", "sed -i x catalog/y.yaml", "make check",
                      "catalog-docs diff `git tag` B", "catalog-docs check > ", 'catalog-docs diff "A > B" C'):
        assert in_process(_line(bash_only)) is None, bash_only
    lines = [_line(c) for c in ("source x", "catalog-docs check", "catalog-docs check", "catalog-docs check | head",
                                "catalog-docs diff A B > o", "catalog-docs diff A B", "catalog-docs check")]
    assert end_to_end(lines) == [lines[0], lines[1], lines[3], lines[4]]


@given(st.lists(st.text(st.sampled_from("aZ09 \t:,._-=/@%+\"'$`\\*?[]~{}#;&|<>()!é"), min_size=1), min_size=1,
                max_size=6))
def test_in_process_gets_back_the_words_a_line_quotes(words: list[str]) -> None:
    """A line of quoted words, as a README would quote them: in process, cli.main gets exactly those words (or
    the line is left to bash)."""
    line = "catalog-docs " + " ".join(shlex.quote(w) for w in words)
    split = in_process(_line(line))
    assert split is None or split == (words, None)
    if not any(c in SHELL_SYNTAX or c.isspace() or c in "'\"" for c in "".join(words)):
        assert split == (words, None)


def _outputs(command: str) -> list[str]:
    """Files a command says it writes: after `--out` or a `>` redirection."""
    words = shlex.split(re.sub(r"\s+#.*$", "", command))
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--out", ">")]


@pytest.mark.slow  # a clone of the project, and every example of the README run in it
@pytest.mark.real_catalog  # the README's examples name the real labels, so they run on the real catalogue
def test_the_readme_examples_run_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
    in_bash = end_to_end(runnable)
    with Shell(project, env, tmp_path / "shell") as shell:
        for e in runnable:
            if e in in_bash:
                status = shell.run(e)
                assert status == 0, f"README.md:{e.line}: {e.command} exited {status}\n{shell.tail()}"
                continue
            split = in_process(e)
            assert split is not None
            argv, target = split
            code, out, err = cli_here(argv, project, capsys, STEP_TIME_LIMIT_S, f"README.md:{e.line}: {e.command}")
            assert code == 0, f"README.md:{e.line}: {e.command} exited {code}\n{err[-3000:]}\n{out[-3000:]}"
            if target is not None:
                (project / target).write_text(out, encoding="utf-8")
        assert shell.announced() == [f"$ {e.bare}" for e in in_bash], "not every example ran"
    assert _commands(in_bash) == _commands(runnable), "a catalog-docs command of the README never ran end to end"
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
    with Shell(tmp_path, env, tmp_path / "shell") as shell:
        assert shell.run(Example(line=1, command=command, opt_out=None)) == 127, shell.tail()
        assert "command not found" in shell.err.read_text(encoding="utf-8"), shell.tail()
