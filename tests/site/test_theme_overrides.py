"""Theme overrides stay a copy of the installed mkdocs-material partial plus the one fix they carry."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import material
import pytest
import zensical

import fixture_facts as ff
from catalog_docs.devtools.static_server import serve

ROOT = Path(__file__).resolve().parents[2]
THEME = Path(material.__file__).parent / "templates"
ZENSICAL = Path(zensical.__file__).parent / "templates"


def _body(text: str) -> str:
    """A template without its leading Jinja comment."""
    return re.sub(r"^\{#-.*?-#\}\n", "", text, count=1, flags=re.S)


def test_search_partial_matches_the_theme_except_the_dialog_name() -> None:
    ours = _body((ROOT / "overrides" / "partials" / "catalog-search-material.html").read_text(encoding="utf-8"))
    theirs = _body((THEME / "partials" / "search.html").read_text(encoding="utf-8"))
    fixed = theirs.replace('role="dialog">', 'role="dialog" aria-label="{{ lang.t(\'search\') }}">', 1)
    assert fixed != theirs, "the theme's search dialog changed: review overrides/partials/search.html"
    box = '<input type="text" class="md-search__input" name="query" '
    line = next(line for line in fixed.splitlines(keepends=True) if box in line)  # the box, renamed q
    submit = ('      <button type="submit" class="catalog-visually-hidden" tabindex="-1">'
              "{{ lang.t('search') }}</button>\n")
    fixed = fixed.replace(line, line.replace(box, box.replace('"query"', '"q"')) + submit, 1)
    assert ours == fixed


def test_zensical_search_partial_is_zensicals_own() -> None:
    # Zensical's header search is a button that opens its own dialog; Material's markup shows there unstyled.
    theirs = (ZENSICAL / "partials" / "search.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "catalog-search-zensical.html").read_text(encoding="utf-8")
    assert _body(ours) == re.sub(r"^\{#-.*?-#\}\n", "", theirs, count=1, flags=re.S)


def test_the_search_partial_picks_the_engines_own() -> None:
    dispatch = _body((ROOT / "overrides" / "partials" / "search.html").read_text(encoding="utf-8"))
    # mkdocs_version: in the context of every page mkdocs and ProperDocs render, and not in Zensical's (which also
    # reads theme.variant from mkdocs.yml now, so that can no longer tell them apart).
    assert dispatch.split() == ['{%', 'if', 'mkdocs_version', 'is', 'defined', '%}',
                                '{%', 'include', '"partials/catalog-search-material.html"', '%}', '{%', 'else', '%}',
                                '{%', 'include', '"partials/catalog-search-zensical.html"', '%}', '{%', 'endif', '%}']


def test_palette_partial_matches_the_theme_except_the_form_element() -> None:
    ours = _body((ROOT / "overrides" / "partials" / "palette.html").read_text(encoding="utf-8"))
    theirs = _body((THEME / "partials" / "palette.html").read_text(encoding="utf-8"))
    start = '<form class="md-header__option" data-md-component="palette">\n'
    assert theirs.startswith(start) and theirs.rstrip().endswith("</form>"), "review overrides/partials/palette.html"
    fixed = theirs.replace(start, start.replace("<form", "<div"), 1).replace("</form>", "</div>", 1)
    assert "<form" not in fixed and ours == fixed


def test_theme_javascript_needs_no_palette_form_and_reads_the_q_parameter() -> None:
    # What the two overrides rely on, in the installed theme's bundle: the palette component reads its
    # inputs (never a form), and the search reads ?q= to open with a query.
    bundle = next((THEME / "assets" / "javascripts").glob("bundle.*.min.js")).read_text(encoding="utf-8")
    assert '.has("q")' in bundle
    assert re.search(r'function \w+\(e\)\{let t=\w+\("input",e\)', bundle)


def test_every_page_has_title_and_description(built_site: Path) -> None:
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 10  # ten fixed pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", html, re.S)
        assert title and title.group(1).strip(), page
        description = re.search(r'<meta name="description" content="([^"]+)"', html)
        assert description and len(description.group(1)) > 40, page


def test_operation_description_names_method_path_and_values(built_site: Path) -> None:
    html = (built_site / "operations" / "fakeWidgetList" / "index.html").read_text(encoding="utf-8")
    description = re.search(r'<meta name="description" content="([^"]+)"', html).group(1)
    assert description.startswith("POST /fakeWidgetList")
    assert "FAKE 1.0: PLAN A close, PLAN B unlimited" in description
    assert "FAKE 1.1: PLAN A close" in description
    assert "FAKE 2.0: PLAN A close, PLAN C unlimited" in description


def test_sitemap_lists_every_page_and_404_exists(built_site: Path) -> None:
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    urls = set(re.findall(r"<loc>(.*?)</loc>", sitemap))
    pages = {p.parent.relative_to(built_site).as_posix() for p in built_site.rglob("index.html")}
    assert len(urls) == len(pages)
    assert any(u.endswith("/operations/entry-7/") for u in urls)


def test_unknown_url_gets_the_404_page_with_status_404(built_site: Path) -> None:
    server, base = serve(built_site)
    try:
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(base + "operations/no-such-operation/")
        assert err.value.code == 404
        assert "<h1>404 - Not found</h1>" in err.value.read().decode("utf-8")
    finally:
        server.shutdown()


def test_toc_partial_matches_the_theme_except_the_label_target() -> None:
    ours = _body((ROOT / "overrides" / "partials" / "toc.html").read_text(encoding="utf-8"))
    theirs = _body((THEME / "partials" / "toc.html").read_text(encoding="utf-8"))
    label = '    <label class="md-nav__title" for="__toc">\n'
    fixed = theirs.replace(label, '    {% set listed = page in (nav.pages | d([])) and "navigation" not in '
                                  '(page.meta.hide | d([])) %}\n'
                                  '    <label class="md-nav__title"{% if listed %} for="__toc"{% endif %}>\n', 1)
    assert fixed != theirs, "the theme's table of contents changed: review overrides/partials/toc.html"
    assert ours == '{% import "partials/language.html" as lang with context %}\n' + fixed


def _toggle_fixes(wrapper: str) -> list[tuple[str, str]]:
    """The (theme text, our text) pairs of a wrapper's `{%- filter replace(...) | replace(...) %}` line."""
    text = (ROOT / "overrides" / wrapper).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("{%- filter "))
    return re.findall(r"replace\('([^']*)', '([^']*)'\)", line)


@pytest.mark.parametrize("wrapper", ["main.html", "404.html"])
def test_wrappers_drop_autocomplete_from_the_theme_checkboxes_only(wrapper: str) -> None:
    base = (THEME / "base.html").read_text(encoding="utf-8")
    fixes = _toggle_fixes(wrapper)
    assert [ours for _, ours in fixes] == ['type="checkbox" id="__drawer"', 'type="checkbox" id="__search"']
    for theirs, ours in fixes:
        assert base.count(theirs) == 1, f"the theme's base.html no longer writes {theirs!r}: review {wrapper}"
        assert theirs == ours + ' autocomplete="off"'
    assert fixes == _toggle_fixes("main.html")
    # the navigation's table-of-contents toggle gets the theme's own words for its name
    nav_item = (THEME / "partials" / "nav-item.html").read_text(encoding="utf-8")
    assert nav_item.count('type="checkbox" id="__toc">') == 1, f"the theme's __toc toggle changed: review {wrapper}"
    text = (ROOT / "overrides" / wrapper).read_text(encoding="utf-8")
    fix = ('''| replace('type="checkbox" id="__toc">', '''
           ''''type="checkbox" id="__toc" aria-label="' ~ lang.t("toc") ~ '">') %}''')
    assert fix in text


def test_404_layout_keeps_the_theme_404_content() -> None:
    theirs = _body((THEME / "404.html").read_text(encoding="utf-8")).replace('{% extends "main.html" %}', "")
    ours = _body((ROOT / "overrides" / "layouts" / "404.html").read_text(encoding="utf-8"))
    assert ours.replace('{% extends "layouts/page.html" %}', "").strip() == theirs.strip()


def test_built_pages_carry_the_fixes(built_site: Path) -> None:
    listed = (built_site / "index.html").read_text(encoding="utf-8")  # in the navigation, with a table of contents
    unlisted = (built_site / "operations" / ff.SLUGS["/fakeWidgetCreate"] / "index.html").read_text(encoding="utf-8")
    missing = (built_site / "404.html").read_text(encoding="utf-8")
    for html in (listed, unlisted, missing):
        assert '<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer">' in html
        assert 'type="checkbox" id="__search">' in html
        assert '" defer></script>' in html
    assert 'id="__toc"' in listed and 'for="__toc"' in listed
    assert 'id="__toc"' not in unlisted and 'for="__toc"' not in unlisted
    matrix = (built_site / "matrix" / "index.html").read_text(encoding="utf-8")  # listed, no headings
    assert 'type="checkbox" id="__toc" aria-label="Table of contents">' in matrix and 'for="__toc"' not in matrix
    assert 'class="md-nav md-nav--secondary"' in unlisted  # the table of contents is still there
    assert "<h1>404 - Not found</h1>" in missing
