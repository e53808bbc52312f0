"""The plugin holds each generated text once: a download's text is let go once it is written into the site, a
page's once mkdocs has read it (issue 35: at 10,000 operations the texts were 600 MB held beside mkdocs' own)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from catalog_docs.site.plugin import GeneratedFile


def _generated(path: str, text: str, site: Path) -> GeneratedFile:
    """A generated file as File.generated makes it in the plugin's on_files (in memory, no source folder)."""
    file = GeneratedFile(path, src_dir=None, dest_dir=str(site), use_directory_urls=True)
    file.content_string = text
    return file


def test_a_download_is_written_whole_then_let_go(tmp_path: Path) -> None:
    text = '{"versions": []}\n' * 1000
    file = _generated("downloads/catalog.json", text, tmp_path / "site")
    file.copy_file()
    assert (tmp_path / "site" / "downloads" / "catalog.json").read_text(encoding="utf-8") == text
    assert file.content_bytes == b""


def test_a_page_lets_its_text_go_once_read(tmp_path: Path) -> None:
    file = _generated("operations/x.md", "---\ntitle: X\n---\n# X\n", tmp_path / "site")
    assert file.content_string.startswith("---")
    file.release()
    assert file.content_string == ""


def test_a_preview_rebuild_runs_without_cyclic_collection_and_collects_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under serve the plugin keeps the last render for the next edit; a full collection during a rebuild would
    walk all of it. Collection is off from pre_build until shortly after post_build (not at once: the first
    allocation would walk the rebuild's young objects before the page is served), then back on, with one collection."""
    from catalog_docs.site import plugin, preview

    collected: list[int] = []
    monkeypatch.setattr(plugin, "GC_AFTER_REBUILD_S", 0.01)
    monkeypatch.setattr(plugin.gc, "collect", lambda *a: collected.append(1) or 0)
    was = gc.isenabled()
    try:
        preview.start(command="serve", dirty=True)
        plugin._pause_gc_while_serving()
        assert not gc.isenabled()
        monkeypatch.setattr(plugin, "GC_AFTER_REBUILD_S", 60)
        plugin._collect_after_serving()
        assert not gc.isenabled()  # still off right after the build
        plugin._pause_gc_while_serving()  # the next rebuild cancels the pending collection
        assert not plugin._gc_timer
        monkeypatch.setattr(plugin, "GC_AFTER_REBUILD_S", 0.01)
        plugin._collect_after_serving()
        for timer in plugin._gc_timer:
            timer.join(5)
        assert gc.isenabled()
        assert collected == [1]
        gc.disable()
        preview.start(command="build", dirty=False)  # a build leaves collection alone
        gc.disable()
        plugin._collect_after_serving()
        assert not gc.isenabled()
    finally:
        preview.start(command="build", dirty=False)
        if was:
            gc.enable()
