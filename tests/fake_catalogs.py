"""Synthetic catalogues with obviously fake names, written as catalogue folders, for the comparison tests.

`write_catalog(folder, spec)` writes a catalogue from a compact spec:

    {"entries": ["/fakeAlpha", "/fakeBeta", None],          # paths in listing order; None = no path
     "labels": {"FAKE 1": {"PLAN A": "ccu", "PLAN B": "uuu"},  # one letter per entry: c=close, u=unlimited
                "FAKE 2": {"PLAN A": "cuu"}},
     "not_shown": {"fake-gap": "Something the fake source does not show."}}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

LETTERS = {"c": "close", "u": "unlimited"}
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's emitter where PyYAML has it: it writes these files byte for byte as PyYAML's pure-Python emitter does,
which spent most of the set-up of the comparison tests' large catalogues walking their values."""


def _dump(data: object) -> str:
    return yaml.dump(data, Dumper=DUMPER, sort_keys=False)


def _key(position: int, path: str | None) -> str:
    return path if path is not None else f"entry-{position}"


def write_catalog(folder: Path, spec: dict[str, Any]) -> Path:
    """Write the catalogue described by `spec` into `folder` (created) and return the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "versions").mkdir(exist_ok=True)
    for old in (folder / "versions").glob("*.yaml"):
        old.unlink()
    plan_names: list[str] = []
    for plans in spec["labels"].values():
        plan_names += [p for p in plans if p not in plan_names]
    service = {
        "name": "Fake Service", "summary": "A fake service for tests.", "source": "§1",
        "base_url": None, "base_url_source": "§4",
        "areas": [{"id": "fake-area", "name": "Fake area", "source": "§1"}],
        "version_labels": list(spec["labels"]), "plan_entries": plan_names,
        "lock_values": {"source": "§8", "values": ["close", "unlimited"]},
        "source_document": {"title": "Fake Source", "about": "A made-up source document for tests.",
                            "sections": [{"number": n, "title": f"Fake section {n}"} for n in range(1, 10)]},
    }
    entries = []
    for i, path in enumerate(spec["entries"], start=1):
        entries.append({
            "position": i, "method": "POST", "path": path,
            "version_marker": {"at": "none"} if path is not None else {"at": "not-shown"},
            "area": {"id": "fake-area", "inferred": True} if path is not None else None,
            "source": "§4",
        })
    register = [{"id": nid, "topic": nid.replace("-", " ").title(), "detail": detail, "section": "§2",
                 "scope": "service"} for nid, detail in spec.get("not_shown", {"fake-gap": "A fake gap."}).items()]
    (folder / "service.yaml").write_text(_dump(service), encoding="utf-8")
    (folder / "listing.yaml").write_text(_dump({"source": "§4", "entries": entries}), encoding="utf-8")
    (folder / "not-shown.yaml").write_text(_dump({"items": register}), encoding="utf-8")
    for label, plans in spec["labels"].items():
        version = {
            "label": label, "source": "§9",
            "plan_table": {"title": "Fake Plan", "value_column": "FAKElock", "source": "§8"},
            "plans": {
                name: {"source": "§8", "values": {
                    _key(i, path): LETTERS[letter]
                    for i, (path, letter) in enumerate(zip(spec["entries"], letters, strict=True), start=1)
                }}
                for name, letters in plans.items()
            },
        }
        (folder / "versions" / f"{label.replace(' ', '-')}.yaml").write_text(_dump(version), encoding="utf-8")
    return folder


# Plans added and removed, values changed both ways, a label that lists nothing new, an entry without a path.
FAKE_SPECS: dict[str, dict[str, Any]] = {
    "plans-come-and-go": {
        "entries": ["/fakeAlpha", "/fakeBeta", "/fake/v2/gamma", None],
        "labels": {
            "FAKE 1.0": {"PLAN A": "ccuu", "PLAN B": "uuuu"},
            "FAKE 2.0": {"PLAN A": "cucu", "PLAN C": "cccc"},
            "FAKE 3.0": {"PLAN C": "uccu", "PLAN A": "cucu", "PLAN B": "cccc"},
        },
    },
    "nothing-changes": {
        "entries": ["/fakeOnly", "/fakeOther"],
        "labels": {"FAKE 1": {"PLAN X": "cu"}, "FAKE 2": {"PLAN X": "cu"}},
    },
    # Five labels: PLAN B removed under FAKE 1.1 (which lists a single plan entry) and listed again under
    # FAKE 2.0; PLAN N new everywhere under FAKE 3.0; PLAN A removed under FAKE 3.1; entry 4 has no path.
    "relisted": {
        "entries": ["/fakeAlpha", "/fakeBeta", "/fake/v2/gamma", None, "/fakeDelta"],
        "labels": {
            "FAKE 1.0": {"PLAN A": "ccuuc", "PLAN B": "uuuuu"},
            "FAKE 1.1": {"PLAN A": "cucuc"},
            "FAKE 2.0": {"PLAN A": "cucuu", "PLAN B": "uucuc"},
            "FAKE 3.0": {"PLAN A": "cucuu", "PLAN B": "uucuc", "PLAN N": "ccccu"},
            "FAKE 3.1": {"PLAN B": "uuccc", "PLAN N": "ccccu"},
        },
    },
}
