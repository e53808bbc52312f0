"""`make bench-scale`: the whole build at a size on each engine, its peak memory beside a bare build's, and what each
site publishes, side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog_docs.devtools.bench import main as bench_main
from sitebuild import in_memory_folder

pytestmark = [pytest.mark.slow, pytest.mark.site]


def test_the_scale_run_reports_memory_search_and_page_sizes_and_writes_them(
        tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    # Four small builds (make site on mkdocs and on Zensical, render, bare build) of a 4-operation synthetic
    # catalogue: a few seconds each. In memory where it can be: the builds write and the run removes hundreds of
    # files (the project, its sites), cheap on tmpfs and not on a journalled disk.
    with in_memory_folder(tmp_path_factory, "scale") as tmp_path:
        _scale_run(tmp_path, capsys)


def _scale_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--out", str(tmp_path), "--only", "scale", "--sizes", "4", "--versions", "2",
                       "--plans", "1"]) == 0
    rows = json.loads((tmp_path / "scale.json").read_text(encoding="utf-8"))
    figures = {r["metric"]: r["value"] for r in rows if r["case"] == "4x2x1"}
    for metric in ("mkdocs_make_site_peak_rss_mb", "zensical_make_site_peak_rss_mb", "bare_mkdocs_build_peak_rss_mb",
                   "cli_render_peak_rss_mb"):
        assert isinstance(figures[metric], float) and figures[metric] > 10, metric
    assert figures["make_site_peak_rss_vs_bare"] == pytest.approx(
        figures["mkdocs_make_site_peak_rss_mb"] / figures["bare_mkdocs_build_peak_rss_mb"], abs=0.01)
    for engine in ("mkdocs", "zensical"):
        assert isinstance(figures[f"{engine}_make_site_s"], float), engine
        index = figures[f"{engine}_search_index_bytes"]
        assert 0 < figures[f"{engine}_search_index_gzip_bytes"] < index, engine
        wire = figures[f"{engine}_first_search_wire_bytes"]
        assert wire > figures[f"{engine}_search_index_gzip_bytes"], engine  # the search worker too
        assert figures[f"{engine}_pages_over_1mb"] == 0 and figures[f"{engine}_largest_html_bytes"] > 0, engine
        # what tools that read docs download: llms.txt is an index, llms-full.txt holds every twin
        assert 0 < figures[f"{engine}_llms_txt_bytes"] < figures[f"{engine}_llms_full_txt_bytes"], engine
    table = (tmp_path / "scale.txt").read_text(encoding="utf-8").splitlines()
    assert any(line.split() == ["metric", "4x2x1", "mkdocs", "4x2x1", "zensical"] for line in table), table
    row = next(line.split() for line in table if line.startswith("first_search_wire_bytes (B)"))
    assert row[-2:] == [str(figures[f"{engine}_first_search_wire_bytes"]) for engine in ("mkdocs", "zensical")]
    row = next(line.split() for line in table if line.startswith("llms_full_txt_bytes (B)"))
    assert row[-2:] == [str(figures[f"{engine}_llms_full_txt_bytes"]) for engine in ("mkdocs", "zensical")]
    assert not (tmp_path / "scale-4x2x1").exists()  # the project is removed once measured
    capsys.readouterr()
