"""A preview rebuild (`mkdocs serve --dirty`, run here in process as the server runs it): one edited value rebuilds
the pages that show it, and the pages it does not change keep their built HTML (plugin.GeneratedFile.unchanged) and
their file and page objects (the session's `files`: mkdocs makes a page only for a file without one)."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from catalog_docs.devtools.bench import _flip_value
from catalog_docs.site.twins import split_twins
from fixture_facts import FIXTURE_CATALOG
from sitebuild import copy_project

SERVE_URL = "http://127.0.0.1:8000/"


def _locations(site: Path) -> Counter[str]:
    """How many entries the search index holds at each address (a page's, or a section's)."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return Counter(entry["location"] for entry in index["docs"])


def _config(project: Path) -> Any:
    config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(project / "site"), strict=False)
    config.site_url = SERVE_URL
    return config


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A project copy with the fixture catalogue, the plugin told it serves (as on_startup tells it), built once
    as the server builds it first. Each test rebuilds it from where the one before left it, a built site the
    session knows (the server's own life: one first build, then rebuilds), but the last: the failed rebuild
    leaves the session as the server has it after a failure. The process-wide state this touches (the session's
    log filter, the collector) is put back after the module (on_shutdown)."""
    project = copy_project(tmp_path_factory.mktemp("serve") / "project", FIXTURE_CATALOG)
    first = _config(project)
    first.plugins.on_startup(command="serve", dirty=True)
    try:
        build(first, serve_url=SERVE_URL, dirty=True)
        yield project, first
    finally:
        first.plugins.on_shutdown()


def test_an_edit_rebuilds_its_pages_and_keeps_the_others(serving: Any, caplog: pytest.LogCaptureFixture) -> None:
    project, first = serving
    ours = first.plugins["catalog-docs"]
    site = project / "site"
    op = "operations/fakeWidgetList.md"
    untouched = "operations/fakeWidgetCreate.md"
    op_html = site / "operations" / "fakeWidgetList" / "index.html"
    untouched_html = site / "operations" / "fakeWidgetCreate" / "index.html"
    old_op, old_untouched = op_html.read_text(encoding="utf-8"), untouched_html.stat().st_mtime_ns
    op_twin, untouched_twin = (site / "operations" / op / "index.md" for op in ("fakeWidgetList", "fakeWidgetCreate"))
    old_op_twin, old_untouched_twin = op_twin.read_text(encoding="utf-8"), untouched_twin.stat().st_mtime_ns
    catalog_json = site / "downloads" / "catalog.json"
    old_json = json.loads(catalog_json.read_text(encoding="utf-8"))
    before_index = _locations(site)
    before_files = dict(ours._session.files)

    version = project / "catalog" / "versions" / "FAKE-2.0.yaml"
    version.write_text(_flip_value(version.read_text(encoding="utf-8"), "/fakeWidgetList"), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        build(_config(project), serve_url=SERVE_URL, dirty=True)  # the server loads the config again per rebuild

    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert op_html.read_text(encoding="utf-8") != old_op  # the edited value's page is rebuilt
    new_json = json.loads(catalog_json.read_text(encoding="utf-8"))
    assert new_json != old_json and new_json.keys() == old_json.keys()  # whole, with the edited value
    assert untouched_html.stat().st_mtime_ns == old_untouched  # and a page it does not show is not
    assert op_twin.read_text(encoding="utf-8") != old_op_twin  # nor is a twin: the edited page's is written again
    assert untouched_twin.stat().st_mtime_ns == old_untouched_twin  # and another page's is not
    last = ours._session.last
    assert op in last and untouched in last
    after_files = ours._session.files
    assert after_files[untouched] is before_files[untouched]  # taken again, with its page
    assert after_files["twin:operations/fakeWidgetCreate/index.md"] is before_files[
        "twin:operations/fakeWidgetCreate/index.md"]  # and its twin's file
    assert after_files[op] is not before_files[op]  # its text changed: made afresh
    assert after_files["downloads/catalog.json"] is not before_files["downloads/catalog.json"]
    taken = {rel for rel, file in after_files.items() if file is before_files.get(rel)}
    assert 0 < len(taken) < len(after_files)

    # The search index still has every section of every page, once (the theme's own merge dropped every operation
    # page's entries when the operations table was rebuilt, and listed other rebuilt pages twice).
    after_index = _locations(site)
    assert after_index == before_index
    assert after_index["operations/fakeWidgetCreate/"] == 1

    # Every page is still in the sitemap, kept or rebuilt.
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    pages = [rel for rel in split_twins(last)[0] if rel.endswith(".md")]
    assert sitemap.count("<loc>") >= len(pages)
    assert f"{SERVE_URL}operations/fakeWidgetCreate/" in sitemap


def test_a_page_whose_built_html_is_gone_is_built_again(serving: Any) -> None:
    """...whole, though its file (taken again, its text unchanged) let the text go after the last build read it;
    so are a download and a twin."""
    project, first = serving
    ours = first.plugins["catalog-docs"]
    gone = project / "site" / "operations" / "fakeWidgetCreate" / "index.html"
    download = project / "site" / "downloads" / "catalog.json"
    whole, old_page = download.read_bytes(), gone.read_text(encoding="utf-8")
    before = dict(ours._session.files)
    twin = project / "site" / "operations" / "fakeWidgetCreate" / "index.md"
    old_twin = twin.read_bytes()
    for path in (gone, download, twin):
        path.unlink()
    build(_config(project), serve_url=SERVE_URL, dirty=True)
    assert ours._session.files["operations/fakeWidgetCreate.md"] is before["operations/fakeWidgetCreate.md"]
    assert gone.read_text(encoding="utf-8") == old_page
    assert download.read_bytes() == whole
    assert twin.read_bytes() == old_twin


def test_a_rebuild_compiles_only_the_templates_whose_source_changed(serving: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdocs makes a new template environment for every build; the server's earlier builds compiled the theme, so
    a rebuild compiles none of it again (the session's bytecode cache hands Jinja the code) but an override edited
    while serving, compiled from its new source, which the built page then shows."""
    project, first = serving
    compiled = first.plugins["catalog-docs"]._session.compiled
    dumped: list[str] = []
    taken: list[str] = []
    dump, load = compiled.dump_bytecode, compiled.load_bytecode
    monkeypatch.setattr(compiled, "dump_bytecode", lambda bucket: (dumped.append(bucket.key), dump(bucket)))
    monkeypatch.setattr(compiled, "load_bytecode", lambda bucket: (load(bucket), bucket.code and taken.append(
        bucket.key)))
    override = project / "overrides" / "layouts" / "404.html"
    old = override.read_text(encoding="utf-8")
    override.write_text(old.replace("{% block content %}", "{% block content %}<p id=edited-while-serving></p>", 1),
                        encoding="utf-8")
    try:
        build(_config(project), serve_url=SERVE_URL, dirty=True)
    finally:
        override.write_text(old, encoding="utf-8")
    # Jinja hands a template to the cache only when it compiled it: the edited override alone
    assert len(dumped) == 1 and dumped[0] not in taken, (dumped, taken)
    assert len(taken) > 10  # the theme's templates, the other overrides among them, each taken as compiled before
    assert "edited-while-serving" in (project / "site" / "404.html").read_text(encoding="utf-8")


def test_a_download_that_cannot_be_written_fails_the_rebuild_naming_it(serving: Any,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    """The module's last test (see `serving`)."""
    project, _first = serving
    target = project / "site" / "downloads" / "catalog.json"
    target.unlink()
    target.mkdir()  # in the way of the file
    version = project / "catalog" / "versions" / "FAKE-2.0.yaml"
    version.write_text(_flip_value(version.read_text(encoding="utf-8"), "/fakeWidgetList"), encoding="utf-8")
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):  # as mkdocs stops on a plugin's error
        build(_config(project), serve_url=SERVE_URL, dirty=True)
    assert re.search(r"downloads/catalog\.json could not be written: .*catalog\.json is a folder where a file should "
                     r"be", caplog.text)
