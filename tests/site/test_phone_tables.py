"""Small tablets (645 px wide, just above the phone layout): on the operations index and the matrix the operation column stays in view
while the value columns scroll sideways (a sticky column, CSS only: overrides/assets/catalog.css). Phones
(40em and narrower) get cards instead: tests/site/test_phone_layout.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from browsing import PAGE_TYPES, new_visit

pytestmark = [pytest.mark.browser, pytest.mark.site]

TABLET = {"width": 645, "height": 1000}

# Where the operation link sits and reports its box, and what the browser shows at that point.
_PROBE = """table => {
  const wrap = table.closest('.md-typeset__scrollwrap');
  const link = table.querySelector('tbody tr a');
  const cell = link.closest('td, th');
  const probe = () => {
    const box = cell.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
    return {left: box.left, right: box.right, wrapLeft: wrap.getBoundingClientRect().left,
            onTop: cell.contains(hit), text: link.textContent};
  };
  const before = probe();
  wrap.scrollLeft = wrap.scrollWidth;
  return {scrollable: wrap.scrollWidth > wrap.clientWidth, scrolled: wrap.scrollLeft, before, after: probe()};
}"""


@pytest.mark.parametrize("page_type", ["operations-index", "matrix"])
def test_operation_column_stays_visible_while_values_scroll(chromium: Browser, site_url: str,
                                                             page_type: str) -> None:
    v = new_visit(chromium, site_url, viewport=TABLET, is_mobile=True, has_touch=True)
    try:
        page = v.open(PAGE_TYPES[page_type])
        table = page.locator("article .catalog-table table").first
        result = table.evaluate(_PROBE)
        assert result["scrollable"] and result["scrolled"] > 0, "the table does not scroll sideways at 645 px"
        after = result["after"]
        # after scrolling to the last value column, the operation cell sits at the scroller's left edge,
        # drawn over the values that passed under it
        assert abs(after["left"] - after["wrapLeft"]) < 1, result
        assert after["onTop"], result
        assert after["text"].startswith("/"), result
        assert not v.problems(), "\n".join(v.problems())
    finally:
        v.context.close()
