"""Names that become file names: a slug must name a generated page on every file system contributors use, and
must not take the name of a page the site generates itself."""

from __future__ import annotations

import re

_PAGE_N = re.compile(r"page-([2-9]|[1-9][0-9]+)")  # the table pages after the first (which is index)

MAX_NAME_BYTES = 255
"""The longest file name ext4, APFS, NTFS and most other file systems accept (bytes or UTF-16 units)."""
LONGEST_SUFFIX = ".html"
"""The longest ending added to a slug in a generated name: `<slug>.md` in docs/, `<slug>.html` for a
builder without directory URLs (a slug's `page-N` pages go into a folder named by the slug alone)."""
_WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in "0123456789¹²³")}


def file_name_problem(slug: str) -> tuple[str, str] | None:
    """Why a slug cannot name a generated file on every file system contributors use, as (found, hint);
    None when it can. Checked at `check` time, so the render never meets a name it cannot write."""
    if slug.startswith("."):
        return "a name starting with '.'", "mkdocs skips hidden files, so the page would not be built; remove the dot"
    if slug.strip(".") == "":
        return "a name of dots only", "name it with letters or digits"
    if slug.endswith((".", " ")):
        return "a name ending with a dot or a space", "Windows drops trailing dots and spaces; remove it"
    if slug.split(".", maxsplit=1)[0].rstrip(" ").lower() in _WINDOWS_DEVICES:
        return (f"the Windows device name {slug.split('.', maxsplit=1)[0]!r}",
                "Windows reserves it in every folder; rename it")
    size = len((slug + LONGEST_SUFFIX).encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return (f"a name of {len(slug.encode('utf-8'))} bytes",
                f"generated file names ({slug[:12]}...{LONGEST_SUFFIX}) may have at most {MAX_NAME_BYTES} bytes; "
                f"shorten it to {MAX_NAME_BYTES - len(LONGEST_SUFFIX)}")
    return None


SITE_FILES = frozenset({"sitemap.xml", "sitemap.xml.gz", "feed.xml"})
"""Files the site places in a folder beside its pages: an empty sitemap in every folder that holds a twin or a
feed (site/twins.py), the engine's sitemap and the site's feed. A page named so would need a folder where the file
is, or the file's folder where the page is."""


def reserved_slug(slug: str, *, paged: bool) -> bool:
    """True for a slug that a generated file already takes in its folder: `index` in every folder, with any
    ending (`index.md` is the folder's twin, `index.html` its built page), the files of SITE_FILES, and `page-N`
    (with any ending, where its twin is `page-N.md`) where the index itself is split into pages (operations/).
    Compared ignoring case, as a case-insensitive file system does."""
    slug = slug.lower()
    stem = slug.split(".", maxsplit=1)[0]
    return stem == "index" or slug in SITE_FILES or (paged and _PAGE_N.fullmatch(stem) is not None)
