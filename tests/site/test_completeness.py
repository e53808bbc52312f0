"""Completeness: every listing entry, version label, plan entry and comparison has its page, and every
generated page (and every built HTML page) belongs to exactly one of them or to one fixed index page.

The mapping from a generated path back to a model object is the README's URL scheme read backwards.
Everything here runs on the fixture catalogue (tests/fixture-catalog/), never on the real one.
"""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

import fixture_facts as ff
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR
from catalog_docs.site.history import no_history
from catalog_docs.site.paging import PAGE_ROWS, rows_per_page
from catalog_docs.site.render import render_pages
from catalog_docs.site.twins import TWIN_PREFIX, twin_key

FIXED = {"index.md": "home", "legend.md": "legend", "versions/index.md": "versions index",
         "plans/index.md": "plans index", "compare/index.md": "compare index",
         "not-shown/index.md": "not-shown register", "sources/index.md": "sources",
         "downloads/catalog.json": "catalogue download",
         "downloads/lock-matrix.csv": "lock matrix download", "downloads/openapi.yaml": "OpenAPI download",
         "changelog/index.md": "changelog", "feed.xml": "changelog feed", "llms.txt": "llms.txt",
         "llms-full.txt": "every twin"}
FIXED.update({f"downloads/{s.name}": f"{s.name} download" for s in DOWNLOAD_SCHEMA_DIR.glob("*.schema.json")})
FIXED_PAGES = {what: rel.endswith(".md") for rel, what in FIXED.items()}
"""Which fixed files are pages (each has a Markdown twin)."""
PAGED = ("operations", "matrix")  # tables of every listing entry, split into page-N beyond PAGE_ROWS rows
_PAGE_N = re.compile(r"page-([2-9]|[1-9][0-9]+)\.md")  # the first page is index.md or <slug>.md


def owner(rel: str, catalog: Catalog) -> tuple[str, ...]:
    """The one thing a generated file is the page of; fails for a file that belongs to nothing. A page's Markdown
    twin (site/twins.py) belongs to what its page belongs to (assert_complete), an operation's feed to its listing
    entry, and a folder's empty sitemap to that folder."""
    if rel.endswith("/sitemap.xml"):
        return ("sitemap", rel)
    if rel.startswith("operations/") and rel.endswith("/feed.xml"):
        return ("feed", *owner(rel[: -len("/feed.xml")] + ".md", catalog))
    if rel in FIXED:
        return ("fixed", FIXED[rel])
    folder, _, name = rel.partition("/")
    if folder in PAGED:
        if name == "index.md":
            return (folder, "1")
        m = _PAGE_N.fullmatch(name)
        if m:
            return (folder, m.group(1))
    page = "1"
    if folder in ("versions", "plans") and name.count("/") == 1:
        # A long version or plan table continues in versions/<slug>/page-N.md (plans/<slug>/page-N.md).
        parent, _, rest = name.partition("/")
        m = _PAGE_N.fullmatch(rest)
        assert m, f"{rel} belongs to nothing in the URL scheme"
        name, page = parent + ".md", m.group(1)
    assert name.endswith(".md") and "/" not in name, f"{rel} belongs to nothing in the URL scheme"
    slug = name[: -len(".md")]
    if folder == "operations":
        found = [e for e in catalog.entries if e.slug == slug]
        assert len(found) == 1, f"{rel}: no listing entry has the slug {slug!r}"
        return ("entry", str(found[0].position))
    if folder == "versions":
        found = [v for v in catalog.versions if v.slug == slug]
        assert len(found) == 1, f"{rel}: no version label has the slug {slug!r}"
        return ("label", found[0].label, page)
    if folder == "plans":
        found = [n for n in catalog.plan_names if n.replace(" ", "-") == slug]
        assert len(found) == 1, f"{rel}: no plan entry has the slug {slug!r}"
        return ("plan", found[0], page)
    if folder == "compare":
        a, sep, b = slug.partition("...")
        pairs = [(x.label, y.label) for x, y in pairwise(catalog.versions)
                 if (x.slug, y.slug) == (a, b)]
        assert sep and len(pairs) == 1, f"{rel}: not a comparison of two consecutive labels"
        return ("comparison", *pairs[0])
    raise AssertionError(f"{rel} belongs to nothing in the URL scheme")


def expected_owners(catalog: Catalog) -> Counter[tuple[str, ...]]:
    """One page per model object and per fixed page; a table of every listing entry gets one page per
    rows_per_page(its columns) entries (PAGE_ROWS for narrow tables, fewer for wide ones)."""
    def pages(columns: int) -> range:
        return range(1, math.ceil(len(catalog.entries) / rows_per_page(columns)) + 1)

    columns = sum(len(v.plans) for v in catalog.versions)
    owners = [("fixed", f) for f in FIXED.values()]
    owners += [(folder, str(i)) for folder in PAGED for i in pages(columns)]
    owners += [("entry", str(e.position)) for e in catalog.entries]
    owners += [("label", v.label, str(i)) for v in catalog.versions for i in pages(len(v.plans))]
    owners += [("plan", n, str(i)) for n in catalog.plan_names for i in pages(len(catalog.versions))]
    owners += [("comparison", a.label, b.label) for a, b in pairwise(catalog.versions)]
    return Counter(owners)


def assert_complete(files: dict[str, str] | list[str], catalog: Catalog) -> None:
    twin_of = {twin_key(rel, True): rel for rel in files if rel.endswith(".md")}
    got = Counter(("twin", *owner(twin_of[rel], catalog)) if rel.startswith(TWIN_PREFIX) else owner(rel, catalog)
                  for rel in files if not rel.endswith("/sitemap.xml"))
    want = expected_owners(catalog)
    # Every page has one twin; every listing entry one feed when the render has the history (its changelog).
    want += Counter(("twin", *o) for o in want.elements() if o[0] != "fixed" or FIXED_PAGES[o[1]])
    if ("fixed", "changelog feed") in got:
        want += Counter(("feed", "entry", str(e.position)) for e in catalog.entries)
    missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
    assert got == want, f"missing pages: {missing}; extra pages: {extra}"


def test_fixture_catalogue_every_object_has_exactly_one_page() -> None:
    catalog = load_catalog(ff.FIXTURE_CATALOG)
    files = render_pages(catalog, history=no_history())
    assert_complete(files, catalog)
    files = {rel: text for rel, text in files.items() if rel.endswith((".md", ".json", ".csv", ".yaml", ".xml"))
             and not rel.startswith(TWIN_PREFIX) and not rel.endswith(("/sitemap.xml", "/feed.xml"))}
    # The counts of the fixture, so the test cannot pass with an empty model.
    assert len([f for f in files if f.startswith("operations/") and f != "operations/index.md"]) == ff.LISTING_SIZE
    assert len([f for f in files if f.startswith("versions/") and f != "versions/index.md"]) == len(ff.LABELS)
    assert len([f for f in files if f.startswith("plans/") and f != "plans/index.md"]) == len(ff.PLAN_NAMES)
    assert len([f for f in files if f.startswith("compare/") and f != "compare/index.md"]) == len(ff.PAIRS)


def _grow(catalog_dir: Path, extra: int) -> None:
    """Add `extra` listing entries with fake paths (/fakeOp-N) after the fixture's, with a value in every plan."""
    listing = catalog_dir / "listing.yaml"
    text = listing.read_text(encoding="utf-8")
    n = text.count("  - position: ")
    lines = [text.rstrip("\n")]
    for i in range(n + 1, n + extra + 1):
        lines += [f"  - position: {i}", "    method: POST", f"    path: /fakeOp-{i}",
                  "    version_marker: {at: none}", "    area: {id: fake-refunds, inferred: true}", '    source: "§4"']
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for version in sorted((catalog_dir / "versions").glob("*.yaml")):
        out = []
        for line in version.read_text(encoding="utf-8").splitlines():
            out.append(line)
            if line.strip().startswith(f"{ff.PATHS[-1]}:"):  # after the value of the last listing entry
                indent = line[: len(line) - len(line.lstrip())]
                out += [f"{indent}/fakeOp-{i}: close" for i in range(n + 1, n + extra + 1)]
        version.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_long_listing_splits_tables_and_still_maps_one_to_one(tmp_path: Path) -> None:
    catalog_dir = tmp_path / "catalog"
    shutil.copytree(ff.FIXTURE_CATALOG, catalog_dir)
    _grow(catalog_dir, PAGE_ROWS + 10 - ff.LISTING_SIZE)
    catalog = load_catalog(catalog_dir)
    assert len(catalog.entries) == PAGE_ROWS + 10
    files = render_pages(catalog, history=no_history())
    assert "operations/page-2.md" in files and "matrix/page-2.md" in files
    assert "versions/FAKE-1.0/page-2.md" in files and "plans/PLAN-A/page-2.md" in files
    assert "operations/page-3.md" not in files and "versions/FAKE-1.0/page-3.md" not in files
    assert_complete(files, catalog)


@pytest.mark.site
def test_every_built_page_belongs_to_one_generated_or_hand_written_page(built_site: Path) -> None:
    catalog = load_catalog(ff.FIXTURE_CATALOG)
    files = render_pages(catalog, history=no_history())
    expected_html = {"404.html"}
    for rel in files:
        if rel.endswith(".md") and not rel.startswith(TWIN_PREFIX):
            stem = rel[: -len(".md")]
            stem = stem[: -len("index")] if stem.endswith("index") else stem + "/"
            expected_html.add(stem + "index.html")
    built = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")}
    assert built == expected_html, (f"built but not generated: {sorted(built - expected_html)}; "
                                    f"generated but not built: {sorted(expected_html - built)}")
    assert (built_site / "downloads" / "catalog.json").is_file()


def _catalogue_with(tmp_path: Path, replacements: dict[str, tuple[str, str]]) -> Path:
    catalog_dir = tmp_path / "catalog"
    shutil.copytree(ff.FIXTURE_CATALOG, catalog_dir)
    for rel, (old, new) in replacements.items():
        f = catalog_dir / rel
        text = f.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        f.write_text(text.replace(old, new), encoding="utf-8")
    return catalog_dir


@pytest.mark.parametrize(("fake_path", "refused"), [("/index", True), ("/page/2", True), ("/page-10", True),
                                                     ("/page-1", False), ("/page-02", False), ("/indexes", False)])
def test_a_path_whose_slug_is_a_table_page_is_refused_with_its_place(tmp_path: Path, fake_path: str,
                                                                      refused: bool) -> None:
    # /index would become operations/index.md and replace the operations table without a word.
    catalog_dir = _catalogue_with(tmp_path, {
        "listing.yaml": ("path: /fakeWidgetList\n", f"path: {fake_path}\n"),
        **{f"versions/{slug}.yaml": ("/fakeWidgetList:", f"{fake_path}:") for slug in ff.LABEL_SLUGS.values()},
    })
    if not refused:
        # page-1 is never a table page (the first page is index), so it is an ordinary operation page.
        catalog = load_catalog(catalog_dir)
        assert_complete(render_pages(catalog, history=no_history()), catalog)
        return
    with pytest.raises(CatalogInvalid) as exc:
        load_catalog(catalog_dir)
    assert re.search(r"\blisting\.yaml:\d+:\d+: listing\.entries\[\d+\]\.path: expected a path whose page URL is free",
                     exc.value.report()), exc.value.report()


@pytest.mark.parametrize("name", ["index", "Index"])
def test_a_plan_entry_named_index_is_refused_with_its_place(tmp_path: Path, name: str) -> None:
    catalog_dir = _catalogue_with(tmp_path, {
        "service.yaml": ("  - PLAN B\n", f"  - {name}\n"),
        "versions/FAKE-1.0.yaml": ("  PLAN B:\n", f"  {name}:\n"),
    })
    with pytest.raises(CatalogInvalid) as exc:
        load_catalog(catalog_dir)
    assert re.search(r"\bservice\.yaml:\d+:\d+: service\.plan_entries\[2\]: expected a name whose page URL is free",
                     exc.value.report()), exc.value.report()


def test_the_render_still_refuses_two_pages_at_one_path(tmp_path: Path) -> None:
    """Behind the validator, the render itself never lets one page silently replace another."""
    catalog = load_catalog(ff.FIXTURE_CATALOG)
    entries = list(catalog.entries)
    entries[0] = dataclasses.replace(entries[0], slug="index")
    with pytest.raises(CatalogDocsError, match=r"docs/operations/index\.md"):
        render_pages(dataclasses.replace(catalog, entries=tuple(entries)))


MARK_CLASSES = ("lock-close", "lock-unlimited", "not-listed", "not-shown", "inferred", "changed", "plans-differ",
                "new-value")
MARK_PHRASES = ("no area inferred",)


def test_every_mark_a_page_uses_is_defined_in_the_legend() -> None:
    """A reader meets each mark (a class on a span or a cell) and each fixed phrase of our own in the legend."""
    pages = {name: text for name, text in render_pages(load_catalog(ff.FIXTURE_CATALOG)).items()
             if name.endswith(".md")}
    legend = pages.pop("legend.md")
    used = {c for text in pages.values() for c in MARK_CLASSES if re.search(rf'class="[^"]*\b{c}\b', text)}
    used |= {p for text in pages.values() for p in MARK_PHRASES if p in text}
    assert used == set(MARK_CLASSES) | set(MARK_PHRASES)  # the fixture shows every one of them
    for mark in used:
        row = rf'<th scope="row">[^\n]*(class="[^"]*\b{mark}\b|{mark})'
        assert re.search(row, legend), f"{mark} is not in the legend"
