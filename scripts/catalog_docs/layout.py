"""Names, folders and the site's address that several stages share. A light module (standard library only),
imported by mkdocs.yml's docs_dir tag without Jinja or jsonschema."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_DIR / "site" / "templates"
"""The page templates (Jinja2), which the preview loops watch as they watch the catalogue."""
SCHEMA_DIR = PACKAGE_DIR / "catalog" / "schemas"
"""The JSON Schemas every catalogue is validated against. Git holds them once, in the repository's catalog/schema/
(each YAML file names one, for editors); this folder is a relative link to it, and a wheel built from the checkout
carries them as files, so the package works however it is installed (tests/catalog/test_schema_copies.py,
tests/project/test_wheel.py)."""
DOWNLOAD_SCHEMA_DIR = PACKAGE_DIR / "schemas"
"""The JSON Schemas of the downloads (`<name>.schema.json`), published as /downloads/<name>.schema.json."""
SITE_DIR = "site"
"""The built site's folder in the project (mkdocs.yml's site_dir), which `catalog-docs build` checks before its
engine empties it and `catalog-docs clean` removes."""
BUILD_ROOT = "build/catalog-docs"
"""Where, in the project, the tool makes its own build folders (for engines without plugins); git ignores
`build/`, and `catalog-docs clean` removes this folder of it (not hidden: Zensical reads no docs folder under a
hidden one). Nothing of the tool's is ever written into docs/."""
ENGINE_DOCS_ENV = "CATALOG_DOCS_ENGINE_DOCS"
"""The environment variable through which `catalog-docs build` and `catalog-docs watch` tell the engine they run
(Zensical) which build folder to read as its docs folder (see site/zensical_guard.py)."""

SITE_URL_ENV = "SITE_URL"
"""The site's public address, as the build is given it (mkdocs.yml's `site_url: !ENV [SITE_URL, ...]`, the feed, the
diff comment's links)."""

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_NETLOC = re.compile(rf"(?P<host>(?:{_LABEL}\.)*{_LABEL}|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{{1,5}}))?")
"""A host name (its labels), an IPv4 address or a bracketed IPv6 one, then an optional port."""
_PATH = re.compile(r"(?:[A-Za-z0-9._~/-]|%[0-9A-Fa-f]{2})*")
"""RFC 3986's unreserved characters, `/` and percent-escapes: nothing an HTML attribute, Markdown or a shell reads."""


def address_problem(url: str) -> str | None:
    """Why `url` is not a plain http(s) address of a site (scheme, host, optional port and path, nothing else:
    no credentials, query, fragment, quote, angle bracket, backslash, space or control character); None when it
    is one."""
    if not url.isascii() or not url.isprintable() or any(c.isspace() for c in url):
        return "it holds a space, a control or a non-ASCII character (write a host name in its xn-- form)"
    scheme, sep, _ = url.partition("://")
    if not sep or scheme not in ("http", "https"):
        return "it does not start with http:// or https://"
    parts = urlsplit(url)
    if "@" in parts.netloc:
        return "it holds credentials (user@ or user:password@)"
    if "?" in url or "#" in url:
        return "it has a query or a fragment"
    netloc = _NETLOC.fullmatch(parts.netloc)
    if netloc is None:
        return "its host is not a host name or an IP address (with an optional :port)"
    if netloc["port"] is not None and not 0 < int(netloc["port"]) < 65536:
        return "its port is not a number from 1 to 65535"
    if not _PATH.fullmatch(parts.path):
        return "its path holds a character other than letters, digits, - . _ ~ / and %XX escapes"
    return None


def checked_address(url: str, given: str, expected: str, after: str = "") -> str:
    """`url` as given when it is a plain http(s) address (address_problem), the one check of an address every
    command makes; else raises CatalogDocsError in one line: `given` (where it came from), what was `expected`,
    the address as found (shown for a terminal, cut at 80 characters) and why, then `after`."""
    problem = address_problem(url)
    if problem is None:
        return url
    from catalog_docs.errors import CatalogDocsError  # here: this module stays light (standard library only)
    from catalog_docs.escape import for_terminal

    shown = for_terminal(url if len(url) <= 80 else url[:77] + "...")
    raise CatalogDocsError(f"{given}: expected {expected}, found '{shown}': {problem}{after}")
