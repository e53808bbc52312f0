"""An operation page's "Changes between labels" (issue 42): for each pair of consecutive labels, every change of that
operation's values, in words, each linking to its row on that comparison (the row's id is the change's id), or a
sentence saying nothing changed. Held, for any catalogue, to the listing rule worked out here from the catalogue's
own values: a value is compared with the same plan entry's value under its previous label (the latest earlier label
that lists it), a plan entry no earlier label lists brings new values, one no longer listed a *not listed*."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.render import plan_pages
from fake_catalogs import LETTERS, write_catalog
from htmltree import parse

PATHS = ["/fakeAlpha", "/fakeBeta", None, "/fake/gamma"]
PLANS = ["PLAN A", "PLAN B", "PLAN C"]


@st.composite
def specs(draw: st.DrawFn) -> dict:
    entries = PATHS[: draw(st.integers(1, len(PATHS)))]
    labels = {}
    for n in range(draw(st.integers(2, 4))):
        listed = draw(st.lists(st.sampled_from(PLANS), unique=True, min_size=1, max_size=len(PLANS)))
        labels[f"FAKE {n + 1}.0"] = {p: "".join(draw(st.sampled_from("cu")) for _ in entries)
                                     for p in sorted(listed, key=PLANS.index)}
    return {"entries": entries, "labels": labels}


def expected_words(spec: dict, plans: tuple[str, ...], position: int) -> list[list[str]]:
    """For each consecutive pair, the words of each change of the entry at `position`, in the catalogue's plan entry
    order (`plans`)."""
    labels = list(spec["labels"])
    out = []
    for i in range(1, len(labels)):
        a, b = spec["labels"][labels[i - 1]], spec["labels"][labels[i]]
        words = []
        for plan in plans:
            before = LETTERS[a[plan][position - 1]] if plan in a else None
            after = LETTERS[b[plan][position - 1]] if plan in b else None
            if after is None:
                if before is not None:
                    words.append(f"{plan}: {before} → not listed")
                continue
            if before is None:
                earlier = next((lab for lab in reversed(labels[: i - 1]) if plan in spec["labels"][lab]), None)
                if earlier is None:
                    words.append(f"{plan}: {after} new (no earlier label lists {plan})")
                elif (old := LETTERS[spec["labels"][earlier][plan][position - 1]]) != after:
                    words.append(f"{plan}: {old} (under {earlier}) → {after}")
            elif before != after:
                words.append(f"{plan}: {before} → {after}")
        out.append(words)
    return out


_PAIR = re.compile(r'<li><a href="([^"#]*)">([^<]*)</a>: (.*)$')
_CHANGE = re.compile(r'<li><a href="([^"]*#[^"]*)">(.*)</a></li>$')


def changes_section(page: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """An operation page's changes, one line each as the template writes them: each pair's comparison link, its
    words, and each of its changes' link and words."""
    section = page[page.index("## Changes between labels"):page.index("## Not shown in the source")]
    out: list[tuple[str, str, list[tuple[str, str]]]] = []
    for line in section.splitlines():
        if pair := _PAIR.match(line):
            out.append((pair[1], _words(f"{pair[2]}: {pair[3]}"), []))
        elif change := _CHANGE.match(line):
            out[-1][2].append((change[1], _words(change[2])))
    return out


def _words(html: str) -> str:
    return " ".join(parse(html).text().split())


def _pages(catalog: Catalog) -> dict[str, str]:
    """The operation and comparison pages of the site, each produced by its planned job as render_pages produces
    it (workers.render_jobs: each job on its own, in any order or process), without the other pages, which this
    property never reads."""
    return {job.path: job.produce() for job in plan_pages(catalog).jobs
            if job.path.startswith(("operations/", "compare/"))}


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_each_operation_lists_exactly_its_changes_each_linking_its_row(spec: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog = load_catalog(write_catalog(Path(tmp) / "catalog", spec))
    files = _pages(catalog)
    labels = list(spec["labels"])
    slugs = [f"{v.slug}...{w.slug}" for v, w in zip(catalog.versions, catalog.versions[1:], strict=False)]
    for entry in catalog.entries:
        pairs = changes_section(files[f"operations/{entry.slug}.md"])
        assert [href for href, _, _ in pairs] == [f"../../compare/{slug}/" for slug in slugs]
        every = expected_words(spec, catalog.plan_names, entry.position)
        for i, ((_href, words, changes), expected) in enumerate(zip(pairs, every, strict=True)):
            head = f"{labels[i]} → {labels[i + 1]}:"
            assert [w for _, w in changes] == expected, (entry.title, words)
            n = len(expected)
            assert words == (f"{head} {n} {'change' if n == 1 else 'changes'}" if expected
                             else f"{head} nothing changed for this operation."), words
            for href, _ in changes:
                page, _, change_id = href.partition("#")
                assert page == f"../../compare/{slugs[i]}/"
                rows = [text for path, text in files.items() if path.startswith(f"compare/{slugs[i]}")]
                assert sum(f'<tr id="{change_id}">' in text for text in rows) == 1, change_id
