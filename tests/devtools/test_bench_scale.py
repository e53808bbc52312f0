"""`make bench-scale`: the whole build at a size, its peak memory beside a bare build's, and what the site publishes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog_docs.devtools.bench import main as bench_main

pytestmark = [pytest.mark.slow, pytest.mark.site]


def test_the_scale_run_reports_memory_search_and_page_sizes_and_writes_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Three small builds (make site, render, bare build) of a 30-operation synthetic catalogue: a few seconds.
    assert bench_main(["--out", str(tmp_path), "--only", "scale", "--sizes", "30", "--versions", "3",
                       "--plans", "2"]) == 0
    rows = json.loads((tmp_path / "scale.json").read_text(encoding="utf-8"))
    figures = {r["metric"]: r["value"] for r in rows if r["case"] == "30x3x2"}
    for metric in ("make_site_peak_rss_mb", "bare_mkdocs_build_peak_rss_mb", "cli_render_peak_rss_mb"):
        assert isinstance(figures[metric], float) and figures[metric] > 10, metric
    assert figures["make_site_peak_rss_vs_bare"] == pytest.approx(
        figures["make_site_peak_rss_mb"] / figures["bare_mkdocs_build_peak_rss_mb"], abs=0.01)
    index = figures["mkdocs_search_index_bytes"]
    assert 0 < figures["mkdocs_search_index_gzip_bytes"] < index < figures["mkdocs_first_search_wire_bytes"] * 10
    assert figures["mkdocs_first_search_wire_bytes"] > figures["mkdocs_search_index_gzip_bytes"]  # the worker too
    assert figures["mkdocs_pages_over_1mb"] == 0 and figures["mkdocs_largest_html_bytes"] > 0
    assert "make_site_peak_rss_mb" in (tmp_path / "scale.txt").read_text(encoding="utf-8")
    assert not (tmp_path / "scale-30x3x2").exists()  # the project is removed once measured
    capsys.readouterr()
