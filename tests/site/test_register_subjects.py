"""Pages find the register item about a catalogue field by its `subject` (entry-path, entry-position, base-url),
never by its id: renaming those items in a copy of the fixture changes nothing on any page but the ids in
their links and anchors.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.render import render_pages
from fixture_facts import FIXTURE_CATALOG

RENAMED = {"base-url": "fake-host", "entry-7-path": "fake-route-gap", "entry-7-position": "fake-place-gap"}


def test_pages_key_register_items_on_their_subject_not_their_id(tmp_path: Path) -> None:
    folder = tmp_path / "catalog"
    shutil.copytree(FIXTURE_CATALOG, folder)
    register = folder / "not-shown.yaml"
    text = register.read_text(encoding="utf-8")
    for old, new in RENAMED.items():
        assert text.count(f"id: {old}\n") == 1, old
        text = text.replace(f"id: {old}\n", f"id: {new}\n")
    register.write_text(text, encoding="utf-8")

    before = render_pages(load_catalog(FIXTURE_CATALOG))
    after = render_pages(load_catalog(folder))
    assert before.keys() == after.keys()
    pages = [rel for rel in before if rel.endswith(".md")]
    linked = 0
    for rel in pages:
        expected = before[rel]
        for old, new in RENAMED.items():
            linked += expected.count(f"#{old}")
            expected = expected.replace(f"#{old}", f"#{new}")
        assert after[rel] == expected, rel
    assert linked > len(RENAMED)  # the items are linked from the pages, so the comparison shows something
    for rel in ("index.md", "sources/index.md", "operations/entry-7.md"):
        assert "#fake-host" in after[rel] or "#fake-route-gap" in after[rel], rel
    assert "#fake-place-gap" in after["operations/entry-7.md"]
