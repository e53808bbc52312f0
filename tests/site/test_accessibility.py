"""Accessibility of every page type, checked in the browser with axe-core (installed from npm by `make test`).

Zero serious or critical violations in light and in dark; lock values, "not listed" and "not shown" are
told apart by their text, never by colour alone.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from browsing import AXE, PAGE_TYPES, Visit, new_visit

pytestmark = [pytest.mark.browser, pytest.mark.site]

BLOCKING = {"serious", "critical"}
LOCK_VALUES = {"close", "unlimited"}


def _describe(violation: dict) -> str:
    nodes = "; ".join(" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"])
                      for n in violation["nodes"][:5])
    return f"{violation['id']} ({violation['impact']}): {violation['help']} at {nodes}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_axe_finds_no_serious_or_critical_violation(chromium: Browser, site_url: str, page_type: str,
                                                    scheme: str) -> None:
    assert AXE.is_file(), f"{AXE} is missing: run `make test` or `npm ci` in the project folder"
    v = new_visit(chromium, site_url, color_scheme=scheme)
    try:
        page = v.open(PAGE_TYPES[page_type])
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        blocking = [_describe(x) for x in result["violations"] if x["impact"] in BLOCKING]
        assert not blocking, f"{PAGE_TYPES[page_type] or '/'} ({scheme}):\n" + "\n".join(blocking)
        assert not v.problems(), "\n".join(v.problems())
    finally:
        v.close()


@pytest.mark.parametrize("page_type", ["operations-index", "operation", "version", "plan", "compare",
                                       "matrix"])
def test_lock_values_are_told_apart_by_text_not_colour(visit: Visit, page_type: str) -> None:
    page = visit.open(PAGE_TYPES[page_type])
    marks = page.locator("article .lock, article .not-listed").evaluate_all(
        "els => els.map(e => [e.className, e.textContent.trim()])")
    locks = [(cls, text) for cls, text in marks if "lock" in cls.split()]
    assert locks, "the page shows no lock value"
    for cls, text in locks:
        value = next(c[len("lock-"):] for c in cls.split() if c.startswith("lock-"))
        assert value in LOCK_VALUES and text == value, f"a lock value styled {value!r} reads {text!r}"
    for cls, text in marks:
        if "not-listed" in cls.split():
            assert text == "not listed"
    shown = page.locator("article .not-shown").all_text_contents()
    assert all(t.strip() == "not shown" for t in shown), shown
