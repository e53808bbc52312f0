"""The downloads' published contracts, checked with the tools their users run.

- Every download schema (scripts/catalog_docs/schemas/, published under /downloads/) compiles in ajv's default
  strict mode and passes check-jsonschema's metaschema check.
- catalog.json of every fixture catalogue is valid against catalog.schema.json in Python's jsonschema, ajv and
  check-jsonschema, and the schema documents every key the export writes.
- openapi.yaml passes Redocly CLI (`recommended`) and Spectral (`spectral:oas`) with the checked-in rulesets,
  with no error and no warning; those rulesets turn off only rules about what the source does not show.

Each tool runs once for the module over every file it checks (its own multi-file mode), and each file's result is
asserted on its own: one ajv per schema, one Redocly, one Spectral. The site's published downloads join those
runs when the run includes the test of them (tests marked `site` left out, as `make test-fast` does, build
nothing).
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import CATALOG_FORMAT_VERSION, export_text
from catalog_docs.layout import DOWNLOAD_SCHEMA_DIR
from catalog_docs.site.render import render_pages
from download_fixtures import DOWNLOAD_SPECS, write_download_catalog
from fixture_facts import FIXTURE_CATALOG
from npm_tools import OFFLINE_ENV, ROOT, npm_bin, run_script

DOWNLOAD_SCHEMAS = sorted(DOWNLOAD_SCHEMA_DIR.glob("*.schema.json"))
CATALOG_SCHEMA = DOWNLOAD_SCHEMA_DIR / "catalog.schema.json"
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")
PLAIN_FIXTURES = [name for name in DOWNLOAD_SPECS if name != "markup-and-areas"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """Every fixture catalogue's downloads written to files: {fixture: {"json"|"csv"|"openapi": file}}."""
    out: dict[str, dict[str, Path]] = {}
    for name in DOWNLOAD_SPECS:
        folder = tmp_path_factory.mktemp(name)
        catalog = load_catalog(write_download_catalog(folder / "catalog", name))
        out[name] = {}
        for fmt, file in (("json", "catalog.json"), ("csv", "lock-matrix.csv"), ("openapi", "openapi.yaml")):
            (folder / file).write_text(export_text(catalog, fmt), encoding="utf-8")
            out[name][fmt] = folder / file
    return out


@pytest.fixture(scope="module")
def published(request: pytest.FixtureRequest) -> Path | None:
    """The built site's downloads folder when this run includes test_the_published_downloads_meet_their_contracts,
    whose files then go into the module's one run of each tool; None (and no site built) when it does not."""
    wanted = test_the_published_downloads_meet_their_contracts
    if not any(getattr(item, "function", None) is wanted for item in request.session.items):
        return None
    return request.getfixturevalue("built_site") / "downloads"


@pytest.fixture(scope="module")
def old_openapi(tmp_path_factory: pytest.TempPathFactory, exported: dict[str, dict[str, Path]]) -> Path:
    """openapi.yaml with the server entry this document had before: an empty default for a base URL the source
    does not show."""
    doc = yaml.safe_load(exported["plans-come-and-go"]["openapi"].read_text(encoding="utf-8"))
    doc["servers"] = [{"url": "{base_url}", "variables": {"base_url": {"default": ""}}}]
    old = tmp_path_factory.mktemp("old-document") / "old-openapi.yaml"
    old.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return old


def _openapi_files(exported: dict[str, dict[str, Path]], published: Path | None) -> list[Path]:
    return [exported[name]["openapi"] for name in DOWNLOAD_SPECS] + ([published / "openapi.yaml"] if published else [])


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _closed(schema: Any) -> Any:
    """The schema with every object that lists its properties closed to others: validating against it shows
    that the schema documents every key (the published schema stays open, so a minor version can add keys)."""
    schema = copy.deepcopy(schema)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


# --- every download schema -------------------------------------------------------------------------------

def test_catalog_schema_is_a_download_schema() -> None:
    assert CATALOG_SCHEMA in DOWNLOAD_SCHEMAS


def test_every_download_schema_is_published_as_kept(tmp_path: Path) -> None:
    files = render_pages(load_catalog(write_download_catalog(tmp_path / "catalog", "nothing-changes")))
    for schema in DOWNLOAD_SCHEMAS:
        assert files[f"downloads/{schema.name}"] == schema.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ajv_runs(exported: dict[str, dict[str, Path]], published: Path | None) -> dict[Path, dict[str, Any]]:
    """{schema: what ajv-check.mjs printed}: one node per download schema, which compiles it and, for
    catalog.schema.json, validates every fixture's catalog.json (and the published one) in the same process."""
    runs = {}
    for schema in DOWNLOAD_SCHEMAS:
        files = _catalog_jsons(exported, published) if schema == CATALOG_SCHEMA else []
        runs[schema] = run_script("ajv-check.mjs", schema, *files)
        # every file given was validated (none left out of the results)
        done = runs[schema]
        assert set(done["results"]) == ({str(f) for f in files} if done["compiled"] else set()), done["error"]
    return runs


def _catalog_jsons(exported: dict[str, dict[str, Path]], published: Path | None) -> list[Path]:
    return [f["json"] for f in exported.values()] + ([published / "catalog.json"] if published else [])


@pytest.mark.parametrize("schema", DOWNLOAD_SCHEMAS, ids=lambda p: p.name)
def test_download_schema_compiles_in_ajv_strict_mode(schema: Path, ajv_runs: dict[Path, dict[str, Any]]) -> None:
    result = ajv_runs[schema]
    assert result["compiled"], result["error"]
    assert result["warnings"] == []


@pytest.mark.parametrize("schema", DOWNLOAD_SCHEMAS, ids=lambda p: p.name)
def test_download_schema_is_valid_for_python_jsonschema(schema: Path) -> None:
    Draft202012Validator.check_schema(_load(schema))


def test_download_schemas_pass_check_jsonschema_metaschema() -> None:
    done = subprocess.run([CHECK_JSONSCHEMA, "--check-metaschema", *DOWNLOAD_SCHEMAS], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# --- catalog.json --------------------------------------------------------------------------------------

def test_catalog_json_is_valid_in_python_and_documents_every_key(exported: dict[str, dict[str, Path]]) -> None:
    schema = _load(CATALOG_SCHEMA)
    for name, files in exported.items():
        data = _load(files["json"])
        assert [e.message for e in Draft202012Validator(schema).iter_errors(data)] == [], name
        assert [f"{list(e.absolute_path)}: {e.message}"
                for e in Draft202012Validator(_closed(schema)).iter_errors(data)] == [], name


def test_fixture_catalog_json_with_register_subjects_is_valid() -> None:
    # The fake download catalogues have no `subject`; the fixture has one of each kind it can show.
    data = json.loads(export_text(load_catalog(FIXTURE_CATALOG), "json"))
    assert {n["subject"] for n in data["not_shown"]} == {None, "base-url", "entry-path", "entry-position"}
    schema = _load(CATALOG_SCHEMA)
    assert [e.message for e in Draft202012Validator(schema).iter_errors(data)] == []
    assert [f"{list(e.absolute_path)}: {e.message}"
            for e in Draft202012Validator(_closed(schema)).iter_errors(data)] == []


def test_catalog_json_is_valid_in_ajv(exported: dict[str, dict[str, Path]],
                                     ajv_runs: dict[Path, dict[str, Any]]) -> None:
    files = [f["json"] for f in exported.values()]
    result = ajv_runs[CATALOG_SCHEMA]
    assert result["compiled"], result["error"]
    assert {str(f): result["results"][str(f)] for f in files} == {str(f): [] for f in files}


def test_catalog_json_is_valid_in_check_jsonschema(exported: dict[str, dict[str, Path]]) -> None:
    files = [f["json"] for f in exported.values()]
    done = subprocess.run([CHECK_JSONSCHEMA, "--schemafile", CATALOG_SCHEMA, *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_catalog_schema_refuses_what_format_1_does_not_allow(exported: dict[str, dict[str, Path]]) -> None:
    validator = Draft202012Validator(_load(CATALOG_SCHEMA))
    good = _load(exported["plans-come-and-go"]["json"])
    cases: dict[str, tuple[str, Any]] = {
        "a lock value the source does not use": ("versions.0.plans.0.values.0.value", "closed"),
        "a next major version": ("format_version", "2.0"),
        "an invented base URL": ("service.base_url", "https://api.example.com"),
        "a listing position of 0": ("operations.0.position", 0),
        "an area that is not an inference": ("operations.0.area_inferred", "yes"),
        "a register subject the catalogue has no field for": ("not_shown.0.subject", "purpose"),
    }
    for why, (where, value) in cases.items():
        bad = copy.deepcopy(good)
        *parents, last = [int(p) if p.isdigit() else p for p in where.split(".")]
        node = bad
        for p in parents:
            node = node[p]
        node[last] = value
        assert list(validator.iter_errors(bad)), why
    missing = copy.deepcopy(good)
    del missing["format_version"]
    assert [e.message for e in validator.iter_errors(missing)] == ["'format_version' is a required property"]


def test_format_version_is_described_by_the_schema_and_the_readme() -> None:
    pattern = _load(CATALOG_SCHEMA)["properties"]["format_version"]["pattern"]
    assert re.fullmatch(pattern, CATALOG_FORMAT_VERSION)
    assert pattern.startswith("^" + CATALOG_FORMAT_VERSION.split(".")[0] + "\\.")  # one schema per major version
    assert f'"format_version": "{CATALOG_FORMAT_VERSION}"' in (ROOT / "README.md").read_text(encoding="utf-8")


# --- openapi.yaml ---------------------------------------------------------------------------------------

def _redocly(files: list[Path]) -> list[dict[str, Any]]:
    done = subprocess.run([npm_bin("redocly"), "lint", "--config", ROOT / "redocly.yaml", "--format=json", *files],
                          capture_output=True, text=True, cwd=ROOT, env=OFFLINE_ENV, timeout=300)
    reports, text, at = [], done.stdout, 0
    decoder = json.JSONDecoder()
    while text[at:].strip():  # one JSON report per file, one after the other
        at += len(text[at:]) - len(text[at:].lstrip())
        report, at = decoder.raw_decode(text, at)
        reports.append(report)
    assert len(reports) == len(files), done.stdout + done.stderr
    return reports


def _spectral(files: list[Path]) -> dict[Path, list[dict[str, Any]]]:
    """{file: Spectral's findings in it}, from one Spectral over all the files."""
    done = subprocess.run([npm_bin("spectral"), "lint", "--ruleset", ROOT / ".spectral.yaml", "--format", "json",
                           "--fail-severity", "hint", *files],
                          capture_output=True, text=True, cwd=ROOT, env=OFFLINE_ENV, timeout=300)
    # Spectral may print a line after its JSON ("No results with a severity of 'hint' or higher found!").
    found, _ = json.JSONDecoder().raw_decode(done.stdout, done.stdout.index("["))
    assert done.returncode == (1 if found else 0), done.stderr
    by_file: dict[Path, list[dict[str, Any]]] = {file.resolve(): [] for file in files}
    for finding in found:
        by_file[Path(finding["source"]).resolve()].append(finding)  # a file not given would fail here
    return {file: by_file[file.resolve()] for file in files}


@pytest.fixture(scope="module")
def redocly_reports(exported: dict[str, dict[str, Path]], published: Path | None) -> dict[Path, dict[str, Any]]:
    """{openapi.yaml: its Redocly report}, from one Redocly over every fixture's file (and the published one)."""
    files = _openapi_files(exported, published)
    return dict(zip(files, _redocly(files), strict=True))


@pytest.fixture(scope="module")
def spectral_findings(exported: dict[str, dict[str, Path]], published: Path | None,
                      old_openapi: Path) -> dict[Path, list[dict[str, Any]]]:
    """{openapi.yaml: its Spectral findings}, from one Spectral over every fixture's file, the old document (and
    the published file)."""
    return _spectral([*_openapi_files(exported, published), old_openapi])


def test_openapi_passes_redocly_with_no_error_and_no_warning(exported: dict[str, dict[str, Path]],
                                                             redocly_reports: dict[Path, dict[str, Any]]) -> None:
    for name in DOWNLOAD_SPECS:
        report = redocly_reports[exported[name]["openapi"]]
        assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, (name, report["problems"])


def test_openapi_passes_spectral_with_no_error_and_no_warning(exported: dict[str, dict[str, Path]],
                                                              spectral_findings: dict[Path, list[dict[str, Any]]]
                                                              ) -> None:
    found = [(name, p["code"], p["path"])
             for name in DOWNLOAD_SPECS for p in spectral_findings[exported[name]["openapi"]]]
    # The one finding: the markup fixture's service name, which OpenAPI's info.title holds as written (plain
    # text, not Markdown). Its descriptions, where our render writes Markdown, give none.
    assert found == [("markup-and-areas", "no-script-tags-in-markdown", ["info", "title"])]


def test_the_linters_catch_what_the_old_document_had(old_openapi: Path,
                                                     spectral_findings: dict[Path, list[dict[str, Any]]]) -> None:
    # The server entry this document had before: an empty default for a base URL the source does not show.
    codes = {p["code"] for p in spectral_findings[old_openapi]}
    assert "oas3-server-variables" in codes


def _rules_off(path: Path) -> dict[str, str]:
    """Each rule the config turns off, with the comment on its line."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\s+([a-z0-9-]+): off(?:\s+#\s*(.*))?", line)
        if m:
            found[m.group(1)] = m.group(2) or ""
    return found


def test_lint_rulesets_turn_off_only_rules_about_what_the_source_does_not_show() -> None:
    spectral, redocly = _rules_off(ROOT / ".spectral.yaml"), _rules_off(ROOT / "redocly.yaml")
    assert set(spectral) == {"info-contact"}
    assert set(redocly) == {"security-defined", "info-license"}
    for rule, reason in {**spectral, **redocly}.items():
        said = r"source (states|names|shows|does not show|is not shown)|not shown in the source"
        assert re.search(said, reason), rule
    assert yaml.safe_load((ROOT / ".spectral.yaml").read_text(encoding="utf-8"))["extends"] == ["spectral:oas"]
    assert yaml.safe_load((ROOT / "redocly.yaml").read_text(encoding="utf-8"))["extends"] == ["recommended"]


# --- the files the real site publishes -------------------------------------------------------------------

@pytest.mark.site
def test_the_published_downloads_meet_their_contracts(built_site: Path, published: Path | None,
                                                      ajv_runs: dict[Path, dict[str, Any]],
                                                      redocly_reports: dict[Path, dict[str, Any]],
                                                      spectral_findings: dict[Path, list[dict[str, Any]]]) -> None:
    downloads = built_site / "downloads"
    assert published == downloads  # so the tools' runs above checked these files
    for schema in DOWNLOAD_SCHEMAS:
        assert (downloads / schema.name).read_bytes() == schema.read_bytes()
    catalog_json = _load(downloads / "catalog.json")
    assert list(Draft202012Validator(_closed(_load(CATALOG_SCHEMA))).iter_errors(catalog_json)) == []
    assert ajv_runs[CATALOG_SCHEMA]["compiled"], ajv_runs[CATALOG_SCHEMA]["error"]
    assert ajv_runs[CATALOG_SCHEMA]["results"][str(downloads / "catalog.json")] == []
    report = redocly_reports[downloads / "openapi.yaml"]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, report["problems"]
    assert spectral_findings[downloads / "openapi.yaml"] == []
    assert ",," not in (downloads / "lock-matrix.csv").read_text(encoding="utf-8")
