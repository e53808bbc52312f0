"""What a keyed render (the preview) keys each file on, and the memo that keeps the last render's files under
those keys. Nothing here writes a file."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from catalog_docs.catalog.model import Catalog
from catalog_docs.compare.changes import Comparison


def digest(*parts: str | bytes) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def rows_digest(rows: Any) -> bytes:
    """The values of some rows of `column_values` (each a tuple of lock values, in column order)."""
    return digest("\n".join("\0".join(row) for row in rows))


class Digests:
    """What a page may be made from, split so that a page whose inputs did not change keeps its key when one
    value elsewhere changes. `skeleton` is the whole catalogue except the plan entries' lock values (service,
    the source document, listing entries without the line each starts on, register, labels with their plan tables
    and plan entries' names, slugs and sources), the builder's URL style and whether its search has a boost;
    `version_values[i]` the lock values of label i; `whole` both."""

    def __init__(self, catalog: Catalog, directory_urls: bool, search_boost: bool = True) -> None:
        heads = tuple(dataclasses.replace(v, plans=tuple(dataclasses.replace(p, values=()) for p in v.plans))
                      for v in catalog.versions)
        # Where each entry starts in listing.yaml is shown only on its own operation page, which keys on it
        # (planning.Planning.operation_values): a line added above the listing re-renders those pages alone.
        entries = tuple(dataclasses.replace(e, line=0) for e in catalog.entries)
        self.skeleton = digest(repr(directory_urls), repr(search_boost), repr(catalog.service),
                               repr(catalog.source_document), repr(entries), repr(heads), repr(catalog.plan_names),
                               repr(catalog.not_shown))
        self.plan_values = [[digest(p.name, "\0".join(p.values)) for p in v.plans] for v in catalog.versions]
        """Under each label, each plan entry's name and values."""
        self.version_values = [digest(*plans) for plans in self.plan_values]
        self.whole = digest(self.skeleton, *self.version_values)


class PageMemo:
    """The files and comparisons of the last keyed render in this process, each under the digest of its inputs,
    so the next render produces only the files whose inputs changed (the `mkdocs serve` preview: one edit,
    a handful of pages). A page's key covers its template and path, the catalogue's skeleton (everything
    but lock values, see Digests) and the lock values it shows: its own row or rows, its label's, or, for a
    page that summarises the catalogue, all of them. Templates change only with the package code, and
    pages.py starts a new memo when that does."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[bytes, str]] = {}
        self.comparisons: dict[bytes, Comparison] = {}
        self.json_plans: dict[bytes, str] = {}
        """catalog.json's parts (its head, each label's part, each plan entry's part; see catalog_json_parts), each
        under its key."""
        self.openapi_paths: dict[bytes, str] = {}
        """openapi.yaml's text of each path item (see openapi_parts), under its key."""
        self.chunks: dict[int, tuple[Comparison, list[frozenset[str]]]] = {}
        """compare_chunks of each comparison the memo holds, by the comparison's identity (kept alive beside it)."""
        self.reused = 0
        self.produced = 0

