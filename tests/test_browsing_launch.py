"""The tests' browser (tests/browsing.py): Debian's Chromium headless shell, the same Chromium as the full browser."""

from __future__ import annotations

import subprocess

import psutil
import pytest
from playwright.sync_api import Browser

from browsing import CHROMIUM, FULL_CHROMIUM

pytestmark = pytest.mark.browser


def _version(executable: str) -> str:
    """The version an executable prints (`Chromium 156.0.8078.108 built on ...`)."""
    out = subprocess.run([executable, "--version"], capture_output=True, text=True, check=True, timeout=60).stdout
    return out.split()[1]


def test_the_tests_drive_the_headless_shell_of_the_chromium_lighthouse_and_pa11y_start(chromium: Browser) -> None:
    full = _version(FULL_CHROMIUM)
    assert chromium.version == full, (
        f"the tests drive Chromium {chromium.version} ({CHROMIUM}), {FULL_CHROMIUM} is {full}: "
        "install the chromium-headless-shell of the same version (scripts/ensure-chromium.sh)")


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


def test_a_new_context_starts_no_page_of_the_browsers_own(chromium: Browser) -> None:
    """A context's renderers are the pages' own: none hosts a page of the browser's interface (the full browser's
    headless mode starts its address bar's popup in one for every context)."""
    context = chromium.new_context()
    try:
        context.new_page().goto("data:text/html,<p>a page")
        lines = _processes()
    finally:
        context.close()
    renderers = [line for line in lines if "--type=renderer" in line]
    assert renderers, lines
    assert not [line for line in renderers if "--top-chrome-webui" in line], renderers
