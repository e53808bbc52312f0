"""Which pages the theme's search indexes: every page but the continuation pages of a split table, and the first
page of a table too large to parse cheaply (render.SEARCH_INDEXED_CELLS), whose table the index skips anyway."""

from __future__ import annotations

import pytest

from catalog_docs.authoring.synth import SynthSpec, write_synth
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.render import SEARCH_INDEXED_CELLS, render_pages
from fixture_facts import FIXTURE_CATALOG

EXCLUDED = "search:\n  exclude: true\n"
TABLE_PAGES = ("operations/index.md", "matrix/index.md")


def _front(page: str) -> str:
    return page.split("---\n")[1]


def test_a_small_catalogues_table_pages_are_indexed() -> None:
    pages = render_pages(load_catalog(FIXTURE_CATALOG))
    for path in (*TABLE_PAGES, "plans/PLAN-A.md"):
        assert EXCLUDED not in _front(pages[path]), path


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # 300 operations x 8 labels x 2 plan entries: 250 rows of 16 columns on the first operations and matrix
    # pages (4,000 cells), 250 rows of 8 labels on a plan entry's first page (2,000 cells).
    folder = tmp_path_factory.mktemp("large") / "catalog"
    write_synth(SynthSpec(operations=300, versions=8, plans=2), folder)
    return render_pages(load_catalog(folder))


def test_a_large_tables_first_page_is_left_out_of_the_index_and_a_smaller_one_is_not(large: dict[str, str]) -> None:
    assert 250 * 16 > SEARCH_INDEXED_CELLS >= 250 * 8
    for path in TABLE_PAGES:
        assert EXCLUDED in _front(large[path]), path
        assert EXCLUDED in _front(large[path.replace("index.md", "page-2.md")]), path
    plans = [p for p in large if p.startswith("plans/") and p.count("/") == 1 and p != "plans/index.md"]
    assert plans and all(EXCLUDED not in _front(large[p]) for p in plans)
    # Pages that are not tables stay indexed whatever the size.
    for path in ("index.md", "legend.md", "not-shown/index.md"):
        assert EXCLUDED not in _front(large[path]), path
