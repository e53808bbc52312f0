"""Stage 4: render the model into Markdown pages and download files.

`render_pages` is pure: model in, {path as if under docs/: text} out. Nothing here writes a file: the mkdocs
plugin adds the pages in memory, and `folders.py` writes them where a command asks (`pages.site_files`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import mmap
import multiprocessing
import os
import pickle
import posixpath
import re
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup

from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.catalog.model import LOCK_VALUES, Catalog, ListingEntry, NotShown, PlanEntry, VersionLabel
from catalog_docs.compare.changes import Comparison, Side, compare_sides, consecutive_pairs, listings
from catalog_docs.compare.formats import SummaryRow, summary_rows
from catalog_docs.compare.formats import groups as change_groups
from catalog_docs.compare.rules import RULES_BY_ID, VALUE_KINDS
from catalog_docs.downloads.export import catalog_data, lock_matrix_parts, openapi_data, plan_data, version_data
from catalog_docs.downloads.openapi import area_tags, path_item
from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import do_url, finalize, front_matter, md_escape
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR
from catalog_docs.serialize import to_json, to_yaml, to_yaml_plain
from catalog_docs.site.feed import FEED_PATH, PAGE_PATH, ChangelogEntry, atom_feed, site_address
from catalog_docs.site.fences import html_block
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.provenance import MARKER_CITATION, citation_parts, section_anchor, source_sections
from catalog_docs.site.tables import CHANGED, MARKS, NEW_VALUE, NOT_LISTED, PLANS_DIFFER, Href, do_lock, relative_url  # noqa: F401 - marks re-exported
from catalog_docs.site.tables import FILTERS as TABLE_FILTERS

PAGE_ROWS = 250
"""Tables with more listing entries than this are split over several pages, so no page grows without bound."""
PAGE_CELLS = 10_000
"""At most this many values in one table page (250 rows of 40 columns); wider tables get fewer rows."""
PAGE_ROWS_MIN = 50
"""However wide a table, a page holds at least this many rows."""
COMPARE_PAGE_ROWS = 500
"""A comparison lists at most this many value rows on one page; the rows beyond go to its `page-N` pages (a
plan entry added or removed lists every one of its values: 20,000 rows and 6.9 MB at 10,000 operations). About
0.7 KB a row, so a page stays well under 1 MB."""
UNCHANGED_LISTED = 250
"""A comparison page lists the unchanged values up to this many; beyond, it gives their count and where to
find them (operation pages, the matrix, `catalog-docs diff --format json`), so it stays a page of changes."""



_CODE_SAFE = re.compile(r"[A-Za-z0-9._~/{} -]+")


def do_code(text: str) -> Markup:
    """Text for a code span or block, where entities would show literally: only validated path characters
    pass through as they are; anything else is escaped like all other catalogue text."""
    return Markup(text) if _CODE_SAFE.fullmatch(text) else md_escape(text)


def do_cite(citation: str, root: str | Href) -> Markup:
    """A citation (`§4`, `§8 rule 2`, `§4, §8`) as links to its sections on the sources page, relative to
    the page being rendered; a citation of another form fails the render (CatalogDocsError). Given `href`
    (in an HTML table, where mkdocs rewrites no link) the links are HTML, to the built page's URL."""
    if isinstance(root, Href):
        return Markup(", ".join(
            f'<a href="{root("sources/index.md#" + section_anchor(p.section))}">{md_escape(p.text)}</a>'
            for p in citation_parts(str(citation))))
    return _cite(str(citation), str(root))


@lru_cache(maxsize=4096)
def _cite(citation: str, root: str) -> Markup:
    return Markup(", ".join(
        f"[{md_escape(p.text)}]({root}sources/index.md#{section_anchor(p.section)})" for p in citation_parts(citation)
    ))


def do_path_gap(entry: ListingEntry, catalog: Catalog) -> NotShown | None:
    """The register item saying that an entry's path is not shown (an `entry` item with subject `entry-path`),
    which is also why its URL template, area and version marker cannot be given."""
    return next((n for n in catalog.not_shown_for(entry) if n.scope == "entry" and n.subject == "entry-path"), None)


def do_not_shown_about(catalog: Catalog, subject: str) -> NotShown | None:
    """The first register item whose `subject` is `subject` (`base-url`, say), or None: pages find the item
    about a catalogue field by what it is about, never by its id."""
    return next((n for n in catalog.not_shown if n.subject == subject), None)


def do_op_link(entry: ListingEntry, root: str) -> Markup:
    """A Markdown link to an operation page, relative to the page being rendered."""
    return _op_link(entry.title, entry.slug, str(root))


@lru_cache(maxsize=1 << 16)
def _op_link(title: str, slug: str, root: str) -> Markup:
    # The same link appears on many pages (indexes, matrix, versions, plans, every comparison).
    return Markup(f"[{md_escape(title)}]({root}operations/{do_url(slug)}.md)")


def do_since_url(href: Href, from_side: str, to_side: str) -> Markup:
    """The any-pair comparison's address (compare/, whose compare.js reads `?from=...&to=...`) for two sides,
    `LABEL` or `LABEL:PLAN`, from the page `href` belongs to; for an HTML attribute (the `&` as `&amp;`)."""
    return Markup(f"{href('compare/index.md')}?from={quote(from_side, safe='')}&amp;to={quote(to_side, safe='')}")


def do_side_words(side: str) -> str:
    """A side as the page names it: `LABEL`, or `PLAN under LABEL` for `LABEL:PLAN` (compare.Side.words)."""
    label, sep, plan = side.partition(":")
    return f"{plan} under {label}" if sep else label


def do_summary_text(rows: Any) -> str:
    """A comparison's summary rows as one plain sentence part (`1 plan entry added, 3 values changed
    close → unlimited`), for a page description; escaped where it lands, like any text."""
    return ", ".join(f"{n} {what.lower()}" + (f" {t[0]} → {t[1]}" if t else "") for what, n, t, _ in rows)


def compare_slug(a: VersionLabel, b: VersionLabel) -> str:
    """URL slug of the comparison of two labels: `<from>...<to>`."""
    return f"{a.slug}...{b.slug}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One value of a (label, plan entry) column for one listing entry, or None when the plan is not listed."""

    value: str | None
    changed_from: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Column:
    """A (version label, plan entry) column of the operations index and the matrix."""

    version: VersionLabel
    plan_index: int

    @property
    def plan(self) -> Any:
        return self.version.plans[self.plan_index]


@lru_cache(maxsize=1)
def _environment() -> Environment:
    """The one Jinja environment: templates compile once per process (a `mkdocs serve` reload or a
    benchmark run reuses them) and recompile when their file changes (Jinja's auto_reload)."""
    env = Environment(
        loader=PackageLoader("catalog_docs.site", "templates"),
        undefined=StrictUndefined,
        autoescape=True,
        finalize=finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["url"] = do_url
    env.filters["md"] = md_escape
    env.filters["code"] = do_code
    env.filters["front"] = front_matter
    env.filters["path_gap"] = do_path_gap
    env.filters["not_shown_about"] = do_not_shown_about
    env.filters["cite"] = do_cite
    env.filters["op_link"] = do_op_link
    env.filters["summary_text"] = do_summary_text
    env.filters["since_url"] = do_since_url
    env.filters["side_words"] = do_side_words
    env.filters["html_block"] = html_block
    env.filters.update(TABLE_FILTERS)
    env.globals.update(MARKS)
    return env


@dataclass(frozen=True, slots=True)
class _Job:
    """One generated file to produce: `kind` is its template's name, or `download` for an export. `key`, when
    the render is keyed (see PageMemo), is a digest of everything the file is made from; None: always produce."""

    path: str
    kind: str
    produce: Callable[[], str]
    key: bytes | None = None
    parts: Callable[[], Iterable[str]] | None = None
    """A download's text in parts, as they are made (`produce` joins them): a build writes each into the file."""


def _joined(parts: Callable[[], Iterable[str]]) -> str:
    return "".join(parts())


def _digest(*parts: str | bytes) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def _rows_digest(rows: Any) -> bytes:
    """The values of some rows of `column_values` (each a tuple of lock values, in column order)."""
    return _digest("\n".join("\0".join(row) for row in rows))


class _Digests:
    """What a page may be made from, split so that a page whose inputs did not change keeps its key when one
    value elsewhere changes. `skeleton` is the whole catalogue except the plan entries' lock values (service,
    areas, listing entries, register, labels with their plan tables and plan entries' names, slugs and
    sources) and the builder's URL style; `version_values[i]` the lock values of label i; `whole` both."""

    def __init__(self, catalog: Catalog, directory_urls: bool) -> None:
        heads = tuple(dataclasses.replace(v, plans=tuple(dataclasses.replace(p, values=()) for p in v.plans))
                      for v in catalog.versions)
        self.skeleton = _digest(repr(directory_urls), repr(catalog.service), repr(catalog.entries),
                                repr(heads), repr(catalog.plan_names), repr(catalog.not_shown))
        self.plan_values = [[_digest(p.name, "\0".join(p.values)) for p in v.plans] for v in catalog.versions]
        """Under each label, each plan entry's name and values."""
        self.version_values = [_digest(*plans) for plans in self.plan_values]
        self.whole = _digest(self.skeleton, *self.version_values)


class PageMemo:
    """The files and comparisons of the last keyed render in this process, each under the digest of its inputs,
    so the next render produces only the files whose inputs changed (the `mkdocs serve` preview: one edit,
    a handful of pages). A page's key covers its template and path, the catalogue's skeleton (everything
    but lock values, see _Digests) and the lock values it shows: its own row or rows, its label's, or, for a
    page that summarises the catalogue, all of them. Templates change only with the package code, and
    pages.py starts a new memo when that does."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[bytes, str]] = {}
        self.comparisons: dict[bytes, Comparison] = {}
        self.json_plans: dict[bytes, str] = {}
        """catalog.json's parts (its head, each label's part, each plan entry's part; see _catalog_json_parts), each
        under its key."""
        self.openapi_paths: dict[bytes, str] = {}
        """openapi.yaml's text of each path item (see _openapi_parts), under its key."""
        self.chunks: dict[int, tuple[Comparison, list[frozenset[str]]]] = {}
        """compare_chunks of each comparison the memo holds, by the comparison's identity (kept alive beside it)."""
        self.reused = 0
        self.produced = 0


class _Pages:
    """Collects rendered pages; every page knows its depth so links can be written relative."""

    def __init__(self, catalog: Catalog, directory_urls: bool = True, *, keyed: bool = False) -> None:
        self.catalog = catalog
        self.directory_urls = directory_urls
        self.digests = _Digests(catalog, directory_urls) if keyed else None
        self.env = _environment()
        self.jobs: list[_Job] = []
        self.paths: set[str] = set()
        self.columns = [Column(version=v, plan_index=i) for v in catalog.versions for i in range(len(v.plans))]
        self.register = {n.id: n for n in catalog.not_shown}
        self._listings: dict[str, list[tuple[PlanEntry | None, PlanEntry | None]]] = {}
        self._templates: dict[str, Template] = {}

    def _claim(self, path: str) -> None:
        if path in self.paths:
            # Behind the validator's slug rules: a slug such as `index` would silently replace another page.
            raise CatalogDocsError(
                f"two pages would both be docs/{path}: a path, version label or plan entry name gives the slug "
                f"of another page; rename it (index is taken in every folder, page-N in operations/)"
            )
        self.paths.add(path)

    def add(self, path: str, template: str, *, page_values: Callable[[], bytes] | None = None, **context: Any) -> None:
        """Plan a page: `template` rendered with `context` (plus root, catalog and register)."""
        self.add_lazy(path, template, lambda: context, page_values=page_values)

    def add_lazy(self, path: str, template: str, make_context: Callable[[], dict[str, Any]], *,
                 page_values: Callable[[], bytes] | None = None) -> None:
        """Plan a page whose context is worked out when the page is rendered (possibly in the helper process).
        `page_values` gives a digest of the lock values the page shows, when a keyed render may key it on those
        alone (the template reads no other value, through its context or the catalogue); without it the page is
        keyed on every value."""
        self._claim(path)
        tpl = self._templates.get(template)
        if tpl is None:  # once per render: Jinja's auto_reload looks at the template's file on every get_template
            tpl = self._templates[template] = self.env.get_template(template)
        base = {"root": Markup("../" * path.count("/")), "href": Href(path, self.directory_urls),
                "catalog": self.catalog, "register": self.register}
        self.jobs.append(_Job(path=path, kind=template, produce=lambda: tpl.render(**base, **make_context()),
                              key=self._key(path, template, page_values)))

    def add_file(self, path: str, produce: Callable[[], str], *, keyed: bool = True, kind: str = "download",
                 page_values: Callable[[], bytes] | None = None) -> None:
        """Plan a file that no template makes: a download (keyed on the whole catalogue; `keyed=False`: produced
        on every render), or another `kind` (the feed), keyed like a page on `page_values` (see add_lazy)."""
        self._claim(path)
        self.jobs.append(_Job(path=path, kind=kind, produce=produce,
                              key=self._key(path, kind, page_values) if keyed else None))

    def add_download(self, path: str, parts: Callable[[], Iterable[str]]) -> None:
        """Plan a download made in parts (see _Job.parts), keyed on the whole catalogue."""
        self._claim(path)
        self.jobs.append(_Job(path=path, kind="download", produce=partial(_joined, parts), parts=parts,
                              key=self._key(path, "download", None)))

    def _key(self, path: str, template: str, page_values: Callable[[], bytes] | None) -> bytes | None:
        if self.digests is None:
            return None
        values = self.digests.whole if page_values is None else page_values()
        return _digest(template, path, self.digests.skeleton, values)

    def history(self, entry: ListingEntry) -> list[tuple[VersionLabel, list[Cell]]]:
        """Per-operation comparison: for each label, a cell per plan entry name (plan_cells, by label)."""
        columns = [self.plan_cells(name, entry) for name in self.catalog.plan_names]
        return [(v, [column[i] for column in columns]) for i, v in enumerate(self.catalog.versions)]

    def plan_cells(self, name: str, entry: ListingEntry) -> list[Cell]:
        """One plan entry's value for one listing entry under each label, marked where it changed since
        its previous label (`compare.listings`: the same rule as every comparison)."""
        found = self._listings.get(name)
        if found is None:
            found = self._listings[name] = listings(self.catalog, name)
        i = entry.position - 1
        cells = []
        for plan, previous in found:
            if plan is None:
                cells.append(Cell(value=None))
                continue
            value, before = plan.values[i], previous.values[i] if previous is not None else None
            cells.append(Cell(value=value, changed_from=before if before is not None and before != value else None))
        return cells


def _chunks(n: int, size: int = PAGE_ROWS) -> list[tuple[int, int]]:
    return [(i, min(i + size, n)) for i in range(0, max(n, 1), size)]


def rows_per_page(columns: int) -> int:
    """How many rows a table page holds: PAGE_ROWS, fewer when the table is wide, so that one page
    holds at most PAGE_CELLS values and its HTML stays well under 2 MB however many labels there are."""
    return max(PAGE_ROWS_MIN, min(PAGE_ROWS, PAGE_CELLS // max(columns, 1)))


@lru_cache(maxsize=1 << 14)
def _href(target: str, current: str) -> Markup:
    # A table's pager links every page of it from each of them: n * n links per table, on every render.
    rel = posixpath.relpath("/" + target, "/" + posixpath.dirname(current))  # absolute: no os.getcwd() per link
    return Markup("/".join(quote(part, safe="._~-") for part in rel.split("/")))


def _paged(pages: _Pages, first: str, template: str, rows: list[Any], size: int = PAGE_ROWS,
           make_row: Callable[[Any], Any] | None = None, *,
           page_values: Callable[[int, int], bytes] | None = None, **context: Any) -> None:
    """Render a table page, continued on `page-N` pages when there are more rows than one page holds.

    `first` is the first page's path (`operations/index.md`, `versions/<slug>.md`); later pages go into
    the folder of the same name (`operations/page-2.md`, `versions/<slug>/page-2.md`), so page 1 keeps
    its URL however long the table grows. With `make_row`, each page's rows are made from `rows` when
    that page is rendered. `page_values(start, stop)`: see _Pages.add_lazy."""
    chunks = _chunks(len(rows), size)
    folder = first[: -len("/index.md")] if first.endswith("/index.md") else first[: -len(".md")]
    names = [first] + [f"{folder}/page-{i}.md" for i in range(2, len(chunks) + 1)]
    for i, ((start, stop), name) in enumerate(zip(chunks, names, strict=True)):
        pager = [(j + 1, _href(n, name), j == i) for j, n in enumerate(names)]
        fixed = {"page_number": i + 1, "page_count": len(chunks), "pager": pager, **context}
        values = None if page_values is None else partial(page_values, start, stop)
        if make_row is None:
            pages.add(name, template, rows=rows[start:stop], page_values=values, **fixed)
        else:
            pages.add_lazy(name, template, partial(_made_rows, make_row, rows[start:stop], fixed), page_values=values)


def _made_rows(make_row: Callable[[Any], Any], rows: list[Any], fixed: dict[str, Any]) -> dict[str, Any]:
    return {"rows": [make_row(r) for r in rows], **fixed}


def _plan_row(pages: _Pages, name: str, entry: ListingEntry) -> tuple[ListingEntry, list[Cell]]:
    return entry, pages.plan_cells(name, entry)


def _operation_context(pages: _Pages, entry: ListingEntry) -> dict[str, Any]:
    history = pages.history(entry)
    values = "; ".join(
        f"{v.label}: " + ", ".join(f"{name} {c.value}" for name, c in zip(pages.catalog.plan_names, cells, strict=True)
                                   if c.value)
        for v, cells in history
    )
    description = f"{entry.method} {entry.title}. Lock values by version label and plan entry: {values}."
    if len(description) > 300:
        description = description[:297].rsplit(" ", 1)[0] + "..."
    return {"entry": entry, "history": history, "not_shown": pages.catalog.not_shown_for(entry),
            "description": description}


@paused_gc()
def render_pages(catalog: Catalog, *, workers: int | None = None, directory_urls: bool = True,
                 memo: PageMemo | None = None, history: LabelHistory | None = None,
                 spill: Path | None = None) -> dict[str, str]:
    """Every generated file of the site, as {path relative to docs/: content}.

    Pages are planned here, then rendered by `render_jobs` (in two processes on a large catalogue;
    `workers` overrides the choice, as tests do). `directory_urls` is the builder's `use_directory_urls`:
    links inside HTML tables are written as the built pages' URLs. With `memo` (the preview loop), a file
    whose inputs are those of the memo's last render is taken from it instead of produced again; the
    result is the same either way. `history`: when each label was added, for the changelog (site.history).
    `spill` (not with `memo`): a folder the downloads made in parts are written into as their parts come
    (`spill/<path>`), left out of the result: no one holds their text whole (170 MB at 10,000 operations)."""
    planned = plan_pages(catalog, directory_urls=directory_urls, memo=memo, history=history)
    jobs = planned.jobs
    if spill is None or memo is not None:
        return render_jobs(jobs, workers=workers, memo=memo)
    spilled = {job.path for job in jobs if job.parts is not None}
    jobs = [dataclasses.replace(job, produce=partial(write_parts, spill / job.path, job.parts))
            if job.parts is not None else job for job in jobs]
    return {path: text for path, text in render_jobs(jobs, workers=workers).items() if path not in spilled}


def write_parts(target: Path, parts: Callable[[], Iterable[str]]) -> str:
    """Write a file's parts into `target` as they come (through a temporary file beside it, renamed when whole);
    returns "" (what the render's result holds in its place until it is left out)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial_file = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with partial_file.open("w", encoding="utf-8", newline="") as out:
            for part in parts():
                out.write(part)
        partial_file.replace(target)
    finally:
        partial_file.unlink(missing_ok=True)
    return ""


def _comparisons(pages: _Pages, pairs: list[tuple[VersionLabel, VersionLabel]],
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
            key = _digest("comparison", a.label, b.label, digests.skeleton, *digests.version_values[: i + 2])
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


def plan_pages(catalog: Catalog, *, directory_urls: bool = True, memo: PageMemo | None = None,
               history: LabelHistory | None = None) -> _Pages:
    """Every page to render (as jobs) and every download; raises CatalogDocsError when two pages share a path.
    With `memo`, every job carries its key (see PageMemo) and comparisons come from the memo when unchanged.
    `history`: when each label was added (site.history), which the changelog and its feed are made from too;
    without it (a render of a catalogue alone, as the benchmark and tests do) they are not made."""
    pages = _Pages(catalog, directory_urls, keyed=memo is not None)
    pairs = consecutive_pairs(catalog)
    column_values = list(zip(*(c.plan.values for c in pages.columns), strict=True)) or [() for _ in catalog.entries]
    planning = _Planning(pages=pages, memo=memo, history=history, pairs=pairs,
                         comparisons=_comparisons(pages, pairs, memo), column_values=column_values)
    for step in _STEPS:
        step(planning)
    return pages


@dataclass(frozen=True, slots=True, kw_only=True)
class _Planning:
    """What the steps of plan_pages share: the pages planned so far, the consecutive comparisons and every
    listing entry's values in column order (a (label, plan entry) column each)."""

    pages: _Pages
    memo: PageMemo | None
    history: LabelHistory | None
    pairs: list[tuple[VersionLabel, VersionLabel]]
    comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]]
    column_values: list[tuple[str, ...]]

    @property
    def catalog(self) -> Catalog:
        return self.pages.catalog

    @property
    def by_column(self) -> list[tuple[ListingEntry, tuple[str, ...]]]:
        return list(zip(self.catalog.entries, self.column_values, strict=True))

    def row_values(self, start: int, stop: int) -> bytes:
        """Every value of those listing entries (all columns), as a page's key reads them."""
        return _rows_digest(self.column_values[start:stop])


def _fixed_values(value: bytes | None) -> Callable[..., bytes] | None:
    """`page_values` that give one digest whatever rows a page holds (None when the render is not keyed)."""
    return None if value is None else partial(_same, value)


def _same(value: bytes, *_rows: int) -> bytes:
    return value


def _home(plan: _Planning) -> None:
    """The home page and the legend: both show no lock value, so a keyed render keys them on the skeleton alone
    (an edited value leaves them as they were)."""
    skeleton = _fixed_values(None if plan.pages.digests is None else b"")
    areas = Counter(e.area.id for e in plan.catalog.entries if e.area is not None)
    plan.pages.add("index.md", "home.md.j2", pairs=plan.pairs, area_counts=areas, page_values=skeleton)
    plan.pages.add("legend.md", "legend.md.j2", page_values=skeleton)


def _operations(plan: _Planning) -> None:
    """The operations table, then a page per listing entry: its own values under every label (changed-from
    marks compare them with each other)."""
    pages = plan.pages
    _paged(pages, "operations/index.md", "operations.md.j2", plan.by_column, rows_per_page(len(pages.columns)),
           columns=pages.columns, page_values=plan.row_values)
    for i, entry in enumerate(plan.catalog.entries):
        pages.add_lazy(f"operations/{entry.slug}.md", "operation.md.j2", partial(_operation_context, pages, entry),
                       page_values=partial(plan.row_values, i, i + 1))


def _versions(plan: _Planning) -> None:
    """The labels' index, then a page per label, keyed on its label's values (`differs` counts them all)."""
    pages, catalog, digests = plan.pages, plan.catalog, plan.pages.digests
    pages.add("versions/index.md", "versions.md.j2", pairs=plan.pairs)
    for at, v in enumerate(catalog.versions):
        values = list(zip(*(p.values for p in v.plans), strict=True))
        differs = [len(set(row)) > 1 for row in values]
        label_values = None if digests is None else digests.version_values[at]
        _paged(pages, f"versions/{v.slug}.md", "version.md.j2",
               list(zip(catalog.entries, values, differs, strict=False)),  # a label with no plan entry: no rows
               rows_per_page(len(v.plans)), version=v, differs=differs, page_values=_fixed_values(label_values))


def _plans(plan: _Planning) -> None:
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
        _paged(pages, f"plans/{name.replace(' ', '-')}.md", "plan.md.j2", list(catalog.entries),
               rows_per_page(len(catalog.versions)), partial(_plan_row, pages, name),
               page_values=values, name=name, listed=listed, unlisted=unlisted)


def _column_rows(column: list[tuple[str, ...]], start: int, stop: int) -> bytes:
    return _rows_digest(column[start:stop])


def _compare(plan: _Planning) -> None:
    """The comparisons' index (with the any-pair form's choices), then a page per consecutive pair, keyed on the
    values of every label up to its later one (see _comparisons)."""
    pages, catalog, comparisons, digests = plan.pages, plan.catalog, plan.comparisons, plan.pages.digests
    choices = [("Version labels", [v.label for v in catalog.versions]),
               ("Version label : plan entry", [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans])]
    pages.add("compare/index.md", "compare_index.md.j2", comparisons=comparisons, choices=choices)
    entries = {e.position: e for e in catalog.entries}
    kept: dict[int, tuple[Comparison, list[frozenset[str]]]] = {}
    for i, (a, b, cmp) in enumerate(comparisons):
        upto = None if digests is None else _digest(*digests.version_values[: i + 2])
        # A comparison the memo kept keeps its pages' rows too: an edit of the newest label splits one again.
        known = plan.memo.chunks.get(id(cmp)) if plan.memo is not None else None
        chunks = known[1] if known is not None and known[0] is cmp else compare_chunks(cmp)
        kept[id(cmp)] = (cmp, chunks)
        _comparison_pages(pages, f"compare/{compare_slug(a, b)}.md", chunks,
                          partial(_compare_context, comparisons, i, entries), _fixed_values(upto))
    if plan.memo is not None:
        plan.memo.chunks = kept


def _comparison_pages(pages: _Pages, first: str, chunks: list[frozenset[str]],
                      context: Callable[[dict[str, Any]], dict[str, Any]],
                      page_values: Callable[[], bytes] | None) -> None:
    """A comparison's page; with more than one chunk of rows, its `page-N` pages and the lookup of its rows."""
    folder = first[: -len(".md")]
    names = [first] + [f"{folder}/page-{n}.md" for n in range(2, len(chunks) + 1)]
    split = len(names) > 1
    lookup = f"{folder}/{MOVED_LOOKUP}"
    for n, (name, shown) in enumerate(zip(names, chunks, strict=True), start=1):
        paging = {"page_number": n, "page_count": len(names), "on_page": shown if split else None,
                  "pager": [(j, _href(other, name), j == n) for j, other in enumerate(names, start=1)],
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


def _changelog_step(plan: _Planning) -> None:
    if plan.history is not None:  # the changelog is made from the history too: without it, there is none
        _changelog(plan.pages, plan.comparisons, plan.history)


def _matrix(plan: _Planning) -> None:
    pages = plan.pages
    _paged(pages, "matrix/index.md", "matrix.md.j2", plan.by_column, rows_per_page(len(pages.columns)),
           columns=pages.columns, page_values=plan.row_values)


def _reference(plan: _Planning) -> None:
    """The not-shown register and the sources page."""
    catalog = plan.catalog
    plan.pages.add("not-shown/index.md", "not_shown.md.j2", pairs=plan.pairs)
    plan.pages.add_lazy("sources/index.md", "sources.md.j2", lambda: {
        "sections": source_sections(catalog, max_rows=PAGE_ROWS, max_values=PAGE_CELLS), "max_rows": PAGE_ROWS,
        "max_values": PAGE_CELLS, "lock_values": LOCK_VALUES, "marker_citation": MARKER_CITATION})


def _downloads(plan: _Planning) -> None:
    """The downloads, and their contracts as kept (produced on every render: they are files of the package)."""
    pages, catalog, memo, digests = plan.pages, plan.catalog, plan.memo, plan.pages.digests
    pages.add_download("downloads/catalog.json", partial(_catalog_json_parts, catalog, memo, digests))
    pages.add_download("downloads/lock-matrix.csv", partial(lock_matrix_parts, catalog, plan.column_values))
    pages.add_download("downloads/openapi.yaml", partial(_openapi_parts, catalog, memo, digests, plan.column_values))
    for schema in sorted(DOWNLOAD_SCHEMA_DIR.glob("*.schema.json")):
        pages.add_file(f"downloads/{schema.name}", partial(schema.read_text, encoding="utf-8"), keyed=False)


_STEPS: tuple[Callable[[_Planning], None], ...] = (
    _home, _operations, _versions, _plans, _compare, _changelog_step, _matrix, _reference, _downloads,
)
"""The steps of plan_pages, in the order their pages are planned (the order of the render's files)."""


def changelog_entries(pages: _Pages, comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]],
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
            version=v, previous=previous, summary=summary, anchors=_first_changes(cmp, summary),
            compare_href=None if previous is None else str(href(f"compare/{do_url(compare_slug(previous, v))}.md")),
            version_href=str(href(f"versions/{do_url(v.slug)}.md")), added=history.added.get(v.slug),
            anchor=do_url(v.slug)))
    return out


def _first_changes(cmp: Comparison | None, summary: list[SummaryRow]) -> list[str | None]:
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


def _changelog(pages: _Pages, comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]],
               history: LabelHistory) -> None:
    """The changelog page and its Atom feed, keyed on the whole catalogue and the history (dates included)."""
    digests = pages.digests
    base = site_address(os.environ.get("SITE_URL"))  # the feed's links are absolute on the site's address
    values = None if digests is None else _digest(digests.whole, history.stamp(), history.build.when.isoformat(),
                                                  base or "")
    entries = cache(partial(changelog_entries, pages, comparisons, history))  # the page and the feed share them
    pages.add_lazy(PAGE_PATH, "changelog.md.j2", lambda: {"entries": entries(), "history": history},
                   page_values=None if values is None else lambda: values)
    changelog = str(Href("index.md", pages.directory_urls)(PAGE_PATH))
    pages.add_file(FEED_PATH, lambda: atom_feed(pages.catalog, entries(), history, changelog, base), kind="feed",
                   page_values=None if values is None else lambda: values)


_VERSIONS_EMPTY = '\n  "versions": []'
"""catalog.json's versions with no label in them: a line of the top-level mapping (no text holds a raw newline)."""
_PLANS_EMPTY = '\n  "plans": []\n}'
"""A label's part of catalog.json with no plan entry in it: its last key and its end."""


class _KeptParts:
    """A download's parts from the memo's last render (`known`) and those of this render (`kept`, which replaces
    them in the memo once the download is whole). Unkeyed (key None), every part is made."""

    def __init__(self, known: dict[bytes, str]) -> None:
        self.known = known
        self.kept: dict[bytes, str] = {}

    def get(self, key: bytes | None, make: Callable[[], str | None]) -> str | None:
        """The part under `key`, made when the memo does not hold it."""
        text = self.known.get(key) if key is not None else None
        if text is None:
            text = make()
        if key is not None and text is not None:
            self.kept[key] = text
        return text

    def keep(self, key: bytes) -> None:
        """Keep a part this render did not need (a smaller part of one it took whole) for the next render."""
        if key in self.known:
            self.kept[key] = self.known[key]


def _catalog_json_parts(catalog: Catalog, memo: PageMemo | None, digests: _Digests | None) -> Iterator[str]:
    """`to_json(catalog_data(catalog))` in parts: the text before the labels, each label's part, the rest.
    Pretty-printed JSON nests a value's text as it stands alone, each line indented further (text never holds
    a raw newline), so each plan entry's part (most of the text: every lock value) is made alone. Keyed, the
    head is taken from the memo when the skeleton is unchanged, a label's or plan entry's part when its values
    are unchanged too."""
    parts = _KeptParts(memo.json_plans if memo is not None else {})
    head = parts.get(None if digests is None else _digest("catalog.json", digests.skeleton),
                     partial(_json_head, catalog)) or ""
    if not catalog.versions or head.count(_VERSIONS_EMPTY) != 1:
        yield to_json(catalog_data(catalog))
        return
    before, _, after = head.partition(_VERSIONS_EMPTY)
    yield before + '\n  "versions": ['
    for at, version in enumerate(catalog.versions):
        key = None
        if digests is not None:
            key = _digest("catalog.json", digests.skeleton, version.label, digests.version_values[at])
            if key in parts.known:  # its plan entries' parts stay kept for the next edit of this label
                for n, plan in enumerate(version.plans):
                    parts.keep(_plan_json_key(digests, at, version, n, plan))
        text = parts.get(key, partial(_version_json, catalog, at, version, parts, digests))
        yield ("," if at else "") + (text or "")
    if memo is not None:
        memo.json_plans = parts.kept
    yield "\n  ]" + after


def _json_head(catalog: Catalog) -> str:
    return to_json(catalog_data(catalog, versions=False))


def _plan_json_key(digests: _Digests, at: int, version: VersionLabel, n: int, plan: PlanEntry) -> bytes:
    return _digest("catalog.json", digests.skeleton, version.label, digests.plan_values[at][n], plan.name)


def _version_json(catalog: Catalog, at: int, version: VersionLabel, parts: _KeptParts,
                  digests: _Digests | None) -> str:
    """A label's part of catalog.json, nested in `versions`, made of its plan entries' parts (see _KeptParts)."""
    part = to_json(version_data(catalog, version, plans=False))[:-1]
    if not version.plans or not part.endswith(_PLANS_EMPTY):
        return "\n    " + to_json(version_data(catalog, version))[:-1].replace("\n", "\n    ")
    plans = [parts.get(None if digests is None else _plan_json_key(digests, at, version, n, plan),
                       partial(_plan_json, catalog, plan)) or "" for n, plan in enumerate(version.plans)]
    head = part[: -len(_PLANS_EMPTY)].replace("\n", "\n    ")
    return "\n    " + head + '\n      "plans": [' + ",".join(plans) + "\n      ]\n    }"


def _plan_json(catalog: Catalog, plan: PlanEntry) -> str:
    return "\n        " + to_json(plan_data(catalog, plan))[:-1].replace("\n", "\n        ")


_PATHS_EMPTY = "\npaths: {}\n"
"""openapi.yaml's paths with no path in them: a line of the top-level mapping."""


def _openapi_parts(catalog: Catalog, memo: PageMemo | None, digests: _Digests | None,
                   column_values: list[tuple[str, ...]]) -> Iterator[str]:
    """`to_yaml(openapi_data(catalog))` in parts: the text before the paths, each path's part, the rest.
    Block-style YAML writes a nested mapping as it writes it alone, at a deeper indent (`serialize.to_yaml_plain`),
    so each path item is made and written alone. Keyed, a path's part is taken from the memo when the skeleton
    and that listing entry's values are unchanged (a path item shows its entry's values and, through the
    skeleton, everything else it names)."""
    data = openapi_data(catalog, skip_path=lambda _path: True)  # every item None: each is made below, in turn
    head = to_yaml_plain({**data, "paths": {}}) if data.get("paths") else None
    if head is None or ("\n" + head).count(_PATHS_EMPTY) != 1:
        yield to_yaml(openapi_data(catalog))
        return
    before, _, after = ("\n" + head).partition(_PATHS_EMPTY)
    yield (before + "\npaths:\n")[1:]
    parts = _KeptParts(memo.openapi_paths if memo is not None else {})
    tags = area_tags(catalog)
    # A path listed twice keeps its first place and the last entry's item, as in a mapping written whole.
    by_path = {e.path: (i, e) for i, e in enumerate(catalog.entries) if e.path is not None}
    for path, (i, e) in by_path.items():
        key = None if digests is None else _digest("openapi.yaml", digests.skeleton, _rows_digest([column_values[i]]),
                                                   path)
        text = parts.get(key, partial(_path_yaml, catalog, path, e, tags))
        if text is None:  # only text, numbers, booleans and null reach a path item: anything else is a bug
            raise CatalogDocsError(f"openapi.yaml: the item of {path!r} holds data the YAML writer cannot write")
        yield text
    if memo is not None:
        memo.openapi_paths = parts.kept
    yield after


def _path_yaml(catalog: Catalog, path: str, entry: ListingEntry, tags: dict[str, str]) -> str | None:
    return to_yaml_plain({path: path_item(catalog, entry, tags)}, "  ")


def _compare_context(comparisons: list[tuple[VersionLabel, VersionLabel, Comparison]], i: int,
                     entries: dict[int, ListingEntry], paging: dict[str, Any]) -> dict[str, Any]:
    """A comparison page's context: the comparison, its neighbours, and which page of it (`paging`)."""
    a, b, cmp = comparisons[i]
    return {**paging, "a": a, "b": b, "cmp": cmp, "groups": change_groups(cmp), "summary": summary_rows(cmp),
            "entries": entries,
            "unchanged_listed": UNCHANGED_LISTED, "earlier": comparisons[i - 1][:2] if i > 0 else None,
            "later": comparisons[i + 1][:2] if i + 1 < len(comparisons) else None}


PARALLEL_MIN_JOBS = 300
"""Below this many files a second process costs more than it saves."""


def render_workers(jobs: int) -> int:
    """How many processes render: 2 for a large catalogue on a machine with two or more processors, when
    this process can fork safely (no other threads, as under `mkdocs serve`); else 1.
    CATALOG_DOCS_WORKERS=1 turns the second process off."""
    if jobs < PARALLEL_MIN_JOBS or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    if os.environ.get("CATALOG_DOCS_WORKERS", "").strip() == "1":
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return 2 if cpus >= 2 else 1


def _produce_all(jobs: list[_Job]) -> dict[str, str]:
    return {job.path: job.produce() for job in jobs}


class _SharedCounter:
    """A counter in memory shared with a forked child, so two processes can take jobs in turn."""

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, 8)
        self._lock = multiprocessing.get_context("fork").Lock()

    def take(self, single: int) -> tuple[int, int]:
        """Reserve the next job numbers: one at a time below `single` (the downloads, each a large share of the
        work, so the two processes share them out), `_TAKE` at a time after. The first of them, and how many."""
        with self._lock:
            start = int.from_bytes(self._memory[:8], "little")
            count = 1 if start < single else _TAKE
            self._memory[:8] = (start + count).to_bytes(8, "little")
        return start, count


_TAKE = 8
"""Jobs taken at a time from the shared counter once the downloads are taken."""


def _shared_batches(jobs: list[_Job], counter: _SharedCounter) -> Iterator[dict[str, str]]:
    """The texts of the jobs this process takes from the shared counter, one take at a time."""
    single = sum(1 for job in jobs if job.kind == "download")
    while (taken := counter.take(single))[0] < len(jobs):
        start, count = taken
        yield {job.path: job.produce() for job in jobs[start:start + count]}


def _produce_shared(jobs: list[_Job], counter: _SharedCounter) -> dict[str, str]:
    out: dict[str, str] = {}
    for batch in _shared_batches(jobs, counter):
        out.update(batch)
    return out


class _Answer(threading.Thread):
    """Reads the forked child's texts while this process renders its own share: the child sends each take as it
    is made, so no one holds its whole share as one pickled string beside the texts (at 10,000 operations the
    render's peak memory was its texts plus half of them twice over: pickled and unpickled)."""

    def __init__(self, read_fd: int) -> None:
        super().__init__(name="catalog-docs-render-answer", daemon=True)
        self.read_fd = read_fd
        self.texts: dict[str, str] = {}
        self.status = "lost"
        """`ok` (every take received, then the parts), `error` (then the child's exception) or `lost` (it died)."""
        self.detail: Any = {}

    def run(self) -> None:
        with os.fdopen(self.read_fd, "rb") as pipe:
            while True:
                try:
                    kind, value = pickle.load(pipe)
                except Exception:  # end of the stream, or a record cut short by a child that died
                    return
                if kind != "texts":
                    self.status, self.detail = kind, value
                    return
                self.texts.update(value)


_PARTS = ("json_plans", "openapi_paths")
"""The PageMemo fields a download's producer replaces with the parts it made (_catalog_json_parts, _openapi_parts)."""


def render_jobs(jobs: list[_Job], *, workers: int | None = None, memo: PageMemo | None = None,
                parts: PageMemo | None = None) -> dict[str, str]:
    """Produce every job's text, {path: text} in job order. With `memo`, a job whose key is the one the memo
    holds for its path is not produced: its text is the memo's; the memo then holds this render's files.
    `parts`: the memo the downloads' producers keep their parts in; those a forked child makes are sent back.

    With two workers, a forked child and this process take jobs in turn from a shared counter (the
    largest, the downloads, first) and the child sends its texts back through a pipe: it inherits the
    planned jobs, so nothing is copied in. An error in the child is raised here as if it happened here;
    if the child dies without an answer, the jobs it took are produced here."""
    if memo is not None:
        return _render_with_memo(jobs, workers, memo)
    if (workers or render_workers(len(jobs))) < 2 or len(jobs) < 2:
        return _produce_all(jobs)
    return _render_forked(jobs, parts)


def _render_with_memo(jobs: list[_Job], workers: int | None, memo: PageMemo) -> dict[str, str]:
    """render_jobs with a memo: the jobs whose key the memo holds are taken from it, the others produced."""
    known = {job.path: memo.pages[job.path][1] for job in jobs
             if job.key is not None and job.path in memo.pages and memo.pages[job.path][0] == job.key}
    fresh = render_jobs([job for job in jobs if job.path not in known], workers=workers, parts=memo)
    out = {job.path: known[job.path] if job.path in known else fresh[job.path] for job in jobs}
    memo.pages = {job.path: (job.key, out[job.path]) for job in jobs if job.key is not None}
    memo.reused, memo.produced = len(known), len(fresh)
    return out


def _render_forked(jobs: list[_Job], parts: PageMemo | None) -> dict[str, str]:
    """render_jobs in two processes: a forked child and this one share the jobs (see render_jobs)."""
    order = sorted(jobs, key=lambda job: job.kind != "download")
    counter = _SharedCounter()
    before = {name: getattr(parts, name) for name in _PARTS} if parts is not None else {}
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: produce, answer, and leave without running any of the parent's exit code
        _child(order, counter, parts, before, read_fd, write_fd)
    os.close(write_fd)
    answer = _Answer(read_fd)
    answer.start()
    try:
        out = _produce_shared(order, counter)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        answer.join()
        os.waitpid(pid, 0)
        raise
    answer.join()
    os.waitpid(pid, 0)
    _take_answer(answer, out, parts)
    missing = [job for job in jobs if job.path not in out]  # taken by a child that died
    out.update(_produce_all(missing))
    return {job.path: out[job.path] for job in jobs}


def _child(order: list[_Job], counter: _SharedCounter, parts: PageMemo | None, before: dict[str, object],
           read_fd: int, write_fd: int) -> NoReturn:
    """The forked child's whole life: produce its share, sending each take as it is made, then the parts of the
    downloads it made (or its error), and exit."""
    status = 1
    try:
        os.close(read_fd)
        with os.fdopen(write_fd, "wb") as pipe:
            try:
                for texts in _shared_batches(order, counter):
                    pipe.write(pickle.dumps(("texts", texts), protocol=pickle.HIGHEST_PROTOCOL))
                made = {name: getattr(parts, name) for name in before if getattr(parts, name) is not before[name]}
                pipe.write(pickle.dumps(("ok", made), protocol=pickle.HIGHEST_PROTOCOL))
            except BaseException as exc:
                try:
                    record = pickle.dumps(("error", exc), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:
                    record = pickle.dumps(("error", CatalogDocsError(f"{type(exc).__name__}: {exc}")))
                pipe.write(record)
        status = 0
    finally:
        os._exit(status)


def _take_answer(answer: _Answer, out: dict[str, str], parts: PageMemo | None) -> None:
    """Add the child's texts to `out` and its downloads' parts to `parts`; raise the child's error as its own.
    A child that died sent only some of its texts: the jobs it took are missing from `out`."""
    if answer.status == "error":
        raise answer.detail
    out.update(answer.texts)
    if answer.status != "ok":
        return
    for name, value in answer.detail.items():  # the parts of a download the child produced, kept for the next render
        setattr(parts, name, value)


def iter_pages(files: dict[str, str]) -> Iterator[str]:
    """The Markdown pages among the generated files."""
    return (rel for rel in files if rel.endswith(".md"))

