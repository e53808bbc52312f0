"""Fixture catalogues for the download tests: the shared fake specs, plus one that holds markup in every
free-text field that reaches a download, an entry with a path but no inferred area, two areas of one name,
and an entry without a path."""

from __future__ import annotations

from pathlib import Path

import yaml

from fake_catalogs import FAKE_SPECS, write_catalog

MARKUP = "<script>alert(1)</script> *x* _y_ | z `q` [l](https://e.invalid) www.e.invalid &amp; # h\n- item"
"""Text that would be markup, HTML or a table cell boundary if a description did not escape it."""

MARKUP_SPEC = {
    "entries": ["/fakeOne", "/fakeTwo", "/fake/v3/three", None],
    "labels": {"FAKE 1": {"PLAN A": "cuuc", "PLAN B": "uucc"}, "FAKE 2": {"PLAN B": "ucuc"}},
    "not_shown": {"fake-gap": MARKUP},
}
DOWNLOAD_SPECS = {**FAKE_SPECS, "markup-and-areas": MARKUP_SPEC}


def write_download_catalog(folder: Path, name: str) -> Path:
    """Write the fixture catalogue `name` of DOWNLOAD_SPECS into folder and return it."""
    write_catalog(folder, DOWNLOAD_SPECS[name])
    if name == "markup-and-areas":
        _edit(folder / "service.yaml", _markup_service)
        _edit(folder / "listing.yaml", _markup_listing)
        for version in (folder / "versions").glob("*.yaml"):
            _edit(version, _markup_version)
    return folder


def _edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _markup_service(data: dict) -> None:  # type: ignore[type-arg]
    data["name"] = "Fake " + MARKUP
    data["summary"] = MARKUP
    data["areas"] = [{"id": "fake-area", "name": MARKUP, "source": "§1"},
                     {"id": "fake-twin", "name": MARKUP, "source": "§1"}]


def _markup_listing(data: dict) -> None:  # type: ignore[type-arg]
    data["entries"][1]["area"] = None  # a path, but no area inferred from its name
    data["entries"][2]["area"] = {"id": "fake-twin", "inferred": True}


def _markup_version(data: dict) -> None:  # type: ignore[type-arg]
    data["plan_table"]["title"] = MARKUP
    data["plan_table"]["value_column"] = MARKUP
