"""`/llms.txt` (the llmstxt.org form) and `/llms-full.txt` (every Markdown twin in one file).

llms.txt is an H1 with the service's name, its summary as a blockquote, a paragraph on what the site holds and
what the source does not show, then H2 sections of links to the twins of the section indexes (so it stays the
same size however many operations there are; labels and plan entries are listed one by one up to LIST_MAX), with
the changelog, its feed and llms-full.txt under `## Optional`. llms-full.txt is the twins in the render's order,
written into the build's spill folder as they come when there is one (site/render.py), never held whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from catalog_docs.catalog.model import Catalog
from catalog_docs.escape import md_text
from catalog_docs.site.twins import LLMS_FULL, Links

LLMS_PATH = "llms.txt"
LIST_MAX = 50
"""Labels and plan entries are linked one by one up to this many; beyond, through their index alone."""


def _item(links: Links, title: str, page: str, note: str) -> str:
    return f"- [{md_text(title)}]({links.twin(page)}): {note}"


def _each(links: Links, pages: Sequence[tuple[str, str]], note: str) -> list[str]:
    """A link to each page ((title, page) each, all with one `note`); none beyond LIST_MAX, where the section's
    index links them."""
    return [_item(links, title, page, note) for title, page in pages] if len(pages) <= LIST_MAX else []


def _section(title: str, *lines: str) -> list[str]:
    """An H2 section of link lines, then a blank line."""
    return [f"## {title}", "", *lines, ""]


def llms_txt(catalog: Catalog, links: Links, *, history: bool) -> str:
    """The llms.txt of the site. `history`: whether the render made the changelog and the feeds."""
    service = catalog.service
    n_ops, n_labels, n_plans = len(catalog.entries), len(catalog.versions), len(catalog.plan_names)
    topics = ", ".join(md_text(n.topic) for n in catalog.not_shown[:8])
    more = f" and {len(catalog.not_shown) - 8} more" if len(catalog.not_shown) > 8 else ""
    lines = [
        f"# {md_text(service.name)}", "",
        f"> {md_text(service.summary)}", "",
        f"This reference holds {n_ops:,} listing entries (operations, all invoked with POST), {n_labels:,} version "
        f"labels and {n_plans:,} plan entries, with the lock value of every plan entry under every label, exactly as "
        "the source document publishes it. Every page has a Markdown twin, linked below: each value is written as "
        "published, *not listed* where a label does not list a plan entry, and *not shown* where the source does "
        f"not show something, with the section that says so (the register lists each: {topics}{more}). An "
        "operation's area is guessed from its name and marked *inferred*.", "",
        *_section("Operations", _item(links, "Operations", "operations/index.md", "every listing entry with method, "
                  "path, inferred area, version marker and its value under each label and plan entry; each links its "
                  "own page")),
        *_section("Version labels",
                  _item(links, "Version labels", "versions/index.md", "the labels in source order and the plan "
                        "entries each lists"),
                  *_each(links, [(f"Version label {v.label}", f"versions/{v.slug}.md") for v in catalog.versions],
                         "its plan table, one value per listing entry and plan entry")),
        *_section("Plan entries",
                  _item(links, "Plan entries", "plans/index.md", "each plan entry and the labels that list it"),
                  *_each(links, [(f"Plan entry {name}", f"plans/{name.replace(' ', '-')}.md")
                                 for name in catalog.plan_names], "its values under every label")),
        *_section("Comparisons", _item(links, "Compare version labels", "compare/index.md", "what changed between "
                  "consecutive labels, each comparison linked")),
        *_section("Not shown",
                  _item(links, "Not shown in the source", "not-shown/index.md", "everything the source does not "
                        "show, with its section"),
                  _item(links, "Sources", "sources/index.md", "every fact of the catalogue, grouped by the source "
                        "section it comes from"),
                  _item(links, "Legend", "legend.md", "how values, not listed, not shown and inferred read")),
        *_section("Downloads",
                  f"- [catalog.json]({links.file('downloads/catalog.json')}): the whole catalogue as JSON, with its "
                  f"schema ([catalog.schema.json]({links.file('downloads/catalog.schema.json')}))",
                  f"- [lock-matrix.csv]({links.file('downloads/lock-matrix.csv')}): one row per listing entry, one "
                  "column per version label and plan entry",
                  f"- [openapi.yaml]({links.file('downloads/openapi.yaml')}): the paths as an OpenAPI 3.1 document"),
        "## Optional", "",
        _item(links, "Lock matrix", "matrix/index.md", "every value side by side"),
    ]
    if history:
        lines += [
            _item(links, "Changelog", "changelog/index.md", "the version labels, newest first, each with its "
                  "summary of changes"),
            f"- [Atom feed]({links.file('feed.xml')}): one entry per version label; each operation has its own "
            "feed of the labels that changed it, beside its page (`feed.xml`)",
        ]
    lines += [f"- [llms-full.txt]({links.file(LLMS_FULL)}): every page's Markdown twin in one file", ""]
    return "\n".join(lines)


def full_parts(twins: Iterable[tuple[str, str]], links: Links) -> Iterator[str]:
    """llms-full.txt in parts: each twin (site path, text) in order, after a line giving its address."""
    for path, text in twins:
        yield f"<!-- {links.file(path)} -->\n\n{text.rstrip()}\n\n"
