"""Links between generated pages: the render's own relative-URL function gives exactly what
`posixpath.relpath` gives, for every pair of site URLs (folders of validated slugs, with or without a
trailing slash, the site root included)."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from catalog_docs.site.tables import Href, relative_url

# Slug characters: what a validated slug may hold, including dots inside a name (never "." or ".." alone).
SEGMENT = st.text(alphabet="abAB019._~-", min_size=1, max_size=6).filter(lambda s: s not in (".", ".."))
FOLDER = st.lists(st.sampled_from(["operations", "versions", "plans", "page-2"]) | SEGMENT, max_size=4)


@given(FOLDER, FOLDER, st.booleans())
def test_relative_url_is_relpath(target: list[str], base: list[str], slash: bool) -> None:
    url = "/".join(target) + ("/" if slash and target else "")
    start = "/" + "/".join(base)
    assert relative_url(url, start) == posixpath.relpath("/" + url, start)


def test_links_from_an_operation_page() -> None:
    href = Href("operations/fakeWidgetList.md", directory_urls=True)
    assert href("versions/FAKE-1.0.md") == "../../versions/FAKE-1.0/"
    assert href("operations/fakeWidgetList.md#x") == "./#x"
    assert href("index.md") == "../../"
    flat = Href("operations/fakeWidgetList.md", directory_urls=False)
    assert flat("versions/FAKE-1.0.md") == "../versions/FAKE-1.0.html"
