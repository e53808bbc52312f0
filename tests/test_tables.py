"""Links inside HTML tables: mkdocs does not rewrite links in raw HTML, so the render writes the built
pages' URLs itself, for either value of `use_directory_urls`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from catalog_docs.incremental import directory_urls_of
from catalog_docs.tables import Href
from fixture_facts import FIXTURE_CATALOG
from htmltree import content, parse_file
from sitebuild import build, copy_project


@pytest.mark.parametrize(("page", "target", "directory", "flat"), [
    ("index.md", "operations/index.md", "operations/", "operations/index.html"),
    ("index.md", "index.md", "./", "index.html"),
    ("legend.md", "not-shown/index.md#value-meaning", "../not-shown/#value-meaning", "not-shown/index.html#value-meaning"),
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
    project = copy_project(tmp_path / "project", catalog=FIXTURE_CATALOG)
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
    assert (site / "operations" / "index.html").is_file() and not (site / "operations" / "fakeWidgetList").exists()
