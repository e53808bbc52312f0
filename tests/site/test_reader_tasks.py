"""Reader tasks (issue 42): questions a reader brings to the site, each answered by following links only, in at most
two clicks from the page where that reader starts, at 1280 x 900 and on a 390 x 844 phone.

Each task names its start page, the links it follows (by the words a reader sees) and where the answer is: a
change's row marked on its comparison, a register item, a source section, a value in a table. The answers come
from tests/fixture_facts.py, the fixture catalogue restated by hand; the site is the shared fixture build, visited
in one pooled tab per screen size, where a reader goes from task to task: the first start page is loaded, each next
one reached by following a link to it (the theme's instant navigation, tests/browsing.py `Visit.reach`), as a reader
arrives there from the page the last task ended on.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

import fixture_facts as ff
from browsing import DESKTOP, PHONE, new_visit
from readertasks import MAX_CLICKS, Task, change_link, history_cell, in_view, link, marked_row, op_page, unanswered

pytestmark = [pytest.mark.browser, pytest.mark.site]

SCREENS = {"desktop": DESKTOP, "phone": PHONE}


def value(label: str, plan: str, path: str) -> str:
    """The fixture's lock value of a listing entry, by its path, under a label and plan entry."""
    return ff.VALUES[label][plan][ff.PATHS.index(path)]


_PURGE = "/v2/fakeGadgetPurge"
_CREATE = "/fakeWidgetCreate"
_REFUND = "/fakeRefundSend"

TASKS = [
    Task(question=f"What changed for {_PURGE}'s PLAN A between FAKE 1.0 and FAKE 1.1?", start=op_page(_PURGE),
         clicks=(change_link(("FAKE 1.0", "FAKE 1.1"), f"PLAN A: {value('FAKE 1.0', 'PLAN A', _PURGE)} → "
                                                       f"{value('FAKE 1.1', 'PLAN A', _PURGE)}"),),
         answer=marked_row([_PURGE, value("FAKE 1.0", "PLAN A", _PURGE), value("FAKE 1.1", "PLAN A", _PURGE)]),
         lands_on="compare/FAKE-1.0...FAKE-1.1/"),
    Task(question=f"What became of {_CREATE}'s PLAN B value in FAKE 1.1?", start=op_page(_CREATE),
         clicks=(change_link(("FAKE 1.0", "FAKE 1.1"),
                             f"PLAN B: {value('FAKE 1.0', 'PLAN B', _CREATE)} → ∅ not listed"),),
         answer=marked_row([_CREATE, value("FAKE 1.0", "PLAN B", _CREATE), "not listed"]),
         lands_on="compare/FAKE-1.0...FAKE-1.1/"),
    Task(question=f"What value does {_REFUND} get in FAKE 2.0's new PLAN C?", start=op_page(_REFUND),
         clicks=(change_link(("FAKE 1.1", "FAKE 2.0"),
                             f"PLAN C: {value('FAKE 2.0', 'PLAN C', _REFUND)} new (no earlier label lists PLAN C)"),),
         answer=marked_row([_REFUND, "not listed", f"{value('FAKE 2.0', 'PLAN C', _REFUND)} new"]),
         lands_on="compare/FAKE-1.1...FAKE-2.0/"),
    Task(question="Which plan entries does FAKE 1.1 list?", start=op_page(_REFUND),
         clicks=(link("FAKE 1.1"),),
         answer=in_view("article table:has(caption:text('Plan table')) tbody", ", ".join(ff.VALUES["FAKE 1.1"])),
         lands_on="versions/FAKE-1.1/"),
    Task(question="Which version labels list PLAN B?", start=op_page(_REFUND),
         clicks=(link("PLAN B"),),
         answer=in_view("article li:has(strong:text-is('Listed under:'))",
                        ", ".join(label for label, plans in ff.VALUES.items() if "PLAN B" in plans)),
         lands_on="plans/PLAN-B/"),
    Task(question="What does “not listed” mean?", start="operations/",
         clicks=(link("legend"),),
         answer=in_view("article tr:has(th .not-listed)", "does not list that plan entry"),
         lands_on="legend/"),
    Task(question="Does the source say what a fake request carries, and where?", start=op_page(_REFUND),
         clicks=(link("Fake payload"), lambda page: page.locator("article").get_by_role("link", name="§4 rule 2")),
         answer=in_view("article [id='s4']", "4"),
         lands_on="sources/"),
    Task(question=f"What is {_REFUND}'s PLAN C value under FAKE 2.0?", start="",
         clicks=(link("operations table"), link(_REFUND)),
         answer=history_cell("FAKE 2.0", "PLAN C", value("FAKE 2.0", "PLAN C", _REFUND)),
         lands_on=op_page(_REFUND)),
    Task(question="What changed overall from FAKE 1.1 to FAKE 2.0?", start="versions/FAKE-2.0/",
         clicks=(link("compare FAKE 1.1 → FAKE 2.0"),),
         answer=in_view("article table:has(caption:text('Differences from FAKE 1.1 to FAKE 2.0'))",
                        "Values unchanged"),
         lands_on="compare/FAKE-1.1...FAKE-2.0/"),
]


def test_the_tasks_are_within_two_clicks() -> None:
    assert len(TASKS) >= 8
    assert all(1 <= len(t.clicks) <= MAX_CLICKS for t in TASKS)


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_every_reader_task_is_answered_by_following_links(chromium: Browser, site_url: str, screen: str) -> None:
    visit = new_visit(chromium, site_url, **SCREENS[screen])
    try:
        failed = unanswered(visit, site_url, TASKS)
    finally:
        visit.close()
    assert not failed, "\n".join(failed)
