"""The fast paths taken for large catalogues give exactly what the general paths give."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from catalog_docs.errors import CatalogInvalid
from catalog_docs.export import to_json
from catalog_docs.synth import SynthSpec, write_synth
from catalog_docs.validate import load_catalog

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                     lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_to_json_is_json_dumps_with_indent(data: object) -> None:
    assert to_json(data) == json.dumps(data, indent=2, ensure_ascii=False) + "\n"


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


def test_incremental_names_the_same_manifest_and_schemas_as_render_and_validate() -> None:
    from catalog_docs import incremental, render, validate

    assert incremental.MANIFEST == render.MANIFEST
    assert incremental.SCHEMA_DIR == validate.SCHEMA_DIR
