"""Which pages the theme's search indexes: every page but the continuation pages of a split table, however large
the table (the search reads a table page's prose alone: tests/site/test_search_view.py); a label's and a plan
entry's own page rank before the pages that mention them: by their boost in Material's search, and in a search
without a boost (Zensical's) because the comparisons, titled with two labels, are left out of it."""

from __future__ import annotations

import pytest

from catalog_docs.authoring.synth import SynthSpec, write_synth
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.render import render_pages
from fixture_facts import FIXTURE_CATALOG

EXCLUDED = "search:\n  exclude: true\n"
BOOSTED = "search:\n  boost: 2\n"
TABLE_PAGES = ("operations/index.md", "matrix/index.md")


def _front(page: str) -> str:
    return page.split("---\n")[1]


def test_a_small_catalogues_table_pages_are_indexed() -> None:
    pages = render_pages(load_catalog(FIXTURE_CATALOG))
    for path in (*TABLE_PAGES, "plans/PLAN-A.md"):
        assert EXCLUDED not in _front(pages[path]), path


def test_a_search_without_a_boost_leaves_the_comparisons_out_and_only_them() -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    boosted, plain = render_pages(catalog), render_pages(catalog, search_boost=False)
    assert boosted.keys() == plain.keys()
    comparisons = [p for p in plain if p.startswith("compare/") and p.endswith(".md") and p != "compare/index.md"]
    assert comparisons
    for path, text in plain.items():
        if path in comparisons:
            assert EXCLUDED in _front(text) and EXCLUDED not in _front(boosted[path]), path
            assert text.replace(EXCLUDED, "", 1) == boosted[path], path  # the front matter says it; nothing else
        else:
            assert text == boosted[path], path


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # 300 operations x 8 labels x 2 plan entries: every table is split over two pages.
    folder = tmp_path_factory.mktemp("large") / "catalog"
    write_synth(SynthSpec(operations=300, versions=8, plans=2), folder)
    return render_pages(load_catalog(folder))


def test_a_large_tables_first_page_is_indexed_and_its_continuation_pages_are_not(large: dict[str, str]) -> None:
    for path in TABLE_PAGES:
        assert EXCLUDED not in _front(large[path]), path
        assert EXCLUDED in _front(large[path.replace("index.md", "page-2.md")]), path
    firsts = [p for p in large if p.startswith(("plans/", "versions/")) and p.count("/") == 1 and "index" not in p
              and p.endswith(".md")]
    assert firsts and all(BOOSTED in _front(large[p]) and EXCLUDED not in _front(large[p]) for p in firsts)
    continued = [p for p in large if p.startswith(("plans/", "versions/")) and "/page-" in p and p.endswith(".md")]
    assert continued and all(EXCLUDED in _front(large[p]) and BOOSTED not in _front(large[p]) for p in continued)
    # Pages that are not tables stay indexed whatever the size.
    for path in ("index.md", "legend.md", "not-shown/index.md"):
        assert EXCLUDED not in _front(large[path]), path
