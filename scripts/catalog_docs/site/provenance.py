"""Provenance: which facts of the catalogue each section of the source document backs.

`source_sections` is pure: the validated model in, one `SourceSection` per section of the source out,
each holding every fact whose `source` (or `section`) names that section. The `/sources/` page renders
them, and every citation on the site links to its section there (`citation_parts`, `section_anchor`).
Nothing here reads the source document: the sections and their facts are what the catalogue records.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

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

SOURCE_SECTIONS = tuple(range(1, 10))
"""The source document's sections, §1 to §9: each has its place on /sources/ even when nothing cites it."""

MARKER_CITATION = "§9"
"""What the operation pages cite for a version marker. The catalogue files record the markers without a
section of their own, so this is the pages' attribution; the sources page says so next to them."""

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
    """The listing positions as ranges (`1–2, 7`); None when the catalogue is too large to list them on
    one page (the count stays, with links to the label's and the plan entry's tables)."""


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
    """The entries' listing positions as ranges (`1–22`), or None when that would be more than RANGES_SHOWN
    ranges (the count and the operations index remain)."""
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
    """Sorted listing positions as ranges: [1, 2, 3, 7] -> `1–3, 7`."""
    out: list[str] = []
    start = prev = None
    for p in positions:
        if prev is not None and p == prev + 1:
            prev = p
            continue
        if start is not None:
            out.append(f"{start}" if start == prev else f"{start}–{prev}")
        start = prev = p
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}–{prev}")
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
    """One SourceSection per section, §1 to §9 and any further section the catalogue cites, in order.

    `max_rows` and `max_values` are the page-size limits of a table page: beyond `max_rows` listing
    entries the entries are counted rather than listed, and beyond `max_values` values in the whole
    catalogue each plan entry's values are counted rather than listed by position."""
    service = catalog.service
    citations = [service.source, service.base_url_source, service.lock_values_source]
    citations += [a.source for a in service.areas] + [e.source for e in catalog.entries]
    citations += [c for v in catalog.versions for c in (v.source, v.plan_table_source, *(p.source for p in v.plans))]
    citations += [n.section for n in catalog.not_shown]
    numbers = sorted(set(SOURCE_SECTIONS) | {p.section for c in citations for p in citation_parts(c)})
    total_values = sum(len(p.values) for v in catalog.versions for p in v.plans)
    list_entries = len(catalog.entries) <= max_rows
    list_positions = list_entries and total_values <= max_values
    marker_sections = {p.section for p in citation_parts(MARKER_CITATION)}
    cited_entries = {n: tuple(e for e in catalog.entries if cites(e.source, n)) for n in numbers}
    return tuple(
        SourceSection(
            number=n,
            anchor=section_anchor(n),
            service=cites(service.source, n),
            base_url=cites(service.base_url_source, n),
            lock_values=cites(service.lock_values_source, n),
            areas=tuple(a for a in service.areas if cites(a.source, n)),
            entries=cited_entries[n],
            entry_positions=_short_ranges([e.position for e in cited_entries[n]]),
            entries_listed=list_entries,
            values_listed=list_positions,
            markers=tuple(e for e in catalog.entries if e.version_marker.at != "none") if n in marker_sections else (),
            version_labels=tuple(v for v in catalog.versions if cites(v.source, n)),
            plan_tables=tuple(v for v in catalog.versions if cites(v.plan_table_source, n)),
            plan_values=tuple(_plan_values(v, p, list_positions)
                              for v in catalog.versions for p in v.plans if cites(p.source, n)),
            not_shown=tuple(item for item in catalog.not_shown if cites(item.section, n)),
        )
        for n in numbers
    )
