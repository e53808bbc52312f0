"""Session fixtures shared by the site, browser and accessibility tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitebuild import build, copy_project


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real catalogue rendered and built strictly once per test session; returns the site folder."""
    project = copy_project(tmp_path_factory.mktemp("project"))
    result = build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return project / "site"
