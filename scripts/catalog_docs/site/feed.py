"""The changelog's Atom 1.0 feed (RFC 4287): one entry per version label, newest first, whose content is the
label's summary of changes against its previous label, so that a feed reader shows it.

Made from the same records as the changelog page and the comparison pages (`ChangelogEntry`); nothing here
compares anything. ElementTree writes the XML, so every catalogue string is escaped by the serializer; the
entry content is HTML (type="html"), whose catalogue text is HTML-escaped first, then escaped again as XML
text, as RFC 4287 §3.1.1.2 has it. With the site's address (`SITE_URL`, as the build is given it) every link
is absolute: the self link, the alternates and the links in each entry's content; without it they are relative to
the feed's own URL, which feed readers resolve against the address they fetched the feed from.

Dates are git's: an entry's `<published>` is the commit that first added the label's file, its `<updated>` the
latest commit that changed that file (so a reader shows an entry again when what the label states changed); the
feed's `<updated>` is the latest of those. A label not committed yet, or a copy without history, has no
`<published>` (none is invented) and is updated at the build's date (RFC 4287 requires one).
"""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urljoin

from markupsafe import escape

from catalog_docs.catalog.model import Catalog, ListingEntry, VersionLabel
from catalog_docs.compare.changes import Change
from catalog_docs.compare.formats import SummaryRow
from catalog_docs.layout import SITE_URL_ENV, checked_address
from catalog_docs.site.history import Added, LabelHistory

ATOM = "http://www.w3.org/2005/Atom"
FEED_PATH = "feed.xml"
"""Where the render writes the feed, under docs/; every page's head links it (overrides/layouts/page.html). At the
site's root: Material's instant navigation fetches `sitemap.xml` beside every `<link rel="alternate">` target
(meant for other languages' sites), and the site's own sitemap is at the root."""
PAGE_PATH = "changelog/index.md"
"""The changelog page."""



@dataclass(frozen=True, slots=True, kw_only=True)
class RowNames:
    """What one summary row counts, by name: up to a handful of its changes (each its words and its anchor on the
    comparison page, None where it has none), how many more there are, and the plan entry they all share (said
    once before them), if they do."""

    named: tuple[tuple[str, str | None], ...]
    more: int
    plan: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangelogEntry:
    """One version label as the changelog shows it: the label before it, its comparison's summary rows
    (formats.summary_rows), where its comparison page is, and when it was added (None: not known)."""

    version: VersionLabel
    previous: VersionLabel | None
    summary: Sequence[SummaryRow]
    anchors: Sequence[str | None] = ()
    """For each summary row, the id of its first change: that change's anchor on the comparison page (None:
    the row has no anchor there, as the unchanged values' count)."""
    compare_href: str | None
    """The comparison page, relative to the feed's folder (the site's root); None for the first label."""
    version_href: str
    """The label's page, relative to the feed's folder."""
    added: Added | None
    anchor: str
    """The entry's id on the changelog page."""
    names: Sequence[RowNames | None] = ()
    """For each summary row, the changes it counts by name (None: a row of unchanged values)."""


def _time(when: datetime) -> str:
    """An RFC 3339 date-time in UTC, as Atom's date constructs take it."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _id(catalog: Catalog, *parts: str) -> str:
    """A permanent IRI for the feed or an entry: a name-based UUID (RFC 9562 version 5) of what it is about,
    the same in every build, however the site is hosted."""
    name = "catalog-docs:" + "\0".join((catalog.service.name, *parts))
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, name))


def site_address(url: str | None, given: str = f"${SITE_URL_ENV}") -> str | None:
    """The site's public address as the build is given it (`SITE_URL`, which mkdocs.yml reads too), ending in '/';
    None when unset or empty (the feed's links stay relative). Anything but a plain http(s) address
    (layout.address_problem) is refused in one line naming `given`, where the address came from: it lands in
    every page's canonical link, the sitemap and the feed."""
    if not url:
        return None
    url = checked_address(url, given, "a plain http(s) address such as https://docs.example.org/",
                          " (nothing was built)")
    return url if url.endswith("/") else url + "/"


def _url(base: str | None, href: str) -> str:
    """A link from the feed's folder (the site's root): absolute on the site's address when there is one."""
    return href if base is None else urljoin(base, href)


def summary_html(entry: ChangelogEntry, base: str | None = None) -> str:
    """The entry's content: the summary of changes as an HTML list, with the link to every change (absolute on
    `base`, the site's address, when given)."""
    label = escape(entry.version.label)
    if entry.previous is None:
        return (f"<p>{label} is the first version label of the catalogue: there is no earlier label to compare "
                f'it with. <a href="{escape(_url(base, entry.version_href))}">Its plan entries and values</a>.</p>')
    rows = "".join(f"<li>{_row_html(row.what, row.transition, _first(entry, i, base))}: {row.n:,}"
                   f"{_names_html(entry, i, base)}</li>" for i, row in enumerate(entry.summary))
    return (f"<p>Changes from {escape(entry.previous.label)} to {label}:</p><ul>{rows}</ul>"
            f'<p><a href="{escape(_url(base, entry.compare_href or ""))}">Every change, value by value</a>.</p>')


def _first(entry: ChangelogEntry, row: int, base: str | None) -> str | None:
    """The address of a summary row's first change on the comparison page, or None."""
    anchor = entry.anchors[row] if row < len(entry.anchors) else None
    return None if anchor is None or entry.compare_href is None else f"{_url(base, entry.compare_href)}#{anchor}"


def _names_html(entry: ChangelogEntry, row: int, base: str | None) -> str:
    """` (plan entry P: /a, /b and 3 more)`: the changes a row counts, each linked to its row on the comparison
    page, the rest as a count linked to the page; '' for a row without names."""
    names = entry.names[row] if row < len(entry.names) else None
    if names is None or not names.named or entry.compare_href is None:
        return ""
    page = _url(base, entry.compare_href)
    parts = [f'<a href="{escape(page)}#{escape(anchor)}">{escape(words)}</a>' if anchor else f"{escape(words)}"
             for words, anchor in names.named]
    if names.more:
        parts.append(f'<a href="{escape(page)}">{names.more:,} more</a>')
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    plan = f"plan entry {escape(names.plan)}: " if names.plan is not None else ""
    return f" ({plan}{listed})"


def _row_html(what: str, transition: tuple[str, str] | None, first: str | None) -> str:
    # Each part escaped once, joined as plain text (Markup + str would escape the str part again).
    text = f"{escape(what)}" + ("" if transition is None else f" {escape(transition[0])} → {escape(transition[1])}")
    return text if first is None else f'<a href="{escape(first)}">{text}</a>'


def atom_feed(catalog: Catalog, entries: Sequence[ChangelogEntry], history: LabelHistory, changelog_href: str,
              base: str | None = None) -> str:
    """The feed document (entries in the order given: newest first); `changelog_href`: the changelog page,
    relative to the feed; `base`: the site's address, ending in '/' (None: links stay relative)."""
    feed = _feed(catalog, ("version labels",), f"{catalog.service.name}: version labels",
                 "Each version label of the catalogue with its changes against the label before it.",
                 [e.version for e in entries], history, (_url(base, FEED_PATH), _url(base, changelog_href)))
    for entry in entries:
        _entry(feed, history, entry.version, entry_id=_id(catalog, "version label", entry.version.label),
               title=f"Version label {entry.version.label}",
               href=_url(base, entry.compare_href or entry.version_href), content=summary_html(entry, base))
    return _document(feed)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
    element.text = text
    return element


def _feed(catalog: Catalog, about: tuple[str, ...], title: str, subtitle: str, labels: Sequence[VersionLabel],
          history: LabelHistory, links: tuple[str, str]) -> ET.Element:
    """A feed's element with everything before its entries: its id (from what it is `about`), title, subtitle,
    date (the latest of its `labels`' dates, or the build's without one), author, generator, and `links` (its
    own address and its page's)."""
    ET.register_namespace("", ATOM)
    # The feed's own words are English (the catalogue's names are names); the site's pages say the same (lang="en").
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": "en"})
    _sub(feed, "id", _id(catalog, *about))
    _sub(feed, "title", title)
    _sub(feed, "subtitle", subtitle)
    dates = [history.changed_on(v.slug) for v in labels] or [history.build.when]
    _sub(feed, "updated", _time(max(dates)))
    author = _sub(feed, "author")
    _sub(author, "name", f"The {catalog.service.name} catalogue")
    _sub(feed, "generator", "catalog-docs")
    _sub(feed, "link", rel="self", type="application/atom+xml", href=links[0])
    _sub(feed, "link", rel="alternate", type="text/html", href=links[1])
    return feed


def _entry(feed: ET.Element, history: LabelHistory, version: VersionLabel, *, entry_id: str, title: str,
           href: str, content: str) -> None:
    """An entry about one version label, dated from git (see the module's doc): `href` its page, `content` HTML."""
    node = _sub(feed, "entry")
    _sub(node, "id", entry_id)
    _sub(node, "title", title)
    added = history.added.get(version.slug)
    if added is not None:
        _sub(node, "published", _time(added.when))
    changed = history.changed_on(version.slug)
    _sub(node, "updated", _time(max(changed, added.when) if added is not None else changed))
    _sub(node, "link", rel="alternate", type="text/html", href=href)
    _sub(node, "content", content, type="html")


def _document(feed: ET.Element) -> str:
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"


@dataclass(frozen=True, slots=True, kw_only=True)
class OperationEntry:
    """A version label that changed one operation's values or their listing, as its feed shows it: the label
    before it (None: the first label, which first lists them), the value records of its comparison at this
    operation (compare.changes; nothing is compared here), its values under the label, and where its pages are."""

    version: VersionLabel
    previous: VersionLabel | None
    changes: Sequence[Change]
    values: Sequence[tuple[str, str]]
    """(plan entry, value) of every plan entry the label lists, for the first label's entry."""
    compare_href: str | None
    """The comparison page, from the site's root; None for the first label."""
    version_href: str


def _change_html(change: Change, href: str | None, previous: str) -> str:
    """One value record at the operation, in words, linked to its row on the comparison page."""
    plan = escape(change.after.plan or change.before.plan or "")
    if change.kind == "value-changed":
        text = f"{plan}: {escape(change.from_value or '')} → {escape(change.to_value or '')}"
        if change.before.label != previous:  # a plan entry listed again: compared with its previous label
            text += f" (its previous label: {escape(change.before.label or '')})"
    elif change.kind == "value-added":
        basis = change.basis
        text = f"{plan}: not listed under the label before; listed with {escape(change.to_value or '')}" + (
            " (new: no earlier label lists it)" if basis is None
            else f" (under its previous label, {escape(basis.label or '')}: {escape(basis.value or '')})")
    else:
        text = f"{plan}: {escape(change.from_value or '')}, no longer listed"
    return text if href is None else f'<a href="{escape(href + "#" + change.id)}">{text}</a>'


def operation_entry_html(item: OperationEntry, title: str, base: str | None = None) -> str:
    """An operation feed entry's content: what the label changed for the operation, with links."""
    label = escape(item.version.label)
    if item.previous is None:
        rows = "".join(f"<li>{escape(plan)}: {escape(value)}</li>" for plan, value in item.values)
        return (f"<p>{label} is the first version label of the catalogue; its values for {escape(title)}:</p>"
                f'<ul>{rows}</ul><p><a href="{escape(_url(base, item.version_href))}">Its plan entries and '
                "values</a>.</p>")
    compare = _url(base, item.compare_href or "")
    rows = "".join(f"<li>{_change_html(c, compare, item.previous.label)}</li>" for c in item.changes)
    return (f"<p>Changes to {escape(title)} from {escape(item.previous.label)} to {label}:</p><ul>{rows}</ul>"
            f'<p><a href="{escape(compare)}">Every change of this comparison</a>.</p>')


def operation_feed(catalog: Catalog, entry: ListingEntry, items: Sequence[OperationEntry], history: LabelHistory,
                   paths: tuple[str, str], base: str | None = None) -> str:
    """The Atom feed of one operation (`items`: newest first); `paths`: the feed's and the operation page's paths
    from the site's root. Its ids name the service, the operation (by the key its version files use) and the
    label: the same in every build, and a new label adds an entry without touching the others."""
    feed_path, page_href = paths
    title = f"{entry.method} {entry.title}"
    feed = _feed(catalog, ("operation", entry.key), f"{catalog.service.name}: {title}",
                 f"The version labels that changed the lock values of {title} or which plan entries list them.",
                 [i.version for i in items], history, (_url(base, feed_path), _url(base, page_href)))
    for item in items:
        _entry(feed, history, item.version,
               entry_id=_id(catalog, "operation", entry.key, "version label", item.version.label),
               title=f"{title} under version label {item.version.label}",
               href=_url(base, item.compare_href or item.version_href),
               content=operation_entry_html(item, title, base))
    return _document(feed)
