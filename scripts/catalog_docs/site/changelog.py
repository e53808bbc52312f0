"""The changelog page and its Atom feed, planned from the consecutive comparisons and the labels' history.
Nothing here writes a file."""

from __future__ import annotations

import os
from functools import cache, partial

from catalog_docs.catalog.model import VersionLabel
from catalog_docs.compare.changes import Comparison
from catalog_docs.compare.formats import SummaryRow, summary_rows
from catalog_docs.compare.rules import RULES_BY_ID
from catalog_docs.escape import do_url
from catalog_docs.site.compare_pages import compare_slug
from catalog_docs.site.feed import FEED_PATH, PAGE_PATH, ChangelogEntry, atom_feed, site_address
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.keys import digest
from catalog_docs.site.paging import Pages
from catalog_docs.site.tables import Href


def changelog_entries(pages: Pages, comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]],
                      history: LabelHistory) -> list[ChangelogEntry]:
    """Every label, newest first, with its comparison's summary against the label before it (the records of
    its comparison page: nothing is compared again) and the commit that added it."""
    href = Href("index.md", pages.directory_urls)  # links from the feed's folder, the site's root
    by_label = {b.label: (a, cmp) for a, b, cmp in comparisons}
    out = []
    for v in reversed(pages.catalog.versions):
        previous, cmp = by_label.get(v.label, (None, None))
        summary = summary_rows(cmp) if cmp is not None else []
        out.append(ChangelogEntry(
            version=v, previous=previous, summary=summary, anchors=first_changes(cmp, summary),
            compare_href=None if previous is None else str(href(f"compare/{do_url(compare_slug(previous, v))}.md")),
            version_href=str(href(f"versions/{do_url(v.slug)}.md")), added=history.added.get(v.slug),
            anchor=do_url(v.slug)))
    return out


def first_changes(cmp: Comparison | None, summary: list[SummaryRow]) -> list[str | None]:
    """For each summary row (formats.summary_rows), the id of the first change it counts, when that kind's records
    are anchors of the comparison page (its rule's `anchored`): a value transition's first value, or the first
    change of the row's kind."""
    if cmp is None:
        return []
    first_of_kind: dict[str, str] = {}
    first_transition: dict[tuple[str | None, str | None], str] = {}
    for c in cmp.changes:
        first_of_kind.setdefault(c.kind, c.id)
        if c.kind == "value-changed":
            first_transition.setdefault((c.before.value, c.after.value), c.id)
    out: list[str | None] = []
    for row in summary:
        if row.kind is None or not RULES_BY_ID[row.kind].anchored:
            out.append(None)
        elif row.transition is not None:
            out.append(first_transition.get(row.transition))
        else:
            out.append(first_of_kind.get(row.kind))
    return out


def plan_changelog(pages: Pages, comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]],
               history: LabelHistory) -> None:
    """The changelog page and its Atom feed, keyed on the whole catalogue and the history (dates included)."""
    digests = pages.digests
    base = site_address(os.environ.get("SITE_URL"))  # the feed's links are absolute on the site's address
    values = None if digests is None else digest(digests.whole, history.stamp(), history.build.when.isoformat(),
                                                  base or "")
    entries = cache(partial(changelog_entries, pages, comparisons, history))  # the page and the feed share them
    pages.add_lazy(PAGE_PATH, "changelog.md.j2", lambda: {"entries": entries(), "history": history},
                   page_values=None if values is None else lambda: values)
    changelog = str(Href("index.md", pages.directory_urls)(PAGE_PATH))
    pages.add_file(FEED_PATH, lambda: atom_feed(pages.catalog, entries(), history, changelog, base), kind="feed",
                   page_values=None if values is None else lambda: values)

