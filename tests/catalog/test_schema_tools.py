"""The catalogue's JSON Schemas work in the tools their users run: ajv 8 in its default strict mode, Python's
jsonschema, check-jsonschema's metaschema check, and yaml-language-server (completion and errors in an editor)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from fake_catalogs import FAKE_SPECS, write_catalog
from npm_tools import run_script

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted((ROOT / "catalog" / "schema").glob("*.schema.json"))
SCHEMA_FOR = {"service.yaml": "service", "listing.yaml": "listing", "not-shown.yaml": "not-shown"}
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")


def _schema_name(relative: Path) -> str:
    return SCHEMA_FOR.get(relative.as_posix(), "version-label")


@pytest.fixture(scope="module")
def fixture_as_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """A fixture catalogue's YAML files as JSON data files, grouped by the schema each file names."""
    folder = write_catalog(tmp_path_factory.mktemp("fake") / "catalog", next(iter(FAKE_SPECS.values())))
    out = tmp_path_factory.mktemp("json")
    grouped: dict[str, list[Path]] = {}
    for source in sorted(folder.rglob("*.yaml")):
        relative = source.relative_to(folder)
        target = out / (relative.as_posix().replace("/", "__") + ".json")
        target.write_text(json.dumps(yaml.safe_load(source.read_text(encoding="utf-8"))), encoding="utf-8")
        grouped.setdefault(_schema_name(relative), []).append(target)
    return grouped


def test_every_catalogue_schema_is_found() -> None:
    assert [s.name for s in SCHEMAS] == [
        "listing.schema.json", "not-shown.schema.json", "service.schema.json", "version-label.schema.json"]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda p: p.name)
def test_compiles_in_ajv_strict_mode_and_accepts_a_valid_catalogue(
        schema: Path, fixture_as_json: dict[str, list[Path]]) -> None:
    files = fixture_as_json[schema.name.removesuffix(".schema.json")]
    result = run_script("ajv-check.mjs", schema, *files)
    assert result["compiled"], result["error"]
    assert result["warnings"] == []  # strict mode also logs what it tolerates (union types, ...): nothing here
    assert result["results"] == {str(f): [] for f in files}


def test_ajv_refuses_a_wrong_lock_value_like_the_python_validator(
        fixture_as_json: dict[str, list[Path]], tmp_path: Path) -> None:
    source = fixture_as_json["version-label"][0]
    data = json.loads(source.read_text(encoding="utf-8"))
    plan = next(iter(data["plans"].values()))
    key = next(iter(plan["values"]))
    plan["values"][key] = "closed"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    schema_file = ROOT / "catalog" / "schema" / "version-label.schema.json"
    [error] = run_script("ajv-check.mjs", schema_file, bad)["results"][str(bad)]
    assert error["keyword"] == "enum" and error["params"]["allowedValues"] == ["close", "unlimited"]
    plan_name = next(iter(data["plans"]))
    assert error["instancePath"] == f"/plans/{plan_name}/values/{key.replace('~', '~0').replace('/', '~1')}"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    [py_error] = Draft202012Validator(schema).iter_errors(data)
    assert py_error.validator == "enum" and list(py_error.absolute_path) == ["plans", plan_name, "values", key]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda p: p.name)
def test_python_jsonschema_accepts_the_schema_and_a_valid_catalogue(
        schema: Path, fixture_as_json: dict[str, list[Path]]) -> None:
    loaded = json.loads(schema.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(loaded)
    validator = Draft202012Validator(loaded)
    for data in fixture_as_json[schema.name.removesuffix(".schema.json")]:
        assert list(validator.iter_errors(json.loads(data.read_text(encoding="utf-8")))) == []


def test_only_standard_keywords_so_strict_tools_read_them() -> None:
    # An `x-...` keyword is what ajv's strict mode refuses first; the validator's wording lives in `title`.
    found: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            found.extend(f"{where}/{k}" for k in node if k.startswith("x-"))
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")

    for schema in SCHEMAS:
        walk(json.loads(schema.read_text(encoding="utf-8")), schema.name)
    assert found == []


def test_check_jsonschema_metaschema_passes() -> None:
    assert CHECK_JSONSCHEMA.exists(), "check-jsonschema is missing: run `make install`"
    done = subprocess.run([CHECK_JSONSCHEMA, "--check-metaschema", *SCHEMAS], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_jsonschema_metaschema_catches_a_broken_schema(tmp_path: Path) -> None:
    # The same check, shown to fail on a schema with a misspelt type, so the passing run above means something.
    broken = json.loads(SCHEMAS[0].read_text(encoding="utf-8"))
    broken["properties"]["source"]["type"] = "strin"
    target = tmp_path / "broken.schema.json"
    target.write_text(json.dumps(broken), encoding="utf-8")
    done = subprocess.run([CHECK_JSONSCHEMA, "--check-metaschema", target], capture_output=True, text=True)
    assert done.returncode == 1 and "strin" in done.stdout


@pytest.fixture
def editor_catalogue(tmp_path: Path) -> Path:
    """A folder laid out like catalog/: the schemas, and YAML files that name them on their first line."""
    shutil.copytree(ROOT / "catalog" / "schema", tmp_path / "schema")
    (tmp_path / "versions").mkdir()
    return tmp_path


def _editor(file: Path, *positions: tuple[int, int]) -> dict[str, Any]:
    return run_script("yaml-ls-check.mjs", file, *(f"{line}:{char}" for line, char in positions))


def test_editor_reports_a_wrong_lock_value_where_it_is(editor_catalogue: Path) -> None:
    file = editor_catalogue / "versions" / "FAKE-1.yaml"
    file.write_text(
        "# yaml-language-server: $schema=../schema/version-label.schema.json\n"
        "label: FAKE 1\n"
        'source: "§9"\n'
        'plan_table: {title: Fake Plan, value_column: FAKElock, source: "§8"}\n'
        "plans:\n"
        "  PLAN A:\n"
        '    source: "§8"\n'
        "    values:\n"
        "      /fakeAlpha: close\n"
        "      /fakeBeta: closed\n", encoding="utf-8")
    result = _editor(file, (9, 18))
    [problem] = result["diagnostics"]
    assert (problem["line"], problem["character"]) == (9, 17)
    assert '"close", "unlimited"' in problem["message"]
    assert result["completions"]["9:18"] == ["close", "unlimited"]


def test_editor_completes_keys_and_closed_vocabularies(editor_catalogue: Path) -> None:
    version = editor_catalogue / "versions" / "FAKE-2.yaml"
    version.write_text("# yaml-language-server: $schema=../schema/version-label.schema.json\nlabel: FAKE 2\n\n",
                       encoding="utf-8")
    keys = _editor(version, (2, 0))["completions"]["2:0"]
    assert {"source", "plan_table", "plans"} <= set(keys) and "label" not in keys  # already written
    listing = editor_catalogue / "listing.yaml"
    listing.write_text(
        "# yaml-language-server: $schema=schema/listing.schema.json\n"
        'source: "§4"\n'
        "entries:\n"
        "  - position: 1\n"
        "    method: \n"
        "    version_marker: {at: }\n", encoding="utf-8")
    result = _editor(listing, (4, 12), (5, 25))
    assert result["completions"]["4:12"] == ["POST"]
    assert result["completions"]["5:25"] == ["none", "start", "end", "not-shown"]
