"""The tests' Chromium launch (tests/browsing.py): the features it disables, as the browser's own pages see them."""

from __future__ import annotations

import psutil
import pytest
from playwright.sync_api import Browser

from browsing import CHROMIUM_ARGS, NO_ADDRESS_BAR_POPUP, PLAYWRIGHT_DISABLES

pytestmark = pytest.mark.browser
OURS = next(a for a in CHROMIUM_ARGS if a.startswith("--disable-features="))


def _features(arg: str) -> set[str]:
    return set(arg.split("=", 1)[1].split(","))


def _processes() -> list[tuple[str, ...]]:
    """The command lines of this test process's Chromium processes (the session's browser and its children)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            line = tuple(child.cmdline())
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if line and "chrom" in line[0]:
            found.append(line)
    return found


def test_the_launch_keeps_every_feature_playwright_disables_and_opens_no_address_bar_popup(chromium: Browser) -> None:
    context = chromium.new_context()
    try:
        context.new_page().goto("data:text/html,<p>a page")
        lines = _processes()
    finally:
        context.close()
    [browser] = [line for line in lines if OURS in line and not any(a.startswith("--type=") for a in line)]
    # Playwright's own --disable-features comes first on the browser's command line, ours (which Chromium keeps) last
    playwright = [a for a in browser if a.startswith("--disable-features=") and a != OURS]
    assert len(playwright) == 1, browser
    missing = _features(playwright[0]) - set(PLAYWRIGHT_DISABLES)
    assert not missing, f"Playwright now disables {sorted(missing)} too: add them to browsing.PLAYWRIGHT_DISABLES"
    renderers = [line for line in lines if "--type=renderer" in line]
    assert renderers, lines
    for line in renderers:  # the features the browser hands its pages: ours, Playwright's among them
        [given] = [a for a in line if a.startswith("--disable-features=")]
        assert _features(given) >= set(PLAYWRIGHT_DISABLES) | set(NO_ADDRESS_BAR_POPUP), given
        assert "--top-chrome-webui" not in line, line  # no page of the browser's own (the address bar's popup)
