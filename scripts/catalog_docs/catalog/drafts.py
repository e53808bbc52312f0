"""Draft version labels: labels that `catalog-docs new-label` copied from another and nobody has yet checked
against the source (a top-level `draft: true` in their file). The preview shows them with a draft mark; the
strict build refuses to publish them.

A light scan of the version files (the full load also reads the key, into `VersionLabel.draft`): the preview
and the strict build ask on every build, and most builds skip the load when nothing changed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from catalog_docs.catalog.files import VERSIONS_DIR
from catalog_docs.catalog.locate import shown_path
from catalog_docs.errors import CatalogDocsError

_DRAFT_KEY = re.compile(r"^draft:", re.M)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draft:
    """One draft label and the file that says so."""

    label: str
    file: str
    """Its path from the current folder, as errors name files (catalog/versions/<slug>.yaml at the project root)."""


class DraftRefused(CatalogDocsError):
    """A strict build (make site, mkdocs build --strict, catalog-docs render --publish) met a draft label."""


def find_drafts(catalog_dir: Path) -> list[Draft]:
    """Every version file with a top-level `draft:` key, in file-name order."""
    found = []
    for path in sorted((catalog_dir / VERSIONS_DIR).glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the loader reports it
        if not _DRAFT_KEY.search(text):
            continue
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            continue  # the loader reports it
        if isinstance(data, dict) and data.get("draft") is True:
            found.append(Draft(label=str(data.get("label", path.stem)), file=shown_path(path)))
    return found


def refuse_drafts(catalog_dir: Path) -> None:
    """Raise DraftRefused, one line per draft label, when the catalogue holds any."""
    drafts = find_drafts(catalog_dir)
    if drafts:
        raise DraftRefused("\n".join(
            f"version label {d.label!r} is a draft, not yet checked against the source: check it, then delete "
            f"`draft: true` from {d.file} (the strict build does not publish drafts)" for d in drafts))
