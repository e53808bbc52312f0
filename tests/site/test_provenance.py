"""Provenance: the facts the catalogue takes from each source section (provenance.source_sections), the
citation links (the `cite` filter) and the /sources/ page text, on the fixture catalogue.

Expectations come from tests/fixture_facts.py (the fixture restated by hand), so a section that drops,
misfiles or invents a fact fails.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from markupsafe import Markup

import fixture_facts as ff
from catalog_docs.catalog.model import LOCK_VALUES, Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogDocsError
from catalog_docs.site.provenance import (
    MARKER_CITATION,
    RANGE_DASH,
    SourceSection,
    citation_parts,
    position_ranges,
    section_anchor,
    source_sections,
)
from catalog_docs.site.render import render_pages
from catalog_docs.site.tables import Href
from catalog_docs.site.templating import do_cite, environment


@cache
def catalog() -> Catalog:
    return load_catalog(ff.FIXTURE_CATALOG)


def sections(**limits: int) -> dict[int, SourceSection]:
    limits = {"max_rows": 250, "max_values": 10_000, **limits}
    return {s.number: s for s in source_sections(catalog(), **limits)}


def test_every_source_section_has_its_place_in_order_even_when_nothing_cites_it() -> None:
    found = source_sections(catalog(), max_rows=250, max_values=10_000)
    assert [s.number for s in found] == list(range(1, 10))
    assert [s.anchor for s in found] == [f"s{n}" for n in range(1, 10)]
    assert [s.title for s in found] == list(ff.SOURCE_SECTION_TITLES)
    # The fixture cites nothing from §3, §5, §6, §7 (its register has no item there either).
    cited = {int(sec[1:].split()[0]) for _, _, sec in ff.NOT_SHOWN.values()} | {1, 4, 8, 9}
    assert {s.number for s in found if s.empty} == set(range(1, 10)) - cited == {3, 5, 6, 7}


def test_section_4_holds_the_listing_and_the_base_url() -> None:
    s4 = sections()[4]
    assert [e.path for e in s4.entries] == list(ff.PATHS)
    assert [e.position for e in s4.entries] == list(range(1, ff.LISTING_SIZE + 1))
    assert s4.entries_listed and s4.base_url
    assert not s4.service and not s4.lock_values and not s4.plan_values and not s4.version_labels


def test_section_1_holds_the_service_and_its_areas() -> None:
    s1 = sections()[1]
    assert s1.service and [a.name for a in s1.areas] == list(ff.AREAS.values())
    assert not s1.entries


def test_every_value_is_counted_under_section_8_once_per_label_and_plan_entry() -> None:
    s8 = sections()[8]
    assert s8.lock_values and [v.label for v in s8.plan_tables] == list(ff.LABELS)
    got = [(pv.version.label, pv.plan.name) for pv in s8.plan_values]
    assert got == ff.columns()
    for pv in s8.plan_values:
        values = ff.VALUES[pv.version.label][pv.plan.name]
        assert sum(c.count for c in pv.counts) == ff.LISTING_SIZE
        for c in pv.counts:
            where = [i + 1 for i, v in enumerate(values) if v == c.value]
            assert c.count == len(where) and c.every == (len(where) == ff.LISTING_SIZE)
            assert c.positions == position_ranges(where)
        assert [c.value for c in pv.counts] == [v for v in LOCK_VALUES if v in values]
    assert not any(s.plan_values for n, s in sections().items() if n != 8)


def test_section_9_holds_the_labels_and_the_markers_the_pages_cite_it_for() -> None:
    s9 = sections()[9]
    assert [v.label for v in s9.version_labels] == list(ff.LABELS)
    assert [p.name for p in s9.version_labels[1].plans] == list(ff.VALUES["FAKE 1.1"])
    assert {e.path for e in s9.markers} == set(ff.MARKERS)
    assert MARKER_CITATION == "§9"


def test_each_not_shown_item_sits_under_its_section() -> None:
    by_section = {n: [i.id for i in s.not_shown] for n, s in sections().items()}
    for item_id, (_, _, section) in ff.NOT_SHOWN.items():
        assert item_id in by_section[int(section[1:].split()[0])], item_id
    assert sum(len(ids) for ids in by_section.values()) == len(ff.NOT_SHOWN)


def test_a_large_catalogue_is_counted_not_listed() -> None:
    small = sections(max_rows=ff.LISTING_SIZE - 1, max_values=10_000)
    assert not small[4].entries_listed and not small[4].values_listed
    assert all(c.positions is None for pv in small[8].plan_values for c in pv.counts)
    wide = sections(max_rows=250, max_values=len(ff.columns()) * ff.LISTING_SIZE - 1)
    assert wide[4].entries_listed and not wide[4].values_listed
    assert all(c.positions is None for pv in wide[8].plan_values for c in pv.counts)

    text = environment().get_template("sources.md.j2").render(
        root=Markup("../"), href=Href("sources/index.md", True), catalog=catalog(),
        register={n.id: n for n in catalog().not_shown},
        sections=tuple(small.values()), max_rows=ff.LISTING_SIZE - 1, max_values=10_000,
        lock_values=LOCK_VALUES, marker_citation=MARKER_CITATION)
    listed = f"{ff.LISTING_SIZE} listing entries (positions 1{RANGE_DASH}{ff.LISTING_SIZE}), with their method and path"
    assert listed in text
    assert "operations/fakeWidgetCreate" not in text.split("## §4 ", 1)[1].split("## §5 ")[0]
    assert "positions" not in text.split("## §8 ", 1)[1].split("## §9 ")[0]
    assert f"more than {ff.LISTING_SIZE - 1} listing entries" in text


@pytest.mark.parametrize(("citation", "parts"), [
    ("§4", [("§4", 4, None)]),
    ("§8 rule 2", [("§8 rule 2", 8, 2)]),
    ("§4, §8", [("§4", 4, None), ("§8", 8, None)]),
    ("§12 rule 10", [("§12 rule 10", 12, 10)]),
])
def test_citations_are_read_part_by_part(citation: str, parts: list[tuple[str, int, int | None]]) -> None:
    assert [(p.text, p.section, p.rule) for p in citation_parts(citation)] == parts


@pytest.mark.parametrize("bad", ["4", "§", "§4 rule", "§4; §8", "section 4", "§4,§8", ""])
def test_a_citation_of_another_form_fails_rather_than_linking_nowhere(bad: str) -> None:
    with pytest.raises(CatalogDocsError, match="citation"):
        citation_parts(bad)


def test_cite_links_each_part_relative_to_the_page() -> None:
    assert do_cite("§4", "") == "[§4](sources/index.md#s4)"
    assert do_cite("§8 rule 2", "../../") == "[§8 rule 2](../../sources/index.md#s8)"
    assert do_cite("§4, §8", "../") == "[§4](../sources/index.md#s4), [§8](../sources/index.md#s8)"
    assert section_anchor(9) == "s9"


def test_entry_positions_name_only_the_entries_a_section_backs() -> None:
    assert sections()[4].entry_positions == f"1{RANGE_DASH}{ff.LISTING_SIZE}"
    assert sections()[8].entry_positions == ""  # no fixture entry cites §8
    wide = catalog().entries
    scattered = [dataclasses.replace(e, source="§8") if e.position % 2 else e for e in wide]
    s8 = {s.number: s for s in source_sections(dataclasses.replace(catalog(), entries=tuple(scattered)),
                                                max_rows=250, max_values=10_000)}[8]
    assert s8.entry_positions == "1, 3, 5, 7"


def test_position_ranges() -> None:
    assert position_ranges([]) == ""
    assert position_ranges([3]) == "3"
    assert RANGE_DASH == "\N{EN DASH}"  # ranges are typeset as ranges
    assert position_ranges([1, 2, 3, 7, 9, 10]) == f"1{RANGE_DASH}3, 7, 9{RANGE_DASH}10"


def test_the_sources_page_is_planned_and_states_no_value_twice() -> None:
    page = render_pages(catalog(), workers=1)["sources/index.md"]
    s8 = page.split("## §8 ", 1)[1].split("## §9 ")[0]
    for label, plan in ff.columns():
        lines = [ln for ln in s8.splitlines() if f'href="../plans/{ff.PLAN_SLUGS[plan]}/"' in ln
                 and f'href="../versions/{ff.LABEL_SLUGS[label]}/"' in ln]
        assert len(lines) == 1, (label, plan)
