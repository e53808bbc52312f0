"""Random valid edits of a catalogue, as a maintainer makes them in its YAML files, for the property tests of
the comparison (tests/compare/test_diff_complete.py).

`Docs` holds a catalogue's parsed files; each edit takes it and a Hypothesis `data` object and returns an
edited copy that `catalog-docs check` accepts: values re-keyed when a path or a position changes, the
register's entry positions renumbered, every plan entry's values in listing order. Names are obviously fake.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog, load_catalog_from_memory

Docs = dict[str, Any]
"""{"service": ..., "listing": ..., "register": ..., "versions": {label: version document}}"""

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's safe loader and dumper where PyYAML has them: the same data and, for a catalogue's documents, the
same text as yaml.safe_load and yaml.safe_dump, for less processor time (the property tests write thousands)."""


def load_doc(path: Path) -> Any:
    """One catalogue file's document."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def dump_doc(doc: Any) -> bytes:
    """One catalogue file's bytes, as write_docs writes it."""
    return yaml.dump(doc, Dumper=_DUMPER, sort_keys=False, allow_unicode=True).encode("utf-8")


def version_file(label: str) -> str:
    """The name of a label's file in versions/, as write_docs names it."""
    return f"{label.replace(' ', '-')}.yaml"


def read_docs(folder: Path) -> Docs:
    versions = {}
    for f in sorted((folder / "versions").glob("*.yaml")):
        doc = load_doc(f)
        versions[doc["label"]] = doc
    return {"service": load_doc(folder / "service.yaml"), "listing": load_doc(folder / "listing.yaml"),
            "register": load_doc(folder / "not-shown.yaml"), "versions": versions}


def docs_files(docs: Docs) -> dict[tuple[str, ...], bytes]:
    """The files write_docs writes, in memory: each one's name components below the catalogue folder, and its
    bytes."""
    files = {("service.yaml",): dump_doc(docs["service"]), ("listing.yaml",): dump_doc(docs["listing"]),
             ("not-shown.yaml",): dump_doc(docs["register"])}
    for label in docs["service"]["version_labels"]:
        files["versions", version_file(label)] = dump_doc(docs["versions"][label])
    return files


def write_docs(docs: Docs, folder: Path) -> Path:
    (folder / "versions").mkdir(parents=True, exist_ok=True)
    for old in (folder / "versions").glob("*.yaml"):
        old.unlink()
    for parts, data in docs_files(docs).items():
        folder.joinpath(*parts).write_bytes(data)
    return folder


def load_docs(docs: Docs) -> Catalog:
    """The catalogue write_docs would write, loaded from memory as a git revision's is
    (validate.load_catalog_from_memory: the same entries looked at and the same rules as load_catalog, nothing
    written or read), for property tests whose contract is what comes after the loader; each keeps a case that
    loads write_docs' folder."""
    return load_catalog_from_memory(docs_files(docs), lambda parts: "/".join(("catalog", *parts)))


def loaded_from_memory(*docs: Docs) -> list[Catalog]:
    """Each catalogue loaded from memory (load_docs): a property's examples."""
    return [load_docs(d) for d in docs]


def loaded_from_files(*docs: Docs) -> list[Catalog]:
    """Each catalogue written into a folder of its own (write_docs) and loaded from it as `check` loads one: the
    case each property keeps that loads from folders."""
    with tempfile.TemporaryDirectory() as tmp:
        return [load_catalog(write_docs(d, Path(tmp) / str(i))) for i, d in enumerate(docs)]


def _key(entry: dict[str, Any]) -> str:
    return entry["path"] if entry["path"] is not None else f"entry-{entry['position']}"


def _texts(doc: Any) -> Iterator[str]:
    """Every key and scalar of a parsed document, as text."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield str(key)
            yield from _texts(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _texts(value)
    else:
        yield str(doc)


def _fresh(docs: Docs, stem: str) -> str:
    """A name no part of the catalogue uses yet: `stem` and a number."""
    text = "\n".join(_texts(docs))
    n = 1
    while f"{stem}{n}" in text:
        n += 1
    return f"{stem}{n}"


def _pick(data: st.DataObject, items: list[Any]) -> Any:
    return data.draw(st.sampled_from(items))


def _insert_at(data: st.DataObject, items: list[Any], item: Any) -> None:
    items.insert(data.draw(st.integers(0, len(items))), item)


def _plans(docs: Docs) -> list[tuple[str, str]]:
    return [(label, plan) for label, v in docs["versions"].items() for plan in v["plans"]]


def _value(data: st.DataObject) -> str:
    return _pick(data, ["close", "unlimited"])


# ---- the listing: every change of entries goes through _relist ---------------------------------------------

def _relist(docs: Docs, data: st.DataObject, entries: list[dict[str, Any]]) -> None:
    """Make `entries` (each an entry document, `_was` its old position or None for a new one) the listing:
    numbered 1..n, values re-keyed and in listing order (a new entry's drawn), register positions renumbered."""
    old = {e["position"]: e for e in docs["listing"]["entries"]}
    renumber: dict[int, int] = {}
    for i, e in enumerate(entries, start=1):
        if e.get("_was") is not None:
            renumber[e["_was"]] = i
        e["position"] = i
    for version in docs["versions"].values():
        for plan in version["plans"].values():
            before = plan["values"]
            plan["values"] = {
                _key(e): before[_key(old[e["_was"]])] if e.get("_was") is not None else _value(data) for e in entries}
    for e in entries:
        e.pop("_was", None)
    docs["listing"]["entries"] = entries
    items = []
    for item in docs["register"]["items"]:
        if "entries" in item:
            item["entries"] = [renumber[p] for p in item["entries"] if p in renumber]
            if not item["entries"]:
                continue
        items.append(item)
    docs["register"]["items"] = items


def _current(docs: Docs) -> list[dict[str, Any]]:
    return [{**e, "_was": e["position"]} for e in docs["listing"]["entries"]]


def add_entry(docs: Docs, data: st.DataObject) -> None:
    entries = _current(docs)
    areas = [None] + [a["id"] for a in docs["service"]["areas"]]
    area = _pick(data, areas)
    _insert_at(data, entries, {"position": 0, "method": "POST", "path": "/" + _fresh(docs, "fakeNew"),
                               "version_marker": {"at": "none"}, "area": None if area is None else
                               {"id": area, "inferred": True}, "source": "§4", "_was": None})
    _relist(docs, data, entries)


def remove_entry(docs: Docs, data: st.DataObject) -> None:
    entries = _current(docs)
    if len(entries) > 1:
        entries.pop(data.draw(st.integers(0, len(entries) - 1)))
        _relist(docs, data, entries)


def move_entry(docs: Docs, data: st.DataObject) -> None:
    entries = _current(docs)
    e = entries.pop(data.draw(st.integers(0, len(entries) - 1)))
    _insert_at(data, entries, e)
    _relist(docs, data, entries)


def repath_entry(docs: Docs, data: st.DataObject) -> None:
    """A new path for an entry that has one (the values follow it)."""
    entries = _current(docs)
    pathed = [e for e in entries if e["path"] is not None]
    if pathed:
        e = _pick(data, pathed)
        e["path"] = "/" + _fresh(docs, "fakeRenamed")
        e["version_marker"] = {"at": "none"}
        _relist(docs, data, entries)


def set_entry_area(docs: Docs, data: st.DataObject) -> None:
    e = _pick(data, docs["listing"]["entries"])
    area = _pick(data, [None] + [a["id"] for a in docs["service"]["areas"]])
    e["area"] = None if area is None else {"id": area, "inferred": True}


# ---- version labels and plan entries -----------------------------------------------------------------------

def flip_value(docs: Docs, data: st.DataObject) -> None:
    label, plan = _pick(data, _plans(docs))
    values = docs["versions"][label]["plans"][plan]["values"]
    key = _pick(data, list(values))
    values[key] = "close" if values[key] == "unlimited" else "unlimited"


def _rename_in_service(docs: Docs, field: str, old: str, new: str) -> None:
    docs["service"][field] = [new if x == old else x for x in docs["service"][field]]


def add_label(docs: Docs, data: st.DataObject) -> None:
    """A copy of a label under a new name, anywhere in the order, with some values changed."""
    source = _pick(data, list(docs["versions"]))
    name = _fresh(docs, "FAKE 9.")
    version = copy.deepcopy(docs["versions"][source])
    version["label"] = name
    for plan in version["plans"].values():
        for key in plan["values"]:
            if data.draw(st.booleans()):
                plan["values"][key] = _value(data)
    docs["versions"][name] = version
    _insert_at(data, docs["service"]["version_labels"], name)


def remove_label(docs: Docs, data: st.DataObject) -> None:
    labels = docs["service"]["version_labels"]
    if len(labels) > 1:
        label = _pick(data, labels)
        labels.remove(label)
        del docs["versions"][label]


def rename_label(docs: Docs, data: st.DataObject) -> None:
    label = _pick(data, docs["service"]["version_labels"])
    name = _fresh(docs, "FAKE 8.")
    _rename_in_service(docs, "version_labels", label, name)
    version = docs["versions"].pop(label)
    version["label"] = name
    docs["versions"][name] = version


def move_label(docs: Docs, data: st.DataObject) -> None:
    labels = docs["service"]["version_labels"]
    label = labels.pop(data.draw(st.integers(0, len(labels) - 1)))
    _insert_at(data, labels, label)


def toggle_draft(docs: Docs, data: st.DataObject) -> None:
    version = docs["versions"][_pick(data, list(docs["versions"]))]
    if version.pop("draft", None) is None:
        version["draft"] = True


def _rebuild_plans(version: dict[str, Any], names: list[str], plans: dict[str, Any]) -> None:
    version["plans"] = {n: plans[n] for n in names}


def list_plan(docs: Docs, data: st.DataObject) -> None:
    """A declared plan entry (perhaps a new name) listed under a label that does not list it yet."""
    label = _pick(data, list(docs["versions"]))
    version = docs["versions"][label]
    unlisted = [p for p in docs["service"]["plan_entries"] if p not in version["plans"]]
    if not unlisted or data.draw(st.booleans()):
        name = _fresh(docs, "PLAN Z")
        _insert_at(data, docs["service"]["plan_entries"], name)
    else:
        name = _pick(data, unlisted)
    names = list(version["plans"])
    _insert_at(data, names, name)
    keys = [_key(e) for e in docs["listing"]["entries"]]
    plans = {**version["plans"], name: {"source": "§8", "values": {k: _value(data) for k in keys}}}
    _rebuild_plans(version, names, plans)


def unlist_plan(docs: Docs, data: st.DataObject) -> None:
    label = _pick(data, list(docs["versions"]))
    plans = docs["versions"][label]["plans"]
    if len(plans) > 1:
        del plans[_pick(data, list(plans))]


def rename_plan(docs: Docs, data: st.DataObject) -> None:
    """A plan entry renamed in service.yaml and under every label that lists it."""
    plan = _pick(data, docs["service"]["plan_entries"])
    name = _fresh(docs, "PLAN R")
    _rename_in_service(docs, "plan_entries", plan, name)
    for version in docs["versions"].values():
        if plan in version["plans"]:
            names = [name if n == plan else n for n in version["plans"]]
            _rebuild_plans(version, names, {**version["plans"], name: version["plans"][plan]})


def move_plan(docs: Docs, data: st.DataObject) -> None:
    """A plan entry moved among those of one label, or among the names service.yaml declares."""
    if data.draw(st.booleans()):
        names = docs["service"]["plan_entries"]
        names.insert(data.draw(st.integers(0, len(names) - 1)), names.pop(data.draw(st.integers(0, len(names) - 1))))
        return
    version = docs["versions"][_pick(data, list(docs["versions"]))]
    names = list(version["plans"])
    names.insert(data.draw(st.integers(0, len(names) - 1)), names.pop(data.draw(st.integers(0, len(names) - 1))))
    _rebuild_plans(version, names, version["plans"])


# ---- the service, its areas and the register ---------------------------------------------------------------

def add_area(docs: Docs, data: st.DataObject) -> None:
    area = _fresh(docs, "fake-area-")
    _insert_at(data, docs["service"]["areas"], {"id": area, "name": f"Fake {area}", "source": "§1"})


def remove_area(docs: Docs, data: st.DataObject) -> None:
    if len(docs["service"]["areas"]) < 2:  # the schema wants one area at least
        return
    area = _pick(data, docs["service"]["areas"])
    docs["service"]["areas"].remove(area)
    for e in docs["listing"]["entries"]:
        if e["area"] is not None and e["area"]["id"] == area["id"]:
            e["area"] = None


def rename_area(docs: Docs, data: st.DataObject) -> None:
    area = _pick(data, docs["service"]["areas"])
    new = _fresh(docs, "fake-renamed-")
    for e in docs["listing"]["entries"]:
        if e["area"] is not None and e["area"]["id"] == area["id"]:
            e["area"]["id"] = new
    area["id"] = new


def move_area(docs: Docs, data: st.DataObject) -> None:
    areas = docs["service"]["areas"]
    areas.insert(data.draw(st.integers(0, len(areas) - 1)), areas.pop(data.draw(st.integers(0, len(areas) - 1))))


def add_register_item(docs: Docs, data: st.DataObject) -> None:
    item = _fresh(docs, "fake-gap-")
    _insert_at(data, docs["register"]["items"], {"id": item, "topic": f"Fake {item}", "detail": "A fake gap.",
                                                 "section": "§2", "scope": _pick(data, ["service", "operation"])})


def remove_register_item(docs: Docs, data: st.DataObject) -> None:
    items = docs["register"]["items"]
    if len(items) > 1:
        items.remove(_pick(data, items))


def move_register_item(docs: Docs, data: st.DataObject) -> None:
    items = docs["register"]["items"]
    items.insert(data.draw(st.integers(0, len(items) - 1)), items.pop(data.draw(st.integers(0, len(items) - 1))))


def edit_text(docs: Docs, data: st.DataObject) -> None:
    """One text or citation anywhere: the service's, a label's, a plan entry's, an area's, an entry's, an item's."""
    citation = f"§{data.draw(st.integers(1, 9))} rule {data.draw(st.integers(1, 3))}"
    words = _fresh(docs, "Fake words ")
    targets: list[tuple[dict[str, Any], str, str]] = [
        (docs["service"], "name", words), (docs["service"], "summary", words), (docs["service"], "source", citation),
        (docs["service"], "base_url_source", citation), (docs["service"]["lock_values"], "source", citation),
    ]
    for v in docs["versions"].values():
        targets += [(v, "source", citation), (v["plan_table"], "title", words),
                    (v["plan_table"], "value_column", "FAKElock" + words[-1]), (v["plan_table"], "source", citation)]
        targets += [(p, "source", citation) for p in v["plans"].values()]
    for a in docs["service"]["areas"]:
        targets += [(a, "name", words), (a, "source", citation)]
    targets += [(e, "source", citation) for e in docs["listing"]["entries"]]
    for item in docs["register"]["items"]:
        targets += [(item, "topic", words), (item, "detail", words + "."), (item, "section", citation)]
    doc, key, text = _pick(data, targets)
    doc[key] = text


EDITS: list[Callable[[Docs, st.DataObject], None]] = [
    add_entry, remove_entry, move_entry, repath_entry, set_entry_area, flip_value, add_label, remove_label,
    rename_label, move_label, toggle_draft, list_plan, unlist_plan, rename_plan, move_plan, add_area, remove_area,
    rename_area, move_area, add_register_item, remove_register_item, move_register_item, edit_text,
]


def edited(docs: Docs, data: st.DataObject, min_edits: int, max_edits: int) -> tuple[Docs, list[str]]:
    """A copy of `docs` with between min_edits and max_edits random edits; returns it and the edits' names."""
    out = copy.deepcopy(docs)
    names = []
    for edit in data.draw(st.lists(st.sampled_from(EDITS), min_size=min_edits, max_size=max_edits)):
        edit(out, data)
        names.append(edit.__name__)
    return out, names
