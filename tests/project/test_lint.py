"""The checks Python maintainers lean on stay at zero findings: ruff, mypy --strict and radon's complexity limit.

`make lint` runs the same three commands for the quick loop; this test puts them in `make test`, so CI gates
them. Their configuration is in pyproject.toml, their versions in requirements/test.txt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from catalog_docs.devtools.complexity import LIMIT, over_limit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_scripts_and_tests() -> None:
    done = _run(str(BIN / "ruff"), "check", "--no-cache", "scripts", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # mypy on the whole package: from cold the first time, in a fresh clone
def test_mypy_strict_finds_nothing_in_the_package() -> None:
    # As `make lint` and the pre-commit hook run it: incremental, with the project's .mypy_cache, which mypy keys
    # on its own version, its options and each file's content, and writes atomically. From cold it costs what
    # --no-incremental did; warm (after `make lint` or a commit), it rechecks only what changed since.
    done = _run(str(BIN / "mypy"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_no_function_of_the_package_is_above_the_complexity_limit() -> None:
    found = list(over_limit([ROOT / "scripts" / "catalog_docs"]))
    assert found == [], f"above complexity {LIMIT}:\n" + "\n".join(found)


def test_the_complexity_check_finds_a_function_over_the_limit(tmp_path: Path) -> None:
    # A function with one more branch than the limit allows must be reported, with its file and line.
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(LIMIT))
    source = tmp_path / "busy.py"
    source.write_text(f"def busy(x):\n{body}    return -1\n", encoding="utf-8")
    assert list(over_limit([source])) == [f"{source}:1: busy ({LIMIT + 1})"]
    source.write_text("def calm(x):\n    return x\n", encoding="utf-8")
    assert list(over_limit([source])) == []
