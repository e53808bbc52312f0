"""`make bench`'s control site: plain Material pages at our page paths, built with our configuration."""

from __future__ import annotations

import itertools
import statistics
from pathlib import Path

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.devtools.bench import (
    READER_KINDS,
    RENDERED,
    SERVE_POLL_S,
    Report,
    bench_baseline,
    bench_control,
    bench_make_site_vs_baseline,
    edit_phase,
    extract_revision,
    make_control_project,
    make_project,
)
from catalog_docs.devtools.bench import main as bench_main
from catalog_docs.site.folders import render_out
from catalog_docs.site.render import render_pages
from catalog_docs.site.twins import split_twins
from fixture_facts import FIXTURE_CATALOG


def _rendered_project(tmp_path: Path) -> Path:
    project = tmp_path / "case"
    make_project(project, {p.relative_to(FIXTURE_CATALOG).as_posix(): p.read_text(encoding="utf-8")
                           for p in FIXTURE_CATALOG.rglob("*") if p.is_file()})
    render_out(split_twins(render_pages(load_catalog(project / "catalog")))[0], project / RENDERED, replace=True)
    return project


def test_control_pages_sit_at_our_page_paths_and_hold_plain_prose(tmp_path: Path) -> None:
    project = _rendered_project(tmp_path)
    ours = sorted(p.relative_to(project / RENDERED) for p in (project / RENDERED).rglob("*.md"))
    count = make_control_project(project, tmp_path / "control")
    control = tmp_path / "control" / RENDERED
    theirs = sorted(p.relative_to(control) for p in control.rglob("*.md"))
    assert count == len(ours) == len(theirs) and ours == theirs
    for rel in theirs:
        text = (control / rel).read_text(encoding="utf-8")
        assert text.startswith(f"# {rel.with_suffix('').as_posix()}\n")
        assert "|" not in text and "<" not in text  # no table, no HTML: a plain page
        assert text.count("\n## ") == 3


@pytest.mark.site
def test_bench_reports_our_cost_per_page_as_a_ratio_to_the_control_site(tmp_path: Path) -> None:
    project = _rendered_project(tmp_path)
    report = Report()
    for n, kind in enumerate(READER_KINDS):  # as the render stage reports them before (bench_stage)
        report.add("case", f"template_{kind}_s", 0.25 * (n + 1), "s")
    bench_control(report, "case", project, ["mkdocs"], rounds=2)
    control = next(r for r in report.rows if r["metric"] == "control_mkdocs_build_s")
    assert isinstance(control["value"], float) and control["value"] > 0
    ratio = next(r for r in report.rows if r["metric"] == "mkdocs_build_cost_per_page_vs_control")
    rounds = ratio["rounds"]  # each round: our build's processor time, then the control site's, back to back
    assert len(rounds) == 2 and all(ours > 0 and theirs > 0 for ours, theirs in rounds)
    assert ratio["value"] == round(statistics.median(ours / theirs for ours, theirs in rounds), 2)
    assert abs(control["cpu_s"] - statistics.median(theirs for _, theirs in rounds)) < 0.002  # as printed
    assert ratio["wall_ratio"] > 0
    share = next(r for r in report.rows if r["metric"] == "reader_files_share_of_build")
    assert share["value"] == round(2.5 / statistics.median(ours for ours, _ in rounds), 3)  # 0.25 + 0.5 + 0.75 + 1
    # Ours as a user builds (the render included: the built site has the downloads), the control without our plugins.
    assert (project / "site" / "index.html").is_file() and (project / "site" / "downloads" / "catalog.json").is_file()
    plugins = (project / "mkdocs-control.yml").read_text(encoding="utf-8").split("\nplugins:", 1)[1]
    assert "catalog-docs" not in plugins and "catalog-search" not in plugins and "search" in plugins
    assert not (tmp_path / "case-control").exists()  # the control project is removed after its build


@pytest.mark.site
def test_bench_builds_a_baseline_revision_in_the_same_run(tmp_path: Path) -> None:
    project = _rendered_project(tmp_path)
    commit = extract_revision("HEAD", tmp_path / "src")
    assert (tmp_path / "src" / "mkdocs.yml").is_file() and (tmp_path / "src" / "scripts" / "catalog_docs").is_dir()
    report = Report()
    bench_baseline(report, "case", project, tmp_path / "src", commit, ["mkdocs"])
    assert report.get("case", "baseline") == commit
    theirs = report.get("case", "baseline_mkdocs_build_s")
    assert isinstance(theirs, float) and theirs > 0, report.rows
    ratio = next(r for r in report.rows if r["metric"] == "mkdocs_build_vs_baseline")
    [[ours, base]] = ratio["rounds"]
    assert abs(base - theirs) < 0.002 and ratio["value"] == round(ours / base, 2) and ratio["cpu_ratio"] > 0
    assert not (tmp_path / "case-baseline").exists()  # the baseline project is removed after its build


@pytest.mark.site
def test_make_site_is_timed_against_a_baseline_revision_in_the_same_run(tmp_path: Path) -> None:
    # Four small builds (ours and the baseline's, two rounds) of the fixture catalogue.
    commit = extract_revision("HEAD", tmp_path / "src")
    files = {p.relative_to(FIXTURE_CATALOG).as_posix(): p.read_text(encoding="utf-8")
             for p in FIXTURE_CATALOG.rglob("*") if p.is_file()}
    report = Report()
    bench_make_site_vs_baseline(report, tmp_path, 2, tmp_path / "src", commit, files)
    ours = next(r for r in report.rows if r["metric"] == "make_site_s")
    theirs = next(r for r in report.rows if r["metric"] == f"baseline {commit}: make_site_s")
    assert len(ours["rounds"]) == len(theirs["rounds"]) == 2, report.rows
    ratio = report.get("real", "make_site_vs_baseline")
    # the rounds are reported to the millisecond, the ratio from the unrounded times: equal to within that
    assert ratio == pytest.approx(statistics.median(o / t for o, t in zip(ours["rounds"], theirs["rounds"],
                                                                       strict=True)), abs=0.002)
    assert (tmp_path / "make-site-real" / "site" / "downloads" / "catalog.json").is_file()


def test_an_unknown_baseline_revision_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--out", str(tmp_path), "--baseline", "no-such-revision-x", "--sizes", ""]) == 2
    err = capsys.readouterr().err
    assert err.startswith("catalog_docs.devtools.bench: error: --baseline 'no-such-revision-x': ")
    assert "Traceback" not in err


def test_a_revision_with_a_link_to_an_absolute_path_still_extracts(tmp_path: Path) -> None:
    """A throw-away repository may commit `node_modules` as a link to an absolute path (test_catalog_edits
    does): the link is skipped, everything else is extracted."""
    import tarfile

    from catalog_docs.devtools.bench import _tree_filter

    link = tarfile.TarInfo("node_modules")
    link.type, link.linkname = tarfile.SYMTYPE, "/elsewhere/node_modules"
    inside = tarfile.TarInfo("overrides/link")
    inside.type, inside.linkname = tarfile.SYMTYPE, "../mkdocs.yml"
    assert _tree_filter(link, str(tmp_path)) is None
    assert _tree_filter(inside, str(tmp_path)) is not None
    escaping = tarfile.TarInfo("overrides/out")
    escaping.type, escaping.linkname = tarfile.SYMTYPE, "../../../etc/passwd"
    with pytest.raises(tarfile.FilterError):  # still the safe filter for anything else
        _tree_filter(escaping, str(tmp_path))


def test_render_stage_and_bare_parse_are_timed_back_to_back(tmp_path: Path) -> None:
    """render_stage_vs_yaml_parse: each round times the render stage and the bare parse one after the other,
    so a busy minute slows both; the printed ratio is the median of the rounds' ratios as printed."""
    from catalog_docs.devtools.bench import bench_stage

    project = _rendered_project(tmp_path)
    report = Report()
    bench_stage(report, "case", project, 3)
    row = next(r for r in report.rows if r["metric"] == "render_stage_vs_yaml_parse")
    rounds = row["rounds"]
    assert len(rounds) == 3 and all(stage > 0 and parse > 0 for stage, parse in rounds)
    assert row["value"] == round(statistics.median(stage / parse for stage, parse in rounds), 2)
    assert row["cpu_ratio_one_process"] > 0
    assert report.get("case", "yaml_parse_s") == round(min(parse for _, parse in rounds), 4)
    assert not (project / "docs-stage").exists()  # the rounds' scratch folder is removed


def test_the_edits_meet_every_part_of_the_servers_polling_interval_evenly() -> None:
    phases = [edit_phase(i, 5) for i in range(5)]
    assert phases == sorted(phases) and phases[0] > 0 and phases[-1] < SERVE_POLL_S
    gaps = {round(b - a, 9) for a, b in itertools.pairwise(phases)}
    assert gaps == {round(SERVE_POLL_S / 5, 9)}
    assert phases[0] == pytest.approx(SERVE_POLL_S / 10)  # each in the middle of its fifth of the interval


def test_the_render_stage_writes_the_pages_as_render_out_does_without_the_twins(tmp_path: Path) -> None:
    """The bare and control builds read these files: a twin written among them would be built as a page of its
    own (the control site then had twice our pages)."""
    from catalog_docs.devtools.bench import _bench_render_stage

    report = Report()
    docs = tmp_path / "rendered"
    _bench_render_stage(report, "case", FIXTURE_CATALOG, docs, 1)
    written = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()
                     and p.name != ".catalog-docs-output")  # the tool's own mark on a folder it writes
    pages, twins = split_twins(render_pages(load_catalog(FIXTURE_CATALOG)))
    assert twins and written == sorted(pages)
    assert report.get("case", "files_written") == len(pages)
