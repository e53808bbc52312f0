"""`catalog-docs new-label NEW --from OLD`: scaffold a version label from an existing one.

The new file `versions/<slug>.yaml` is OLD's file with its `label:` changed (same plan table, plan entries
and values, for the editor to change to what the source states), and NEW is added to `version_labels` in
service.yaml. Both files are edited as text, at the lines PyYAML locates, so every comment, quote and
blank line an editor wrote stays as it was. The result is validated before the command returns; if it
does not load, both files are put back as they were.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from catalog_docs.catalog.locate import shown_path
from catalog_docs.catalog.model import label_slug
from catalog_docs.catalog.names import look_alike_keys, name_flaw
from catalog_docs.catalog.schema_fast import ecma_regex
from catalog_docs.errors import CatalogDocsError, CatalogInvalid
from catalog_docs.layout import SCHEMA_DIR
from catalog_docs.writing import open_path


@dataclass(frozen=True, slots=True, kw_only=True)
class NewLabel:
    """What `new_label` wrote: the new file, and the label it now follows in service.yaml (None: first)."""

    path: Path
    after: str | None


@cache
def _name_rule() -> tuple[re.Pattern[str], int, str]:
    """The schema's pattern and length limit for a version label name, and its wording (one source for both
    checks)."""
    schema = json.loads((SCHEMA_DIR / "service.schema.json").read_text(encoding="utf-8"))
    items = schema["properties"]["version_labels"]["items"]
    wording = items.get("title") or f"a name matching {items['pattern']}"
    return ecma_regex(items["pattern"]), int(items["maxLength"]), wording


def _refuse_bad_name(new: str, service: Path, labels: yaml.SequenceNode) -> None:
    """Raise when NEW breaks the schema's name rule, or reads the same as a listed label (names both)."""
    pattern, longest, wording = _name_rule()
    if len(new) > longest or not pattern.search(new):
        flaw = name_flaw(new) or (f"{len(new)} characters" if len(new) > longest else "")
        raise CatalogDocsError(f"{new!r} is not a valid version label name: expected {wording}"
                               + (f", found {flaw}" if flaw else ""))
    keys = set(look_alike_keys(new))
    twin = next((item for item in labels.value if keys & set(look_alike_keys(item.value)) and item.value != new), None)
    if twin is not None:
        raise CatalogDocsError(f"{new!r} reads the same as the version label {twin.value!r} at "
                               f"{shown_path(service)}:{twin.start_mark.line + 1}:{twin.start_mark.column + 1}; "
                               "names must differ in more than case, spacing, character width or characters that "
                               "look alike (O and 0, l and 1)")


def _natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """`UPI_N 1.10.0` after `UPI_N 1.9.0`: digit runs compare as numbers."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part)


def _scalar(text: str) -> str:
    """`text` as a YAML scalar that reads back as that string (plain when it can be, else double-quoted)."""
    try:
        if yaml.safe_load(f"k: {text}") == {"k": text}:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text)


def _labels_node(service_text: str, service: Path) -> yaml.SequenceNode:
    try:
        root = yaml.compose(service_text)
    except yaml.YAMLError as exc:  # a valid catalogue never gets here; load_catalog ran first
        raise CatalogDocsError(f"{shown_path(service)}: cannot be read as YAML: {exc}") from None
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if key.value == "version_labels" and isinstance(value, yaml.SequenceNode):
                return value
    raise CatalogDocsError(f"{shown_path(service)}: no version_labels list to add the label to")


def insertion_index(labels: list[str], new: str, after: str) -> int:
    """Where NEW goes: in version order when the labels already are (`1.0.2` between `1.0.1` and `1.1.0`),
    else straight after the label it was copied from."""
    keys = [_natural_key(label) for label in labels]
    if keys == sorted(keys):
        key = _natural_key(new)
        return next((i for i, k in enumerate(keys) if k > key), len(labels))
    return labels.index(after) + 1


def _insert_label(text: str, node: yaml.SequenceNode, index: int, new: str) -> str:
    """service.yaml's text with `new` inserted as item `index` of the version_labels list `node`."""
    items = node.value
    scalar = _scalar(new)
    if node.flow_style:  # version_labels: [A, B]
        if index < len(items):
            at = items[index].start_mark.index
            return text[:at] + scalar + ", " + text[at:]
        at = items[-1].end_mark.index
        return text[:at] + ", " + scalar + text[at:]
    # Block style: a new "- NEW" line, indented like its neighbours, before item `index` or after the last.
    ref = items[min(index, len(items) - 1)]
    line_start = text.rfind("\n", 0, ref.start_mark.index) + 1
    dash = text.rfind("-", line_start, ref.start_mark.index)
    indent = text[line_start:dash] if dash >= 0 else " " * max(ref.start_mark.column - 2, 0)
    new_line = f"{indent}- {scalar}\n"
    if index < len(items):
        return text[:line_start] + new_line + text[line_start:]
    end = text.find("\n", items[-1].end_mark.index)
    if end < 0:
        return text + "\n" + new_line
    return text[:end + 1] + new_line + text[end + 1:]


def _label_file_text(old_text: str, old_file: Path, old: str, new: str) -> str:
    """OLD's file with its top-level `label:` value set to NEW and a first-lines note that it is a copy."""
    root = yaml.compose(old_text)
    value = next((v for k, v in root.value if k.value == "label"), None) if isinstance(root, yaml.MappingNode) else None
    if value is None or not isinstance(root, yaml.MappingNode):
        raise CatalogDocsError(f"{shown_path(old_file)}: no label: key to change")
    text = old_text[:value.start_mark.index] + _scalar(new) + old_text[value.end_mark.index:]
    if not any(k.value == "draft" for k, _ in root.value):  # a copy of a draft is a draft already
        eol = text.index("\n", value.start_mark.index) + 1
        text = (text[:eol] + f"# A draft until checked: every value below is {old}'s. Check each against what the\n"
                f"# source states for {new}, then delete the next line; the strict build (make site) refuses drafts.\n"
                "draft: true\n" + text[eol:])
    lines = text.splitlines(keepends=True)
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        if "$schema" not in lines[head]:  # the editor's schema line stays as it is
            lines[head] = lines[head].replace(old, new)
        head += 1
    note = (f"# Scaffolded by `catalog-docs new-label` from {old}: its plan table, plan entries, values and\n"
            f"# sources are copies. Change them to what the source states for {new}, then remove this note.\n")
    lines.insert(head, note)
    return "".join(lines)


def _write(catalog_dir: Path, label_file: str, label: bytes | None, service_was: str, service: str) -> None:
    """Write the new label's file (`label`; None removes it) and service.yaml, through writing.py: the catalogue
    folder walked from the current one, no link followed. A failure puts service.yaml back as it was."""
    what = "add the version label"
    folder = open_path(catalog_dir, what)
    if folder is None:
        raise CatalogDocsError(f"cannot {what}: {shown_path(catalog_dir)} does not exist")
    with folder:
        versions = folder.walk("versions", make=True)
        assert versions is not None
        with versions:
            try:
                if label is None:
                    versions.remove(label_file)
                else:
                    versions.create(label_file, label)  # a new file: refused by the system if one came meanwhile
                folder.put("service.yaml", service.encode("utf-8"))
            except OSError as exc:
                if label is not None:
                    versions.remove(label_file)
                    folder.put("service.yaml", service_was.encode("utf-8"))
                raise CatalogDocsError(f"cannot {what}: {shown_path(catalog_dir)}: {exc.strerror or exc}") from None


def new_label(catalog_dir: Path, new: str, old: str) -> NewLabel:
    """Scaffold version label `new` from `old` in `catalog_dir`; raise CatalogDocsError with a clear
    message for a bad or clashing name, CatalogInvalid when the catalogue does not load."""
    from catalog_docs.catalog.validate import load_catalog, reserved_slug

    catalog = load_catalog(catalog_dir)  # scaffold only from a catalogue that loads
    labels = [v.label for v in catalog.versions]
    service = catalog_dir / "service.yaml"
    service_text = service.read_text(encoding="utf-8")
    node = _labels_node(service_text, service)
    _refuse_bad_name(new, service, node)
    if old not in labels:
        raise CatalogDocsError(f"--from {old!r} is not a version label; labels: "
                               + ", ".join(repr(label) for label in labels))
    if new in labels:
        raise CatalogDocsError(f"{new!r} is already a version label "
                               f"({shown_path(catalog_dir / 'versions' / f'{label_slug(new)}.yaml')})")
    slug = label_slug(new)
    if reserved_slug(slug, paged=False):
        raise CatalogDocsError(f"{new!r} would take the URL of the versions index page; choose another name")
    same_url = [label for label in labels if label_slug(label).lower() == slug.lower()]
    if same_url:
        raise CatalogDocsError(f"{new!r} would have the same page URL as {same_url[0]!r} (URLs ignore case)")
    target = catalog_dir / "versions" / f"{slug}.yaml"
    if target.exists():
        raise CatalogDocsError(f"{shown_path(target)} already exists; it is not listed in service.yaml, so remove or "
                               "rename it")

    listed = [item.value for item in node.value]
    index = insertion_index(listed, new, old)
    old_file = catalog_dir / "versions" / f"{label_slug(old)}.yaml"
    label_text = _label_file_text(old_file.read_text(encoding="utf-8"), old_file, old, new)
    new_service = _insert_label(service_text, node, index, new)

    _write(catalog_dir, target.name, label_text.encode("utf-8"), service_text, new_service)
    try:
        load_catalog(catalog_dir)
    except CatalogInvalid:
        _write(catalog_dir, target.name, None, new_service, service_text)
        raise
    return NewLabel(path=target, after=listed[index - 1] if index > 0 else None)
