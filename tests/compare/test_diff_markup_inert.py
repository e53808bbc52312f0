"""Catalogue text in the pull-request comment is data: a change to free text that holds markup (a script,
emphasis, a link, a table cell break, a heading, a list item) shows it literally, on both sides, and makes no
element, link or table cell of its own. (Terminal controls never load: the loader refuses them, and
tests/project/test_cli.py shows the text diff escapes them anyway.)

Both catalogues are the `markup-and-areas` download fixture; the later one has the markup text changed in
every free-text field the diff reports (service name and summary, area names, plan table title and value
column, the not-shown item's detail).
"""

from __future__ import annotations

import html as html_module
import re
from pathlib import Path
from typing import Any

import markdown
import pytest
import yaml

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import compare_catalogs
from catalog_docs.compare.formats import format_markdown
from download_fixtures import MARKUP, write_download_catalog

CHANGED = " <img src=x onerror=alert(2)> **bold** | cell\n# heading"


def _edited(path: Path, change: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _later(data: dict[str, Any]) -> None:
    if "areas" in data:
        data["summary"] = MARKUP + CHANGED
        for area in data["areas"]:
            area["name"] = MARKUP + CHANGED
    if "plan_table" in data:
        data["plan_table"]["title"] = MARKUP + CHANGED
    if "items" in data:
        for item in data["items"]:
            item["detail"] = MARKUP + CHANGED


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[Catalog, Catalog]:
    before = write_download_catalog(tmp_path_factory.mktemp("before") / "catalog", "markup-and-areas")
    after = write_download_catalog(tmp_path_factory.mktemp("after") / "catalog", "markup-and-areas")
    for name in ("service.yaml", "not-shown.yaml", *(f"versions/{p.name}" for p in (after / "versions").iterdir())):
        _edited(after / name, _later)
    return load_catalog(before), load_catalog(after)


def test_the_comment_shows_markup_literally_and_makes_no_element(sides: tuple[Catalog, Catalog]) -> None:
    text = format_markdown(compare_catalogs(*sides, "main", "a-branch"))
    html = markdown.markdown(text, extensions=["tables"])
    for made in ("<script", "<img", "<em>x</em>", "<em>y</em>", "<strong>bold</strong>", "<code>q</code>",
                 'href="https://e.invalid', "<h1>heading", "<li>item"):
        assert made not in html, made
    shown = html_module.unescape(re.sub(r"<[^>]*>", "", html))  # what a reader sees
    assert "<script>alert(1)</script> *x* _y_ | z `q` [l](https://e.invalid)" in shown
    assert "<img src=x onerror=alert(2)> **bold** | cell" in shown
    # Each table row keeps its cells: a `|` in the text never splits one.
    for table in html.split("<table>")[1:]:
        rows = table.split("</table>")[0].split("<tr>")[1:]
        assert len({row.count("<td") + row.count("<th") for row in rows}) == 1
