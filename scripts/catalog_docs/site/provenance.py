"""Provenance: which facts of the catalogue each section of the source document backs.

`source_sections` is pure: the validated model in, one `SourceSection` per section of the source out,
each holding every fact whose `source` (or `section`) names that section. The `/sources/` page renders
them, and every citation on the site links to its section there (`citation_parts`, `section_anchor`).
Nothing here reads the source document: the sections and their facts are what the catalogue records.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from catalog_docs.catalog.model import (
    LOCK_VALUES,
    Area,
    Catalog,
    ListingEntry,
    LockValue,
    NotShown,
    PlanEntry,
    VersionLabel,
)
from catalog_docs.errors import CatalogDocsError

MARKER_CITATION = "§9"
"""What the operation pages cite for a version marker. The catalogue files record the markers without a
section of their own, so this is the pages' attribution; the sources page says so next to them."""

RANGE_DASH = "\u2013"
"""Between the ends of a range of listing positions (an en dash, as typeset ranges are written)."""

RANGES_SHOWN = 50
"""At most this many position ranges in one sentence of the sources page."""

_PART = re.compile(r"§([0-9]+)(?: rule ([0-9]+))?")


@dataclass(frozen=True, slots=True, kw_only=True)
class Citation:
    """One part of a citation as written in the catalogue: `§8 rule 2` is section 8, rule 2."""

    text: str
    section: int
    rule: int | None = None


@lru_cache(maxsize=1024)  # a catalogue repeats a handful of citations thousands of times
def citation_parts(citation: str) -> tuple[Citation, ...]:
    """The parts of a citation (`§4`, `§8 rule 2`, `§4, §8`); raises CatalogDocsError for any other form,
    since a citation that links nowhere would be a defect on the page."""
    parts = []
    for text in str(citation).split(", "):
        m = _PART.fullmatch(text)
        if m is None:
            raise CatalogDocsError(
                f"citation {citation!r} is not of the form '§4', '§8 rule 2' or '§4, §8'; fix the template or catalogue"
            )
        parts.append(Citation(text=text, section=int(m.group(1)), rule=int(m.group(2)) if m.group(2) else None))
    return tuple(parts)


def section_anchor(section: int) -> str:
    """The stable anchor of a source section on /sources/: `s4` for §4."""
    return f"s{section}"


@lru_cache(maxsize=4096)  # the sources page asks it of every listing entry's citation for every section
def cites(citation: str, section: int) -> bool:
    """Whether a citation names that section (in any of its parts)."""
    return any(p.section == section for p in citation_parts(citation))


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueCount:
    """How many listing entries have one lock value under one (version label, plan entry), and which."""

    value: LockValue
    count: int
    every: bool
    """Every listing entry has this value."""
    positions: str | None
    """The listing positions as ranges (`1-2, 7`, joined by RANGE_DASH); None when the catalogue is too large to
    list them on one page (the count stays, with links to the label's and the plan entry's tables)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanValues:
    """The values one plan entry has under one version label, as the sources page states them."""

    version: VersionLabel
    plan: PlanEntry
    counts: tuple[ValueCount, ...]
    """One per lock value that occurs, in the order of the value vocabulary."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceSection:
    """Every fact the catalogue derives from one section of the source."""

    number: int
    title: str
    """The section's own title in the source (`Endpoints` for §4)."""
    anchor: str
    service: bool
    """The service's name and summary cite this section."""
    base_url: bool
    """The statement that paths are relative to a base URL cites this section."""
    lock_values: bool
    """The vocabulary of lock values cites this section."""
    areas: tuple[Area, ...]
    entries: tuple[ListingEntry, ...]
    entry_positions: str | None
    """The entries' listing positions as ranges (`1-22`, joined by RANGE_DASH), or None when that would be more
    than RANGES_SHOWN ranges (the count and the operations index remain)."""
    entries_listed: bool
    """False when there are too many entries to list on one page: the page gives their count and range."""
    values_listed: bool
    """False when there are too many values to list by position on one page: the page counts them."""
    markers: tuple[ListingEntry, ...]
    """Entries with a version marker, when the pages cite this section for markers (MARKER_CITATION)."""
    version_labels: tuple[VersionLabel, ...]
    plan_tables: tuple[VersionLabel, ...]
    plan_values: tuple[PlanValues, ...]
    not_shown: tuple[NotShown, ...]

    @property
    def empty(self) -> bool:
        """Nothing in the catalogue cites this section."""
        return not (self.service or self.base_url or self.lock_values or self.areas or self.entries
                    or self.markers or self.version_labels or self.plan_tables or self.plan_values or self.not_shown)


def position_ranges(positions: list[int]) -> str:
    """Sorted listing positions as ranges: [1, 2, 3, 7] -> `1-3, 7`, with RANGE_DASH between the ends."""
    out: list[str] = []
    start = prev = None
    for p in positions:
        if prev is not None and p == prev + 1:
            prev = p
            continue
        if start is not None:
            out.append(f"{start}" if start == prev else f"{start}{RANGE_DASH}{prev}")
        start = prev = p
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}{RANGE_DASH}{prev}")
    return ", ".join(out)


def _short_ranges(positions: list[int]) -> str | None:
    ranges = position_ranges(positions)
    return ranges if ranges.count(",") < RANGES_SHOWN else None


def _plan_values(version: VersionLabel, plan: PlanEntry, list_positions: bool) -> PlanValues:
    counts = Counter(plan.values)
    return PlanValues(version=version, plan=plan, counts=tuple(
        ValueCount(value=v, count=counts[v], every=counts[v] == len(plan.values),
                   positions=position_ranges([i + 1 for i, x in enumerate(plan.values) if x == v])
                   if list_positions else None)
        for v in LOCK_VALUES if counts[v]
    ))


def source_sections(catalog: Catalog, *, max_rows: int, max_values: int) -> tuple[SourceSection, ...]:
    """One SourceSection per section of the source document (each has its place even when nothing cites it),
    in order.

    `max_rows` and `max_values` are the page-size limits of a table page: beyond `max_rows` listing
    entries the entries are counted rather than listed, and beyond `max_values` values in the whole
    catalogue each plan entry's values are counted rather than listed by position."""
    numbers = [s.number for s in catalog.source_document.sections]
    total_values = sum(len(p.values) for v in catalog.versions for p in v.plans)
    list_entries = len(catalog.entries) <= max_rows
    scope = _Scope(
        list_entries=list_entries, list_positions=list_entries and total_values <= max_values,
        marker_sections=frozenset(p.section for p in citation_parts(MARKER_CITATION)),
        markers=tuple(e for e in catalog.entries if e.version_marker.at != "none"),
        cited_entries={n: _cited(catalog.entries, _source, n) for n in numbers},
    )
    return tuple(_section(catalog, n, scope) for n in numbers)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Scope:
    """What every section's facts are listed with: whether entries and positions are listed or counted, the
    entries with a version marker (shown under the marker's section) and each section's cited entries."""

    list_entries: bool
    list_positions: bool
    marker_sections: frozenset[int]
    markers: tuple[ListingEntry, ...]
    cited_entries: dict[int, tuple[ListingEntry, ...]]


_T = TypeVar("_T")


def _cited(items: Iterable[_T], citation_of: Callable[[_T], str], section: int) -> tuple[_T, ...]:
    """The items whose citation names the section."""
    return tuple(item for item in items if cites(citation_of(item), section))


def _source(item: Area | ListingEntry | VersionLabel) -> str:
    return item.source


def _section(catalog: Catalog, n: int, scope: _Scope) -> SourceSection:
    """Every fact of the catalogue that section `n` backs."""
    service, entries = catalog.service, scope.cited_entries[n]
    section = catalog.source_document.section(n)
    return SourceSection(
        number=n,
        title=section.title if section is not None else "",
        anchor=section_anchor(n),
        service=cites(service.source, n),
        base_url=cites(service.base_url_source, n),
        lock_values=cites(service.lock_values_source, n),
        areas=_cited(service.areas, _source, n),
        entries=entries,
        entry_positions=_short_ranges([e.position for e in entries]),
        entries_listed=scope.list_entries,
        values_listed=scope.list_positions,
        markers=scope.markers if n in scope.marker_sections else (),
        version_labels=_cited(catalog.versions, _source, n),
        plan_tables=_cited(catalog.versions, lambda v: v.plan_table_source, n),
        plan_values=tuple(_plan_values(v, p, scope.list_positions)
                          for v in catalog.versions for p in v.plans if cites(p.source, n)),
        not_shown=_cited(catalog.not_shown, lambda item: item.section, n),
    )
