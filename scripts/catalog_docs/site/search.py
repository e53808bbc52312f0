"""The mkdocs plugin `catalog-search` (mkdocs and ProperDocs): what the theme's search plugin reads of a generated page.

Material's search plugin feeds every page's whole HTML through Python's `html.parser` before it drops the parts
marked `data-search-exclude`; our pages are mostly data tables, so that parse was a third of a build at 1,000
operations, for text the index then threw away. A generated page says in its front matter what the search
should read (`catalog_search:`, set by its template):

- `prose`: the page without its `<table>` elements (its headings, sentences and lists, as the theme indexes them);
- `heading`: only the page's first section (its `h1` and what follows up to the first `h2`), without tables: an
  operation page's title and path. Its other sections say the same on every operation page; at 10,000
  operations they were most of the index.

The search plugin gets that view of the page (in `on_page_content`, after every other plugin) and the page gets
its whole HTML back right after the search plugin has read it (in `on_page_context`, after every other plugin),
so the built pages are what they were. A page without the key is left alone: hand-written pages are indexed as
the theme indexes them. Zensical runs no plugins: its own search skips what the templates mark with the
`data-search-exclude` both themes document (the tables, an operation page's later sections...), the same parts.

Two things here rest on how Material's search plugin works rather than on what it documents (ARCHITECTURE.md,
"Other packages"; `tests/site/test_upstream.py` fails, naming them, when an upgrade changes either): that it
reads a page in its `on_page_context` (the view above), and how it merges a `serve --dirty` rebuild's entries
into the last index (`merge_dirty_index`, the one function here that touches its attributes). Material also
removes `data-search-*="..."` attributes from the pages it indexes; the templates write only the bare
`data-search-exclude`, which it leaves, so the page given back is the page the theme writes.

It is a plugin of its own, apart from `catalog-docs`, so that a build of pages already rendered (`catalog-docs
render --out`, the benchmark's bare build) gets the same search as the site.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Literal

from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin, event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

KEY = "catalog_search"
"""The front-matter key a generated page names its search view with."""

SearchView = Literal["prose", "heading"]
VIEWS: tuple[SearchView, ...] = ("prose", "heading")

_TABLE = re.compile(r"<table\b.*?</table>", re.DOTALL)
"""A data table as the templates write it (tables never nest in them): what without_tables removes."""
_WORD = re.compile(r"\w")
_SECOND_SECTION = re.compile(r"<h2\b")
log = logging.getLogger("mkdocs.plugins.catalog_search")


def without_tables(html: str) -> str:
    """`html` less its `<table>` elements: `_TABLE.sub("", html)`, found by plain text search, which skips a
    table page's 400 KB in a fraction of the time the pattern's lazy scan takes."""
    kept: list[str] = []
    at = 0
    while (start := html.find("<table", at)) >= 0:
        after = start + len("<table")
        if _WORD.match(html, after):  # `<tablex`: no word boundary, not a table
            kept.append(html[at:after])
            at = after
            continue
        end = html.find("</table>", after)
        if end < 0:
            break
        kept.append(html[at:start])
        at = end + len("</table>")
    kept.append(html[at:])
    return "".join(kept)


def search_view(html: str, view: object) -> str | None:
    """What the search reads of a page's HTML under `view` (its `catalog_search:`), or None to read it all."""
    if view == "heading":
        second = _SECOND_SECTION.search(html)
        return without_tables(html if second is None else html[: second.start()])
    if view == "prose":
        return without_tables(html)
    return None


class Options(Config):  # type: ignore[no-untyped-call]  # mkdocs' Config.__init_subclass__ is untyped
    """The plugin takes no options: each page names its view."""


class CatalogSearchPlugin(BasePlugin[Options]):  # type: ignore[no-untyped-call]  # BasePlugin's, as above
    """`plugins: - catalog-search` in mkdocs.yml, before `search`."""

    def __init__(self) -> None:
        self._whole: dict[str, str] = {}
        """The whole HTML of each page being built whose search view it replaced, by source path."""
        self._search = False
        self._built: set[str] = set()
        """The URL of every page this build built (the search plugin indexed each of them again)."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._search = any(name in ("search", "material/search") for name in config.plugins)
        self._whole = {}
        self._built = set()
        return config

    @event_priority(-100)  # after every other plugin's: the search plugin reads the page in on_page_context
    def on_page_content(self, html: str, *, page: Page, **_kwargs: Any) -> str:
        view = search_view(html, page.meta.get(KEY)) if self._search else None
        if view is None:
            return html
        self._whole[page.file.src_uri] = html
        return view

    @event_priority(-100)  # after the search plugin's, before the page's template is rendered
    def on_page_context(self, context: Any, *, page: Page, **_kwargs: Any) -> Any:
        whole = self._whole.pop(page.file.src_uri, None)
        if whole is not None:
            page.content = whole
        self._built.add(page.url)
        return context

    @event_priority(100)  # before the search plugin writes its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Under `mkdocs serve --dirty`, the index keeps every page once. The theme's search plugin merges a
        rebuild's entries into the last index as if one page had been rebuilt: it drops the old entries of the
        first rebuilt page only, and every entry whose address starts with that page's (`operations/` is the
        start of every operation page's), so an edit that rebuilt the operations table dropped every operation
        page from the preview's search, and the other rebuilt pages were listed twice. Here the old entries of
        every page this rebuild built are dropped, the others kept, and the theme's plugin writes that index."""
        search = next((config.plugins[name] for name in ("material/search", "search") if name in config.plugins),
                      None)
        material = search is not None and type(search).__module__.startswith("material.")
        if material and not merge_dirty_index(search, self._built):
            log.warning("catalog-search: the theme's search plugin no longer keeps its last index as this plugin "
                        "expects (search_index_prev, search_index.entries); under `serve --dirty` the preview's "
                        "search may miss pages (see tests/site/test_upstream.py)")


def merge_dirty_index(search: Any, built: set[str]) -> bool:
    """The one place that reaches into Material's search plugin (no documented interface merges a rebuild's
    entries): the last index's entries of every page not in `built`, then this build's, as the index to write,
    and no last index for the plugin's own merge. False when the plugin holds no such index (a first build, a
    plugin without one, or an upgrade that changed it: then the caller warns unless it is a first build)."""
    if not hasattr(search, "search_index_prev"):
        return False
    prev: Any = search.search_index_prev
    current: Any = getattr(search, "search_index", None)
    if prev is None:  # a first build, or not --dirty: nothing to merge
        return True
    before, now = getattr(prev, "entries", None), getattr(current, "entries", None)
    if not isinstance(before, list) or not isinstance(now, list):
        return False
    current.entries = [e for e in before if str(e.get("location", "")).split("#", 1)[0] not in built] + now
    search.search_index_prev = None  # its own merge would drop entries again
    return True
