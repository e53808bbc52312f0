"""Synthetic catalogues for benchmarks and scale tests: valid, deterministic per seed, obviously fake.

A synthetic catalogue has the variety of a real one grown large: plan entries added and removed across
version labels, values that change from label to label, paths with a version marker at the start or
the end, inferred areas, and a few listing entries without a path (keyed `entry-N`, area not shown).
It passes `catalog-docs check` like any hand-written catalogue; nothing in it describes a real service.
"""

from __future__ import annotations

import json
import os
import random
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from catalog_docs.catalog.model import LOCK_VALUES, entry_key, label_slug
from catalog_docs.errors import CatalogDocsError
from catalog_docs.writing import Folder, open_path

_NOUNS = ("Widget", "Gadget", "Sprocket", "Gizmo", "Doohickey", "Thingamajig", "Whatsit", "Contraption")
_VERBS = ("Create", "Fetch", "Update", "Cancel", "List", "Verify", "Archive", "Resend")
_AREAS = tuple((f"fake-area-{n.lower()}", f"Fake {n.lower()} handling") for n in _NOUNS)
NO_PATH_EVERY = 97
"""Every 97th listing entry has no path, like entry 23 of the real listing."""
CHANGE_RATE = 0.02
"""Chance that one value differs from the same plan entry's value under the previous label."""
MAX_OPERATIONS = 10_000
"""Upper bounds of a synthetic catalogue: each file stays within the loader's size limit (a version file
holds operations x plans values) and a mistyped size cannot fill the disk or run for hours."""
MAX_VERSIONS = 200
MAX_PLANS = 20
MAX_VALUES = 4_000_000
"""operations x versions x plans: about 100 MB of YAML, far past what a benchmark needs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SynthSpec:
    """What to generate: sizes and the seed that makes the output reproducible."""

    operations: int
    versions: int
    plans: int
    seed: int = 1

    def __post_init__(self) -> None:
        for name, value, most in (("operations", self.operations, MAX_OPERATIONS),
                                  ("versions", self.versions, MAX_VERSIONS), ("plans", self.plans, MAX_PLANS)):
            if not 1 <= value <= most:
                raise CatalogDocsError(f"synth: {name} must be from 1 to {most:,}, not {value:,}")
        if self.operations * self.versions * self.plans > MAX_VALUES:
            raise CatalogDocsError(f"synth: operations x versions x plans must be at most {MAX_VALUES:,} "
                                   f"(that is {self.operations * self.versions * self.plans:,})")


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


class _SynthEntry(TypedDict):
    """One listing entry as the synthetic listing writes it (marker and area as YAML text)."""

    position: int
    path: str | None
    marker: str
    area: str | None


def _entries(spec: SynthSpec) -> list[_SynthEntry]:
    entries: list[_SynthEntry] = []
    for pos in range(1, spec.operations + 1):
        noun = _NOUNS[pos % len(_NOUNS)]
        verb = _VERBS[(pos // len(_NOUNS)) % len(_VERBS)]
        if pos % NO_PATH_EVERY == 0:
            entries.append({"position": pos, "path": None, "marker": "{at: not-shown}", "area": None})
            continue
        name = f"example{noun}{verb}{pos:05d}"
        if pos % 10 == 3:
            token = f"v{1 + pos % 3}"
            path, marker = f"/{token}/{name}", f"{{at: start, token: {token}}}"
        elif pos % 10 == 7:
            path, marker = f"/{name}/v2", "{at: end, token: v2}"
        else:
            path, marker = f"/{name}", "{at: none}"
        area = None if pos % 13 == 5 else _AREAS[pos % len(_AREAS)][0]
        entries.append({"position": pos, "path": path, "marker": marker, "area": area})
    return entries


def _plan_spans(spec: SynthSpec, rng: random.Random) -> list[tuple[int, int]]:
    """For each plan entry, the range of label indexes [first, last] that list it.

    The first plan entry is listed under every label (every label lists at least one); the others are
    added later, removed earlier, or both, so comparisons show plan-added and plan-removed changes."""
    v = spec.versions
    spans = [(0, v - 1)]
    for k in range(1, spec.plans):
        first = rng.randrange(1, max(2, v // 4 + 1)) if k % 2 and v > 1 else 0
        last = rng.randrange(max(first, v - 1 - v // 4), v) if k % 3 == 0 else v - 1
        spans.append((first, last))
    return spans


def synth_files(spec: SynthSpec) -> dict[str, str]:
    """Every file of a synthetic catalogue, as {path relative to the catalogue folder: text}."""
    if spec.operations < 1 or spec.versions < 1 or spec.plans < 1:
        raise ValueError("operations, versions and plans must each be at least 1")
    rng = random.Random(spec.seed)
    labels = [f"FAKE {1 + i // 10}.{i % 10}" for i in range(spec.versions)]
    plan_names = [f"Fake Plan {k + 1}" for k in range(spec.plans)]
    entries = _entries(spec)
    files = {"service.yaml": _service_text(spec, labels, plan_names), "listing.yaml": _listing_text(entries),
             "not-shown.yaml": _register_text([e["position"] for e in entries if e["path"] is None])}
    files.update(_version_texts(spec, rng, labels, plan_names, entries))
    return files


def _service_text(spec: SynthSpec, labels: list[str], plan_names: list[str]) -> str:
    svc = [
        "# yaml-language-server: $schema=schema/service.schema.json",
        f"{SYNTH_MARK} {spec.seed}): made up for benchmarks; describes no real service.",
        "name: Fake Example Service",
        "summary: A made-up service that exists only to exercise the site generator at scale.",
        'source: "§1"',
        "base_url: null",
        'base_url_source: "§4"',
        "areas:",
        *(f'  - {{id: {aid}, name: {name}, source: "§1"}}' for aid, name in _AREAS),
        "version_labels:",
        *(f"  - {label}" for label in labels),
        "plan_entries:",
        *(f"  - {name}" for name in plan_names),
        "lock_values:",
        '  source: "§8"',
        "  values: [" + ", ".join(LOCK_VALUES) + "]",
        "source_document:",
        "  title: Fake Example Source",
        "  about: A made-up source document, for benchmarks only.",
        "  sections:",
        *(f"    - {{number: {n}, title: Fake section {n}}}" for n in range(1, 10)),
    ]
    return "\n".join(svc) + "\n"


def _listing_text(entries: list[_SynthEntry]) -> str:
    lst = ["# yaml-language-server: $schema=schema/listing.schema.json", 'source: "§4"', "entries:"]
    for e in entries:
        lst += [
            f"  - position: {e['position']}",
            "    method: POST",
            f"    path: {e['path'] if e['path'] is not None else 'null'}",
            f"    version_marker: {e['marker']}",
            f"    area: {{id: {e['area']}, inferred: true}}" if e["area"] else "    area: null",
            '    source: "§4"',
        ]
        if e["path"] is None:
            lst.append("    not_shown: [fake-no-path]")
    return "\n".join(lst) + "\n"


def _register_text(no_path: list[int]) -> str:
    reg = [
        "# yaml-language-server: $schema=schema/not-shown.schema.json",
        "items:",
        "  - {id: fake-purpose, topic: Purpose, detail: What each fake operation does., section: \"§1\", "
        "scope: operation}",
        "  - {id: base-url, topic: Base URL, detail: The host the fake paths are relative to., section: \"§4\", "
        "scope: service, subject: base-url}",
        "  - {id: fake-request, topic: Request, detail: Payload fields of a fake request., section: \"§4 rule 2\", "
        "scope: operation}",
    ]
    if no_path:
        reg.append("  - {id: fake-no-path, topic: Path, detail: The path of this fake entry., section: \"§4\", "
                   f"scope: entry, subject: entry-path, entries: [{', '.join(map(str, no_path))}]}}")
    else:
        reg.append('  - {id: fake-no-path, topic: Path, detail: Unused here., section: "§4", scope: service}')
    return "\n".join(reg) + "\n"


def _version_texts(spec: SynthSpec, rng: random.Random, labels: list[str], plan_names: list[str],
                   entries: list[_SynthEntry]) -> dict[str, str]:
    """Each label's file: the plan entries its span lists, their values drifting from label to label."""
    keys = [entry_key(e["position"], e["path"]) for e in entries]
    spans = _plan_spans(spec, rng)
    current = [[("close" if rng.random() < 0.7 else "unlimited") for _ in keys] for _ in plan_names]
    files: dict[str, str] = {}
    for li, label in enumerate(labels):
        if li:
            _drift(current, rng)
        out = [
            "# yaml-language-server: $schema=../schema/version-label.schema.json",
            f"label: {label}",
            'source: "§9"',
            'plan_table: {title: Fake Plan Table, value_column: FAKE_lock, source: "§8"}',
            "plans:",
        ]
        for k, name in enumerate(plan_names):
            first, last = spans[k]
            if first <= li <= last:
                out += [f"  {name}:", '    source: "§8 rule 1"', "    values:"]
                out += [f"      {key}: {value}" for key, value in zip(keys, current[k], strict=True)]
        files[f"versions/{label_slug(label)}.yaml"] = "\n".join(out) + "\n"
    return files


def _drift(current: list[list[str]], rng: random.Random) -> None:
    """Flip each value with the chance CHANGE_RATE, from one label to the next."""
    for values in current:
        for i in range(len(values)):
            if rng.random() < CHANGE_RATE:
                values[i] = "unlimited" if values[i] == "close" else "close"


SYNTH_MARK = "# Synthetic catalogue (seed"
"""The comment line every synthetic service.yaml starts its second line with."""


def _holds_synthetic(folder: Folder) -> bool:
    """Whether `folder` holds a synthetic catalogue: its service.yaml, a file (never a link) whose second line is
    SYNTH_MARK's."""
    try:
        fd = os.open("service.yaml", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder.fd)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        head = f.read(4096) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    lines = head.decode("utf-8", "replace").splitlines()
    return len(lines) > 1 and SYNTH_MARK in lines[1]


def write_synth(spec: SynthSpec, out_dir: Path) -> int:
    """Write a synthetic catalogue into out_dir (replacing its YAML files); returns how many files.

    out_dir must be missing, empty, or an earlier synthetic catalogue: a real catalogue is never overwritten.
    Every file goes through writing.py: no link on the way to out_dir or in it is followed."""
    what = "write the synthetic catalogue"
    folder = open_path(out_dir, what, make=True)
    assert folder is not None
    with folder:
        if not folder.is_empty() and not _holds_synthetic(folder):
            raise CatalogDocsError(f"{out_dir} is not empty and holds no synthetic catalogue; "
                                   "refusing to overwrite it (choose a new or empty folder)")
        files = synth_files(spec)
        with folder.child("versions", make=True) as versions:  # type: ignore[union-attr]  # made: never None
            for name in versions.names():
                found = versions.lstat(name)
                if (name.endswith(".yaml") and f"versions/{name}" not in files and found is not None
                        and not stat.S_ISDIR(found.st_mode)):
                    versions.remove(name)
        for rel, text in files.items():
            sub, _, name = rel.rpartition("/")
            holder = folder.walk(sub, make=True)
            assert holder is not None
            with holder:
                holder.put(name, text.encode("utf-8"))
    return len(files)
