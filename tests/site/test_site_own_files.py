"""A hand-written file never takes the place of a file the site writes itself: its assets (overrides/ and the
theme's), the generated pages and downloads (feed.xml, moved.json...), the search index, the sitemap, the 404 page.
Nor does one whose path equals one of those after case folding and Unicode normalisation (one file on a
case-insensitive disk), or that needs a folder where the site writes a file (or the other way round). Each stops
the build naming both (site/handwritten.py refuse_collisions, given site_own_files by every engine's shell).

Which files the site writes of its own is derived from the theme folders; tests/site/test_engines.py holds it to
what every engine really writes."""

from __future__ import annotations

import shutil
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import BUILD_ROOT
from catalog_docs.site.compare_pages import MOVED_LOOKUP
from catalog_docs.site.handwritten import ENGINE_OUTPUTS, dest_of, folded, refuse_collisions, site_own_files
from catalog_docs.site.plugin import CatalogDocsPlugin
from catalog_docs.site.watch import build, engine_theme_dirs
from fixture_facts import FIXTURE_CATALOG
from sitebuild import ROOT

OWN = site_own_files(*engine_theme_dirs(ROOT))
MKDOCS_CONFIG = load_config(str(ROOT / "mkdocs.yml"))
MKDOCS_OWN = site_own_files(map(Path, MKDOCS_CONFIG.theme.dirs), Path(MKDOCS_CONFIG.theme.custom_dir))


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    from catalog_docs.site.pages import site_files

    return site_files(FIXTURE_CATALOG)


def _refusal(generated: dict[str, str], hand: list[str], own: dict[str, str] = OWN) -> list[str]:
    with pytest.raises(CatalogDocsError) as info:
        refuse_collisions(generated, hand, True, own=own)
    lines = str(info.value).splitlines()
    assert lines[-1] == "nothing was built" and len(lines) == len(hand) + 1
    return lines[:-1]


def test_every_asset_and_fixed_output_of_the_site_is_protected() -> None:
    for asset in sorted((ROOT / "overrides" / "assets").iterdir()):
        assert OWN[f"assets/{asset.name}"] == f"the site writes itself (from overrides/assets/{asset.name})"
        assert MKDOCS_OWN[f"assets/{asset.name}"] == OWN[f"assets/{asset.name}"]
    for own in (OWN, MKDOCS_OWN):
        assert set(ENGINE_OUTPUTS) <= set(own)
        assert any(rel.startswith("assets/javascripts/bundle.") for rel in own)  # the theme's own script
    assert not any(rel.endswith((".html", ".py")) and rel != "404.html" for rel in OWN | MKDOCS_OWN)


def test_a_new_asset_is_protected_as_soon_as_it_is_there(tmp_path: Path) -> None:
    overrides = tmp_path / "overrides"
    shutil.copytree(ROOT / "overrides", overrides)
    (overrides / "assets" / "fonts").mkdir()
    (overrides / "assets" / "fonts" / "new.woff2").write_bytes(b"\0")
    own = site_own_files([overrides], overrides)
    assert own["assets/fonts/new.woff2"] == "the site writes itself (from overrides/assets/fonts/new.woff2)"
    assert "main.html" not in own and "partials/toc.html" not in own  # templates are not copied as they are


def test_a_file_at_an_asset_or_output_path_is_refused_naming_both(generated: dict[str, str]) -> None:
    hand = ["assets/catalog.js", "assets/compare.js", "404.html", "search/search_index.json", "search.json",
            "sitemap.xml", "sitemap.xml.gz", "feed.xml", "downloads/catalog.json", "downloads/diff.schema.json"]
    lines = _refusal(generated, hand)
    assert lines[0] == ("docs/assets/catalog.js is hand-written at assets/catalog.js, which the site writes itself "
                        "(from overrides/assets/catalog.js): rename or move the hand-written file")
    assert lines[3].startswith("docs/search/search_index.json is hand-written at search/search_index.json, which the "
                               "site writes itself (the search index of mkdocs and ProperDocs)")
    assert lines[7] == ("docs/feed.xml is hand-written at feed.xml, which the catalogue generates (its page feed.xml): "
                        "rename or move the hand-written file")
    assert all(line.startswith(f"docs/{rel} is hand-written at {rel}, which ") for rel, line in zip(hand, lines,
                                                                                                     strict=True))


def test_the_compare_pages_lookup_is_protected() -> None:
    generated = {"compare/a...b/index.md": "", f"compare/a...b/{MOVED_LOOKUP}": "{}"}
    [line] = _refusal(generated, [f"compare/a...b/{MOVED_LOOKUP}"])
    assert f"which the catalogue generates (its page compare/a...b/{MOVED_LOOKUP})" in line


def test_a_url_equal_but_for_case_or_unicode_form_is_refused(generated: dict[str, str]) -> None:
    hand = ["Operations/index.md", "LEGEND.md", "\u017fources/index.md", "Assets/Catalog.JS",
            "Downloads/Catalog.json"]  # U+017F LATIN SMALL LETTER LONG S folds to s
    lines = _refusal(generated, hand)
    assert lines[0] == ("docs/Operations/index.md is hand-written at Operations/index.html, which differs only in case "
                        "or Unicode form from operations/index.html, which the catalogue generates (its page "
                        "operations/index.md): rename or move the hand-written file")
    assert "from sources/index.html, which the catalogue generates" in lines[2]
    assert "from assets/catalog.js, which the site writes itself (from overrides/assets/catalog.js)" in lines[3]


def test_a_file_where_the_site_needs_a_folder_or_the_other_way_round_is_refused(generated: dict[str, str]) -> None:
    lines = _refusal(generated, ["feed.xml/index.md", "assets", "search", "Downloads"])
    assert lines[0] == ("docs/feed.xml/index.md is hand-written at feed.xml/index.html, which needs a folder where "
                        "feed.xml is, which the catalogue generates (its page feed.xml): rename or move the "
                        "hand-written file")
    assert lines[1].startswith("docs/assets is hand-written at assets, where assets/")
    assert lines[3].startswith("docs/Downloads is hand-written at Downloads, where downloads/")


def test_files_beside_the_sites_own_are_built(generated: dict[str, str]) -> None:
    refuse_collisions(generated, ["about.md", "operations/notes.md", "assets/extra.css", "assets/images/logo.svg",
                                  "downloads/README.txt", "search/help.md", "l\u00e9gend.md", "feeds.xml"], True,
                      own=OWN)


FOLDS_TO = {"s": ["S", "\u017f"], "k": ["K", "\u212a"]}
"""Other spellings of a letter that fold to it: U+017F LATIN SMALL LETTER LONG S, U+212A KELVIN SIGN."""


@given(st.data())
def test_every_spelling_of_a_path_the_site_writes_is_refused(generated: dict[str, str], data: st.DataObject) -> None:
    """For any file the site writes (generated or its own) and any spelling of its path that a case-insensitive,
    normalising disk takes as the same file, a hand-written file there stops the build naming the site's file."""
    target = data.draw(st.sampled_from(sorted({dest_of(rel, True) for rel in generated} | set(OWN))))
    picks = data.draw(st.lists(st.integers(0, 2), min_size=len(target), max_size=len(target)))
    spellings = [[c, *FOLDS_TO.get(c, [c.upper()])] for c in target]
    spelt = "".join(ways[pick % len(ways)] for ways, pick in zip(spellings, picks, strict=True))
    form = data.draw(st.sampled_from(["NFC", "NFD", "NFKC", None]))
    spelt = unicodedata.normalize(form, spelt) if form else spelt
    assert folded(spelt) == folded(target)
    [line] = _refusal(generated, [spelt])
    if spelt == target:
        assert line.startswith(f"docs/{target} is hand-written at {target}, which the ")
    else:
        assert f"which differs only in case or Unicode form from {target}, which the " in line, line


@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_every_engine_refuses_a_shadowed_asset_before_anything_is_built(tmp_path: Path, engine: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    shutil.copy2(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(ROOT / "overrides", project / "overrides")
    (project / "scripts" / "catalog_docs" / "site" / "templates").mkdir(parents=True)  # mkdocs.yml's watch: needs it
    (project / "docs" / "assets").mkdir(parents=True)
    (project / "docs" / "assets" / "catalog.js").write_text("location = 'https://x.invalid/'\n", encoding="utf-8")
    expected = ("docs/assets/catalog.js is hand-written at assets/catalog.js, which the site writes itself (from "
                "overrides/assets/catalog.js): rename or move the hand-written file")
    if engine == "zensical":
        marker = tmp_path / "ran"
        with pytest.raises(CatalogDocsError) as info:
            build(project / "catalog", project / "docs", [sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
        assert not marker.exists() and not (project / BUILD_ROOT).exists()
        assert str(info.value).splitlines() == [expected, "nothing was built"]
        return
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    plugin = CatalogDocsPlugin()
    with pytest.raises(PluginError) as caught:
        plugin.on_pre_build(config=plugin.on_config(config))
    plugin.on_build_error(error=caught.value)  # as mkdocs does: the downloads' temporary folder goes
    assert str(caught.value).splitlines() == [expected, "nothing was built"]
