"""Every generated page leads back to its source: it links the catalogue file (and line, where one line starts its
fact) it comes from, as the site publishes it under /downloads/catalog/; with the repository's address configured
(REPO_URL, set the way SITE_URL is) also that file in the repository and its edit page, and none without it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import fixture_facts as ff
from catalog_docs.site.pages import site_files
from catalog_docs.site.tables import site_path

_SOURCE = re.compile(r"^<p>Source of this page: (.*)\.</p>$", re.MULTILINE)
_LINK = re.compile(r'<a href="([^"]*)">([^<]*)</a>')
REPO = "https://git.example.invalid/fake/catalog-docs"


def _pages(monkeypatch: pytest.MonkeyPatch, repo: str | None) -> dict[str, str]:
    if repo is None:
        monkeypatch.delenv("REPO_URL", raising=False)
    else:
        monkeypatch.setenv("REPO_URL", repo)
    return site_files(ff.FIXTURE_CATALOG)


def _entry_lines() -> dict[int, int]:
    """Where each listing entry starts in the fixture's listing.yaml, read off its text."""
    lines = (ff.FIXTURE_CATALOG / "listing.yaml").read_text(encoding="utf-8").splitlines()
    return {int(m.group(1)): i for i, line in enumerate(lines, start=1)
            if (m := re.match(r"  - position: (\d+)", line))}


def test_every_generated_page_links_its_catalogue_files_as_published(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _pages(monkeypatch, None)
    published = {p for p in files if p.startswith("downloads/catalog/")}
    # The catalogue's own files, byte for byte as in the folder.
    for p in published:
        assert files[p] == (ff.FIXTURE_CATALOG / p.removeprefix("downloads/catalog/")).read_text(encoding="utf-8")
    assert {"downloads/catalog/service.yaml", "downloads/catalog/listing.yaml", "downloads/catalog/not-shown.yaml",
            *(f"downloads/catalog/versions/{s}.yaml" for s in ff.LABEL_SLUGS.values())} == published
    pages = [p for p in files if p.endswith(".md") and not p.startswith("twin:")]  # the pages, not their twins
    assert len(pages) > 20
    for page in pages:
        notes = _SOURCE.findall(files[page])
        assert len(notes) == 1, page
        folder = site_path(page, directory_urls=True)  # the built page's folder: its links are HTML, not rewritten
        for target, _ in _LINK.findall(notes[0]):
            # Each link resolves, from the built page's URL, to a file the site publishes.
            resolved = (Path("/") / folder / target).resolve().relative_to("/").as_posix()
            assert resolved in published, (page, target)
        # No repository configured: no address is invented.
        assert "http" not in notes[0] and "/edit/" not in notes[0], page


def test_with_repo_url_a_page_links_its_file_and_line_in_the_repository_and_its_edit_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    files = _pages(monkeypatch, REPO + "/")
    starts = _entry_lines()
    for position, path in enumerate(ff.PATHS, start=1):
        note = _SOURCE.search(files[f"operations/{ff.slug(path, position)}.md"])
        assert note is not None
        links = dict((text, href) for href, text in _LINK.findall(note.group(1)))
        assert f"(from line {starts[position]})" in note.group(1)
        assert links["view it in the repository"] == f"{REPO}/blob/main/catalog/listing.yaml#L{starts[position]}"
        assert links["propose a change to it"] == f"{REPO}/edit/main/catalog/listing.yaml"
    version = _SOURCE.search(files[f"versions/{ff.LABEL_SLUGS[ff.LABELS[0]]}.md"])
    assert version is not None and f"{REPO}/edit/main/catalog/versions/{ff.LABEL_SLUGS[ff.LABELS[0]]}.yaml" in \
        version.group(1)


def test_a_repo_url_that_is_not_a_plain_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from catalog_docs.errors import CatalogDocsError
    with pytest.raises(CatalogDocsError, match=r"\$REPO_URL: expected a plain http\(s\) address"):
        _pages(monkeypatch, "javascript:alert(1)")
