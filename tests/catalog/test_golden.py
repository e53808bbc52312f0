"""Golden cases for the catalogue loader: one folder per bad input, each with the exact error report.

A case folder under tests/golden/ holds:

- ``case.yaml``: ``about`` (one line saying what the case shows) and an optional ``patch`` list applied,
  in order, to a fresh copy of ``tests/golden-base/`` (a fake catalogue shaped like the real ``catalog/``).
  Each patch item names a catalogue-relative ``file`` and one of:
    - ``find`` + ``replace``: literal text replacement; ``find`` must occur exactly once
      (``encoding`` says how ``replace`` is written to disk, default UTF-8);
    - ``delete: true``: remove the file;
    - ``copy_from: OTHER``: create the file as a copy of another catalogue file;
    - ``grow_to: N``: append comment lines until the file is exactly N bytes (big files are made at
      run time, never committed);
    - ``append: TEXT`` (with ``times: N``, default 1): append TEXT, N times over;
    - ``make: fifo`` or ``make: folder``: replace the file with a named pipe or an empty folder;
    - ``symlink_to: TARGET``: replace the file with a symbolic link to TARGET (which need not exist);
    - ``encode: CODEC`` (with ``bom: true`` to start it with a byte order mark): write the file's text in
      another encoding (``utf-16-le``, ``utf-32-be``...), as an editor set to it would save it.
- any other file: written over the copy at the same catalogue-relative path (``versions/X.yaml``).
- ``expected.txt``: what ``catalog-docs check`` prints on stderr, file names relative to the catalogue
  folder, ending with the ``N errors`` line.

Regenerate with ``pytest tests/catalog/test_golden.py --update-goldens`` and read every changed line: a golden file
that records a wrong or unhelpful message is a bug in the loader, not in the golden file.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml

from catalog_docs import cli

ROOT = Path(__file__).resolve().parents[2]
BASE_CATALOG = Path(__file__).resolve().parents[1] / "golden-base"
"""A fake catalogue shaped like catalog/ (see its README): editing catalog/ moves no golden line number."""
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p for p in GOLDEN.iterdir() if p.is_dir())
_CONTROL_FILES = {"case.yaml", "expected.txt"}


def _apply(case: Path, catalog: Path) -> None:
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    assert isinstance(spec.get("about"), str) and spec["about"].strip(), f"{case.name}: case.yaml needs 'about'"
    for item in spec.get("patch") or []:
        target = catalog / item["file"]
        if item.get("delete"):
            target.unlink()
        elif "append" in item:
            with target.open("ab") as f:
                f.write(item["append"].encode("utf-8") * int(item.get("times", 1)))
        elif "make" in item or "symlink_to" in item:
            if target.exists() or target.is_symlink():
                target.unlink()
            if item.get("make") == "fifo":
                os.mkfifo(target)
            elif item.get("make") == "folder":
                target.mkdir()
            else:
                target.symlink_to(item["symlink_to"])
        elif "encode" in item:
            bom = "\ufeff" if item.get("bom") else ""
            target.write_bytes((bom + target.read_text(encoding="utf-8")).encode(item["encode"]))
        elif "copy_from" in item:
            shutil.copyfile(catalog / item["copy_from"], target)
        elif "grow_to" in item:
            size = int(item["grow_to"])
            data = target.read_bytes()
            line = b"# " + b"x" * 77 + b"\n"
            data += line * ((size - len(data)) // len(line))
            data += b"#" * (size - len(data))
            assert len(data) == size
            target.write_bytes(data)
        else:
            data = target.read_bytes()
            find = item["find"].encode("utf-8")
            count = data.count(find)
            assert count == 1, f"{case.name}: {item['find']!r} occurs {count} times in {item['file']}, not once"
            target.write_bytes(data.replace(find, item["replace"].encode(item.get("encoding", "utf-8"))))
    for src in sorted(case.rglob("*")):
        if src.is_file() and src.name not in _CONTROL_FILES:
            dest = catalog / src.relative_to(case)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 107


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                request: pytest.FixtureRequest) -> None:
    catalog = tmp_path / "catalog"
    shutil.copytree(BASE_CATALOG, catalog, ignore=shutil.ignore_patterns("README.md"))
    _apply(case, catalog)
    monkeypatch.chdir(catalog)  # file names print relative to the catalogue folder

    code = cli.main(["check", "--catalog", str(catalog)])
    out = capsys.readouterr()

    expected_file = case / "expected.txt"
    if request.config.getoption("--update-goldens"):
        expected_file.write_text(out.err, encoding="utf-8")
    assert out.out == ""
    assert code == 1
    assert "Traceback" not in out.err
    assert out.err == expected_file.read_text(encoding="utf-8")


def test_no_error_expects_what_it_found() -> None:
    """Every message of every golden case names what was expected and what was found, and the two never read the
    same ("expected 'not-shown' exactly when the path is null, found 'not-shown'" told the reader nothing)."""
    same = []
    for expected in sorted(GOLDEN.glob("*/expected.txt")):
        for line in expected.read_text(encoding="utf-8").splitlines():
            if ": expected " not in line or ", found " not in line:
                continue
            wanted, _, found = line.split(": expected ", 1)[1].partition(", found ")
            found = re.sub(r" \(.*\)$", "", found)
            # The same text, or a found value that the expected part itself names as what it wants.
            if wanted.strip(" '\"") == found.strip(" '\"") or (re.fullmatch(r"'[^']*'", found) and found in wanted):
                same.append(f"{expected.parent.name}: {line}")
    assert not same, "\n".join(same)
