"""The plugin holds each generated text once: a download's text is let go once it is written into the site, a
page's once mkdocs has read it (issue 35: at 10,000 operations the texts were 600 MB held beside mkdocs' own)."""

from __future__ import annotations

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
