"""The pages' Markdown twins, llms.txt, llms-full.txt and the operations' feeds (site/twins.py, site/llms.py,
site/feed.py), held to the fixture catalogue: every value as published, every *not listed* and *not shown* cell in
words, no sentence the HTML page does not make, and feeds a feed parser reads with ids that do not move.
"""

from __future__ import annotations

import dataclasses
import html
import re
from functools import cache
from pathlib import Path

import cmarkgfm
import feedparser
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fixture_facts as ff
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.escape import md_text
from catalog_docs.site.history import LabelHistory, label_history
from catalog_docs.site.render import render_pages
from catalog_docs.site.twins import LLMS_FULL, TWIN_PREFIX, split_twins, twin_site_path
from htmltree import content, parse_file
from sitebuild import shared_build


@cache
def _fixture() -> tuple[Catalog, LabelHistory, dict[str, str]]:
    catalog = load_catalog(ff.FIXTURE_CATALOG)
    history = label_history(ff.FIXTURE_CATALOG)
    return catalog, history, render_pages(catalog, history=history, workers=1)


def _row(twin: str, first_cell: str) -> list[str]:
    """The cells of the table row of `twin` whose first cell is `first_cell` (links read as their text)."""
    for line in twin.splitlines():
        cells = [_plain(c) for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r}")


def _plain(markdown: str) -> str:
    """Markdown inline text as a reader sees it: links as their text, no emphasis, no escapes, no code marks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown.strip())
    return re.sub(r"\\(.)", r"\1", text.replace("*", "").replace("`", ""))


def test_every_page_has_one_twin_and_llms_full_holds_them_in_order() -> None:
    _catalog, _history, files = _fixture()
    rest, twins = split_twins(files)
    pages = [rel for rel in rest if rel.endswith(".md")]
    assert sorted(twins) == sorted(twin_site_path(p, True) for p in pages)
    full = files[LLMS_FULL]
    starts = [full.index(f"<!-- /{path} -->") for path in twins]
    assert starts == sorted(starts)
    assert all(text.strip() in full for text in twins.values())


def test_an_operation_twin_gives_every_value_not_listed_and_not_shown_cell_in_words() -> None:
    catalog, _history, files = _fixture()
    for entry in catalog.entries:
        twin = files[f"{TWIN_PREFIX}operations/{entry.slug}/index.md"]
        assert twin.startswith(f"# {entry.method} {md_text(entry.title)}\n")
        header = _row(twin, "Version label")
        assert header[1:] == list(catalog.plan_names)
        for version in catalog.versions:
            cells = _row(twin, version.label)[1:]
            for name, cell in zip(catalog.plan_names, cells, strict=True):
                plan = version.plan(name)
                if plan is None:
                    assert cell == "not listed", (entry.slug, version.label, name, cell)
                else:
                    assert cell.split(" ")[0] == plan.values[entry.position - 1], (entry.slug, version.label, name)
        path_cell = _row(twin, "Path")[1]
        assert path_cell == entry.path if entry.path else path_cell.startswith("not shown")
        # What the source does not show for it, said once: under one *not shown*, each topic linking its register
        # item, with its section (as its page says it).
        gaps = twin.split("## Not shown in the source\n", 1)[1]
        assert gaps.lstrip().startswith("*not shown* in the source for this operation:")
        items = [line for line in gaps.splitlines() if line.startswith("- ")]
        assert [_plain(line[2:]) for line in items] == [
            f"{_plain(md_text(item.topic))} ({item.section})" for item in catalog.not_shown_for(entry)]
        for line, item in zip(items, catalog.not_shown_for(entry), strict=True):
            assert f"(/not-shown/#{item.id})" in line and f"(/sources/#s{item.section[1:].split()[0]})" in line


def test_a_version_twin_lists_every_value_of_its_label() -> None:
    catalog, _history, files = _fixture()
    for version in catalog.versions:
        twin = files[f"{TWIN_PREFIX}versions/{version.slug}/index.md"]
        for entry in catalog.entries:
            cells = _row(twin, str(entry.position))
            assert cells[2: 2 + len(version.plans)] == [p.values[entry.position - 1] for p in version.plans]
        for name in catalog.plan_names:
            if version.plan(name) is None:
                assert re.search(rf"\[{re.escape(md_text(name))}\]\([^)]*\) \*not listed\*", twin), name


def test_the_not_shown_twin_names_every_topic_with_its_section() -> None:
    catalog, _history, files = _fixture()
    twin = files[f"{TWIN_PREFIX}not-shown/index.md"]
    for item in catalog.not_shown:
        block = twin.split(f"## {md_text(item.topic)}\n", 1)[1].split("\n## ", 1)[0]
        assert f"{md_text(item.detail)}" in block
        assert _plain(block.split("**Source section:**", 1)[1].splitlines()[0]) == item.section


def _sentences(twin: str) -> list[str]:
    """The sentences of a twin's prose: not its headings, table rows or comments."""
    out = []
    for line in twin.splitlines():
        if not line.strip() or line.startswith(("#", "|", "<!--")):
            continue
        text = _plain(line.removeprefix("- "))
        out += [s.strip(" .:") for s in re.split(r"(?<=[.:])\s+(?=[A-Z*])", text) if len(s.split()) > 2]
    return out


def _page_text(page: Path) -> str:
    return content(parse_file(page)).text()


@pytest.mark.site
def test_no_twin_makes_a_sentence_its_page_does_not(built_site: Path) -> None:
    twins = sorted(p for p in built_site.rglob("*.md"))
    assert len(twins) >= 20
    checked = 0
    for twin in twins:
        page = twin.with_name("index.html")
        text = " ".join(_page_text(page).replace(" ,", ",").replace("( ", "(").replace(" )", ")").split())
        for sentence in _sentences(twin.read_text(encoding="utf-8")):
            words = " ".join(sentence.split())
            assert words in text, f"{twin.relative_to(built_site)}: {words!r} is not on its page"
            checked += 1
    assert checked > 50


@pytest.fixture(params=["mkdocs", "zensical"])
def engine_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture site built by mkdocs (`built_site`) or by Zensical through `catalog-docs build` (the build
    tests/site/test_zensical_search.py reads too)."""
    if request.param == "zensical":
        return shared_build(tmp_path_factory, "fixture-zensical", ff.FIXTURE_CATALOG, engine="zensical")
    site: Path = request.getfixturevalue("built_site")
    return site


_TWIN_WORDS = "Markdown of this page, for tools that read Markdown."
_FEED_WORDS = " Atom feed of the version labels that changed this operation."


@pytest.mark.site
def test_every_page_names_its_twin_and_every_operation_page_its_feed(engine_site: Path) -> None:
    # On every engine, in the head and in the line under the title: Zensical rewrites an `.md` href in a page's
    # Markdown as a link to a page (versions/x/ linked `../`, the home page ""), so the line is the layout's.
    pages = [p for p in engine_site.rglob("index.html") if (p.parent / "index.md").is_file()]
    assert len(pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 10
    feeds = 0
    for page in pages:
        doc = parse_file(page)
        head = doc.find("head")
        assert head is not None
        twin = head.find("link", rel="alternate", type="text/markdown")
        assert twin is not None and (page.parent / twin.attrs["href"]).resolve() == (page.parent / "index.md").resolve()
        article = content(doc)
        line = article.find("p", "catalog-alt")
        assert line is not None and "data-search-exclude" in line.attrs, page
        # Right under the title: the first element after the article's <h1>.
        heading = article.find("h1")
        assert heading is not None and heading.parent is not None
        siblings = [n for n in heading.parent.children if not isinstance(n, str)]
        assert siblings[siblings.index(heading) + 1] is line, page
        shown = line.find("a", type="text/markdown")
        assert shown is not None and shown.text() == "Markdown", page
        assert (page.parent / shown.attrs["href"]).resolve() == (page.parent / "index.md").resolve(), (
            page, shown.attrs["href"])
        # The theme fetches sitemap.xml beside every alternate link: the folder has one, so nothing answers 404.
        assert page.parent == engine_site or (page.parent / "sitemap.xml").is_file()
        feed = line.find("a", type="application/atom+xml")
        if page.parent.parent.name == "operations":
            assert head.find("link", rel="alternate", type="application/atom+xml", href="feed.xml") is not None
            assert feed is not None and feed.text() == "Atom feed", page
            assert (page.parent / feed.attrs["href"]).resolve() == (page.parent / "feed.xml").resolve(), (
                page, feed.attrs["href"])
            assert (page.parent / "feed.xml").is_file()
            assert line.text() == _TWIN_WORDS + _FEED_WORDS
            feeds += 1
        else:
            assert feed is None and line.text() == _TWIN_WORDS, page
    assert feeds == ff.LISTING_SIZE


@pytest.mark.site
def test_llms_txt_follows_the_proposal_and_every_link_is_a_file_of_the_site(built_site: Path) -> None:
    catalog, _history, _files = _fixture()
    text = (built_site / "llms.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == f"# {md_text(catalog.service.name)}"
    assert lines[2] == f"> {md_text(catalog.service.summary)}"
    sections = [line[3:] for line in lines if line.startswith("## ")]
    assert sections[-1] == "Optional" and {"Operations", "Version labels", "Plan entries", "Downloads"} <= set(sections)
    links = re.findall(r"\]\((/[^)]*)\)", text)
    assert len(links) > 10
    for link in links:
        assert (built_site / link.lstrip("/")).is_file(), link
    for twin_link in re.findall(r"\]\((/[^)]*)\)", (built_site / "operations/index.md").read_text(encoding="utf-8")):
        target = built_site / twin_link.split("#")[0].lstrip("/")
        assert (target / "index.html").is_file() or target.is_file(), twin_link


def test_each_operation_feed_has_an_entry_per_label_that_changed_it_and_ids_that_do_not_move() -> None:
    catalog, history, files = _fixture()
    for entry in catalog.entries:
        parsed = feedparser.parse(files[f"operations/{entry.slug}/feed.xml"].encode())
        assert not parsed.bozo, parsed.bozo_exception
        labels = [e.title.rsplit(" ", 2)[-2] + " " + e.title.rsplit(" ", 1)[-1] for e in parsed.entries]
        changed = [b.label for a, b in zip(catalog.versions, catalog.versions[1:], strict=False)
                   if any(p is None or q is None or p.values[entry.position - 1] != q.values[entry.position - 1]
                          for p, q in _plan_pairs(catalog, a.label, b.label))]
        assert labels == [*changed[::-1], catalog.versions[0].label], entry.slug
    # One label fewer (the catalogue before its newest label): the same ids for the labels both have.
    older = dataclasses.replace(catalog, versions=catalog.versions[:-1])
    before = render_pages(older, history=history, workers=1)
    for entry in catalog.entries:
        now = {e.id for e in feedparser.parse(files[f"operations/{entry.slug}/feed.xml"].encode()).entries}
        then = feedparser.parse(before[f"operations/{entry.slug}/feed.xml"].encode())
        assert {e.id for e in then.entries} <= now
        assert then.feed.id == feedparser.parse(files[f"operations/{entry.slug}/feed.xml"].encode()).feed.id


def _plan_pairs(catalog: Catalog, a: str, b: str) -> list[tuple[object, object]]:
    """The (plan under a, plan under b) pairs of the plan entries either label lists, compared with the latest
    earlier listing for a plan entry listed again (as every comparison does)."""
    va = next(v for v in catalog.versions if v.label == a)
    vb = next(v for v in catalog.versions if v.label == b)
    out = []
    for name in catalog.plan_names:
        p, q = va.plan(name), vb.plan(name)
        if q is not None and p is None:
            earlier = [v.plan(name) for v in catalog.versions[: catalog.versions.index(vb)] if v.plan(name)]
            p = earlier[-1] if earlier else None
        if p is not None or q is not None:
            out.append((p, q))
    return out


@given(st.text(max_size=40))
def test_md_text_reads_back_as_the_text_itself(text: str) -> None:
    """Catalogue text escaped for a twin renders, in GitHub's Markdown, as the text and nothing else."""
    shown = cmarkgfm.github_flavored_markdown_to_html(f"x {md_text(text)}", options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    assert "<" not in shown.replace("<p>", "").replace("</p>", "") or not text.strip()
    inner = html.unescape(re.sub(r"</?p>", "", shown)).strip()
    expected = " ".join(f"x {text}".replace("\r", " ").replace("\n", " ").replace("\t", " ").split())
    assert " ".join(inner.split()) == expected.replace("\x00", "\ufffd")
