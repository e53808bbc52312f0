"""`make site BUILDER=zensical`: Zensical builds the same site from the same rendered pages.

Zensical reads mkdocs.yml but runs no mkdocs hooks, so the pages come from `catalog-docs render` alone;
this checks that they are enough: every page mkdocs builds, Zensical builds, with the same content.
Both build the fixture catalogue (tests/fixture-catalog/).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import fixture_facts as ff
from htmltree import content, parse_file
from sitebuild import BIN, copy_project

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = BIN / "zensical"
    assert exe.exists(), "zensical is not installed: `make test` installs the test extra, which includes it"
    project = copy_project(tmp_path_factory.mktemp("zensical"), catalog=ff.FIXTURE_CATALOG)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    render = subprocess.run([str(BIN / "catalog-docs"), "render"], cwd=project, capture_output=True, text=True, env=env)
    assert render.returncode == 0, render.stdout + render.stderr
    result = subprocess.run([str(exe), "build", "--strict", "--clean"], cwd=project, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


def _pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("index.html")}


def _main_text(page: Path) -> tuple[str, list[str]]:
    """The page's heading and the text of every table cell, list item and paragraph in its article."""
    article = content(parse_file(page))
    h1 = article.find("h1")
    cells = [" ".join(n.text().split()) for n in article.iter() if n.tag in ("td", "li", "p")]
    return (" ".join(h1.text().split()) if h1 else ""), cells


def test_zensical_builds_every_page_mkdocs_builds(zensical_site: Path, built_site: Path) -> None:
    mkdocs_pages = _pages(built_site)
    # a page per operation, label, plan entry and comparison, and the nine fixed pages
    assert len(mkdocs_pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 9
    assert _pages(zensical_site) >= mkdocs_pages
    for download in ("catalog.json", "lock-matrix.csv", "openapi.yaml"):
        assert (zensical_site / "downloads" / download).read_bytes() == (built_site / "downloads" / download).read_bytes()


@pytest.mark.parametrize("page", ["index.html", "operations/fakeWidgetList/index.html", "operations/entry-7/index.html",
                                  "operations/fake-mandate-holder/index.html", "versions/FAKE-1.0/index.html",
                                  "plans/PLAN-B/index.html", "compare/FAKE-1.1...FAKE-2.0/index.html",
                                  "matrix/index.html", "not-shown/index.html"])
def test_zensical_pages_hold_the_same_content(zensical_site: Path, built_site: Path, page: str) -> None:
    heading, cells = _main_text(built_site / page)
    assert heading and cells
    assert _main_text(zensical_site / page) == (heading, cells)


@pytest.mark.parametrize("builder", ["mkdocs", "zensical"])
def test_the_theme_bundle_is_deferred_by_both_builders(zensical_site: Path, built_site: Path, builder: str) -> None:
    html = ((built_site if builder == "mkdocs" else zensical_site) / "index.html").read_text(encoding="utf-8")
    tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html)
    bundle = [t for t in tags if "/bundle." in t]
    assert len(bundle) == 1 and re.search(r"\sdefer\b", bundle[0]), tags
    assert all(len(re.findall(r"\sdefer\b", t)) <= 1 for t in tags), tags  # never written twice
