"""Snapshot tests: every file the renderer makes from the fixture catalogue, compared with a stored copy.

The fixture (tests/fixture-catalog/, obviously fake) has every feature a page can show: several labels and
plan entries, plan entries dropped and added, markers, inferred and missing areas, an entry without a path.
Snapshots of it change when a template changes, never when the real catalog/ is edited.

Each snapshot in tests/snapshots/ is named after the page it holds (`operations/fakeWidgetList.md` is
`operations__fakeWidgetList.md`) and opens with one line naming the inputs that made it: the catalogue and
the template (with the templates it imports). The rest of the file is the page exactly as rendered.

Regenerate with ``pytest tests/site/test_render_snapshots.py --update-snapshots`` and read the diff as a
reviewer would: a snapshot that records a wrong fact, an invented fact, a confusing sentence or a broken
table is a bug in a template, not in the snapshot.
"""

from __future__ import annotations

import difflib
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest
from jinja2 import meta

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.history import Added, BuildTime, LabelHistory
from catalog_docs.site.render import render_pages
from catalog_docs.site.templating import environment
from catalog_docs.site.twins import TWIN_PREFIX, twin_key
from fixture_facts import FIXTURE_CATALOG

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots"
TEMPLATES = ROOT / "scripts" / "catalog_docs" / "site" / "templates"

# Which template renders which generated file (the URL scheme of the README, folder by folder).
_INDEX_TEMPLATES = {
    "index.md": "home.md.j2",
    "legend.md": "legend.md.j2",
    "operations/index.md": "operations.md.j2",
    "versions/index.md": "versions.md.j2",
    "plans/index.md": "plans.md.j2",
    "compare/index.md": "compare_index.md.j2",
    "matrix/index.md": "matrix.md.j2",
    "not-shown/index.md": "not_shown.md.j2",
    "sources/index.md": "sources.md.j2",
    "changelog/index.md": "changelog.md.j2",
}
_FOLDER_TEMPLATES = {
    "operations": "operation.md.j2",
    "versions": "version.md.j2",
    "plans": "plan.md.j2",
    "compare": "compare.md.j2",
}


def template_for(rel: str) -> str:
    """The template that renders a generated file, or the exporter for the JSON download."""
    exporters = {"downloads/catalog.json": "export.catalog_data", "downloads/lock-matrix.csv": "export.lock_matrix_csv",
                 "downloads/openapi.yaml": "export.openapi_data", "feed.xml": "feed.atom_feed"}
    exporters.update({"llms.txt": "llms.llms_txt", "llms-full.txt": "llms.full_parts (every twin below, in order)"})
    if rel in exporters:
        return f"{exporters[rel]} (no template)"
    if rel.startswith(TWIN_PREFIX):  # a page's Markdown twin: its page's template of templates/twins/
        return "twins/" + template_for(_page_of_twin()[rel])
    if rel.startswith("operations/") and rel.endswith("/feed.xml"):
        return "feed.operation_feed (no template)"
    if rel.startswith("downloads/") and rel.endswith(".schema.json"):
        return f"scripts/catalog_docs/schemas/{rel.removeprefix('downloads/')} (no template)"
    if rel in _INDEX_TEMPLATES:
        return _INDEX_TEMPLATES[rel]
    folder = rel.split("/", 1)[0]
    if folder in _FOLDER_TEMPLATES and rel.count("/") == 1:
        return _FOLDER_TEMPLATES[folder]
    raise AssertionError(f"no template is known for generated file {rel!r}; add it to the URL scheme")


@cache
def _page_of_twin() -> dict[str, str]:
    return {twin_key(rel, True): rel for rel in rendered() if rel.endswith(".md") and not rel.startswith(TWIN_PREFIX)}


def _imports(template: str) -> list[str]:
    if not template.endswith(".j2"):
        return []
    env = environment()
    source = (TEMPLATES / template).read_text(encoding="utf-8")
    return sorted(t for t in meta.find_referenced_templates(env.parse(source)) if t)


def header(rel: str) -> str:
    """The first line of a snapshot: which page, and the inputs that made it."""
    template = template_for(rel)
    uses = " + ".join([f"templates/{template}" if template.endswith(".j2") else template]
                      + [f"templates/{t}" for t in _imports(template)])
    dated = (" + HISTORY (a fixed git history)" if rel in ("changelog/index.md", "feed.xml", "twin:changelog/index.md")
             or rel.endswith("/feed.xml") else "")
    return (f"<!-- snapshot of docs/{rel} | inputs: tests/fixture-catalog/ (the fixture catalogue){dated}, {uses} | "
            f"regenerate: pytest tests/site/test_render_snapshots.py --update-snapshots -->\n")


def snapshot_name(rel: str) -> str:
    name = rel.replace(TWIN_PREFIX, "twin__").replace("/", "__")
    return name if name.endswith(".md") else name + ".md"


@cache
def history() -> LabelHistory:
    """The first label in the oldest commit of a shallow clone, the second committed after it, the rest not
    committed."""
    versions = load_catalog(FIXTURE_CATALOG).versions
    return LabelHistory(
        repository=True, shallow=True, added={
            versions[0].slug: Added(when=datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), commit="a" * 40, known="boundary"),
            versions[1].slug: Added(when=datetime(2024, 2, 3, 4, 5, 6, tzinfo=UTC), commit="b" * 40, known="commit")},
        build=BuildTime(when=datetime(2024, 3, 4, 5, 6, 7, tzinfo=UTC), source="SOURCE_DATE_EPOCH"))


HISTORY = history


@cache
def rendered() -> dict[str, str]:
    return render_pages(load_catalog(FIXTURE_CATALOG), history=history())


PAGES = sorted(rel for rel in rendered() if not rel.endswith("/sitemap.xml"))  # the same empty sitemap in each


@pytest.mark.parametrize("rel", PAGES)
def test_page_matches_snapshot(rel: str, request: pytest.FixtureRequest) -> None:
    expected_text = header(rel) + rendered()[rel]
    path = SNAPSHOTS / snapshot_name(rel)
    if request.config.getoption("--update-snapshots"):
        SNAPSHOTS.mkdir(exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != expected_text:
            path.write_text(expected_text, encoding="utf-8")
        return
    assert path.is_file(), f"no snapshot for docs/{rel}; run pytest --update-snapshots and review {path.name}"
    stored = path.read_text(encoding="utf-8")
    if stored != expected_text:
        diff = "".join(difflib.unified_diff(stored.splitlines(keepends=True), expected_text.splitlines(keepends=True),
                                            f"snapshot {path.name}", f"rendered docs/{rel}", n=2))
        pytest.fail(f"docs/{rel} differs from its snapshot (run pytest --update-snapshots if intended):\n{diff}")


def test_every_snapshot_belongs_to_a_rendered_page(request: pytest.FixtureRequest) -> None:
    wanted = {snapshot_name(rel) for rel in PAGES}
    stale = sorted(p.name for p in SNAPSHOTS.glob("*.md") if p.name not in wanted)
    if request.config.getoption("--update-snapshots"):
        for name in stale:
            (SNAPSHOTS / name).unlink()
        return
    assert not stale, f"snapshots of pages the renderer no longer makes: {stale}; run pytest --update-snapshots"


def test_snapshot_names_are_one_to_one() -> None:
    # Two pages must never share a snapshot file.
    assert len({snapshot_name(rel) for rel in PAGES}) == len(PAGES)


def test_every_page_names_its_template() -> None:
    # Each template states the context it expects, in its first line.
    for rel in PAGES:
        template = template_for(rel)
        if template.endswith(".j2"):
            first = (TEMPLATES / template).read_text(encoding="utf-8").splitlines()[0]
            assert first.startswith("{#- Context:"), f"{template} does not open with its context comment"
