"""Reader tasks (issue 42): a question a reader brings to the site, the page where that reader starts, the links
followed (found by the words a reader sees) and where the answer is. The fixture site's tasks are in
tests/site/test_reader_tasks.py, the real catalogue's in tests/site/test_real_reading.py; both run here, in one
tab per screen size that goes from task to task as a reader does (tests/browsing.py `Visit.reach`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from browsing import Visit

MAX_CLICKS = 2


def op_page(path: str) -> str:
    """An operation's page, by the README's slug scheme (its path without the first `/`, then `/` as `-`)."""
    return f"operations/{path[1:].replace('/', '-')}/"


def link(name: str) -> Callable[[Page], Locator]:
    """The one link of the page's content a reader finds by these words (its accessible name, which includes what
    a mark draws before its text: `∅ not listed`)."""
    return lambda page: page.locator("article").get_by_role("link", name=name, exact=True)


def change_link(pair: tuple[str, str], words: str) -> Callable[[Page], Locator]:
    """A change listed for one pair of labels on an operation page."""
    def find(page: Page) -> Locator:
        item = page.locator("article .catalog-changes > li").filter(
            has=page.get_by_role("link", name=f"{pair[0]} → {pair[1]}", exact=True))
        return item.get_by_role("link", name=words, exact=True)
    return find


def marked_row(cells: list[str]) -> Callable[[Page], None]:
    """The address names a change; its row is on screen, visibly marked, and reads `cells` in order."""
    def check(page: Page) -> None:
        target = page.evaluate("decodeURIComponent(location.hash.slice(1))")
        assert target, f"no change named in {page.url}"
        row = page.locator(f"tr[id='{target}']")
        expect(row).to_be_in_viewport()
        expect(row).to_have_class(re.compile(r"\bcatalog-targeted\b"))
        assert row.evaluate("r => getComputedStyle(r).outlineStyle") == "solid", "the row is not marked"
        assert [c.strip() for c in row.locator("th, td").all_inner_texts()][1:] == cells
    return check


def in_view(selector: str, text: str) -> Callable[[Page], None]:
    """The answer is the element `selector` finds, on screen, holding `text`."""
    def check(page: Page) -> None:
        found = page.locator(selector)
        expect(found).to_be_in_viewport()
        expect(found).to_contain_text(text)
    return check


def history_cell(label: str, plan: str, value: str) -> Callable[[Page], None]:
    """An operation page shows `value` for one plan entry under one label, in its history table."""
    def check(page: Page) -> None:
        table = page.locator("article .catalog-history table")
        heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
        row = table.locator("tbody tr").filter(has=page.get_by_role("rowheader", name=label, exact=True))
        cell = row.locator("th, td").nth(heads.index(plan))
        expect(cell).to_be_visible()
        assert cell.inner_text().split()[0] == value
    return check


@dataclass(frozen=True, slots=True, kw_only=True)
class Task:
    question: str
    start: str
    clicks: tuple[Callable[[Page], Locator], ...]
    answer: Callable[[Page], None]
    lands_on: str
    """The end of the URL the last click leads to (before any fragment)."""


def unanswered(visit: Visit, site_url: str, tasks: Sequence[Task]) -> list[str]:
    """Follow every task's links in `visit`'s tab, one task after the other; the tasks not answered, each with the
    first line of what went wrong, then what the visit recorded (console errors, failed requests)."""
    failed: list[str] = []
    for task in tasks:
        try:
            page = visit.reach(task.start)
            for find in task.clicks:
                found = find(page)
                expect(found).to_have_count(1)
                found.click()
            expect(page).to_have_url(re.compile(re.escape(site_url + task.lands_on) + "(#.*)?$"))
            visit.settle()
            task.answer(page)
        except AssertionError as error:
            failed.append(f"{task.question} (from /{task.start}): {str(error).splitlines()[0]}")
    return failed + visit.problems()
