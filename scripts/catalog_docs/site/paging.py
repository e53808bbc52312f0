"""The page planner (`Pages`: every file a render makes, as jobs) and table paging (`paged`). Nothing here
writes a file."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any
from urllib.parse import quote

from jinja2 import Template
from markupsafe import Markup

from catalog_docs.catalog.model import Catalog, ListingEntry, PlanEntry, VersionLabel
from catalog_docs.compare.changes import Comparison, listings
from catalog_docs.errors import CatalogDocsError
from catalog_docs.site.feed import site_address
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.keys import Digests, PageMemo, digest, rows_digest
from catalog_docs.site.tables import Href
from catalog_docs.site.templating import environment
from catalog_docs.site.twins import Twins, twin_key

PAGE_ROWS = 250
"""Tables with more listing entries than this are split over several pages, so no page grows without bound."""
PAGE_CELLS = 10_000
"""At most this many values in one table page (250 rows of 40 columns); wider tables get fewer rows."""
PAGE_ROWS_MIN = 50
"""However wide a table, a page holds at least this many rows."""


class _Shared:
    """A page's context, worked out once for the page and its twin, which ask for it one after the other (when the
    same process renders both): the second ask takes it and lets it go; a later ask works it out again."""

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], dict[str, Any]]) -> None:
        self._make = make
        self._made: dict[str, Any] | None = None

    def __call__(self) -> dict[str, Any]:
        made, self._made = self._made, None
        if made is None:
            made = self._made = self._make()
        return made


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



@dataclass(frozen=True, slots=True)
class Job:
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


class Pages:
    """Collects rendered pages; every page knows its depth so links can be written relative."""

    def __init__(self, catalog: Catalog, directory_urls: bool = True, *, keyed: bool = False,
                 feeds: bool = False, search_boost: bool = True) -> None:
        self.catalog = catalog
        self.twins = Twins(site_address(os.environ.get("SITE_URL")), directory_urls, feeds=feeds)
        """Every page's Markdown twin (site/twins.py), planned beside it; `feeds`: operation pages link theirs."""
        self.directory_urls = directory_urls
        self.search_boost = search_boost
        """Whether the engine's search ranks pages by their `search: boost` front matter (Material's does, as it
        documents; Zensical's has no boost): the templates leave out of a search without one the pages that would
        otherwise come before the page a reader searched for."""
        self.digests = Digests(catalog, directory_urls, search_boost) if keyed else None
        self.env = environment()
        self.jobs: list[Job] = []
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
                "catalog": self.catalog, "register": self.register, "search_boost": self.search_boost}
        twins = self.twins
        context = _Shared(make_context)
        self.jobs.append(Job(path=path, kind=template, key=self._key(path, template, page_values),
                             produce=twins.with_links(path, template, lambda: tpl.render(**base, **context()))))
        twin = twin_key(path, self.directory_urls)
        self._claim(twin)
        twin_kind = f"twins/{template}\0{twins.base}"  # the twin's links depend on the site's address
        self.jobs.append(Job(path=twin, kind="twin", key=self._key(twin, twin_kind, page_values),
                             produce=twins.produce(path, template, lambda: {**base, **context()})))

    def add_file(self, path: str, produce: Callable[[], str], *, keyed: bool = True, kind: str = "download",
                 page_values: Callable[[], bytes] | None = None) -> None:
        """Plan a file that no template makes: a download (keyed on the whole catalogue; `keyed=False`: produced
        on every render), or another `kind` (the feed), keyed like a page on `page_values` (see add_lazy)."""
        self._claim(path)
        self.jobs.append(Job(path=path, kind=kind, produce=produce,
                              key=self._key(path, kind, page_values) if keyed else None))

    def add_download(self, path: str, parts: Callable[[], Iterable[str]]) -> None:
        """Plan a download made in parts (see Job.parts), keyed on the whole catalogue."""
        self._claim(path)
        self.jobs.append(Job(path=path, kind="download", produce=partial(_joined, parts), parts=parts,
                              key=self._key(path, "download", None)))

    def _key(self, path: str, template: str, page_values: Callable[[], bytes] | None) -> bytes | None:
        if self.digests is None:
            return None
        values = self.digests.whole if page_values is None else page_values()
        return digest(template, path, self.digests.skeleton, values)

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
def href_to(target: str, current: str) -> Markup:
    # A table's pager links every page of it from each of them: n * n links per table, on every render.
    rel = posixpath.relpath("/" + target, "/" + posixpath.dirname(current))  # absolute: no os.getcwd() per link
    return Markup("/".join(quote(part, safe="._~-") for part in rel.split("/")))


def paged(pages: Pages, first: str, template: str, rows: list[Any], size: int = PAGE_ROWS,
           make_row: Callable[[Any], Any] | None = None, *,
           page_values: Callable[[int, int], bytes] | None = None, **context: Any) -> None:
    """Render a table page, continued on `page-N` pages when there are more rows than one page holds.

    `first` is the first page's path (`operations/index.md`, `versions/<slug>.md`); later pages go into
    the folder of the same name (`operations/page-2.md`, `versions/<slug>/page-2.md`), so page 1 keeps
    its URL however long the table grows. With `make_row`, each page's rows are made from `rows` when
    that page is rendered. `page_values(start, stop)`: see Pages.add_lazy."""
    chunks = _chunks(len(rows), size)
    folder = first[: -len("/index.md")] if first.endswith("/index.md") else first[: -len(".md")]
    names = [first] + [f"{folder}/page-{i}.md" for i in range(2, len(chunks) + 1)]
    for i, ((start, stop), name) in enumerate(zip(chunks, names, strict=True)):
        pager = [(j + 1, href_to(n, name), j == i) for j, n in enumerate(names)]
        fixed = {"page_number": i + 1, "page_count": len(chunks), "pager": pager, **context}
        values = None if page_values is None else partial(page_values, start, stop)
        if make_row is None:
            pages.add(name, template, rows=rows[start:stop], page_values=values, **fixed)
        else:
            pages.add_lazy(name, template, partial(_made_rows, make_row, rows[start:stop], fixed), page_values=values)


def _made_rows(make_row: Callable[[Any], Any], rows: list[Any], fixed: dict[str, Any]) -> dict[str, Any]:
    return {"rows": [make_row(r) for r in rows], **fixed}


@dataclass(frozen=True, slots=True, kw_only=True)
class Planning:
    """What the steps of plan_pages share: the pages planned so far, the consecutive comparisons and every
    listing entry's values in column order (a (label, plan entry) column each)."""

    pages: Pages
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
        return rows_digest(self.column_values[start:stop])

    def operation_values(self, at: int) -> bytes:
        """An operation page's key: its entry's values, and the line its entry starts on (its source note)."""
        return self.row_values(at, at + 1) + str(self.catalog.entries[at].line).encode()
