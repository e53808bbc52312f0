"""Shared pytest options and session fixtures (the site built once, for site, browser and accessibility tests).

The site is built from the fixture catalogue (tests/fixture-catalog/, restated in tests/fixture_facts.py),
never from the real one: an edit of catalog/ must fail only `catalog-docs check` and the source-facts test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import material.templates  # noqa: F401 - sets NO_MKDOCS_2_WARNING at import: once, before any test (tests/guards.py)
import pytest
from hypothesis import settings

from browsing import chromium, playwright_session, site_url, visit  # noqa: F401 - fixtures for browser tests
from fixture_facts import FIXTURE_CATALOG
from sitebuild import shared_build

# No Hypothesis example has a time limit: speed is measured by `make bench` in ratios, never by a timed test, and
# on a loaded 2-core machine one slow example would fail a run whose behaviour is right ("Unreliable test timings").
settings.register_profile("catalog-docs", deadline=None)
settings.load_profile("catalog-docs")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*/expected.txt from the loader's current output (read the diff before committing)",
    )
    parser.addoption(
        "--update-snapshots",
        action="store_true",
        default=False,
        help="rewrite tests/snapshots/ from the renderer's current pages (read the diff before committing)",
    )


LONG_KINDS = ("browser", "site", "serve", "slow")
"""Marks of tests that build a site, drive a browser or run a tool chain: seconds each, where most tests take
milliseconds."""


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a long kind of test run first, so the quick files fill the end of the run on both workers
    instead of one worker finishing a long file alone (`--no-loadscope-reorder` in pyproject.toml keeps this
    order: pytest-xdist would otherwise start with the files that hold the most tests). A file's tests stay
    together and in their order (the sort is stable)."""
    long_files = {item.path for item in items if any(item.get_closest_marker(kind) for kind in LONG_KINDS)}
    items.sort(key=lambda item: item.path not in long_files)


@pytest.fixture(scope="module")
def one_argument_parser() -> Iterator[None]:
    """For a module that runs cli.main in process hundreds of times (`pytestmark =
    pytest.mark.usefixtures("one_argument_parser")`): cli.main builds its argument parser on every call, which costs
    more than refusing a revision or checking a small catalogue; here every call parses with one parser, built once
    (argparse keeps no state from one parse to the next), and cli.build_parser is put back after the module.
    Everything else cli.main does still runs each time."""
    from catalog_docs import cli

    parser = cli.build_parser()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "build_parser", lambda: parser)
        yield


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture catalogue rendered and built strictly once per run; returns the site folder. Tests only read
    it (a test that changes a site copies it first). Under pytest-xdist the workers share one build: the first
    to ask builds it under a lock in the run's common temporary folder, the others wait and read it."""
    return shared_build(tmp_path_factory, "fixture-site", FIXTURE_CATALOG)
