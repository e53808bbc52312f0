"""pa11y (HTML_CodeSniffer and axe runners, WCAG 2 AA) over every page type of the built site.

`python -m catalog_docs.devtools.pa11y --site site` serves site/ on 127.0.0.1, runs pa11y on one page of each
type (the page types of `catalog_docs.devtools.lighthouse`) in one Chromium, and prints each error with its
runner, code, page and element, then a count per page type. It reports and exits 0 whatever it finds;
`--fail-on-errors` makes it exit 1 when any page has an error.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from catalog_docs.devtools.lighthouse import page_types
from catalog_docs.devtools.static_server import serve
from catalog_docs.errors import CatalogDocsError

ROOT = Path(__file__).resolve().parents[3]
TOOLS = ROOT / "tools" / "lighthouse"
SCRIPT = TOOLS / "pa11y-pages.js"
PA11Y = TOOLS / "node_modules" / "pa11y"

Runner = Literal["htmlcs", "axe"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One error pa11y reported on one page."""

    page_type: str
    url: str
    runner: Runner
    code: str
    message: str
    selector: str
    needs_review: bool
    """axe could not decide (an "incomplete" result); pa11y counts these as errors unless capped."""


def run_urls(urls: list[str]) -> dict[str, list[dict[str, Any]]]:
    """pa11y's raw issues (errors only) for each URL, from one node process and one browser."""
    if not PA11Y.is_dir():
        raise CatalogDocsError(f"{PA11Y} is missing: run `make tools` (npm ci in tools/lighthouse)")
    # run from tools/lighthouse so puppeteer reads .puppeteerrc.cjs there (Debian's chromium, no download)
    proc = subprocess.run(["node", str(SCRIPT), *urls], cwd=TOOLS, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise CatalogDocsError(f"pa11y failed: {proc.stderr[-2000:]}")
    issues: dict[str, list[dict[str, Any]]] = json.loads(proc.stdout)  # pa11y's JSON, per URL
    return issues


def run_site(site: Path, pages: dict[str, str]) -> list[Finding]:
    """Serve site/ on 127.0.0.1 and run pa11y on each page type's path; every error found."""
    server, base = serve(site)
    try:
        urls = {name: base + path for name, path in pages.items()}
        raw = run_urls(list(urls.values()))
    finally:
        server.shutdown()
    return [Finding(page_type=name, url=url, runner=issue["runner"], code=issue["code"],
                    message=issue["message"], selector=issue["selector"],
                    needs_review=bool((issue.get("runnerExtras") or {}).get("needsFurtherReview")))
            for name, url in urls.items() for issue in raw[url] if issue["type"] == "error"]


def format_report(findings: list[Finding], pages: dict[str, str]) -> str:
    """Each distinct (runner, code, element) with the page types it shows on, then counts per page type."""
    lines = []
    grouped: dict[tuple[str, str, str, bool], list[Finding]] = {}
    for f in findings:
        grouped.setdefault((f.runner, f.code, f.selector, f.needs_review), []).append(f)
    for (runner, code, selector, needs_review), group in grouped.items():
        review = " (needs review: axe could not decide)" if needs_review else ""
        lines.append(f"{runner} {code}{review}\n  at {selector}\n  {group[0].message}\n"
                     f"  on: {', '.join(f.page_type for f in group)}")
    counts = Counter(f.page_type for f in findings)
    lines.append(f"{'page type':<12} {'errors':>6}")
    lines += [f"{name:<12} {counts[name]:>6}" for name in pages]
    lines.append(f"{len(findings)} errors on {len(pages)} page types")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python -m catalog_docs.devtools.pa11y --site site [--catalog catalog] [--fail-on-errors]`"""
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.errors import CatalogInvalid

    parser = argparse.ArgumentParser(prog="catalog-docs-pa11y", description=__doc__)
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--catalog", type=Path, default=Path("catalog"))
    parser.add_argument("--fail-on-errors", action="store_true", help="exit 1 when pa11y reports any error")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"catalog-docs-pa11y: error: no built site in {args.site}: run `make site` first", file=sys.stderr)
        return 2
    try:
        pages = page_types(load_catalog(args.catalog))
        findings = run_site(args.site, pages)
    except CatalogInvalid as exc:
        print(exc.report(), file=sys.stderr)
        return 1
    except CatalogDocsError as exc:
        print(f"catalog-docs-pa11y: error: {exc}", file=sys.stderr)
        return 2
    print(format_report(findings, pages))
    return 1 if args.fail_on_errors and findings else 0


if __name__ == "__main__":
    sys.exit(main())
