"""Every engine that reads mkdocs.yml (`make site BUILDER=mkdocs|properdocs|zensical`, and `make serve` with
each) builds the same site from the same catalogue, and each one's preview re-renders a catalogue edit into the
open page, its Markdown twin, llms-full.txt and the operation's feed, serves llms.txt, and shows a broken
catalogue's errors on the page.

The commands are the Makefile's own (read with `make -n`), run in a copy of the project: ProperDocs runs our
plugin as mkdocs does; Zensical runs no plugins, so `catalog-docs build` renders into a build folder of its own
for each build and `catalog-docs watch` keeps one up to date beside its server. All build the fixture catalogue
(tests/fixture-catalog/), and none writes into docs/.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import socket
import subprocess
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

import fixture_facts as ff
from catalog_docs.site.handwritten import dest_of, site_own_files
from catalog_docs.site.pages import site_files
from catalog_docs.site.twins import split_twins
from catalog_docs.site.watch import engine_theme_dirs
from htmltree import content, parse_file
from sitebuild import BIN, ROOT, ZENSICAL_BUILD, copy_env, copy_project, shared_build

pytestmark = pytest.mark.site

OTHER_ENGINES = ["properdocs", "zensical"]
"""mkdocs builds the shared `built_site`; these are compared with it."""


def make_commands(target: str, builder: str, *settings: str) -> list[str]:
    """The shell lines `make TARGET BUILDER=builder` runs, as the Makefile has them (a dry run)."""
    # -o: the install stamps count as up to date, so only the target's own lines are printed.
    stamps = ["-o", ".venv/.installed-site", "-o", ".venv/.installed-test"]
    out = subprocess.run(["make", "-n", "-s", "--no-print-directory", *stamps, target, f"BUILDER={builder}", *settings],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines, f"make -n {target} BUILDER={builder} printed nothing"
    return lines


def _project(root: Path) -> Path:
    project = copy_project(root, catalog=ff.FIXTURE_CATALOG)  # its own copy: each engine builds and serves it
    (project / ".venv").symlink_to(BIN.parent)  # the Makefile's .venv/bin/...
    return project


@pytest.fixture(scope="module", params=OTHER_ENGINES)
def engine_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    engine = request.param
    assert (BIN / engine).exists(), f"{engine} is not installed: `make test` installs it"
    if engine == "zensical":
        # The Makefile's own line is the one sitebuild.shared_build runs for Zensical (.venv/bin/ being this run's
        # tools): its build of the fixture catalogue, made once per run, is the one compared here.
        lines = make_commands("site", engine)
        assert [shlex.split(line.replace(".venv/bin/", f"{BIN}/")) for line in lines] == [ZENSICAL_BUILD], lines
        site = shared_build(tmp_path_factory, "fixture-zensical", ff.FIXTURE_CATALOG, engine="zensical")
        assert sorted(p.name for p in (site.parent / "docs").iterdir()) == ["README.md"]
        return engine, site
    project = _project(tmp_path_factory.mktemp(engine))
    for line in make_commands("site", engine):
        done = subprocess.run(line, shell=True, cwd=project, capture_output=True, text=True,
                              env=copy_env(project), timeout=600)
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
        assert "WARNING" not in done.stdout + done.stderr, f"{line}\n{done.stdout}{done.stderr}"
    assert sorted(p.name for p in (project / "docs").iterdir()) == ["README.md"]
    return engine, project / "site"


def _pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("index.html")}


def _main_text(page: Path) -> tuple[str, list[str]]:
    """The page's heading and the text of every table cell, list item and paragraph in its article."""
    article = content(parse_file(page))
    h1 = article.find("h1")
    cells = [" ".join(n.text().split()) for n in article.iter() if n.tag in ("td", "li", "p")]
    return (" ".join(h1.text().split()) if h1 else ""), cells


def test_every_engine_builds_every_page_mkdocs_builds(engine_site: tuple[str, Path], built_site: Path) -> None:
    _, other_site = engine_site
    mkdocs_pages = _pages(built_site)
    # a page per operation, label, plan entry and comparison, and the ten fixed pages (the changelog among them)
    assert len(mkdocs_pages) == ff.LISTING_SIZE + len(ff.LABELS) + len(ff.PLAN_NAMES) + len(ff.PAIRS) + 10
    assert _pages(other_site) >= mkdocs_pages
    for download in ("catalog.json", "lock-matrix.csv", "openapi.yaml"):
        assert (other_site / "downloads" / download).read_bytes() == (built_site / "downloads" / download).read_bytes()


@pytest.mark.parametrize("page", ["index.html", "operations/fakeWidgetList/index.html", "operations/entry-7/index.html",
                                  "operations/fake-mandate-holder/index.html", "versions/FAKE-1.0/index.html",
                                  "plans/PLAN-B/index.html", "compare/FAKE-1.1...FAKE-2.0/index.html",
                                  "matrix/index.html", "not-shown/index.html"])
def test_every_engine_builds_the_same_content(engine_site: tuple[str, Path], built_site: Path, page: str) -> None:
    _, other_site = engine_site
    heading, cells = _main_text(built_site / page)
    assert heading and cells
    assert _main_text(other_site / page) == (heading, cells)


@pytest.mark.parametrize("builder", ["mkdocs", "other"])
def test_the_theme_bundle_is_deferred_by_every_engine(engine_site: tuple[str, Path], built_site: Path,
                                                       builder: str) -> None:
    html = ((built_site if builder == "mkdocs" else engine_site[1]) / "index.html").read_text(encoding="utf-8")
    tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html)
    bundle = [t for t in tags if "/bundle." in t]
    assert len(bundle) == 1 and re.search(r"\sdefer\b", bundle[0]), tags
    assert all(len(re.findall(r"\sdefer\b", t)) <= 1 for t in tags), tags  # never written twice


@functools.cache
def _own_files(engine: str) -> dict[str, str]:
    """The files the site writes of its own (handwritten.site_own_files) as the shell of `engine` works them out:
    the plugin from the engine's own configuration (mkdocs, ProperDocs), `catalog-docs build` for Zensical."""
    if engine == "zensical":
        return site_own_files(*engine_theme_dirs(ROOT))
    if engine == "mkdocs":  # mkdocs is this process's own (tests/site/test_docs_untouched.py loads it here too)
        from mkdocs.config import load_config

        config = load_config(str(ROOT / "mkdocs.yml"))
        return site_own_files(map(Path, config.theme.dirs), Path(config.theme.custom_dir))
    # ProperDocs in a process of its own, as its command runs: properdocs.replacement makes mkdocs.* its modules.
    script = (f"import properdocs.replacement; import json; from properdocs.config import load_config; "
              f"c = load_config({str(ROOT / 'mkdocs.yml')!r}); print(json.dumps([c.theme.dirs, c.theme.custom_dir]))")
    out = subprocess.run([str(BIN / "python"), "-c", script], capture_output=True, text=True, check=True).stdout
    dirs, custom = json.loads(out.splitlines()[-1])
    return site_own_files(map(Path, dirs), Path(custom))


@pytest.fixture(scope="module")
def generated_paths() -> set[str]:
    texts, twins = split_twins(site_files(ff.FIXTURE_CATALOG))  # a twin's key holds its site path (site/twins.py)
    return {dest_of(rel, True) for rel in texts} | set(twins)


@pytest.mark.parametrize("builder", ["mkdocs", "other"])
def test_every_file_an_engine_writes_is_protected_from_docs(engine_site: tuple[str, Path], built_site: Path,
                                                          builder: str, generated_paths: set[str]) -> None:
    """Every file a build writes is a generated one or one the engine's shell protects from a hand-written file
    (docs/ holds only its README here): a new asset in overrides/, a theme's new file or an engine's new output
    that site_own_files misses fails here."""
    engine, site = ("mkdocs", built_site) if builder == "mkdocs" else engine_site
    written = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    own = _own_files(engine)
    assert written - generated_paths - set(own) == set(), engine
    assert {"assets/catalog.js", "assets/compare.js", "assets/catalog.css", "404.html", "sitemap.xml"} <= set(own)


# The preview loop under each engine's `make serve`.

LABEL_FILE = Path("catalog/versions/FAKE-1.1.yaml")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, OSError):
        return ""


POLL_S, ASK_S = 0.05, 0.3
"""While waiting, the engine's log is looked at every POLL_S (the size of a file) and the URL asked for as soon as
the log has grown (a line such as 'Serving on', 'Reloading browsers' or 'Reloading...': the engine has done
something), and at least every ASK_S in any case (an engine may write its last line before its files are served)."""


def _wait_for(url: str, test, what: str, log: Path, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    asked_at, size = 0.0, -1
    while True:
        now = log.stat().st_size
        if now != size or time.monotonic() - asked_at >= ASK_S:
            size, asked_at = now, time.monotonic()
            text = _get(url)
            if test(text):
                return text
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s:\n" + log.read_text()[-4000:]
        time.sleep(POLL_S)


@pytest.fixture(params=["mkdocs", *OTHER_ENGINES])
def serving(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, str, Path]]:
    engine, port = request.param, _free_port()
    project = _project(tmp_path / "project")
    lines = make_commands("serve", engine, f"PORT={port}", "HOST=127.0.0.1")
    assert any(engine in line for line in lines), lines
    log = tmp_path / "serve.log"
    with log.open("w", encoding="utf-8") as out:
        for line in lines[:-1]:  # the port check
            subprocess.run(line, shell=True, cwd=project, check=True, env=copy_env(project), stdout=out, stderr=out)
        proc = subprocess.Popen(shlex.split(lines[-1]), cwd=project, env=copy_env(project), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield project, f"http://127.0.0.1:{port}/", log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        subprocess.run(["pkill", "-f", f"127.0.0.1:{port}"], check=False)  # nothing outlives the test


def _feed_entry(feed: str, label: str) -> str:
    """The content of an operation feed's entry for `label` ('' when the feed has none or is not XML yet)."""
    try:
        root = ET.fromstring(feed)
    except ET.ParseError:
        return ""
    atom = "{http://www.w3.org/2005/Atom}"
    for entry in root.iter(f"{atom}entry"):
        if entry.findtext(f"{atom}title", "").endswith(f"under version label {label}"):
            return entry.findtext(f"{atom}content", "")
    return ""


@pytest.mark.serve
def test_every_engine_previews_an_edit_and_a_broken_catalogue(serving: tuple[Path, str, Path]) -> None:
    project, base, log = serving
    page = base + "versions/FAKE-1.1/"
    first = _wait_for(page, lambda t: "FAKE 1.1" in t, "the first page", log)
    path = project / LABEL_FILE
    good = path.read_text(encoding="utf-8")
    value = re.search(r"^(\s+)(/\S+): (close|unlimited)$", good, flags=re.M)
    assert value is not None
    other = "unlimited" if value.group(3) == "close" else "close"
    count = first.count(f"lock-{other}")
    # The readers beyond the browser are served beside the page: its Markdown twin, llms.txt (which links the
    # twin), llms-full.txt (which holds it) and the feed of the operation whose value is edited below.
    twin_url, full_url = page + "index.md", base + "llms-full.txt"
    twin = _wait_for(twin_url, lambda t: t.startswith("# Version label FAKE 1.1\n"), "the page's twin", log)
    _wait_for(base + "llms.txt", lambda t: t.startswith("# ") and "versions/FAKE-1.1/index.md" in t, "llms.txt", log)
    _wait_for(full_url, lambda t: twin.rstrip() in t, "the twin in llms-full.txt", log)
    at = ff.PATHS.index(value.group(2)) + 1
    feed_url = f"{base}operations/{ff.slug(value.group(2), at)}/feed.xml"
    _wait_for(feed_url, lambda t: "FAKE 1.0 to FAKE 1.1" in _feed_entry(t, "FAKE 1.1"), "the operation's feed", log)
    assert f"→ {other}" not in _feed_entry(_get(feed_url), "FAKE 1.1")

    # A valid edit reaches the page, its twin, llms-full.txt and the operation's feed.
    path.write_text(good[:value.start()] + f"{value.group(1)}{value.group(2)}: {other}" + good[value.end():],
                    encoding="utf-8")
    _wait_for(page, lambda t: t.count(f"lock-{other}") > count, "the edited value", log)
    edited = _wait_for(twin_url, lambda t: t.count(f"| {other} |") == twin.count(f"| {other} |") + 1,
                       "the edited value in the twin", log)
    _wait_for(full_url, lambda t: edited.rstrip() in t and twin.rstrip() not in t, "the edited twin in llms-full.txt",
              log)
    _wait_for(feed_url, lambda t: f"→ {other}" in _feed_entry(t, "FAKE 1.1"), "the edited value in the feed", log)

    # A broken catalogue: the last good page with the error, located, on it.
    path.write_text(good[:value.start()] + f"{value.group(1)}{value.group(2)}: closd" + good[value.end():],
                    encoding="utf-8")
    shown = _wait_for(page, lambda t: 'id="catalog-docs-errors"' in t, "the error banner", log)
    assert f"{LABEL_FILE.relative_to('catalog')}:" in shown and "closd" in shown
    assert "FAKE 1.1" in shown

    # Fixed: the banner goes.
    path.write_text(good, encoding="utf-8")
    _wait_for(page, lambda t: "FAKE 1.1" in t and 'id="catalog-docs-errors"' not in t, "the banner's removal", log)
    assert sorted(p.name for p in (project / "docs").iterdir()) == ["README.md"], "the preview wrote into docs/"


def test_every_engine_links_the_changelog_feed_from_every_page(engine_site: tuple[str, Path]) -> None:
    from test_changelog import assert_every_page_links_the_feed

    assert_every_page_links_the_feed(engine_site[1])
