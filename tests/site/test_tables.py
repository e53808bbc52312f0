"""Links inside HTML tables: mkdocs does not rewrite links in raw HTML, so the render writes the built
pages' URLs itself, for either value of `use_directory_urls`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from catalog_docs.site.pages import directory_urls_of
from catalog_docs.site.tables import Href
from fixture_facts import FIXTURE_CATALOG
from htmltree import content, parse_file
from sitebuild import build, copy_project


@pytest.mark.parametrize(("page", "target", "directory", "flat"), [
    ("index.md", "operations/index.md", "operations/", "operations/index.html"),
    ("index.md", "index.md", "./", "index.html"),
    ("legend.md", "not-shown/index.md#value-meaning", "../not-shown/#value-meaning",
     "not-shown/index.html#value-meaning"),
    ("operations/index.md", "versions/A-1.0.md", "../versions/A-1.0/", "../versions/A-1.0.html"),
    ("operations/x.md", "operations/index.md", "../", "index.html"),
    ("versions/A/page-2.md", "versions/B.md", "../../B/", "../B.html"),
    ("compare/A...B.md", "plans/P.md", "../../plans/P/", "../plans/P.html"),
])
def test_links_are_the_built_pages_urls(page: str, target: str, directory: str, flat: str) -> None:
    assert Href(page, True)(target) == directory
    assert Href(page, False)(target) == flat


def test_the_setting_is_read_from_mkdocs_yml(tmp_path: Path) -> None:
    assert directory_urls_of(tmp_path)  # no mkdocs.yml: the builders' default
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nuse_directory_urls: false  # flat\n", encoding="utf-8")
    assert not directory_urls_of(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nuse_directory_urls: true\n", encoding="utf-8")
    assert directory_urls_of(tmp_path)


@pytest.mark.site
def test_every_table_link_resolves_without_directory_urls(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project", catalog=FIXTURE_CATALOG)  # its own build: another mkdocs.yml
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\nuse_directory_urls: false\n", encoding="utf-8")
    result = build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    site = project / "site"
    checked, broken = 0, []
    for path in sorted(site.rglob("*.html")):
        if path.name == "404.html":
            continue
        url = "http://h/" + path.relative_to(site).as_posix()
        for table in content(parse_file(path)).find_all("table"):
            for a in table.find_all("a"):
                target = urlsplit(urljoin(url, a.attrs["href"]))
                checked += 1
                if not (site / unquote(target.path).lstrip("/")).is_file():
                    broken.append(f"{path.relative_to(site)}: {a.attrs['href']}")
    assert checked > 100 and not broken, broken
    # Pages are files, not folders: the operation's folder holds only its feed and the sitemap beside it (twins.py)
    assert (site / "operations" / "index.html").is_file() and (site / "operations" / "fakeWidgetList.html").is_file()
    assert sorted(p.name for p in (site / "operations" / "fakeWidgetList").iterdir()) == ["feed.xml", "sitemap.xml"]


def test_continuation_pages_stay_out_of_search_and_page_one_stays_in(tmp_path: Path) -> None:
    """A continuation page (`page-2/`, ...) repeats page 1's text and its table is excluded from search
    anyway: the whole page is excluded (front matter `search: exclude: true`, read by Material's search
    plugin and by Zensical), so the builder does not parse its HTML for the index."""
    from catalog_docs.authoring.synth import SynthSpec, write_synth
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import render_pages

    write_synth(SynthSpec(operations=300, versions=3, plans=2, seed=1), tmp_path)
    catalog = load_catalog(tmp_path)
    pages = render_pages(catalog, workers=1)
    version, plan = catalog.versions[0], catalog.plan_names[0].replace(" ", "-")
    firsts = ["operations/index.md", "matrix/index.md", f"versions/{version.slug}.md", f"plans/{plan}.md"]
    continued = ["operations/page-2.md", "matrix/page-2.md", f"versions/{version.slug}/page-2.md",
                 f"plans/{plan}/page-2.md"]
    for rel in firsts:
        assert "\nsearch:\n  exclude" not in pages[rel].split("\n---\n", 1)[0], rel
    for rel in continued:
        assert "\nsearch:\n  exclude: true\n---\n" in pages[rel].split("\n# ", 1)[0], rel
