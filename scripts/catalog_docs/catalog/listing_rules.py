"""The rules along the listing, one small function per rule, run entry by entry (`ENTRY_RULES`, in order: the path
rules read what the ones before them noted about earlier entries). Adding a rule is a function and a line."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from catalog_docs.catalog.located import CatalogFile, PathPart, close_to, problem
from catalog_docs.catalog.model import entry_slug
from catalog_docs.catalog.nodes import Node
from catalog_docs.catalog.page_names import file_name_problem, reserved_slug
from catalog_docs.errors import Problem


def node_text(node: Node) -> str:
    """A short description of a node for messages."""
    return node.describe()



@dataclass(slots=True, kw_only=True)
class ListingWalk:
    """What the rules along the listing know: the file, the ids other files define (None: not checked, the other
    file did not load), and what the entries before the current one hold."""

    f: CatalogFile
    area_ids: set[str] | None
    register: dict[str, dict[str, Any]] | None
    misnumbered: bool = False
    seen_paths: dict[str, int] = field(default_factory=dict)
    seen_slugs: dict[str, tuple[int, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One listing entry: its index, its fields' nodes, and the values most rules read."""

    i: int
    fields: dict[str, Node]
    position: int
    path: str | None
    dotted: bool
    """The path has a segment of dots only ('.', '..')."""

    def where(self, *parts: PathPart) -> list[PathPart]:
        return ["entries", self.i, *parts]


EntryRule = Callable[[ListingWalk, Entry], Iterator[Problem]]


def _in_listing_order(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    if x.position != x.i + 1 and not w.misnumbered:  # one entry out of place shifts all that follow: report it once
        w.misnumbered = True
        yield problem(w.f, x.fields["position"], x.where("position"), f"position {x.i + 1} (entries are in listing "
                      "order)", f"position {x.position}", "renumber the entries 1, 2, 3, ... from here on")


def _path_without_dot_segments(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    if x.dotted:
        yield problem(w.f, x.fields["path"], x.where("path"), "a path without segments of dots only ('.', '..', '...')",
                      node_text(x.fields["path"]))


def _path_once(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    if x.path is None:
        return
    if x.path in w.seen_paths:
        yield problem(w.f, x.fields["path"], x.where("path"), "each path once", f"{x.path!r} again",
                      f"already the path of entry {w.seen_paths[x.path]}")
    w.seen_paths.setdefault(x.path, x.i + 1)


def _path_gives_a_page(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    """The entry's page name: a valid file name, free, and unique when case is ignored."""
    slug = entry_slug(x.position, x.path)
    bad_name = file_name_problem(slug) if x.path is not None and not x.dotted else None
    again = w.seen_slugs.get(slug.lower())
    if bad_name is not None:
        yield problem(w.f, x.fields["path"], x.where("path"), "a path that gives a valid page file name",
                      f"{bad_name[0]} (the slug {slug[:60]!r})", bad_name[1])
    elif reserved_slug(slug, paged=True):
        yield problem(w.f, x.fields["path"], x.where("path"),
                      "a path whose page URL is free (index and page-N name the operations table's pages, "
                      "sitemap.xml and feed.xml files the site writes)",
                      f"the slug {slug!r}", "rename the path")
    elif again is not None and (x.path is None or x.path not in w.seen_paths or w.seen_paths[x.path] == x.i + 1):
        yield problem(w.f, x.fields["path"], x.where("path"), "a URL slug unique when case is ignored",
                      f"the slug {slug!r}", f"entry {again[0]}, {again[1]}, has the same page URL on a "
                      "case-insensitive file system")
    w.seen_slugs.setdefault(slug.lower(), (x.i + 1, x.path if x.path is not None else f"entry-{x.position}"))


def _marker_token(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    """A token exactly when the marker is at the start or end, and the path starts or ends with it."""
    marker = x.fields["version_marker"].value
    at = marker["at"].value
    if (at in ("start", "end")) != ("token" in marker):
        if "token" in marker:
            yield problem(w.f, marker["token"], x.where("version_marker", "token"),
                          "a token only when the marker is at the start or end", f"a token with at: {at}",
                          "remove the token or set at: start or end")
        else:
            yield problem(w.f, x.fields["version_marker"], x.where("version_marker", "token"),
                          f"a token when the marker is at the {at}", "no token", "add the marker, such as token: v1")
    elif at in ("start", "end") and x.path is not None:
        token = marker["token"].value
        segments = x.path.strip("/").split("/")
        if (segments[0] if at == "start" else segments[-1]) != token:
            yield problem(w.f, x.fields["version_marker"], x.where("version_marker"),
                          f"the path to {at} with the segment {token!r}", f"the path {x.path!r}")


def _marker_seen_with_the_path(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    """An entry without a path has no marker we can see; one with a path shows where its marker is."""
    at_node = x.fields["version_marker"].value["at"]
    at = at_node.value
    if x.path is None and at != "not-shown":
        yield problem(w.f, at_node, x.where("version_marker", "at"), "'not-shown' for an entry whose path is not given",
                      f"{at!r}", "an entry without a path has no marker we can see")
    elif x.path is not None and at == "not-shown":
        yield problem(w.f, at_node, x.where("version_marker", "at"),
                      "where the marker sits in the path (none, start or end), since the path is given",
                      f"'not-shown' beside the path {x.path!r}", "set at: none, or start or end with its token")


def _area_known(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    area = x.fields["area"].value
    if w.area_ids is not None and area is not None:
        aid = area["id"]
        if aid.value not in w.area_ids:
            yield problem(w.f, aid, x.where("area", "id"), "an area id from service.yaml", f"{aid.value!r}",
                          close_to(aid.value, sorted(w.area_ids)))


def _not_shown_known(w: ListingWalk, x: Entry) -> Iterator[Problem]:
    if w.register is None or "not_shown" not in x.fields:
        return
    for j, ref in enumerate(x.fields["not_shown"].value):
        if ref.value not in w.register:
            yield problem(w.f, ref, x.where("not_shown", j), "an id from not-shown.yaml", f"{ref.value!r}",
                          close_to(ref.value, sorted(w.register)))


ENTRY_RULES: tuple[EntryRule, ...] = (
    _in_listing_order,
    _path_without_dot_segments,
    _path_once,
    _path_gives_a_page,
    _marker_token,
    _marker_seen_with_the_path,
    _area_known,
    _not_shown_known,
)
"""The rules along the listing, run in this order on each entry (the path rules read what the ones before them
noted about earlier entries)."""


def listing_rules(f: CatalogFile, area_ids: set[str] | None,
                  register: dict[str, dict[str, Any]] | None) -> Iterator[Problem]:
    """Every rule along the listing file `f`; area ids and register ids are checked when given."""
    walk = ListingWalk(f=f, area_ids=area_ids, register=register)
    for i, node in enumerate(f.root.value["entries"].value):
        fields = node.value
        path = fields["path"].value
        entry = Entry(i=i, fields=fields, position=fields["position"].value, path=path,
                      dotted=path is not None and any(seg and seg.strip(".") == "" for seg in path.split("/")))
        for rule in ENTRY_RULES:
            yield from rule(walk, entry)


