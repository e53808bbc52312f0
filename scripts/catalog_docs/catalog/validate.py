"""Stage 2: check loaded files against the JSON Schemas, then the rules a schema cannot say, then build the model.

Every check yields problems instead of raising, so one run reports every error in every file.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError

from catalog_docs.catalog.files import FIXED_FILES, catalogue_sources
from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.catalog.locate import shown_path
from catalog_docs.catalog.load import KeyPath, LoadedFile, Node, ParseCache, kind_word, load_file
from catalog_docs.catalog.names import look_alike_key, name_flaw
from catalog_docs.catalog.model import (
    Area,
    Catalog,
    ListingEntry,
    NotShown,
    PlanEntry,
    Service,
    VersionLabel,
    VersionMarker,
    entry_key,
    entry_slug,
    label_slug,
)
from catalog_docs.catalog.schema_fast import AnchoredValidator, ValuesFastPath
from catalog_docs.errors import CatalogDocsError, CatalogInvalid, Problem
from catalog_docs.layout import SCHEMA_DIR

"""The JSON Schemas are part of the tool: every catalogue folder, fixtures included, is checked against them."""
_TYPE_WORDS = {"string": "a text", "integer": "a whole number", "object": "a mapping", "array": "a list",
               "null": "null", "boolean": "true or false", "number": "a number"}


@dataclass(frozen=True, slots=True, kw_only=True)
class _File:
    kind: str
    loaded: LoadedFile

    @property
    def root(self) -> Node:
        assert self.loaded.root is not None
        return self.loaded.root

    @property
    def name(self) -> str:
        return self.loaded.name


@cache
def _validator(schema_path: Path) -> ValuesFastPath:
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogDocsError(f"cannot read the JSON Schema {schema_path}: {exc.strerror}") from None
    return ValuesFastPath(AnchoredValidator(schema))


def _prefix(f: _File) -> str:
    if f.kind == "version-label":
        tree = f.loaded.root or f.loaded.outline
        label = tree.value.get("label") if tree is not None and tree.kind == "map" else None
        shown = label.value if label is not None and isinstance(label.value, str) else Path(f.name).stem
        return f"versions[{shown}]"
    return f.kind


def _key_path(f: _File, path: list[Any] | KeyPath) -> str:
    out = _prefix(f)
    path = list(path)
    for i, part in enumerate(path):
        parent = path[i - 1] if i else None
        if isinstance(part, int):
            out += f"[{part + 1}]"
        elif f.kind == "version-label" and i == 1 and parent == "plans":
            out += f"[{part}]"
        elif f.kind == "version-label" and i == 2 and part == "values":
            pass  # versions[L].plans[P][/path]: the values map is implied
        elif f.kind == "version-label" and i == 3 and parent == "values":
            out += f"[{part}]"
        else:
            out += f".{part}"
    return out


def _child(node: Node, part: Any) -> Node | None:
    """One step down a key path: a mapping's value or a list's item, or None when it is not there."""
    if node.kind == "map" and isinstance(part, str):
        return node.value.get(part)
    if node.kind == "seq" and isinstance(part, int) and part < len(node.value):
        return node.value[part]
    return None


def _node_at(root: Node, path: list[Any]) -> Node:
    node = root
    for part in path:
        child = _child(node, part)
        if child is None:
            break
        node = child
    return node


def _close(word: Any, options: list[str]) -> str:
    if not isinstance(word, str):
        return ""
    lowered = {o.lower(): o for o in options}
    if word.lower() in lowered:
        return f"did you mean {lowered[word.lower()]!r}? values are case-sensitive"
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f"did you mean {match[0]!r}?" if match else ""


def _or_add(close: str, field: str) -> str:
    add = f"add it to {field} in service.yaml"
    return f"{close} if not, {add}" if close else add


def _p(f: _File, node: Node | tuple[int, int], path: list[Any], expected: str, found: str, hint: str = "") -> Problem:
    line, column = (node.line, node.column) if isinstance(node, Node) else node
    return Problem(file=f.name, line=line, column=column, key_path=_key_path(f, path),
                   expected=expected, found=found, hint=hint)


def _schema_problems(f: _File, schema_dir: Path) -> Iterator[Problem]:
    validator = _validator(schema_dir / f"{f.kind}.schema.json")
    seen: set[tuple[str, int, int]] = set()
    for err in validator.iter_errors(f.root.plain()):
        if _refused_on(f.root, list(err.absolute_path)):
            continue  # the loader already reported this value (tag, alias, merge key, nesting)
        for problem in _explain(f, err):
            ident = (problem.key_path, problem.line, problem.column)
            if ident not in seen:
                seen.add(ident)
                yield problem


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
        node = _child(node, part)
    return node is not None and node.refused


_URL_SAFE = "[A-Za-z0-9._~/-]"
"""Characters that stand for themselves in a URL path and a file name (RFC 3986 unreserved, and '/')."""


def _bad_character_hint(schema: dict[str, Any], value: Any) -> str:
    # The hint names the first character that neither the pattern's own classes nor a URL accept; the
    # schemas carry only standard keywords (ajv's strict mode refuses unknown ones), so it is not listed there.
    pattern = schema.get("pattern")
    if not isinstance(pattern, str) or not isinstance(value, str):
        return ""
    classes = [_URL_SAFE, *re.findall(r"\[[^\]]*\]", pattern)]
    literal = re.sub(r"\[[^\]]*\]|\\.", "", pattern)  # characters the pattern names outside classes (§)
    for ch in value:
        if ch not in literal and not any(re.fullmatch(c, ch) for c in classes):
            shown = {" ": "a space", "?": "'?' (it starts a URL query)", "#": "'#' (it starts a URL fragment)"}.get(
                ch, repr(ch))
            return f"{shown} cannot appear in a URL or file name"
    return ""


def _is_name(f: _File, path: list[Any]) -> bool:
    """Whether the value at `path` is a version label or plan entry name (catalog/names.py has their rules)."""
    if f.kind == "service":
        return len(path) == 2 and path[0] in ("version_labels", "plan_entries")
    return f.kind == "version-label" and (path == ["label"] or (len(path) == 2 and path[0] == "plans"))


def _name_hint(f: _File, path: list[Any], value: Any) -> str:
    """For a name the schema refuses, which of the name rules it breaks (`a space at its end; remove it`)."""
    flaw = name_flaw(value) if isinstance(value, str) and _is_name(f, path) else None
    return flaw or ""


def _explain(f: _File, err: ValidationError) -> Iterator[Problem]:
    path = list(err.absolute_path)
    node = _node_at(f.root, path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    kind = err.validator
    if "propertyNames" in err.schema_path and node.kind == "map" and isinstance(err.instance, str):
        mark = node.key_marks.get(err.instance, (node.line, node.column))
        yield _p(f, mark, [*path, err.instance], schema.get("title", "a valid key"), f"the key {err.instance!r}",
                 _name_hint(f, [*path, err.instance], err.instance))
    elif kind == "type":
        types = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        expected = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        hint = ""
        if "string" in types and node.kind == "scalar" and node.raw and not node.refused:
            if node.tag == "tag:yaml.org,2002:null":
                hint = f'`{node.raw}` means nothing in YAML; write the text, quoted if it is "{node.raw}" itself'
            else:
                hint = f'quote it to keep it as text: "{node.raw}"'
        yield _p(f, node, path, expected, node.describe(), hint)
    elif kind in ("enum", "const"):
        options = err.validator_value if kind == "enum" else [err.validator_value]
        words = [json.dumps(o) if not isinstance(o, str) else o for o in options]
        expected = schema.get("title") or ("one of " + ", ".join(words) if len(words) > 1 else words[0])
        hint = _close(node.raw if node.kind == "scalar" else None, [w for w in words])
        if not hint and node.kind == "scalar" and node.tag != "tag:yaml.org,2002:str" and node.raw in words:
            hint = f'quote it: "{node.raw}"'
        yield _p(f, node, path, expected, node.describe(), hint)
    elif kind == "required":
        unknown = [k for k in err.instance if k not in schema.get("properties", {})] if isinstance(err.instance, dict) else []
        for name in err.validator_value:
            if isinstance(err.instance, dict) and name not in err.instance:
                if difflib.get_close_matches(name, unknown, n=1, cutoff=0.6):
                    continue  # a misspelt key: the unknown-key problem names both and says which to fix
                yield _p(f, node, [*path, name], f"the key {name!r}", "no such key", "add it; it is required here")
    elif kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        for key in err.instance:
            if key not in allowed:
                mark = node.key_marks.get(key, (node.line, node.column))
                expected = "one of the keys " + ", ".join(allowed)
                yield _p(f, mark, [*path, key], expected, f"the unknown key {key!r}", _close(key, allowed))
    elif kind == "pattern":
        yield _p(f, node, path, schema.get("title", f"text matching {err.validator_value}"), node.describe(),
                 _name_hint(f, path, err.instance) or _bad_character_hint(schema, err.instance))
    elif kind in ("minItems", "minProperties"):
        yield _p(f, node, path, f"at least {err.validator_value} item(s)", f"{len(err.instance)}")
    elif kind in ("maxItems", "maxProperties"):
        yield _p(f, node, path, f"at most {err.validator_value} items", f"{len(err.instance)} items")
    elif kind == "maxLength":
        yield _p(f, node, path, f"text of at most {err.validator_value} characters", f"{len(err.instance)} characters",
                 "shorten it")
    elif kind == "minLength":
        yield _p(f, node, path, "a non-empty text", "an empty text")
    elif kind == "uniqueItems":
        yield _p(f, node, path, "each item once", "a repeated item")
    elif kind == "minimum":
        yield _p(f, node, path, f"a number of at least {err.validator_value}", node.describe())
    else:
        yield _p(f, node, path, f"a value allowed by '{kind}'", err.message)


def _collect_files(catalog_dir: Path, parsed: ParseCache | None = None) -> tuple[list[_File], list[Problem]]:
    files: list[_File] = []
    problems: list[Problem] = []

    if not catalog_dir.is_dir():
        return [], [Problem(file=shown_path(catalog_dir), line=1, column=1, key_path="(catalogue)",
                            expected="a catalogue folder", found="no such folder",
                            hint="pass --catalog DIR or run from the project root")]
    wanted: list[tuple[Path, str]] = []
    for source in catalogue_sources(catalog_dir):
        path = source.path

        def refuse(expected: str, found: str, hint: str) -> None:
            problems.append(Problem(file=shown_path(path), line=1, column=1, key_path="(catalogue)",
                                    expected=expected, found=found, hint=hint))

        if source.role == "unexpected":
            refuse("one of " + ", ".join(FIXED_FILES) + " or versions/*.yaml",
                   "a symbolic link leaving the catalogue folder" if source.kind == "outside-link" else "an unexpected file",
                   "move or rename it")
        elif source.role == "unexpected-in-versions":
            refuse("a .yaml file", "an unexpected file",
                   f"rename it to {path.stem}.yaml" if path.suffix == ".yml" else "move or rename it")
        elif source.kind == "missing" and source.role != "version-label":
            refuse(f"the file {path.name}", "no such file", "every catalogue has " + ", ".join(FIXED_FILES) + "; restore it")
        elif source.kind == "outside-link":
            refuse("a file inside the catalogue folder", f"a symbolic link to {source.target}, outside it",
                   "copy the file into the catalogue; links may point only inside the catalogue folder")
        elif source.kind == "dangling-link":
            refuse("a regular file", "a symbolic link to a missing file", "point the link at a file or remove it")
        elif source.kind in ("special", "folder"):
            refuse("a regular file", kind_word(source.mode) if source.mode else "a file that cannot be examined",
                   "a catalogue file is a plain file; replace it with the file itself")
        else:
            wanted.append((path, source.role))
    for path, kind in wanted:
        result = load_file(path, shown_path(path), parsed)
        f = _File(kind=kind, loaded=result)
        for problem, where in result.problems:
            problems.append(problem if where is None else replace(problem, key_path=_key_path(f, where)))
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
    files, problems = _collect_files(catalog_dir, cache.parsed if cache is not None else None)
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
                problems.extend(_listing_rules(f, None, None))
        raise CatalogInvalid(problems)
    cross = _Cross(by_kind)
    problems.extend(cross.check())
    if problems:
        raise CatalogInvalid(problems)
    return cross.build()


_PAGE_N = re.compile(r"page-([2-9]|[1-9][0-9]+)")  # the table pages after the first (which is index)

MAX_NAME_BYTES = 255
"""The longest file name ext4, APFS, NTFS and most other file systems accept (bytes or UTF-16 units)."""
LONGEST_SUFFIX = ".html"
"""The longest ending added to a slug in a generated name: `<slug>.md` in docs/, `<slug>.html` for a
builder without directory URLs (a slug's `page-N` pages go into a folder named by the slug alone)."""
_WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in "0123456789¹²³")}


def file_name_problem(slug: str) -> tuple[str, str] | None:
    """Why a slug cannot name a generated file on every file system contributors use, as (found, hint);
    None when it can. Checked at `check` time, so the render never meets a name it cannot write."""
    if slug.startswith("."):
        return "a name starting with '.'", "mkdocs skips hidden files, so the page would not be built; remove the dot"
    if slug.strip(".") == "":
        return "a name of dots only", "name it with letters or digits"
    if slug.endswith((".", " ")):
        return "a name ending with a dot or a space", "Windows drops trailing dots and spaces; remove it"
    if slug.split(".", maxsplit=1)[0].rstrip(" ").lower() in _WINDOWS_DEVICES:
        return f"the Windows device name {slug.split('.', maxsplit=1)[0]!r}", "Windows reserves it in every folder; rename it"
    size = len((slug + LONGEST_SUFFIX).encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return (f"a name of {len(slug.encode('utf-8'))} bytes",
                f"generated file names ({slug[:12]}...{LONGEST_SUFFIX}) may have at most {MAX_NAME_BYTES} bytes; "
                f"shorten it to {MAX_NAME_BYTES - len(LONGEST_SUFFIX)}")
    return None


def reserved_slug(slug: str, *, paged: bool) -> bool:
    """True for a slug that a generated page already takes in its folder: `index` in every folder, and
    `page-N` where the index itself is split into pages (operations/)."""
    slug = slug.lower()
    return slug == "index" or (paged and _PAGE_N.fullmatch(slug) is not None)


def _listing_rules(f: _File, area_ids: set[str] | None, register: dict[str, dict[str, Any]] | None) -> Iterator[Problem]:
    entries = f.root.value["entries"].value
    seen_paths: dict[str, int] = {}
    seen_slugs: dict[str, tuple[int, str]] = {}
    misnumbered = False
    for i, node in enumerate(entries):
        e = node.value
        pos = e["position"].value
        if pos != i + 1 and not misnumbered:  # one entry out of place shifts all that follow: report it once
            misnumbered = True
            yield _p(f, e["position"], ["entries", i, "position"], f"position {i + 1} (entries are in listing order)",
                     f"position {pos}", "renumber the entries 1, 2, 3, ... from here on")
        path = e["path"].value
        dotted = path is not None and any(seg and seg.strip(".") == "" for seg in path.split("/"))
        if path is not None:
            if dotted:
                yield _p(f, e["path"], ["entries", i, "path"], "a path without segments of dots only ('.', '..', '...')",
                         node_text(e["path"]))
            if path in seen_paths:
                yield _p(f, e["path"], ["entries", i, "path"], "each path once", f"{path!r} again",
                         f"already the path of entry {seen_paths[path]}")
            seen_paths.setdefault(path, i + 1)
        slug = entry_slug(pos, path).lower()
        bad_name = file_name_problem(entry_slug(pos, path)) if path is not None and not dotted else None
        if bad_name is not None:
            yield _p(f, e["path"], ["entries", i, "path"], "a path that gives a valid page file name",
                     f"{bad_name[0]} (the slug {entry_slug(pos, path)[:60]!r})", bad_name[1])
        elif reserved_slug(slug, paged=True):
            yield _p(f, e["path"], ["entries", i, "path"],
                     "a path whose page URL is free (index and page-N name the operations table's pages)",
                     f"the slug {entry_slug(pos, path)!r}", "rename the path")
        elif slug in seen_slugs and (path is None or path not in seen_paths or seen_paths[path] == i + 1):
            other, other_title = seen_slugs[slug]
            yield _p(f, e["path"], ["entries", i, "path"], "a URL slug unique when case is ignored",
                     f"the slug {entry_slug(pos, path)!r}",
                     f"entry {other}, {other_title}, has the same page URL on a case-insensitive file system")
        seen_slugs.setdefault(slug, (i + 1, path if path is not None else f"entry-{pos}"))
        marker = e["version_marker"].value
        at = marker["at"].value
        if (at in ("start", "end")) != ("token" in marker):
            if "token" in marker:
                yield _p(f, marker["token"], ["entries", i, "version_marker", "token"],
                         "a token only when the marker is at the start or end", f"a token with at: {at}",
                         "remove the token or set at: start or end")
            else:
                yield _p(f, e["version_marker"], ["entries", i, "version_marker", "token"],
                         f"a token when the marker is at the {at}", "no token", "add the marker, such as token: v1")
        elif at in ("start", "end") and path is not None:
            token = marker["token"].value
            segs = path.strip("/").split("/")
            where = segs[0] if at == "start" else segs[-1]
            if where != token:
                yield _p(f, e["version_marker"], ["entries", i, "version_marker"],
                         f"the path to {at} with the segment {token!r}", f"the path {path!r}")
        if path is None and at != "not-shown":
            yield _p(f, marker["at"], ["entries", i, "version_marker", "at"],
                     "'not-shown' for an entry whose path is not given", f"{at!r}",
                     "an entry without a path has no marker we can see")
        elif path is not None and at == "not-shown":
            yield _p(f, marker["at"], ["entries", i, "version_marker", "at"],
                     "where the marker sits in the path (none, start or end), since the path is given",
                     f"'not-shown' beside the path {path!r}", "set at: none, or start or end with its token")
        if area_ids is not None and e["area"].value is not None:
            aid = e["area"].value["id"]
            if aid.value not in area_ids:
                yield _p(f, aid, ["entries", i, "area", "id"], "an area id from service.yaml",
                         f"{aid.value!r}", _close(aid.value, sorted(area_ids)))
        if register is not None and "not_shown" in e:
            for j, ref in enumerate(e["not_shown"].value):
                if ref.value not in register:
                    yield _p(f, ref, ["entries", i, "not_shown", j], "an id from not-shown.yaml", f"{ref.value!r}",
                             _close(ref.value, sorted(register)))


def node_text(node: Node) -> str:
    """A short description of a node for messages."""
    return node.describe()


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


class _Cross:
    """Rules across files, then the model build. Only runs on files that passed their schema."""

    def __init__(self, by_kind: dict[str, list[_File]]) -> None:
        self.service = by_kind["service"][0]
        self.listing = by_kind["listing"][0]
        self.register = by_kind["not-shown"][0]
        self.versions = by_kind.get("version-label", [])

    def check(self) -> Iterator[Problem]:
        svc = self.service.root.plain()
        area_ids = {a["id"] for a in svc["areas"]}
        yield from self._unique(self.service, [a["id"] for a in svc["areas"]], ["areas"], "id", "area id")
        reg_items = self.register.root.plain()["items"]
        register = {item["id"]: item for item in reg_items}
        yield from self._unique(self.register, [i["id"] for i in reg_items], ["items"], "id", "register id")
        listing_problems = list(_listing_rules(self.listing, area_ids, register))
        yield from listing_problems
        entries = self.listing.root.plain()["entries"]
        positions = {e["position"] for e in entries}
        for i, item in enumerate(reg_items):
            for j, pos in enumerate(item.get("entries", [])):
                if pos not in positions:
                    node = _node_at(self.register.root, ["items", i, "entries", j])
                    yield _p(self.register, node, ["items", i, "entries", j],
                             f"the position of a listing entry (1 to {len(entries)})", str(pos))
            yield from self._contradictions(i, item, svc, entries)
            if (item["scope"] == "entry") != ("entries" in item):
                node = _node_at(self.register.root, ["items", i])
                if "entries" in item:
                    yield _p(self.register, node, ["items", i, "entries"], "entries only when scope is 'entry'",
                             f"entries with scope {item['scope']!r}", "set scope: entry or remove the entries")
                else:
                    yield _p(self.register, node, ["items", i, "entries"], "entries when scope is 'entry'",
                             "no entries", "list the positions it applies to, such as entries: [23]")
        # Values are keyed by listing entry; against a listing that is itself wrong they would only echo its errors.
        yield from self._version_rules(svc, entries, check_values=not listing_problems)

    def _contradictions(self, i: int, item: dict[str, Any], svc: dict[str, Any],
                        entries: list[dict[str, Any]]) -> Iterator[Problem]:
        """The register may not say that something is not given while the catalogue gives it: a page would show
        both ("/newThing" and "that entry's path is not given"). An item's `subject` names the field it is about."""
        subject = item.get("subject")
        if subject is None:
            return
        scopes = SUBJECT_SCOPES[subject]
        if item["scope"] not in scopes:
            node = _node_at(self.register.root, ["items", i, "scope"])
            yield _p(self.register, node, ["items", i, "scope"],
                     f"scope {' or '.join(scopes)} for subject {subject}", f"scope {item['scope']}",
                     f"set scope: {scopes[0]}, or change or remove the subject")
            return  # which entries it names is unclear: judge none of them
        if subject == "base-url":
            if svc.get("base_url") is not None:
                node = _node_at(self.register.root, ["items", i, "subject"])
                yield _p(self.register, node, ["items", i, "subject"],
                         "base_url: null in service.yaml (the item says the base URL is not shown)",
                         f"the base URL {svc['base_url']!r} in service.yaml",
                         "remove the item or its subject, or set base_url: null")
            return
        by_position = {e["position"]: e for e in entries}
        if subject == "version-marker" and item["scope"] == "operation":
            given = [e for e in entries if e["version_marker"]["at"] != "not-shown"]
            if given:
                node = _node_at(self.register.root, ["items", i, "subject"])
                first = given[0]
                yield _p(self.register, node, ["items", i, "subject"],
                         "every listing entry's version_marker to be {at: not-shown} (scope operation names them all)",
                         f"{len(given)} of {len(entries)} entries with their marker given, the first entry "
                         f"{first['position']} with {_marker_text(first['version_marker'])}",
                         "set scope: entry and list the entries whose marker is not shown")
            return
        for j, pos in enumerate(item.get("entries", [])):
            e = by_position.get(pos)
            if e is None:
                continue  # reported above: no such entry
            node = _node_at(self.register.root, ["items", i, "entries", j])
            where = ["items", i, "entries", j]
            if subject == "entry-path" and e["path"] is not None:
                yield _p(self.register, node, where,
                         "only entries whose path is not given (the item says it is not shown)",
                         f"entry {pos}, whose path is {e['path']!r} in listing.yaml",
                         f"take entry {pos} out of this item, remove the item, or take the path out of the listing")
            elif subject == "entry-position" and e["path"] is not None:
                yield _p(self.register, node, where,
                         "only entries without a path (the source numbers every entry that has one, so its "
                         "position is given)",
                         f"entry {pos}, whose path is {e['path']!r} in listing.yaml",
                         f"take entry {pos} out of this item, remove the item, or take the path out of the listing")
            elif subject == "version-marker" and e["version_marker"]["at"] != "not-shown":
                yield _p(self.register, node, where,
                         "only entries whose version marker is not given (version_marker: {at: not-shown})",
                         f"entry {pos}, whose version_marker is {_marker_text(e['version_marker'])} in listing.yaml",
                         f"take entry {pos} out of this item or remove the item")

    def _unique(self, f: _File, values: list[str], path: list[Any], key: str, what: str) -> Iterator[Problem]:
        seen: set[str] = set()
        for i, v in enumerate(values):
            if v in seen:
                where = [*path, i, key] if key else [*path, i]
                yield _p(f, _node_at(f.root, where), where, f"each {what} once", f"{v!r} again")
            seen.add(v)

    def _version_rules(self, svc: dict[str, Any], entries: list[dict[str, Any]], *, check_values: bool) -> Iterator[Problem]:
        labels = svc["version_labels"]
        plan_names = svc["plan_entries"]
        yield from self._unique(self.service, labels, ["version_labels"], "", "version label")
        yield from self._unique(self.service, plan_names, ["plan_entries"], "", "plan entry")
        for group, path, what in ((labels, ["version_labels"], "version label"),
                                  (plan_names, ["plan_entries"], "plan entry")):
            slugs: dict[str, str] = {}
            alike: dict[str, int] = {}
            for i, name in enumerate(group):
                s = label_slug(name).lower()
                twin = alike.setdefault(look_alike_key(name), i)
                bad_name = file_name_problem(label_slug(name))
                if bad_name is not None:
                    node = _node_at(self.service.root, [*path, i])
                    yield _p(self.service, node, [*path, i], "a name that gives a valid page file name",
                             f"{bad_name[0]} ({name!r})", bad_name[1])
                elif reserved_slug(s, paged=False):
                    node = _node_at(self.service.root, [*path, i])
                    yield _p(self.service, node, [*path, i],
                             "a name whose page URL is free (index names the folder's index page)",
                             f"{name!r}", "rename it")
                elif group[twin] != name:  # the same name twice is reported by _unique
                    node = _node_at(self.service.root, [*path, i])
                    other = _node_at(self.service.root, [*path, twin])
                    yield _p(self.service, node, [*path, i], f"a name that reads differently from every other {what}",
                             f"{name!r}", f"{group[twin]!r} at {self.service.name}:{other.line}:{other.column} reads "
                             "the same; names must differ in more than case, spacing or character width")
                elif s in slugs and slugs[s] != name:
                    node = _node_at(self.service.root, [*path, i])
                    yield _p(self.service, node, [*path, i], "a URL slug unique when case is ignored",
                             f"{name!r}", f"{slugs[s]!r} has the same page URL")
                slugs.setdefault(s, name)
        yield from self._compare_slugs(labels)
        keys = [entry_key(e["position"], e["path"]) for e in entries]
        key_set = set(keys)
        by_label: dict[str, _File] = {}
        values_lock = set(svc["lock_values"]["values"])
        for f in self.versions:
            label_node = f.root.value["label"]
            label = label_node.value
            if label not in labels:
                yield _p(f, label_node, ["label"], "a label listed in service.yaml version_labels",
                         f"{label!r}", _or_add(_close(label, labels), "version_labels"))
                continue  # its file name, plans and values cannot be judged against a label we do not know
            elif label in by_label:
                yield _p(f, label_node, ["label"], "each version label in one file",
                         f"{label!r} again", f"also in {by_label[label].name}")
            else:
                by_label[label] = f
            stem = Path(f.name).stem
            if stem != label_slug(label):
                yield _p(f, label_node, ["label"], f"the file to be named {label_slug(label)}.yaml",
                         f"{Path(f.name).name}", "rename the file or fix the label")
            plans = f.root.value["plans"]
            for plan_name, plan in plans.value.items():
                if plan_name not in plan_names:
                    mark = plans.key_marks[plan_name]
                    yield _p(f, mark, ["plans", plan_name], "a plan entry listed in service.yaml plan_entries",
                             f"{plan_name!r}", _or_add(_close(plan_name, plan_names), "plan_entries"))
                    continue
                if not check_values:
                    continue
                vals = plan.value["values"]
                for key, value in vals.value.items():
                    if key not in key_set:
                        mark = vals.key_marks[key]
                        yield _p(f, mark, ["plans", plan_name, "values", key], "a listing entry key",
                                 f"a value for the unknown entry {key!r}", _close(key, keys) or "remove it")
                    elif value.value not in values_lock:
                        yield _p(f, value, ["plans", plan_name, "values", key],
                                 "a lock value from service.yaml lock_values", f"{value.value!r}")
                missing = [k for k in keys if k not in vals.value]
                for k in missing:
                    pos = keys.index(k) + 1
                    # Point at the line where the value belongs: the next entry in listing order that is present.
                    after = next((x for x in keys[pos:] if x in vals.value), None)
                    before = next((x for x in reversed(keys[: pos - 1]) if x in vals.value), None)
                    if after is not None:
                        mark, hint = vals.key_marks[after], f"add '{k}: ...' before {after}"
                    elif before is not None:
                        mark, hint = vals.key_marks[before], f"add '{k}: ...' after {before}"
                    else:
                        mark, hint = (vals.line, vals.column), f"add '{k}: ...'"
                    yield _p(f, mark, ["plans", plan_name, "values", k], f"a value for listing entry {pos} ({k})",
                             "none", hint + "; every plan entry has one value per listing entry")
                order = [k for k in vals.value if k in key_set]
                if not missing and order != keys:
                    first = next(i for i, (a, b) in enumerate(zip(order, keys)) if a != b)
                    mark = vals.key_marks[order[first]]
                    yield _p(f, mark, ["plans", plan_name, "values", order[first]],
                             f"values in listing order ({keys[first]} here)", f"{order[first]}",
                             "the source lists values in listing order")
        stems = {Path(f.name).stem for f in self.versions}
        for label in labels:
            if label not in by_label and label_slug(label) not in stems:  # else that file's label is reported
                i = labels.index(label)
                node = _node_at(self.service.root, ["version_labels", i])
                yield _p(self.service, node, ["version_labels", i], f"a file versions/{label_slug(label)}.yaml",
                         "no such file", "add the file or remove the label")
        self._by_label = by_label

    def _compare_slugs(self, labels: list[str]) -> Iterator[Problem]:
        """Each comparison of consecutive labels has its own page, compare/<from>...<to>: labels holding
        '...' could give two comparisons one URL (`A` then `B...C`, `A...B` then `C`)."""
        seen: dict[str, tuple[str, str]] = {}
        for i in range(1, len(labels)):
            a, b = labels[i - 1], labels[i]
            slug = f"{label_slug(a)}...{label_slug(b)}"
            node = _node_at(self.service.root, ["version_labels", i])
            other = seen.get(slug.lower())
            if other is not None and other != (a, b):
                yield _p(self.service, node, ["version_labels", i], "comparison pages with distinct URLs",
                         f"the comparison {a!r} to {b!r} at compare/{slug}/",
                         f"the comparison {other[0]!r} to {other[1]!r} has the same URL; keep '...' out of labels")
            seen.setdefault(slug.lower(), (a, b))
            bad_name = file_name_problem(slug)
            if bad_name is not None:
                yield _p(self.service, node, ["version_labels", i], "a comparison page with a valid file name",
                         f"{bad_name[0]} (compare/{slug[:60]})", bad_name[1])

    def build(self) -> Catalog:
        svc = self.service.root.plain()
        areas = {a["id"]: Area(id=a["id"], name=a["name"], source=a["source"]) for a in svc["areas"]}
        entries = []
        for e in self.listing.root.plain()["entries"]:
            vm = e["version_marker"]
            entries.append(ListingEntry(
                position=e["position"], method=e["method"], path=e["path"],
                slug=entry_slug(e["position"], e["path"]), key=entry_key(e["position"], e["path"]),
                version_marker=VersionMarker(at=vm["at"], token=vm.get("token")),
                area=areas[e["area"]["id"]] if e["area"] is not None else None,
                source=e["source"], not_shown=tuple(e.get("not_shown", ())),
            ))
        keys = [e.key for e in entries]
        versions = []
        for label in svc["version_labels"]:
            root = self._by_label[label].root.value
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
            for i in self.register.root.plain()["items"]
        )
        service = Service(name=svc["name"], summary=svc["summary"], source=svc["source"],
                          base_url_source=svc["base_url_source"], areas=tuple(areas.values()),
                          lock_values_source=svc["lock_values"]["source"])
        return Catalog(service=service, entries=tuple(entries), versions=tuple(versions),
                       plan_names=tuple(svc["plan_entries"]), not_shown=register)
