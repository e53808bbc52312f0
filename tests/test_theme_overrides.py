"""Theme overrides stay a copy of the installed mkdocs-material partial plus the one fix they carry."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest
import urllib.error
import urllib.request

import fixture_facts as ff
from catalog_docs.static_server import serve

ROOT = Path(__file__).resolve().parents[1]
THEME = Path(material.__file__).parent / "templates"


def _body(text: str) -> str:
    """A template without its leading Jinja comment."""
    return re.sub(r"^\{#-.*?-#\}\n", "", text, count=1, flags=re.S)


def test_search_partial_matches_the_theme_except_the_dialog_name() -> None:
    ours = _body((ROOT / "overrides" / "partials" / "search.html").read_text(encoding="utf-8"))
    theirs = _body((THEME / "partials" / "search.html").read_text(encoding="utf-8"))
    fixed = theirs.replace('role="dialog">', 'role="dialog" aria-label="{{ lang.t(\'search\') }}">', 1)
    assert fixed != theirs, "the theme's search dialog changed: review overrides/partials/search.html"
    assert ours == fixed


def test_every_page_has_title_and_description(built_site: Path) -> None:
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 8  # the fixture site
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
