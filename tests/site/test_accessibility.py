"""Accessibility in the browser: lock values, "not listed" and "not shown" are told apart by their text, never by
colour alone. axe-core (installed from npm by `make test`) finds no serious or critical violation on any page
type, light or dark: checked in the same visit that loads each page type (tests/site/test_browser.py).
"""

from __future__ import annotations

import pytest

from browsing import PAGE_TYPES, Visit

pytestmark = [pytest.mark.browser, pytest.mark.site]

LOCK_VALUES = {"close", "unlimited"}


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
