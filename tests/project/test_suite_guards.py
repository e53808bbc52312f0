"""The test suite's own promises (tests/guards.py, tests/stopping.py), shown on small throw-away test files run
by a nested pytest with the suite's own plugins (tests/guards.py, tests/stopping.py, pytest-xdist), never on the
suite itself.

- A test that reads the project's catalog/ without the `real_catalog` mark fails; so does one that leaves a
  process-wide setting changed, and the next test starts with it put back.
- A stop is a stop: SIGTERM, whether sent to make (which passes it on to pytest) or to the whole process group
  (as `timeout` does), and Ctrl-C (SIGINT to the group) end `make test`'s run (pytest-xdist's two workers)
  within 30 s as interrupted, report no test failed because of it, and leave no process behind; so does
  SIGTERM to a pytest run without workers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from sitebuild import BIN, ROOT

pytestmark = pytest.mark.slow  # each test runs a nested pytest

TESTS = ROOT / "tests"
STOP_WITHIN = 30.0


def nested_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST" and not k.startswith("PYTEST_XDIST")}
    return {**env, "PYTHONPATH": os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])}


UNUSED_PLUGINS = ("hypothesispytest", "anyio", "platformdirs")
"""Installed pytest plugins the throw-away files use nothing of (no Hypothesis test, no async test, no
platformdirs fixture), and that install no signal handler and touch no process-wide setting: not loaded there,
which spares each nested pytest and each of its workers their imports (Hypothesis' above all)."""


def write_suite(folder: Path, body: str, name: str = "test_case.py") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    unused = " ".join(f"-p no:{plugin}" for plugin in UNUSED_PLUGINS)
    (folder / "pytest.ini").write_text(f"[pytest]\naddopts = -p guards -p stopping -p no:cacheprovider {unused}\n",
                                       encoding="utf-8")
    (folder / name).write_text(textwrap.dedent(body), encoding="utf-8")
    return folder


def run_suite(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-rA", *args], cwd=folder, env=nested_env(),
                          capture_output=True, text=True, timeout=300)


def outcome_of(output: str, test: str) -> str:
    """PASSED, FAILED or ERROR for a test, from the -rA summary lines."""
    found = {line.split(" ", 1)[0] for line in output.splitlines() if line.endswith(f"::{test}")
             or f"::{test} " in line}
    return "ERROR" if "ERROR" in found else "FAILED" if "FAILED" in found else "PASSED" if "PASSED" in found else "?"


# --- the guards of tests/guards.py, shown in one nested run ------------------------------------------------

READS_SUITE = f"""
        import shutil, subprocess
        from pathlib import Path
        import pytest
        ROOT = Path({str(ROOT)!r})

        def test_opens_a_file():
            (ROOT / "catalog" / "service.yaml").read_text(encoding="utf-8")

        def test_lists_a_folder():
            list((ROOT / "catalog" / "versions").iterdir())

        def test_copies_it(tmp_path):
            shutil.copytree(ROOT / "catalog", tmp_path / "copy")

        def test_runs_a_command_in_the_project():
            subprocess.run([{str(BIN / "catalog-docs")!r}, "check"], cwd=ROOT, capture_output=True)

        def test_names_it_to_a_command(tmp_path):
            subprocess.run(["cat", str(ROOT / "catalog" / "listing.yaml")], cwd=tmp_path, capture_output=True)

        @pytest.mark.real_catalog
        def test_marked():
            (ROOT / "catalog" / "service.yaml").read_text(encoding="utf-8")

        def test_reads_the_editor_schemas():
            [p.read_text(encoding="utf-8") for p in (ROOT / "catalog" / "schema").iterdir()]

        def test_reads_the_fixture_catalogue():
            (ROOT / "tests" / "fixture-catalog" / "service.yaml").read_text(encoding="utf-8")

        def test_runs_a_command_elsewhere(tmp_path):
            subprocess.run(["true"], cwd=tmp_path)

        def test_names_another_catalogue_in_the_project():
            subprocess.run([{str(BIN / "catalog-docs")!r}, "check", "--catalog",
                            str(ROOT / "tests" / "fixture-catalog")], cwd=ROOT, capture_output=True)
        """
"""Tests that read the real catalogue, with and without the mark, and tests that read other things."""

SETTINGS_SUITE = """
        import os, signal

        def test_a_sets_env():
            os.environ["GUARD_PROBE"] = "1"

        def test_b_changes_folder(tmp_path):
            os.chdir(tmp_path)

        def test_c_changes_umask():
            os.umask(0o077)

        def test_d_installs_a_handler():
            signal.signal(signal.SIGTERM, lambda *_: None)

        def test_e_restores_what_it_changes(monkeypatch, tmp_path):
            monkeypatch.setenv("GUARD_PROBE", "2")
            monkeypatch.chdir(tmp_path)
            previous = signal.signal(signal.SIGUSR1, lambda *_: None)
            signal.signal(signal.SIGUSR1, previous)

        def test_f_sees_everything_put_back():
            assert "GUARD_PROBE" not in os.environ
            assert os.getcwd() == START
            mask = os.umask(0o022); os.umask(mask)
            assert mask == 0o022
            assert signal.getsignal(signal.SIGTERM).__module__ == "stopping"

        START = os.getcwd()
        """
"""Tests that change process-wide settings, one that puts back what it changes, and one after them all (in file
order: -p no:randomly) that finds every setting as it was."""


@pytest.fixture(scope="module")
def guarded_run(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The output (-rA) of one nested run of both throw-away files: each guard's cases in a file of its own, one
    pytest start for both (the guards judge each test by itself, so a run of both tells what two runs would)."""
    suite = write_suite(tmp_path_factory.mktemp("guards") / "suite", READS_SUITE, "test_reads.py")
    write_suite(suite, SETTINGS_SUITE, "test_settings.py")
    result = run_suite(suite, "-p", "no:randomly")
    assert "test_reads.py" in result.stdout and "test_settings.py" in result.stdout, result.stdout + result.stderr
    return result.stdout


# --- the real catalogue stays out of the tests ----------------------------------------------------------

def test_only_marked_tests_may_read_the_real_catalogue(guarded_run: str) -> None:
    out = guarded_run
    for test in ("test_opens_a_file", "test_lists_a_folder", "test_copies_it", "test_runs_a_command_in_the_project",
                 "test_names_it_to_a_command"):
        assert outcome_of(out, test) == "ERROR", f"{test}:\n{out}"
    assert "read the project's own catalogue" in out and "catalog/service.yaml" in out
    for test in ("test_marked", "test_reads_the_editor_schemas", "test_reads_the_fixture_catalogue",
                 "test_runs_a_command_elsewhere", "test_names_another_catalogue_in_the_project"):
        assert outcome_of(out, test) == "PASSED", f"{test}:\n{out}"


# --- process-wide settings come back -----------------------------------------------------------------

def test_a_changed_process_wide_setting_fails_its_test_and_is_put_back(guarded_run: str) -> None:
    out = guarded_run
    for test, what in (("test_a_sets_env", "environment variable GUARD_PROBE"),
                       ("test_b_changes_folder", "the working folder"), ("test_c_changes_umask", "the umask"),
                       ("test_d_installs_a_handler", "the handler of Terminated")):
        assert outcome_of(out, test) == "ERROR", f"{test}:\n{out}"
        assert what in out, what
    for test in ("test_e_restores_what_it_changes", "test_f_sees_everything_put_back"):
        assert outcome_of(out, test) == "PASSED", f"{test}:\n{out}"


# --- a stop is a stop ---------------------------------------------------------------------------------

SLOW_SUITE = """
    import subprocess, time
    from pathlib import Path
    import pytest

    STARTED = Path({started!r})

    @pytest.fixture
    def server():
        proc = subprocess.Popen(["sleep", "600"])  # a server a fixture starts and stops
        yield proc
        proc.terminate()
        proc.wait()

    def test_{n}_waits(server):
        subprocess.Popen(["sleep", "601"])  # a process the test forgets
        with STARTED.open("a") as f:
            f.write("{n}\\n")
        for _ in range(600):
            time.sleep(0.5)
"""


def _descendants_of_session(sid: int) -> list[str]:
    found = []
    for proc in psutil.process_iter(["pid", "name", "status"]):
        try:
            if os.getsid(proc.pid) == sid and proc.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(f"{proc.info['name']} ({proc.pid})")
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


@pytest.mark.parametrize(("how", "workers"), [("make", 2), ("group", 2), ("interrupt", 2), ("pytest", 0)],
                         ids=["sigterm-to-make", "sigterm-to-group", "ctrl-c", "sigterm-to-a-single-pytest"])
def test_a_stop_is_a_stop(tmp_path: Path, how: str, workers: int) -> None:
    started = tmp_path / "started"
    suite = tmp_path / "suite"
    for n in range(max(workers, 1)):
        write_suite(suite, SLOW_SUITE.format(started=str(started), n=n))
        (suite / "test_case.py").rename(suite / f"test_case_{n}.py")
    pytest_cmd = [sys.executable, "-m", "pytest", *(["-n", str(workers)] if workers else [])]
    if how == "make":
        (suite / "Makefile").write_text("test:\n\t" + " ".join(pytest_cmd) + "\n", encoding="utf-8")
        cmd = ["make", "--no-print-directory", "test"]
    else:
        cmd = pytest_cmd
    # A session of its own: the group signals below reach the nested run and never this one.
    run = subprocess.Popen(cmd, cwd=suite, env=nested_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while (not started.exists() or len(started.read_text().split()) < max(workers, 1)) \
                and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
        # Ready: every test has started its processes and written its line (closing the file), so each is in its
        # test, past set-up, and every signal handler is in place; no further wait.
        assert run.poll() is None and started.exists(), run.communicate()[0]
        sent = time.monotonic()
        if how == "group":
            os.killpg(run.pid, signal.SIGTERM)
        elif how == "interrupt":
            os.killpg(run.pid, signal.SIGINT)
        else:
            os.kill(run.pid, signal.SIGTERM)
        output, _ = run.communicate(timeout=STOP_WITHIN + 30)
        took = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    left = _descendants_of_session(run.pid)
    if left:
        os.killpg(run.pid, signal.SIGKILL)
    print(f"stopped in {took:.1f} s")
    assert took < STOP_WITHIN, f"the run took {took:.1f} s to stop:\n{output}"
    assert run.returncode != 0, output
    assert not left, f"left behind: {left}\n{output}"
    summary = output.strip().splitlines()[-1] if output.strip() else ""
    assert " failed" not in summary and " error" not in summary, output
    assert "FAILED" not in output and "ERROR " not in output, output
    assert "Interrupted" in output or "KeyboardInterrupt" in output or "interrupted" in output, output
