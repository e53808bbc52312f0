"""A build renders a large catalogue in a process of its own, which sends the texts back (what the render leaves
behind stays there), and writes the downloads into a temporary folder as they are made (render_pages' `spill`),
which mkdocs copies them from: no one holds their text whole beside the pages (issue 35: 170 MB at 10,000
operations). The folder goes when the build ends, whether it succeeded or failed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import export_text
from catalog_docs.site import pages
from catalog_docs.site.render import render_pages
from catalog_docs.site.twins import LLMS_FULL
from fixture_facts import FIXTURE_CATALOG

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
    # llms-full.txt (every page's twin) is written as its twins come too, never held whole.
    assert set(whole) - set(spilled) == {*DOWNLOADS, LLMS_FULL}
    assert all(spilled[rel] == whole[rel] for rel in spilled)
    written = sorted(p.relative_to(tmp_path / "spill").as_posix() for p in (tmp_path / "spill").rglob("*")
                     if p.is_file())
    assert written == sorted({*DOWNLOADS, LLMS_FULL})  # and no partial file left beside them
    for rel in [*DOWNLOADS, LLMS_FULL]:
        assert (tmp_path / "spill" / rel).read_text(encoding="utf-8") == whole[rel]


# That a build leaves no spill folder behind, built or refused (a hand-written page at a generated URL), is
# checked on the two builds tests/site/test_render_safety.py makes of a project of its own
# (test_hand_written_pages_are_built_and_one_at_a_generated_url_is_refused_naming_both), run in a temporary folder
# of their own.


# site_files_apart renders here in a process that runs threads (forking one is not safe), and a pytest worker
# of a full run holds a site server's threads: the render apart is shown in a process of its own, with none. One
# process renders every catalogue of the module (each apart, then here), its forks counted for each.
_APART = """
import json, os, sys
from pathlib import Path
from catalog_docs.errors import CatalogInvalid
from catalog_docs.site import pages
pages.APART_MIN_BYTES = 0  # the fixture catalogue is small: render it apart all the same
forks = []
real_fork = os.fork
results = []
for catalog, out in zip(map(Path, sys.argv[1::2]), map(Path, sys.argv[2::2])):
    forks.clear()
    os.fork = lambda: forks.append(1) or real_fork()
    try:
        apart = pages.site_files_apart(catalog, spill=out / "apart")
    except CatalogInvalid as error:
        apart = {"invalid": error.report()}
    os.fork = real_fork
    try:
        here = pages.site_files(catalog, spill=out / "here")
    except CatalogInvalid as error:
        here = {"invalid": error.report()}
    results.append({"forks": len(forks), "same": list(apart) == list(here) and apart == here,
                    "invalid": "invalid" in here})
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def apart(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, object], Path]]:
    """{"fixture": ..., "invalid": ...}: what the render apart and the render here found for the fixture catalogue
    and for a copy of it that does not load, each with the folder its downloads were spilled into."""
    base = tmp_path_factory.mktemp("apart")
    invalid = base / "invalid-catalog"
    shutil.copytree(FIXTURE_CATALOG, invalid)
    service = invalid / "service.yaml"
    service.write_text(service.read_text(encoding="utf-8").replace("version_labels:", "version_labelz:", 1),
                       encoding="utf-8")
    runs = {"fixture": (FIXTURE_CATALOG, base / "fixture"), "invalid": (invalid, base / "invalid")}
    for _, out in runs.values():
        out.mkdir()
    argv = [str(part) for catalog, out in runs.values() for part in (catalog, out)]
    done = subprocess.run([sys.executable, "-c", _APART, *argv], capture_output=True, text=True, timeout=300,
                          cwd=base)
    assert done.returncode == 0, done.stderr[-3000:]
    found: list[dict[str, object]] = json.loads(done.stdout.splitlines()[-1])
    return {name: (result, out) for (name, (_, out)), result in zip(runs.items(), found, strict=True)}


def test_a_render_apart_gives_what_a_render_here_gives(apart: dict[str, tuple[dict[str, object], Path]]) -> None:
    found, out = apart["fixture"]
    assert found == {"forks": 1, "same": True, "invalid": False}
    for rel in DOWNLOADS:
        assert (out / "apart" / rel).read_bytes() == (out / "here" / rel).read_bytes()


def test_a_small_catalogue_renders_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked for a small catalogue")

    monkeypatch.setattr(os, "fork", no_fork)
    assert pages.site_files_apart(FIXTURE_CATALOG) == pages.site_files(FIXTURE_CATALOG)


def test_an_invalid_catalogue_rendered_apart_raises_its_errors_here(
        apart: dict[str, tuple[dict[str, object], Path]]) -> None:
    assert apart["invalid"][0] == {"forks": 1, "same": True, "invalid": True}


def test_without_a_temporary_folder_the_downloads_are_held_whole(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from catalog_docs.site.plugin import CatalogDocsPlugin

    def no_temp(**_kwargs: object) -> str:
        raise PermissionError("no temporary folder")

    monkeypatch.setattr(tempfile, "mkdtemp", no_temp)
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    config = SimpleNamespace(config_file_path=str(project / "mkdocs.yml"), use_directory_urls=True,
                             strict=False, site_dir=str(project / "site"))
    texts = CatalogDocsPlugin()._build_render(config, project / "catalog")  # type: ignore[arg-type]  # its fields
    assert set(DOWNLOADS) <= set(texts)
