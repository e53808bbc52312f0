"""The changelog page and its Atom feed, planned from the consecutive comparisons and the labels' history.
Nothing here writes a file."""

from __future__ import annotations

import os
from functools import cache, partial

from catalog_docs.catalog.model import VersionLabel
from catalog_docs.compare.changes import Change, Comparison
from catalog_docs.compare.formats import SummaryRow, summary_rows
from catalog_docs.compare.rules import RULES_BY_ID
from catalog_docs.compare.sentences import entry_name
from catalog_docs.escape import do_url
from catalog_docs.site.compare_pages import compare_slug
from catalog_docs.site.feed import FEED_PATH, PAGE_PATH, ChangelogEntry, RowNames, atom_feed, site_address
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
            anchor=do_url(v.slug), names=row_names(cmp, summary)))
    return out


NAMED = 5
"""How many changes a changelog or feed row names before it says `and N more` (linked to the comparison)."""


def change_words(c: Change) -> str:
    """What a change is about, in a few words: its operation (path, or `entry N`) for a value or listing entry,
    else its plan entry, label, not-shown item or area."""
    b, a = c.before, c.after
    if (a.position if a.position is not None else b.position) is not None:
        name = entry_name(c)
        return f"entry {name.removeprefix('entry-')}" if name.startswith("entry-") else name
    if c.kind.startswith("plan-"):
        return f"plan entry {a.plan or b.plan}"
    if c.kind.startswith("label-"):
        return f"version label {a.label or b.label}"
    return str(a.not_shown or b.not_shown or a.area or b.area or a.service or b.service or c.kind)


def _plan_of(c: Change) -> str | None:
    """The plan entry a value record is under (None for other records)."""
    return (c.after.plan or c.before.plan) if RULES_BY_ID[c.kind].is_value else None


def row_names(cmp: Comparison | None, summary: list[SummaryRow]) -> list[RowNames | None]:
    """For each summary row, up to NAMED of the changes it counts by name, with their anchors, and how many more:
    a value transition's values, else the row's kind (None for the unchanged values)."""
    if cmp is None:
        return []
    counted: dict[tuple[str, tuple[str | None, str | None] | None], list[Change]] = {}
    for c in cmp.changes:
        key = (c.kind, (c.before.value, c.after.value) if c.kind == "value-changed" else None)
        counted.setdefault(key, []).append(c)
    out: list[RowNames | None] = []
    for row in summary:
        changes = counted.get((row.kind, row.transition), []) if row.kind is not None else []
        if not changes:
            out.append(None)
            continue
        plans = {_plan_of(c) for c in changes}
        shared = next(iter(plans)) if len(plans) == 1 else None
        named = tuple((change_words(c) if shared is not None or _plan_of(c) is None
                       else f"{change_words(c)} ({_plan_of(c)})",
                       c.id if RULES_BY_ID[c.kind].anchored else None) for c in changes[:NAMED])
        out.append(RowNames(named=named, more=len(changes) - len(named), plan=shared))
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

