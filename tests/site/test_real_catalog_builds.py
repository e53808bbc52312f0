"""The real catalogue still checks and builds: the one site test that reads catalog/ (marked `real_catalog`),
without asserting its data.

Every other site test runs on tests/fixture-catalog/; what the real catalogue says is the business of
tests/catalog/test_source_facts.py. This only guards that `catalog-docs check` accepts catalog/ and that a strict
mkdocs build of the project, as `make site` runs it, succeeds with no warning.
"""

from __future__ import annotations

import subprocess

import pytest

from sitebuild import BIN, ROOT, shared_build

pytestmark = [pytest.mark.site, pytest.mark.real_catalog]


def test_check_accepts_the_real_catalogue() -> None:
    result = subprocess.run([str(BIN / "catalog-docs"), "check"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("catalogue OK:"), result.stdout


def test_a_strict_build_of_the_real_catalogue_succeeds(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The real catalogue's site, built once per run and shared with test_search_results; shared_build asserts the
    # strict build succeeded with no warning.
    site = shared_build(tmp_path_factory, "real-site", ROOT / "catalog")
    assert (site / "index.html").is_file() and (site / "downloads" / "catalog.json").is_file()
