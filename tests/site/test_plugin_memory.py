"""The plugin holds each generated text once: a download's text is let go once it is written into the site, a
page's once mkdocs has read it (issue 35: at 10,000 operations the texts were 600 MB held beside mkdocs' own)."""

from __future__ import annotations

import gc
from pathlib import Path

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


def test_a_preview_keeps_its_long_lived_state_out_of_every_later_collection(tmp_path: Path) -> None:
    """Under serve the session keeps the last render for the next edit; a full collection during a rebuild would
    walk all of it. After a good render it is frozen (gcpause.keep_long_lived), and the session gives every object
    back to the collector when the server stops."""
    from catalog_docs.site.preview import PreviewSession
    from fixture_facts import FIXTURE_CATALOG

    session = PreviewSession(dirty=False)
    try:
        texts = session.render(FIXTURE_CATALOG, True, tmp_path)
        assert texts and session.good is texts and not session.errors
        assert gc.get_freeze_count() > 0
        tracked = {id(o) for o in gc.get_objects()}
        assert id(texts) not in tracked and id(session.reuse.pages.pages) not in tracked
    finally:
        session.close()
    assert gc.get_freeze_count() == 0
