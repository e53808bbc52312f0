"""Exports: catalog.json, the lock-matrix CSV (round-trips to the model) and a valid OpenAPI 3.1 document.

They run on the fixture catalogue (tests/fixture-catalog/) and the fake catalogues, never on the real one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate

from catalog_docs import cli
from catalog_docs.export import catalog_data, export_text, lock_matrix_csv, openapi_data, read_lock_matrix
from catalog_docs.model import Catalog
from catalog_docs.render import render_pages
from catalog_docs.validate import load_catalog
import fixture_facts as ff
from fake_catalogs import FAKE_SPECS, write_catalog

FIXTURE = ff.FIXTURE_CATALOG


@pytest.fixture(scope="module", params=["fixture", *FAKE_SPECS])
def catalog(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    if request.param == "fixture":
        return load_catalog(FIXTURE)
    return load_catalog(write_catalog(tmp_path_factory.mktemp("fake") / "catalog", FAKE_SPECS[request.param]))


def test_lock_matrix_round_trips_to_the_model(catalog: Catalog) -> None:
    back = read_lock_matrix(lock_matrix_csv(catalog))
    assert back["entries"] == [(e.position, e.method, e.path) for e in catalog.entries]
    assert back["values"] == {(v.label, p.name): p.values for v in catalog.versions for p in v.plans}


def test_lock_matrix_shape_for_the_fixture_catalogue() -> None:
    lines = lock_matrix_csv(load_catalog(FIXTURE)).splitlines()
    assert lines[0] == ("position,method,path,FAKE 1.0:PLAN A,FAKE 1.0:PLAN B,FAKE 1.1:PLAN A,FAKE 2.0:PLAN A,"
                        "FAKE 2.0:PLAN C")
    assert len(lines) == 1 + ff.LISTING_SIZE
    for position, line in enumerate(lines[1:], start=1):
        path = ff.PATHS[position - 1] or ""
        assert line == ",".join([str(position), "POST", path] + [ff.value(lb, p, position) for lb, p in ff.columns()])
    assert lines[2] == "2,POST,/fakeWidgetList,close,unlimited,close,close,unlimited"
    assert lines[7] == "7,POST,,close,unlimited,close,close,close"  # the entry without a path


def test_openapi_is_valid_and_invents_nothing(catalog: Catalog) -> None:
    doc = yaml.safe_load(export_text(catalog, "openapi"))
    validate(doc)  # openapi-spec-validator, OpenAPI 3.1
    assert doc["openapi"].startswith("3.1")
    assert list(doc["paths"]) == [e.path for e in catalog.entries if e.path is not None]
    for path, item in doc["paths"].items():
        assert list(item) == ["post"], path
        op = item["post"]
        # Not shown in the source, so not in the document:
        assert not {"requestBody", "responses", "security", "parameters"} & op.keys(), path
    assert "security" not in doc and "components" not in doc
    server = doc["servers"][0]
    assert server["url"] == "{base_url}" and "base_url" in server["variables"]
    assert [n["id"] for n in doc["x-not-shown"]] == [n.id for n in catalog.not_shown]


def test_openapi_carries_every_lock_value(catalog: Catalog) -> None:
    doc = openapi_data(catalog)
    pathless = {e["position"]: e for e in doc["x-catalog"]["entries_without_path"]}
    assert sorted(pathless) == [e.position for e in catalog.entries if e.path is None]
    for e in catalog.entries:
        ext = doc["paths"][e.path]["post"]["x-catalog"] if e.path is not None else pathless[e.position]
        assert ext["locks"] == {v.label: {p.name: p.values[e.position - 1] for p in v.plans} for v in catalog.versions}
        if e.path is not None and e.area is not None:
            assert ext["area"]["inferred"] is True
    assert [v["label"] for v in doc["x-catalog"]["version_labels"]] == [v.label for v in catalog.versions]


def test_fixture_openapi_has_its_paths_and_the_pathless_entry_in_the_extension() -> None:
    doc = openapi_data(load_catalog(FIXTURE))
    assert len(doc["paths"]) == ff.DISTINCT_PATHS == 7
    [entry] = doc["x-catalog"]["entries_without_path"]
    assert entry["position"] == 7 and entry["path"] is None
    assert entry["locks"]["FAKE 1.1"] == {"PLAN A": "close"}
    assert entry["locks"]["FAKE 2.0"] == {"PLAN A": "close", "PLAN C": "close"}


def test_export_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["export", "--format", "json", "--catalog", str(FIXTURE)]) == 0
    assert json.loads(capsys.readouterr().out) == catalog_data(load_catalog(FIXTURE))
    out = tmp_path / "matrix.csv"
    assert cli.main(["export", "--format", "csv", "--out", str(out), "--catalog", str(FIXTURE)]) == 0
    assert out.read_text(encoding="utf-8") == lock_matrix_csv(load_catalog(FIXTURE))
    assert cli.main(["export", "--format", "openapi", "--out", str(tmp_path / "missing" / "x.yaml"),
                     "--catalog", str(FIXTURE)]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_downloads_are_published_with_the_site() -> None:
    catalog = load_catalog(FIXTURE)
    files = render_pages(catalog)
    for name, fmt in (("catalog.json", "json"), ("lock-matrix.csv", "csv"), ("openapi.yaml", "openapi")):
        assert files[f"downloads/{name}"] == export_text(catalog, fmt)
        assert f"](downloads/{name})" in files["index.md"]  # linked from the home page
