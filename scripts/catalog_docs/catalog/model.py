"""The resolved, validated catalogue: frozen dataclasses that every later stage reads.

The names mirror the source document: a listing of entries, version labels, plan entries under each
label and one lock value per listing entry per plan entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

LockValue = Literal["close", "unlimited"]
MarkerPlace = Literal["none", "start", "end", "not-shown"]
NotShownScope = Literal["service", "operation", "entry"]

LOCK_VALUES: tuple[LockValue, ...] = ("close", "unlimited")


def label_slug(name: str) -> str:
    """URL slug of a version label or plan entry name: spaces become '-' (`UPI_N 1.0.1` -> `UPI_N-1.0.1`)."""
    return name.replace(" ", "-")


def entry_slug(position: int, path: str | None) -> str:
    """URL slug of a listing entry: its path without the leading '/', other '/' as '-'; `entry-N` without a path."""
    if path is None:
        return f"entry-{position}"
    return path[1:].replace("/", "-")


def entry_key(position: int, path: str | None) -> str:
    """How a version file names a listing entry: its path, or `entry-N` when it has none."""
    return path if path is not None else f"entry-{position}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Area:
    """An area that the operation names show (§1)."""

    id: str
    name: str
    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionMarker:
    """Where a version marker sits in a path (§9): start, end, none, or not shown (no path)."""

    at: MarkerPlace
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ListingEntry:
    """One entry of the operation listing, in listing order."""

    position: int
    method: Literal["POST"]
    path: str | None
    slug: str
    key: str
    version_marker: VersionMarker
    area: Area | None
    """The area the operation's name suggests: always an inference, never a fact of the source."""
    source: str
    not_shown: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)
    """Where the entry starts in listing.yaml (0: not known, as for a catalogue made by applying a diff); not a
    fact of the source, so two entries that differ only by it are equal."""

    @property
    def title(self) -> str:
        """How the entry is named on pages: its path, or `Entry N` when the source gives none."""
        return self.path if self.path is not None else f"Entry {self.position}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanEntry:
    """A plan entry as listed under one version label, with one value per listing entry (by position)."""

    name: str
    slug: str
    source: str
    values: tuple[LockValue, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionLabel:
    """A published version label with its plan table."""

    label: str
    slug: str
    source: str
    plan_table: str
    value_column: str
    plan_table_source: str
    plans: tuple[PlanEntry, ...]
    draft: bool = False
    """Written by `catalog-docs new-label`: a copy of another label, not yet checked against the source. Shown
    with a draft mark under `make serve`; the strict build refuses to publish it."""

    def plan(self, name: str) -> PlanEntry | None:
        """The plan entry of that name under this label, or None when it is not listed."""
        return next((p for p in self.plans if p.name == name), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class NotShown:
    """One thing the source does not show, with the section that says so."""

    id: str
    topic: str
    detail: str
    section: str
    scope: NotShownScope
    entries: tuple[int, ...] = ()
    subject: str | None = None
    """The catalogue field this item says is not given, checked against it: `entry-path` (the entries' path is
    null), `entry-position` (the entries have no path, so no number in the source), `version-marker` (the entries'
    marker is at: not-shown) or `base-url` (service.yaml base_url is null); None for a fact with no field."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Service:
    """The service as a whole."""

    name: str
    summary: str
    source: str
    base_url_source: str
    areas: tuple[Area, ...]
    lock_values_source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DocumentSection:
    """One numbered section of the source document, under its own title (`§4 Endpoints`)."""

    number: int
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceDocument:
    """The document every citation of the catalogue names: its title as the source gives it, what it is (in our
    words) and its sections in order; `§N` cites section N."""

    title: str
    about: str
    sections: tuple[DocumentSection, ...]

    def section(self, number: int) -> DocumentSection | None:
        """The section of that number, or None."""
        return next((s for s in self.sections if s.number == number), None)


@dataclass(frozen=True, kw_only=True)
class Catalog:
    """The whole validated catalogue."""

    service: Service
    source_document: SourceDocument
    entries: tuple[ListingEntry, ...]
    versions: tuple[VersionLabel, ...]
    plan_names: tuple[str, ...]
    not_shown: tuple[NotShown, ...]

    @cached_property
    def distinct_paths(self) -> int:
        """How many listing entries carry a path (paths are unique)."""
        return sum(1 for e in self.entries if e.path is not None)

    @property
    def plan_table_count(self) -> int:
        """How many plan tables the catalogue holds: each version label carries one (§8)."""
        return len(self.versions)

    @cached_property
    def plan_listing_count(self) -> int:
        """How many plan entries are listed, counted under every label (a (label, plan entry) column each)."""
        return sum(len(v.plans) for v in self.versions)

    def version(self, label: str) -> VersionLabel | None:
        """The version label of that name, or None."""
        return next((v for v in self.versions if v.label == label), None)

    def not_shown_for(self, entry: ListingEntry) -> tuple[NotShown, ...]:
        """Register items that apply to one listing entry: every operation-wide item plus its own."""
        return tuple(
            n for n in self.not_shown
            if n.scope == "operation" or (n.scope == "entry" and entry.position in n.entries)
        )

    def summary(self) -> str:
        """One line with the counts `catalog-docs check` prints."""
        return (
            f"catalogue OK: {len(self.entries)} listing entries, {self.distinct_paths} distinct paths, "
            f"{len(self.versions)} version labels, {self.plan_table_count} plan tables "
            f"({self.plan_listing_count} plan entry listings of {len(self.plan_names)} plan entries), "
            f"{len(self.not_shown)} not-shown items"
        )
