"""Stage 2: check loaded files against the JSON Schemas, then the rules a schema cannot say, then build the model.

The runner of the checks. `_collect_files` finds and loads the files (one refusal rule per kind of entry that is
not a catalogue file), `explain` turns each schema error into located problems, `rules` holds the rules across
files and along the listing, and `_model` builds the frozen model. Every check yields problems instead of raising,
so one run reports every error in every file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from catalog_docs.catalog.explain import explain
from catalog_docs.catalog.files import FIXED_FILES, Source, catalogue_sources, memory_sources
from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.catalog.listing_rules import listing_rules, node_text
from catalog_docs.catalog.load import LoadedFile, ParseCache, load_data, load_file
from catalog_docs.catalog.locate import shown_path
from catalog_docs.catalog.located import CatalogFile, FileKind, child, key_path
from catalog_docs.catalog.model import (
    Area,
    Catalog,
    DocumentSection,
    ListingEntry,
    NotShown,
    PlanEntry,
    Service,
    SourceDocument,
    VersionLabel,
    VersionMarker,
    entry_key,
    entry_slug,
    label_slug,
)
from catalog_docs.catalog.nodes import Node
from catalog_docs.catalog.page_names import MAX_NAME_BYTES, file_name_problem, reserved_slug
from catalog_docs.catalog.read import kind_word
from catalog_docs.catalog.rules import SUBJECT_SCOPES, Catalogue, cross_problems, label_files
from catalog_docs.catalog.schema_fast import AnchoredValidator, ValuesFastPath
from catalog_docs.errors import CatalogDocsError, CatalogInvalid, Problem
from catalog_docs.layout import SCHEMA_DIR

__all__ = ["MAX_NAME_BYTES", "SCHEMA_DIR", "SUBJECT_SCOPES", "LoadCache", "file_name_problem", "load_catalog",
           "node_text", "reserved_slug"]
"""The JSON Schemas are part of the tool: every catalogue folder, fixtures included, is checked against them
(SCHEMA_DIR); the rules' names are kept importable from here."""

_File = CatalogFile


@cache
def _validator(schema_path: Path) -> ValuesFastPath:
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogDocsError(f"cannot read the JSON Schema {schema_path}: {exc.strerror}") from None
    return ValuesFastPath(AnchoredValidator(schema))


def _schema_problems(f: _File, schema_dir: Path) -> Iterator[Problem]:
    validator = _validator(schema_dir / f"{f.kind}.schema.json")
    seen: set[tuple[str, int, int]] = set()
    for err in validator.iter_errors(f.root.plain()):
        if _refused_on(f.root, list(err.absolute_path)):
            continue  # the loader already reported this value (tag, alias, merge key, nesting)
        for found in explain(f, err):
            ident = (found.key_path, found.line, found.column)
            if ident not in seen:
                seen.add(ident)
                yield found


def _any_refused(root: Node) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.refused:
            return True
        if node.kind == "map":
            stack.extend(node.value.values())
        elif node.kind == "seq":
            stack.extend(node.value)
    return False


def _refused_on(root: Node, path: list[Any]) -> bool:
    """True when the loader already refused the node at path or one of the nodes above it."""
    node: Node | None = root
    for part in path:
        if node is None or node.refused:
            break
        node = child(node, part)
    return node is not None and node.refused


# --- which entries of the folder are catalogue files --------------------------------------------------------

Refusal = tuple[str, str, str]
"""Why an entry of the catalogue folder is not read: (expected, found, hint)."""


def _unexpected(source: Source) -> Refusal | None:
    if source.role != "unexpected":
        return None
    found = "a symbolic link leaving the catalogue folder" if source.kind == "outside-link" else "an unexpected file"
    return "one of " + ", ".join(FIXED_FILES) + " or versions/*.yaml", found, "move or rename it"


def _unexpected_in_versions(source: Source) -> Refusal | None:
    if source.role != "unexpected-in-versions":
        return None
    path = source.path
    return ("a .yaml file", "an unexpected file",
            f"rename it to {path.stem}.yaml" if path.suffix == ".yml" else "move or rename it")


def _missing(source: Source) -> Refusal | None:
    if source.kind != "missing" or source.role == "version-label":
        return None
    return (f"the file {source.path.name}", "no such file",
            "every catalogue has " + ", ".join(FIXED_FILES) + "; restore it")


def _outside_link(source: Source) -> Refusal | None:
    if source.kind != "outside-link":
        return None
    return ("a file inside the catalogue folder", f"a symbolic link to {source.target}, outside it",
            "copy the file into the catalogue; links may point only inside the catalogue folder")


def _dangling_link(source: Source) -> Refusal | None:
    if source.kind != "dangling-link":
        return None
    return "a regular file", "a symbolic link to a missing file", "point the link at a file or remove it"


def _not_a_file(source: Source) -> Refusal | None:
    if source.kind not in ("special", "folder"):
        return None
    return ("a regular file", kind_word(source.mode) if source.mode else "a file that cannot be examined",
            "a catalogue file is a plain file; replace it with the file itself")


REFUSALS: tuple[Callable[[Source], Refusal | None], ...] = (
    _unexpected, _unexpected_in_versions, _missing, _outside_link, _dangling_link, _not_a_file)
"""Why an entry of the folder is not read, by the first rule that refuses it; an entry none refuses is loaded."""


def _folder_problem(shown: str, expected: str, found: str, hint: str) -> Problem:
    return Problem(file=shown, line=1, column=1, key_path="(catalogue)", expected=expected, found=found, hint=hint)


def _collect_files(catalog_dir: Path, parsed: ParseCache | None = None) -> tuple[list[_File], list[Problem]]:
    if not catalog_dir.is_dir():
        return [], [_folder_problem(shown_path(catalog_dir), "a catalogue folder", "no such folder",
                                    "pass --catalog DIR or run from the project root")]
    return _collect(catalogue_sources(catalog_dir), shown_path, lambda path: load_file(path, shown_path(path), parsed))


def _collect(sources: list[Source], shown: Callable[[Path], str],
             load: Callable[[Path], LoadedFile]) -> tuple[list[_File], list[Problem]]:
    """The entries of a catalogue folder (on disk or in memory), each refused or loaded, and every problem."""
    files: list[_File] = []
    problems: list[Problem] = []
    wanted: list[tuple[Path, FileKind]] = []
    for source in sources:
        refusal = next((r for r in (rule(source) for rule in REFUSALS) if r is not None), None)
        if refusal is not None:
            problems.append(_folder_problem(shown(source.path), *refusal))
        elif source.role in ("service", "listing", "not-shown", "version-label"):
            wanted.append((source.path, source.role))
    for path, kind in wanted:
        result = load(path)
        f = _File(kind=kind, loaded=result)
        for found, where in result.problems:
            problems.append(found if where is None else replace(found, key_path=key_path(f, where)))
        if result.root is not None:
            files.append(f)
    return files, problems


def _schema_checked(f: _File) -> tuple[list[Problem], bool]:
    """The file's schema problems, and whether it may go on to the rules across files."""
    found = list(_schema_problems(f, SCHEMA_DIR))
    return found, not found and not _any_refused(f.root)  # a refused value was never schema-checked


class LoadCache:
    """What one load learns about each file that depends on that file alone, kept for the next load in this
    process (the `mkdocs serve` preview): its located parse (load.ParseCache, by path and bytes) and the result
    of its schema check. Rules across files and the model build run on every load. Reports are the same with
    or without it: a cached result is the one the same file's bytes gave."""

    def __init__(self) -> None:
        self.parsed = ParseCache()
        self._checked: dict[tuple[int, str], tuple[LoadedFile, list[Problem], bool]] = {}
        self._used: dict[tuple[int, str], tuple[LoadedFile, list[Problem], bool]] = {}

    def checked(self, f: _File) -> tuple[list[Problem], bool]:
        """The file's schema problems, and whether it may go on to the rules across files."""
        key = (id(f.loaded), f.kind)
        hit = self._checked.get(key)
        if hit is None or hit[0] is not f.loaded:  # the entry holds its LoadedFile, so its id is not reused
            hit = (f.loaded, *_schema_checked(f))
        self._used[key] = hit
        return list(hit[1]), hit[2]

    def done(self) -> None:
        """Keep only the files of the load that just ended."""
        self._checked, self._used = self._used, {}

    def clear(self) -> None:
        self.parsed.clear()
        self._checked.clear()
        self._used.clear()


@paused_gc()
def load_catalog(catalog_dir: Path | str, *, cache: LoadCache | None = None) -> Catalog:
    """Load, validate and model a catalogue folder, or raise CatalogInvalid with every problem found.
    With `cache`, files unchanged since its last load are neither parsed nor schema-checked again."""
    catalog_dir = Path(catalog_dir)
    return _validated(*_collect_files(catalog_dir, cache.parsed if cache is not None else None), cache)


@paused_gc()
def load_catalog_from_memory(files: dict[tuple[str, ...], bytes | int], name: Callable[[tuple[str, ...]], str]
                             ) -> Catalog:
    """load_catalog for a catalogue held in memory (a git revision's): `files` maps each file's name components
    below the catalogue folder to its bytes, or to its size when it is over the limit and was never read;
    `name(parts)` is how messages name an entry. The same entries are looked at and the same rules apply."""
    root = Path("/")
    sources = memory_sources(root, files)

    def parts(path: Path) -> tuple[str, ...]:
        return path.relative_to(root).parts

    return _validated(*_collect(sources, lambda path: name(parts(path)),
                                lambda path: load_data(files[parts(path)], name(parts(path)))), None)


def _validated(files: list[_File], problems: list[Problem], cache: LoadCache | None) -> Catalog:
    good: list[_File] = []
    for f in files:
        found, passed = cache.checked(f) if cache is not None else _schema_checked(f)
        problems.extend(found)
        if passed:
            good.append(f)
    if cache is not None:
        cache.done()
    by_kind: dict[str, list[_File]] = {}
    for f in good:
        by_kind.setdefault(f.kind, []).append(f)
    complete = all(k in by_kind for k in FIXED_FILES.values()) and len(good) == len(files)
    if problems or not complete:
        # Cross-file rules need every file; still run the rules that stand within each good file.
        for f in good:
            if f.kind == "listing":
                problems.extend(listing_rules(f, None, None))
        raise CatalogInvalid(problems)
    catalogue = Catalogue.of(by_kind["service"][0], by_kind["listing"][0], by_kind["not-shown"][0],
                             by_kind.get("version-label", []))
    problems.extend(cross_problems(catalogue))
    if problems:
        raise CatalogInvalid(problems)
    return _model(catalogue)


def _model(c: Catalogue) -> Catalog:
    """The frozen model of a catalogue that passed every rule."""
    svc = c.svc
    areas = {a["id"]: Area(id=a["id"], name=a["name"], source=a["source"]) for a in svc["areas"]}
    entries: list[ListingEntry] = []
    nodes = c.listing.root.value["entries"].value
    for e, node in zip(c.entries, nodes, strict=True):
        vm = e["version_marker"]
        entries.append(ListingEntry(line=node.line,
            position=e["position"], method=e["method"], path=e["path"],
            slug=entry_slug(e["position"], e["path"]), key=entry_key(e["position"], e["path"]),
            version_marker=VersionMarker(at=vm["at"], token=vm.get("token")),
            area=areas[e["area"]["id"]] if e["area"] is not None else None,
            source=e["source"], not_shown=tuple(e.get("not_shown", ())),
        ))
    keys = [e.key for e in entries]
    by_label = label_files(c)
    versions: list[VersionLabel] = []
    for label in svc["version_labels"]:
        root = by_label[label].root.value
        plans = tuple(
            PlanEntry(name=name, slug=label_slug(name), source=p.value["source"].value,
                      values=tuple(p.value["values"].value[k].value for k in keys))
            for name, p in root["plans"].value.items()
        )
        pt = root["plan_table"].plain()
        versions.append(VersionLabel(label=label, slug=label_slug(label), source=root["source"].value,
                                     plan_table=pt["title"], value_column=pt["value_column"],
                                     plan_table_source=pt["source"], plans=plans,
                                     draft="draft" in root))
    register = tuple(
        NotShown(id=i["id"], topic=i["topic"], detail=i["detail"], section=i["section"], scope=i["scope"],
                 entries=tuple(i.get("entries", ())), subject=i.get("subject"))
        for i in c.items
    )
    service = Service(name=svc["name"], summary=svc["summary"], source=svc["source"],
                      base_url_source=svc["base_url_source"], areas=tuple(areas.values()),
                      lock_values_source=svc["lock_values"]["source"])
    doc = svc["source_document"]
    document = SourceDocument(title=doc["title"], about=doc["about"], sections=tuple(
        DocumentSection(number=s["number"], title=s["title"]) for s in doc["sections"]))
    return Catalog(service=service, source_document=document, entries=tuple(entries), versions=tuple(versions),
                   plan_names=tuple(svc["plan_entries"]), not_shown=register)
