"""Synthetic catalogues: valid for every size and seed, the same files for the same seed, varied like a real one."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.authoring.synth import NO_PATH_EVERY, SynthSpec, synth_files, write_synth
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.pages import SOURCES_DIR, directory_urls_of, site_files
from catalog_docs.site.render import plan_pages
from catalog_docs.site.twins import LLMS_FULL, TWIN_PREFIX, twin_key


@pytest.mark.parametrize(("operations", "versions", "plans", "seed"),
                         [(1, 1, 1, 1), (23, 2, 2, 3), (150, 7, 4, 11), (260, 3, 5, 42)])
def test_synthetic_catalogue_loads(tmp_path: Path, operations: int, versions: int, plans: int, seed: int) -> None:
    write_synth(SynthSpec(operations=operations, versions=versions, plans=plans, seed=seed), tmp_path)

    catalog = load_catalog(tmp_path)

    assert len(catalog.entries) == operations
    assert len(catalog.versions) == versions
    assert catalog.plan_names == tuple(f"Fake Plan {k + 1}" for k in range(plans))
    assert all(v.plans for v in catalog.versions)
    assert sum(e.path is None for e in catalog.entries) == operations // NO_PATH_EVERY


def test_same_seed_same_files_other_seed_other_values() -> None:
    spec = SynthSpec(operations=120, versions=6, plans=4, seed=5)
    assert synth_files(spec) == synth_files(spec)
    assert synth_files(spec) != synth_files(SynthSpec(operations=120, versions=6, plans=4, seed=6))


def test_variety_of_a_large_catalogue(tmp_path: Path) -> None:
    write_synth(SynthSpec(operations=300, versions=12, plans=4, seed=1), tmp_path)
    catalog = load_catalog(tmp_path)

    listed = [{p.name for p in v.plans} for v in catalog.versions]
    assert any(a - b for a, b in itertools.pairwise(listed)), "some plan entry is removed from one label to the next"
    assert any(b - a for a, b in itertools.pairwise(listed)), "some plan entry is added from one label to the next"
    first, last = catalog.versions[0].plans[0].values, catalog.versions[-1].plans[0].values
    assert first != last, "values change across labels"
    assert {e.version_marker.at for e in catalog.entries} == {"none", "start", "end", "not-shown"}
    assert any(e.area is None for e in catalog.entries) and any(e.area is not None for e in catalog.entries)


def test_cli_synth_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fake"
    assert cli.main(["synth", "--operations", "40", "--versions", "3", "--plans", "2", "--out", str(out)]) == 0
    assert cli.main(["check", "--catalog", str(out)]) == 0
    assert "catalogue OK: 40 listing entries" in capsys.readouterr().out


def _produced(catalog: Catalog, wanted: Callable[[str], bool]) -> dict[str, str]:
    """The site's files whose paths `wanted` picks, each produced by its planned job as render_pages produces it
    (workers.render_jobs: each job on its own, in any order or process), in this process; a test reads no other."""
    return {job.path: job.produce() for job in plan_pages(catalog).jobs if wanted(job.path)}


def test_no_page_of_a_wide_catalogue_holds_more_than_one_table_page_of_rows(tmp_path: Path) -> None:
    write_synth(SynthSpec(operations=520, versions=20, plans=4, seed=2), tmp_path)
    pages = _produced(load_catalog(tmp_path), lambda path: not path.startswith(("compare/", "downloads/")))

    assert "versions/FAKE-1.0/page-3.md" in pages  # 520 rows: 250 + 250 + 20, page 1 keeps its URL
    assert "versions/FAKE-1.0/page-4.md" not in pages
    assert "plans/Fake-Plan-1/page-3.md" in pages
    counted = {path: table_rows(text) for path, text in pages.items()  # a comparison is paged by its own limit
               if path.endswith(".md") and not path.removeprefix(TWIN_PREFIX).startswith(("compare/", "downloads/"))}
    assert 250 in counted["versions/FAKE-1.0.md"]  # the count reads the pages' HTML tables: a full table page
    assert any(250 in rows for path, rows in counted.items() if path.startswith(TWIN_PREFIX))  # and the twins'
    for path, rows in counted.items():
        assert all(n <= 250 for n in rows), (path, rows)


def table_rows(text: str) -> list[int]:
    """The number of body rows of each table of a page: an HTML table's rows in its <tbody>, a Markdown table's
    lines below its header and delimiter lines."""
    counts = [body.count("<tr") for body in re.findall(r"<tbody>(.*?)</tbody>", text, re.S)]
    run = 0
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            run += 1
        elif run:
            counts.append(run - 2)
            run = 0
    return counts


def test_one_changed_value_changes_exactly_the_pages_that_show_it(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog"
    write_synth(SynthSpec(operations=30, versions=3, plans=2, seed=1), catalog)
    first = site_files(catalog)
    assert site_files(catalog) == first

    version = sorted((catalog / "versions").glob("*.yaml"))[-1]
    text = version.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("/") and ln.endswith(": close"))
    version.write_text(text.replace(line, line.replace(": close", ": unlimited"), 1), encoding="utf-8")
    after = site_files(catalog)
    changed = {rel for rel in after if after[rel] != first.get(rel)}
    assert after.keys() == first.keys() and 0 < len(changed) < len(first) / 2
    slug = line.strip().split(":")[0][1:].replace("/", "-")
    before = text[: text.index(line)].splitlines()
    plan = next(ln.strip()[:-1] for ln in reversed(before) if ln.startswith("  ") and not ln.startswith("   "))
    label_slug = version.stem
    labels = [p.stem for p in sorted((catalog / "versions").glob("*.yaml"))]
    # Exactly the pages that show this value (or a count it changes), each page's Markdown twin and no other
    # twin, llms-full.txt (which holds the twins), the operation's own feed, the three downloads and the edited
    # file as published; no page that only names a line of listing.yaml (the listing did not change).
    pages = {
        f"operations/{slug}.md", "operations/index.md", "matrix/index.md", f"versions/{label_slug}.md",
        f"plans/{plan.replace(' ', '-')}.md", f"compare/{labels[-2]}...{labels[-1]}.md", "compare/index.md",
        "sources/index.md",  # it counts each plan entry's values by position
        "changelog/index.md",  # the last label's changes, which now hold this one
    }
    directory_urls = directory_urls_of(catalog.parent)
    assert changed == pages | {twin_key(p, directory_urls) for p in pages} | {
        LLMS_FULL, "feed.xml", f"operations/{slug}/feed.xml",
        "downloads/catalog.json", "downloads/lock-matrix.csv", "downloads/openapi.yaml",
        f"{SOURCES_DIR}/versions/{version.name}",
    }


def test_a_comparison_with_many_unchanged_values_gives_their_count_not_their_rows(tmp_path: Path) -> None:
    from catalog_docs.compare.changes import Side, compare_sides
    from catalog_docs.site.compare_pages import UNCHANGED_LISTED

    write_synth(SynthSpec(operations=300, versions=2, plans=2, seed=4), tmp_path)
    catalog = load_catalog(tmp_path)
    a, b = catalog.versions
    cmp = compare_sides(catalog, Side(label=a.label), Side(label=b.label))
    assert len(cmp.unchanged) > UNCHANGED_LISTED
    page = _produced(catalog, lambda path: path == f"compare/{a.slug}...{b.slug}.md")[f"compare/{a.slug}...{b.slug}.md"]

    assert f"{len(cmp.unchanged)} values are the same under both labels" in page
    assert f'catalog-docs diff "{a.label}" "{b.label}" --format json' in page
    assert "(folded)" not in page
    changed = cmp.by_kind("value-changed")
    assert changed and all(f'<tr id="{c.id}">' in page for c in changed)  # every change is still listed, by its id


def test_synth_never_overwrites_a_real_catalogue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from fixture_facts import FIXTURE_CATALOG

    real = tmp_path / "catalog"  # a hand-written catalogue, as catalog/ is: not one synth made
    shutil.copytree(FIXTURE_CATALOG, real)
    before = {p: p.read_bytes() for p in real.rglob("*") if p.is_file()}

    assert cli.main(["synth", "--operations", "5", "--versions", "1", "--plans", "1", "--out", str(real)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in real.rglob("*") if p.is_file()} == before

    fake = tmp_path / "fake"
    write_synth(SynthSpec(operations=5, versions=3, plans=1), fake)
    write_synth(SynthSpec(operations=7, versions=2, plans=1, seed=2), fake)  # an earlier synthetic one: replaced
    assert len(load_catalog(fake).entries) == 7 and len(list((fake / "versions").glob("*.yaml"))) == 2
