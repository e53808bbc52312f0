"""`make bench`'s control site: plain Material pages at our page paths, built with our configuration."""

from __future__ import annotations

import itertools
import statistics
from pathlib import Path

import pytest

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.devtools import bench
from catalog_docs.devtools.bench import (
    CONTROL_BUILD,
    MAKE_SITE_MKDOCS,
    READER_KINDS,
    RENDERED,
    ROOT,
    SERVE_POLL_S,
    USER_BUILD,
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


class _Clock:
    """The bench's runner (`_run`) for the arithmetic tests: each build it is asked for answers the next scripted
    (wall, cpu) of its folder, and the commands, folders and environments asked for are kept, in order. The real
    builds are the end-to-end tests' (one round each) and `make bench`'s."""

    def __init__(self, times: dict[str, list[tuple[float, float]]]) -> None:
        self.left = {name: iter(runs) for name, runs in times.items()}
        self.asked: list[tuple[list[str], str, dict[str, str] | None]] = []

    def __call__(self, cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, bool, str]:
        self.asked.append((cmd, cwd.name, env))
        wall, cpu = next(self.left[cwd.name])
        return wall, cpu, True, ""


@pytest.fixture(scope="module")
def head(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout's HEAD extracted once for the baseline tests (they only read it), and its short hash."""
    src = tmp_path_factory.mktemp("head") / "src"
    commit = extract_revision("HEAD", src)
    return src, commit


@pytest.mark.site
def test_bench_reports_our_cost_per_page_as_a_ratio_to_the_control_site(tmp_path: Path) -> None:
    """One real round: our build as a user runs it and the control site's, in this run (the rounds' arithmetic:
    test_the_control_ratio_is_the_median_of_the_rounds_ratios_of_processor_time)."""
    project = _rendered_project(tmp_path)
    report = Report()
    for n, kind in enumerate(READER_KINDS):  # as the render stage reports them before (bench_stage)
        report.add("case", f"template_{kind}_s", 0.25 * (n + 1), "s")
    bench_control(report, "case", project, ["mkdocs"], rounds=1)
    control = next(r for r in report.rows if r["metric"] == "control_mkdocs_build_s")
    assert isinstance(control["value"], float) and control["value"] > 0
    ratio = next(r for r in report.rows if r["metric"] == "mkdocs_build_cost_per_page_vs_control")
    [[ours, theirs]] = ratio["rounds"]  # our build's processor time, then the control site's, back to back
    assert ours > 0 and theirs > 0
    assert ratio["value"] == round(ours / theirs, 2)
    assert abs(control["cpu_s"] - theirs) < 0.002  # as printed
    assert ratio["wall_ratio"] > 0
    share = next(r for r in report.rows if r["metric"] == "reader_files_share_of_build")
    assert share["value"] == round(2.5 / ours, 3)  # 0.25 + 0.5 + 0.75 + 1
    # Ours as a user builds (the render included: the built site has the downloads), the control without our plugins.
    assert (project / "site" / "index.html").is_file() and (project / "site" / "downloads" / "catalog.json").is_file()
    plugins = (project / "mkdocs-control.yml").read_text(encoding="utf-8").split("\nplugins:", 1)[1]
    assert "catalog-docs" not in plugins and "catalog-search" not in plugins and "search" in plugins
    assert not (tmp_path / "case-control").exists()  # the control project is removed after its build


def test_the_control_ratio_is_the_median_of_the_rounds_ratios_of_processor_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three rounds with known times: each round builds ours then the control site, back to back; the figure is
    the median of the rounds' ratios of processor time (not the ratio of medians), the control's row its median
    build, the wall ratio beside it the median of the wall ratios."""
    project = _rendered_project(tmp_path)
    clock = _Clock({"case": [(4.0, 3.0), (9.0, 8.0), (5.0, 2.0)], "case-control": [(2.0, 1.0), (3.0, 2.0),
                                                                                  (4.0, 4.0)]})
    monkeypatch.setattr(bench, "_run", clock)
    report = Report()
    for n, kind in enumerate(READER_KINDS):
        report.add("case", f"template_{kind}_s", 0.25 * (n + 1), "s")
    bench_control(report, "case", project, ["mkdocs"], rounds=3)
    assert clock.asked == [(USER_BUILD, "case", None), (CONTROL_BUILD, "case-control", None)] * 3
    ratio = next(r for r in report.rows if r["metric"] == "mkdocs_build_cost_per_page_vs_control")
    assert ratio["rounds"] == [[3.0, 1.0], [8.0, 2.0], [2.0, 4.0]]
    assert ratio["value"] == 3.0  # the ratios 3, 4 and 0.5; their ratio of medians would be 3 / 2
    assert ratio["wall_ratio"] == 2.0  # 2, 3 and 1.25
    control = next(r for r in report.rows if r["metric"] == "control_mkdocs_build_s")
    assert control["value"] == 3.0 and control["cpu_s"] == 2.0
    assert report.get("case", "reader_files_share_of_build") == round(2.5 / 3.0, 3)  # over our median, 3 s
    assert report.get("case", "control_pages") == len(list((project / RENDERED).rglob("*.md")))
    assert not (tmp_path / "case-control").exists()


@pytest.mark.site
def test_bench_builds_a_baseline_revision_in_the_same_run(tmp_path: Path, head: tuple[Path, str]) -> None:
    project = _rendered_project(tmp_path)
    src, commit = head
    assert (src / "mkdocs.yml").is_file() and (src / "scripts" / "catalog_docs").is_dir()
    report = Report()
    bench_baseline(report, "case", project, src, commit, ["mkdocs"])
    assert report.get("case", "baseline") == commit
    theirs = report.get("case", "baseline_mkdocs_build_s")
    assert isinstance(theirs, float) and theirs > 0, report.rows
    ratio = next(r for r in report.rows if r["metric"] == "mkdocs_build_vs_baseline")
    [[ours, base]] = ratio["rounds"]
    assert abs(base - theirs) < 0.002 and ratio["value"] == round(ours / base, 2) and ratio["cpu_ratio"] > 0
    assert not (tmp_path / "case-baseline").exists()  # the baseline project is removed after its build


def _fixture_files() -> dict[str, str]:
    return {p.relative_to(FIXTURE_CATALOG).as_posix(): p.read_text(encoding="utf-8")
            for p in FIXTURE_CATALOG.rglob("*") if p.is_file()}


@pytest.mark.site
def test_make_site_is_timed_against_a_baseline_revision_in_the_same_run(tmp_path: Path,
                                                                       head: tuple[Path, str]) -> None:
    # Two small builds (ours, then the baseline's: one round) of the fixture catalogue; the rounds' arithmetic:
    # test_make_site_vs_baseline_is_the_median_of_the_rounds_ratios.
    src, commit = head
    report = Report()
    bench_make_site_vs_baseline(report, tmp_path, 1, src, commit, _fixture_files())
    ours = next(r for r in report.rows if r["metric"] == "make_site_s")
    theirs = next(r for r in report.rows if r["metric"] == f"baseline {commit}: make_site_s")
    [our_wall] = ours["rounds"]
    [their_wall] = theirs["rounds"]
    assert our_wall > 0 and their_wall > 0 and ours["cpu_s"] > 0 and theirs["cpu_s"] > 0, report.rows
    # the rounds are reported to the millisecond, the ratio from the unrounded times: equal to within that
    assert report.get("real", "make_site_vs_baseline") == pytest.approx(our_wall / their_wall, abs=0.002)
    assert (tmp_path / "make-site-real" / "site" / "downloads" / "catalog.json").is_file()
    # the baseline's own build, by its own code (its package first on the path): a site of its own
    assert (tmp_path / "make-site-real-baseline" / "site" / "downloads" / "catalog.json").is_file()


def test_make_site_vs_baseline_is_the_median_of_the_rounds_ratios(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Three rounds with known times, each ours then the baseline's (its package first on PYTHONPATH), back to
    back: each side's row is its median build with every round's wall time, the ratio the median of the rounds'
    ratios."""
    clock = _Clock({"make-site-real": [(4.0, 3.0), (9.0, 8.0), (5.0, 2.0)],
                    "make-site-real-baseline": [(2.0, 1.0), (3.0, 2.0), (4.0, 4.0)]})
    monkeypatch.setattr(bench, "_run", clock)
    report = Report()
    bench_make_site_vs_baseline(report, tmp_path, 3, ROOT, "abc1234", _fixture_files())
    baseline_env = {"PYTHONPATH": str(ROOT / "scripts")}
    assert clock.asked == [(MAKE_SITE_MKDOCS, "make-site-real", None),
                           (MAKE_SITE_MKDOCS, "make-site-real-baseline", baseline_env)] * 3
    ours = next(r for r in report.rows if r["metric"] == "make_site_s")
    theirs = next(r for r in report.rows if r["metric"] == "baseline abc1234: make_site_s")
    assert (ours["rounds"], ours["value"], ours["cpu_s"]) == ([4.0, 9.0, 5.0], 5.0, 3.0)
    assert (theirs["rounds"], theirs["value"], theirs["cpu_s"]) == ([2.0, 3.0, 4.0], 3.0, 2.0)
    row = next(r for r in report.rows if r["metric"] == "make_site_vs_baseline")
    assert row["value"] == 2.0  # the ratios 2, 3 and 1.25; their ratio of medians would be 5 / 3
    assert row["cpu_ratio"] == 3.0  # 3, 4 and 0.5
    assert (tmp_path / "make-site-real-baseline" / "catalog" / "service.yaml").is_file()  # the same catalogue


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
