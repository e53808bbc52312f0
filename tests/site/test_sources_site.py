"""The built /sources/ page (fixture catalogue): one section per source section with every fact the
catalogue takes from it, read from the HTML, with expectations from tests/fixture_facts.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

import fixture_facts as ff
from htmltree import Node, content, parse, parse_file

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    return built_site


def source_sections(site: Path) -> dict[str, list[Node]]:
    """The elements of /sources/ under each `## §N TITLE` heading (the section's own title), by the heading's
    id."""
    article = content(parse_file(site / "sources" / "index.html"))
    out: dict[str, list[Node]] = {}
    current: list[Node] | None = None
    for child in article.children:
        if not isinstance(child, Node):
            continue
        if child.tag == "h2":
            current = out.setdefault(child.attrs.get("id", ""), [])
            number = int(child.attrs["id"][1:])
            assert child.text().rstrip("¶") == f"§{number} {ff.SOURCE_SECTION_TITLES[number - 1]}"
        elif current is not None:
            current.append(child)
    return out


_CITATION = re.compile(r"§\s*([0-9]+)")
ORIGIN = "http://127.0.0.1:8000"


def plain_citations(doc: Node, url: str) -> list[str]:
    """Every citation (`§4`, `§8 rule 2`) in the page's body text that is not inside a link to its own
    section on /sources/ (`/sources/#s4`), resolved from the page's URL. The heading of a section on /sources/
    (`§4 Endpoints`, id `s4`) is that section itself."""
    body = doc.find("body") or doc
    found = []
    for node in body.iter():
        if node.tag in ("script", "style"):
            continue
        for child in node.children:
            if not isinstance(child, str):
                continue
            for m in _CITATION.finditer(child):
                if url == "/sources/" and any(n.attrs.get("id") == f"s{m.group(1)}" and n.tag == "h2"
                                              for n in (node, *node.ancestors())):
                    continue
                link = next((n for n in (node, *node.ancestors()) if n.tag == "a"), None)
                target = urlsplit(urljoin(ORIGIN + url, link.attrs.get("href", ""))) if link else None
                if target is None or target.path != "/sources/" or target.fragment != f"s{m.group(1)}":
                    found.append(f"{url}: {child.strip()!r}" + (f" links to {link.attrs.get('href')}" if link else ""))
    return found


def test_the_citation_check_finds_a_plain_citation_and_a_wrong_link() -> None:
    doc = parse('<body><h2 id="s4">§4 Endpoints</h2><h2 id="s5">§4 Misfiled</h2>'
                '<p>From §4 and <a href="../../sources/#s8">§8 rule 2</a>, <a href="../../not-shown/#x">§9</a>, '
                '<a href="../../sources/#s1">§2</a> and <a href="../../sources/#s4"><span>§4</span></a>.</p></body>')
    found = plain_citations(doc, "/operations/x/")
    assert len(found) == 5 and "§4 Endpoints" in found[0] and "From §4" in found[2]
    found = plain_citations(doc, "/sources/")  # there, a section's own heading is the section
    assert len(found) == 4 and "§4 Misfiled" in found[0] and "From §4" in found[1] and "not-shown" in found[2] \
        and "§2" in found[3]


def test_every_citation_on_every_page_links_to_its_section_on_sources(site: Path) -> None:
    plain, cited = [], 0
    for path in sorted(site.rglob("*.html")):
        url = "/" + path.relative_to(site).parent.as_posix().strip(".") + "/"
        url = url.replace("//", "/")
        doc = parse_file(path)
        plain += plain_citations(doc, url)
        cited += len(_CITATION.findall(content(doc).text())) if doc.find("article") else 0
    assert not plain, "\n".join(plain)
    # Every operation page cites at least its method, path, URL template, position and marker.
    assert cited > 5 * ff.LISTING_SIZE


def items(nodes: list[Node]) -> list[Node]:
    return [li for n in nodes for li in n.find_all("li")]


def test_the_page_names_its_source_and_each_section_under_its_own_title(site: Path) -> None:
    # Was: no title, no word of what the document is, and headings "Section 1" ... "Section 9".
    article = content(parse_file(site / "sources" / "index.html"))
    first = next(p for p in article.find_all("p") if "catalog-alt" not in p.classes)  # after the twin's link
    assert first.text().startswith(f"Everything on this site comes from one document, {ff.SOURCE_TITLE} ")
    assert first.find("em") is not None and first.find("em").text() == ff.SOURCE_TITLE
    assert "A made-up source document for the tests" in first.text()
    # A contents list of the sections by their own titles, each linking to its place on the page.
    listed = article.find("ul", cls="source-sections")
    assert listed is not None
    assert [(a.text(), a.attrs["href"]) for a in listed.find_all("a")] == [
        (f"§{n} {title}", f"#s{n}") for n, title in enumerate(ff.SOURCE_SECTION_TITLES, start=1)]


def test_one_section_per_source_section_with_a_stable_anchor(site: Path) -> None:
    found = source_sections(site)
    assert list(found) == [f"s{n}" for n in range(1, 10)]
    for empty in ("s3", "s5", "s6", "s7"):
        assert " ".join(n.text() for n in found[empty]) == "The catalogue takes no fact from this section."


def test_section_4_lists_every_listing_entry_with_its_page(site: Path) -> None:
    entries = [li for li in items(source_sections(site)["s4"]) if li.text().split(":")[0].isdigit()]
    assert [int(li.text().split(":")[0]) for li in entries] == list(range(1, ff.LISTING_SIZE + 1))
    for position, (li, path) in enumerate(zip(entries, ff.PATHS, strict=True), start=1):
        hrefs = [a.attrs["href"] for a in li.find_all("a")]
        assert f"../operations/{ff.slug(path, position)}/" in hrefs
        assert "../sources/#s4" in hrefs or "./#s4" in hrefs or "#s4" in hrefs, hrefs
        if path is None:
            assert li.find("span", cls="not-shown") and f"../not-shown/#entry-{position}-path" in hrefs
        else:
            assert f"POST {path}" in li.text()


def test_section_8_counts_each_value_per_label_and_plan_entry(site: Path) -> None:
    lis = items(source_sections(site)["s8"])
    for label, plan in ff.columns():
        values = ff.VALUES[label][plan]
        li = next(li for li in lis if li.text().startswith(f"{label}, plan entry {plan} "))
        for value in ("close", "unlimited"):
            n = values.count(value)
            if n == ff.LISTING_SIZE:
                assert f"{value} for all {n} entries" in li.text()
            elif n:
                assert f"{value} for {n} entr" in li.text()
            else:
                assert value not in li.text()
    assert sum(1 for li in lis if ", plan entry " in li.text()) == len(ff.columns())


def test_section_9_lists_the_labels_and_what_each_does_not_list(site: Path) -> None:
    lis = [li for li in items(source_sections(site)["s9"]) if li.text().split(":")[0] in ff.LABELS]
    assert [li.text().split(":")[0] for li in lis] == list(ff.LABELS)
    for li, label in zip(lis, ff.LABELS, strict=True):
        unlisted = [p for p in ff.PLAN_NAMES if p not in ff.VALUES[label]]
        assert bool(li.find("span", cls="not-listed")) == bool(unlisted)
        assert li.text().startswith(f"{label}: lists {', '.join(ff.VALUES[label])}")
        for plan in unlisted:
            assert plan in li.text().split("not listed", 1)[1]


def test_each_not_shown_item_is_under_its_section_and_links_to_the_register(site: Path) -> None:
    found = source_sections(site)
    for item_id, (_, topic, section) in ff.NOT_SHOWN.items():
        anchor = "s" + section[1:].split()[0]
        li = next((li for li in items(found[anchor]) if li.text().startswith(f"{topic}: not shown")), None)
        assert li is not None, (item_id, anchor)
        assert f"../not-shown/#{item_id}" in [a.attrs["href"] for a in li.find_all("a")]


def test_sources_is_in_the_navigation(site: Path) -> None:
    nav = parse_file(site / "index.html").find("nav", cls="md-nav--primary")
    assert nav is not None and "sources/" in [a.attrs.get("href") for a in nav.find_all("a")]
