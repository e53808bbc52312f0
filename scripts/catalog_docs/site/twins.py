"""The Markdown twin of every generated page: the same facts as the page, written from the catalogue (the page's
own context, through a twin template of `templates/twins/`), not converted from its HTML. Every table cell is a
value or words: *not listed*, *not shown* with its source section. Links are absolute on the site's address
(`SITE_URL`) when the build has one, else site-relative (`/operations/x/`), so a twin read alone, or inside
`llms-full.txt`, still links right.

A twin is published at the built page's path with `.html` made `.md` (`operations/x/index.md` beside
`operations/x/index.html`; `operations/x.md` beside `operations/x.html` without directory URLs), as a file the
engines copy, never a page they build. In the render's result (`{path: text}`, paths as if under docs/) twins
are kept apart by the key prefix TWIN_PREFIX, with their site path after it: `split_twins` takes them out, and each
shell publishes them as files of the built site (the plugin as generated files with that `dest_uri`; `catalog-docs
build` writes them into the site folder after the engine's build).

Each page names its twin in its front matter (`catalog_twin`), which the page layout (overrides/layouts/page.html)
turns into a `<link rel="alternate" type="text/markdown">` and a visible link under the page's title; an operation
page does the same for its Atom feed (`catalog_feed`, site/feed.py). The visible line is the layout's, not the page
Markdown's: Zensical takes an `href` ending in `.md` in a page's HTML for a link to a page and rewrites it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup

from catalog_docs.catalog.model import Catalog, ListingEntry, NotShown
from catalog_docs.escape import md_text
from catalog_docs.site.provenance import citation_parts, section_anchor
from catalog_docs.site.tables import site_path
from catalog_docs.site.templating import do_not_shown_about, do_path_gap

TWIN_PREFIX = "twin:"
"""The key prefix of a twin in the render's result; its site path follows (`twin:operations/x/index.md`)."""
LLMS_FULL = "llms-full.txt"
"""Every twin in one file, in reading order (site/llms.py)."""
OPERATION_TEMPLATE = "operation.md.j2"


def twin_site_path(page: str, directory_urls: bool) -> str:
    """Where the twin of a generated page (`operations/x.md`, a path under docs/) is published, from the site's root:
    the built page's path with `.html` made `.md`."""
    url = site_path(page, directory_urls)
    return url + "index.md" if directory_urls else url[: -len(".html")] + ".md"


def twin_key(page: str, directory_urls: bool) -> str:
    return TWIN_PREFIX + twin_site_path(page, directory_urls)


def feed_site_path(entry: ListingEntry) -> str:
    """An operation's Atom feed, from the site's root (its path under docs/ too: a file, not a page)."""
    return f"operations/{entry.slug}/feed.xml"


def split_twins(texts: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The render's result as (everything but the twins, {twin's site path: text})."""
    rest: dict[str, str] = {}
    twins: dict[str, str] = {}
    for key, text in texts.items():
        if key.startswith(TWIN_PREFIX):
            twins[key[len(TWIN_PREFIX):]] = text
        else:
            rest[key] = text
    return rest, twins


def missing_twins(pages: Iterable[str], twins: Iterable[str], directory_urls: bool) -> list[str]:
    """The generated pages (paths under docs/ ending in `.md`) without a twin among `twins` (site paths)."""
    have = set(twins)
    return [page for page in pages if twin_site_path(page, directory_urls) not in have]


def sitemap_folders(twins: Iterable[str], feeds: Iterable[str]) -> list[str]:
    """The folders (below the root) that hold a twin or a feed. The theme fetches `sitemap.xml` beside every
    `<link rel="alternate">` of a page (to map another language's site), so each of them gets a sitemap with no
    entry, and that fetch finds a file instead of a 404."""
    return sorted({posixpath.dirname(path) for path in (*twins, *feeds)} - {""})


EMPTY_SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n')


def _finalize(value: object) -> object:
    """Every `{{ value }}` of a twin template is catalogue text, escaped by md_text, unless made as Markdown here."""
    if isinstance(value, Markup) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return md_text(value)


class Links:
    """The links of twins and llms.txt: absolute on the site's address when the build has one, else from the root."""

    def __init__(self, base: str | None, directory_urls: bool) -> None:
        self.base = base or "/"
        self.directory_urls = directory_urls
        self._pages: dict[str, str] = {}
        """Each page's URL once worked out: the twins link the same labels, plans and rows over and over."""

    def page(self, page: str) -> str:
        """The URL of a generated page (`versions/x.md#anchor`, slugs as they are: quoted here)."""
        url = self._pages.get(page)
        if url is None:
            path, mark, fragment = page.partition("#")
            url = self._pages[page] = (self.base + quote(site_path(path, self.directory_urls), safe="/._~-") + mark
                                       + fragment)
        return url

    def twin(self, page: str) -> str:
        return self.base + quote(twin_site_path(page, self.directory_urls), safe="/._~-")

    def file(self, path: str) -> str:
        """A file that is not a page (a download, a feed)."""
        return self.base + quote(path, safe="/._~-")


class Twins:
    """The twin templates of one render, and the links they write."""

    def __init__(self, base: str | None, directory_urls: bool, *, feeds: bool = True) -> None:
        self.links = Links(base, directory_urls)
        self.directory_urls = directory_urls
        self.feeds = feeds
        """Whether the render makes the operations' feeds (it does when it has the labels' history)."""
        self.base = base or ""
        self._env = _environment()
        self._templates: dict[str, Template] = {}

    def template(self, page_template: str) -> Template:
        tpl = self._templates.get(page_template)
        if tpl is None:
            tpl = self._templates[page_template] = self._env.get_template(page_template)
        return tpl

    def produce(self, page: str, page_template: str, context: Callable[[], dict[str, Any]]) -> Callable[[], str]:
        """The twin's text of the page `page`, made from the page's context."""
        tpl = self.template(page_template)
        links = self.links

        def make() -> str:
            return tpl.render(context(), site=links, page_path=page, page_url=links.page(page))
        return make

    def with_links(self, page: str, page_template: str, produce: Callable[[], str]) -> Callable[[], str]:
        """The page's text with its twin (and, for an operation, its feed) named in its front matter, which the page
        layout links in the head and under the title."""
        twin = posixpath.basename(twin_site_path(page, self.directory_urls))
        feed = None
        if page_template == OPERATION_TEMPLATE and self.feeds:
            slug = posixpath.basename(page)[: -len(".md")]
            feed = "feed.xml" if self.directory_urls else quote(slug, safe="._~-") + "/feed.xml"

        def make() -> str:
            return link_page(produce(), twin, feed)
        return make


def link_page(text: str, twin: str, feed: str | None) -> str:
    """A page's Markdown with its twin's address (and its feed's) added to its front matter."""
    meta = f"catalog_twin: {twin}\n" + (f"catalog_feed: {feed}\n" if feed else "")
    return "---\n" + meta + text[4:] if text.startswith("---\n") else text


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("catalog_docs.site", "templates/twins"),
        undefined=StrictUndefined,
        autoescape=False,
        finalize=_finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["cite"] = do_cite
    env.filters["ns"] = do_not_shown
    env.filters["cell"] = do_cell
    env.filters["link"] = do_link
    env.filters["md"] = md_text
    env.filters["table_pages"] = table_pages
    env.filters["op"] = do_op
    env.filters["area"] = do_area
    env.filters["marker"] = do_marker
    env.filters["legend_note"] = do_legend_note
    env.filters["pager"] = do_pager
    env.filters["row"] = do_row
    env.filters["cells"] = do_cells
    env.filters["path_gap"] = do_path_gap
    env.filters["not_shown_about"] = do_not_shown_about
    return env


def table_pages(page: str, count: int) -> list[str]:
    """Every page of the table `page` is one of (render._paged: `operations/index.md`, `operations/page-2.md`...;
    `versions/x.md`, `versions/x/page-2.md`...), in order."""
    folder, name = posixpath.split(page[: -len(".md")])
    if name.startswith("page-") and name[len("page-"):].isdigit():
        first = f"{folder}/index.md" if "/" not in folder else f"{folder}.md"
    else:
        first, folder = page, page[: -len("/index.md")] if page.endswith("/index.md") else page[: -len(".md")]
    return [first] + [f"{folder}/page-{n}.md" for n in range(2, count + 1)]


def do_link(text: object, url: str) -> Markup:
    """A Markdown link with catalogue text."""
    return Markup(f"[{md_text(text)}]({url})")


def do_cite(citation: str, site: Links) -> Markup:
    """A citation (`§4`, `§8 rule 2`) as links to its sections on the sources page."""
    return Markup(", ".join(f"[{md_text(p.text)}]({site.page('sources/index.md#' + section_anchor(p.section))})"
                            for p in citation_parts(str(citation))))


def do_not_shown(item: NotShown | None, site: Links, why: str = "") -> Markup:
    """*not shown*, in words, with the register's entry and the source section, as the page words it."""
    reason = md_text(why) if why else ""
    if item is None:
        return Markup("*not shown*" + (f" ({reason})" if reason else ""))
    register = f"[register]({site.page('not-shown/index.md#' + quote(item.id, safe='._~-'))})"
    return Markup(f"*not shown* ({reason + '; ' if reason else ''}{register}, {do_cite(item.section, site)})")


def do_cell(cell: Any, show_from: bool = True) -> Markup:
    """A history cell (render.Cell) in words: *not listed*, or the value, and what it changed from."""
    if cell.value is None:
        return Markup("*not listed*")
    if cell.changed_from is None:
        return Markup(md_text(cell.value))
    if not show_from:
        return Markup(f"{md_text(cell.value)} (changed)")
    return Markup(f"{md_text(cell.value)} (changed from {md_text(cell.changed_from)})")


def do_op(entry: ListingEntry, site: Links) -> Markup:
    """A link to an operation's page, named as the pages name it: its path, or `Entry N`."""
    return do_link(entry.title, site.page(f"operations/{entry.slug}.md"))


def _path_gap(entry: ListingEntry, catalog: Catalog) -> NotShown | None:
    return do_path_gap(entry, catalog)


def do_area(entry: ListingEntry, catalog: Catalog, site: Links) -> Markup:
    """An operation's area, marked as our inference; none inferred, or not shown when it has no name."""
    if entry.area is not None:
        return Markup(f"{md_text(entry.area.name)} (*inferred*: guessed from the operation name; the source does not "
                      "state it)")
    if entry.path is not None:
        return Markup("no area inferred")
    return do_not_shown(_path_gap(entry, catalog), site, "no name to infer from")


def do_marker(entry: ListingEntry, catalog: Catalog, site: Links) -> Markup:
    """The version marker in an operation's path, in words."""
    vm = entry.version_marker
    if vm.at == "none":
        return Markup("none")
    if vm.at == "not-shown":
        return do_not_shown(_path_gap(entry, catalog), site, "no path")
    return Markup(f"{md_text(vm.token)} at the {md_text(vm.at)} of the path")


def do_legend_note(site: Links) -> Markup:
    """The note every table page carries on how to read its values (the pages' legend_note, in Markdown)."""
    return Markup(f"Values are shown as published in the plan tables; what they mean is *not shown* "
                  f"({do_cite('§8', site)}). The [legend]({site.page('legend.md')}) explains every mark.")


def do_pager(page: str, count: int, site: Links) -> Markup:
    """Links to every page of a table split over pages, the current one in bold; nothing for a table of one page."""
    if count < 2:
        return Markup("")
    links = [f"**{n}**" if other == page else f"[{n}]({site.page(other)})"
             for n, other in enumerate(table_pages(page, count), start=1)]
    return Markup("Table pages: " + " ".join(links) + "\n")


_CELL_TEXT: dict[str, str] = {}
_CELL_TEXT_MAX = 4096


def _cell_text(value: str) -> str:
    text = _CELL_TEXT.get(value)
    if text is None:
        text = md_text(value)
        if len(_CELL_TEXT) < _CELL_TEXT_MAX:  # a few distinct lock values fill hundreds of thousands of cells
            _CELL_TEXT[value] = text
    return text


def do_row(values: Iterable[str]) -> Markup:
    """Table cells for a row of lock values (` close | unlimited |`): one filter call per row, as on the pages."""
    return Markup("".join([f" {_cell_text(v)} |" for v in values]))


def do_cells(cells: Iterable[Any], show_from: bool = True) -> Markup:
    """Table cells for a row of history cells (render.Cell), in words."""
    return Markup("".join([f" {do_cell(c, show_from)} |" for c in cells]))


def twin_order(keys: Iterable[str]) -> Iterator[str]:
    """The twins' keys among the render's result, in its order: the reading order of llms-full.txt."""
    return (key for key in keys if key.startswith(TWIN_PREFIX))
