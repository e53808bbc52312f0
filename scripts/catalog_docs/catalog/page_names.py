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


def reserved_slug(slug: str, *, paged: bool) -> bool:
    """True for a slug that a generated page already takes in its folder: `index` in every folder, and
    `page-N` where the index itself is split into pages (operations/)."""
    slug = slug.lower()
    return slug == "index" or (paged and _PAGE_N.fullmatch(slug) is not None)


