"""`catalog-docs diff --acknowledged FILE` reads only a regular file of at most 1 MB, nested at most 16 deep, whose
reasons are at most MAX_REASON_CHARS long: anything else is refused at once, in one line, exit 2, never a traceback
and never a wait (compare/gate.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.compare.gate import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_REASON_CHARS,
    AcknowledgementsInvalid,
    load_acknowledgements,
)
from fake_catalogs import FAKE_SPECS, write_catalog


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "catalog", FAKE_SPECS["plans-come-and-go"])


def _diff(capsys: pytest.CaptureFixture[str], catalog: Path, acks: Path) -> tuple[int, str, str]:
    code = cli.main(["diff", "FAKE 1.0", "FAKE 3.0", "--catalog", str(catalog), "--fail-on", "value-changed",
                     "--acknowledged", str(acks)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_pipe_is_refused_from_its_metadata_without_waiting(catalog: Path, tmp_path: Path) -> None:
    # Nobody writes to the pipe: opening it to read would wait for ever. A separate process, so a regression
    # fails on the timeout instead of hanging the run.
    pipe = tmp_path / "acks.yaml"
    os.mkfifo(pipe)
    done = subprocess.run([sys.executable, "-m", "catalog_docs.cli", "diff", "FAKE 1.0", "FAKE 3.0", "--catalog",
                           str(catalog), "--fail-on", "value-changed", "--acknowledged", str(pipe)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"catalog-docs: error: --acknowledged: {pipe} is a pipe; expected a "
                                        "regular file"]


@pytest.mark.parametrize(("where", "what"), [("folder", "a folder"), ("/dev/null", "a character device")])
def test_a_folder_or_a_device_is_refused(capsys: pytest.CaptureFixture[str], catalog: Path, tmp_path: Path,
                                         where: str, what: str) -> None:
    path = tmp_path if where == "folder" else Path(where)
    code, out, err = _diff(capsys, catalog, path)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"catalog-docs: error: --acknowledged: {path} is {what}; expected a regular file"]


def test_a_file_over_1_mb_is_refused_by_its_size(capsys: pytest.CaptureFixture[str], catalog: Path,
                                                 tmp_path: Path) -> None:
    big = tmp_path / "acks.yaml"
    big.write_text("# fake\n" * (MAX_BYTES // 7 + 1), encoding="utf-8")
    code, out, err = _diff(capsys, catalog, big)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"catalog-docs: error: --acknowledged: {big} has {big.stat().st_size:,} bytes; "
                                f"at most {MAX_BYTES:,} are read"]
    # A link to it is read as the file it names: the same refusal.
    link = tmp_path / "link.yaml"
    link.symlink_to(big)
    assert _diff(capsys, catalog, link)[0] == 2


@pytest.mark.parametrize("nesting", ["[" * 100_000, "- " * 5_000 + "x\n", "{a: " * 50_000])
def test_deep_nesting_stops_at_its_mark_without_exhausting_the_stack(capsys: pytest.CaptureFixture[str],
                                                                     catalog: Path, tmp_path: Path,
                                                                     nesting: str) -> None:
    acks = tmp_path / "acks.yaml"
    acks.write_text(nesting, encoding="utf-8")
    assert acks.stat().st_size <= MAX_BYTES
    code, out, err = _diff(capsys, catalog, acks)
    assert code == 2 and out == "" and "Traceback" not in err and "RecursionError" not in err
    lines = err.splitlines()
    assert lines[-1] == "1 error"
    assert lines[0].startswith(f"{acks}:1:") and lines[0].endswith(
        f"(file): expected at most {MAX_DEPTH} levels of nesting, found more than {MAX_DEPTH}")


def test_diff_help_lists_every_exit_code_of_the_gate(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["diff", "--help"])
    shown = capsys.readouterr().out
    codes = shown[shown.index("diff exit codes"):]
    for words in ("0 compared; no difference (with --exit-code); no change held (with --fail-on)",
                  "a change the gate holds", "acknowledged neither itself nor by its plan entry's or label's",
                  "2 an unknown label, plan entry, kind or revision", "not a regular file, over 1 MB",
                  f"a reason over {MAX_REASON_CHARS} characters is one"):
        assert words in " ".join(codes.split()), words


@pytest.mark.parametrize(("argv", "says"), [
    (["--max-chars", "100"], "--max-chars: expected 4,000 to 65,536 (GitHub's limit for a comment), found 100"),
    (["--max-chars", "70000"], "--max-chars: expected 4,000 to 65,536"),
    (["--max-chars", "5000", "--format", "text"], "--max-chars: it sets the length of a Markdown comment"),
])
def test_max_chars_out_of_range_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], catalog: Path,
                                                   argv: list[str], says: str) -> None:
    code = cli.main(["diff", "FAKE 1.0", "FAKE 3.0", "--catalog", str(catalog), "--format", "markdown", *argv])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and says in err


ACK_ID = "value-changed--fake-1-0--fake-3-0--plan-a--fakewidgetlist--0123abcd"


def test_a_reason_over_the_limit_is_a_located_error_shown_cut(capsys: pytest.CaptureFixture[str], catalog: Path,
                                                               tmp_path: Path) -> None:
    """The issue's 100 KB reason, which every line that shows a reason printed whole."""
    acks = tmp_path / "acks.yaml"
    acks.write_text(f"- id: {ACK_ID}\n  reason: {'x' * 100_000}\n", encoding="utf-8")
    code, out, err = _diff(capsys, catalog, acks)
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"{acks}:2:11: acknowledged[0].reason: expected a reason of at most {MAX_REASON_CHARS} characters, found "
        f"100,000 characters, '{'x' * 57}...' (say it in a sentence or two; link to anything longer)", "1 error"]


@given(st.integers(MAX_REASON_CHARS - 20, MAX_REASON_CHARS + 20),
       st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]))
@example(1, "x")
@example(MAX_REASON_CHARS, "x")
@example(MAX_REASON_CHARS + 1, "x")
@example(3 * MAX_REASON_CHARS, "\u202e")
def test_a_reason_is_taken_up_to_the_limit_and_refused_past_it_in_a_short_line(length: int, letter: str) -> None:
    """Whatever its characters: a reason is taken up to MAX_REASON_CHARS, and past it refused in one line that
    shows it cut (its first 57 characters, each escaped at most ten characters long)."""
    reason = "r" + letter * (length - 1)
    with tempfile.TemporaryDirectory() as folder:
        acks = Path(folder) / "acks.yaml"
        # A JSON string is a YAML double-quoted scalar: any character, escaped.
        acks.write_text(f"- id: {ACK_ID}\n  reason: {json.dumps(reason)}\n", encoding="utf-8")
        if length <= MAX_REASON_CHARS:
            [ack] = load_acknowledgements(acks)
            assert ack.reason == reason
            return
        with pytest.raises(AcknowledgementsInvalid) as info:
            load_acknowledgements(acks)
    [problem] = info.value.problems
    line = str(problem)
    assert f"found {length:,} characters" in line and len(line) < 300 + 57 * 10 and line.isprintable()
