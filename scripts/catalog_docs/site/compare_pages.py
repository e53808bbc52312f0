"""The comparison pages: each consecutive pair's comparison, its pages and the lookup of rows on later pages.
Nothing here writes a file."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from catalog_docs.catalog.model import ListingEntry, VersionLabel
from catalog_docs.compare.changes import Comparison, Side, compare_sides
from catalog_docs.compare.formats import groups as change_groups
from catalog_docs.compare.formats import summary_rows
from catalog_docs.compare.rules import VALUE_KINDS
from catalog_docs.serialize import to_json
from catalog_docs.site.keys import PageMemo, digest
from catalog_docs.site.paging import Pages, href_to
from catalog_docs.site.tables import Href, relative_url

COMPARE_PAGE_ROWS = 500
"""A comparison lists at most this many value rows on one page; the rows beyond go to its `page-N` pages (a
plan entry added or removed lists every one of its values, a row per listing entry), so a page stays well under
1 MB (CONTRIBUTING, "Figures behind the limits")."""
UNCHANGED_LISTED = 250
"""A comparison page lists the unchanged values up to this many; beyond, it gives their count and where to
find them (operation pages, the matrix, `catalog-docs diff --format json`), so it stays a page of changes."""


def compare_slug(a: VersionLabel, b: VersionLabel) -> str:
    """URL slug of the comparison of two labels: `<from>...<to>`."""
    return f"{a.slug}...{b.slug}"


def consecutive_comparisons(pages: Pages, pairs: list[tuple[VersionLabel, VersionLabel]],
                 memo: PageMemo | None) -> list[tuple[VersionLabel, VersionLabel, Comparison]]:
    """Each consecutive pair's comparison. Keyed, one is taken from the memo when the skeleton and the values
    of every label up to the later one are unchanged (a comparison reads those alone: its two labels, and for
    a plan entry listed again, the latest earlier label listing it)."""
    catalog, digests = pages.catalog, pages.digests
    out = []
    kept: dict[bytes, Comparison] = {}
    for i, (a, b) in enumerate(pairs):
        key = None
        if memo is not None and digests is not None:
            key = digest("comparison", a.label, b.label, digests.skeleton, *digests.version_values[: i + 2])
            cmp = memo.comparisons.get(key)
        else:
            cmp = None
        if cmp is None:
            cmp = compare_sides(catalog, Side(label=a.label), Side(label=b.label))
        if key is not None:
            kept[key] = cmp
        out.append((a, b, cmp))
    if memo is not None:
        memo.comparisons = kept
    return out



def comparison_pages(pages: Pages, first: str, chunks: list[frozenset[str]],
                      context: Callable[[dict[str, Any]], dict[str, Any]],
                      page_values: Callable[[], bytes] | None) -> None:
    """A comparison's page; with more than one chunk of rows, its `page-N` pages and the lookup of its rows."""
    folder = first[: -len(".md")]
    names = [first] + [f"{folder}/page-{n}.md" for n in range(2, len(chunks) + 1)]
    split = len(names) > 1
    lookup = f"{folder}/{MOVED_LOOKUP}"
    for n, (name, shown) in enumerate(zip(names, chunks, strict=True), start=1):
        paging = {"page_number": n, "page_count": len(names), "on_page": shown if split else None,
                  "pager": [(j, href_to(other, name), j == n) for j, other in enumerate(names, start=1)],
                  "moved": _url_from(first, lookup, pages.directory_urls) if split and n == 1 else None}
        pages.add_lazy(name, "compare.md.j2", partial(context, paging), page_values=page_values)
    if split:
        pages.add_file(lookup, partial(moved_lookup, chunks, names, pages.directory_urls), kind="compare-lookup",
                       page_values=page_values)


def _url_from(page: str, target: str, directory_urls: bool) -> Markup:
    """The URL of a file that is not a page (`target`, a site path) from the built `page`, for an HTML attribute."""
    rel = relative_url(target, Href(page, directory_urls).base)
    return Markup("/".join(quote(part, safe="._~-") for part in rel.split("/")))


MOVED_LOOKUP = "moved.json"
"""In the folder of a comparison split over pages: which later page holds each change (see moved_lookup)."""


def compare_chunks(cmp: Comparison) -> list[frozenset[str]]:
    """The ids of the value rows on each page of a comparison, in the order the page lists them (by plan entry,
    then by transition): one page (every row) unless there are more than COMPARE_PAGE_ROWS rows."""
    if sum(1 for c in cmp.changes if c.kind in VALUE_KINDS) <= COMPARE_PAGE_ROWS:
        return [frozenset(c.id for c in cmp.changes if c.kind in VALUE_KINDS)]
    rows = [c.id for g in change_groups(cmp) if g.records or g.values
            for *_, changes in g.transitions() for c in changes]
    return [frozenset(rows[i:i + COMPARE_PAGE_ROWS]) for i in range(0, max(len(rows), 1), COMPARE_PAGE_ROWS)]


def moved_lookup(chunks: list[frozenset[str]], names: list[str], directory_urls: bool) -> str:
    """The lookup that sends a permalink to a row of a later page there (catalog.js): each later page's URL
    from the first page, the 8-digit hashes that end the ids of its rows, and the whole id of every row whose
    hash ends another id of the comparison too (FNV-1a's 32 bits: two rows in 20,000 may share one)."""
    href = Href(names[0], directory_urls)
    seen: dict[str, int] = {}
    for chunk in chunks:
        for change_id in chunk:
            seen[change_id[-8:]] = seen.get(change_id[-8:], 0) + 1
    later = chunks[1:]
    data = {"pages": [str(href(name)) for name in names[1:]],
            "hashes": [" ".join(sorted(c[-8:] for c in chunk)) for chunk in later],
            "ids": {c: n for n, chunk in enumerate(later) for c in sorted(chunk) if seen[c[-8:]] > 1}}
    return to_json(data)


def compare_context(comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]], i: int,
                     entries: dict[int, ListingEntry], paging: dict[str, Any]) -> dict[str, Any]:
    """A comparison page's context: the comparison, its neighbours, and which page of it (`paging`)."""
    a, b, cmp = comparisons[i]
    return {**paging, "a": a, "b": b, "cmp": cmp, "groups": change_groups(cmp), "summary": summary_rows(cmp),
            "entries": entries,
            "unchanged_listed": UNCHANGED_LISTED, "earlier": comparisons[i - 1][:2] if i > 0 else None,
            "later": comparisons[i + 1][:2] if i + 1 < len(comparisons) else None}

