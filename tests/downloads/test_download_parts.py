"""The site's downloads are made in parts, each written as it comes (paging.Job.parts): joined, the parts are
exactly the text `catalog-docs export` writes whole, for any catalogue the maintainers' edits can make (entries
without a path, labels and plan entries added or removed, texts that look like the
JSON or YAML they are spliced into)."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs.authoring.synth import SynthSpec, synth_files
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import MATRIX_ROWS_PER_PART, export_text
from catalog_docs.site.render import plan_pages
from catalog_edits import edited, load_docs, read_docs, write_docs
from fixture_facts import FIXTURE_CATALOG

DOWNLOADS = {"downloads/catalog.json": "json", "downloads/lock-matrix.csv": "csv", "downloads/openapi.yaml": "openapi"}


def _parts(catalog: Catalog) -> dict[str, list[str]]:
    jobs = {job.path: job for job in plan_pages(catalog).jobs}
    out = {}
    for path in DOWNLOADS:
        parts = jobs[path].parts
        assert parts is not None, path
        out[path] = list(parts())
    return out


def _assert_parts_are_the_export(catalog: Catalog) -> None:
    for path, parts in _parts(catalog).items():
        assert "".join(parts) == export_text(catalog, DOWNLOADS[path]), path


def test_the_fixture_catalogues_downloads_in_parts_are_the_exports() -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    parts = _parts(catalog)
    _assert_parts_are_the_export(catalog)
    # In parts indeed: the head, a part per label, the rest; a part per path item between the head and the rest.
    assert len(parts["downloads/catalog.json"]) == len(catalog.versions) + 2
    assert len(parts["downloads/openapi.yaml"]) == len({e.path for e in catalog.entries if e.path}) + 2


def test_a_long_matrix_comes_in_parts_of_rows(tmp_path: Path) -> None:
    docs = read_docs(FIXTURE_CATALOG)
    entries = docs["listing"]["entries"]
    while len(entries) <= MATRIX_ROWS_PER_PART:  # more rows than one part holds, as fake entries with a fresh path
        n = len(entries) + 1
        extra = copy.deepcopy(entries[0])
        extra.update(position=n, path=f"/fakeLongMatrix{n:04d}")
        entries.append(extra)
        for version in docs["versions"].values():
            for plan in version["plans"].values():
                plan["values"][extra["path"]] = "close"
    catalog = load_catalog(write_docs(docs, tmp_path / "catalog"))
    parts = _parts(catalog)["downloads/lock-matrix.csv"]
    assert len(parts) == 2 and parts[0].count("\n") == MATRIX_ROWS_PER_PART + 1  # the header and a part's rows
    _assert_parts_are_the_export(catalog)


@pytest.mark.parametrize("text", ['"versions": []', '\n  "versions": []', "paths: {}", "\npaths: {}\n",
                                  '\n  "plans": []\n}'])
def test_text_that_looks_like_a_splice_point_stays_text(tmp_path: Path, text: str) -> None:
    docs = read_docs(FIXTURE_CATALOG)
    docs["service"]["summary"] = f"A fake summary with {text} in it."
    docs["register"]["items"][0]["detail"] = f"A fake detail: {text}"
    _assert_parts_are_the_export(load_catalog(write_docs(docs, tmp_path / "catalog")))


def test_entries_without_a_path_have_no_path_item(tmp_path: Path) -> None:
    """A synthetic catalogue of 300 entries has a few without a path (as the real listing has)."""
    folder = tmp_path / "catalog"
    for rel, text in synth_files(SynthSpec(operations=300, versions=3, plans=2, seed=3)).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    catalog = load_catalog(folder)
    paths = [e.path for e in catalog.entries if e.path is not None]
    assert len(paths) < len(catalog.entries)
    _assert_parts_are_the_export(catalog)


_BASE = read_docs(FIXTURE_CATALOG)


@pytest.mark.slow  # 40 random runs of edits, each exported twice
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_give_the_same_downloads_in_parts(data: st.DataObject) -> None:
    """Any of the maintainer's edits (catalog_edits.EDITS), one to three at a time; each catalogue loaded from
    memory (catalog_edits.load_docs, as a git revision's is loaded)."""
    docs, _names = edited(_BASE, data, 1, 3)
    _assert_parts_are_the_export(load_docs(docs))


@pytest.mark.slow  # the same property as the one above
@settings(max_examples=1, deadline=None)
@given(st.data())
def test_random_edits_give_the_same_downloads_in_parts_loaded_from_a_folder(data: st.DataObject) -> None:
    """One example more of that property, its catalogue loaded from a folder as `check` loads it."""
    docs, _names = edited(_BASE, data, 1, 3)
    with tempfile.TemporaryDirectory() as tmp:
        _assert_parts_are_the_export(load_catalog(write_docs(docs, Path(tmp) / "catalog")))
