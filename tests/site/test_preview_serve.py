"""The preview loop against a real `mkdocs serve --dirty` (as `make serve` runs it) on a fake catalogue:
a broken catalogue keeps the last good pages with a banner of its errors on every page (live-reloaded into
an open tab, and printed in the terminal), no request hangs, and fixing the file removes the banner.
`mkdocs build` still refuses a broken catalogue (tests/site/test_render_safety.py)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from browsing import new_visit
from fake_catalogs import FAKE_SPECS, write_catalog
from sitebuild import BIN, copy_project

BANNER = "#catalog-docs-errors"
LABEL_FILE = Path("catalog/versions/FAKE-2.0.yaml")
POLL_S = 0.05
"""How often the server's log is read while waiting for a line in it (a read of a short file)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Served:
    project: Path
    base: str
    log: Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str, timeout: float = 20) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _fake_project(tmp_path: Path) -> Path:
    catalog = write_catalog(tmp_path / "fake-catalog", FAKE_SPECS["plans-come-and-go"])
    return copy_project(tmp_path / "project", catalog=catalog)  # its own copy: the preview edits its catalogue


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's preview tests: each test leaves the catalogue and docs/ as it found them and
    waits for the rebuild its last save set off, so the next one starts from a served, idle preview."""
    tmp_path = tmp_path_factory.mktemp("served")
    project = _fake_project(tmp_path)
    port = _free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen([str(BIN / "mkdocs"), "serve", "--dirty", "--no-strict",
                                 "--dev-addr", f"127.0.0.1:{port}"],
                                cwd=project, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/"
    try:
        # mkdocs says "Serving on" once its first build is done and its socket listens: a request then is answered.
        deadline = time.monotonic() + 120
        while "Serving on" not in log.read_text(encoding="utf-8"):
            assert proc.poll() is None, log.read_text(encoding="utf-8")
            assert time.monotonic() < deadline, "mkdocs serve did not start:\n" + log.read_text(encoding="utf-8")
            time.sleep(POLL_S)
        assert _get(base)[0] == 200, log.read_text(encoding="utf-8")
        yield Served(project=project, base=base, log=log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _rebuilds(served: Served) -> int:
    return served.log.read_text(encoding="utf-8").count("Reloading browsers")


def _wait_for_rebuild(served: Served, before: int) -> None:
    """Until the server has rebuilt (and told the browsers to reload) after `before` rebuilds."""
    deadline = time.monotonic() + 60
    while _rebuilds(served) <= before:
        assert time.monotonic() < deadline, served.log.read_text(encoding="utf-8")[-4000:]
        time.sleep(POLL_S)


def _break(project: Path) -> str:
    """Give the FAKE 2.0 file a wrong lock value; return where it is, as `versions/FAKE-2.0.yaml:L:C: `."""
    path = project / LABEL_FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if re.match(r"\s+/fakeBeta: unlimited$", line))
    column = lines[index].index("unlimited") + 1
    lines[index] = lines[index].replace("unlimited", "unlimitd")
    path.write_text("".join(lines), encoding="utf-8")
    return f"versions/FAKE-2.0.yaml:{index + 1}:{column}: "


@pytest.mark.browser
def test_a_broken_catalogue_shows_a_banner_until_it_is_fixed(chromium: Browser, served: Served) -> None:
    visit = new_visit(chromium, served.base)
    page = visit.page
    # Not visit.open: the live-reload script keeps one request open, so the network never goes idle.
    response = page.goto(served.base + "versions/FAKE-2.0/", wait_until="load")
    assert response is not None and response.ok
    expect(page.locator(BANNER)).to_have_count(0)
    good = (served.project / LABEL_FILE).read_text(encoding="utf-8")

    where = _break(served.project)
    # The open tab reloads by itself and shows the error, located.
    banner = page.locator(BANNER)
    expect(banner).to_be_visible(timeout=60_000)
    expect(banner).to_contain_text(where)
    expect(banner).to_contain_text("'unlimitd'")
    expect(page.locator("h1")).to_contain_text("FAKE 2.0")  # the last good page is still there

    # Every page carries it, CSS and other files are still served, and nothing waits.
    for path in ("", "operations/", "compare/", "no-such-page/"):
        start = time.monotonic()
        status, text = _get(served.base + path)
        assert time.monotonic() - start < 10
        assert status == (404 if path == "no-such-page/" else 200)
        assert 'id="catalog-docs-errors"' in text and where in text, path
    assert _get(served.base + "assets/catalog.css")[0] == 200
    # The terminal shows the same errors.
    log = served.log.read_text(encoding="utf-8")
    assert re.search(r"ERROR\s+-\s+\S*" + re.escape(where) + ".*'unlimitd'", log), log
    assert "A 'dirty' build is being performed" not in log  # mkdocs' stale-navigation warning: nav is fixed

    rebuilt = _rebuilds(served)
    (served.project / LABEL_FILE).write_text(good, encoding="utf-8")
    _wait_for_rebuild(served, rebuilt)
    expect(page.locator(BANNER)).to_have_count(0, timeout=60_000)
    expect(page.locator("h1")).to_contain_text("FAKE 2.0")
    for path in ("", "operations/"):
        assert 'id="catalog-docs-errors"' not in _get(served.base + path)[1]
    visit.close()
    assert not [p for p in visit.problems() if "livereload" not in p], visit.problems()


# That `mkdocs build` still refuses a broken catalogue, naming where the error is, with no banner and no page
# written, is checked on a copy of the shared fixture site by tests/site/test_render_safety.py
# (test_a_catalogue_with_errors_leaves_docs_and_site_as_they_were[mkdocs build]).


def test_the_banner_escapes_catalogue_text_and_goes_first_in_body(tmp_path: Path) -> None:
    from catalog_docs.site.preview import PreviewSession

    page = '<!doctype html><html><head><title>t</title></head><body dir="ltr"><p>page</p></body></html>'
    session = PreviewSession(dirty=True)
    try:
        (tmp_path / "old.html").write_text("x", encoding="utf-8")
        session.record(["catalog/listing.yaml:3:9: path: expected a path, found '<script>alert(1)</script>'"],
                       tmp_path)
        shown = session.with_banner(page)
        assert shown.startswith('<!doctype html><html><head><title>t</title></head><body dir="ltr">'
                                '<div id="catalog-docs-errors"')
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "<script>" not in shown
        assert not (tmp_path / "old.html").exists()  # changed errors under --dirty: every page is rebuilt
        session.record([], tmp_path)
        assert session.with_banner(page) == page
    finally:
        session.close()


def _set_value(project: Path, key: str, old: str, new: str) -> None:
    path = project / LABEL_FILE
    text = path.read_text(encoding="utf-8")
    line = re.search(rf"^(\s+){re.escape(key)}: {old}$", text, flags=re.M)
    assert line is not None, text
    path.write_text(text[:line.start()] + f"{line.group(1)}{key}: {new}" + text[line.end():], encoding="utf-8")


@pytest.mark.browser
def test_one_save_rebuilds_once_and_reloads_the_open_page_once(chromium: Browser, served: Served) -> None:
    """The pages are rendered in memory, so the one save starts one rebuild and one reload (a second reload
    would lose the reader's scroll position), and nothing appears in docs/."""
    visit = new_visit(chromium, served.base)
    page = visit.page
    # Every document this tab loads is asked for by a navigation request of its main frame (a reload too, and one
    # cut short by another).
    loads: list[str] = []
    visit.on("request", lambda request: loads.append(request.url)
             if request.is_navigation_request() and request.frame == page.main_frame else None)
    response = page.goto(served.base + "operations/fakeBeta/", wait_until="load")
    assert response is not None and response.ok
    page.wait_for_timeout(1500)  # the first build's own file events, if any, have settled
    assert loads == [served.base + "operations/fakeBeta/"], loads
    before = served.log.read_text(encoding="utf-8")

    shown = page.locator("main").inner_text()
    with page.expect_event("load", timeout=60_000):  # the reload the rebuild sets off
        _set_value(served.project, "/fakeBeta", "unlimited", "close")
    assert page.locator("main").inner_text() != shown  # the reloaded page shows the edit
    page.wait_for_timeout(4000)  # long enough for a second rebuild to start and finish, were there one
    log = served.log.read_text(encoding="utf-8")[len(before):]
    assert log.count("Detected file changes") == 1, log
    assert log.count("Reloading browsers") == 1, log
    assert "nothing changed since the last render" not in log, log
    page.wait_for_load_state("load")
    assert loads == [served.base + "operations/fakeBeta/"] * 2, loads  # the first load, then one reload
    assert sorted(p.name for p in (served.project / "docs").iterdir()) == ["README.md"]
    visit.close()
    rebuilt = _rebuilds(served)
    _set_value(served.project, "/fakeBeta", "close", "unlimited")  # as it was, for the module's next test
    _wait_for_rebuild(served, rebuilt)


@pytest.mark.browser
def test_a_hand_written_page_in_docs_still_reloads(chromium: Browser, served: Served) -> None:
    """A person's page added under docs/ rebuilds and is served beside the generated pages."""
    rebuilt = _rebuilds(served)
    (served.project / "docs" / "notes.md").write_text("# Fake notes\n\nHand-written.\n", encoding="utf-8")
    _wait_for_rebuild(served, rebuilt)
    assert _get(served.base + "notes/")[0] == 200
    rebuilt = _rebuilds(served)
    (served.project / "docs" / "notes.md").unlink()  # as it was, for the module's next test
    _wait_for_rebuild(served, rebuilt)
