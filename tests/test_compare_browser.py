"""/compare/ in Chromium: the any-pair form draws the diff in the page, from catalog.json, with no server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playwright.sync_api import Page

import fixture_facts as ff
from browsing import Visit

pytestmark = [pytest.mark.site, pytest.mark.browser]


@pytest.fixture
def page(visit: Visit) -> Iterator[Page]:
    """A page in the shared session browser (one Playwright per run); the visit fails the test on any
    console error, failed request or request to another origin."""
    page = visit.page
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    yield page


@pytest.fixture
def base_url(site_url: str) -> str:
    return site_url


def test_the_default_pair_is_drawn_on_load(page, base_url: str) -> None:  # noqa: ANN001
    page.goto(base_url + "compare/")
    page.wait_for_selector("#catalog-compare-result table")
    result = page.locator("#catalog-compare-result")
    assert result.locator("h3").inner_text() == "FAKE 1.0 → FAKE 1.1"
    changed = result.locator("table").nth(1).locator("tbody tr")
    assert changed.count() == len(ff.changes("FAKE 1.0", "FAKE 1.1")) == 5  # all close -> unlimited
    assert result.locator("table").nth(1).locator(".lock.lock-unlimited").count() == 5
    assert "/fakeWidgetList" not in result.inner_text()  # unchanged under PLAN A
    assert "not listed" in result.locator(".not-listed").first.inner_text()
    assert page.get_by_label("From", exact=True).input_value() == "FAKE 1.0"
    assert page.errors == []


def test_two_plan_entries_and_a_mismatched_pair(page, base_url: str) -> None:  # noqa: ANN001
    page.goto(base_url + "compare/")
    page.get_by_label("From", exact=True).select_option("FAKE 1.0:PLAN A")
    page.get_by_label("To", exact=True).select_option("FAKE 1.0:PLAN B")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_function("document.querySelector('#catalog-compare-result h3').textContent.includes('PLAN B')")
    # PLAN A is close and PLAN B unlimited everywhere under FAKE 1.0: every listing entry differs.
    assert page.locator("#catalog-compare-result table").nth(1).locator("tbody tr").count() == ff.LISTING_SIZE
    page.get_by_label("To", exact=True).select_option("FAKE 1.1")
    page.get_by_role("button", name="Compare").click()
    alert = page.get_by_role("alert")
    assert "compare a label with a label" in alert.inner_text()


def test_the_form_works_when_reached_by_a_link(page, base_url: str) -> None:  # noqa: ANN001
    # With instant navigation the page is swapped in and its <script> re-run by the theme; served on a
    # port other than site_url's, the theme falls back to a normal load. Either way the form must work.
    page.goto(base_url)
    page.get_by_role("link", name="Compare", exact=True).first.click()
    page.wait_for_selector("#catalog-compare-result table")
    # the summary's "close → unlimited" row and the five changes of FAKE 1.0 -> FAKE 1.1
    assert page.locator("#catalog-compare-result .lock-unlimited").count() == 1 + 5
    assert page.errors == []
