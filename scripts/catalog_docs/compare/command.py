"""`catalog-docs diff`, behind the thin shell of cli.py: compare, apply the review gate, format, and say which
exit code the result calls for."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.revision import catalog_at_revision
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Change, Comparison, compare_catalogs, compare_sides, parse_side
from catalog_docs.compare.formats import COMMENT_BUDGET, COMMENT_LIMIT, Notes, format_comparison
from catalog_docs.compare.gate import Acknowledgement, DraftLabel, Review, load_acknowledgements, parse_fail_on, review
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import checked_address


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffRequest:
    """The options of one `catalog-docs diff`, as given on the command line."""

    catalog_dir: Path
    sides: tuple[str, ...] = ()
    against: str | None = None
    fmt: str = "text"
    exit_code: bool = False
    fail_on: tuple[str, ...] = ()
    acknowledged: Path | None = None
    new_name: str | None = None
    site_url: str | None = None
    max_chars: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffResult:
    """What to print, what to warn about on stderr, and whether the command fails (exit 1)."""

    output: str
    warnings: tuple[str, ...]
    fails: bool


def _git_out(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "replace").strip() if done.returncode == 0 else None


def working_tree_name(catalog_dir: Path) -> str | None:
    """`BRANCH (working tree)`: the branch checked out where the catalogue is, or its short commit when
    detached; None outside a git checkout."""
    folder = catalog_dir if catalog_dir.is_dir() else catalog_dir.parent
    branch = _git_out(["rev-parse", "--abbrev-ref", "HEAD"], folder)
    name = branch if branch != "HEAD" else _git_out(["rev-parse", "--short", "HEAD"], folder)
    return f"{name} (working tree)" if name else None


def site_base(url: str | None) -> str | None:
    """The hosted site's address, ending in '/' (a plain http(s) address, layout.address_problem; anything else
    is refused)."""
    if not url:
        return None
    url = checked_address(url, "--site-url", "an http(s) address of the published site")
    return url if url.endswith("/") else url + "/"


def change_links(cmp: Comparison, catalog: Catalog, base: str | None) -> dict[str, str]:
    """For each change a page of the hosted site shows, its address there: the compare page of two consecutive
    labels (its row or sentence has the change's id as anchor), else the any-pair compare (`?from=&to=`), which
    draws the same ids. A change between two revisions of one label is on no page and gets no link; one between
    two labels (a plan entry listed under a new label, compared with its previous label) links to that pair's
    page, where it will be once the change is published."""
    if base is None:
        return {}
    labels = [v.label for v in catalog.versions]
    consecutive = dict(pairwise(labels))
    slugs = {v.label: v.slug for v in catalog.versions}

    def pair_page(a: str, b: str) -> str:
        if consecutive.get(a) == b:
            return f"{base}compare/{quote(slugs[a], safe='')}...{quote(slugs[b], safe='')}/"
        return f"{base}compare/?from={quote(a, safe='')}&to={quote(b, safe='')}"

    if cmp.mode != "revisions":
        page = pair_page(cmp.from_side, cmp.to_side)
        return {c.id: f"{page}#{c.id}" for c in cmp.changes}
    out = {}
    for c in cmp.changes:
        a, b = c.before.label, c.after.label
        if a is not None and b is not None and a != b and a in slugs and b in slugs and c.kind.startswith("value-"):
            out[c.id] = f"{pair_page(a, b)}#{c.id}"
    return out


def _draft_file(catalog_dir: Path, slug: str) -> str:
    """A version label's file as a reviewer finds it in the checkout: `catalog/versions/SLUG.yaml`."""
    return f"{catalog_dir.name}/versions/{slug}.yaml"


def _drafts(request: DiffRequest, cmp: Comparison, later: Catalog, earlier: Catalog | None) -> tuple[DraftLabel, ...]:
    """The draft labels that keep the later side from being published: with --against, every draft of the working
    tree (one the branch adds, or one it keeps); between two labels, the drafts among them."""
    if earlier is not None:
        before = {v.label: v.draft for v in earlier.versions}
        return tuple(DraftLabel(label=v.label, file=_draft_file(request.catalog_dir, v.slug),
                                how="keeps" if v.label in before else "adds")
                     for v in later.versions if v.draft)
    sides = {cmp.before.label, cmp.after.label}
    return tuple(DraftLabel(label=v.label, file=_draft_file(request.catalog_dir, v.slug), how="compares")
                 for v in later.versions if v.draft and v.label in sides)


def _compare(request: DiffRequest) -> tuple[Comparison, Catalog, frozenset[str], Catalog | None]:
    """The comparison, the later catalogue, the labels of the earlier one that are not drafts, and the earlier
    catalogue when it is another one (--against)."""
    if request.against is not None:
        if request.sides:
            raise CatalogDocsError("give either FROM TO or --against REV, not both")
        old = catalog_at_revision(request.catalog_dir, request.against)
        new = load_catalog(request.catalog_dir)
        cmp = compare_catalogs(old, new, request.against)
        name = request.new_name if request.new_name is not None else working_tree_name(request.catalog_dir)
        cmp = replace(cmp, after=replace(cmp.after, name=name or None))
        return cmp, new, frozenset(v.label for v in old.versions if not v.draft), old
    if len(request.sides) != 2:
        raise CatalogDocsError("expected FROM TO (each LABEL or LABEL:PLAN), or --against REV")
    if request.new_name is not None:
        raise CatalogDocsError("--new-name names the working tree: give it with --against REV")
    catalog = load_catalog(request.catalog_dir)
    cmp = compare_sides(catalog, parse_side(request.sides[0], catalog), parse_side(request.sides[1], catalog))
    return cmp, catalog, frozenset(v.label for v in catalog.versions if not v.draft), None


MIN_CHARS = 4_000
"""The smallest --max-chars: the heading, the verdict, its table of decisions and the footer fit in it."""


def _check_max_chars(request: DiffRequest) -> None:
    if request.max_chars is None:
        return
    if request.fmt != "markdown":
        raise CatalogDocsError("--max-chars: it sets the length of a Markdown comment; give it with --format markdown")
    if not MIN_CHARS <= request.max_chars <= COMMENT_LIMIT:
        raise CatalogDocsError(f"--max-chars: expected {MIN_CHARS:,} to {COMMENT_LIMIT:,} (GitHub's limit for a "
                               f"comment), found {request.max_chars:,}")


def _warnings(acks: tuple[Acknowledgement, ...], verdict: Review | None, source: Path | None) -> tuple[str, ...]:
    """An empty reason (it does not stop the comparison: the comment names its line) where it is, and each stale
    acknowledgement."""
    empty = tuple(str(a.missing) for a in acks if a.missing is not None)
    return empty + tuple(f"acknowledgement {a.id!r} (line {a.line}) matches no change: remove it from {source}"
                         for a in (verdict.stale if verdict else ()))


def run_diff(request: DiffRequest) -> DiffResult:
    """Compare, apply the gate, format. Raises CatalogDocsError (and AcknowledgementsInvalid) on bad input."""
    _check_max_chars(request)
    selectors = tuple(s for text in request.fail_on for s in parse_fail_on(text))
    acks = load_acknowledgements(request.acknowledged) if request.acknowledged is not None else ()
    base = site_base(request.site_url if request.site_url is not None else os.environ.get("SITE_URL"))
    cmp, later, published, earlier = _compare(request)
    verdict: Review | None = None
    if request.fail_on or request.acknowledged is not None:
        source = str(request.acknowledged) if request.acknowledged is not None else None
        verdict = review(cmp, selectors, acks, published, source)
    links = change_links(cmp, later, base)

    def link(c: Change) -> str | None:
        return links.get(c.id)

    notes = Notes(review=verdict, link=link if links else None, max_chars=request.max_chars or COMMENT_BUDGET,
                  drafts=_drafts(request, cmp, later, earlier))
    output = format_comparison(cmp, request.fmt, notes)
    warnings = _warnings(acks, verdict, request.acknowledged)
    fails = (request.exit_code and cmp.has_differences) or (verdict is not None and not verdict.passed)
    return DiffResult(output=output, warnings=warnings, fails=fails)
