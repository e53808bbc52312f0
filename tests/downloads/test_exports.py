"""Exports on fixture catalogues: catalog.json, the lock-matrix CSV (round-trips to the model, keeps *not shown*
apart from empty) and an OpenAPI 3.1 document that invents nothing and shows every lock value in its
descriptions. The published contracts (schemas, linters) are in downloads/test_download_contracts.py.

They run on the fixture catalogue (tests/fixture-catalog/) and the fake catalogues, never on the real one.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import markdown
import pytest
import yaml
from openapi_spec_validator import validate

import fixture_facts as ff
from catalog_docs import cli
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import (
    CATALOG_FORMAT_VERSION,
    NOT_SHOWN_CELL,
    catalog_data,
    export_text,
    lock_matrix_csv,
    openapi_data,
    read_lock_matrix,
)
from catalog_docs.downloads.openapi import NO_AREA_TAG, PLACEHOLDER_SERVER, md_code, md_text
from catalog_docs.errors import CatalogDocsError
from catalog_docs.site.render import render_pages
from download_fixtures import DOWNLOAD_SPECS, MARKUP, write_download_catalog

FIXTURE = ff.FIXTURE_CATALOG


@pytest.fixture(scope="module", params=["fixture", *DOWNLOAD_SPECS])
def catalog(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    if request.param == "fixture":
        return load_catalog(FIXTURE)
    return load_catalog(write_download_catalog(tmp_path_factory.mktemp("fake") / "catalog", request.param))


@pytest.fixture(scope="module")
def markup_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return load_catalog(write_download_catalog(tmp_path_factory.mktemp("markup") / "catalog", "markup-and-areas"))


def test_catalog_json_carries_its_format_version(catalog: Catalog) -> None:
    data = json.loads(export_text(catalog, "json"))
    assert data["format_version"] == CATALOG_FORMAT_VERSION
    assert next(iter(data)) == "format_version"  # first, so a reader sees it before anything else
    assert data["service"]["lock_values"] == ["close", "unlimited"]


def test_not_shown_items_carry_their_subject_in_both_downloads(catalog: Catalog) -> None:
    # Format 1.1: every register item says which catalogue field it declares not given, or null.
    expected = [(n.id, n.subject) for n in catalog.not_shown]
    assert [(n["id"], n["subject"]) for n in catalog_data(catalog)["not_shown"]] == expected
    assert [(n["id"], n["subject"]) for n in openapi_data(catalog)["x-not-shown"]] == expected


def test_fixture_not_shown_subjects_reach_the_downloads() -> None:
    subjects = {n["id"]: n["subject"] for n in catalog_data(load_catalog(FIXTURE))["not_shown"]}
    assert {s for s in subjects.values() if s} == {"base-url", "entry-path", "entry-position"}
    assert subjects["entry-7-path"] == "entry-path" and subjects["entry-7-position"] == "entry-position"


def test_lock_matrix_round_trips_to_the_model(catalog: Catalog) -> None:
    back = read_lock_matrix(lock_matrix_csv(catalog))
    assert back["entries"] == [(e.position, e.method, e.path) for e in catalog.entries]
    assert back["values"] == {(v.label, p.name): p.values for v in catalog.versions for p in v.plans}


def test_lock_matrix_has_no_empty_cell_and_names_a_path_not_shown(catalog: Catalog) -> None:
    rows = list(csv.reader(io.StringIO(lock_matrix_csv(catalog))))
    columns = [f"{v.label}:{p.name}" for v in catalog.versions for p in v.plans]
    assert rows[0] == ["position", "method", "path", *columns]
    assert len(rows) == 1 + len(catalog.entries)
    for row, e in zip(rows[1:], catalog.entries, strict=True):
        assert "" not in row
        assert row[:3] == [str(e.position), "POST", e.path if e.path is not None else NOT_SHOWN_CELL]
        assert all(cell in ("close", "unlimited") for cell in row[3:])


def test_lock_matrix_shape_for_the_fixture_catalogue() -> None:
    lines = lock_matrix_csv(load_catalog(FIXTURE)).splitlines()
    assert lines[0] == ("position,method,path,FAKE 1.0:PLAN A,FAKE 1.0:PLAN B,FAKE 1.1:PLAN A,FAKE 2.0:PLAN A,"
                        "FAKE 2.0:PLAN C")
    assert len(lines) == 1 + ff.LISTING_SIZE
    for position, line in enumerate(lines[1:], start=1):
        path = ff.PATHS[position - 1] or "not shown"
        assert line == ",".join([str(position), "POST", path] + [ff.value(lb, p, position) for lb, p in ff.columns()])
    assert lines[2] == "2,POST,/fakeWidgetList,close,unlimited,close,close,unlimited"
    assert lines[7] == "7,POST,not shown,close,unlimited,close,close,close"  # the entry without a path


def test_lock_matrix_reader_refuses_an_empty_path_cell(catalog: Catalog) -> None:
    lines = lock_matrix_csv(catalog).splitlines()
    first = lines[1].split(",")
    lines[1] = ",".join([first[0], first[1], "", *first[3:]])
    with pytest.raises(CatalogDocsError, match="line 2: empty path cell; a path not shown is 'not shown'"):
        read_lock_matrix("\n".join(lines) + "\n")


def test_openapi_is_valid_and_invents_nothing(catalog: Catalog) -> None:
    doc = yaml.safe_load(export_text(catalog, "openapi"))
    validate(doc)  # openapi-spec-validator, OpenAPI 3.1
    assert doc["openapi"].startswith("3.1")
    assert list(doc["paths"]) == [e.path for e in catalog.entries if e.path is not None]
    for path, item in doc["paths"].items():
        assert list(item) == ["post"], path
        # Not shown in the source, so not in the document:
        assert not {"requestBody", "responses", "security", "parameters"} & item["post"].keys(), path
    assert "security" not in doc and "components" not in doc
    [server] = doc["servers"]
    assert server == {"url": PLACEHOLDER_SERVER, "description": server["description"]}  # no variables, no default
    assert server["url"].endswith(".invalid") and "not shown" in server["description"]
    assert doc["x-catalog"]["base_url"] is None
    assert [n["id"] for n in doc["x-not-shown"]] == [n.id for n in catalog.not_shown]


def test_openapi_tags_are_the_inferred_areas(catalog: Catalog) -> None:
    doc = openapi_data(catalog)
    tags = {t["name"]: t for t in doc["tags"]}
    assert len(tags) == len(doc["tags"])  # names are unique
    for path, item in doc["paths"].items():
        [tag] = item["post"]["tags"]
        assert tag in tags, path  # every tag an operation uses is declared, with a description
        entry = next(e for e in catalog.entries if e.path == path)
        if entry.area is None:
            assert tag == NO_AREA_TAG and tags[tag]["x-catalog"] == {"area": None, "inferred": True}
        else:
            assert tag.endswith("inferred area)")
            assert tags[tag]["x-catalog"] == {"area": entry.area.id, "inferred": True}
            assert " ".join(entry.area.name.split()) in tag
    used = {item["post"]["tags"][0] for item in doc["paths"].values()}
    assert set(tags) == used  # no tag without an operation


def test_openapi_descriptions_show_every_lock_value_and_the_entries_without_a_path(catalog: Catalog) -> None:
    doc = openapi_data(catalog)
    info = doc["info"]["description"]
    for e in catalog.entries:
        rows = [f"| {md_code(v.label)} | {md_code(p.name)} | {md_code(p.values[e.position - 1])} |"
                for v in catalog.versions for p in v.plans]
        if e.path is not None:
            text = doc["paths"][e.path]["post"]["description"]
        else:
            text = info[info.index(f"### Entry {e.position}\n"):]
        table = text[text.index("| Version label | Plan entry | Lock value |"):].split("\n\n")[0].splitlines()
        assert table[2:] == rows, e.position
        for n in catalog.not_shown_for(e):
            assert f"{md_text(n.topic)} ({n.section})" in text
    if any(e.path is None for e in catalog.entries):
        assert "## Listing entries without a path" in info
    for n in catalog.not_shown:
        assert f"- **{md_text(n.topic)}** ({n.section}): {md_text(n.detail)}" in info


def test_openapi_extensions_carry_every_lock_value(catalog: Catalog) -> None:
    doc = openapi_data(catalog)
    pathless = {e["position"]: e for e in doc["x-catalog"]["entries_without_path"]}
    assert sorted(pathless) == [e.position for e in catalog.entries if e.path is None]
    for e in catalog.entries:
        ext = doc["paths"][e.path]["post"]["x-catalog"] if e.path is not None else pathless[e.position]
        assert ext["locks"] == {v.label: {p.name: p.values[e.position - 1] for p in v.plans} for v in catalog.versions}
        if e.path is not None and e.area is not None:
            assert ext["area"]["inferred"] is True
    assert [v["label"] for v in doc["x-catalog"]["version_labels"]] == [v.label for v in catalog.versions]
    assert doc["x-catalog"]["format_version"] == CATALOG_FORMAT_VERSION


def test_fixture_openapi_has_its_paths_and_the_pathless_entry_in_the_extension() -> None:
    doc = openapi_data(load_catalog(FIXTURE))
    assert len(doc["paths"]) == ff.DISTINCT_PATHS == 7
    [entry] = doc["x-catalog"]["entries_without_path"]
    assert entry["position"] == 7 and entry["path"] is None
    assert entry["locks"]["FAKE 1.1"] == {"PLAN A": "close"}
    assert entry["locks"]["FAKE 2.0"] == {"PLAN A": "close", "PLAN C": "close"}
    assert "### Entry 7\n" in doc["info"]["description"]


def test_catalogue_text_in_descriptions_stays_text(markup_catalog: Catalog) -> None:
    # Every free-text field of this fixture holds MARKUP; none of it may become an element.
    doc = openapi_data(markup_catalog)
    texts = [doc["info"]["description"], *(t["description"] for t in doc["tags"]),
             *(i["post"]["description"] for i in doc["paths"].values())]
    for text in texts:
        html = markdown.markdown(text, extensions=["tables"])
        assert "<script" not in html and "<a " not in html
        for element in ("<em>x</em>", "<em>y</em>", "<code>q</code>", "<h1>h", "<li>item"):
            assert element not in html
    rendered = markdown.markdown(doc["info"]["description"], extensions=["tables"])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered  # shown as written, as text
    # The table of version labels keeps its four columns although the text holds a '|'.
    row = next(r for r in doc["info"]["description"].splitlines() if r.startswith("| `FAKE 1`"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 5
    assert MARKUP.split()[0] not in doc["info"]["description"]


def test_markdown_helpers() -> None:
    assert md_text("a <b> & c") == "a &lt;b&gt; &amp; c"
    assert md_text("*x* _y_ `z` | [l](u)") == r"\*x\* \_y\_ \`z\` \| \[l\](u)"
    assert md_text("- item") == r"\- item" and md_text("12. item") == r"12\. item"
    assert md_text("see www.e.invalid\nor\thttps://e.invalid") == r"see www\.e.invalid or https\://e.invalid"
    assert md_text("instant-payment scheme, 1.0") == "instant-payment scheme, 1.0"  # readable where shown raw
    assert md_code("UPI_N 1.0.1") == "`UPI_N 1.0.1`"
    assert md_code("a`b") == "``a`b``" and md_code("`a") == "`` `a ``" and md_code("a|b") == r"`a\|b`"


def test_export_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = write_download_catalog(tmp_path / "catalog", "plans-come-and-go")
    catalog = load_catalog(folder)
    assert cli.main(["export", "--format", "json", "--catalog", str(folder)]) == 0
    assert json.loads(capsys.readouterr().out) == catalog_data(catalog)
    out = tmp_path / "matrix.csv"
    assert cli.main(["export", "--format", "csv", "--out", str(out), "--catalog", str(folder)]) == 0
    assert out.read_text(encoding="utf-8") == lock_matrix_csv(catalog)
    blocker = tmp_path / "blocker"  # a file where the output's folder would go: no one can write there
    blocker.write_text("a file\n", encoding="utf-8")
    assert cli.main(["export", "--format", "openapi", "--out", str(blocker / "x.yaml"), "--catalog", str(folder)]) == 2
    assert "cannot write" in capsys.readouterr().err
    # A folder that is missing is made (issue 27: `export ... --out build/openapi.yaml` on a fresh clone).
    made = tmp_path / "missing" / "x.yaml"
    assert cli.main(["export", "--format", "openapi", "--out", str(made), "--catalog", str(folder)]) == 0
    assert made.read_text(encoding="utf-8") == export_text(catalog, "openapi")


def test_downloads_are_published_with_the_site(catalog: Catalog) -> None:
    files = render_pages(catalog)
    for name, fmt in (("catalog.json", "json"), ("lock-matrix.csv", "csv"), ("openapi.yaml", "openapi")):
        assert files[f"downloads/{name}"] == export_text(catalog, fmt)
        assert f"](downloads/{name})" in files["index.md"]  # linked from the home page
