"""catalog.json and openapi.yaml made in parts, each part kept by a keyed render for the next one. Nothing here
writes a file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from catalog_docs.catalog.model import Catalog, ListingEntry, PlanEntry, VersionLabel
from catalog_docs.downloads.export import catalog_data, openapi_data, plan_data, version_data
from catalog_docs.downloads.openapi import area_tags, path_item
from catalog_docs.errors import CatalogDocsError
from catalog_docs.serialize import to_json, to_yaml, to_yaml_plain
from catalog_docs.site.keys import Digests, PageMemo, digest, rows_digest

_VERSIONS_EMPTY = '\n  "versions": []'
"""catalog.json's versions with no label in them: a line of the top-level mapping (no text holds a raw newline)."""
_PLANS_EMPTY = '\n  "plans": []\n}'
"""A label's part of catalog.json with no plan entry in it: its last key and its end."""


class _KeptParts:
    """A download's parts from the memo's last render (`known`) and those of this render (`kept`, which replaces
    them in the memo once the download is whole). Unkeyed (key None), every part is made."""

    def __init__(self, known: dict[bytes, str]) -> None:
        self.known = known
        self.kept: dict[bytes, str] = {}

    def get(self, key: bytes | None, make: Callable[[], str | None]) -> str | None:
        """The part under `key`, made when the memo does not hold it."""
        text = self.known.get(key) if key is not None else None
        if text is None:
            text = make()
        if key is not None and text is not None:
            self.kept[key] = text
        return text

    def keep(self, key: bytes) -> None:
        """Keep a part this render did not need (a smaller part of one it took whole) for the next render."""
        if key in self.known:
            self.kept[key] = self.known[key]


def catalog_json_parts(catalog: Catalog, memo: PageMemo | None, digests: Digests | None) -> Iterator[str]:
    """`to_json(catalog_data(catalog))` in parts: the text before the labels, each label's part, the rest.
    Pretty-printed JSON nests a value's text as it stands alone, each line indented further (text never holds
    a raw newline), so each plan entry's part (most of the text: every lock value) is made alone. Keyed, the
    head is taken from the memo when the skeleton is unchanged, a label's or plan entry's part when its values
    are unchanged too."""
    parts = _KeptParts(memo.json_plans if memo is not None else {})
    head = parts.get(None if digests is None else digest("catalog.json", digests.skeleton),
                     partial(_json_head, catalog)) or ""
    if not catalog.versions or head.count(_VERSIONS_EMPTY) != 1:
        yield to_json(catalog_data(catalog))
        return
    before, _, after = head.partition(_VERSIONS_EMPTY)
    yield before + '\n  "versions": ['
    for at, version in enumerate(catalog.versions):
        key = None
        if digests is not None:
            key = digest("catalog.json", digests.skeleton, version.label, digests.version_values[at])
            if key in parts.known:  # its plan entries' parts stay kept for the next edit of this label
                for n, plan in enumerate(version.plans):
                    parts.keep(_plan_json_key(digests, at, version, n, plan))
        text = parts.get(key, partial(_version_json, catalog, at, version, parts, digests))
        yield ("," if at else "") + (text or "")
    if memo is not None:
        memo.json_plans = parts.kept
    yield "\n  ]" + after


def _json_head(catalog: Catalog) -> str:
    return to_json(catalog_data(catalog, versions=False))


def _plan_json_key(digests: Digests, at: int, version: VersionLabel, n: int, plan: PlanEntry) -> bytes:
    return digest("catalog.json", digests.skeleton, version.label, digests.plan_values[at][n], plan.name)


def _version_json(catalog: Catalog, at: int, version: VersionLabel, parts: _KeptParts,
                  digests: Digests | None) -> str:
    """A label's part of catalog.json, nested in `versions`, made of its plan entries' parts (see _KeptParts)."""
    part = to_json(version_data(catalog, version, plans=False))[:-1]
    if not version.plans or not part.endswith(_PLANS_EMPTY):
        return "\n    " + to_json(version_data(catalog, version))[:-1].replace("\n", "\n    ")
    plans = [parts.get(None if digests is None else _plan_json_key(digests, at, version, n, plan),
                       partial(_plan_json, catalog, plan)) or "" for n, plan in enumerate(version.plans)]
    head = part[: -len(_PLANS_EMPTY)].replace("\n", "\n    ")
    return "\n    " + head + '\n      "plans": [' + ",".join(plans) + "\n      ]\n    }"


def _plan_json(catalog: Catalog, plan: PlanEntry) -> str:
    return "\n        " + to_json(plan_data(catalog, plan))[:-1].replace("\n", "\n        ")


_PATHS_EMPTY = "\npaths: {}\n"
"""openapi.yaml's paths with no path in them: a line of the top-level mapping."""


def openapi_parts(catalog: Catalog, memo: PageMemo | None, digests: Digests | None,
                   column_values: list[tuple[str, ...]]) -> Iterator[str]:
    """`to_yaml(openapi_data(catalog))` in parts: the text before the paths, each path's part, the rest.
    Block-style YAML writes a nested mapping as it writes it alone, at a deeper indent (`serialize.to_yaml_plain`),
    so each path item is made and written alone. Keyed, a path's part is taken from the memo when the skeleton
    and that listing entry's values are unchanged (a path item shows its entry's values and, through the
    skeleton, everything else it names)."""
    data = openapi_data(catalog, skip_path=lambda _path: True)  # every item None: each is made below, in turn
    head = to_yaml_plain({**data, "paths": {}}) if data.get("paths") else None
    if head is None or ("\n" + head).count(_PATHS_EMPTY) != 1:
        yield to_yaml(openapi_data(catalog))
        return
    before, _, after = ("\n" + head).partition(_PATHS_EMPTY)
    yield (before + "\npaths:\n")[1:]
    parts = _KeptParts(memo.openapi_paths if memo is not None else {})
    tags = area_tags(catalog)
    # A path listed twice keeps its first place and the last entry's item, as in a mapping written whole.
    by_path = {e.path: (i, e) for i, e in enumerate(catalog.entries) if e.path is not None}
    for path, (i, e) in by_path.items():
        key = None if digests is None else digest("openapi.yaml", digests.skeleton, rows_digest([column_values[i]]),
                                                   path)
        text = parts.get(key, partial(_path_yaml, catalog, path, e, tags))
        if text is None:  # only text, numbers, booleans and null reach a path item: anything else is a bug
            raise CatalogDocsError(f"openapi.yaml: the item of {path!r} holds data the YAML writer cannot write")
        yield text
    if memo is not None:
        memo.openapi_paths = parts.kept
    yield after


def _path_yaml(catalog: Catalog, path: str, entry: ListingEntry, tags: dict[str, str]) -> str | None:
    return to_yaml_plain({path: path_item(catalog, entry, tags)}, "  ")


