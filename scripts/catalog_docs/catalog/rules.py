"""The rules a JSON Schema cannot say, across files. One small function per rule, each yielding located problems;
`CROSS_RULES` lists them in the order they run (the rules along the listing are in `listing_rules`, the rules for
names that become file names in `page_names`). Adding a rule is a function and a line in its list.

They run only on files that passed their schema, so each may read the fields the schema requires.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog_docs.catalog.listing_rules import listing_rules
from catalog_docs.catalog.located import CatalogFile, PathPart, close_to, node_at, problem
from catalog_docs.catalog.model import entry_key, label_slug
from catalog_docs.catalog.names import look_alike_keys
from catalog_docs.catalog.nodes import Node
from catalog_docs.catalog.page_names import file_name_problem, reserved_slug
from catalog_docs.errors import Problem

SUBJECT_SCOPES: dict[str, tuple[str, ...]] = {
    "entry-path": ("entry",),
    "entry-position": ("entry",),
    "version-marker": ("entry", "operation"),
    "base-url": ("service",),
}
"""Each `subject` of a register item (not-shown.schema.json lists the same names), with the scopes it may have."""


def _marker_text(marker: dict[str, Any]) -> str:
    """A version marker as listing.yaml writes it: `{at: start, token: v1}`."""
    return "{at: " + str(marker["at"]) + (f", token: {marker['token']}" if "token" in marker else "") + "}"


def _or_add(close: str, field_name: str) -> str:
    add = f"add it to {field_name} in service.yaml"
    return f"{close} if not, {add}" if close else add


# --- across files --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Catalogue:
    """The files of a catalogue whose every file passed its schema, with their data as plain values."""

    service: CatalogFile
    listing: CatalogFile
    register: CatalogFile
    versions: list[CatalogFile]
    svc: dict[str, Any]
    entries: list[dict[str, Any]]
    items: list[dict[str, Any]]
    listing_problems: tuple[Problem, ...]
    """The listing's own problems: the values of the version files are judged only against a sound listing."""

    @classmethod
    def of(cls, service: CatalogFile, listing: CatalogFile, register: CatalogFile,
           versions: list[CatalogFile]) -> Catalogue:
        svc = service.root.plain()
        items = register.root.plain()["items"]
        problems = listing_rules(listing, {a["id"] for a in svc["areas"]}, {item["id"]: item for item in items})
        return cls(service=service, listing=listing, register=register, versions=versions, svc=svc,
                   entries=listing.root.plain()["entries"], items=items, listing_problems=tuple(problems))

    @property
    def labels(self) -> list[str]:
        labels: list[str] = self.svc["version_labels"]
        return labels

    @property
    def plan_names(self) -> list[str]:
        names: list[str] = self.svc["plan_entries"]
        return names

    def listed_versions(self) -> Iterator[tuple[CatalogFile, str, Node]]:
        """Each version file whose label service.yaml lists, with the label and its node."""
        for f in self.versions:
            label_node = f.root.value["label"]
            if label_node.value in self.labels:
                yield f, label_node.value, label_node


def label_files(c: Catalogue) -> dict[str, CatalogFile]:
    """The file of each listed label (the first, in file name order, when two name the same label)."""
    by_label: dict[str, CatalogFile] = {}
    for f, label, _ in c.listed_versions():
        by_label.setdefault(label, f)
    return by_label


Rule = Callable[[Catalogue], Iterator[Problem]]


def _once(f: CatalogFile, values: list[str], path: list[PathPart], key: str, what: str) -> Iterator[Problem]:
    seen: set[str] = set()
    for i, v in enumerate(values):
        if v in seen:
            where = [*path, i, key] if key else [*path, i]
            yield problem(f, node_at(f.root, where), where, f"each {what} once", f"{v!r} again")
        seen.add(v)


def _area_ids_once(c: Catalogue) -> Iterator[Problem]:
    yield from _once(c.service, [a["id"] for a in c.svc["areas"]], ["areas"], "id", "area id")


def _register_ids_once(c: Catalogue) -> Iterator[Problem]:
    yield from _once(c.register, [i["id"] for i in c.items], ["items"], "id", "register id")


def _listing(c: Catalogue) -> Iterator[Problem]:
    yield from c.listing_problems


def _register_positions_exist(c: Catalogue) -> Iterator[Problem]:
    positions = {e["position"] for e in c.entries}
    for i, item in enumerate(c.items):
        for j, pos in enumerate(item.get("entries", [])):
            if pos not in positions:
                where: list[PathPart] = ["items", i, "entries", j]
                yield problem(c.register, node_at(c.register.root, where), where,
                              f"the position of a listing entry (1 to {len(c.entries)})", str(pos))


def _register_entries_with_their_scope(c: Catalogue) -> Iterator[Problem]:
    for i, item in enumerate(c.items):
        if (item["scope"] == "entry") == ("entries" in item):
            continue
        node = node_at(c.register.root, ["items", i])
        if "entries" in item:
            yield problem(c.register, node, ["items", i, "entries"], "entries only when scope is 'entry'",
                          f"entries with scope {item['scope']!r}", "set scope: entry or remove the entries")
        else:
            yield problem(c.register, node, ["items", i, "entries"], "entries when scope is 'entry'",
                          "no entries", "list the positions it applies to, such as entries: [23]")


# The register may not say that something is not given while the catalogue gives it: a page would show both
# ("/newThing" and "that entry's path is not given"). An item's `subject` names the field it is about; one rule
# per subject.

SubjectRule = Callable[[Catalogue, int, dict[str, Any]], Iterator[Problem]]


def _named_entries(c: Catalogue, i: int, item: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Node, list[PathPart]]]:
    """The listing entries a register item names, each with the node naming it and its key path (positions that
    name no entry are reported by `_register_positions_exist`)."""
    by_position = {e["position"]: e for e in c.entries}
    for j, pos in enumerate(item.get("entries", [])):
        if pos in by_position:
            where: list[PathPart] = ["items", i, "entries", j]
            yield by_position[pos], node_at(c.register.root, where), where


def _base_url_not_given(c: Catalogue, i: int, item: dict[str, Any]) -> Iterator[Problem]:
    if c.svc.get("base_url") is not None:
        yield problem(c.register, node_at(c.register.root, ["items", i, "subject"]), ["items", i, "subject"],
                      "base_url: null in service.yaml (the item says the base URL is not shown)",
                      f"the base URL {c.svc['base_url']!r} in service.yaml",
                      "remove the item or its subject, or set base_url: null")


def _paths_not_given(c: Catalogue, i: int, item: dict[str, Any]) -> Iterator[Problem]:
    for e, node, where in _named_entries(c, i, item):
        if e["path"] is not None:
            pos = e["position"]
            yield problem(c.register, node, where, "only entries whose path is not given (the item says it is not "
                          "shown)", f"entry {pos}, whose path is {e['path']!r} in listing.yaml",
                          f"take entry {pos} out of this item, remove the item, or take the path out of the listing")


def _positions_not_given(c: Catalogue, i: int, item: dict[str, Any]) -> Iterator[Problem]:
    for e, node, where in _named_entries(c, i, item):
        if e["path"] is not None:
            pos = e["position"]
            yield problem(c.register, node, where, "only entries without a path (the source numbers every entry "
                          "that has one, so its position is given)",
                          f"entry {pos}, whose path is {e['path']!r} in listing.yaml",
                          f"take entry {pos} out of this item, remove the item, or take the path out of the listing")


def _markers_not_given(c: Catalogue, i: int, item: dict[str, Any]) -> Iterator[Problem]:
    if item["scope"] == "operation":  # every entry's marker
        given = [e for e in c.entries if e["version_marker"]["at"] != "not-shown"]
        if given:
            first = given[0]
            yield problem(c.register, node_at(c.register.root, ["items", i, "subject"]), ["items", i, "subject"],
                          "every listing entry's version_marker to be {at: not-shown} (scope operation names them "
                          "all)", f"{len(given)} of {len(c.entries)} entries with their marker given, the first "
                          f"entry {first['position']} with {_marker_text(first['version_marker'])}",
                          "set scope: entry and list the entries whose marker is not shown")
        return
    for e, node, where in _named_entries(c, i, item):
        if e["version_marker"]["at"] != "not-shown":
            pos = e["position"]
            yield problem(c.register, node, where,
                          "only entries whose version marker is not given (version_marker: {at: not-shown})",
                          f"entry {pos}, whose version_marker is {_marker_text(e['version_marker'])} in listing.yaml",
                          f"take entry {pos} out of this item or remove the item")


SUBJECT_RULES: dict[str, SubjectRule] = {
    "base-url": _base_url_not_given,
    "entry-path": _paths_not_given,
    "entry-position": _positions_not_given,
    "version-marker": _markers_not_given,
}
"""Each `subject` of a register item and the rule that the catalogue does not give what the item says is not."""


def _register_agrees(c: Catalogue) -> Iterator[Problem]:
    for i, item in enumerate(c.items):
        subject = item.get("subject")
        if subject is None:
            continue
        scopes = SUBJECT_SCOPES[subject]
        if item["scope"] not in scopes:
            node = node_at(c.register.root, ["items", i, "scope"])
            yield problem(c.register, node, ["items", i, "scope"],
                          f"scope {' or '.join(scopes)} for subject {subject}", f"scope {item['scope']}",
                          f"set scope: {scopes[0]}, or change or remove the subject")
            continue  # which entries it names is unclear: judge none of them
        yield from SUBJECT_RULES[subject](c, i, item)


def _labels_once(c: Catalogue) -> Iterator[Problem]:
    yield from _once(c.service, c.labels, ["version_labels"], "", "version label")


def _plan_names_once(c: Catalogue) -> Iterator[Problem]:
    yield from _once(c.service, c.plan_names, ["plan_entries"], "", "plan entry")


@dataclass(slots=True, kw_only=True)
class _NameWalk:
    """The names of one list seen so far: by page URL (case ignored) and by what a reader sees."""

    slugs: dict[str, str] = field(default_factory=dict)
    alike: dict[str, int] = field(default_factory=dict)


def _name_problem(c: Catalogue, group: list[str], path: list[PathPart], what: str, i: int,
                  seen: _NameWalk) -> Problem | None:
    """The first thing wrong with name `i` of a list as a page name: a valid file name, a free URL, a name that
    reads differently from the others (catalog/names.py), a URL unique when case is ignored."""
    name = group[i]
    s = label_slug(name).lower()
    bad_name = file_name_problem(label_slug(name))
    keys = look_alike_keys(name)
    twin = next((seen.alike[k] for k in keys if k in seen.alike), i)
    for k in keys:
        seen.alike.setdefault(k, i)
    node = node_at(c.service.root, [*path, i])
    if bad_name is not None:
        return problem(c.service, node, [*path, i], "a name that gives a valid page file name",
                       f"{bad_name[0]} ({name!r})", bad_name[1])
    if reserved_slug(s, paged=False):
        return problem(c.service, node, [*path, i], "a name whose page URL is free (index names the folder's index "
                       "page, sitemap.xml and feed.xml files the site writes)", f"{name!r}", "rename it")
    if group[twin] != name:  # the same name twice is reported by _labels_once and _plan_names_once
        other = node_at(c.service.root, [*path, twin])
        return problem(c.service, node, [*path, i], f"a name that reads differently from every other {what}",
                       f"{name!r}", f"{group[twin]!r} at {c.service.name}:{other.line}:{other.column} reads the "
                       "same; names must differ in more than case, spacing, character width or characters that look "
                       "alike (O and 0, l and 1)")
    if s in seen.slugs and seen.slugs[s] != name:
        return problem(c.service, node, [*path, i], "a URL slug unique when case is ignored", f"{name!r}",
                       f"{seen.slugs[s]!r} has the same page URL")
    return None


def _names_give_pages(c: Catalogue) -> Iterator[Problem]:
    for group, path, what in ((c.labels, ["version_labels"], "version label"),
                              (c.plan_names, ["plan_entries"], "plan entry")):
        seen = _NameWalk()
        for i, name in enumerate(group):
            found = _name_problem(c, group, list(path), what, i, seen)
            if found is not None:
                yield found
            seen.slugs.setdefault(label_slug(name).lower(), name)


def _comparisons_give_pages(c: Catalogue) -> Iterator[Problem]:
    """Each comparison of consecutive labels has its own page, compare/<from>...<to>: labels holding
    '...' could give two comparisons one URL (`A` then `B...C`, `A...B` then `C`)."""
    labels = c.labels
    seen: dict[str, tuple[str, str]] = {}
    for i in range(1, len(labels)):
        a, b = labels[i - 1], labels[i]
        slug = f"{label_slug(a)}...{label_slug(b)}"
        node = node_at(c.service.root, ["version_labels", i])
        other = seen.get(slug.lower())
        if other is not None and other != (a, b):
            yield problem(c.service, node, ["version_labels", i], "comparison pages with distinct URLs",
                          f"the comparison {a!r} to {b!r} at compare/{slug}/",
                          f"the comparison {other[0]!r} to {other[1]!r} has the same URL; keep '...' out of labels")
        seen.setdefault(slug.lower(), (a, b))
        bad_name = file_name_problem(slug)
        if bad_name is not None:
            yield problem(c.service, node, ["version_labels", i], "a comparison page with a valid file name",
                          f"{bad_name[0]} (compare/{slug[:60]})", bad_name[1])


def _version_labels_listed(c: Catalogue) -> Iterator[Problem]:
    for f in c.versions:
        label_node = f.root.value["label"]
        label = label_node.value
        if label not in c.labels:  # its file name, plans and values cannot be judged against a label we do not know
            yield problem(f, label_node, ["label"], "a label listed in service.yaml version_labels", f"{label!r}",
                          _or_add(close_to(label, c.labels), "version_labels"))


def _version_labels_once(c: Catalogue) -> Iterator[Problem]:
    first: dict[str, CatalogFile] = {}
    for f, label, label_node in c.listed_versions():
        if label in first:
            yield problem(f, label_node, ["label"], "each version label in one file", f"{label!r} again",
                          f"also in {first[label].name}")
        first.setdefault(label, f)


def _version_files_named(c: Catalogue) -> Iterator[Problem]:
    for f, label, label_node in c.listed_versions():
        if Path(f.name).stem != label_slug(label):
            yield problem(f, label_node, ["label"], f"the file to be named {label_slug(label)}.yaml",
                          f"{Path(f.name).name}", "rename the file or fix the label")


def _plans_listed(c: Catalogue) -> Iterator[Problem]:
    for f, _, _ in c.listed_versions():
        plans = f.root.value["plans"]
        for plan_name in plans.value:
            if plan_name not in c.plan_names:
                yield problem(f, plans.key_marks[plan_name], ["plans", plan_name],
                              "a plan entry listed in service.yaml plan_entries", f"{plan_name!r}",
                              _or_add(close_to(plan_name, c.plan_names), "plan_entries"))


@dataclass(frozen=True, slots=True, kw_only=True)
class _Values:
    """One plan entry's values in one version file, and the listing they are keyed by."""

    f: CatalogFile
    plan: str
    vals: Node
    keys: list[str]
    key_set: set[str]

    def where(self, key: str) -> list[PathPart]:
        return ["plans", self.plan, "values", key]


def _values_known(v: _Values, lock_values: set[str]) -> Iterator[Problem]:
    for key, value in v.vals.value.items():
        if key not in v.key_set:
            yield problem(v.f, v.vals.key_marks[key], v.where(key), "a listing entry key",
                          f"a value for the unknown entry {key!r}", close_to(key, v.keys) or "remove it")
        elif value.value not in lock_values:
            yield problem(v.f, value, v.where(key), "a lock value from service.yaml lock_values", f"{value.value!r}")


def _values_missing(v: _Values) -> Iterator[Problem]:
    keys, present = v.keys, v.vals.value
    for pos, k in enumerate(keys, start=1):
        if k in present:
            continue
        # Point at the line where the value belongs: the next entry in listing order that is present.
        after = next((x for x in keys[pos:] if x in present), None)
        before = next((x for x in reversed(keys[: pos - 1]) if x in present), None)
        if after is not None:
            mark, hint = v.vals.key_marks[after], f"add '{k}: ...' before {after}"
        elif before is not None:
            mark, hint = v.vals.key_marks[before], f"add '{k}: ...' after {before}"
        else:
            mark, hint = (v.vals.line, v.vals.column), f"add '{k}: ...'"
        yield problem(v.f, mark, v.where(k), f"a value for listing entry {pos} ({k})", "none",
                      hint + "; every plan entry has one value per listing entry")


def _values_in_order(v: _Values) -> Iterator[Problem]:
    order = [k for k in v.vals.value if k in v.key_set]
    if len(order) != len(v.keys) or order == v.keys:
        return  # a value missing is reported as such
    first = next(i for i, (a, b) in enumerate(zip(order, v.keys, strict=True)) if a != b)
    yield problem(v.f, v.vals.key_marks[order[first]], v.where(order[first]),
                  f"values in listing order ({v.keys[first]} here)", f"{order[first]}",
                  "the source lists values in listing order")


def _plan_values(c: Catalogue) -> Iterator[Problem]:
    """One value per listing entry, each a lock value, in listing order; judged only against a sound listing."""
    if c.listing_problems:
        return
    keys = [entry_key(e["position"], e["path"]) for e in c.entries]
    key_set = set(keys)
    lock_values = set(c.svc["lock_values"]["values"])
    for f, _, _ in c.listed_versions():
        for plan_name, plan in f.root.value["plans"].value.items():
            if plan_name in c.plan_names:
                v = _Values(f=f, plan=plan_name, vals=plan.value["values"], keys=keys, key_set=key_set)
                yield from _values_known(v, lock_values)
                yield from _values_missing(v)
                yield from _values_in_order(v)


def _labels_have_files(c: Catalogue) -> Iterator[Problem]:
    by_label = label_files(c)
    stems = {Path(f.name).stem for f in c.versions}
    for label in c.labels:
        if label not in by_label and label_slug(label) not in stems:  # else that file's label is reported
            i = c.labels.index(label)
            node = node_at(c.service.root, ["version_labels", i])
            yield problem(c.service, node, ["version_labels", i], f"a file versions/{label_slug(label)}.yaml",
                          "no such file", "add the file or remove the label")


def _sections_in_order(c: Catalogue) -> Iterator[Problem]:
    """The source's sections are listed §1, §2, ... in order, each once, so `§N` names one of them."""
    for i, s in enumerate(c.svc["source_document"]["sections"]):
        if s["number"] != i + 1:
            where: list[PathPart] = ["source_document", "sections", i, "number"]
            yield problem(c.service, node_at(c.service.root, where), where,
                          f"{i + 1} (the sections in order, from 1)", str(s["number"]))


_CITATION = re.compile(r"§([0-9]+)")


def _citations(node: Node, path: list[PathPart]) -> Iterator[tuple[Node, list[PathPart]]]:
    """Every citation of a file (the value of a `source` or `section` key, at any depth), with its path; a plan
    entry's `values` hold lock values only, and are not walked."""
    if node.kind == "map":
        for key, child in node.value.items():
            if key in ("source", "section") and child.kind == "scalar":
                yield child, [*path, key]
            elif key != "values":
                yield from _citations(child, [*path, key])
    elif node.kind == "seq":
        for i, child in enumerate(node.value):
            yield from _citations(child, [*path, i])


def _citations_name_sections(c: Catalogue) -> Iterator[Problem]:
    """Each section a citation names is a section of the source document (service.yaml source_document)."""
    numbers = sorted({s["number"] for s in c.svc["source_document"]["sections"]})
    listed = ", ".join(f"§{n}" for n in numbers) if len(numbers) <= 12 else f"§{numbers[0]} ... §{numbers[-1]}"
    for f in (c.service, c.listing, c.register, *c.versions):
        for node, path in _citations(f.root, []):
            missing = [n for n in (int(m) for m in _CITATION.findall(node.value)) if n not in numbers]
            if missing:
                yield problem(f, node, path, f"a section of the source document ({listed})",
                              f"§{missing[0]} in {node.value!r}",
                              "add the section to source_document.sections in service.yaml or fix the citation")


CROSS_RULES: tuple[Rule, ...] = (
    _area_ids_once,
    _register_ids_once,
    _listing,
    _register_positions_exist,
    _register_agrees,
    _register_entries_with_their_scope,
    _labels_once,
    _plan_names_once,
    _names_give_pages,
    _comparisons_give_pages,
    _version_labels_listed,
    _version_labels_once,
    _version_files_named,
    _plans_listed,
    _plan_values,
    _labels_have_files,
    _sections_in_order,
    _citations_name_sections,
)
"""Every rule across files, in the order they run (problems at one place keep this order in the report)."""


def cross_problems(c: Catalogue) -> Iterator[Problem]:
    """Every problem the rules across files find."""
    for rule in CROSS_RULES:
        yield from rule(c)
