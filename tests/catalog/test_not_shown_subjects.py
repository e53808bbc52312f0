"""A not-shown item's `subject` names the catalogue field it says is not given, and `check` refuses a catalogue that
gives that field anyway: the check keys on `subject`, never on the item's id. The messages themselves are golden
cases (tests/golden/*-while-not-shown/, version-marker-*, subject-scope-mismatch); these tests cover what a golden
case cannot: the base URL (the shipped schema keeps it null), renamed ids, and the model carrying the subject."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import fixture_facts as ff
from catalog_docs.catalog import validate
from catalog_docs.catalog.validate import SUBJECT_SCOPES, load_catalog
from catalog_docs.errors import CatalogInvalid, Problem
from catalog_docs.layout import SCHEMA_DIR

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    catalog = tmp_path / "catalog"
    shutil.copytree(ff.FIXTURE_CATALOG, catalog)
    return catalog


def _replace(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file.name}"
    file.write_text(text.replace(old, new), encoding="utf-8")


def _give_entry_7_a_path(catalog: Path) -> None:
    _replace(catalog / "listing.yaml", "    path: null\n    version_marker: {at: not-shown}\n",
             "    path: /fakeNewThing\n    version_marker: {at: none}\n")
    for version in sorted((catalog / "versions").glob("*.yaml")):
        version.write_text(version.read_text(encoding="utf-8").replace("entry-7:", "/fakeNewThing:"), encoding="utf-8")


def _problems(catalog: Path) -> list[Problem]:
    with pytest.raises(CatalogInvalid) as err:
        load_catalog(catalog)
    return err.value.problems


def test_the_subjects_are_the_ones_the_schema_lists() -> None:
    for schema_dir in (SCHEMA_DIR, ROOT / "catalog" / "schema"):
        schema = json.loads((schema_dir / "not-shown.schema.json").read_text(encoding="utf-8"))
        subject = schema["properties"]["items"]["items"]["properties"]["subject"]
        assert subject["enum"] == list(SUBJECT_SCOPES)
        for name in SUBJECT_SCOPES:
            assert name in subject["description"], f"the schema's description does not explain {name}"


def test_the_model_carries_each_subject() -> None:
    catalog = load_catalog(ff.FIXTURE_CATALOG)
    subjects = {n.id: n.subject for n in catalog.not_shown}
    assert subjects["base-url"] == "base-url"
    assert subjects["entry-7-path"] == "entry-path"
    assert subjects["entry-7-position"] == "entry-position"
    assert {s for i, s in subjects.items() if i not in ("base-url", "entry-7-path", "entry-7-position")} == {None}


@pytest.mark.real_catalog
def test_the_real_catalogue_says_which_items_are_checked() -> None:
    catalog = load_catalog(ROOT / "catalog")
    pathless = [e.position for e in catalog.entries if e.path is None]
    assert pathless, "the real catalogue has an entry without a path (§4)"
    for subject in ("entry-path", "entry-position"):
        named = {pos for n in catalog.not_shown if n.subject == subject for pos in n.entries}
        assert named == set(pathless), subject
    assert [n.id for n in catalog.not_shown if n.subject == "base-url"] == ["base-url"]


def test_a_renamed_item_is_still_checked(tmp_path: Path) -> None:
    """The old check keyed on an id ending in '-path': renaming the item silenced it."""
    catalog = _copy(tmp_path)
    _replace(catalog / "not-shown.yaml", "id: entry-7-path\n", "id: entry-seven-no-url\n")
    _replace(catalog / "not-shown.yaml", "id: entry-7-position\n", "id: entry-seven-place\n")
    _give_entry_7_a_path(catalog)
    found = [(p.key_path, p.found) for p in _problems(catalog)]
    assert found == [("not-shown.items[6].entries[1]", "entry 7, whose path is '/fakeNewThing' in listing.yaml"),
                     ("not-shown.items[7].entries[1]", "entry 7, whose path is '/fakeNewThing' in listing.yaml")]


def test_an_id_ending_in_path_means_nothing_without_a_subject(tmp_path: Path) -> None:
    catalog = _copy(tmp_path)
    _replace(catalog / "not-shown.yaml", "    subject: entry-path\n", "")
    _replace(catalog / "not-shown.yaml", "    subject: entry-position\n", "")
    _give_entry_7_a_path(catalog)
    assert load_catalog(catalog).entries[6].path == "/fakeNewThing"


def test_a_version_marker_item_accepts_entries_whose_marker_is_not_shown(tmp_path: Path) -> None:
    catalog = _copy(tmp_path)
    with (catalog / "not-shown.yaml").open("a", encoding="utf-8") as f:
        f.write("  - id: fake-marker\n    topic: Fake marker\n    detail: Where it sits.\n    section: \"§9\"\n"
                "    scope: entry\n    subject: version-marker\n    entries: [7]\n")
    loaded = load_catalog(catalog)
    assert [(n.id, n.subject, n.entries) for n in loaded.not_shown][-1] == ("fake-marker", "version-marker", (7,))


def test_a_base_url_given_while_the_register_says_it_is_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped schema keeps base_url null; loosened, the cross-check still refuses the contradiction."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMA_DIR, schemas)
    service_schema = json.loads((schemas / "service.schema.json").read_text(encoding="utf-8"))
    service_schema["properties"]["base_url"] = {"type": ["string", "null"]}
    (schemas / "service.schema.json").write_text(json.dumps(service_schema), encoding="utf-8")
    monkeypatch.setattr(validate, "SCHEMA_DIR", schemas)
    catalog = _copy(tmp_path)
    _replace(catalog / "service.yaml", "base_url: null\n", "base_url: https://fake.invalid/api\n")
    [problem] = _problems(catalog)
    assert problem.file.endswith("not-shown.yaml") and problem.key_path == "not-shown.items[5].subject"
    assert problem.expected == "base_url: null in service.yaml (the item says the base URL is not shown)"
    assert problem.found == "the base URL 'https://fake.invalid/api' in service.yaml"
    line = (catalog / "not-shown.yaml").read_text(encoding="utf-8").splitlines()[problem.line - 1]
    assert line[problem.column - 1:] == "base-url"
    # Without the subject, nothing says the base URL is not given: the loosened catalogue loads.
    _replace(catalog / "not-shown.yaml", "    subject: base-url\n", "")
    assert load_catalog(catalog).service.name
