"""The fixture catalogue (tests/fixture-catalog/) says what tests/fixture_facts.py restates.

Tests derive their expectations from fixture_facts; if the YAML and the restatement drifted apart, those
tests would check the wrong thing. The fixture must also stay obviously fake and keep the variety the
site tests rely on (several labels and plan entries, markers, a missing area, an entry without a path).
"""

from __future__ import annotations

import re

import pytest

import fixture_facts as ff
from catalog_docs import cli
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ff.FIXTURE_CATALOG)


def test_the_listing_is_the_restated_one(catalog: Catalog) -> None:
    assert tuple(e.path for e in catalog.entries) == ff.PATHS
    assert [e.position for e in catalog.entries] == list(range(1, ff.LISTING_SIZE + 1))
    assert tuple(e.area.id if e.area else None for e in catalog.entries) == ff.AREA_OF
    assert {a.id: a.name for a in catalog.service.areas} == ff.AREAS
    for e in catalog.entries:
        assert (e.version_marker.at, e.version_marker.token) == ff.MARKERS.get(e.path, ("none", None)), e.position
        assert e.slug == ff.slug(e.path, e.position)
    for path, slug in ff.SLUGS.items():
        assert ff.slug(path, ff.PATHS.index(path) + 1) == slug


def test_the_labels_plans_and_values_are_the_restated_ones(catalog: Catalog) -> None:
    assert catalog.service.name == ff.SERVICE_NAME
    assert tuple(v.label for v in catalog.versions) == ff.LABELS
    assert tuple(catalog.plan_names) == ff.PLAN_NAMES
    for v in catalog.versions:
        assert (v.plan_table, v.value_column) == ff.PLAN_TABLES[v.label]
        assert {p.name: p.values for p in v.plans} == ff.VALUES[v.label]
    assert {n.id: (n.scope, n.topic, n.section) for n in catalog.not_shown} == ff.NOT_SHOWN
    assert [n.entries for n in catalog.not_shown if n.scope == "entry"] == [ff.PATHLESS, ff.PATHLESS]


def test_the_fixture_keeps_the_variety_the_site_tests_need() -> None:
    assert len(ff.LABELS) >= 3 and len(ff.PLAN_NAMES) >= 3
    assert any(ff.plans_removed(a, b) for a, b in ff.PAIRS) and any(ff.plans_added(a, b) for a, b in ff.PAIRS)
    moves = {(x, y) for a, b in ff.PAIRS for _, _, x, y in ff.changes(a, b)}
    assert moves == {("close", "unlimited"), ("unlimited", "close")}
    assert {at for at, _ in ff.MARKERS.values()} == {"start", "end", "not-shown"}
    assert None in ff.PATHS[:-1], "the entry without a path sits inside the listing, not only at its end"
    assert any(p is not None and a is None for p, a in zip(ff.PATHS, ff.AREA_OF, strict=True)), \
        "an entry with a path and no area"
    assert {scope for scope, _, _ in ff.NOT_SHOWN.values()} == {"operation", "service", "entry"}


def test_the_fixture_names_are_obviously_fake() -> None:
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted(ff.FIXTURE_CATALOG.rglob("*.yaml")))
    for path in filter(None, ff.PATHS):
        assert re.search(r"fake", path, re.I), path
    for name in (*ff.LABELS, *ff.PLAN_NAMES):
        assert name.split()[0] in ("FAKE", "PLAN"), name
    assert "UPI" not in text and "Payment Interface" not in text


def test_check_passes_on_the_fixture_with_its_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "--catalog", str(ff.FIXTURE_CATALOG)]) == 0
    out = capsys.readouterr().out
    listings = sum(len(plans) for plans in ff.VALUES.values())
    for count in (f"{ff.LISTING_SIZE} listing entries", f"{ff.DISTINCT_PATHS} distinct paths",
                  f"{len(ff.LABELS)} version labels", f"{len(ff.LABELS)} plan tables",
                  f"{listings} plan entry listings of {len(ff.PLAN_NAMES)} plan entries",
                  f"{len(ff.NOT_SHOWN)} not-shown items"):
        assert count in out, (count, out)
