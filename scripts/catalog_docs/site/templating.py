"""The one Jinja environment of the site's templates and the filters it registers (tables.py holds the table
filters). Nothing here writes a file."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from catalog_docs.catalog.model import Catalog, ListingEntry, NotShown
from catalog_docs.escape import do_url, finalize, front_matter, md_escape
from catalog_docs.layout import checked_address
from catalog_docs.site.fences import html_block
from catalog_docs.site.provenance import citation_parts, section_anchor
from catalog_docs.site.tables import FILTERS as TABLE_FILTERS
from catalog_docs.site.tables import MARKS, Href

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



def do_file_url(path: str) -> Markup:
    """A catalogue file's path (`versions/UPI_N-1.1.0.yaml`) as a URL path: each segment percent-encoded, the
    slashes kept."""
    return Markup(quote(str(path), safe="/"))


REPO_URL_ENV = "REPO_URL"
"""The repository's address, as the build is given it (mkdocs.yml reads it for `repo_url` too): with it, every
generated page links its catalogue file in the repository and its edit page; without it, none is invented."""


def do_version_files(versions: Any) -> list[str]:
    """The catalogue files of some version labels (`versions/UPI_N-1.1.0.yaml`), in order."""
    return [f"versions/{v.slug}.yaml" for v in versions]


def do_repository() -> Markup | None:
    """The repository's address from REPO_URL, without a trailing '/'; None when unset. Anything but a plain
    http(s) address is refused in one line (it lands in every page's links)."""
    url = os.environ.get(REPO_URL_ENV)
    if not url:
        return None
    checked_address(url, f"${REPO_URL_ENV}", "a plain http(s) address such as https://github.com/owner/repo")
    return Markup(quote(url.rstrip("/"), safe=":/%@~+,;=!$&*"))


@lru_cache(maxsize=1)
def environment() -> Environment:
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
    env.globals["repository"] = do_repository
    env.filters["file_url"] = do_file_url
    env.filters["version_files"] = do_version_files
    return env
