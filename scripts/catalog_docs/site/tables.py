"""Data tables as semantic HTML: final page URLs, and the filters that write long tables' cells and rows.

Templates write every data table as HTML (`<table>` with `<caption>`, `<th scope="col">` headers and a
`<th scope="row">` per row), not as a Markdown table, inside a `catalog-html` fence (fences.py): the
builders pass it through without parsing it or running inline patterns over hundreds of thousands of
cells. They also leave the links inside alone (mkdocs rewrites `.md` links only in Markdown), so links in
tables are written here as the final URLs of the built pages, relative to the page, for the site's
`use_directory_urls` setting.

Every catalogue string in a cell goes through `escape.md_escape`, as everywhere else.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from catalog_docs.catalog.model import ListingEntry
from catalog_docs.escape import do_url, md_escape

_NOT_LISTED_TITLE = "This label does not list this plan entry"
NOT_LISTED = Markup(f'<span class="not-listed" title="{_NOT_LISTED_TITLE}">not listed</span>')
NOT_LISTED_CELL = Markup(f'<td class="not-listed" title="{_NOT_LISTED_TITLE}">not listed</td>')
"""The mark as a whole table cell, for a cell that holds nothing else (see _lock_cell)."""
CHANGED = Markup('<span class="changed" title="Differs from the previous label: the latest earlier label that '
                 'lists this plan entry">changed</span>')
"""Changed since the previous label. Not to be confused with PLANS_DIFFER, a difference within one label."""
PLANS_DIFFER = Markup('<span class="plans-differ" title="The plan entries listed under this label give this listing '
                      'entry different values">plans differ</span>')
NEW_VALUE = Markup('<span class="new-value" title="No earlier label lists this plan entry">new</span>')


@lru_cache(maxsize=65536)
def site_path(page: str, directory_urls: bool) -> str:
    """The URL of a generated page (`operations/x.md`), relative to the site root, as the builder writes it:
    `operations/x/` with directory URLs (the default), `operations/x.html` without."""
    stem = page[: -len(".md")]
    if not directory_urls:
        return stem + ".html"
    if stem == "index":
        return ""
    return stem[: -len("index")] if stem.endswith("/index") else stem + "/"


class Href:
    """Links from one page, as templates call it: `href("versions/index.md#x")` -> `../versions/#x`, the
    shortest relative URL, as mkdocs writes the links it rewrites."""

    __slots__ = ("base", "directory_urls", "op_prefix", "op_suffix")

    def __init__(self, page: str, directory_urls: bool) -> None:
        url = site_path(page, directory_urls)
        self.base = "/" + url.rsplit("/", 1)[0] if "/" in url else "/"
        self.directory_urls = directory_urls
        self.op_prefix = _operations_from(self.base)
        self.op_suffix = "/" if directory_urls else ".html"

    def __call__(self, target: str) -> Markup:
        path, mark, fragment = str(target).partition("#")
        url = site_path(path, self.directory_urls)
        rel = relative_url(url, self.base)
        if url.endswith("/") or not url:
            rel = "./" if rel == "." else rel + "/"
        return Markup(rel + mark + fragment)

    def file(self, path: str) -> Markup:
        """A link to a file the site publishes as it is (`downloads/catalog/listing.yaml`), not a page."""
        return Markup(relative_url(str(path), self.base))


def _operations_from(base: str) -> str:
    """The operations folder's URL from a page's folder, as a prefix (every planned page makes an Href)."""
    folder = relative_url("operations", base)
    return "" if folder == "." else folder + "/"


def relative_url(url: str, base: str) -> str:
    """`posixpath.relpath("/" + url, base)` for the site's own URLs and folders, which hold no `.` or `..`
    segments (slugs are validated): the same answer without relpath's normalising passes, which cost a
    noticeable share of the render (every page links every label)."""
    target = [s for s in url.split("/") if s]
    start = [s for s in base.split("/") if s]
    common = 0
    for a, b in zip(target, start, strict=False):  # the common prefix of two paths of any lengths
        if a != b:
            break
        common += 1
    parts = [".."] * (len(start) - common) + target[common:]
    return "/".join(parts) if parts else "."


def _url(slug: str) -> str:
    return str(do_url(slug))


_LOCK_HTML: dict[str, Markup] = {}


def do_lock(value: str) -> Markup:
    """A lock value as every table shows it. Filters, not macros, render table cells: a catalogue of
    1,000 operations has hundreds of thousands of cells, and a macro call costs ten times a filter."""
    html = _LOCK_HTML.get(value)
    if html is None:
        shown = md_escape(value)
        html = _LOCK_HTML[value] = Markup(f'<span class="lock lock-{shown}">{shown}</span>')
    return html


_LOCK_CELL: dict[str, str] = {}


def _lock_cell(value: str) -> str:
    """A cell that holds one lock value and nothing else: the mark's classes go on the `<td>` itself
    (styled as the `<span>` mark is). Half the tags of a span in a cell, which is what the search plugin's
    HTML parse of a long table costs; screen readers and the tests read the same text and classes."""
    html = _LOCK_CELL.get(value)
    if html is None:
        shown = md_escape(value)
        html = _LOCK_CELL[value] = f'<td class="lock lock-{shown}">{shown}</td>'
    return html


def do_lock_cell(value: str) -> Markup:
    """A table cell holding one lock value."""
    return Markup(_lock_cell(value))


def do_headed_lock_cells(values: Any, headers: Any, row: str) -> Markup:
    """`<td>` cells for a row of lock values under a two-row header, each naming its headers (`headers`: a
    column's header ids, from value_headers; `row`: the id of the row's header cell)."""
    out = []
    for value, head in zip(values, headers, strict=True):
        cell = _lock_cell(value)
        out.append(f'<td headers="{head} {row}"{cell[3:]}')
    return Markup("".join(out))


def do_lock_cells(values: Any) -> Markup:
    """`<td>` cells for a row of lock values."""
    cells = _LOCK_CELL
    try:
        return Markup("".join([cells[v] for v in values]))
    except KeyError:
        return Markup("".join([_lock_cell(v) for v in values]))


def do_history_cells(cells: Any, show_from: bool = True) -> Markup:
    """`<td>` cells for a row of Cells: *not listed*, or the value with a *changed* mark (and the value it
    changed from, when show_from) where it differs from the previous label's."""
    out: list[str] = []  # cell HTML, made here from escaped parts (marks, lock values, escaped text)
    for cell in cells:
        if cell.value is None:
            out.append(NOT_LISTED_CELL)
        elif cell.changed_from is None:
            out.append(_lock_cell(cell.value))
        elif show_from:
            out.append(f"<td>{do_lock(cell.value)} {CHANGED} from {md_escape(cell.changed_from)}</td>")
        else:
            out.append(f"<td>{do_lock(cell.value)} {CHANGED}</td>")
    return Markup("".join(out))


def do_op_anchor(entry: ListingEntry, href: Href) -> Markup:
    """An HTML link to an operation page, from the page `href` belongs to."""
    return _op_anchor(entry.title, entry.slug, href.op_prefix, href.op_suffix)


@lru_cache(maxsize=1 << 16)
def _op_anchor(title: str, slug: str, prefix: str, suffix: str) -> Markup:
    # The same link appears on many pages (indexes, matrix, versions, plans, every comparison).
    return Markup(f'<a href="{prefix}{_url(slug)}{suffix}">{md_escape(title)}</a>')


def do_op_header(entry: ListingEntry, href: Href, cell_id: str = "") -> Markup:
    """A row's header cell: the operation, linked to its page (with `cell_id` as its id when given: a table
    with a two-row header names every data cell's headers by id)."""
    ident = f' id="{cell_id}"' if cell_id else ""
    return Markup(f'<th{ident} scope="row">{do_op_anchor(entry, href)}</th>')


def do_path_header(entry: ListingEntry, href: Href) -> Markup:
    """A comparison row's header cell: the operation, linked to its page, its path breakable only before a `/`
    (a phone wraps `/checkVirtualAddressME` whole, never inside the word; catalog.css: .catalog-path)."""
    anchor = str(do_op_anchor(entry, href))
    start = anchor.index(">") + 1
    text = anchor[start:-len("</a>")]
    text = text[:1] + text[1:].replace("/", "<wbr>/")
    return Markup(f'<th scope="row" class="catalog-path">{anchor[:start]}{text}</a></th>')


def plan_page(name: str) -> str:
    """The page of a plan entry as a link target: `plans/<name, spaces as hyphens, URL-quoted>.md`."""
    return f"plans/{_url(name.replace(' ', '-'))}.md"


def _colspan(n: int) -> str:
    return "" if n == 1 else f' colspan="{n}"'


def _spans(columns: Any) -> list[tuple[Any, int]]:
    """(version label, how many of its plan entries have a column), in column order."""
    spans: list[tuple[Any, int]] = []
    for column in columns:
        if spans and spans[-1][0] is column.version:
            spans[-1] = (column.version, spans[-1][1] + 1)
        else:
            spans.append((column.version, 1))
    return spans


def do_value_head(columns: Any, href: Href, leading: Any) -> Markup:
    """The header of a table with a column per (version label, plan entry): the `leading` columns' headers, then
    each label over the plan entries it lists, in a second row, each linked to its page. One row when there are no
    value columns. A label's header spans its plan entries, so no header reads `label · plan entry` squeezed into
    one narrow column. Every header has an id (`col-<n>` for a leading column, `col-v<n>` for a label, `col-p<n>`
    for a plan entry) that the data cells name in their `headers` (value_headers): with two header rows, scope
    alone does not tell every assistive technology (nor HTML_CodeSniffer, WCAG H43) which headers a cell has."""
    spans = _spans(columns)
    rows = ' rowspan="2"' if spans else ""
    first = "".join(f'<th id="col-{i}" scope="col"{rows}>{escape(name)}</th>'  # the template's own words
                    for i, name in enumerate(leading))
    first += "".join(
        f'<th id="col-v{k}" scope="col"{_colspan(n)}><a href="{href("versions/" + _url(v.slug) + ".md")}">'
        f"{md_escape(v.label)}</a></th>" for k, (v, n) in enumerate(spans))
    if not spans:
        return Markup(f"<tr>{first}</tr>")
    second = "".join(f'<th id="col-p{j}" scope="col"><a href="{href(plan_page(c.plan.name))}">'
                     f"{md_escape(c.plan.name)}</a></th>" for j, c in enumerate(columns))
    return Markup(f"<tr>{first}</tr>\n<tr>{second}</tr>")


def do_value_headers(columns: Any, leading: int) -> list[Markup]:
    """The header ids (value_head's) of each column, leading columns first: what a data cell's `headers` names
    besides its row's header."""
    heads = [f"col-{i}" for i in range(leading)]
    labels = [k for k, (_version, n) in enumerate(_spans(columns)) for _ in range(n)]
    return [Markup(h) for h in (*heads, *(f"col-v{k} col-p{j}" for j, k in enumerate(labels)))]


def do_change_words(change: Any, from_label: str) -> Markup:
    """A comparison's value record in words, as an operation page lists it: the plan entry, then its value under
    each label (`PLAN A: close → unlimited`; the earlier label named when it is not `from_label`, for a plan entry
    listed again), a new value marked new, a value no longer listed marked not listed."""
    plan = md_escape(change.plan)
    if change.kind == "value-changed":
        since = "" if change.before.label == from_label else f" (under {md_escape(change.before.label)})"
        return Markup(f"{plan}: {do_lock(change.from_value)}{since} → {do_lock(change.to_value)}")
    if change.kind == "value-added":
        return Markup(f"{plan}: {do_lock(change.to_value)} {NEW_VALUE} (no earlier label lists {plan})")
    if change.kind == "value-removed":
        return Markup(f"{plan}: {do_lock(change.from_value)} → {NOT_LISTED}")
    raise ValueError(f"not a value record: {change.kind}")


def do_unchanged_rows(unchanged: Any, entries: dict[int, ListingEntry], href: Href, from_label: str) -> Markup:
    """The `<tr>` rows of a comparison's unchanged values. One filter call, not a loop in the template: at
    1,000 operations a comparison has thousands of them. A value of a re-listed plan entry says which
    earlier label it is the same as."""
    # The plan entry's cell wraps between words only (catalog.css: td.catalog-label), never inside a name.
    return Markup("\n".join([
        f"<tr><td>{u.position}</td>{do_path_header(entries[u.position], href)}"
        f'<td class="catalog-label">{md_escape(u.plan)}'
        + ("" if u.before_label == from_label else f" (same as under {md_escape(u.before_label)})")
        + f"</td>{_lock_cell(u.value)}</tr>"
        for u in unchanged
    ]))


FILTERS = {
    "lock": do_lock,
    "lock_cell": do_lock_cell,
    "lock_cells": do_lock_cells,
    "history_cells": do_history_cells,
    "op_anchor": do_op_anchor,
    "op_header": do_op_header,
    "path_header": do_path_header,
    "unchanged_rows": do_unchanged_rows,
    "value_head": do_value_head,
    "value_headers": do_value_headers,
    "headed_lock_cells": do_headed_lock_cells,
    "change_words": do_change_words,
    "plan_page": plan_page,
}
"""The table filters, registered with the template environment in `templating.environment`."""

MARKS = {"CHANGED": CHANGED, "PLANS_DIFFER": PLANS_DIFFER, "NEW_VALUE": NEW_VALUE, "NOT_LISTED": NOT_LISTED,
         "NOT_LISTED_CELL": NOT_LISTED_CELL}
"""The value marks, as template globals."""
