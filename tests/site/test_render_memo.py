"""The preview loop's reuse (keys.PageMemo, validate.LoadCache) never shows a stale page: after any edit, the
files a warm render returns are exactly those of a fresh, cold render of the edited catalogue, file for file.

The warm side is what `mkdocs serve` runs after each save (pages.site_files with reuse): the catalogue loaded
through a LoadCache that saw the files before the edit, and rendered with the PageMemo of the render before.
The cold side is rendered once per module for each catalogue it is asked about (ColdRenders, by the bytes of the
catalogue's files); the synthetic catalogues are generated once per module and copied (Synths).
"""

from __future__ import annotations

import copy
import hashlib
import shutil
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs.authoring.synth import SynthSpec, synth_files
from catalog_docs.catalog.validate import LoadCache, load_catalog
from catalog_docs.site import pages
from catalog_docs.site.paging import PAGE_ROWS
from catalog_docs.site.render import PageMemo, render_pages
from catalog_edits import Docs, dump_doc, edited, load_doc, read_docs, version_file, write_docs
from fixture_facts import FIXTURE_CATALOG

BASE: Docs = read_docs(FIXTURE_CATALOG)
FLIPPED = PAGE_ROWS + 10
"""The entry whose value the one-value tests flip: on the second page of every table of the synthetic catalogues."""
TWO_PAGES = FLIPPED + 2
"""Operations enough for that entry and one after it, no more: a table's second page is what the memo's paths
must keep apart from its first, and every operation adds pages of its own to each render."""


class ColdRenders:
    """The cold render (a fresh load, no memo) of a catalogue folder, kept for the last few catalogues by the bytes
    of their files and the URL style: the same files render the same wherever the folder is, so the tests that
    start from the same catalogue (each parametrization, each random example's first render) share its render."""

    KEPT = 12

    def __init__(self) -> None:
        self._renders: OrderedDict[bytes, dict[str, str]] = OrderedDict()

    def __call__(self, folder: Path, *, directory_urls: bool) -> dict[str, str]:
        digest = hashlib.sha256(repr(directory_urls).encode())
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            for part in (path.relative_to(folder).as_posix().encode(), path.read_bytes()):
                digest.update(len(part).to_bytes(8, "big") + part)
        key = digest.digest()
        if key not in self._renders:
            self._renders[key] = render_pages(load_catalog(folder), workers=1, directory_urls=directory_urls)
            while len(self._renders) > self.KEPT:
                self._renders.popitem(last=False)
        self._renders.move_to_end(key)
        return self._renders[key]


class Synths:
    """Synthetic catalogues whose tables run over two pages (operations, matrix, versions, plans), generated once
    per module for each size and copied into a test's own folder."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._made: dict[int, Path] = {}
        self._docs: dict[int, Docs] = {}

    def copy(self, tmp_path: Path, operations: int = TWO_PAGES) -> Path:
        return Path(shutil.copytree(self._source(operations), tmp_path / "synth"))

    def docs(self, operations: int) -> Docs:
        """The catalogue's parsed files (not to be changed: catalog_edits' edits work on a copy)."""
        if operations not in self._docs:
            self._docs[operations] = read_docs(self._source(operations))
        return self._docs[operations]

    def _source(self, operations: int) -> Path:
        if operations not in self._made:
            source = self._root / f"synth-{operations}"
            for rel, text in synth_files(SynthSpec(operations=operations, versions=4, plans=3, seed=3)).items():
                (source / rel).parent.mkdir(parents=True, exist_ok=True)
                (source / rel).write_text(text, encoding="utf-8")
            # In the layout _flip_one_value writes, so an edit moves no line (operation pages show where entries
            # start).
            write_docs(read_docs(source), source)
            self._made[operations] = source
        return self._made[operations]


@pytest.fixture(scope="module")
def cold() -> ColdRenders:
    return ColdRenders()


@pytest.fixture(scope="module")
def synths(tmp_path_factory: pytest.TempPathFactory) -> Synths:
    return Synths(tmp_path_factory.mktemp("render-memo-synths"))


def _same_as_cold(folder: Path, memo: PageMemo, cache: LoadCache, cold: ColdRenders, *,
                  directory_urls: bool = True, after: object = "the edit") -> dict[str, str]:
    warm = render_pages(load_catalog(folder, cache=cache), memo=memo, workers=1, directory_urls=directory_urls)
    fresh = cold(folder, directory_urls=directory_urls)
    assert list(warm) == list(fresh), after
    stale = [path for path in fresh if warm[path] != fresh[path]]
    assert not stale, f"stale after {after}: {stale}"
    return warm


def test_a_line_added_above_the_listing_rerenders_the_operation_pages_alone(tmp_path: Path, synths: Synths) -> None:
    # An operation page names the line its entry starts on; no other page shows a line, so no other is made again.
    folder = synths.copy(tmp_path, 60)
    reuse = pages.Reuse()
    pages.site_files(folder, reuse=reuse)
    memo = reuse.pages
    listing = folder / "listing.yaml"
    listing.write_text("# a comment line: every entry starts a line later\n" + listing.read_text(encoding="utf-8"),
                       encoding="utf-8")
    second = pages.site_files(folder, reuse=reuse)
    assert second == pages.site_files(folder), "a reused page kept its old line"
    remade = memo.produced
    operations = sum(1 for path in second if path.startswith("operations/") and path.count("/") == 1
                     and path != "operations/index.md")
    assert 0 < operations <= remade < memo.reused, (operations, remade, memo.reused)


def _flip_one_value(folder: Path, label_index: int, entry_index: int) -> str:
    """Flip one value of the label's first plan entry. Only that label's file is parsed and written again, in the
    layout write_docs writes, so no other file and no line moves."""
    path = folder / "versions" / version_file(load_doc(folder / "service.yaml")["version_labels"][label_index])
    version = load_doc(path)
    values = next(iter(version["plans"].values()))["values"]
    key = list(values)[entry_index]
    values[key] = "close" if values[key] == "unlimited" else "unlimited"
    path.write_bytes(dump_doc(version))
    return key


def test_one_value_edited_renders_as_fresh_and_reuses_the_rest(tmp_path: Path, synths: Synths,
                                                               cold: ColdRenders) -> None:
    """A value flipped under the first, the second and the last label, each flipped back before the next: one
    memo and cache go through all of them, as a preview goes through saves."""
    folder = synths.copy(tmp_path)
    memo, cache = PageMemo(), LoadCache()
    first = _same_as_cold(folder, memo, cache, cold)
    for label_index in (0, 1, -1):
        _flip_one_value(folder, label_index, FLIPPED)
        hits = cache.parsed.hits
        _same_as_cold(folder, memo, cache, cold, after=f"a value flipped under label {label_index}")
        assert memo.reused > len(first) * 0.9, (label_index, memo.reused, memo.produced)
        assert cache.parsed.hits - hits >= 4, label_index  # every file but the edited version file
        # ... and back: the memo now holds the edited pages
        _flip_one_value(folder, label_index, FLIPPED)
        assert _same_as_cold(folder, memo, cache, cold, after=f"flipping it back ({label_index})") == first


@pytest.mark.parametrize("start", ["render in one process", "render in two processes"])
def test_the_downloads_parts_are_kept_for_the_next_edit(tmp_path: Path, synths: Synths, cold: ColdRenders,
                                                         monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    """After a keyed render, wherever its downloads were produced (this process, the forked child), the memo
    holds each plan entry's part of catalog.json and each path item of openapi.yaml: one edited value then builds the
    document's head and one path item, not all."""
    from catalog_docs.site import download_parts

    folder = synths.copy(tmp_path)
    memo, cache = PageMemo(), LoadCache()
    catalog = load_catalog(folder, cache=cache)
    render_pages(catalog, memo=memo, workers=1 if "one" in start else 2)
    # The head, each label's part and each plan entry's part.
    assert len(memo.json_plans) == 1 + len(catalog.versions) + sum(len(v.plans) for v in catalog.versions)
    assert len(memo.openapi_paths) == sum(e.path is not None for e in catalog.entries)
    # The value test_one_value_edited_renders_as_fresh_and_reuses_the_rest flips under the last label: the cold
    # render it is held to is the one that test made (ColdRenders), when this test runs after it, as it does.
    _flip_one_value(folder, -1, FLIPPED)
    made: list[object] = []
    real = download_parts.to_yaml_plain
    monkeypatch.setattr(download_parts, "to_yaml_plain", lambda *a, **k: made.append(a) or real(*a, **k))
    warm = render_pages(load_catalog(folder, cache=cache), memo=memo, workers=1)
    assert len(made) == 2, "the head and the edited entry's path item"
    assert warm == cold(folder, directory_urls=True)


def _edit(docs: Docs, what: str) -> Docs:
    out = copy.deepcopy(docs)
    if what == "label name":
        labels = out["service"]["version_labels"]
        old, new = labels[1], labels[1] + " renamed"
        labels[1] = new
        version = out["versions"].pop(old)
        version["label"] = new
        out["versions"][new] = version
    elif what == "area name":
        out["service"]["areas"][0]["name"] = "Fake renamed handling"
    elif what == "register item text":
        items = out["register"]["items"]
        item = next((i for i in items if i["scope"] == "entry"), items[0])
        item["detail"] = "A fake detail, edited."
    elif what == "register item topic":
        out["register"]["items"][-1]["topic"] = "Fake topic, edited"
    elif what == "plan entry source":
        version = out["versions"][out["service"]["version_labels"][-1]]
        next(iter(version["plans"].values()))["source"] = "§8 rule 3"
    elif what == "entry source":
        out["listing"]["entries"][2]["source"] = "§4 rule 3"
    elif what == "value":
        label = out["service"]["version_labels"][0]
        plan = next(iter(out["versions"][label]["plans"].values()))
        key = next(iter(plan["values"]))
        plan["values"][key] = "close" if plan["values"][key] == "unlimited" else "unlimited"
    else:  # pragma: no cover
        raise AssertionError(what)
    return out


EDITS = ["value", "label name", "area name", "register item text", "register item topic", "plan entry source",
         "entry source"]


@pytest.mark.parametrize("directory_urls", [True, False])
def test_each_kind_of_edit_renders_as_fresh(tmp_path: Path, synths: Synths, cold: ColdRenders,
                                            directory_urls: bool) -> None:
    """Each kind of edit in turn, on top of the ones before (each render's memo holds the pages of the catalogue
    just before the one edit), on the fixture catalogue and on a synthetic one."""
    for name, base in (("fixture", BASE), ("synth", synths.docs(60))):
        folder = tmp_path / f"{name}-catalog"
        docs = base
        write_docs(docs, folder)
        memo, cache = PageMemo(), LoadCache()
        before = _same_as_cold(folder, memo, cache, cold, directory_urls=directory_urls)
        for what in EDITS:
            docs = _edit(docs, what)
            write_docs(docs, folder)
            after = _same_as_cold(folder, memo, cache, cold, directory_urls=directory_urls,
                                  after=f"the {what} edit ({name})")
            assert before != after, f"{what}: the edit changed no file ({name})"
            before = after


@dataclass(frozen=True, slots=True)
class Warm:
    """One folder, memo and cache for every example: an example's renders start from the pages the one before left."""

    folder: Path
    memo: PageMemo = field(default_factory=PageMemo)
    cache: LoadCache = field(default_factory=LoadCache)


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Warm:
    # Under pytest's temporary folder, which pytest prunes, not one of the system's own left behind by every run.
    return Warm(tmp_path_factory.mktemp("render-memo") / "catalog")


@pytest.mark.slow  # 60 random runs of edits, each rendered twice
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_render_as_fresh(cold: ColdRenders, warm: Warm, data: st.DataObject) -> None:
    """Any of the maintainer's edits (catalog_edits.EDITS: entries, labels, plan entries, areas, register items,
    texts, values), one to three at a time, each followed by a warm render."""
    # Every edit is drawn before the first render: an example Hypothesis gives up on while drawing costs no render.
    steps = [BASE]
    for _ in range(data.draw(st.integers(1, 2))):
        steps.append(edited(steps[-1], data, 1, 3)[0])
    for docs in steps:
        write_docs(docs, warm.folder)
        _same_as_cold(warm.folder, warm.memo, warm.cache, cold)


def test_site_files_reuses_across_calls_and_starts_afresh_when_the_code_changes(
        tmp_path: Path, synths: Synths, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = synths.copy(tmp_path, 60)
    reuse = pages.Reuse()
    first = pages.site_files(folder, reuse=reuse)
    memo = reuse.pages
    _flip_one_value(folder, 0, 3)
    second = pages.site_files(folder, reuse=reuse)
    assert reuse.pages is memo and 0 < memo.produced < memo.reused
    assert second != first and second == pages.site_files(folder)
    monkeypatch.setattr(pages, "code_digest", lambda: b"other code")
    _flip_one_value(folder, 0, 3)
    pages.site_files(folder, reuse=reuse)
    assert reuse.pages is not memo and reuse.pages.reused == 0


def test_catalog_json_from_parts_is_the_whole_text(tmp_path: Path) -> None:
    """The keyed catalog.json (each plan entry's part kept) equals to_json(catalog_data(...)), also when catalogue
    text looks like the JSON it is spliced into."""
    from catalog_docs.downloads.export import catalog_data
    from catalog_docs.serialize import to_json
    from catalog_docs.site.download_parts import catalog_json_parts
    from catalog_docs.site.keys import Digests

    docs = copy.deepcopy(BASE)
    docs["service"]["summary"] = 'A fake summary with "versions": [] and\n  "versions": [] in it.'
    docs["service"]["name"] = '"versions": []'
    folder = write_docs(docs, tmp_path / "catalog")
    memo = PageMemo()
    for edit in ("none", "value", "label name"):
        if edit != "none":
            docs = _edit(docs, edit)
            write_docs(docs, folder)
        catalog = load_catalog(folder)
        parts = catalog_json_parts(catalog, memo, Digests(catalog, True))
        assert "".join(parts) == to_json(catalog_data(catalog)), edit
