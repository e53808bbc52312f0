"""A build writes the downloads into a temporary folder as they are made (render_pages' `spill`) and mkdocs copies
them from there: no one holds their text whole beside the pages (issue 35: 170 MB at 10,000 operations). The
folder goes when the build ends, whether it succeeded or failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import export_text
from catalog_docs.site.render import render_pages
from fixture_facts import FIXTURE_CATALOG
from sitebuild import build, copy_project

DOWNLOADS = {"downloads/catalog.json": "json", "downloads/lock-matrix.csv": "csv", "downloads/openapi.yaml": "openapi"}


def test_the_built_downloads_are_the_exports(built_site: Path) -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    for rel, fmt in DOWNLOADS.items():
        assert (built_site / rel).read_text(encoding="utf-8") == export_text(catalog, fmt), rel


@pytest.mark.parametrize("workers", [1, 2])
def test_a_spilled_render_writes_the_downloads_and_leaves_them_out(tmp_path: Path, workers: int) -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    whole = render_pages(catalog, workers=1)
    spilled = render_pages(catalog, workers=workers, spill=tmp_path / "spill")
    assert set(whole) - set(spilled) == set(DOWNLOADS)
    assert all(spilled[rel] == whole[rel] for rel in spilled)
    written = sorted(p.relative_to(tmp_path / "spill").as_posix() for p in (tmp_path / "spill").rglob("*")
                     if p.is_file())
    assert written == sorted(DOWNLOADS)  # and no partial file left beside them
    for rel in DOWNLOADS:
        assert (tmp_path / "spill" / rel).read_text(encoding="utf-8") == whole[rel]


@pytest.mark.site
@pytest.mark.parametrize("outcome", ["built", "refused"])
def test_a_build_leaves_no_spill_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcome: str) -> None:
    # Builds a site of its own: it needs its own temporary folder, and a hand-written clash for the failed build.
    project = copy_project(tmp_path / "project", FIXTURE_CATALOG)
    if outcome == "refused":
        (project / "docs" / "legend.md").write_text("# A hand-written legend\n", encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    done = build(project)
    assert (done.returncode == 0) == (outcome == "built"), done.stderr[-2000:]
    assert not list(temp.glob("catalog-docs-downloads-*"))
    if outcome == "built":
        assert (project / "site" / "downloads" / "catalog.json").stat().st_size > 0
