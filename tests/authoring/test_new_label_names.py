"""`new-label` refuses the names `check` refuses (catalog/names.py): spaces at the ends or two in a row, a control,
invisible or blank character, text not in NFC, and a look-alike of a label already listed, named with its place.
A refused name changes no file."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.authoring.new_label import new_label
from catalog_docs.errors import CatalogDocsError

BASE = Path(__file__).resolve().parents[1] / "golden-base"
LABEL = "FAKE_ 1.1.0"  # listed at service.yaml:27:5 of the golden base


def _copy(into: Path) -> Path:
    catalog = into / "catalog"
    shutil.copytree(BASE, catalog, ignore=shutil.ignore_patterns("README.md"))
    return catalog


def _files(catalog: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(catalog.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("new", "message"), [
    ("FAKE_ 1.2.0-x ", "found a space at its end; remove it"),
    ("FAKE_  1.2.0-x", "found two spaces in a row; write one space between words"),
    ("FAKE_\u00a01.2.0-x", "found U+00A0 NO-BREAK SPACE, which shows as nothing or as a plain space; remove it"),
    ("FAKE_\u200b1.2.0-x", "found U+200B ZERO WIDTH SPACE, which shows as nothing or as a plain space; remove it"),
    ("Cafe\u0301 1", "found text not in Unicode NFC"),
    ("F" * 64, "found 64 characters"),
    ("fake_ 1.1.0", "'fake_ 1.1.0' reads the same as the version label 'FAKE_ 1.1.0' at "),
    ("FAKE_ 1.1.O", "'FAKE_ 1.1.O' reads the same as the version label 'FAKE_ 1.1.0' at "),
    ("FAKE_ l.1.0", "'FAKE_ l.1.0' reads the same as the version label 'FAKE_ 1.1.0' at "),
])
def test_new_label_refuses_a_name_that_does_not_read_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            new: str, message: str) -> None:
    catalog = _copy(tmp_path)
    before = _files(catalog)
    code = cli.main(["new-label", new, "--from", LABEL, "--catalog", str(catalog)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("catalog-docs: error: ") and message in err and err.count("\n") == 1, err
    assert _files(catalog) == before


def test_the_look_alike_message_names_the_listed_label_by_file_line_and_column(tmp_path: Path) -> None:
    catalog = _copy(tmp_path)
    with pytest.raises(CatalogDocsError) as caught:
        new_label(catalog, "fake_ 1.1.0", LABEL)
    assert str(caught.value) == (f"'fake_ 1.1.0' reads the same as the version label 'FAKE_ 1.1.0' at "
                                 f"{catalog / 'service.yaml'}:27:5; names must differ in more than case, spacing, "
                                 "character width or characters that look alike (O and 0, l and 1)")


_SPELLINGS = st.sampled_from([
    str.upper, str.lower, str.swapcase, lambda n: n + " ", lambda n: " " + n, lambda n: n.replace(" ", "  "),
    lambda n: n.replace(" ", "\u00a0"), lambda n: n.replace(" ", "\u2009"), lambda n: n.replace("F", "\uff26"),
    lambda n: n.replace("1", "\uff11", 1), lambda n: n.replace(" ", "\t"),
    lambda n: n.replace("0", "O", 1), lambda n: n.replace("1", "l", 1), lambda n: n.replace("1", "I"),
])


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(spelling=_SPELLINGS)
def test_no_other_spelling_of_a_label_passes(spelling: Callable[[str], str]) -> None:
    new = spelling(LABEL)
    with tempfile.TemporaryDirectory() as tmp:
        catalog = _copy(Path(tmp))
        before = _files(catalog)
        with pytest.raises(CatalogDocsError):
            new_label(catalog, new, LABEL)
        assert _files(catalog) == before
