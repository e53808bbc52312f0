"""The fast paths taken for large catalogues give exactly what the general paths give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_docs.authoring.synth import SynthSpec, write_synth
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.downloads.export import openapi_data, to_json, to_yaml
from catalog_docs.errors import CatalogInvalid

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                     lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=25)


@pytest.mark.slow  # 300 generated documents
@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_to_json_is_json_dumps_with_indent(data: object) -> None:
    assert to_json(data) == json.dumps(data, indent=2, ensure_ascii=False) + "\n"


_YAML_READY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.sampled_from(["yes", "No", "NULL", "~", "1.0", "0x1F", "-", "- a", "a: b", "#x", "x #y", "/a/b", "§8", "",
                       " a", "a ", "2026-11-22", ".inf", "UPI_N 1.0.1", "\x85", "\u2028", "\ufeff", "\x7f", "\x00",
                       "a\nb", "a\n", "\na", " a\nb", "a\n\n b", "a \n", "a\n ", "a\r\nb", "a\n\tb", "- a\n# b",
                       "a\n\n"]),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=25)


@pytest.mark.slow  # 400 generated documents
@settings(max_examples=400, deadline=None)
@given(_YAML_READY)
def test_to_yaml_reads_back_as_the_same_data(data: object) -> None:
    assert yaml.safe_load(to_yaml(data)) == data


def test_the_openapi_download_reads_back_as_its_data() -> None:
    from fixture_facts import FIXTURE_CATALOG, SERVICE_NAME

    data = openapi_data(load_catalog(FIXTURE_CATALOG))
    text = to_yaml(data)
    assert yaml.safe_load(text) == data
    assert f"\n  title: {SERVICE_NAME}\n" in text  # block style, plain where plain reads the same


def test_a_bad_value_deep_in_a_large_values_map_is_still_reported(tmp_path: Path) -> None:
    write_synth(SynthSpec(operations=400, versions=2, plans=2, seed=3), tmp_path)
    version = tmp_path / "versions" / "FAKE-1.1.yaml"
    lines = version.read_text(encoding="utf-8").splitlines(keepends=True)
    at = max(i for i, ln in enumerate(lines) if ln.endswith(": close\n"))
    lines[at] = lines[at].replace(": close", ": Close")
    version.write_text("".join(lines), encoding="utf-8")

    try:
        load_catalog(tmp_path)
    except CatalogInvalid as exc:
        report = exc.report()
    else:
        raise AssertionError("the catalogue should not load")
    assert f":{at + 1}:" in report
    assert "did you mean 'close'? values are case-sensitive" in report


def test_the_real_schema_takes_the_values_fast_path() -> None:
    """The fast path reads its rule from the schema; a schema it cannot read silently turns it off."""
    from catalog_docs.catalog.schema_fast import values_rule
    from catalog_docs.catalog.validate import SCHEMA_DIR

    rule = values_rule(json.loads((SCHEMA_DIR / "version-label.schema.json").read_text(encoding="utf-8")))
    assert rule is not None
    pattern, allowed, least = rule
    assert allowed == ("close", "unlimited") and least == 1
    assert pattern.search("/logIntent") and pattern.search("entry-23") and not pattern.search("log intent")


def test_a_schema_rule_the_fast_path_does_not_know_turns_it_off() -> None:
    from catalog_docs.catalog.schema_fast import values_rule
    from catalog_docs.catalog.validate import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "version-label.schema.json").read_text(encoding="utf-8"))
    values = schema["properties"]["plans"]["additionalProperties"]["properties"]["values"]
    values["maxProperties"] = 5
    assert values_rule(schema) is None


def test_the_preview_reuse_hashes_the_schemas_validate_reads() -> None:
    from catalog_docs.catalog import validate
    from catalog_docs.site import pages

    assert pages.SCHEMA_DIR == validate.SCHEMA_DIR


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """A synthetic catalogue of 40 operations under 4 labels (about 200 files: every kind of page and download),
    written and loaded once for the tests that render it in two processes; each plans its own jobs."""
    folder = tmp_path_factory.mktemp("fast-paths-synth")
    write_synth(SynthSpec(operations=40, versions=4, plans=3, seed=9), folder)
    return load_catalog(folder)


def test_two_processes_render_exactly_what_one_does(synthetic: Catalog) -> None:
    from catalog_docs.site.render import plan_pages, render_jobs

    jobs = plan_pages(synthetic).jobs
    one = render_jobs(jobs, workers=1)
    two = render_jobs(jobs, workers=2)
    assert list(two) == list(one) == [job.path for job in jobs]  # every file, in plan order
    assert two == one


def test_an_error_in_the_second_process_is_raised_in_the_first(synthetic: Catalog) -> None:
    import pytest

    from catalog_docs.errors import CatalogDocsError
    from catalog_docs.site.paging import Job
    from catalog_docs.site.render import plan_pages, render_jobs

    jobs = plan_pages(synthetic).jobs

    def fail() -> str:
        raise CatalogDocsError("page 7 cannot be rendered")

    # Every job fails, so whichever process takes a job first, both see the error; the parent's own
    # error must win over a half-finished answer, and the child must not be left behind.
    broken = [Job(path=j.path, kind=j.kind, produce=fail) for j in jobs]
    with pytest.raises(CatalogDocsError, match="page 7 cannot be rendered"):
        render_jobs(broken, workers=2)
    # Only one job fails: it may fall to either process; the error reaches the caller all the same.
    for index in (0, 1, len(jobs) - 1):
        one_broken = list(jobs)
        one_broken[index] = Job(path=jobs[index].path, kind=jobs[index].kind, produce=fail)
        with pytest.raises(CatalogDocsError, match="page 7 cannot be rendered"):
            render_jobs(one_broken, workers=2)


def test_work_lost_with_the_second_process_is_done_in_the_first(synthetic: Catalog) -> None:
    import os

    from catalog_docs.site.paging import Job
    from catalog_docs.site.render import plan_pages, render_jobs

    jobs = plan_pages(synthetic).jobs
    parent = os.getpid()

    def die_in_child(job: Job) -> object:
        def produce() -> str:
            if os.getpid() != parent:
                os._exit(3)  # the helper process dies without an answer
            return job.produce()
        return produce

    fragile = [Job(path=j.path, kind=j.kind, produce=die_in_child(j)) for j in jobs]
    assert render_jobs(fragile, workers=2) == render_jobs(jobs, workers=1)


def test_the_bulk_stages_pause_the_collector_and_always_restore_it(tmp_path: Path) -> None:
    import gc

    import pytest

    from catalog_docs.catalog.gcpause import paused_gc

    seen = []

    @paused_gc()
    def stage(fail: bool) -> None:
        seen.append(gc.isenabled())
        with paused_gc():  # nested: the inner block must not switch it back on
            pass
        seen.append(gc.isenabled())
        if fail:
            raise CatalogInvalid([])

    assert gc.isenabled()
    stage(False)
    with pytest.raises(CatalogInvalid):
        stage(True)
    assert seen == [False, False, False, False] and gc.isenabled()

    gc.disable()  # a caller that turned it off keeps it off
    try:
        stage(False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    load_catalog(_synthetic_dir(tmp_path))
    assert gc.isenabled()


def _synthetic_dir(tmp_path: Path) -> Path:
    write_synth(SynthSpec(operations=30, versions=2, plans=2, seed=1), tmp_path / "c")
    return tmp_path / "c"
