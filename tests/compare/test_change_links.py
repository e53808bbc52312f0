"""`catalog-docs diff --format markdown --site-url URL` (or $SITE_URL): each change links to its anchor on the
hosted site, where the compare pages carry every change's id (compare/command.py `change_links`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from catalog_docs import cli
from fake_catalogs import FAKE_SPECS, write_catalog


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("SITE_URL", raising=False)
    return write_catalog(tmp_path / "catalog", FAKE_SPECS["plans-come-and-go"])


def diff(capsys: pytest.CaptureFixture[str], folder: Path, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["diff", *argv, "--catalog", str(folder)])
    out = capsys.readouterr()
    return code, out.out, out.err


def ids(capsys: pytest.CaptureFixture[str], folder: Path, a: str, b: str) -> list[str]:
    return [c["id"] for c in json.loads(diff(capsys, folder, a, b, "--format", "json")[1])["changes"]]


def test_consecutive_labels_link_to_their_compare_page(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, md, _ = diff(capsys, folder, "FAKE 1.0", "FAKE 2.0", "--format", "markdown",
                       "--site-url", "https://fake.example.invalid/docs")
    assert code == 0
    for change_id in ids(capsys, folder, "FAKE 1.0", "FAKE 2.0"):
        assert (f"[`{change_id}`](https://fake.example.invalid/docs/compare/FAKE-1.0...FAKE-2.0/#{change_id})"
                in md), change_id


def test_other_pairs_link_to_the_any_pair_compare(capsys: pytest.CaptureFixture[str], folder: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITE_URL", "https://fake.example.invalid/")  # as the Pages build sets it
    _, md, _ = diff(capsys, folder, "FAKE 1.0", "FAKE 3.0", "--format", "markdown")
    some = ids(capsys, folder, "FAKE 1.0", "FAKE 3.0")
    assert some and all(f"(https://fake.example.invalid/compare/?from=FAKE%201.0&to=FAKE%203.0#{i})" in md
                        for i in some)


def test_without_a_site_url_there_are_no_links_and_a_bad_one_is_refused(capsys: pytest.CaptureFixture[str],
                                                                        folder: Path) -> None:
    _, md, _ = diff(capsys, folder, "FAKE 1.0", "FAKE 2.0", "--format", "markdown")
    assert "](http" not in md and re.search(r"`value-changed--[a-z0-9-]+`", md)
    for bad in ("javascript:alert(1)", "https://x.invalid/a b", "https://x.invalid/)", "file:///etc"):
        code, out, err = diff(capsys, folder, "FAKE 1.0", "FAKE 2.0", "--format", "markdown", "--site-url", bad)
        assert code == 2 and out == "" and "--site-url: expected an http(s) address" in err, bad
