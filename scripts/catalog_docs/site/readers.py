"""The steps of plan_pages for readers beyond the browser (site/twins.py): an Atom feed per operation, /llms.txt and
an empty sitemap beside each twin and feed. The twins themselves are planned beside their pages (paging.Pages)."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from catalog_docs.catalog.model import ListingEntry, VersionLabel
from catalog_docs.compare.changes import Comparison
from catalog_docs.compare.rules import VALUE_KINDS
from catalog_docs.escape import do_url
from catalog_docs.site.compare_pages import compare_slug
from catalog_docs.site.feed import OperationEntry, operation_feed, site_address
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.keys import digest
from catalog_docs.site.llms import LLMS_PATH, llms_txt
from catalog_docs.site.paging import Pages, Planning
from catalog_docs.site.tables import Href
from catalog_docs.site.twins import EMPTY_SITEMAP, TWIN_PREFIX, feed_site_path, sitemap_folders


def same(value: bytes, *_rows: int) -> bytes:
    return value


def operation_feeds(plan: Planning) -> None:
    """An Atom feed per operation (`operations/<slug>/feed.xml`): an entry for each label that changed its values or
    their listing, from the consecutive comparisons' value records; dated from the history, so made only with it.
    Keyed on the operation's values, the history and the site's address."""
    history = plan.history
    if history is None:
        return
    pages, catalog, digests = plan.pages, plan.catalog, plan.pages.digests
    base = site_address(os.environ.get("SITE_URL"))
    index = cache(partial(_changes_by_position, plan.comparisons))
    for i, entry in enumerate(catalog.entries):
        values = None
        if digests is not None:
            values = partial(digest, plan.row_values(i, i + 1), history.stamp(), history.build.when.isoformat(),
                             base or "")
        pages.add_file(feed_site_path(entry), partial(_operation_feed, pages, plan.comparisons, index, entry, history,
                                                      base), kind="operation-feed", page_values=values)


def _changes_by_position(comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]]
                         ) -> list[dict[int, list[Any]]]:
    """For each consecutive comparison, its value records by listing position."""
    out: list[dict[int, list[Any]]] = []
    for _a, _b, cmp in comparisons:
        found: dict[int, list[Any]] = {}
        for change in cmp.changes:
            if change.kind in VALUE_KINDS and change.position is not None:
                found.setdefault(change.position, []).append(change)
        out.append(found)
    return out


def _operation_feed(pages: Pages, comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]],
                    index: Callable[[], list[dict[int, list[Any]]]], entry: ListingEntry, history: LabelHistory,
                    base: str | None) -> str:
    catalog = pages.catalog
    # Absolute on the site's address, links are made from its root; else they are relative to the feed's folder.
    here = "index.md" if base is not None else f"operations/{entry.slug}/index.md"
    href = Href(here, pages.directory_urls)
    at = entry.position - 1
    items = []
    if catalog.versions:
        first = catalog.versions[0]
        items.append(OperationEntry(version=first, previous=None, changes=(),
                                    values=[(p.name, p.values[at]) for p in first.plans], compare_href=None,
                                    version_href=str(href(f"versions/{do_url(first.slug)}.md"))))
    for (a, b, _cmp), found in zip(comparisons, index(), strict=True):
        changes = found.get(entry.position)
        if changes:
            items.append(OperationEntry(version=b, previous=a, changes=changes, values=(),
                                        compare_href=str(href(f"compare/{do_url(compare_slug(a, b))}.md")),
                                        version_href=str(href(f"versions/{do_url(b.slug)}.md"))))
    page = str(href(f"operations/{do_url(entry.slug)}.md"))
    me = feed_site_path(entry) if base is not None else "feed.xml"
    return operation_feed(catalog, entry, items[::-1], history, (me, page), base)


def llms(plan: Planning) -> None:
    """/llms.txt: links to the twins of the section indexes (site/llms.py)."""
    pages = plan.pages
    pages.add_file(LLMS_PATH, partial(llms_txt, plan.catalog, pages.twins.links, history=plan.history is not None),
                   kind="llms",
                   page_values=None if pages.digests is None else partial(same, pages.twins.base.encode()))


def sitemaps(plan: Planning) -> None:
    """An empty sitemap in each folder that holds a twin or a feed (twins.sitemap_folders says why)."""
    pages = plan.pages
    twins = [job.path[len(TWIN_PREFIX):] for job in pages.jobs if job.kind == "twin"]
    feeds = [job.path for job in pages.jobs if job.kind == "operation-feed"]
    for folder in sitemap_folders(twins, feeds):
        pages.add_file(f"{folder}/sitemap.xml", partial(str, EMPTY_SITEMAP), kind="sitemap",
                       page_values=None if pages.digests is None else partial(same, b""))
