"""Every page and download of the site, planned as jobs (`plan_pages`): one step per part of the site.
Nothing here writes a file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from catalog_docs.catalog.model import LOCK_VALUES, Catalog, ListingEntry, VersionLabel
from catalog_docs.compare.changes import Change, Comparison, consecutive_pairs
from catalog_docs.compare.rules import VALUE_KINDS
from catalog_docs.downloads.export import lock_matrix_parts
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR
from catalog_docs.site import readers
from catalog_docs.site.changelog import plan_changelog
from catalog_docs.site.compare_pages import (
    compare_chunks,
    compare_context,
    compare_slug,
    comparison_pages,
    consecutive_comparisons,
)
from catalog_docs.site.download_parts import catalog_json_parts, openapi_parts
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.keys import PageMemo, digest, rows_digest
from catalog_docs.site.paging import PAGE_CELLS, PAGE_ROWS, Cell, Pages, Planning, paged, rows_per_page
from catalog_docs.site.provenance import MARKER_CITATION, source_sections

ChangesByEntry = list[tuple[VersionLabel, VersionLabel, dict[int, list[Change]]]]
"""Each consecutive pair's value records, by the listing position they are about."""


def _changes_by_entry(catalog: Catalog,
                      comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]]) -> ChangesByEntry:
    """The consecutive comparisons' value records grouped by listing position, in plan entry order (the columns of
    an operation page's history), once for every operation page: each lists its own. They are the comparison
    pages' rows, whose ids are their anchors."""
    order = {name: i for i, name in enumerate(catalog.plan_names)}
    out: ChangesByEntry = []
    for a, b, cmp in comparisons:
        found: dict[int, list[Change]] = {}
        for c in sorted((c for c in cmp.changes if c.kind in VALUE_KINDS and c.position is not None),
                        key=lambda c: order.get(c.plan or "", len(order))):
            found.setdefault(c.position or 0, []).append(c)
        out.append((a, b, found))
    return out


def _operation_context(pages: Pages, by_entry: ChangesByEntry, entry: ListingEntry) -> dict[str, Any]:
    history = pages.history(entry)
    values = "; ".join(
        f"{v.label}: " + ", ".join(f"{name} {c.value}" for name, c in zip(pages.catalog.plan_names, cells, strict=True)
                                   if c.value)
        for v, cells in history
    )
    description = f"{entry.method} {entry.title}. Lock values by version label and plan entry: {values}."
    if len(description) > 300:
        description = description[:297].rsplit(" ", 1)[0] + "..."
    changes = [(a, b, found.get(entry.position, [])) for a, b, found in by_entry]
    return {"entry": entry, "history": history, "changes": changes, "not_shown": pages.catalog.not_shown_for(entry),
            "description": description}



def plan_pages(catalog: Catalog, *, directory_urls: bool = True, memo: PageMemo | None = None,
               history: LabelHistory | None = None, search_boost: bool = True) -> Pages:
    """Every page to render (as jobs) and every download; raises CatalogDocsError when two pages share a path.
    With `memo`, every job carries its key (see PageMemo) and comparisons come from the memo when unchanged.
    `history`: when each label was added (site.history), which the changelog and its feed are made from too;
    without it (a render of a catalogue alone, as the benchmark and tests do) they are not made. `search_boost`:
    whether the engine's search has a boost (paging.Pages.search_boost)."""
    pages = Pages(catalog, directory_urls, keyed=memo is not None, feeds=history is not None,
                  search_boost=search_boost)
    pairs = consecutive_pairs(catalog)
    column_values = list(zip(*(c.plan.values for c in pages.columns), strict=True)) or [() for _ in catalog.entries]
    planning = Planning(pages=pages, memo=memo, history=history, pairs=pairs,
                         comparisons=consecutive_comparisons(pages, pairs, memo), column_values=column_values)
    for step in _STEPS:
        step(planning)
    return pages


def _plan_row(pages: Pages, name: str, entry: ListingEntry) -> tuple[ListingEntry, list[Cell]]:
    return entry, pages.plan_cells(name, entry)



def _fixed_values(value: bytes | None) -> Callable[..., bytes] | None:
    """`page_values` that give one digest whatever rows a page holds (None when the render is not keyed)."""
    return None if value is None else partial(_same, value)


def _same(value: bytes, *_rows: int) -> bytes:
    return value


def _home(plan: Planning) -> None:
    """The home page and the legend: both show no lock value, so a keyed render keys them on the skeleton alone
    (an edited value leaves them as they were)."""
    skeleton = _fixed_values(None if plan.pages.digests is None else b"")
    areas = Counter(e.area.id for e in plan.catalog.entries if e.area is not None)
    plan.pages.add("index.md", "home.md.j2", pairs=plan.pairs, area_counts=areas, page_values=skeleton)
    plan.pages.add("legend.md", "legend.md.j2", page_values=skeleton)


def _operations(plan: Planning) -> None:
    """The operations table, then a page per listing entry: its own values under every label (changed-from
    marks compare them with each other) and the consecutive comparisons' records about it."""
    pages = plan.pages
    paged(pages, "operations/index.md", "operations.md.j2", plan.by_column, rows_per_page(len(pages.columns)),
           columns=pages.columns, page_values=plan.row_values)
    # An operation page's changes are its own values' records, so its key (its own values) still covers them.
    by_entry = _changes_by_entry(plan.catalog, plan.comparisons)
    for i, entry in enumerate(plan.catalog.entries):
        pages.add_lazy(f"operations/{entry.slug}.md", "operation.md.j2",
                       partial(_operation_context, pages, by_entry, entry),
                       page_values=partial(plan.operation_values, i))


def _versions(plan: Planning) -> None:
    """The labels' index, then a page per label, keyed on its label's values (`differs` counts them all)."""
    pages, catalog, digests = plan.pages, plan.catalog, plan.pages.digests
    pages.add("versions/index.md", "versions.md.j2", pairs=plan.pairs)
    for at, v in enumerate(catalog.versions):
        values = list(zip(*(p.values for p in v.plans), strict=True))
        differs = [len(set(row)) > 1 for row in values]
        label_values = None if digests is None else digests.version_values[at]
        paged(pages, f"versions/{v.slug}.md", "version.md.j2",
               list(zip(catalog.entries, values, differs, strict=False)),  # a label with no plan entry: no rows
               rows_per_page(len(v.plans)), version=v, differs=differs, page_values=_fixed_values(label_values))


def _plans(plan: Planning) -> None:
    """The plan entries' index, then a table per plan entry, keyed on that plan entry's values under every label
    for the page's rows (its rows and marks read no other column; which labels list it is in the skeleton)."""
    pages, catalog = plan.pages, plan.catalog
    pages.add("plans/index.md", "plans.md.j2")
    for name in catalog.plan_names:
        listed = [v for v in catalog.versions if v.plan(name) is not None]
        unlisted = [v for v in catalog.versions if v.plan(name) is None]
        values = None
        if pages.digests is not None:
            column = list(zip(*(p.values for p in (v.plan(name) for v in listed) if p is not None), strict=True))
            values = partial(_column_rows, column or [() for _ in catalog.entries])
        paged(pages, f"plans/{name.replace(' ', '-')}.md", "plan.md.j2", list(catalog.entries),
               rows_per_page(len(catalog.versions)), partial(_plan_row, pages, name),
               page_values=values, name=name, listed=listed, unlisted=unlisted)


def _column_rows(column: list[tuple[str, ...]], start: int, stop: int) -> bytes:
    return rows_digest(column[start:stop])


def _compare(plan: Planning) -> None:
    """The comparisons' index (with the any-pair form's choices), then a page per consecutive pair, keyed on the
    values of every label up to its later one (see consecutive_comparisons)."""
    pages, catalog, comparisons, digests = plan.pages, plan.catalog, plan.comparisons, plan.pages.digests
    choices = [("Version labels", [v.label for v in catalog.versions]),
               ("Version label : plan entry", [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans])]
    pages.add("compare/index.md", "compare_index.md.j2", comparisons=comparisons, choices=choices)
    entries = {e.position: e for e in catalog.entries}
    kept: dict[int, tuple[Comparison, list[frozenset[str]]]] = {}
    for i, (a, b, cmp) in enumerate(comparisons):
        upto = None if digests is None else digest(*digests.version_values[: i + 2])
        # A comparison the memo kept keeps its pages' rows too: an edit of the newest label splits one again.
        known = plan.memo.chunks.get(id(cmp)) if plan.memo is not None else None
        chunks = known[1] if known is not None and known[0] is cmp else compare_chunks(cmp)
        kept[id(cmp)] = (cmp, chunks)
        comparison_pages(pages, f"compare/{compare_slug(a, b)}.md", chunks,
                          partial(compare_context, comparisons, i, entries), _fixed_values(upto))
    if plan.memo is not None:
        plan.memo.chunks = kept



def _changelog_step(plan: Planning) -> None:
    if plan.history is not None:  # the changelog is made from the history too: without it, there is none
        plan_changelog(plan.pages, plan.comparisons, plan.history)


def _matrix(plan: Planning) -> None:
    pages = plan.pages
    paged(pages, "matrix/index.md", "matrix.md.j2", plan.by_column, rows_per_page(len(pages.columns)),
           columns=pages.columns, page_values=plan.row_values)


def _reference(plan: Planning) -> None:
    """The not-shown register and the sources page."""
    catalog = plan.catalog
    plan.pages.add("not-shown/index.md", "not_shown.md.j2", pairs=plan.pairs)
    plan.pages.add_lazy("sources/index.md", "sources.md.j2", lambda: {
        "sections": source_sections(catalog, max_rows=PAGE_ROWS, max_values=PAGE_CELLS), "max_rows": PAGE_ROWS,
        "max_values": PAGE_CELLS, "lock_values": LOCK_VALUES, "marker_citation": MARKER_CITATION})


def _downloads(plan: Planning) -> None:
    """The downloads, and their contracts as kept (produced on every render: they are files of the package)."""
    pages, catalog, memo, digests = plan.pages, plan.catalog, plan.memo, plan.pages.digests
    pages.add_download("downloads/catalog.json", partial(catalog_json_parts, catalog, memo, digests))
    pages.add_download("downloads/lock-matrix.csv", partial(lock_matrix_parts, catalog, plan.column_values))
    pages.add_download("downloads/openapi.yaml", partial(openapi_parts, catalog, memo, digests, plan.column_values))
    for schema in sorted(DOWNLOAD_SCHEMA_DIR.glob("*.schema.json")):
        pages.add_file(f"downloads/{schema.name}", partial(schema.read_text, encoding="utf-8"), keyed=False)


_STEPS: tuple[Callable[[Planning], None], ...] = (
    _home, _operations, _versions, _plans, _compare, _changelog_step, _matrix, _reference, readers.operation_feeds,
    readers.llms, readers.sitemaps, _downloads,
)
"""The steps of plan_pages, in the order their pages are planned (the order of the render's files)."""

