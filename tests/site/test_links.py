"""Every internal link and anchor of the built site resolves, checked over the site folder by lychee.

mkdocs validates the links it writes from Markdown (strict build, `validation:` in mkdocs.yml); lychee
then checks the finished HTML as files: every href and src, every `#fragment` against the ids of its
target page, directory links through their index.html. External links are not fetched (--offline).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fixture_facts as ff

LYCHEE = shutil.which("lychee", path=str(Path(sys.executable).parent)) or shutil.which("lychee")


def lychee(site: Path) -> dict:
    """Run lychee over every HTML file of site; its JSON report."""
    assert LYCHEE, "lychee is missing: install the test extras (`make test` does: pip install -e '.[test]')"
    cmd = [LYCHEE, "--offline", "--include-fragments", "--index-files", "index.html", "--no-progress",
           "--root-dir", str(site), "--format", "json", "--", f"{site}/**/*.html"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 2), f"lychee failed to run ({result.returncode}): {result.stderr}"
    return json.loads(result.stdout)


def broken(report: dict) -> list[str]:
    """Every broken link as `page: url (why)`."""
    return [f"{page}: {item['url']} ({item['status']['text']})"
            for page, items in sorted(report["error_map"].items()) for item in items]


@pytest.mark.site
def test_every_internal_link_and_anchor_of_the_site_resolves(built_site: Path) -> None:
    report = lychee(built_site)
    assert not broken(report), "\n".join(broken(report))
    # The fixture site: a page per operation, label, plan entry and comparison, ten fixed pages (home, legend,
    # the operations, versions, plans and compare indexes, matrix, not-shown register, sources, changelog) and
    # the 404 page.
    pages = len(list(built_site.rglob("*.html")))
    assert pages == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 10 + 1
    # Every page links at least its stylesheets, scripts, navigation and header (over 20 each).
    assert report["successful"] > 20 * pages, "lychee checked far fewer links than the site has"


def test_the_checker_reports_a_missing_page_and_a_missing_anchor(tmp_path: Path) -> None:
    # Guards the checker's options: a link checker that passes everything would pass the test above too.
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "index.html").write_text('<p id="there">t</p>', encoding="utf-8")
    (tmp_path / "index.html").write_text(
        '<h1 id="top">x</h1><a href="sub/">ok</a><a href="sub/#there">ok</a><a href="#top">ok</a>'
        '<a href="sub/#nowhere">bad</a><a href="missing/">bad</a><a href="#gone">bad</a>'
        '<img src="assets/missing.png" alt="">', encoding="utf-8")
    report = lychee(tmp_path)
    found = sorted(item["url"].removeprefix(tmp_path.as_uri()) for items in report["error_map"].values()
                   for item in items)
    assert found == ["/assets/missing.png", "/index.html#gone", "/missing", "/sub#nowhere"]
