"""Benchmark: how load, validate, render and the site builders grow with the catalogue.

`make bench` (or `python -m catalog_docs.devtools.bench --out bench-out`) writes synthetic catalogues of several
sizes into bench-out/, measures each stage, and prints one JSON line per measurement, then a table.
It reports figures; it never fails on a number. Times are wall-clock seconds (the best of --repeat
runs for the stages in this process); `cpu_s` figures count processor time, which varies less than
wall-clock time on a busy machine.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import io
import itertools
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from catalog_docs.authoring.synth import SynthSpec, synth_files
from catalog_docs.catalog.load import load_file
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.folders import render_out, write_tree
from catalog_docs.site.pages import Reuse, site_files
from catalog_docs.site.render import plan_pages, render_pages, render_workers
from catalog_docs.site.twins import split_twins

_C_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
MAX_PAGE_BYTES = 2 * 1024 * 1024
PAGE_LIMIT_BYTES = 1024 * 1024
"""Issue 35: no page over 1 MB at 10,000 operations."""


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _best(fn: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    runs = [_timed(fn) for _ in range(repeat)]
    return runs[-1][0], min(r[1] for r in runs), min(r[2] for r in runs)


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, bool, str]:
    """Run a builder; wall time, its processor time (children), success, last lines of its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
    return wall, cpu, proc.returncode == 0, tail


def _time_templates(catalog: Any) -> dict[str, float]:
    """Processor seconds spent producing each kind of file (template, `download`, `twin`, ...) in one process
    (measurement only)."""
    spent: dict[str, float] = {}
    for job in plan_pages(catalog).jobs:
        start = time.process_time()
        job.produce()
        spent[job.kind] = spent.get(job.kind, 0.0) + time.process_time() - start
    return spent


READER_KINDS = ("twin", "operation-feed", "llms", "sitemap")
"""The files made for readers beyond the browser (issue 43): the pages' Markdown twins, the operations' feeds,
llms.txt and the empty sitemaps beside them."""


RENDERED = "docs-rendered"
"""Where a scratch project holds its rendered pages for the bare builds (mkdocs-bare.yml, zensical.yml); its
docs/ stays empty, as a fresh clone's holds only hand-written pages."""
MKDOCS_BUILD = [str(BIN / "mkdocs"), "build", "--strict", "--quiet", "-f", "mkdocs-bare.yml"]
USER_BUILD = [str(BIN / "mkdocs"), "build", "--strict", "--quiet"]
"""A build as a user runs it (make site): mkdocs.yml with the project's plugins, the render included."""
CONTROL_BUILD = [str(BIN / "mkdocs"), "build", "--strict", "--quiet", "-f", "mkdocs-control.yml"]
"""The control site's build: mkdocs.yml without the project's plugins or hooks, over pages already written."""


def _builder_command(builder: str) -> list[str] | None:
    """The strict build command of `builder` (mkdocs on mkdocs-bare.yml, Zensical on zensical.yml), or None
    when Zensical is not installed."""
    if builder == "mkdocs":
        return MKDOCS_BUILD
    exe = BIN / "zensical"
    return [str(exe), "build", "--strict", "--clean", "-f", "zensical.yml"] if exe.exists() else None


def _build_against(report: Report, case: str, project: Path, folder: Path, builders: list[str], prefix: str,
                   ratio: str, note: str, env: dict[str, str] | None = None, rounds: int = 1) -> None:
    """Build our project and the one in `folder` with each builder, one after the other, `rounds` times.
    Records `{prefix}_{builder}_build_s` (the median of its builds) and `{builder}_{ratio}`: the median of
    the rounds' ratios of our build time to it. The two builds of a round run back to back, so a busy minute
    slows both; the median keeps one outlying round from moving the figure. Each round's pair of wall-clock
    times is in the row (`rounds`), to recompute the ratio from."""
    for builder in builders:
        cmd = _builder_command(builder)
        if cmd is None:
            continue
        runs, failed = _build_rounds(cmd, project, folder, env, rounds)
        if failed or not runs:
            report.add(case, f"{prefix}_{builder}_build_s", "failed", "s", ok=False, output=failed)
            continue
        theirs = [t for _, t in runs]
        report.add(case, f"{prefix}_{builder}_build_s", statistics.median(w for w, _ in theirs), "s",
                   cpu_s=round(statistics.median(c for _, c in theirs), 3), ok=True)
        cpu_ratios = [o[1] / t[1] for o, t in runs if t[1] > 0]
        # The ratio is computed from the times as printed, so a reader recomputing it from `rounds` gets it.
        printed = [[round(o[0], 3), round(t[0], 3)] for o, t in runs]
        report.add(case, f"{builder}_{ratio}", round(statistics.median(o / t for o, t in printed), 2), "x",
                   cpu_ratio=round(statistics.median(cpu_ratios), 2) if cpu_ratios else None,
                   rounds=printed, note=note.format(builder=builder))


_Round = tuple[tuple[float, float], tuple[float, float]]
"""One round of _build_against: (our wall, our cpu), (their wall, their cpu)."""


def _build_rounds(cmd: list[str], project: Path, folder: Path, env: dict[str, str] | None,
                  rounds: int, theirs: list[str] | None = None) -> tuple[list[_Round], str]:
    """`rounds` builds of ours then theirs (`theirs`: another command, else the same), back to back; stops at the
    first failure and returns its output."""
    runs: list[_Round] = []
    for _ in range(rounds):
        ours_wall, ours_cpu, ours_ok, ours_tail = _run(cmd, project)
        wall, cpu, ok, tail = _run(theirs or cmd, folder, env)
        if not (ok and ours_ok):
            return runs, tail if not ok else ours_tail
        runs.append(((ours_wall, ours_cpu), (wall, cpu)))
    return runs, ""


def _lay_out(project: Path, tree: Path) -> None:
    """A fresh project folder around the sources of `tree` (this repository, or a revision extracted by
    extract_revision): an empty docs/, the overrides, package and project files linked, mkdocs.yml copied,
    and the builders' configurations: mkdocs-bare.yml, the same without its hooks or plugin (a bare build of
    pages rendered into RENDERED), and zensical.yml, building the same pages into site-zensical/."""
    if project.exists():
        shutil.rmtree(project)
    (project / "docs").mkdir(parents=True)
    for name in ("overrides", "scripts", "pyproject.toml", "requirements"):
        (project / name).symlink_to(tree / name)
    shutil.copyfile(tree / "mkdocs.yml", project / "mkdocs.yml")
    config = (tree / "mkdocs.yml").read_text(encoding="utf-8")
    bare = re.sub(r"^  - catalog-docs\b.*\n", "", re.sub(r"^hooks:\n(?:  - .*\n)+", "", config, flags=re.M),
                  flags=re.M)
    bare = re.sub(r"^docs_dir: .*$", f"docs_dir: {RENDERED}", bare, flags=re.M)
    zensical = bare.replace("site_dir: site", "site_dir: site-zensical")
    (project / "mkdocs-bare.yml").write_text(bare, encoding="utf-8")
    (project / "mkdocs-control.yml").write_text(re.sub(r"^  - catalog-search\b.*\n", "", bare, flags=re.M),
                                                encoding="utf-8")
    (project / "zensical.yml").write_text(zensical, encoding="utf-8")


def make_project(project: Path, catalog_files: dict[str, str] | None, tree: Path = ROOT) -> None:
    """A throw-away copy of the site project around a catalogue: config, overrides (theme assets included)
    and hook from `tree` (this repository, or a baseline revision; linked or copied), and either a synthetic
    catalogue or the real one."""
    _lay_out(project, tree)
    if catalog_files is None:
        shutil.copytree(ROOT / "catalog", project / "catalog")
    else:
        for rel, text in catalog_files.items():
            path = project / "catalog" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def _site_stats(site: Path, slugs: list[str]) -> dict[str, Any]:
    total = html = 0
    biggest, biggest_path = 0, ""
    for path in site.rglob("*"):
        if path.is_file():
            size = path.stat().st_size
            total += size
            if path.suffix == ".html":
                html += size
                if size > biggest:
                    biggest, biggest_path = size, path.relative_to(site).as_posix()
    op_sizes = [(site / "operations" / slug / "index.html").stat().st_size for slug in slugs
                if (site / "operations" / slug / "index.html").is_file()]
    # mkdocs writes search/search_index.json, Zensical search.json
    search = [p for p in (site / "search" / "search_index.json", site / "search.json") if p.is_file()]
    return {"site_bytes": total, "search_index_bytes": sum(p.stat().st_size for p in search), "html_bytes": html,
            **_first_search_bytes(site, search),
            "largest_html_bytes": biggest, "largest_html_page": biggest_path,
            **_llms_sizes(site),
            "pages_over_2mb": sum(1 for p in site.rglob("*.html") if p.stat().st_size > MAX_PAGE_BYTES),
            "pages_over_1mb": sum(1 for p in site.rglob("*.html") if p.stat().st_size > PAGE_LIMIT_BYTES),
            "html_bytes_per_operation_page": round(sum(op_sizes) / len(op_sizes)) if op_sizes else 0}


def _llms_sizes(site: Path) -> dict[str, int]:
    """The sizes of llms.txt and llms-full.txt (`llms_txt_bytes`, `llms_full_txt_bytes`; 0 when missing)."""
    sizes = {}
    for name in ("llms.txt", "llms-full.txt"):
        path = site / name
        sizes[f"{name.replace('.', '_').replace('-', '_')}_bytes"] = path.stat().st_size if path.is_file() else 0
    return sizes


def _gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def _first_search_bytes(site: Path, index: list[Path]) -> dict[str, int]:
    """What a first search downloads, gzipped as a static host serves it (level 6): the index and the search
    worker (Material's and Zensical's both live at assets/javascripts/workers/search.*.min.js; a first search on
    either fetches those two files and nothing else). The page itself is loaded already."""
    workers = sorted((site / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    if not index:
        return {}
    gz = sum(_gzipped(p) for p in index)
    return {"search_index_gzip_bytes": gz, "first_search_wire_bytes": gz + sum(_gzipped(p) for p in workers)}


class Report:
    """Collects measurements; prints each as one JSON line as it comes."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, case: str, metric: str, value: Any, unit: str = "", **extra: Any) -> None:
        row = {"case": case, "metric": metric, "value": round(value, 4) if isinstance(value, float) else value,
               "unit": unit, **extra}
        self.rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)

    def get(self, case: str, metric: str) -> Any:
        return next((r["value"] for r in self.rows if r["case"] == case and r["metric"] == metric), None)

    def table(self) -> str:
        """The figures as readable tables: one column per catalogue, then one per comparison of sizes."""
        groups: dict[bool, list[dict[str, Any]]] = {}
        for row in self.rows:
            groups.setdefault("->" in row["case"] or row["case"] == "all", []).append(row)
        return "\n\n".join(_table(rows) for _, rows in sorted(groups.items()))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _table(rows: list[dict[str, Any]]) -> str:
    cases = list(dict.fromkeys(r["case"] for r in rows))
    metrics = list(dict.fromkeys(r["metric"] for r in rows))
    values = {(r["case"], r["metric"]): r["value"] for r in rows}
    width = max(len(m) for m in metrics) + 2
    col = max(12, *(len(c) + 2 for c in cases),
              *(len(_cell(v)) + 2 for v in values.values()))
    lines = [f"{'metric':<{width}}" + "".join(f"{c:>{col}}" for c in cases)]
    for m in metrics:
        lines.append(f"{m:<{width}}" + "".join(f"{_cell(values.get((c, m))):>{col}}" for c in cases))
    return "\n".join(lines)


def bench_catalog(report: Report, case: str, project: Path, repeat: int, builders: list[str]) -> None:
    """Measure one catalogue in its project folder: the render stage in this process, the command line in a
    new one, the incremental re-renders, then each builder's site."""
    catalog_dir, docs = project / "catalog", project / RENDERED
    catalog, stage, md_pages = _bench_render_stage(report, case, catalog_dir, docs, repeat)
    _bench_cli_render(report, case, project, catalog_dir, repeat)
    report.add(case, "pages_per_s", round(md_pages / stage), "pages/s")
    report.add(case, "operation_pages_per_s", round(len(catalog.entries) / stage), "pages/s")
    _bench_incremental(report, case, catalog_dir, catalog, stage)
    _bench_builds(report, case, project, [e.slug for e in catalog.entries], builders)


def _bench_render_stage(report: Report, case: str, catalog_dir: Path, docs: Path,
                        repeat: int) -> tuple[Any, float, int]:
    """Parse, load and validate, render and write, each timed; returns the catalogue, the stage's seconds and
    the number of Markdown pages."""
    files = sorted(catalog_dir.rglob("*.yaml"))
    _, wall, cpu = _best(lambda: [load_file(p, p.name) for p in files], repeat)
    report.add(case, "yaml_load_s", wall, "s", cpu_s=round(cpu, 4))
    catalog, wall_lv, cpu_lv = _best(partial(load_catalog, catalog_dir), repeat)
    report.add(case, "load_validate_s", wall_lv, "s", cpu_s=round(cpu_lv, 4))
    values = sum(len(p.values) for v in catalog.versions for p in v.plans)
    report.add(case, "values", values)
    pages, wall_r, cpu_r = _best(partial(render_pages, catalog), repeat)
    report.add(case, "render_pages_s", wall_r, "s", cpu_s=round(cpu_r, 4))
    md = [p for p in pages if p.endswith(".md")]
    op_pages = len(catalog.entries)
    per_template = _time_templates(catalog)
    for template, seconds in sorted(per_template.items(), key=lambda kv: -kv[1]):
        report.add(case, f"template_{template.split('.')[0]}_s", seconds, "s")
    report.add(case, "operation_pages_rendered_per_s", round(op_pages / per_template["operation.md.j2"]), "pages/s",
               note="operation pages only, Jinja time")
    # As `catalog-docs render --out` writes them: the pages and downloads; the twins are files of a built site
    # (site/twins.py), which the bare and control builds would otherwise build as pages of their own.
    written = split_twins(pages)[0]
    _, wall_w, cpu_w = _timed(partial(render_out, written, docs, replace=True))
    report.add(case, "write_s", wall_w, "s", cpu_s=round(cpu_w, 4),
               note="render --out: the files the bare builds read (the site's own builds write none)")
    report.add(case, "files_written", len(written))
    report.add(case, "bytes_written", sum(len(text.encode("utf-8")) for text in written.values()), "B")
    stage = wall_lv + wall_r + wall_w
    report.add(case, "render_stage_s", stage, "s", cpu_s=round(cpu_lv + cpu_r + cpu_w, 4),
               note="load + validate + render + write, first render")
    report.add(case, "render_workers", render_workers(len(pages)), note="processes that render pages")
    return catalog, stage, len(md)


def _bench_cli_render(report: Report, case: str, project: Path, catalog_dir: Path, repeat: int) -> None:
    """`catalog-docs render --out` in a new process, as a maintainer runs it cold, against a bare PyYAML C parse of
    the same files timed just before it, `repeat` rounds: `cli_render_cold_vs_yaml_parse` (issue 41's measure of
    the render: the median of the rounds' ratios of wall-clock time; goal at most 5x)."""
    files = sorted(catalog_dir.rglob("*.yaml"))
    # Each round renders into a new folder of its own (render --out writes only into a new or empty one), all
    # removed after the rounds: deleting the last round's files just before a round slows its writes (see
    # stage_parse_rounds).
    colds = [(project / f"docs-cold-{i}").resolve() for i in range(max(repeat, 1))]
    rounds: list[tuple[float, float]] = []
    try:
        for cold in colds:
            shutil.rmtree(cold, ignore_errors=True)  # an earlier run's, left by a run that was killed
            os.sync()  # the last round's files are on the disk before either side is timed
            _, wall_p, _ = _timed(partial(bare_parse, files))
            wall_cold, _, ok, tail = _run([str(BIN / "catalog-docs"), "render", "--catalog",
                                           str(catalog_dir.resolve()), "--out", str(cold)], project)
            if not ok:
                report.add(case, "cli_render_cold_s", "failed", "s", ok=False, output=tail)
                return
            rounds.append((wall_cold, max(wall_p, 1e-9)))
    finally:
        for cold in colds:
            shutil.rmtree(cold, ignore_errors=True)
    report.add(case, "cli_render_cold_s", statistics.median(c for c, _ in rounds), "s", ok=True,
               note="`catalog-docs render` in a new process: interpreter start, imports, template compilation")
    report.add(case, "cli_render_cold_vs_yaml_parse", round(statistics.median(c / p for c, p in rounds), 2), "x",
               rounds=[[round(c, 4), round(p, 4)] for c, p in rounds],
               note="cold `catalog-docs render --out` over a bare PyYAML C parse of the same files timed just "
                    "before it: wall-clock, median of rounds; goal <= 5")


def _flip_value(text: str, key: str) -> str:
    """The version file's text with the first lock value of `key` flipped (close <-> unlimited)."""
    for old, new in ((f"{key}: close\n", f"{key}: unlimited\n"), (f"{key}: unlimited\n", f"{key}: close\n")):
        if old in text:
            return text.replace(old, new, 1)
    return text


def _bench_incremental(report: Report, case: str, catalog_dir: Path, catalog: Any, stage: float) -> None:
    """The preview's render (in memory, reusing what the last render in this process worked out): a first one,
    one with nothing changed, then one with one value changed."""
    reuse = Reuse()
    site_files(catalog_dir, reuse=reuse)
    _, wall_n, _ = _timed(partial(site_files, catalog_dir, reuse=reuse))
    report.add(case, "noop_rerender_s", wall_n, "s", share_of_first=round(wall_n / stage, 4))
    version_file = sorted((catalog_dir / "versions").glob("*.yaml"))[-1]
    text = version_file.read_text(encoding="utf-8")
    flipped = _flip_value(text, catalog.entries[1].key)
    if flipped != text:
        version_file.write_text(flipped, encoding="utf-8")
    _, wall_c, _ = _timed(partial(site_files, catalog_dir, reuse=reuse))
    report.add(case, "one_value_change_s", wall_c, "s", share_of_first=round(wall_c / stage, 4))


def _bench_builds(report: Report, case: str, project: Path, slugs: list[str], builders: list[str]) -> None:
    for builder in builders:
        cmd = _builder_command(builder)
        if cmd is None:
            report.add(case, "zensical_build_s", "not installed (pip install -e '.[zensical]')")
            continue
        site = project / ("site" if builder == "mkdocs" else "site-zensical")
        shutil.rmtree(site, ignore_errors=True)
        wall_b, cpu_b, ok, tail = _run(cmd, project)
        report.add(case, f"{builder}_build_s", wall_b if ok else "failed", "s", cpu_s=round(cpu_b, 3), ok=ok,
                   **({} if ok else {"output": tail}))
        if ok:
            for metric, value in _site_stats(site, slugs).items():
                report.add(case, f"{builder}_{metric}", value, "B" if "bytes" in metric else "")


def bench_stage(report: Report, case: str, project: Path, repeat: int) -> None:
    """The floor: PyYAML's C parser over the same files, with no source marks and no checks. The render stage
    (load, validate, render every page and download, write) is reported as a multiple of it: the in-process part of the
    cold command's ratio (`cli_render_cold_vs_yaml_parse`, whose goal is 5x).
    The two are timed back to back, `repeat` rounds, and the median of the rounds' ratios counts: timed
    minutes apart, a busy minute on a shared machine moved the ratio by a factor of three.

    `main` measures every catalogue's stage first, before any site is built: right after the builds of the
    smaller sites (tens of thousands of files written and removed), creating a file cost this disk up to 1 ms
    of kernel time instead of 0.15 ms, and the 1,000-operation stage measured 5.4x there against 3.3-3.9x
    before them."""
    catalog_dir = project / "catalog"
    files = sorted(catalog_dir.rglob("*.yaml"))
    rounds = stage_parse_rounds(catalog_dir, files, project / "docs-stage", repeat)
    wall_p, cpu_p = min(r[1] for r in rounds), min(r[3] for r in rounds)
    report.add(case, "yaml_parse_s", wall_p, "s", cpu_s=round(cpu_p, 4),
               note="bare PyYAML C parse of the same files: no source marks, no validation")
    printed = [[round(r[0], 4), round(r[1], 4)] for r in rounds]
    report.add(case, "render_stage_vs_yaml_parse", round(statistics.median(s / p for s, p in printed), 2), "x",
               cpu_ratio_one_process=round(statistics.median(r[2] / r[3] for r in rounds), 2), rounds=printed,
               note="median over rounds of (render stage, bare parse) timed back to back; cpu_ratio_one_process "
                    "renders in this process only (a forked worker's time is not in this process's clock); "
                    "the goal is the cold command's (cli_render_cold_vs_yaml_parse)")


def bare_parse(files: list[Path]) -> list[Any]:
    """The floor of any tool reading the catalogue: each file parsed with PyYAML's C loader, nothing more."""
    return [yaml.load(p.read_bytes(), Loader=_C_LOADER) for p in files]


def stage_parse_rounds(catalog_dir: Path, files: list[Path], scratch: Path,
                       rounds: int) -> list[tuple[float, float, float, float]]:
    """`rounds` pairs, timed back to back: the render stage (load and validate, render every page and download,
    write into an empty folder) and a bare PyYAML C parse of the same files. Each round: stage wall-clock
    seconds, parse wall-clock seconds, stage processor seconds rendering in this process only, parse processor
    seconds."""
    out = []
    # The objects this benchmark already holds (the catalogue, its pages, the synthetic files: 130,000 at
    # 1,000 operations) are set aside from the garbage collector, as if each side ran in a process of its
    # own: left in, every collection during the bare parse scanned them and it took twice as long (0.64 s
    # instead of 0.27 s with the collector off), which flattered the ratio.
    gc.collect()
    gc.freeze()
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        for i in range(rounds):
            # Untimed: the pages the last write left to the kernel are flushed first; a parse timed while tens
            # of megabytes were being written back took twice its processor time in wall-clock time.
            os.sync()
            _, wall_p, cpu_p = _timed(partial(bare_parse, files))
            catalog, wall_lv, cpu_lv = _timed(partial(load_catalog, catalog_dir))
            pages, wall_r, _ = _timed(partial(render_pages, catalog))
            # Each round writes into a folder of its own, all removed after the rounds: deleting the last
            # round's 47 MB just before made this round's file creations wait on the disk (ext4, mounted with
            # `discard`): at 1,000 operations the write took 0.2, 0.34, 0.52, 0.74, 0.89 s in five rounds,
            # against 0.19-0.27 s each into folders of their own.
            (scratch / f"round-{i}").mkdir(parents=True)
            _, wall_w, cpu_w = _timed(partial(write_tree, pages, scratch / f"round-{i}"))
            _, _, cpu_r1 = _timed(partial(render_pages, catalog, workers=1))
            out.append((wall_lv + wall_r + wall_w, wall_p, cpu_lv + cpu_r1 + cpu_w, max(cpu_p, 1e-9)))
            del catalog, pages
            gc.collect()
    finally:
        gc.unfreeze()
    shutil.rmtree(scratch, ignore_errors=True)
    return out


def bench_make_site(report: Report, project: Path) -> None:
    """The real catalogue: `make site` (this repository's Makefile, run in the project copy) against a
    bare `mkdocs build` of the already-rendered pages."""
    make = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), f"VENV={BIN.parent}", "site"]
    shutil.rmtree(project / "site", ignore_errors=True)
    wall, _, ok, tail = _run([*make, "BUILDER=mkdocs"], project)
    report.add("real", "make_site_first_s", wall if ok else "failed", "s", ok=ok, **({} if ok else {"output": tail}))
    walls = [_run(make, project)[0] for _ in range(3)]
    bare = [_run(MKDOCS_BUILD, project)[0] for _ in range(3)]
    report.add("real", "make_site_s", min(walls), "s", note="make site: the plugin renders in memory, mkdocs builds")
    report.add("real", "bare_mkdocs_build_s", min(bare), "s",
               note="mkdocs build of pages already rendered, without the plugin")
    report.add("real", "make_site_over_bare", round(min(walls) / min(bare), 3), "x")


MAKE_SITE_MKDOCS = [str(BIN / "mkdocs"), "build", "--strict", "--quiet"]
"""What `make site` runs (BUILDER=mkdocs, the default), from the project's folder: the plugin renders in memory."""


def bench_make_site_vs_baseline(report: Report, out: Path, rounds: int, src: Path | None, commit: str | None,
                                catalog_files: dict[str, str] | None = None) -> None:
    """The real catalogue's `make site` (its mkdocs build with the plugin), `rounds` times; with a baseline
    revision, that revision's (its package first on PYTHONPATH, its configuration and theme) right after each of
    ours, and the median of the rounds' ratios: nothing else may get slower (issue 35). `catalog_files`: another
    catalogue than the real one (the tests')."""
    ours = out / "make-site-real"
    make_project(ours, catalog_files)
    sides: list[tuple[str, Path, dict[str, str] | None]] = [("", ours, None)]
    if src is not None and commit is not None:
        base = out / "make-site-real-baseline"
        make_project(base, catalog_files, src)
        sides.append((f"baseline {commit}: ", base, {"PYTHONPATH": str(src / "scripts")}))
    times: dict[str, list[tuple[float, float]]] = {prefix: [] for prefix, _, _ in sides}
    for _ in range(rounds):
        for prefix, project, env in sides:
            shutil.rmtree(project / "site", ignore_errors=True)
            wall, cpu, ok, tail = _run(MAKE_SITE_MKDOCS, project, env)
            if not ok:
                report.add("real", f"{prefix}make_site_s", "failed", "s", output=tail)
                return
            times[prefix].append((wall, cpu))
    for prefix, runs in times.items():
        report.add("real", f"{prefix}make_site_s", statistics.median(w for w, _ in runs), "s",
                   cpu_s=round(statistics.median(c for _, c in runs), 3), rounds=[round(w, 3) for w, _ in runs],
                   note="the real catalogue's make site (mkdocs build --strict with the plugin)")
    if len(sides) > 1:
        pairs = list(zip(times[""], times[sides[1][0]], strict=True))
        report.add("real", "make_site_vs_baseline", round(statistics.median(o[0] / t[0] for o, t in pairs), 3), "x",
                   cpu_ratio=round(statistics.median(o[1] / t[1] for o, t in pairs if t[1] > 0), 3),
                   note=f"ours over {commit}'s, back to back, median of {rounds} rounds; nothing else gets slower")


SERVE_POLL_S = 0.5
"""How often mkdocs' server looks for changed files (its PollingObserver): an edit waits up to this long to be seen."""


def edit_phase(round_index: int, rounds: int) -> float:
    """When, within mkdocs' polling interval, round `round_index` of `rounds` makes its edit: evenly spread
    (stratified), so that every case meets the same mix of short and long waits for the poll. A fixed pause
    left that to chance, and not the same chance for every case: the poll's timing follows the start-up build."""
    return SERVE_POLL_S * (round_index + 0.5) / rounds


def bench_edit_to_page(report: Report, case: str, project: Path, env: dict[str, str] | None = None,
                       phase: float = 0.0) -> float | None:
    """The preview loop at scale: `mkdocs serve --dirty --no-strict` (as `make serve`) on an already rendered
    project; one lock value changes in a version file, and the time until the served operation page shows
    it is the edit-to-page time (file watcher, render of the changed pages, rebuild of those pages only).
    `env` is added to the server's environment (PYTHONPATH of a baseline revision's package); `phase` is added
    to the pause before the edit (see edit_phase)."""
    import socket
    import urllib.request

    catalog = load_catalog(project / "catalog")
    entry = catalog.entries[2]
    version_file = sorted((project / "catalog" / "versions").glob("*.yaml"))[-1]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/operations/{entry.slug}/"

    def fetch() -> str | None:
        try:
            with urllib.request.urlopen(url, timeout=120) as response:
                # Without the live-reload call, which differs on every request (epoch and request id).
                return re.sub(r"livereload\(\d+, \d+\);", "", response.read().decode("utf-8"))
        except OSError:
            return None

    log = project / "serve.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen([str(BIN / "mkdocs"), "serve", "--dirty", "--no-strict", "-a", f"127.0.0.1:{port}"],
                                cwd=project, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})})
    try:
        start = time.perf_counter()
        before = None
        while before is None and proc.poll() is None and time.perf_counter() - start < 600:
            before = fetch()
            if before is None:
                time.sleep(0.2)
        if before is None:
            report.add(case, "serve_start_s", "failed", "s", output=log.read_text(encoding="utf-8")[-500:])
            return None
        report.add(case, "serve_start_s", time.perf_counter() - start, "s", note="mkdocs serve: first full build")
        time.sleep(2 + phase)  # let the watcher settle after the start-up build
        flipped = _flip_value(version_file.read_text(encoding="utf-8"), entry.key)
        edited = time.perf_counter()
        version_file.write_text(flipped, encoding="utf-8")
        after = before
        while after == before and time.perf_counter() - edited < 300:
            time.sleep(0.1)
            after = fetch() or before
        if after == before:
            report.add(case, "edit_to_page_s", "timed out", "s", output=log.read_text(encoding="utf-8")[-500:])
            return None
        wall = time.perf_counter() - edited
        full = report.get(case, "mkdocs_build_s")
        report.add(case, "edit_to_page_s", wall, "s", page=f"/operations/{entry.slug}/",
                   note="one value edited under make serve until its operation page is served changed",
                   **({"share_of_full_build": round(wall / full, 3)} if isinstance(full, float) else {}))
        return wall
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- Scale: the whole build, its memory and what it publishes, up to 10,000 operations (issue 35) ----------

_PEAK = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
         "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)")
"""Runs a command and writes the peak resident set of its largest process (itself or any descendant it waited
for, such as the render's forked worker), in KiB."""


def _peak_run(report: Report, case: str, metric: str, cmd: list[str], cwd: Path, note: str) -> int | None:
    """Run `cmd` and report its wall-clock time (`{metric}_s`, processor time beside it) and peak RSS
    (`{metric}_peak_rss_mb`); returns the peak in KiB, or None when it failed."""
    peak_file = cwd / ".peak-rss"
    wall, cpu, ok, tail = _run([sys.executable, "-c", _PEAK, str(peak_file), *cmd], cwd)
    if not ok:
        report.add(case, f"{metric}_s", "failed", "s", output=tail)
        return None
    peak = int(peak_file.read_text(encoding="utf-8"))
    peak_file.unlink()
    report.add(case, f"{metric}_s", wall, "s", cpu_s=round(cpu, 3), note=note)
    report.add(case, f"{metric}_peak_rss_mb", round(peak / 1024, 1), "MB",
               note="peak resident set of the largest process (a forked render worker included)")
    return peak


SCALE_ENGINES = ("mkdocs", "zensical")
"""The engines `make bench-scale` builds each size with, through `make site BUILDER=...`, side by side."""
SIDE_BY_SIDE = (("build_s", "make_site_s", "s"), ("peak_rss_mb", "make_site_peak_rss_mb", "MB"),
                ("index_bytes", "search_index_bytes", "B"), ("index_gzip_bytes", "search_index_gzip_bytes", "B"),
                ("first_search_wire_bytes", "first_search_wire_bytes", "B"),
                ("largest_page_bytes", "largest_html_bytes", "B"), ("largest_page", "largest_html_page", ""),
                ("pages_over_1mb", "pages_over_1mb", ""), ("llms_txt_bytes", "llms_txt_bytes", "B"),
                ("llms_full_txt_bytes", "llms_full_txt_bytes", "B"))
"""The side-by-side table's rows: its name, the metric of each engine's row (`{engine}_...`), the unit."""


def _scale_make_site(report: Report, case: str, project: Path, slugs: list[str], engine: str) -> int | None:
    """`make site BUILDER=engine` in the scale project with its time and peak memory, then what its site
    publishes (`{engine}_...` figures); the site is removed after. Returns the peak in KiB, or None."""
    make = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), f"VENV={BIN.parent}", "site",
            f"BUILDER={engine}"]
    note = {"mkdocs": "make site: render in memory and build",
            "zensical": "make site BUILDER=zensical: catalog-docs build renders into a build folder, Zensical builds "
                        "it"}[engine]
    peak = _peak_run(report, case, f"{engine}_make_site", make, project, note)
    if peak is not None:
        for metric, value in _site_stats(project / "site", slugs).items():
            report.add(case, f"{engine}_{metric}", value, "B" if "bytes" in metric else "")
    shutil.rmtree(project / "site", ignore_errors=True)
    return peak


def bench_scale(report: Report, out: Path, sizes: list[int], versions: int, plans: int, seed: int) -> None:
    """For each size: `make site` with each engine (mkdocs, then Zensical: render and build, as a user runs it)
    with its time and peak memory, and what its site publishes: the search index (bytes, gzipped, a first
    search's download), the largest page, llms.txt and llms-full.txt; then `catalog-docs render --out` and a bare
    `mkdocs build` of the rendered pages, each with its peak memory. One build of each: at 10,000 operations a
    build takes minutes."""
    for n in sizes:
        case = f"{n}x{versions}x{plans}"
        project = out / f"scale-{case}"
        make_project(project, synth_files(SynthSpec(operations=n, versions=versions, plans=plans, seed=seed)))
        slugs = [e.slug for e in load_catalog(project / "catalog").entries]
        ours = None
        for engine in SCALE_ENGINES:
            peak = _scale_make_site(report, case, project, slugs, engine)
            ours = peak if engine == "mkdocs" else ours
        _peak_run(report, case, "cli_render", [str(BIN / "catalog-docs"), "render", "--out", str(project / RENDERED),
                                                "--replace"], project, "catalog-docs render --out: pages and downloads")
        bare = _peak_run(report, case, "bare_mkdocs_build", MKDOCS_BUILD, project,
                         "mkdocs build of the same pages already rendered, without the catalog-docs plugin")
        if ours is not None and bare is not None:
            report.add(case, "make_site_peak_rss_vs_bare", round(ours / bare, 2), "x", note="goal <= 1.3")
        shutil.rmtree(project, ignore_errors=True)


def scale_side_by_side(report: Report) -> str:
    """The scale run's figures of each engine side by side: one column per size and engine, one row per figure."""
    cases = list(dict.fromkeys(r["case"] for r in report.rows if r["case"] != "all"))
    rows = [{"case": f"{case} {engine}", "metric": f"{name} ({unit})" if unit else name,
             "value": report.get(case, f"{engine}_{metric}")}
            for name, metric, unit in SIDE_BY_SIDE for case in cases for engine in SCALE_ENGINES]
    return _table(rows)


# --- Control site: our cost per page against plain Material pages (issue 15) -----------------------------

CONTROL_PARAGRAPH = ("This paragraph stands in for the prose of an ordinary documentation page: a few sentences "
                     "that explain a concept, name a setting and point to the next step, with one `code span` "
                     "and one *emphasised* phrase, as a hand-written page has. ") * 2
"""About 90 words; a control page holds three of them, under three headings, with a short list each."""


def _control_page(title: str) -> str:
    """A plain Material page: a title, three sections of prose with a five-item list; no table, no HTML."""
    sections = "".join(f"## Section {n}\n\n{CONTROL_PARAGRAPH}\n\n" + "".join(f"- item {i} of section {n}\n"
                                                                              for i in range(1, 6)) + "\n"
                       for n in range(1, 4))
    return f"# {title}\n\n{CONTROL_PARAGRAPH}\n\n{sections}"


def make_control_project(project: Path, control: Path) -> int:
    """A control project: the same configuration, theme and overrides as `project` (see make_project), and
    one plain page (_control_page) at each path where `project`'s rendered docs/ holds a page, so the
    navigation resolves to the same pages. Returns the number of pages."""
    make_project(control, {})
    (control / "catalog").mkdir()  # mkdocs.yml watches it; the control site has no catalogue
    pages = sorted((project / RENDERED).rglob("*.md"))
    for page in pages:
        rel = page.relative_to(project / RENDERED)
        target = control / RENDERED / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_control_page(rel.with_suffix("").as_posix()), encoding="utf-8")
    return len(pages)


def bench_control(report: Report, case: str, project: Path, builders: list[str], rounds: int = 3) -> None:
    """Build the control site of `case` in this run and report our cost per page as a ratio to it (same page
    count, so the ratio of build times). mkdocs: our build as a user runs it (USER_BUILD: the render included)
    against the control site's without the project's plugins (CONTROL_BUILD), by processor time, children
    included (`mkdocs_build_cost_per_page_vs_control`, the goal); Zensical: the pages already rendered."""
    control = project.parent / f"{project.name}-control"
    pages = make_control_project(project, control)
    report.add(case, "control_pages", pages, note="plain Material pages, same config, theme and page paths")
    if "mkdocs" in builders:
        _user_build_against_control(report, case, project, control, rounds)
    _build_against(report, case, project, control, [b for b in builders if b != "mkdocs"], "control",
                   "cost_per_page_vs_control",
                   "our {builder} build time per page over the control site's: median of rounds, same run",
                   rounds=rounds)
    shutil.rmtree(control, ignore_errors=True)


def _user_build_against_control(report: Report, case: str, project: Path, control: Path, rounds: int) -> None:
    """`rounds` of our `mkdocs build --strict` (render included), then the control site's, back to back; the
    figure is the median of the rounds' ratios of processor time (children included: the render's processes)."""
    runs, failed = _build_rounds(USER_BUILD, project, control, None, rounds, CONTROL_BUILD)
    if failed or not runs:
        report.add(case, "control_mkdocs_build_s", "failed", "s", ok=False, output=failed)
        return
    report.add(case, "control_mkdocs_build_s", statistics.median(t[0] for _, t in runs), "s",
               cpu_s=round(statistics.median(t[1] for _, t in runs), 3), ok=True)
    printed = [[round(o[1], 3), round(t[1], 3)] for o, t in runs]  # processor seconds, ours then the control's
    report.add(case, "mkdocs_build_cost_per_page_vs_control",
               round(statistics.median(o / t for o, t in printed if t > 0), 2), "x",
               wall_ratio=round(statistics.median(o[0] / t[0] for o, t in runs if t[0] > 0), 2), rounds=printed,
               note="mkdocs build --strict as a user runs it (render included) over the control site's build "
                    "without the project's plugins: processor time, children included, median of rounds; "
                    "goal <= 1.15")
    readers = [report.get(case, f"template_{kind}_s") for kind in READER_KINDS]
    ours = statistics.median(o for o, _ in printed)
    if ours > 0 and all(isinstance(r, float) for r in readers):
        report.add(case, "reader_files_share_of_build", round(sum(readers) / ours, 3), "",
                   note="processor time making the Markdown twins, operation feeds, llms.txt and their sitemaps "
                        "(render stage, one process) over our whole mkdocs build's; goal <= 0.10")


# --- Baseline: the same build by the code of another git revision, in this run (issue 15) -----------------

def _tree_filter(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's safe `data` filter, skipping a committed link to an absolute path (a `node_modules` link in
    a test's throw-away repository): nothing a build reads, and the filter would refuse the whole archive."""
    if member.issym() and Path(member.linkname).is_absolute():
        return None
    return tarfile.data_filter(member, dest)


def extract_revision(rev: str, dest: Path) -> str:
    """The files of git revision `rev` of this repository in `dest` (`git archive`: the repository's own
    state, worktrees included, is left alone). Returns the commit's short hash."""
    commit = subprocess.run(["git", "rev-parse", "--short", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode("ascii").strip()
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(dest, filter=_tree_filter)
    return commit


def bench_baseline(report: Report, case: str, project: Path, src: Path, commit: str, builders: list[str],
                   rounds: int = 1) -> None:
    """Render `project`'s catalogue with the code in `src` (a revision extracted by extract_revision), build
    it with each builder as bench_catalog built ours, and report our build time as a ratio to it: the median of
    `rounds` back-to-back pairs, as for the control site (one pair moved by 2 % between two runs of this machine)."""
    base = project.parent / f"{project.name}-baseline"
    _lay_out(base, src)
    shutil.copytree(project / "catalog", base / "catalog")
    env = {"PYTHONPATH": str(src / "scripts")}  # that revision's package, in the same interpreter and libraries
    render = [sys.executable, "-c", "import sys; from catalog_docs.cli import main; sys.exit(main(sys.argv[1:]))",
              "render", "--catalog", str(base / "catalog"), "--out", str(base / RENDERED)]
    _, _, ok, tail = _run(render, base, env)
    report.add(case, "baseline", commit, note="the revision whose code rendered and built the same catalogue")
    if not ok:
        report.add(case, "baseline_render", "failed", output=tail)
        shutil.rmtree(base, ignore_errors=True)
        return
    _build_against(report, case, project, base, builders, "baseline", "build_vs_baseline",
                   f"our {{builder}} build time over {commit}'s, same catalogue, same run", env, rounds)
    shutil.rmtree(base, ignore_errors=True)


def bench_adversarial(report: Report, out: Path) -> None:
    """Hostile catalogue files at the loader's size limit: how long `check` takes to refuse each, at half
    and at full size (a processor-time ratio near 2 is linear growth), beside a valid file of the same size."""
    from catalog_docs.catalog.files import MAX_BYTES
    from catalog_docs.errors import CatalogInvalid

    base = synth_files(SynthSpec(operations=20, versions=2, plans=2, seed=1))
    cases: dict[str, tuple[str, str]] = {  # name: (text before the repeated unit, unit)
        "valid-comments": ("", "# " + "x" * 77 + "\n"),
        "refused-characters": ("extra: x", "\u200b"),
        "escapes-in-quoted-text": ('extra: "', "\\u202E"),
        "tab-indents": ("extra:\n", "\tk: v\n"),
        "deep-flow-sequences": ("extra: ", "["),
        "deep-flow-mappings": ("extra: ", "{a: "),
        "huge-integer": ("extra: ", "7"),
        "many-keys": ("extra:\n", "  k: v\n"),
    }
    folder = out / "adversarial"
    for name, (head, unit) in cases.items():
        times, cpus = {}, {}
        for share in (0.5, 1.0):
            shutil.rmtree(folder, ignore_errors=True)
            for rel, text in base.items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_text(text, encoding="utf-8")
            target = folder / "not-shown.yaml"
            start = target.read_bytes() + head.encode("utf-8")
            room = int(MAX_BYTES * share) - len(start) - 1
            data = start + unit.encode("utf-8") * (room // len(unit.encode("utf-8")))
            target.write_bytes(data + b"\n")

            def check() -> int:
                try:
                    load_catalog(folder)
                    return 0
                except CatalogInvalid as exc:
                    return len(exc.problems)

            problems, times[share], cpus[share] = _timed(check)
        report.add("adversarial", f"{name}_check_s", times[1.0], "s", bytes=len(data) + 1, problems=problems,
                   cpu_s=round(cpus[1.0], 4), half_size_cpu_s=round(cpus[0.5], 4),
                   cpu_growth=round(cpus[1.0] / max(cpus[0.5], 1e-9), 2))
    shutil.rmtree(folder, ignore_errors=True)


def bench_edit_to_page_only(report: Report, args: argparse.Namespace, size: int, src: Path | None,
                            commit: str | None) -> None:
    """`--only edit-to-page`: the preview loop on the real catalogue and on `size` operations, `args.rounds`
    rounds of each back to back; with a baseline, each round also runs both with the baseline's code (its
    package on PYTHONPATH, its hook and templates in the project). Reports the medians and their ratio."""
    largest = f"{size}x{args.versions}x{args.plans}"
    files = synth_files(SynthSpec(operations=size, versions=args.versions, plans=args.plans, seed=args.seed))
    sides: dict[str, tuple[Path, dict[str, str] | None]] = {"": (ROOT, None)}
    if src is not None and commit is not None:
        sides[f"baseline {commit}: "] = (src, {"PYTHONPATH": str(src / "scripts")})
    for prefix, (tree, _) in sides.items():
        for case, catalog_files in (("real", None), (largest, files)):
            make_project(args.out / f"e2p-{'base-' if prefix else ''}{case}", catalog_files, tree)
    times: dict[tuple[str, str], list[float]] = {}
    for at in range(args.rounds):
        for prefix, (_, env) in sides.items():
            for case in ("real", largest):
                project = args.out / f"e2p-{'base-' if prefix else ''}{case}"
                wall = bench_edit_to_page(Report(), case, project, env, edit_phase(at, args.rounds))
                if wall is not None:
                    times.setdefault((prefix, case), []).append(wall)
    for prefix in sides:
        _report_edit_to_page(report, largest, times.get((prefix, "real"), []), times.get((prefix, largest), []),
                             prefix)


def _report_edit_to_page(report: Report, largest: str, real: list[float], big: list[float], prefix: str = "") -> None:
    """The preview loop's medians on the real catalogue and the largest, and their ratio (goal: at most 1.5x)."""
    for case, walls in (("real", real), (largest, big)):
        if walls:
            report.add(case, f"{prefix}edit_to_page_s", statistics.median(walls), "s",
                       rounds=[round(w, 3) for w in walls],
                       note="one value edited under make serve (mkdocs serve --dirty) until a poll of its "
                            "operation page returns the new page")
    if real and big:
        report.add(largest, f"{prefix}edit_to_page_vs_real", round(statistics.median(big) / statistics.median(real), 2),
                   "x", note="same run, real server, real page poll; goal <= 1.5")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="catalog_docs.devtools.bench", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("bench-out"), help="work folder (default bench-out)")
    parser.add_argument("--sizes", default="250,500,1000", help="operation counts (default 250,500,1000)")
    parser.add_argument("--versions", type=int, default=20, help="version labels (default 20)")
    parser.add_argument("--plans", type=int, default=4, help="plan entries (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each in-process stage; the best counts")
    parser.add_argument("--rounds", type=int, default=3,
                        help="back-to-back builds of ours and the control site; the median ratio counts (default 3)")
    parser.add_argument("--builders", default="mkdocs,zensical",
                        help="site builders to time (default mkdocs,zensical)")
    parser.add_argument("--only", choices=["edit-to-page", "scale", "make-site"], default=None,
                        help="run only this measurement: edit-to-page times the preview loop on the real catalogue "
                             "and the largest size, --rounds times back to back (and, with --baseline, the same "
                             "loop with that revision's code in the same run); scale builds each size once with "
                             "make site and bare, and reports peak memory, the search index and the largest page "
                             "(make bench-scale: 1,000 and 10,000 operations); make-site times the real "
                             "catalogue's make site, with --baseline against that revision's, --rounds pairs")
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="also render and build each synthetic catalogue with the code of git revision REV "
                             "(e.g. main, HEAD~1) in the same run, and report our build time as a ratio to it")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    builders = [b for b in args.builders.split(",") if b]
    args.out = args.out.resolve()  # builders run in the project folders; every path they get is absolute
    args.out.mkdir(parents=True, exist_ok=True)
    report = Report()
    started = time.perf_counter()
    src = args.out / "baseline-src"
    try:
        commit = extract_revision(args.baseline, src) if args.baseline else None
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = (getattr(exc, "stderr", None) or b"").decode("utf-8", "replace").strip() or str(exc)
        print(f"catalog_docs.devtools.bench: error: --baseline {args.baseline!r}: {detail}", file=sys.stderr)
        return 2
    _run_selected(report, args, sizes, builders, src, commit)
    report.add("all", "bench_total_s", time.perf_counter() - started, "s")
    table = report.table()
    if args.only == "scale":
        table += "\n\n" + scale_side_by_side(report)
    print()
    print(table)
    name = args.only or "bench"
    (args.out / f"{name}.json").write_text(json.dumps(report.rows, ensure_ascii=False, indent=1) + "\n",
                                           encoding="utf-8")
    (args.out / f"{name}.txt").write_text(table + "\n", encoding="utf-8")
    return 0


def _run_selected(report: Report, args: argparse.Namespace, sizes: list[int], builders: list[str], src: Path,
                  commit: str | None) -> None:
    """The measurement `--only` names, or every one."""
    if args.only == "edit-to-page":
        bench_edit_to_page_only(report, args, sizes[-1] if sizes else 1000, src if commit else None, commit)
    elif args.only == "scale":
        bench_scale(report, args.out, sizes, args.versions, args.plans, args.seed)
    elif args.only == "make-site":
        bench_make_site_vs_baseline(report, args.out, args.rounds, src if commit else None, commit)
    else:
        _bench_everything(report, args, sizes, builders, src, commit)


def _bench_everything(report: Report, args: argparse.Namespace, sizes: list[int], builders: list[str], src: Path,
                      commit: str | None) -> None:
    """The full run: every catalogue's stage first (on a quiet disk, see bench_stage), then the real
    catalogue, the hostile files, each synthetic size against its control site (and the baseline), the
    preview loop, and how the figures grow with the size."""
    real = args.out / "real"
    make_project(real, None)
    synthetic = {f"{n}x{args.versions}x{args.plans}": n for n in sizes}
    for case, n in synthetic.items():
        make_project(args.out / case,
                     synth_files(SynthSpec(operations=n, versions=args.versions, plans=args.plans, seed=args.seed)))
    for case in ("real", *synthetic):
        bench_stage(report, case, args.out / case, args.repeat)
    bench_catalog(report, "real", real, args.repeat, builders)
    bench_make_site(report, real)
    bench_adversarial(report, args.out)
    for case in synthetic:
        project = args.out / case
        bench_catalog(report, case, project, args.repeat, builders)
        bench_control(report, case, project, builders, args.rounds)
        if commit is not None:
            bench_baseline(report, case, project, src, commit, builders, args.rounds)
    if commit is not None:
        bench_make_site_vs_baseline(report, args.out, args.rounds, src, commit)
    if sizes and "mkdocs" in builders:
        _bench_preview_loop(report, args.out, f"{sizes[-1]}x{args.versions}x{args.plans}")
    _report_growth(report, list(synthetic))


def _bench_preview_loop(report: Report, out: Path, largest: str) -> None:
    """The preview loop on the real catalogue and on the largest, back to back, twice: the ratio of the
    medians is the figure (goal: at most 1.5x), so a busy minute on a shared machine slows both."""
    times: dict[str, list[float]] = {"real": [], largest: []}
    for at in range(2):
        for case, walls in times.items():
            wall = bench_edit_to_page(Report(), case, out / case, phase=edit_phase(at, 2))
            if wall is not None:
                walls.append(wall)
    _report_edit_to_page(report, largest, times["real"], times[largest])


def _report_growth(report: Report, cases: list[str]) -> None:
    """How each stage grows from one synthetic size to the next, and the operation page from first to last."""
    for a, b in itertools.pairwise(cases):
        for metric in ("render_stage_s", "mkdocs_build_s", "zensical_build_s"):
            x, y = report.get(a, metric), report.get(b, metric)
            if isinstance(x, float) and isinstance(y, float) and x > 0:
                report.add(f"{a}->{b}", f"{metric}_growth", round(y / x, 3), "x")
    if len(cases) > 1:
        metric = "mkdocs_html_bytes_per_operation_page"
        x, y = report.get(cases[0], metric), report.get(cases[-1], metric)
        if x and y:
            report.add(f"{cases[0]}->{cases[-1]}", "html_bytes_per_operation_page_growth", round(y / x, 3), "x")


if __name__ == "__main__":
    sys.exit(main())
